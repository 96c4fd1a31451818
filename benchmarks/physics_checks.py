"""Large physics checks: tunnelling over many throws, face uniformity, and the settle test.

    python benchmarks/physics_checks.py [--throws 10000] [--faces 6000] [--settle 1000]
                                        [--seed S] [--seeds S1,S2,...] [--workers N] [--json]
                                        [--progress FILE] [--throw CHECK:SEED:INDEX ...]

1. Tunnelling: ``--throws`` throws spread over the four sides — standard turns (0–6 dice
   lying, blue and white thrown at a random point with a random strength and skill),
   setup throws (3–8 players from their seats), violent throws (full strength from
   high up) and hurled throws (5 m/s straight at the board). The tunnel watch flags any die that passed through the insert, a wall, the
   floor, the table or another die; the count must be 0.
2. Faces: ``--faces`` single throws of a symmetric die on side I from random orientations;
   the resting top axis is counted and compared with the uniform distribution by a
   chi-square test (5 degrees of freedom).
3. Settle test: ``--settle`` random throws on side I are run to rest and then simulated
   one more second; a die on the board, the rim, a card or the table that then moves more
   than 1 mm, changes status or shows another face counts as a false settle (dice in the
   cavity may roll on: their status cannot change).

``--seeds`` runs checks 1 and 3 for several seeds (``--throws`` and ``--settle`` each);
``--workers`` spreads them over processes (each throw's random stream depends only on
its seed and index, so the figures do not depend on the split).

``--throw tunnelling:11:9038`` (or ``settle:15:115``; repeatable) runs just that throw of
that check and seed again and prints what the check saw of it — how every flagged throw
of a long run is looked at again; nothing else runs.

Figures are printed (one JSON object with ``--json``), never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx import argtypes
from doppelx.bench.throws import chi2_uniform, face_counts, random_scene
from physics.run import run_throw
from physics.world import World
from rules.common.rng import child_rng
from rules.doppelx.board_file import BUILTIN_SIDES, load_board
from rules.doppelx.box import load_box
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import Pose, Status
from rules.doppelx.reading import top_face

BOX = load_box()
DICE = load_dice()


def check_tunnelling(throws: int, seed: int, start: int = 0) -> dict:
    """Throws ``start`` … ``throws - 1`` of ``seed`` (each throw's stream depends only on its index)."""
    worlds = {side: World(load_board(side)) for side in BUILTIN_SIDES}
    flagged, parts, kinds, statuses = 0, Counter(), Counter(), Counter()
    unsettled, sim, steps = 0, 0.0, 0
    examples, stuck = [], []
    t0 = time.perf_counter()
    for i in range(start, throws):
        side = BUILTIN_SIDES[i % 4]
        rng = child_rng(seed, i)
        kind, lying, throw = random_scene(worlds[side].board, rng)
        kinds[kind] += 1
        r = run_throw(worlds[side], throw, lying)
        sim += r.sim_time
        steps += r.steps
        unsettled += not r.settled
        if not r.settled and len(stuck) < 10:
            stuck.append({"seed": seed, "throw": i, "side": side, "kind": kind, "moving": list(r.unsettled)})
        statuses.update(d.status.value for d in r.outcome.dice)
        if r.tunnel_events:
            flagged += 1
            parts.update(e.split(":")[1] for e in r.tunnel_events)
            if len(examples) < 10:
                examples.append(
                    {"seed": seed, "throw": i, "side": side, "kind": kind, "events": list(r.tunnel_events)}
                )
    wall = time.perf_counter() - t0
    for w in worlds.values():
        w.close()
    n = throws - start
    return {
        "throws": n,
        "tunnelled_throws": flagged,
        "tunnel_parts": dict(parts),
        "examples": examples,
        "kinds": dict(kinds),
        "statuses": dict(statuses),
        "unsettled": unsettled,
        "unsettled_examples": stuck,
        "sim_s": sim,
        "wall_s": wall,
    }


def _merge(parts: list[dict]) -> dict:
    """Sum the figures of several runs of the same check."""
    out: dict = {}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, dict):
                c = Counter(out.get(key, {}))
                c.update(value)
                out[key] = dict(c)
            elif isinstance(value, list):
                out[key] = (out.get(key, []) + value)[:10]
            else:
                out[key] = out.get(key, 0) + value
    return out


