"""How long a flick's throw lives: release to rest, wall hits and roll for soft, medium and hard flicks.

    python benchmarks/throw_feel.py [--seeds N] [--board I] [--mappings before,previous,assisted,direct]
                                    [--height M] [--materials FILE] [--json]
    python benchmarks/throw_feel.py --stances [--seeds N] [--mappings ...] [--height M] [--json]
    python benchmarks/throw_feel.py --open-board [--json]

A person at the middle of the south wall flicks their die and the white die straight into
the box at 0.2 (soft), 0.8 (medium) and 1.6 m/s (hard, full power) on the release plane —
the drag a steady mouse makes (``render.aim.ThrowAim.flick``) — on an empty board, one throw
per seed (the hand's random part differs), the hand at the window's default release height
or ``--height`` m above the lowest (0–0.15, as the wheel sets it). Each flick becomes dice through a mapping:

* ``before``: the window's mapping up to commit 8cb4d2b — the throw model's arc to the
  flick's aim point, the player's spin only (0 unless set with Shift+wheel);
* ``previous``: the assisted mapping up to commit b0ad479 — the same arc to the flick's aim
  point for every power (0.35…2.2 m/s), a forward roll of 8…30 rad/s;
* ``assisted`` / ``direct``: today's (``doppelx.games.doppelx.play.flick_throw``), the form's two ways.

Per mapping and flick it prints medians over the seeds: ``rest`` (s from release until the
physics reports every die at rest), ``in play`` (s from the first impact of either die —
on the board or a wall — until that rest: the time the dice tumble in the box, without the
flight), ``still`` (s until no die moves faster than 5 cm/s any
more), ``walls`` (hits on the inner walls per die: the velocity towards a wall within a
die's size of it reversed), ``roll`` (cm a die travels on the board after it first lands),
``path`` (cm a die's centre travels horizontally from its first impact, on the board or a
wall, until it rests: a hard throw's dice cross the box back from the far wall before they
first land flat, which ``roll`` does not see), ``off`` (dice off the box or in a hole, of all; ``off_box`` and ``in_hole`` apart) and ``kept``
(release to rest of the throws that lost no die: a die falling to the floor lengthens a throw). The contact materials are the project's
(``assets/materials.toml``) unless ``--materials`` names another file (a fit to real tosses,
say, to see what it does to the feel); the script changes only how a flick maps to the release.

``--stances`` asks how often a flick loses a die — over a wall, onto a bet card (off the box
too, D6) or into a hole — when the thrower does not stand in the middle or flick straight in:
from the S and W walls at 11 and 5.5 cm left, the middle, 5.5 and 11 cm right (a wall's
ends are 11.5 cm out), turned −30°, −15°, −5°, 0°, 5°, 15° and 30°, ``--seeds`` throws each
(70 stances; the sixteenth and seventeenth playtests lost dice off the box on ordinary flicks
from such stances — a flick "straight up the screen" from a wall's end is a few degrees
outward on the table — which the straight-in figures above never showed). A flick the
assisted aim takes as aimed past the box on purpose is counted (``aimed out``), not thrown.

``--open-board`` asks what the box's walls do to that: every third of the tracked real cube
tosses (``doppelx bench tosses``' data, an acrylic cube on an open wooden board, no walls) is
re-run in PyBullet from its release state with the release velocity and spin scaled by
0.5, 1, 2 and 2.5, once with the game's die–board material and once with the material fitted
to the tosses, and the median time to rest is printed beside the real tosses' (and their
rank correlation of speed and time to rest).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FLICKS = {"soft": 0.2, "medium": 0.8, "hard": 1.6}
MAPPINGS = ("before", "previous", "assisted", "direct")
#: The forward roll (rad/s) of the ``previous`` mapping at power 0 and 1.
PREVIOUS_ROLL = (8.0, 30.0)
#: A die slower than this (m/s) counts as still.
STILL_SPEED = 0.05
#: A change of a die's velocity between two frames beyond free fall by more than this (m/s) is an impact.
IMPACT_DV = 0.2


def drag(aim, speed: float, angle_deg: float = 0.0, steps: int = 8, dt: float = 0.012):
    """Samples (t, x, y) of a steady drag into the box at ``speed`` m/s on the release plane,
    straight in or turned ``angle_deg`` degrees to the thrower's right."""
    a = np.radians(angle_deg)
    d = aim.inward * np.cos(a) + aim.right * np.sin(a)
    p0 = aim.release_point()[:2] - d * 0.05
    return [(k * dt, *(p0 + d * speed * k * dt)) for k in range(steps)]


