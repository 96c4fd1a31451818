"""Refit the strong Doppelt so clever bot's linear correction (``FITTED_WEIGHTS``) by policy iteration.

Run: ``python benchmarks/clever_fit.py [--iterations N] [--games G] [--seed S] [--workers W]``.
Each iteration plays G solo games with the current weights, records at every decision the
features of the chosen afterstate and the final score minus the hand-made value, fits
ridge-regression weights on the last three iterations' records, averages them with the
previous weights (damping) and measures the new weights on a fixed set of games. The
weights of every iteration are printed as a Python tuple for
``doppelx.games.clever.bots.FITTED_WEIGHTS``; nothing is written. The shipped weights came from
two runs of this procedure: 10 iterations of 800 games from scratch without the in-turn
lookahead (``--fresh --no-lookahead``), then 5 with it (at the bot's earlier lookahead
setting). A rerun gives weights of the same quality, not the same digits.
"""

from __future__ import annotations

import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from doppelx.games.clever.bots import FITTED_WEIGHTS, StrongBot, StrongParams
from doppelx.games.clever.tournament import game_generators
from rules.clever.game import CleverGame
from rules.contract import chance_step


def _game(job: tuple) -> tuple[int, list, list]:
    weights, seed, index, record, params = job
    dice, own = game_generators(seed, index, 1)
    bot = StrongBot(params, rng=own, weights=weights)
    if record:
        bot.record = []
    state = CleverGame(1).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, dice)
        else:
            state.apply_action(bot.choose(state))
    final = state.scores()[0]
    rows = bot.record or []
    return final, [r[0] for r in rows], [final - r[1] for r in rows]


def main() -> None:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--ridge", type=float, default=50.0)
    parser.add_argument("--fresh", action="store_true", help="start without the shipped weights")
    parser.add_argument(
        "--no-lookahead", action="store_true", help="fit the bot without its in-turn lookahead"
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    params = StrongParams(lookahead_top=1) if args.no_lookahead else StrongParams()
    weights = () if args.fresh else tuple(FITTED_WEIGHTS or ())
    xs, ys = [], []
    with ProcessPoolExecutor(args.workers) as pool:
        for it in range(args.iterations):
            t0 = time.perf_counter()
            jobs = [(weights, args.seed + it, i, True, params) for i in range(args.games)]
            results = list(pool.map(_game, jobs, chunksize=8))
            xs.append(np.array([x for _, rows, _ in results for x in rows]))
            ys.append(np.array([y for _, _, target in results for y in target]))
            x, y = np.vstack(xs[-3:]), np.concatenate(ys[-3:])
            fitted = np.linalg.solve(x.T @ x + args.ridge * np.eye(x.shape[1]), x.T @ y)
            if weights:
                fitted = 0.5 * fitted + 0.5 * np.array(weights)
            weights = tuple(round(float(w), 4) for w in fitted)
            check = [(weights, 777, i, False, params) for i in range(args.eval_games)]
            scores = [r[0] for r in pool.map(_game, check, chunksize=8)]
            print(
                f"iteration {it}: played mean {statistics.fmean(r[0] for r in results):.1f}, "
                f"new weights {statistics.fmean(scores):.1f} on {args.eval_games} games, "
                f"{len(y)} records, {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
            print(f"FITTED_WEIGHTS = {weights!r}", flush=True)


if __name__ == "__main__":
    main()
