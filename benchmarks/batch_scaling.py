"""Batch throughput: throws/s with 1 and 2 pool workers, the scaling efficiency, and Ray against the
pool on the same job — a running local cluster and, on its own line, the cold start of one.

    python benchmarks/batch_scaling.py [--throws N] [--lying K] [--chunk C] [--seed S] [--repeat R]
                                       [--no-ray] [--json]

Each timing runs the full ``run_plan`` (workers start, build their worlds, write chunks,
merge) into a fresh folder, so start-up costs count as a user sees them. Efficiency is
``(t₁ / t₂) / 2``; the target on this 2-core machine is ≥ 85 %.

Ray is timed the way an analyst uses a cluster: one is started first (``ray start --head
--num-cpus 2 --block`` as a child process on a free port, not timed; token authentication
off for this loopback cluster), the job connects with ``--address``, and the cluster is
stopped afterwards by its process id. ``ray_overhead_running_cluster`` = Ray's wall time
/ the pool's (2 workers) − 1 (a fraction: 0.1 = 10 %). ``ray_cold_start_s`` is what a job
without ``--address`` pays on top: starting a local cluster inside the job and running a
first task on it (``ray.init`` to the first result), measured in a fresh process.
The pool and Ray runs alternate (pool, Ray, pool, Ray with ``--repeat 2``) and the
medians are compared, so a change of the machine's load touches both alike. A Ray
figure not measured (``--no-ray``, or Ray failed: the reason is printed) is null in
``--json`` and "not run" in the text. Every argument is checked with the bounds of
``doppelx simulate throws`` before anything runs (one line, exit 2).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.ray_cluster import RAY_ENV, Cluster, free_port
from doppelx import argtypes
from doppelx.batch.backends import run_plan
from doppelx.batch.plan import RunSpec
from doppelx.cli import OneLineParser
from doppelx.commands.simulate import MAX_CHUNK, MAX_THROWS, lying_count

#: Most pool/Ray pairs (each pair runs the job twice).
MAX_REPEAT = 100

os.environ.update({"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"})

COLD_START = """
import time
t0 = time.perf_counter()
import ray
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
ray.get(ray.remote(lambda: 1).remote())
print(time.perf_counter() - t0)
ray.shutdown()
"""


def timed(spec: RunSpec, workers: int, backend: str, address: str | None = None) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_plan(spec, Path(tmp) / "run", workers=workers, backend=backend, address=address, progress=False)
        return time.perf_counter() - t0


def cold_start() -> float:
    out = subprocess.run(
        [sys.executable, "-c", COLD_START], capture_output=True, text=True, check=True, env=RAY_ENV
    )
    return float(out.stdout.strip().splitlines()[-1])


def finite(x: float) -> float | None:
    """``x``, or None for a figure not measured (NaN is not JSON)."""
    return x if math.isfinite(x) else None


def parser() -> argparse.ArgumentParser:
    """The arguments, each checked as ``doppelx simulate throws`` checks it (one line, exit 2)."""
    ap = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--throws",
        type=argtypes.whole(1, MAX_THROWS, "a number of throws"),
        metavar="N",
        default=24000,
        help="throws per job (default 24000: ≥ 30 s per job here)",
    )
    ap.add_argument(
        "--lying",
        type=lying_count,
        metavar="K",
        default=6,
        help="dice lying on the board, 0–7 (default 6: a standard turn)",
    )
    ap.add_argument(
        "--chunk",
        type=argtypes.whole(1, MAX_CHUNK, "a chunk size"),
        metavar="C",
        default=50,
        help="throws per chunk (default 50)",
    )
    ap.add_argument("--seed", type=argtypes.seed, default=11, metavar="S", help="the jobs' seed (default 11)")
    ap.add_argument(
        "--repeat",
        type=argtypes.whole(1, MAX_REPEAT, "a number of pool/Ray pairs"),
        metavar="R",
        default=2,
        help="pool/Ray pairs to alternate (default 2)",
    )
    ap.add_argument("--no-ray", action="store_true", help="pool figures only")
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    spec = RunSpec("throws", args.throws, args.seed, args.chunk, {"board": "I", "lying": args.lying})
    load_before = os.getloadavg()[0]
    t1 = timed(spec, 1, "pool")
    pool2: list[float] = []
    ray2: list[float] = []
    cold = float("nan")
    error = cold_error = None
    if args.no_ray:
        pool2.append(timed(spec, 2, "pool"))
    else:
        with tempfile.TemporaryDirectory(prefix="ray-") as tmp:
            cluster = None
            try:
                cluster = Cluster(Path(tmp), free_port())
                cluster.wait_ready()
                for _ in range(args.repeat):
                    pool2.append(timed(spec, 2, "pool"))
                    ray2.append(timed(spec, 2, "ray", cluster.address))
            except Exception as exc:  # Ray missing or unable to start: report, do not hide
                error = f"{type(exc).__name__}: {exc}"
                print(f"ray backend failed: {error}", file=sys.stderr)
            finally:
                if cluster is not None:
                    cluster.stop()
        try:
            cold = cold_start()
        except Exception as exc:
            said = (getattr(exc, "stderr", None) or "").strip().splitlines()  # the child's own error line
            cold_error = said[-1] if said else f"{type(exc).__name__}: {exc}"
            print(f"ray cold start failed: {cold_error}", file=sys.stderr)
        if not pool2:
            pool2.append(timed(spec, 2, "pool"))
    t2 = statistics.median(pool2)
    tr = statistics.median(ray2) if ray2 else float("nan")
    result = {
        "throws": args.throws,
        "lying": args.lying,
        "throws_per_s_1_worker": args.throws / t1,
        "throws_per_s_2_workers": args.throws / t2,
        "scaling_efficiency": (t1 / t2) / 2,
        # null where Ray was not run (--no-ray) or failed (ray_error, ray_cold_start_error)
        "ray_throws_per_s_2_workers": finite(args.throws / tr),
        "ray_overhead_running_cluster": finite(tr / t2 - 1),
        "ray_cold_start_s": finite(cold),
        "seconds": {"pool_1": t1, "pool_2": pool2, "ray_2_running_cluster": ray2},
        "ray_error": error,
        "ray_cold_start_error": cold_error,
        "machine": {
            "cores": os.cpu_count(),
            "load_avg_1min_before": round(load_before, 2),
            "load_avg_1min_after": round(os.getloadavg()[0], 2),
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.throws} throws (side I, {args.lying} dice lying), chunks of {args.chunk}")
    print(f"  pool, 1 worker : {result['throws_per_s_1_worker']:7.1f} throws/s  ({t1:.1f} s)")
    print(
        f"  pool, 2 workers: {result['throws_per_s_2_workers']:7.1f} throws/s  ({t2:.1f} s, median of {len(pool2)})"
    )
    print(f"  scaling efficiency: {result['scaling_efficiency']:.0%} (target ≥ 85 %)")
    ray_label = "  ray,  2 workers, running cluster:"
    if result["ray_throws_per_s_2_workers"] is None:
        why = (
            "--no-ray" if args.no_ray else f"ray backend failed: {error}" if error else "no Ray run finished"
        )
        print(f"{ray_label} not run ({why})")
    else:
        print(
            f"{ray_label} {result['ray_throws_per_s_2_workers']:7.1f} throws/s  ({tr:.1f} s), "
            f"overhead against the pool {result['ray_overhead_running_cluster']:+.0%} (target ≤ 10 %)"
        )
    cold_label = "  ray cold start (local cluster inside the job):"
    if result["ray_cold_start_s"] is None:
        why = "--no-ray" if args.no_ray else f"failed: {cold_error}" if cold_error else "not measured"
        print(f"{cold_label} not run ({why})")
    else:
        print(f"{cold_label} {cold:.1f} s")
    m = result["machine"]
    print(
        f"  load average {m['load_avg_1min_before']} before, {m['load_avg_1min_after']} after ({m['cores']} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
