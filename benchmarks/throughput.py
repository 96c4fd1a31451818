"""Physics throughput of a standard DoppelX turn: the whole throw, the engine alone, the naive baseline.

    python benchmarks/throughput.py [--throws N] [--naive-throws M] [--rounds R] [--seed S] [--json]

The standard-turn scene: side I, six dice lying flat on the board from earlier throws
(random free places, faces and turns), the active player's two dice (blue and white)
thrown by the medium bot's throw model at its best spot. The scenes are drawn first from
the seed; the clock then runs over ``run_throw`` alone — rebuilding the world, stepping to
rest, reading the outcome, with the tunnel watch on — in this one process (one core).

Measured in the same run, interleaved in ``--rounds`` rounds so that a change of the
machine's load touches every figure alike:

* ``throws_per_s``: whole standard-turn throws (``run_throw``);
* ``alone_throws_per_s``: the same two dice with nothing lying on the board;
  ``standard_over_alone`` is the ratio (what the six lying dice cost); the two dice
  alone are replayed engine only too (``alone_engine_only_throws_per_s``, ``alone_overhead_share``),
  and ``engine_standard_over_alone`` — the ratio of the two engine-only rates — is what
  ``standard_over_alone`` would be with nothing done outside the engine: the part of the
  lying dice's cost that is the engine's own work (they are hit, roll and settle again);
* ``engine_only_throws_per_s``: the engine's own limit for this work — for each throw
  the world is set up (untimed) and then the engine is asked for exactly what the whole
  throw asked of it, sample by sample: the same number of ``stepSimulation`` calls, the
  same sub-step count, the same dice put to sleep (the run records this schedule,
  ``run_throw(schedule=...)``, in a pass of its own), with nothing between — no reading,
  no settle test, no tunnel watch. ``engine_only_same_end`` counts the replays that ended
  with every die exactly (bit for bit) where the whole throw left it: all of them, or the
  replay was not the same work. ``overhead_share`` = 1 − whole rate / engine-only rate is
  the share of a throw spent outside the engine (setting the world up, sampling, reading);
* the naive baseline on the first scenes — the board as one concave triangle mesh, every
  body awake, PyBullet's default solver (50 iterations), no CCD — and ``ratio`` to it.

Wall-clock rates, plus the CPU seconds of the process (``cpu_throws_per_s``), and the
machine's 1-minute load average before and after the run (``machine``:
``load_avg_1min_before``, ``load_avg_1min_after``; ``load_avg_1min`` is the one after too). Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def scenes(n: int, seed: int):
    """``n`` standard-turn scenes ``(lying poses, throw)`` on side I from ``seed``."""
    from doppelx.bench.throws import standard_turns
    from rules.common.rng import make_rng

    return standard_turns(n, make_rng(seed), "I")


class Tally:
    """Wall and CPU seconds, throws, steps, simulated seconds, flags of one kind of run."""

    def __init__(self) -> None:
        self.wall = self.cpu = self.sim = 0.0
        self.throws = self.steps = self.tunnelled = self.unsettled = 0
        self.moved = 0  # lying dice that left their pose (were hit, or woken)

    def figures(self) -> dict:
        n = max(self.throws, 1)
        return {
            "throws": self.throws,
            "throws_per_s": self.throws / self.wall,
            "cpu_throws_per_s": self.throws / self.cpu,
            "steps_per_s": self.steps / self.wall,
            "sim_s_per_throw": self.sim / n,
            "steps_per_throw": self.steps / n,
            "tunnelled": self.tunnelled,
            "unsettled": self.unsettled,
            "lying_moved_per_throw": self.moved / n,
        }


def whole(world, items, tally: Tally, with_lying: bool = True, schedules: list | None = None) -> list:
    """Run ``items`` through ``run_throw``; returns each throw's final dice ``(owner, pose)``.

    With ``schedules``, each throw's :class:`~physics.run.EngineSchedule` is appended to it
    (the benchmark records them in a pass of its own, untimed).
    """
    from physics.run import EngineSchedule, run_throw

    finals = []
    w0, c0 = time.perf_counter(), time.process_time()
    for lying, throw in items:
        schedule = EngineSchedule() if schedules is not None else None
        r = run_throw(world, throw, lying if with_lying else {}, schedule=schedule)
        finals.append([(d.owner, d.pose) for d in r.outcome.dice])
        if with_lying:
            tally.moved += sum(d.owner in lying and d.pose != lying[d.owner] for d in r.outcome.dice)
        if schedules is not None:
            schedules.append(schedule)
        tally.steps += r.steps
        tally.sim += r.sim_time
        tally.tunnelled += bool(r.tunnelled)
        tally.unsettled += not r.settled
    tally.wall += time.perf_counter() - w0
    tally.cpu += time.process_time() - c0
    tally.throws += len(items)
    return finals


def engine_only(world, items, schedules: list, finals: list, tally: Tally) -> int:
    """The engine's work of each throw alone: the same steps, sub-steps and sleeps, nothing else.

    For each throw the world is set up (untimed); then, sample by sample, the throw's
    recorded schedule is replayed — the sub-step count set, ``sample_every × k`` calls of
    ``stepSimulation``, the dice the run put to sleep put to sleep — with no reading,
    settle test or tunnel watch between. Returns how many replays ended with every die exactly
    where the whole throw left it (all of them, if the replay is the same work).
    """
    from rules.doppelx.outcome import Pose

    p = world.p
    step, sample_every = p.stepSimulation, world.settings.sample_every
    same = 0
    for (lying, throw), schedule, final in zip(items, schedules, finals):
        world.reset(lying, 0.0, throw.releases)
        cid, body_of = world.client, world.body_of  # after the reset: a world may renew its client
        set_substeps, sleep = world.set_substeps, world.sleep
        steps = 0
        w0, c0 = time.perf_counter(), time.process_time()
        for k, slept in schedule.samples:
            set_substeps(k)
            for _ in range(sample_every * k):
                step(cid)
            for owner in slept:
                sleep(owner)
            steps += sample_every * k
        tally.wall += time.perf_counter() - w0
        tally.cpu += time.process_time() - c0
        tally.throws += 1
        tally.steps += steps
        same += all(  # a die the throw never moved reports its given pose, not the engine's
            Pose(*map(tuple, p.getBasePositionAndOrientation(body_of[owner], cid))) == pose
            for owner, pose in final
            if pose != lying.get(owner)
        )
    return same


def measure(n: int, naive_n: int, rounds: int, seed: int) -> dict:
    from physics.settings import SimSettings
    from physics.world import World

    board, items = scenes(n, seed)
    world = World(board)
    naive_world = World(board, settings=SimSettings.naive())
    tuned, alone, engine, alone_engine, naive = Tally(), Tally(), Tally(), Tally(), Tally()
    whole(world, items[: min(20, n)], Tally())  # warm-up: imports, first allocations
    rounds = max(1, min(rounds, n))
    replayed = alone_replayed = 0
    for r in range(rounds):
        part = items[r * n // rounds : (r + 1) * n // rounds]
        whole(world, part, tuned)
        whole(world, part, alone, with_lying=False)
        schedules: list = []
        finals = whole(world, part, Tally(), schedules=schedules)  # untimed: what the engine was asked
        replayed += engine_only(world, part, schedules, finals, engine)
        bare = [({}, throw) for _, throw in part]  # the two dice alone, their engine work alone too
        schedules = []
        finals = whole(world, bare, Tally(), schedules=schedules)
        alone_replayed += engine_only(world, bare, schedules, finals, alone_engine)
        whole(naive_world, items[r * naive_n // rounds : (r + 1) * naive_n // rounds], naive)
    world.close()
    naive_world.close()
    t, a, e, nv = tuned.figures(), alone.figures(), engine.figures(), naive.figures()
    ae = alone_engine.figures()
    return {
        "throws": t["throws"],
        "throws_per_s": round(t["throws_per_s"], 1),
        "cpu_throws_per_s": round(t["cpu_throws_per_s"], 1),
        "steps_per_s": round(t["steps_per_s"]),
        "steps_per_throw": round(t["steps_per_throw"], 1),
        "sim_s_per_throw": round(t["sim_s_per_throw"], 3),
        "tunnelled": t["tunnelled"],
        "unsettled": t["unsettled"],
        "engine_only_throws_per_s": round(e["throws_per_s"], 1),
        "engine_only_cpu_throws_per_s": round(e["cpu_throws_per_s"], 1),
        "overhead_share": round(1.0 - t["throws_per_s"] / e["throws_per_s"], 3),
        "engine_only_same_end": f"{replayed}/{e['throws']}",
        "alone_throws_per_s": round(a["throws_per_s"], 1),
        "alone_sim_s_per_throw": round(a["sim_s_per_throw"], 3),
        "standard_over_alone": round(t["throws_per_s"] / a["throws_per_s"], 3),
        "alone_steps_per_throw": round(a["steps_per_throw"], 1),
        "lying_moved_per_throw": round(t["lying_moved_per_throw"], 2),
        "alone_engine_only_throws_per_s": round(ae["throws_per_s"], 1),
        "alone_engine_only_same_end": f"{alone_replayed}/{ae['throws']}",
        "alone_overhead_share": round(1.0 - a["throws_per_s"] / ae["throws_per_s"], 3),
        "engine_standard_over_alone": round(e["throws_per_s"] / ae["throws_per_s"], 3),
        "naive_throws": nv["throws"],
        "naive_throws_per_s": round(nv["throws_per_s"], 2),
        "naive_steps_per_s": round(nv["steps_per_s"]),
        "naive_sim_s_per_throw": round(nv["sim_s_per_throw"], 3),
        "naive_unsettled": nv["unsettled"],
        "naive_tunnelled": nv["tunnelled"],
        "ratio": round(t["throws_per_s"] / nv["throws_per_s"], 1),
    }


def machine() -> dict:
    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "load_avg_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
    }


def main(argv=None) -> int:
    from doppelx import argtypes
    from doppelx.cli import OneLineParser

    _at_least_1 = argtypes.whole(1, 10_000_000)
    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=_at_least_1, default=1000, help="standard-turn throws (default 1000)")
    ap.add_argument(
        "--naive-throws",
        type=_at_least_1,
        default=None,
        help="throws of the naive baseline (default: throws/10, at least 20)",
    )
    ap.add_argument("--rounds", type=_at_least_1, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--seed", type=argtypes.seed, default=2024, help="scene seed (default 2024)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    naive_n = min(args.throws, args.naive_throws or max(20, args.throws // 10))
    load_before = os.getloadavg()[0]
    result = measure(args.throws, naive_n, args.rounds, args.seed)
    result["seed"] = args.seed
    after = machine()  # taken after the run: its load_avg_1min is the load after
    result["machine"] = {
        **after,
        "load_avg_1min_before": round(load_before, 2),
        "load_avg_1min_after": after["load_avg_1min"],
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    m = result["machine"]
    print(f"standard turn, side I, 6 dice lying, 2 thrown ({result['throws']} throws, one core)")
    print(
        f"  whole throw: {result['throws_per_s']:8.1f} throws/s  ({result['cpu_throws_per_s']:.1f} per CPU s)  "
        f"{result['steps_per_s']:8d} steps/s  {result['sim_s_per_throw']:.3f} s simulated per throw  "
        f"tunnelled {result['tunnelled']}  unsettled {result['unsettled']}"
    )
    print(
        f"  engine only: {result['engine_only_throws_per_s']:8.1f} throws/s  (world set up, the same steps, "
        f"sub-steps and sleeps, nothing else; {result['engine_only_same_end']} ended where the throws did)  "
        f"overhead share {result['overhead_share']:.2f} (aim ≤ 0.2)"
    )
    print(
        f"  alone:       {result['alone_throws_per_s']:8.1f} throws/s  (same two dice, nothing lying)  "
        f"standard / alone {result['standard_over_alone']:.2f} (aim ≥ 0.8)"
    )
    print(
        f"  alone, engine only: {result['alone_engine_only_throws_per_s']:8.1f} throws/s  "
        f"({result['alone_engine_only_same_end']} ended where the throws did; overhead share "
        f"{result['alone_overhead_share']:.2f})  engine standard / engine alone "
        f"{result['engine_standard_over_alone']:.2f} (standard / alone with no work outside the engine)  "
        f"steps per throw {result['steps_per_throw']:.0f} standard, {result['alone_steps_per_throw']:.0f} alone; "
        f"{result['lying_moved_per_throw']:.2f} of the 6 lying dice moved per throw"
    )
    print(
        f"  naive:       {result['naive_throws_per_s']:8.2f} throws/s  {result['naive_steps_per_s']:8d} steps/s  "
        f"{result['naive_sim_s_per_throw']:.3f} s simulated per throw  ({result['naive_throws']} throws, "
        f"unsettled {result['naive_unsettled']})"
    )
    print(
        f"  ratio whole/naive: {result['ratio']}×   (load average {m['load_avg_1min_before']} before, "
        f"{m['load_avg_1min_after']} after, {m['cores']} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
