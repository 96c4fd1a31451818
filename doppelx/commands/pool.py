"""``doppelx pool``: combine finished runs of the same parameters and other seeds into one sample.

    doppelx pool runs/pooled runs/seed-1 runs/seed-2 runs/seed-3 [--overwrite] [--json]

Writes the runs' tables (hive-partitioned by seed), a ``run.json`` naming the runs and the
run report over all their items into the folder (:mod:`doppelx.batch.pool`).
"""

from __future__ import annotations

import argparse
import json

DESCRIPTION = (
    "Combine finished `doppelx simulate` runs of the same kind, parameters and code but other "
    "seeds (independent samples) into one run-like folder OUT: its tidy tables (hive-partitioned "
    "by seed: OUT/dice/seed=3/part-0.parquet; items numbered anew so item stays unique, run_item "
    "keeps the number in its run), a run.json naming the runs, and report.md / report.html over "
    "all pooled items. Refused, writing nothing: fewer than 2 runs, a folder that is no finished "
    "run (a sweep: pool one variant of several sweeps), another kind, parameter or code version, "
    "a seed twice, an OUT that is not empty (--overwrite replaces an earlier pool only). OUT is "
    "built beside itself and renamed into place; the same runs in any order give the same files."
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "pool",
        help="combine finished runs of other seeds into one sample and report",
        description=DESCRIPTION,
    )
    p.add_argument(
        "out", metavar="OUT", help="the pool's folder (new, empty, or an earlier pool with --overwrite)"
    )
    p.add_argument(
        "runs", nargs="+", metavar="RUN", help="a finished simulate throws|games folder (at least 2)"
    )
    p.add_argument(
        "--overwrite", action="store_true", help="replace an earlier pool in OUT once the new one is complete"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.set_defaults(func=run_pool)


def run_pool(args: argparse.Namespace) -> int:
    from rules.common.optional import import_optional

    import_optional("pyarrow", "analysis", "doppelx pool (Parquet result files)")
    from doppelx.batch.pool import pool_runs

    summary = pool_runs(args.out, args.runs, overwrite=args.overwrite, progress=not args.quiet)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"wrote {summary['table']}\nwrote {summary['report']}")
    return 0
