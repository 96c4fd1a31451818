"""Issue 33, goal 3's engine spike: would MuJoCo stepping many throws at once in C beat the batch path?

    python benchmarks/mujoco_batch_spike.py [--throws 60] [--batch 30] [--json]

Measures in one run, interleaved nowhere (one pass each, in this order, the load average
printed before and after), throws/s (CPU seconds of this process):

* ``peer_loop``: the peer's plain MuJoCo tray (``benchmarks/peer_mujoco_tray.py``), one
  throw after the other, ``mj_step(nstep=25)`` between the rest checks;
* ``peer_engine_only``: the same scenes stepped for each throw's own step count in one
  ``mj_step`` call (no Python between steps at all: the most any batching could give);
* ``peer_rollout``: ``--batch`` throws at once through ``mujoco.rollout.rollout`` (one
  thread), a check's 25 steps per call, the rest test vectorised over all worlds between
  calls, a world dropped from the batch once it rests (rollout restarts every call from
  the state it is handed; MuJoCo's warm start is not carried over, so the trajectories are
  not those of ``peer_loop`` bit for bit);
* ``project_mujoco``: the project's MuJoCo world (``MujocoParams``: 1/3840 s steps,
  elliptic cones, condim 6) through :func:`physics.run.run_throw`, the standard-turn scenes
  of ``benchmarks/throughput.py`` (side I, six dice lying);
* ``project_mujoco_engine_only``: the same worlds set up untimed, then each throw's own
  step count in ``world.steps`` calls of one sample (the settle test, reads and tunnel
  watch left out: what ``mujoco.rollout`` with one thread could at best reach);
* ``project_pybullet``: the same scenes through PyBullet's ``run_throw`` (the batch's engine).

Figures are printed, never asserted (benchmarks/README.md, "MuJoCo stepping many throws").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from peer_mujoco_tray import (
    CHECK_EVERY,
    REST_CHECKS,
    REST_SPEED,
    REST_SPIN,
    TIME_CAP,
    run_tray,
    scenes,
    tray_xml,
)


def _cpu(fn) -> tuple[float, object]:
    c0 = time.process_time()
    out = fn()
    return time.process_time() - c0, out


def peer_engine_only(n: int, seed: int, steps: list[int]) -> float:
    """CPU seconds to step the peer's scenes for their own step counts, one call a throw."""
    import mujoco

    model = mujoco.MjModel.from_xml_string(tray_xml())
    data = mujoco.MjData(model)
    todo = scenes(n, seed)
    c0 = time.process_time()
    for (qpos, qvel), k in zip(todo, steps):
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        mujoco.mj_step(model, data, nstep=k)
    return time.process_time() - c0


def peer_steps(n: int, seed: int) -> list[int]:
    """Each peer throw's step count (the loop of ``run_tray``, untimed)."""
    import mujoco

    model = mujoco.MjModel.from_xml_string(tray_xml())
    data = mujoco.MjData(model)
    per_check = round(CHECK_EVERY / model.opt.timestep)
    out = []
    for qpos, qvel in scenes(n, seed):
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        calm, steps = 0, 0
        for _ in range(math.ceil(TIME_CAP / CHECK_EVERY)):
            mujoco.mj_step(model, data, nstep=per_check)
            steps += per_check
            v = data.qvel.reshape(-1, 6)
            calm = (
                calm + 1
                if ((v[:, :3] ** 2).sum(1) < REST_SPEED**2).all()
                and ((v[:, 3:] ** 2).sum(1) < REST_SPIN**2).all()
                else 0
            )
            if calm >= REST_CHECKS:
                break
        out.append(steps)
    return out