def check_faces(throws: int, seed: int) -> dict:
    world = World(load_board("I"))
    seen = face_counts(world, throws, seed + 1, DICE.cocked_angle)
    world.close()
    counts = seen.axes
    n = int(counts.sum())
    chi2, p_value = chi2_uniform(counts)
    return {
        "throws": throws,
        "on_board": n,
        "lost": seen.lost,
        "axis_counts": counts.tolist(),
        "chi2": round(chi2, 2),
        "p_value": round(p_value, 4),
        "cocked": seen.cocked,
    }


def check_settle(throws: int, seed: int, start: int = 0) -> dict:
    """Run throws ``start`` … ``throws - 1`` to rest, then one more second: did a die read at rest move on?"""
    world = World(load_board("I"))
    false_settles = checked = 0
    examples: list[dict] = []
    for i in range(start, throws):
        rng = child_rng(seed + 2, i)
        kind, lying, throw = random_scene(world.board, rng)
        r = run_throw(world, throw, lying, watch=False)
        if not r.settled:
            continue
        checked += 1
        for _ in range(240):
            world.step()
        for d in r.outcome.dice:
            if d.status is Status.HOLE:
                continue  # dice in the cavity may roll on; their status cannot change
            pos, q = world.pose(d.owner)
            now = Pose(pos, q)
            if (
                math.dist(pos, d.pose.position) > 0.001
                or world.zones.status(pos) is not d.status
                or top_face(now, DICE[d.owner])[0] != top_face(d.pose, DICE[d.owner])[0]
            ):
                false_settles += 1
                examples.append(
                    {
                        "seed": seed,
                        "throw": i,
                        "kind": kind,
                        "die": d.owner,
                        "status": d.status.value,
                        "moved_mm": round(math.dist(pos, d.pose.position) * 1e3, 2),
                    }
                )
                break
    world.close()
    return {
        "throws": throws - start,
        "settled_throws": checked,
        "false_settles": false_settles,
        "examples": examples,
    }


def _job(job: tuple[str, int, int, int]) -> tuple[str, dict]:
    what, seed, start, stop = job
    fn = check_tunnelling if what == "tunnelling" else check_settle
    return what, fn(stop, seed, start)


def run_checks(
    throws: int, settle: int, seeds: list[int], workers: int, chunk: int = 500, progress: str | None = None
) -> dict:
    """The tunnelling and settle checks over ``seeds``, split into chunks over ``workers`` processes.

    ``progress``: a file to which every finished chunk is appended as one JSON line.
    """
    jobs = []
    for seed in seeds:
        for what, n in (("tunnelling", throws), ("settle", settle)):
            jobs += [(what, seed, a, min(a + chunk, n)) for a in range(0, n, chunk)]
    done = []

    def keep(item) -> None:
        done.append(item)
        if progress:
            with open(progress, "a", encoding="utf-8") as f:
                f.write(json.dumps({"check": item[0], **item[1]}) + "\n")

    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for item in pool.imap_unordered(_job, jobs, chunksize=1):
                keep(item)
    else:
        for job in jobs:
            keep(_job(job))
    out = {}
    for what in ("tunnelling", "settle"):
        out[what] = _merge([r for w, r in done if w == what])
        out[what]["seeds"] = seeds
    t = out["tunnelling"]
    if t.get("throws"):
        t["sim_s_per_throw"] = round(t.pop("sim_s") / t["throws"], 3)
        t["throws_per_cpu_s"] = round(t["throws"] / max(t.pop("wall_s"), 1e-9), 1)
    return out


