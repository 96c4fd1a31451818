"""Würfelblitz bots-only figures: 1,000 games per setting, winner shares, game length, speed.

Run: ``python benchmarks/wuerfelblitz_games.py [--games N] [--seed S]``. Prints one line
per setting; nothing is asserted (figures, not tests).
"""

from __future__ import annotations

import time

from doppelx.games.wuerfelblitz.bots import SKILLS, BlitzBot
from doppelx.games.wuerfelblitz.tournament import run_batch
from rules.wuerfelblitz import GameConfig, load_spec

SETTINGS = [
    ("easy,medium,hard; 2 white", ["easy", "medium", "hard"], dict(white_dice=2)),
    ("easy,medium,hard; 3 white", ["easy", "medium", "hard"], dict(white_dice=3)),
    ("easy,medium,hard; variant", ["easy", "medium", "hard"], dict(variant=True)),
    ("easy,medium,hard; handicap 1,2,3", ["easy", "medium", "hard"], dict(whites_per_black=(1, 2, 3))),
    ("4 x medium", ["medium"] * 4, {}),
    ("7 x medium", ["medium"] * 7, {}),
]


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = load_spec()
    for label, skills, overrides in SETTINGS:
        bots = [BlitzBot(SKILLS[s], f"{i}:{s}") for i, s in enumerate(skills, 1)]
        config = GameConfig.from_spec(spec, len(bots), **overrides)
        t0 = time.perf_counter()
        stats = run_batch(spec, config, bots, args.games, args.seed)
        dt = time.perf_counter() - t0
        shares = " ".join(f"{n}={100 * w / stats.games:.1f}%" for n, w in zip(stats.names, stats.wins))
        print(
            f"{label:<34} {shares}  shared={stats.shared}  rounds mean {stats.mean_rounds:.1f} "
            f"[{stats.min_rounds}-{stats.max_rounds}]  {stats.games / dt:,.0f} games/s"
        )


if __name__ == "__main__":
    main()
