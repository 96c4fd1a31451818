"""Das Doppel Spiel: how often the strong bot beats the random bot, over 1,000 seeded games.

Run: ``python benchmarks/doppel_bot.py [--games N] [--seed S] [--workers W] [--json]``.
Game i is ``doppelx.games.doppelspiel.tournament.batch_game(["strong", "random"], seed, i)`` (dice from
``child_rng(seed, i)``, the bots take turns to start), so a figure is reproduced by its seed
whatever the number of workers. Prints the strong bot's win share (wins by match points;
draws count as not won), both bots' score statistics and the time taken. The project's
aim is a win share of at least 95 %. Nothing is asserted (figures, not tests).
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor

from doppelx.games.doppelspiel.tournament import batch_game, summarise

AIM = 0.95
BOTS = ["strong", "random"]


def _game(job: tuple[int, int]) -> dict:
    seed, index = job
    return batch_game(BOTS, seed, index)


def measure(games: int, seed: int, workers: int) -> dict:
    """Play the games and gather the figures."""
    jobs = [(seed, i) for i in range(games)]
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            records = list(pool.map(_game, jobs, chunksize=8))
    else:
        records = [_game(job) for job in jobs]
    seconds = time.perf_counter() - t0
    stats = summarise(BOTS, records, seed)
    share = stats["per_bot"]["strong"]["wins"] / games
    stats.update(
        {
            "strong_win_share": round(share, 4),
            "aim": AIM,
            "reaches_aim": share >= AIM,
            "seconds": round(seconds, 1),
        }
    )
    return stats


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.seed < 0 or args.workers < 1:
        parser.error("--games and --workers must be >= 1, --seed >= 0")
    stats = measure(args.games, args.seed, args.workers)
    if args.json:
        print(json.dumps(stats, indent=1))
        return
    s, r = stats["per_bot"]["strong"], stats["per_bot"]["random"]
    print(
        f"Das Doppel Spiel, strong vs random: {stats['games']} games, seed {stats['seed']}, "
        f"{stats['seconds']} s"
    )
    print(
        f"strong bot wins {s['wins']} of {stats['games']} = {stats['strong_win_share']:.1%} "
        f"(aim >= {AIM:.0%}: {'reached' if stats['reaches_aim'] else 'NOT reached'}); draws {stats['draws']}"
    )
    for name, b in (("strong", s), ("random", r)):
        print(
            f"  {name:<7} score mean {b['mean']:.1f}  min {b['min']}  max {b['max']}  "
            f"match points {b['mean_match_points']:.2f} of 13"
        )


if __name__ == "__main__":
    main()
