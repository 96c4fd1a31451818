"""Physics throughput of a standard DoppelX turn, against the naive baseline in the same run.

    python benchmarks/throughput.py [--throws N] [--naive-throws M] [--seed S] [--json]

The standard-turn scene: side I, six dice lying flat on the board from earlier throws
(random free places, faces and turns), the active player's two dice (blue and white)
thrown by the medium bot's throw model at its best spot. The scenes are drawn first from
the seed; the clock then runs over ``run_throw`` alone — rebuilding the world, stepping to
rest, reading the outcome, with the tunnel watch on — in this one process (one core).

Reported: throws per second, physics steps per second, simulated seconds per throw,
throws the tunnel watch flagged; the same two dice with nothing lying on the board
(``alone_throws_per_s``); and the naive baseline on the same scenes — the board as one
concave triangle mesh, every body awake, PyBullet's default solver (50 iterations), no
CCD — with the ratio. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def scenes(n: int, seed: int):
    """``n`` standard-turn scenes ``(lying poses, throw)`` on side I from ``seed``."""
    from doppelx.bench.throws import standard_turns
    from rules.rng import make_rng

    return standard_turns(n, make_rng(seed), "I")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=1000, help="standard-turn throws (default 1000)")
    ap.add_argument(
        "--naive-throws",
        type=int,
        default=None,
        help="throws of the naive baseline (default: throws/10, at least 20)",
    )
    ap.add_argument("--seed", type=int, default=2024, help="scene seed (default 2024)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.throws < 1:
        ap.error("--throws must be at least 1")
    from doppelx.bench.throws import measure
    from physics.settings import SimSettings

    board, items = scenes(args.throws, args.seed)
    naive_n = args.naive_throws or max(20, args.throws // 10)
    tuned = measure(board, items)
    alone = measure(board, items, with_lying=False)
    naive = measure(board, items[:naive_n], SimSettings.naive())
    result = {
        "throws": tuned["throws"],
        "throws_per_s": round(tuned["throws_per_s"], 1),
        "steps_per_s": round(tuned["steps_per_s"]),
        "sim_s_per_throw": round(tuned["sim_s_per_throw"], 3),
        "tunnelled": tuned["tunnelled"],
        "unsettled": tuned["unsettled"],
        "alone_throws_per_s": round(alone["throws_per_s"], 1),
        "alone_sim_s_per_throw": round(alone["sim_s_per_throw"], 3),
        "naive_throws": naive["throws"],
        "naive_throws_per_s": round(naive["throws_per_s"], 2),
        "naive_steps_per_s": round(naive["steps_per_s"]),
        "naive_sim_s_per_throw": round(naive["sim_s_per_throw"], 3),
        "naive_unsettled": naive["unsettled"],
        "naive_tunnelled": naive["tunnelled"],
        "ratio": round(tuned["throws_per_s"] / naive["throws_per_s"], 1),
        "seed": args.seed,
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "load_avg_1min": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"standard turn, side I, 6 dice lying, 2 thrown ({result['throws']} throws, one core)")
        print(
            f"  tuned:  {result['throws_per_s']:8.1f} throws/s  {result['steps_per_s']:8d} steps/s  "
            f"{result['sim_s_per_throw']:.3f} s simulated per throw  tunnelled {result['tunnelled']}  "
            f"unsettled {result['unsettled']}"
        )
        print(f"  alone:  {result['alone_throws_per_s']:8.1f} throws/s  (same two dice, nothing lying)")
        print(
            f"  naive:  {result['naive_throws_per_s']:8.2f} throws/s  {result['naive_steps_per_s']:8d} steps/s  "
            f"{result['naive_sim_s_per_throw']:.3f} s simulated per throw  ({result['naive_throws']} throws, "
            f"unsettled {result['naive_unsettled']})"
        )
        print(
            f"  ratio tuned/naive: {result['ratio']}×   (load average {result['machine']['load_avg_1min']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