def replay(spec: str) -> dict:
    """One throw of a check again: ``spec`` is ``CHECK:SEED:INDEX`` (CHECK ``tunnelling`` or ``settle``)."""
    parts = spec.split(":")
    if len(parts) != 3 or parts[0] not in ("tunnelling", "settle"):
        raise ValueError(f"--throw {spec!r}: expected CHECK:SEED:INDEX with CHECK tunnelling or settle")
    what, seed, index = parts[0], int(parts[1]), int(parts[2])
    fn = check_tunnelling if what == "tunnelling" else check_settle
    return {"check": what, "seed": seed, "throw": index, **fn(index + 1, seed, index)}


_count = argtypes.whole(0, 10_000_000, "a number of throws")


def _appendable(text: str) -> str:
    """A file to append lines to: not a folder, in a folder that exists (a pipe or a terminal
    such as /dev/stderr will do: nothing is replaced)."""
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{argtypes.shown(text)}: give a file to append to, not a folder")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{argtypes.shown(text)}: folder {path.parent} does not exist")
    return text


def _seeds(text: str) -> list[int]:
    """``S1,S2,...``: seeds, each a whole number >= 0."""
    return [argtypes.seed(part) for part in text.split(",")]


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--throws",
        type=_count,
        default=10000,
        help="throws for the tunnelling count, per seed (default 10000)",
    )
    ap.add_argument("--faces", type=_count, default=6000, help="throws for face uniformity (default 6000)")
    ap.add_argument(
        "--settle", type=_count, default=1000, help="throws for the settle check, per seed (default 1000)"
    )
    ap.add_argument("--seed", type=argtypes.seed, default=7, help="seed (default 7)")
    ap.add_argument(
        "--seeds",
        type=_seeds,
        help="comma-separated seeds for the tunnelling and settle checks (default: --seed)",
    )
    ap.add_argument(
        "--workers",
        type=argtypes.whole(1, 64, "a number of processes"),
        default=1,
        help="processes (default 1)",
    )
    ap.add_argument(
        "--progress",
        type=_appendable,
        metavar="FILE",
        help="append each finished chunk's figures to FILE (JSON lines)",
    )
    ap.add_argument(
        "--throw",
        action="append",
        metavar="CHECK:SEED:INDEX",
        help="run only this throw of a check again (tunnelling:11:9038, settle:15:115; repeatable)",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.throw:
        try:
            rows = [replay(spec) for spec in args.throw]
        except ValueError as e:
            ap.error(str(e))
        for row in rows:
            print(json.dumps(row, indent=2 if args.json else None))
        return 0
    seeds = args.seeds or [args.seed]
    start = time.perf_counter()
    result = run_checks(args.throws, args.settle, seeds, max(1, args.workers), progress=args.progress)
    if args.faces:
        result["faces"] = check_faces(args.faces, args.seed)
    result["wall_s"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        t, s = result["tunnelling"], result["settle"]
        print(
            f"tunnelling: {t.get('tunnelled_throws', 0)} of {t.get('throws', 0)} throws flagged "
            f"{t.get('tunnel_parts', {})} (seeds {seeds}); kinds {t.get('kinds')}; statuses {t.get('statuses')}; "
            f"unsettled {t.get('unsettled', 0)}; {t.get('throws_per_cpu_s')} throws per process-second"
        )
        for e in t.get("examples", []) + t.get("unsettled_examples", []):
            print(f"  {e}")
        if "faces" in result:
            f = result["faces"]
            print(
                f"faces: {f['axis_counts']} of {f['on_board']} on the board ({f['lost']} lost, "
                f"{f['cocked']} cocked); chi² {f['chi2']} (5 df), p = {f['p_value']}"
            )
        print(
            f"settle: {s.get('false_settles', 0)} false settles in {s.get('settled_throws', 0)} settled "
            f"of {s.get('throws', 0)} throws"
        )
        for e in s.get("examples", []):
            print(f"  {e}")
        print(f"wall time {result['wall_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