def peer_rollout(n: int, seed: int, batch: int) -> dict:
    """The peer's scenes ``batch`` at a time through ``mujoco.rollout`` (one thread), the rest test vectorised."""
    import mujoco
    from mujoco import rollout

    model = mujoco.MjModel.from_xml_string(tray_xml())
    data = mujoco.MjData(model)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    nstate = mujoco.mj_stateSize(model, spec)
    per_check = round(CHECK_EVERY / model.opt.timestep)
    todo = scenes(n, seed)
    # the initial states, built untimed
    states = []
    for qpos, qvel in todo:
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        s = np.empty(nstate)
        mujoco.mj_getState(model, data, s, spec)
        states.append(s)
    qvel_at = 1 + model.nq  # FULLPHYSICS starts: time, qpos, qvel
    unsettled, steps_total = 0, 0
    c0 = time.process_time()
    for b0 in range(0, n, batch):
        state = np.array(states[b0 : b0 + batch])
        calm = np.zeros(len(state), dtype=int)
        for _ in range(math.ceil(TIME_CAP / CHECK_EVERY)):
            out, _sens = rollout.rollout(model, data, state, nstep=per_check, skip_checks=False)
            steps_total += per_check * len(state)
            state = out[:, -1, :]
            v = state[:, qvel_at : qvel_at + model.nv].reshape(len(state), -1, 6)
            still = ((v[:, :, :3] ** 2).sum(2) < REST_SPEED**2).all(1) & (
                (v[:, :, 3:] ** 2).sum(2) < REST_SPIN**2
            ).all(1)
            calm = np.where(still, calm + 1, 0)
            keep = calm < REST_CHECKS
            state, calm = state[keep], calm[keep]
            if not len(state):
                break
        unsettled += len(state)
    cpu = time.process_time() - c0
    return {
        "cpu_s": cpu,
        "throws_per_cpu_s": n / cpu,
        "steps_per_throw": steps_total / n,
        "unsettled": unsettled,
    }


def project(n: int, seed: int, engine: str) -> dict:
    """The standard-turn scenes through the project's ``run_throw`` in ``engine``; for
    MuJoCo also the engine-only replay of each throw's step count."""
    from throughput import scenes as turn_scenes

    from physics.engine import make_world
    from physics.run import run_throw

    board, items = turn_scenes(n, seed)
    world = make_world(board, engine=engine)
    steps, c0 = [], time.process_time()
    for lying, throw in items:
        steps.append(run_throw(world, throw, lying).steps)
    cpu = time.process_time() - c0
    out = {"cpu_s": cpu, "throws_per_cpu_s": n / cpu, "steps_per_throw": sum(steps) / n}
    if engine == "mujoco":
        every, engine_cpu = world.sample_every, 0.0
        for (lying, throw), k in zip(items, steps):
            world.reset(lying, 0.0, throw.releases)
            c1 = time.process_time()
            for _ in range(k // every):
                world.steps(every)
            engine_cpu += time.process_time() - c1
        out["engine_only_cpu_s"] = engine_cpu
        out["engine_only_throws_per_cpu_s"] = n / engine_cpu
        out["engine_share"] = engine_cpu / cpu
    world.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=60)
    ap.add_argument("--batch", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.throws < 1 or a.batch < 1:
        print("mujoco_batch_spike: --throws and --batch must be at least 1", file=sys.stderr)
        return 2
    res: dict = {"load_avg_1min_before": os.getloadavg()[0], "throws": a.throws}
    loop = run_tray(a.throws, a.seed)
    res["peer_loop"] = {
        "throws_per_cpu_s": loop["cpu_throws_per_s"],
        "steps_per_throw": loop["steps_per_throw"],
    }
    eo = peer_engine_only(a.throws, a.seed, peer_steps(a.throws, a.seed))
    res["peer_engine_only"] = {"cpu_s": eo, "throws_per_cpu_s": a.throws / eo}
    res["peer_rollout"] = peer_rollout(a.throws, a.seed, a.batch)
    res["project_mujoco"] = project(a.throws, 2024, "mujoco")
    res["project_pybullet"] = project(a.throws, 2024, "pybullet")
    res["load_avg_1min_after"] = os.getloadavg()[0]
    if a.json:
        print(json.dumps(res, indent=1))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
