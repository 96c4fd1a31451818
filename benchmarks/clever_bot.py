"""Doppelt so clever: the strong bot's solo average over 1,000 seeded games against the solo rating table.

Run: ``python benchmarks/clever_bot.py [--games N] [--seed S] [--bot strong|random] [--workers W] [--json]``.
Game i is ``doppelx.games.clever.tournament.play_game([bot], seed, i)``, so a figure is reproduced by its
seed whatever the number of workers. Prints the mean, spread, the rating band of the mean
and how the games spread over the bands; the project's aim for the strong bot is a mean of
at least 200 points. Nothing is asserted (figures, not tests).
"""

from __future__ import annotations

import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from doppelx.games.clever.tournament import play_game
from rules.clever.spec import default_spec

AIM = 200


def _score(job: tuple[str, int, int]) -> int:
    bot, seed, index = job
    return play_game([bot], seed, index).scores()[0]


def measure(bot: str, games: int, seed: int, workers: int) -> dict:
    """Play the solo games and gather the figures."""
    jobs = [(bot, seed, i) for i in range(games)]
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            scores = list(pool.map(_score, jobs, chunksize=16))
    else:
        scores = [_score(job) for job in jobs]
    seconds = time.perf_counter() - t0
    spec = default_spec()
    bands = {band: 0 for band in spec.rating_bands()}
    for s in scores:
        bands[spec.rating_band(s)] += 1
    mean = statistics.fmean(scores)
    return {
        "game": "clever",
        "bot": bot,
        "players": 1,
        "games": games,
        "seed": seed,
        "mean": round(mean, 2),
        "stdev": round(statistics.pstdev(scores), 2),
        "stderr": round(statistics.pstdev(scores) / games**0.5, 2),
        "median": statistics.median(scores),
        "min": min(scores),
        "max": max(scores),
        "rating_of_mean": spec.rating_band(mean),
        "aim": AIM,
        "reaches_aim": mean >= AIM,
        "bands": bands,
        "seconds": round(seconds, 1),
    }


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", choices=("strong", "random"), default="strong")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    figures = measure(args.bot, args.games, args.seed, args.workers)
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    f = figures
    print(f"Doppelt so clever solo, {f['bot']} bot: {f['games']} games, seed {f['seed']}")
    print(
        f"mean {f['mean']:.2f} (+-{f['stderr']:.2f})  median {f['median']}  sd {f['stdev']:.2f}  "
        f"min {f['min']}  max {f['max']}"
    )
    print(
        f"rating of the mean: {f['rating_of_mean']}  (aim: mean >= {AIM}: "
        f"{'reached' if f['reaches_aim'] else 'not reached'})"
    )
    print("games per rating band: " + ", ".join(f"{b} {n}" for b, n in f["bands"].items() if n))
    print(f"{f['seconds']:.1f} s, {f['seconds'] / f['games'] * 1000:.0f} ms per game")


if __name__ == "__main__":
    main()