def release_of(mapping: str, box, intent, die_half: float):
    """Release point, velocity and spin of ``intent`` under ``mapping``."""
    from doppelx.games.doppelx.play.flick_throw import flick_release, roll_axis
    from physics.throw_model import Aim, plan

    if mapping in ("before", "previous"):
        power = float(min(1.0, max(0.0, intent.power)))
        release, velocity = plan(
            box, Aim(intent.target, power, intent.wall, intent.along), intent.height, die_half
        )
        if mapping == "before":
            return release, velocity, intent.spin
        roll = roll_axis(velocity) * (PREVIOUS_ROLL[0] + power * (PREVIOUS_ROLL[1] - PREVIOUS_ROLL[0]))
        return release, velocity, tuple(float(a + b) for a, b in zip(intent.spin, roll))
    return flick_release(box, intent, die_half, mapping)


def wall_hits(traj, box, size: float) -> float:
    """Hits on the inner walls per die (see the module docstring)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    hits = 0
    for i in range(len(traj.owners)):
        p, v = traj.positions[:, i], traj.velocities[:, i]
        inside = (np.abs(p[:, 0]) < hx) & (np.abs(p[:, 1]) < hy) & (p[:, 2] < box.rim_z + size)
        for k, half in ((0, hx), (1, hy)):
            near = inside & (np.abs(p[:, k]) > half - size)
            towards = np.sign(p[:, k]) * v[:, k]
            for f in range(1, len(p)):
                if near[f] and towards[f - 1] > 0.1 and towards[f] < -0.02:
                    hits += 1
    return hits / len(traj.owners)


def first_impact(traj, i: int) -> int | None:
    """The first frame of die ``i`` whose velocity is not free flight's from the frame before."""
    from physics.settings import GRAVITY

    v = traj.velocities[:, i]
    dt = np.diff(traj.times)
    free = v[:-1] - np.outer(dt, [0.0, 0.0, GRAVITY])
    hit = np.nonzero(np.linalg.norm(v[1:] - free, axis=1) > IMPACT_DV)[0]
    return int(hit[0]) + 1 if len(hit) else None


def path_after_impact(traj, i: int) -> float:
    """cm die ``i``'s centre travels horizontally from its first impact on (0 without one)."""
    f = first_impact(traj, i)
    if f is None:
        return 0.0
    return float(np.linalg.norm(np.diff(traj.positions[f:, i, :2], axis=0), axis=1).sum()) * 100


