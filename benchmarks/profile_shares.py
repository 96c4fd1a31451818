"""Where a standard turn's time goes: py-spy samples of ``run_throw`` sorted into what they were doing.

    py-spy record --native -r 250 -f raw -o profile.txt -- python benchmarks/profile_shares.py --run 1000
    python benchmarks/profile_shares.py profile.txt

``--run N`` throws the standard-turn scenes of ``benchmarks/throughput.py`` (side I, six
dice lying, seed 2024) N times in one world — the workload to record. Given py-spy's raw
(collapsed-stack) output instead, it prints the share of the samples inside ``run_throw``
per kind of work: the engine's step, setting the world up (removing and creating bodies,
their dynamics, the engine parameters), reading states, and the Python of the sample loop.
The table in benchmarks/README.md ("The profile, before and after") comes from it.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

#: (kind of work, the PyBullet calls that mean it), first match wins along a stack
KINDS = (
    ("stepSimulation (the engine)", ("stepSimulation",)),
    ("createMultiBody (set-up: tray, cards, spinner, dice)", ("createMultiBody",)),
    ("resetSimulation (set-up)", ("resetSimulation",)),
    ("removeBody (set-up: last throw's spinner and dice)", ("removeBody",)),
    (
        "createCollisionShape(Array), changeDynamics, engine parameters (set-up)",
        (
            "createCollisionShape",
            "changeDynamics",
            "resetBasePositionAndOrientation",
            "resetBaseVelocity",
            "resetJointState",
            "setJointMotorControl2",
            "setPhysicsEngineParameter",
            "setGravity",
        ),
    ),
    (
        "reads (getBaseVelocity, getBasePositionAndOrientation, contacts)",
        (
            "getBaseVelocity",
            "getBasePositionAndOrientation",
            "getJointState",
            "getContactPoints",
            "getClosestPoints",
        ),
    ),
)
PYTHON = "Python in run_throw (sampling, settle test, tunnel watch)"


def shares(lines) -> tuple[dict[str, float], int]:
    """Share of the ``run_throw`` samples per kind of work, and how many samples that was."""
    counts: collections.Counter[str] = collections.Counter()
    for line in lines:
        line = line.rstrip()
        if not line or "run_throw" not in line:
            continue
        stack, _, n = line.rpartition(" ")
        kind = next((k for k, calls in KINDS if any(c in stack for c in calls)), PYTHON)
        counts[kind] += int(n)
    total = sum(counts.values())
    return {k: n / total for k, n in counts.most_common()} if total else {}, total


def run(n: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from throughput import scenes

    from physics.run import run_throw
    from physics.world import World

    board, items = scenes(n, 2024)
    world = World(board)
    for lying, throw in items:
        run_throw(world, throw, lying)
    world.close()


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", nargs="?", help="py-spy raw output (record ... -f raw -o FILE)")
    ap.add_argument("--run", type=int, metavar="N", help="throw N standard turns (the workload to record)")
    args = ap.parse_args(argv)
    if args.run is not None:
        if args.run < 1:
            ap.error("--run must be at least 1")
        run(args.run)
        return 0
    if not args.profile:
        ap.error("give a py-spy raw profile, or --run N to make the workload")
    try:
        lines = Path(args.profile).read_text().splitlines()
    except OSError as e:
        print(f"profile_shares: cannot read {args.profile}: {e.strerror}", file=sys.stderr)
        return 2
    table, total = shares(lines)
    if not total:
        print(f"profile_shares: no samples inside run_throw in {args.profile}", file=sys.stderr)
        return 2
    for kind, share in table.items():
        print(f"{100 * share:5.1f} %  {kind}")
    print(f"({total} samples inside run_throw)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
