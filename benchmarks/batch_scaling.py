"""Batch throughput: throws/s with 1 and 2 pool workers, the scaling efficiency, and the Ray
backend's overhead against the pool on the same job — all measured in one run.

    python benchmarks/batch_scaling.py [--throws N] [--json]

Each timing runs the full ``run_plan`` (workers start, build their worlds, write chunks,
merge) into a fresh folder, so start-up costs count as a user sees them. Efficiency is
``(t₁ / t₂) / 2``; the target on this 2-core machine is ≥ 85 %.
"""

# ruff: noqa: I001  (imports are ordered on purpose: a backend is configured before it loads)

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.batch.backends import run_plan  # noqa: E402
from doppelx.batch.plan import RunSpec  # noqa: E402


def timed(spec: RunSpec, workers: int, backend: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_plan(spec, Path(tmp) / "run", workers=workers, backend=backend, progress=False)
        return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=4000)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    spec = RunSpec("throws", args.throws, args.seed, args.chunk, {"board": "I", "lying": 6})
    t1 = timed(spec, 1, "pool")
    t2 = timed(spec, 2, "pool")
    try:
        tr = timed(spec, 2, "ray")
    except Exception as exc:  # Ray missing or unable to start: report, do not hide
        tr = float("nan")
        print(f"ray backend failed: {exc}", file=sys.stderr)
    result = {
        "throws": args.throws,
        "throws_per_s_1_worker": args.throws / t1,
        "throws_per_s_2_workers": args.throws / t2,
        "scaling_efficiency": (t1 / t2) / 2,
        "ray_throws_per_s_2_workers": args.throws / tr,
        "ray_overhead": tr / t2 - 1,
        "seconds": {"pool_1": t1, "pool_2": t2, "ray_2": tr},
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.throws} standard-turn throws (side I, 6 dice lying), chunks of {args.chunk}")
        print(f"  pool, 1 worker : {result['throws_per_s_1_worker']:7.1f} throws/s  ({t1:.1f} s)")
        print(f"  pool, 2 workers: {result['throws_per_s_2_workers']:7.1f} throws/s  ({t2:.1f} s)")
        print(f"  scaling efficiency: {result['scaling_efficiency']:.0%} (target ≥ 85 %)")
        print(
            f"  ray,  2 workers: {result['ray_throws_per_s_2_workers']:7.1f} throws/s  ({tr:.1f} s), "
            f"overhead against the pool {result['ray_overhead']:+.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
