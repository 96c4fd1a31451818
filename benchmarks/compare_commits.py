"""Standard-turn throws per second of two commits side by side, alternating, in one run.

    python benchmarks/compare_commits.py [--base d0dbfd1] [--head WORKTREE|COMMIT] [--throws N]
                                         [--rounds R] [--json]

``--base`` (default ``d0dbfd1``, main when issue 12 was written) is exported with
``git archive`` into a temporary folder; ``--head`` is this working tree (default: the files
git tracks, as they are now, copied into a twin folder beside the base — the same code run
from the checkout itself measured 4–8 % slower, a matter of where and not of what) or
another commit, exported the same way. Each round runs one fresh process per tree, base
and head in turn (the order flips every round), with the same Python and packages; each
process builds the standard-turn scenes of ``benchmarks/throughput.py`` (side I, six dice
lying, blue and white thrown by the medium bot; the same seed) with its own tree's code,
warms up on 20 throws, then times ``run_throw`` over ``--throws`` throws — wall clock and
CPU seconds of the process. Reported: each tree's median rate over the rounds and the ratio
head / base of the medians (wall and CPU), with the load average before and after. Both
trees see the same load, so the ratio is what counts; absolute rates are for scale only.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What each measuring process runs, inside the tree named by ``sys.argv[1]``.
PROBE = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
# the editable install's finder would fill any module the tree lacks from this checkout
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
try:
    from doppelx.bench.throws import standard_turns
    from physics.run import run_throw
    from physics.world import World
except ImportError as exc:
    sys.exit(f"this tree has no {exc.name or exc}: too old for this comparison (d0dbfd1 and later have it)")
try:  # the seeding helpers moved to rules.common in issue 31; older trees have rules.rng
    from rules.common.rng import make_rng
    RNG = "rules.common.rng"
except ImportError:
    from rules.rng import make_rng
    RNG = "rules.rng"
for m in ("doppelx.bench.throws", "physics.run", RNG):
    if not os.path.realpath(sys.modules[m].__file__).startswith(os.path.realpath(sys.argv[1])):
        sys.exit(f"{m} was loaded from {sys.modules[m].__file__}, not from the tree measured")
n, seed = int(sys.argv[2]), int(sys.argv[3])
board, items = standard_turns(n + 20, make_rng(seed), "I")
world = World(board)
for lying, throw in items[:20]:
    run_throw(world, throw, lying)
w0, c0 = time.perf_counter(), time.process_time()
steps = 0
for lying, throw in items[20:]:
    steps += run_throw(world, throw, lying).steps
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
print(json.dumps({"throws_per_s": n / wall, "cpu_throws_per_s": n / cpu, "steps_per_throw": steps / n}))
"""


def export(commit: str, into: Path) -> Path:
    """The tree of ``commit`` as files under ``into`` (``git archive``)."""
    into.mkdir(parents=True)
    archive = into.with_suffix(".tar")
    with open(archive, "wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()
    return into


def copy_working_tree(into: Path) -> Path:
    """The files git tracks in this checkout, as they are now (uncommitted edits included), under ``into``."""
    import shutil

    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def probe(tree: Path, throws: int, seed: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tree), str(throws), str(seed)],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tree),
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        print(f"compare_commits: measuring {tree} failed: {last}", file=sys.stderr)
        raise SystemExit(2)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _is_commit(name: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"],
        capture_output=True,
    )
    return found.returncode == 0


def main(argv=None) -> int:
    from doppelx import argtypes

    _at_least_1 = argtypes.whole(1, 1_000_000)
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="d0dbfd1", help="base commit (default d0dbfd1)")
    ap.add_argument("--head", default=None, help="head commit (default: this working tree)")
    ap.add_argument("--throws", type=_at_least_1, default=300, help="timed throws per process (default 300)")
    ap.add_argument("--rounds", type=_at_least_1, default=4, help="rounds of base + head (default 4)")
    ap.add_argument("--seed", type=argtypes.seed, default=2024, help="scene seed (default 2024)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    for flag, commit in (("--base", args.base), ("--head", args.head)):
        if commit is not None and not _is_commit(commit):
            ap.error(f"{flag} {commit!r}: no such commit in {ROOT}")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="doppelx-compare-") as tmp:
        trees = {"base": export(args.base, Path(tmp) / "base")}
        # the working tree is copied beside the base too: the same code run from the checkout
        # measured 4-8 % slower than from a copy under /tmp (24 Nov 2026), a difference of
        # where, not of what, so both trees run from twin folders
        trees["head"] = (
            export(args.head, Path(tmp) / "head") if args.head else copy_working_tree(Path(tmp) / "head")
        )
        runs: dict[str, list[dict]] = {"base": [], "head": []}
        for r in range(args.rounds):
            for name in ("base", "head") if r % 2 == 0 else ("head", "base"):
                runs[name].append(probe(trees[name], args.throws, args.seed))
                if not args.json:
                    print(
                        f"  round {r + 1} {name}: {runs[name][-1]['throws_per_s']:.1f} throws/s", flush=True
                    )

    def median(name: str, key: str) -> float:
        return statistics.median(x[key] for x in runs[name])

    result = {
        "base": args.base,
        "head": args.head or "working tree",
        "throws": args.throws,
        "rounds": args.rounds,
        "base_throws_per_s": round(median("base", "throws_per_s"), 1),
        "head_throws_per_s": round(median("head", "throws_per_s"), 1),
        "speedup": round(median("head", "throws_per_s") / median("base", "throws_per_s"), 2),
        "base_cpu_throws_per_s": round(median("base", "cpu_throws_per_s"), 1),
        "head_cpu_throws_per_s": round(median("head", "cpu_throws_per_s"), 1),
        "cpu_speedup": round(median("head", "cpu_throws_per_s") / median("base", "cpu_throws_per_s"), 2),
        "base_steps_per_throw": round(median("base", "steps_per_throw"), 1),
        "head_steps_per_throw": round(median("head", "steps_per_throw"), 1),
        "runs": runs,
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "load_avg_before": [round(x, 2) for x in load_before],
            "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    m = result["machine"]
    print(
        f"standard turn, side I, {args.throws} throws per process, {args.rounds} rounds alternating\n"
        f"  base {args.base}: {result['base_throws_per_s']:7.1f} throws/s  "
        f"({result['base_cpu_throws_per_s']:.1f} per CPU s)\n"
        f"  head {result['head']}: {result['head_throws_per_s']:7.1f} throws/s  "
        f"({result['head_cpu_throws_per_s']:.1f} per CPU s)\n"
        f"  speedup head / base: {result['speedup']}× wall, {result['cpu_speedup']}× CPU   "
        f"(load average {m['load_avg_before'][0]} before, {m['load_avg_after'][0]} after, {m['cores']} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