def measure(match, mapping: str, speed: float, seeds: int, height: float | None = None) -> dict:
    """Medians over ``seeds`` flicks at ``speed`` m/s under ``mapping``, the hand ``height`` m
    above the lowest release height (``None``: the window's default)."""
    from render.aim import ThrowAim
    from rules.doppelx.outcome import Status

    box = match.service.box
    die = next(iter(match.game.dice.dice.values()))
    owners = (match.game.seats[0], "white")
    rest, still, walls, roll, path, off, hole, kept, in_play = [], [], [], [], [], 0, 0, [], []
    for seed in range(seeds):
        match.rng = np.random.default_rng(seed)
        aim = ThrowAim(box, die.size)
        if height is not None:
            aim.height = aim.min_height + height
        intent = aim.flick(drag(aim, speed))
        release, velocity, spin = release_of(mapping, box, intent, die.half)
        throw = match.hand_throw(owners, release, velocity, spin)
        result = match.service.run(throw, {}, 0.0, record=True)
        traj = result.trajectory
        rest.append(result.sim_time)
        impacts = [f for f in (first_impact(traj, i) for i in range(len(owners))) if f is not None]
        in_play.append(result.sim_time - float(traj.times[min(impacts)]) if impacts else 0.0)
        moving = np.nonzero((np.linalg.norm(traj.velocities, axis=2) > STILL_SPEED).any(axis=1))[0]
        still.append(
            float(traj.times[moving[-1] + 1])
            if len(moving) and moving[-1] + 1 < len(traj)
            else result.sim_time
        )
        walls.append(wall_hits(traj, box, die.size))
        for i in range(len(owners)):
            path.append(path_after_impact(traj, i))
            p = traj.positions[:, i]
            landed = np.nonzero(p[:, 2] < die.half * 1.5)[0]
            if len(landed):
                steps = np.diff(p[landed[0] :, :2], axis=0)
                roll.append(float(np.linalg.norm(steps, axis=1).sum()) * 100)
        lost = [sum(d.status is s for d in result.outcome.dice) for s in (Status.OFF, Status.HOLE)]
        off, hole = off + lost[0], hole + lost[1]
        if not any(lost):
            kept.append(result.sim_time)
    return {
        "rest_s": float(np.median(rest)),
        "still_s": float(np.median(still)),
        "in_play_s": float(np.median(in_play)),
        "walls_per_die": float(np.median(walls)),
        "roll_cm": float(np.median(roll)) if roll else 0.0,
        "path_cm": float(np.median(path)),
        "off": f"{off + hole}/{seeds * len(owners)}",
        "off_box": off,
        "in_hole": hole,
        "kept_rest_s": float(np.median(kept)) if kept else None,
        "kept_throws": len(kept),
        "speed_mps": speed,
    }


#: ``--stances``: the walls, places along them (m from the middle) and flick angles (degrees
#: to the thrower's right) of the grid of stances. S and W suffice: the box is square and
#: the board's holes play no part in whether a die leaves it.
STANCE_WALLS = ("S", "W")
STANCE_ALONG = (-0.11, -0.055, 0.0, 0.055, 0.11)
STANCE_ANGLES = (-30, -15, -5, 0, 5, 15, 30)


def stances(match, mapping: str, speed: float, seeds: int, height: float | None = None) -> dict:
    """Dice lost by flicks at ``speed`` m/s from every stance of the grid (``--stances``):
    off the box over a wall, come to rest on a bet card (off too, D6) or in a hole. A flick an
    assisted aim takes as aimed past the box on purpose (no target) is counted apart, not thrown."""
    from render.aim import ThrowAim
    from rules.doppelx.outcome import Status

    box = match.service.box
    die = next(iter(match.game.dice.dice.values()))
    owners = (match.game.seats[0], "white")
    outer = np.array(box.inner_size) / 2 + box.wall_thickness
    out = card = hole = dice = aimed_out = 0
    worst: dict[str, int] = {}
    for wall in STANCE_WALLS:
        for along in STANCE_ALONG:
            for angle in STANCE_ANGLES:
                for seed in range(seeds):
                    match.rng = np.random.default_rng(seed)
                    aim = ThrowAim(box, die.size)
                    aim.wall, aim.along = wall, along
                    if height is not None:
                        aim.height = aim.min_height + height
                    intent = aim.flick(drag(aim, speed, angle))
                    if mapping != "direct" and intent.target is None:
                        aimed_out += 1  # past the box on purpose: thrown as the hand moved, not counted
                        continue
                    release, velocity, spin = release_of(mapping, box, intent, die.half)
                    result = match.service.run(match.hand_throw(owners, release, velocity, spin), {}, 0.0)
                    dice += len(owners)
                    for d in result.outcome.dice:
                        if d.status is Status.HOLE:
                            hole += 1
                        elif d.status is Status.OFF:
                            on_card = d.pose is not None and bool((np.abs(d.pose.position[:2]) < outer).all())
                            card, out = card + on_card, out + (not on_card)
                            key = f"{wall} {along * 100:+.1f} cm {angle:+d}°"
                            worst[key] = worst.get(key, 0) + 1
    top = max(worst.items(), key=lambda kv: kv[1]) if worst else None
    return {
        "dice": dice,
        "aimed_out": aimed_out,
        "off_box": out,
        "on_card": card,
        "in_hole": hole,
        "lost_share": (out + card) / max(dice, 1),
        "worst_stance": None
        if top is None
        else {"stance": top[0], "lost": top[1], "of": seeds * len(owners)},
        "speed_mps": speed,
    }


