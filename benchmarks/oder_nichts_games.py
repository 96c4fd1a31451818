"""Doppelt oder nichts bots-only figures: 1,000 games per line-up, winner shares, game length, speed.

Run: ``python benchmarks/oder_nichts_games.py [--games N] [--seed S]``. Prints one line per
line-up; nothing is asserted (figures, not tests).
"""

from __future__ import annotations

import time

from doppelx.games.oder_nichts.tournament import run_batch
from rules.oder_nichts import GameConfig

LINEUPS = [
    ("4 x basic", ["basic"] * 4),
    ("basic,gambler,cautious,random", ["basic", "gambler", "cautious", "random"]),
    ("basic vs random", ["basic", "random"]),
    ("6 x basic", ["basic"] * 6),
]


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for label, bots in LINEUPS:
        t0 = time.perf_counter()
        stats = run_batch(GameConfig(len(bots)), bots, args.games, args.seed)
        dt = time.perf_counter() - t0
        shares = " ".join(f"{n}={100 * w / stats['games']:.1f}%" for n, w in stats["wins"].items())
        print(
            f"{label:<31} {shares}  shared={stats['shared_wins']}  rounds {stats['mean_rounds']:.2f}  "
            f"turns {stats['mean_turns']:.0f}  {stats['games'] / dt:,.1f} games/s"
        )


if __name__ == "__main__":
    main()
