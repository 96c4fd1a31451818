"""Throw scenes shared by the benchmarks: standard turns, random mixed throws, face counts.

Used by ``benchmarks/throughput.py``, ``benchmarks/physics_checks.py``, the tray scene
(:mod:`doppelx.bench.tray`) and the settings sweep (:mod:`doppelx.bench.sweep`), so every
benchmark throws the same way.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from physics.throw_model import SKILLS, Aim, Skill, aimed_throw, setup_throw
from rules.common.vec import matmul, norm

#: Dice lying on the board in a standard turn (six other players' dice).
LYING = ("red", "yellow", "green", "purple", "orange", "pink")
#: Full-strength throws from high up with fast tumbling (the tunnelling stress case).
VIOLENT = Skill("violent", 0.03, 0.0, 0.15, 0.03, 0.03, (20.0, 45.0))
#: Release speed of a hurled throw (m/s): the violent end of real hand throws.
HURL_SPEED = 5.0


def standard_turns(n: int, rng: np.random.Generator, side: str = "I"):
    """``n`` standard-turn scenes on ``side``: ``(board, [(lying poses, throw), ...])``.

    Six dice lie flat at random free places (random faces and turns); blue and white are
    thrown by the medium bot's throw model at its best spot of the board.
    """
    from doppelx.games.doppelx.bot_factory import make_bot
    from physics.scene import scatter_lying
    from rules.doppelx.board_file import load_board
    from rules.doppelx.box import load_box
    from rules.doppelx.dice import load_dice

    board, box, dice = load_board(side), load_box(), load_dice()
    bot = make_bot("medium")
    aim = bot.throw.aim(board, dice["blue"], box)
    out = []
    for _ in range(n):
        lying = scatter_lying(board, box, dice, LYING, rng)
        throw = aimed_throw(box, aim, ["blue", "white"], bot.throw.skill, rng, dice["blue"].size)
        out.append((lying, throw))
    return board, out


def measure(board, items, settings=None, with_lying: bool = True) -> dict:
    """Run the scenes ``items`` in one world; wall-clock figures of the runs (one core)."""
    from physics.run import run_throw
    from physics.world import World

    world = World(board, settings=settings)
    steps = tunnelled = unsettled = 0
    sim = 0.0
    start = time.perf_counter()
    for lying, throw in items:
        r = run_throw(world, throw, lying if with_lying else {})
        steps += r.steps
        sim += r.sim_time
        tunnelled += bool(r.tunnelled)
        unsettled += not r.settled
    wall = time.perf_counter() - start
    world.close()
    n = len(items)
    return {
        "throws": n,
        "wall_s": wall,
        "throws_per_s": n / wall,
        "steps_per_s": steps / wall,
        "sim_s_per_throw": sim / n,
        "tunnelled": tunnelled,
        "unsettled": unsettled,
    }


def random_scene(board, rng: np.random.Generator):
    """A random throw on ``board``: ``(kind, lying poses, throw)``.

    Kinds: ``setup`` (15 %: 3–8 players from their seats), ``violent`` (15 %: full strength
    from high up, 0–6 dice lying), ``hurled`` (5 %: blue and white hurled from a random
    wall at :data:`HURL_SPEED` straight at a random point, tumbling fast, 0–6 dice lying),
    ``turn`` (65 %: blue and white at a random point with a random strength and skill, 0–6
    dice lying).
    """
    from physics.scene import scatter_lying
    from rules.doppelx.box import load_box
    from rules.doppelx.dice import load_dice

    box, dice = load_box(), load_dice()
    colours = dice.player_colours
    u = rng.random()
    skill = SKILLS[str(rng.choice(list(SKILLS)))]
    target = (float(rng.uniform(-0.12, 0.12)), float(rng.uniform(-0.12, 0.12)))
    if u < 0.15:
        n = int(rng.integers(3, 9))
        seats = list(colours[:n])
        aims = {
            c: Aim((float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1))), float(rng.uniform(0, 1)))
            for c in seats
        }
        return "setup", {}, setup_throw(box, seats, aims, {c: skill for c in seats}, rng, 0.016)
    others = [c for c in colours if c != "blue"]
    lying = scatter_lying(board, box, dice, others[: int(rng.integers(0, 7))], rng)
    if u < 0.30:
        return "violent", lying, aimed_throw(box, Aim(target, 1.0), ["blue", "white"], VIOLENT, rng, 0.016)
    if u < 0.35:
        return "hurled", lying, hurled_throw(box, target, ["blue", "white"], rng)
    return (
        "turn",
        lying,
        aimed_throw(box, Aim(target, float(rng.uniform(0, 1))), ["blue", "white"], skill, rng, 0.016),
    )


def hurled_throw(box, target, owners, rng: np.random.Generator, speed: float = 0.0):
    """Dice hurled from 10 cm above the rim of a random wall straight at ``target`` (x, y) m.

    ``speed`` (m/s, default :data:`HURL_SPEED`) is the release speed; the dice hit the
    playfield a little faster still, tumbling at 20–45 rad/s.
    """
    from physics.throw import WALLS, hand_throw, random_spin, release_point

    wall = WALLS[int(rng.integers(4))]
    along = float(rng.uniform(-0.1, 0.1))
    start = np.array(release_point(box, wall, along, 0.10))
    aim = np.array([target[0], target[1], 0.008])
    direction = (aim - start) / norm(aim - start)
    velocity = direction * (speed or HURL_SPEED)
    return hand_throw(owners, start, velocity, random_spin(rng, 20.0, 45.0), rng, spacing=0.022)


def face_throw(box, rng: np.random.Generator):
    """One die (blue) thrown by the easy bot's hand at a random spot and strength on side I's box.

    The throw of the faces checks (``benchmarks/physics_checks.py --faces``, the tray scene's
    ``faces.chi2``): a single die from a random orientation, nothing lying, so that the
    face it shows depends on the physics, not on the other dice.
    """
    aim = Aim((float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1))), float(rng.uniform(0.0, 1.0)))
    return aimed_throw(box, aim, ["blue"], SKILLS["easy"], rng, 0.016)


@dataclass
class FaceCount:
    """What ``face_counts`` saw: up axes of the dice at rest on the board, the dice not on it,
    the cocked ones among those on it, and the physics steps taken."""

    axes: np.ndarray
    lost: int = 0
    cocked: int = 0
    steps: int = 0


def face_counts(world, n: int, seed: int, cocked_angle: float) -> FaceCount:
    """Throw :func:`face_throw` ``n`` times in ``world`` (throw ``i`` from ``child_rng(seed, i)``) and count the faces."""
    from physics.run import run_throw
    from rules.common.rng import child_rng
    from rules.doppelx.outcome import Status

    out = FaceCount(np.zeros(6, dtype=int))
    for i in range(n):
        r = run_throw(world, face_throw(world.box, child_rng(seed, i)), watch=False)
        out.steps += r.steps
        d = r.outcome.get("blue")
        if d is None or d.status is not Status.BOARD:
            out.lost += 1
            continue
        axis, tilt = up_axis(d.pose)
        out.axes[axis] += 1
        out.cocked += tilt > cocked_angle
    return out


def up_axis(pose) -> tuple[int, float]:
    """The die axis (index into ``rules.doppelx.dice.AXES``) pointing most nearly up, and its tilt (rad)."""
    from rules.doppelx.dice import AXIS_VECTORS

    up = pose.rotation()[2, :]
    dots = matmul(AXIS_VECTORS, up)
    k = int(np.argmax(dots))
    return k, math.acos(min(1.0, float(dots[k])))


def chi2_sf_5(x: float) -> float:
    """Survival function of the chi-square distribution with 5 degrees of freedom."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def chi2_uniform(counts) -> tuple[float, float]:
    """Chi-square statistic of six counts against the uniform distribution, and its p-value."""
    c = np.asarray(counts, dtype=float)
    n = c.sum()
    if n == 0:
        return 0.0, 1.0
    chi2 = float(((c - n / 6) ** 2 / (n / 6)).sum())
    return chi2, chi2_sf_5(chi2)