def _print_stances(res: dict, args, load: float) -> None:
    n = len(STANCE_WALLS) * len(STANCE_ALONG) * len(STANCE_ANGLES)
    print(
        f"side {args.board}, {n} stances (walls {'/'.join(STANCE_WALLS)}, along "
        f"{'/'.join(f'{a * 100:+.1f}' for a in STANCE_ALONG)} cm, angles {'/'.join(map(str, STANCE_ANGLES))}°) × "
        f"{args.seeds} throws, release height {_height(args)}, load {load:.2f}"
    )
    print(
        f"{'mapping':9} {'flick':7} {'m/s':>4} {'aimed out':>9} {'dice':>5} {'over wall':>9} {'on card':>8} "
        f"{'lost':>6} {'in hole':>8}  worst stance"
    )
    for m, rows in res.items():
        for name, r in rows.items():
            w = r["worst_stance"]
            print(
                f"{m:9} {name:7} {r['speed_mps']:4.1f} {r['aimed_out']:>9} {r['dice']:>5} {r['off_box']:>9} {r['on_card']:>8} "
                f"{r['lost_share']:6.1%} {r['in_hole']:>8}  "
                + ("-" if w is None else f"{w['stance']}: {w['lost']} of {w['of']}")
            )


#: Release velocity and spin scale factors of ``--open-board``.
OPEN_SCALES = (0.5, 1.0, 2.0, 2.5)


def _rank_corr(a, b) -> float:
    """Spearman's rank correlation of ``a`` and ``b`` (no ties expected)."""
    ra, rb = (np.argsort(np.argsort(np.asarray(x))) for x in (a, b))
    return float(np.corrcoef(ra, rb)[0, 1])


def open_board(every: int = 3) -> dict:
    """Median time to rest (s) of the tracked tosses, real and re-run at :data:`OPEN_SCALES`."""
    from doppelx.bench.tosses import Path3, time_to_rest
    from doppelx.bench.tosses_data import load_tosses, release_state
    from doppelx.bench.tosses_fit import params_of, read_fit
    from doppelx.bench.tosses_sim import TossRunner, game_params

    data = load_tosses()
    tosses = data.tosses[::every]
    materials = {"game": game_params("pybullet"), "fitted": params_of(read_fit(), "pybullet")}
    real = [(0.0, time_to_rest(Path3.of(t))) for t in tosses]
    runs: dict[str, list] = {f"{m} x{f}": [] for m in materials for f in OPEN_SCALES}
    with TossRunner("pybullet", data.half_width, data.mass, data.inertia) as runner:
        for i, toss in enumerate(tosses):
            pos, quat, vel, spin = release_state(toss, data.half_width).state()
            real[i] = (float(np.linalg.norm(vel)), real[i][1])
            for m, params in materials.items():
                for f in OPEN_SCALES:
                    v, w = tuple(c * f for c in vel), tuple(c * f for c in spin)
                    sim = runner.run(params, (pos, quat, v, w), 0.0)
                    runs[f"{m} x{f}"].append((float(np.linalg.norm(v)), time_to_rest(Path3.of(sim))))
    out = {}
    for name, rows in {"real": real, **runs}.items():
        a = np.array(rows)
        out[name] = {
            "speed_mps": float(np.median(a[:, 0])),
            "rest_s": float(np.median(a[:, 1])),
            "rest_p90_s": float(np.quantile(a[:, 1], 0.9)),
            "speed_rest_rank_corr": _rank_corr(a[:, 0], a[:, 1]),
        }
    return {"tosses": len(tosses), "engine": "pybullet", "results": out}


def _print_open_board(res: dict, load: float) -> None:
    print(f"open board, {res['tosses']} tracked tosses, {res['engine']}, load {load:.2f}")
    print(f"{'run':11} {'m/s':>5} {'rest s':>7} {'p90 s':>6} {'rank corr':>9}")
    for name, r in res["results"].items():
        print(
            f"{name:11} {r['speed_mps']:5.2f} {r['rest_s']:7.3f} {r['rest_p90_s']:6.3f} "
            f"{r['speed_rest_rank_corr']:9.2f}"
        )


