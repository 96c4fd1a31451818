"""The peer's scene: a plain MuJoCo tray, 6 lying + 2 thrown dice, run to rest — the yardstick of issue 33's goal 3.

    python benchmarks/peer_mujoco_tray.py [--throws 300] [--seed 0] [--json]
    python benchmarks/peer_mujoco_tray.py --beside 300 [--rounds 2] [--json]

The scene (issue 33, goal 3): a flat 30 × 30 cm tray (a floor and four 5 cm walls, nothing
else: no holes, no zones, no spinner), six 16 mm dice lying flat at random free places
(random face up, random turn), two 16 mm dice thrown from above one wall towards the middle
(0.6–1.2 m/s, a little downward, spinning up to 20 rad/s about every axis). The throw has
come to rest when every die is slower than 5 mm/s and turns slower than 0.05 rad/s at three
checks in a row 1/20 s apart (at most 10 s of simulated time). Everything is MuJoCo's
defaults — 2 ms step, Newton solver, pyramidal friction cones, soft contacts — except the
dice's mass (4.5 g, ``assets/dice.toml``) and friction (0.35 sliding, as the project's die
material): a plain tray anybody would write, not tuned for speed or accuracy. Each body's
state is read as one array (``MjData.qvel``), as MuJoCo gives it. Scenes are drawn first
from ``--seed``; the clock runs over the throws alone.

``--beside N`` measures the peer's tray and the whole command
``doppelx simulate throws --board I --lying 6 --throws N --workers 1`` in one run, in
``--rounds`` interleaved rounds (so a change of the machine's load touches both alike), and
prints the command's throws/s over the peer's (issue 33 aims at ≥ 2). The command is timed
as a user meets it: a fresh process from start to exit (wall clock, and its CPU seconds
from the operating system), writing into a fresh temporary folder. The machine's 1-minute
load average is printed before and after. Figures are printed, never asserted.

Beside them, each round takes the command's own run (its ``run.json``) apart in this
process, CPU seconds, the world built before the clock starts: ``worker_chunks`` runs its
chunks as the worker does (:func:`doppelx.batch.throw_items.run_chunk`: draw the lying dice,
aim, plan, run, read, score, make the rows), ``engine_path`` runs the same throws through
``run_throw`` alone (their lying dice, aims and throws drawn untimed by
:func:`doppelx.batch.throw_items.item_throw`), so ``engine_path`` over the peer is the most
the command could reach if reading, scoring, storing and starting up cost nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from doppelx import argtypes
from doppelx.cli import OneLineParser

#: The tray's inner size (m), its walls' height (m), the dice's edge (m), mass (kg) and friction.
TRAY, WALL_HEIGHT, DIE, DIE_MASS, FRICTION = 0.30, 0.05, 0.016, 0.0045, 0.35
LYING, THROWN = 6, 2
#: The rest test: every die slower than this (m/s) and turning slower than this (rad/s) ...
REST_SPEED, REST_SPIN = 0.005, 0.05
#: ... at this many checks in a row, this far apart (s); a throw ends at ``TIME_CAP`` (s) anyway.
REST_CHECKS, CHECK_EVERY, TIME_CAP = 3, 1 / 20, 10.0


def tray_xml() -> str:
    """The MJCF of the tray with ``LYING + THROWN`` free dice (MuJoCo's defaults otherwise)."""
    h, t = TRAY / 2, 0.01  # half the inner size, wall thickness
    walls = "".join(
        f'<geom type="box" size="{sx} {sy} {WALL_HEIGHT / 2}" pos="{px} {py} {WALL_HEIGHT / 2}"/>'
        for sx, sy, px, py in (
            (t / 2, h + t, h + t / 2, 0),
            (t / 2, h + t, -h - t / 2, 0),
            (h + t, t / 2, 0, h + t / 2),
            (h + t, t / 2, 0, -h - t / 2),
        )
    )
    dice = "".join(
        f'<body name="die{i}"><freejoint/><geom type="box" size="{DIE / 2} {DIE / 2} {DIE / 2}" '
        f'mass="{DIE_MASS}" friction="{FRICTION} 0.005 0.0001"/></body>'
        for i in range(LYING + THROWN)
    )
    return (
        '<mujoco model="peer tray"><worldbody>'
        f'<geom type="box" size="{h + t} {h + t} 0.005" pos="0 0 -0.005" friction="{FRICTION} 0.005 0.0001"/>'
        f"{walls}{dice}</worldbody></mujoco>"
    )


def _quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of two (w, x, y, z) quaternions."""
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ]
    )


#: A quarter or half turn that brings each of the six faces up (w, x, y, z).
_FACE_UP = [
    np.array([1.0, 0, 0, 0]),
    np.array([0.0, 1, 0, 0]),
    np.array([math.sqrt(0.5), math.sqrt(0.5), 0, 0]),
    np.array([math.sqrt(0.5), -math.sqrt(0.5), 0, 0]),
    np.array([math.sqrt(0.5), 0, math.sqrt(0.5), 0]),
    np.array([math.sqrt(0.5), 0, -math.sqrt(0.5), 0]),
]


def scenes(n: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` scenes as ``(qpos, qvel)`` of all dice, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    out = []
    lim = TRAY / 2 - DIE
    for _ in range(n):
        qpos = np.zeros(7 * (LYING + THROWN))
        qvel = np.zeros(6 * (LYING + THROWN))
        placed: list[np.ndarray] = []
        while len(placed) < LYING:
            p = rng.uniform(-lim, lim, 2)
            if all(np.linalg.norm(p - q) > 1.6 * DIE for q in placed):
                placed.append(p)
        for i, p in enumerate(placed):
            yaw = rng.uniform(0, 2 * math.pi)
            turn = np.array([math.cos(yaw / 2), 0, 0, math.sin(yaw / 2)])
            qpos[7 * i : 7 * i + 7] = [*p, DIE / 2, *_quat_mul(turn, _FACE_UP[int(rng.integers(6))])]
        for k in range(THROWN):
            i = LYING + k
            q = rng.standard_normal(4)
            pos = [-TRAY / 2 + DIE, rng.uniform(-0.06, 0.06) + 0.02 * k, 0.04 + 0.02 * k]
            speed, heading = rng.uniform(0.6, 1.2), rng.uniform(-0.4, 0.4)
            qpos[7 * i : 7 * i + 7] = [*pos, *(q / np.linalg.norm(q))]
            qvel[6 * i : 6 * i + 6] = [
                speed * math.cos(heading),
                speed * math.sin(heading),
                -0.3,
                *rng.uniform(-20, 20, 3),
            ]
        out.append((qpos, qvel))
    return out


def run_tray(n: int, seed: int) -> dict:
    """Throw ``n`` scenes of ``seed`` in the plain tray; rates over the throws alone."""
    import mujoco

    model = mujoco.MjModel.from_xml_string(tray_xml())
    data = mujoco.MjData(model)
    per_check = round(CHECK_EVERY / model.opt.timestep)
    max_checks = math.ceil(TIME_CAP / CHECK_EVERY)
    todo = scenes(n, seed)
    unsettled, sim, steps = 0, 0.0, 0
    w0, c0 = time.perf_counter(), time.process_time()
    for qpos, qvel in todo:
        mujoco.mj_resetData(model, data)
        data.qpos[:] = qpos
        data.qvel[:] = qvel
        calm = 0
        for _check in range(max_checks):
            mujoco.mj_step(model, data, nstep=per_check)
            steps += per_check
            v = data.qvel.reshape(-1, 6)
            lin = np.einsum("ij,ij->i", v[:, :3], v[:, :3])
            ang = np.einsum("ij,ij->i", v[:, 3:], v[:, 3:])
            calm = calm + 1 if (lin < REST_SPEED**2).all() and (ang < REST_SPIN**2).all() else 0
            if calm >= REST_CHECKS:
                break
        else:
            unsettled += 1
        sim += data.time
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {
        "throws": n,
        "throws_per_s": n / wall,
        "cpu_throws_per_s": n / cpu,
        "sim_s_per_throw": sim / n,
        "steps_per_throw": steps / n,
        "unsettled": unsettled,
        "mujoco": mujoco.__version__,
    }


def run_command(n: int, seed: int, parts: bool = False) -> dict:
    """The whole ``doppelx simulate throws --board I --lying 6 --throws n --workers 1`` in a fresh process
    (with ``parts``, also its run taken apart in this process: :func:`run_parts`)."""
    with tempfile.TemporaryDirectory(prefix="peer-tray-") as tmp:
        cmd = [sys.executable, "-m", "doppelx", "simulate", "throws", "--board", "I", "--lying", "6"]
        cmd += [
            "--throws",
            str(n),
            "--workers",
            "1",
            "--seed",
            str(seed),
            "--quiet",
            "--out",
            str(Path(tmp) / "run"),
        ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
        wall = time.perf_counter() - w0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(
                f"the command failed ({done.returncode}): {done.stderr.strip().splitlines()[-1:]}"
            )
        taken = run_parts(Path(tmp) / "run" / "run.json") if parts else {}
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "throws": n,
        "throws_per_s": n / wall,
        "cpu_throws_per_s": n / cpu,
        "command": " ".join(cmd[1:]),
        **taken,
    }


def run_parts(run_json: Path) -> dict:
    """The command's run taken apart in this process (CPU seconds, the world built untimed):
    its chunks as the worker runs them, and the same throws through ``run_throw`` alone."""
    from doppelx.batch.plan import RunSpec
    from doppelx.batch.throw_items import item_throw, run_chunk, throw_table

    spec = RunSpec.read(run_json)
    table = throw_table(spec)
    lying, _aim, throw = item_throw(table, spec.seed, 0)
    table.service.run(throw, lying)  # builds and warms the world, the readers' caches
    c0 = time.process_time()
    for index in range(spec.n_chunks):
        run_chunk(spec, index)
    chunks = time.process_time() - c0
    made = [item_throw(table, spec.seed, i) for i in range(spec.count)]
    c0 = time.process_time()
    for lying, _aim, throw in made:
        table.service.run(throw, lying, watch=True)
    engine = time.process_time() - c0
    return {"worker_chunks_cpu_s": chunks, "engine_path_cpu_s": engine}


def beside(n: int, rounds: int, seed: int) -> dict:
    """The peer's tray and the command, ``rounds`` interleaved rounds of ``n`` throws each."""
    tray = {"wall": 0.0, "cpu": 0.0, "throws": 0, "unsettled": 0}
    cmd = {"wall": 0.0, "cpu": 0.0, "throws": 0, "worker_chunks_cpu_s": 0.0, "engine_path_cpu_s": 0.0}
    for r in range(rounds):
        t = run_tray(n, seed + r)
        c = run_command(n, seed + r, parts=True)
        for tally, f in ((tray, t), (cmd, c)):
            tally["wall"] += f["throws"] / f["throws_per_s"]
            tally["cpu"] += f["throws"] / f["cpu_throws_per_s"]
            tally["throws"] += f["throws"]
        tray["unsettled"] += t["unsettled"]
        cmd["worker_chunks_cpu_s"] += c["worker_chunks_cpu_s"]
        cmd["engine_path_cpu_s"] += c["engine_path_cpu_s"]
    peer = {"throws_per_s": tray["throws"] / tray["wall"], "cpu_throws_per_s": tray["throws"] / tray["cpu"]}
    ours = {"throws_per_s": cmd["throws"] / cmd["wall"], "cpu_throws_per_s": cmd["throws"] / cmd["cpu"]}
    chunks = cmd["throws"] / cmd["worker_chunks_cpu_s"]
    engine = cmd["throws"] / cmd["engine_path_cpu_s"]
    return {
        "throws_per_round": n,
        "rounds": rounds,
        "peer_tray": {**peer, "unsettled": tray["unsettled"]},
        "simulate_throws": {**ours, "command": c["command"]},
        "ratio": ours["throws_per_s"] / peer["throws_per_s"],
        "wall_ratio": ours["throws_per_s"] / peer["throws_per_s"],  # the same as "ratio", named
        "cpu_ratio": ours["cpu_throws_per_s"] / peer["cpu_throws_per_s"],
        "worker_chunks": {"cpu_throws_per_s": chunks, "cpu_ratio": chunks / peer["cpu_throws_per_s"]},
        "engine_path": {"cpu_throws_per_s": engine, "cpu_ratio": engine / peer["cpu_throws_per_s"]},
    }


def parser() -> argparse.ArgumentParser:
    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--throws",
        type=argtypes.whole(1, 1_000_000, "a number of throws"),
        default=300,
        help="throws of the peer's tray (default 300)",
    )
    ap.add_argument(
        "--beside",
        type=argtypes.whole(1, 1_000_000, "a number of throws"),
        default=None,
        metavar="N",
        help="throws per round of the tray and of 'doppelx simulate throws' side by side",
    )
    ap.add_argument(
        "--rounds",
        type=argtypes.whole(1, 100, "a number of rounds"),
        default=2,
        help="rounds of --beside (default 2)",
    )
    ap.add_argument("--seed", type=argtypes.seed, default=0, help="scenes' seed (default 0)")
    ap.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    load0 = os.getloadavg()[0]
    if args.beside is None:
        r = run_tray(args.throws, args.seed)
    else:
        try:
            r = beside(args.beside, args.rounds, args.seed)
        except RuntimeError as exc:
            print(f"peer_mujoco_tray.py: error: {exc}", file=sys.stderr)
            return 2
    r["machine"] = {
        "cores": os.cpu_count(),
        "load_avg_1min_before": load0,
        "load_avg_1min_after": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    m = r["machine"]
    load = (
        f"{m['cores']} cores, load average {m['load_avg_1min_before']:.2f} → {m['load_avg_1min_after']:.2f}"
    )
    if args.beside is None:
        print(
            f"peer's MuJoCo tray (6 lying + 2 thrown 16 mm dice, MuJoCo {r['mujoco']}): {r['throws']} throws, "
            f"{r['throws_per_s']:.1f} throws/s ({r['cpu_throws_per_s']:.1f} per CPU second), "
            f"{r['sim_s_per_throw']:.2f} s simulated a throw, {r['unsettled']} unsettled; {load}"
        )
        return 0
    p, s = r["peer_tray"], r["simulate_throws"]
    rounds = f"{r['rounds']} round{'s' if r['rounds'] != 1 else ''}"
    print(f"{rounds} of {r['throws_per_round']} throws each, interleaved; {load}")
    print(
        f"  peer's MuJoCo tray      {p['throws_per_s']:7.1f} throws/s  ({p['cpu_throws_per_s']:.1f} per CPU second)"
    )
    print(
        f"  doppelx simulate throws {s['throws_per_s']:7.1f} throws/s  ({s['cpu_throws_per_s']:.1f} per CPU second)"
    )
    print(
        f"  ratio (command / tray)  {r['ratio']:.2f} wall clock, {r['cpu_ratio']:.2f} CPU (issue 33 aims at >= 2)"
    )
    if r["throws_per_round"] < 1000:
        print(
            "  (the command's start-up and report, ~3 s, weigh in at this size: --beside 3000 for its steady state)"
        )
    w, e = r["worker_chunks"], r["engine_path"]
    print("  the command's run taken apart (this process, CPU, the world built untimed):")
    print(
        f"    its chunks as the worker runs them  {w['cpu_throws_per_s']:7.1f} per CPU second, "
        f"{w['cpu_ratio']:.2f} × the tray's per CPU second"
    )
    print(
        f"    the same throws, run_throw alone    {e['cpu_throws_per_s']:7.1f} per CPU second, "
        f"{e['cpu_ratio']:.2f} × the tray's per CPU second (the most the command could reach)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