def _height(args) -> str:
    """The release height the command line chose, in words."""
    return "default" if args.height is None else f"lowest + {args.height:.3f} m"


def _seconds(value) -> str:
    """``value`` s to two places, or ``-`` for none."""
    return "-" if value is None else f"{value:.2f}"


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser

    p = OneLineParser(prog="throw_feel.py", description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=12, help="throws per mapping and flick (default 12)")
    p.add_argument("--board", default="I", help="the side of the box (default I)")
    p.add_argument("--mappings", default=",".join(MAPPINGS), help="comma-separated: " + ", ".join(MAPPINGS))
    p.add_argument(
        "--height", type=float, help="release height above the lowest, m (0-0.15; default the window's 0.03)"
    )
    p.add_argument("--materials", help="a materials file (default: assets/materials.toml)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    p.add_argument(
        "--stances",
        action="store_true",
        help="dice lost off the box by flicks from a grid of stances and angles (not only straight in)",
    )
    p.add_argument(
        "--open-board",
        action="store_true",
        help="the tracked real tosses on their open board, re-run faster and slower (no box, no flicks)",
    )
    args = p.parse_args(argv)
    if args.open_board:
        res = open_board()
        load = os.getloadavg()[0]
        if args.json:
            print(json.dumps({**res, "load": load}))
        else:
            _print_open_board(res, load)
        return 0
    if args.seeds < 1:
        p.error(f"--seeds must be at least 1, got {args.seeds}")
    if args.height is not None and not 0.0 <= args.height <= 0.15:
        p.error(f"--height must be within 0-0.15 m, got {args.height}")
    mappings = [m.strip() for m in args.mappings.split(",") if m.strip()]
    bad = [m for m in mappings if m not in MAPPINGS]
    if bad or not mappings:
        p.error(f"--mappings: unknown {', '.join(bad) or '(none)'}; use {', '.join(MAPPINGS)}")

    from doppelx.games.doppelx.play.newgame import GameSetup, start_match

    setup = GameSetup.standard(3, 3, seed=1, names=("Ann", "Bo", "Cy"))
    setup.board = args.board
    setup.spinner = False
    match = start_match(setup)
    if args.materials:
        from physics.materials import load_materials
        from physics.world import World
        from rules.common.errors import DoppelXError

        try:
            materials = load_materials(args.materials)
        except (OSError, DoppelXError) as exc:
            match.close()
            p.error(f"--materials {args.materials}: {exc}")
        match.world.close()
        match.world = World(match.game.board, dice=match.game.dice, materials=materials, spinner=False)
    run = stances if args.stances else measure
    try:
        out = {
            m: {name: run(match, m, v, args.seeds, args.height) for name, v in FLICKS.items()}
            for m in mappings
        }
    finally:
        match.close()
    load = os.getloadavg()[0]
    if args.stances and not args.json:
        _print_stances(out, args, load)
        return 0
    if args.json:
        print(
            json.dumps(
                {
                    "board": args.board,
                    "seeds": args.seeds,
                    "stances": args.stances,
                    "height": args.height,
                    "materials": args.materials,
                    "load": load,
                    "results": out,
                }
            )
        )
        return 0
    print(
        f"side {args.board}, {args.seeds} throws each (medians), release height {_height(args)}, "
        f"materials {args.materials or 'shipped'}, load {load:.2f}"
    )
    print(
        f"{'mapping':9} {'flick':7} {'m/s':>4} {'rest s':>7} {'in play':>8} {'still s':>8} {'walls':>6} {'roll cm':>8} {'path cm':>8} {'off':>6}"
        f" {'box+hole':>8} {'kept s':>7}"
    )
    for m, rows in out.items():
        for name, r in rows.items():
            print(
                f"{m:9} {name:7} {r['speed_mps']:4.1f} {r['rest_s']:7.2f} {r['in_play_s']:8.2f} {r['still_s']:8.2f} "
                f"{r['walls_per_die']:6.2f} {r['roll_cm']:8.1f} {r['path_cm']:8.1f} {r['off']:>6} {r['off_box']:>4}+{r['in_hole']:<3}"
                f" {_seconds(r['kept_rest_s']):>7}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
