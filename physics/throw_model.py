"""The throw model: a player's intent (a target point and a strength) → release parameters.

An :class:`Aim` says where the dice should first land (x, y on the board, m), how hard
they are thrown (``strength`` 0 … 1) and optionally from which wall and where along it.
:func:`plan` solves the flight: the release point lies beyond the wall's outer face at
the skill's release height above the rim; the horizontal speed grows with the strength
(:data:`SPEED_MIN` … :data:`SPEED_MAX`); the flight time is the longer of "distance /
speed" and the time a lob needs to clear the rim with the die's full size to spare, and
the vertical speed then follows from the ballistic arc (no air drag — negligible for dice,
Kapitaniak et al. 2012); no arc rises more than :data:`MAX_APEX` above the hand (a longer
flight is flown faster and flatter). :func:`aimed_throw` adds the player's errors first: a
:class:`Skill` scatters the target (normal, ``aim_sd``), the strength, the release height
and the hand's place along the wall, and the dice leave the hand tumbling about a random
axis. The same aim, skill and random stream give the same throw.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from physics.settings import GRAVITY
from physics.throw import RELEASE_OUT, WALLS, Throw, hand_throw, release_point, seat_places, wall_axes
from rules.common.vec import dot, norm
from rules.doppelx.box import BoxSpec

#: Horizontal release speed at strength 0 and 1 (m/s).
SPEED_MIN, SPEED_MAX = 0.35, 2.2
#: Extra height the die's lowest point keeps above the rim while crossing it (m).
RIM_CLEARANCE = 0.006
#: Closest a (noisy) target comes to a wall's inner face, beyond the die's half size (m).
TARGET_WALL_GAP = 0.010
#: Highest a planned arc rises above its release point (m): a far or soft throw (the setup
#: throw of a seat far from its target, a bot's gentle throw across the box) would otherwise
#: take "distance / slow speed" ≈ 1 s in the air, a lob ~0.8 m up that lands hard and bounces
#: off the box (issue 32). The flight time then follows from the distance and this apex:
#: the throw goes faster and flatter instead (benchmarks/setup_lob.py).
MAX_APEX = 0.2


@dataclass(frozen=True)
class Aim:
    """What a player wants: first impact at ``target`` (x, y) m, thrown with ``strength`` 0…1.

    ``wall``/``along`` fix where the player stands; by default the wall with the gentlest
    throw (see :func:`plan`), straight across from the target. ``spin`` is a chosen roll
    rate about the forward-roll axis (rad/s; negative = backspin); by default the dice
    tumble at a random rate within the skill's range.
    """

    target: tuple[float, float]
    strength: float = 0.4
    wall: str | None = None
    along: float | None = None
    spin: float | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.strength <= 1.0:
            raise ValueError(f"strength must be within 0…1, got {self.strength}")
        if self.wall is not None and self.wall not in WALLS:
            raise ValueError(f"wall must be one of {', '.join(WALLS)}, got {self.wall!r}")


@dataclass(frozen=True)
class Skill:
    """A player's throwing precision.

    Attributes:
        name: level name.
        aim_sd: spread of the first impact around the target (m, per axis).
        strength_sd: spread of the strength.
        height: mean release height above the rim (m); height_sd its spread.
        along_sd: spread of the hand's place along the wall (m).
        spin: range of the dice's tumbling speed at release (rad/s).
    """

    name: str
    aim_sd: float
    strength_sd: float
    height: float
    height_sd: float
    along_sd: float
    spin: tuple[float, float] = (8.0, 30.0)


SKILLS: dict[str, Skill] = {
    "easy": Skill("easy", aim_sd=0.040, strength_sd=0.15, height=0.08, height_sd=0.025, along_sd=0.03),
    "medium": Skill("medium", aim_sd=0.025, strength_sd=0.10, height=0.07, height_sd=0.015, along_sd=0.02),
    "hard": Skill("hard", aim_sd=0.012, strength_sd=0.05, height=0.06, height_sd=0.008, along_sd=0.01),
}


def nearest_wall(box: BoxSpec, target: Sequence[float]) -> tuple[str, float]:
    """The wall closest to ``target`` and the point along it straight across (m)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    x, y = float(target[0]), float(target[1])
    gaps = {"E": hx - x, "W": hx + x, "N": hy - y, "S": hy + y}
    wall = min(WALLS, key=lambda s: (gaps[s], WALLS.index(s)))
    _, right = wall_axes(wall)
    return wall, dot(right, (x, y))


def plan(
    box: BoxSpec, aim: Aim, height: float, die_half: float, out: float = RELEASE_OUT
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Release point (3,) m and velocity (3,) m/s whose arc first lands at ``aim.target``.

    Without ``aim.wall`` the player walks to the wall that needs the gentlest throw (the
    lowest release speed): usually the nearest, but not for a target right at a wall,
    where a die from that wall would have to drop almost straight down behind the rim.

    Args:
        box: the box (rim height, walls).
        aim: target, strength and place.
        height: release height above the rim (m).
        die_half: half the die's edge (m); the landing height and the rim clearance use it.
        out: distance of the hand beyond the wall's outer face (m).
    """
    if aim.wall is not None:
        return _plan_from(box, aim, aim.wall, aim.along, height, die_half, out)
    best = None
    for wall in WALLS:
        along = aim.along if wall == nearest_wall(box, aim.target)[0] else None
        pos, vel = _plan_from(box, aim, wall, along, height, die_half, out)
        speed = math.sqrt(sum(v * v for v in vel))
        if best is None or speed < best[0] - 1e-12:
            best = (speed, pos, vel)
    assert best is not None
    return best[1], best[2]


def _plan_from(
    box: BoxSpec, aim: Aim, wall: str, along: float | None, height: float, die_half: float, out: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    if along is None:
        _, right = wall_axes(wall)
        along = dot(right, aim.target)
    p0 = np.array(release_point(box, wall, along, height, out))
    target = np.array([aim.target[0], aim.target[1], die_half])
    flat = target[:2] - p0[:2]
    dist = norm(flat)
    speed = SPEED_MIN + aim.strength * (SPEED_MAX - SPEED_MIN)
    t_flight = max(dist / speed, 0.05)
    # the arc must clear the rim between the outer and inner wall faces
    clear_z = box.rim_z + die_half * math.sqrt(3) + RIM_CLEARANCE
    for f in _wall_crossings(box, p0[:2], target[:2]):
        if 0.0 < f < 1.0:
            need = clear_z - p0[2] - (target[2] - p0[2]) * f
            if need > 0:
                t_flight = max(t_flight, math.sqrt(2 * need / (GRAVITY * f * (1 - f))))
    t_flight = min(t_flight, apex_flight(float(p0[2] - target[2]), MAX_APEX))
    vxy = flat / t_flight
    vz = (target[2] - p0[2] + GRAVITY * t_flight**2 / 2) / t_flight
    return (float(p0[0]), float(p0[1]), float(p0[2])), (float(vxy[0]), float(vxy[1]), float(vz))


def apex_flight(drop: float, apex: float) -> float:
    """Flight time (s) of an arc that rises ``apex`` m above its release and lands ``drop`` m
    below it (``drop`` may be negative: a landing above the release)."""
    vz = math.sqrt(2 * GRAVITY * apex)
    return (vz + math.sqrt(max(0.0, vz * vz + 2 * GRAVITY * drop))) / GRAVITY


def _wall_crossings(box: BoxSpec, a: np.ndarray, b: np.ndarray) -> list[float]:
    """Fractions along a→b where the segment enters the outer and the inner wall faces."""
    out = []
    for half_x, half_y in (
        (box.inner_size[0] / 2 + box.wall_thickness, box.inner_size[1] / 2 + box.wall_thickness),
        (box.inner_size[0] / 2, box.inner_size[1] / 2),
    ):
        lo, hi = 0.0, 1.0
        d = b - a
        for k, half in ((0, half_x), (1, half_y)):
            if abs(d[k]) < 1e-12:
                continue
            t1, t2 = (-half - a[k]) / d[k], (half - a[k]) / d[k]
            lo = max(lo, min(t1, t2))
            hi = min(hi, max(t1, t2))
        if lo <= hi:
            out.append(lo)
    return out


def aimed_throw(
    box: BoxSpec, aim: Aim, owners: Sequence[str], skill: Skill, rng: np.random.Generator, die_size: float
) -> Throw:
    """The dice ``owners`` thrown by a player of ``skill`` who wants ``aim`` (errors included)."""
    height = max(0.01, skill.height + skill.height_sd * rng.standard_normal())
    noisy = _scatter(box, aim, skill, rng, die_size / 2, height)
    pos, vel = plan(box, noisy, height, die_size / 2)
    spin = _spin_about_travel(vel, rng, skill, aim.spin)
    return hand_throw(owners, pos, vel, spin, rng, spacing=1.4 * die_size)


def _scatter(
    box: BoxSpec, aim: Aim, skill: Skill, rng: np.random.Generator, die_half: float, height: float
) -> Aim:
    wall, along = aim.wall, aim.along
    if wall is None:  # the player walks to the wall of the gentlest throw, then errs from there
        pos, _ = plan(box, aim, height, die_half)
        wall = _wall_of(box, pos)
    if along is None:
        _, right = wall_axes(wall)
        along = dot(right, aim.target)
    target = np.asarray(aim.target, dtype=float) + skill.aim_sd * rng.standard_normal(2)
    # an aim error never puts the target behind a wall: the player still throws into the box
    # (a target beyond the thrower's own wall asked for a near-vertical 30 m/s lob)
    reach = np.array(box.inner_size) / 2 - (die_half + TARGET_WALL_GAP)
    target = np.clip(target, -reach, reach)
    strength = float(np.clip(aim.strength + skill.strength_sd * rng.standard_normal(), 0.0, 1.0))
    along = along + skill.along_sd * rng.standard_normal()
    limit = (box.inner_size[0] if wall in ("S", "N") else box.inner_size[1]) / 2
    along = float(np.clip(along, -limit, limit))
    return Aim((float(target[0]), float(target[1])), strength, wall, along, aim.spin)


def _wall_of(box: BoxSpec, pos) -> str:
    """The wall a release point lies beyond."""
    x, y = pos[0] / (box.inner_size[0] / 2), pos[1] / (box.inner_size[1] / 2)
    if abs(x) >= abs(y):
        return "E" if x > 0 else "W"
    return "N" if y > 0 else "S"


def _spin_about_travel(
    vel: Sequence[float], rng: np.random.Generator, skill: Skill, chosen: float | None = None
) -> np.ndarray:
    """Tumbling at release: mostly a forward roll about ``z × direction``, plus a random part.

    The rate is uniform in the skill's range, or the ``chosen`` signed rate (rad/s; negative
    rolls backwards) scattered by the skill's relative strength error.
    """
    d = np.array([vel[0], vel[1], 0.0])
    n = norm(d)
    roll_axis = np.cross([0.0, 0.0, 1.0], d / n) if n > 1e-9 else np.array([1.0, 0.0, 0.0])
    if chosen is not None and chosen < 0:
        roll_axis = -roll_axis
    axis = roll_axis + 0.8 * rng.standard_normal(3)
    axis /= norm(axis)
    if chosen is None:
        return axis * rng.uniform(*skill.spin)
    return axis * abs(chosen) * max(0.0, 1.0 + skill.strength_sd * rng.standard_normal())


def setup_throw(
    box: BoxSpec,
    seats: Sequence[str],
    aims: Mapping[str, Aim],
    skills: Mapping[str, Skill],
    rng: np.random.Generator,
    die_size: float,
) -> Throw:
    """The setup throw (D22): every player throws their coloured die at once from their seat.

    Args:
        seats: player colours in seat order; seat places come from :func:`~physics.throw.seat_places`.
        aims: each player's aim (its wall/along are replaced by the seat's place).
        skills: each player's skill.
    """
    places = seat_places(len(seats), box)
    total: Throw | None = None
    for colour, (wall, along) in zip(seats, places):
        a = aims[colour]
        one = aimed_throw(
            box, Aim(a.target, a.strength, wall, along), [colour], skills[colour], rng, die_size
        )
        if total is not None:
            one = Throw(tuple(_clear_of(r, total.releases, die_size) for r in one.releases))
        total = one if total is None else total + one
    assert total is not None
    return total


def _clear_of(release, others, die_size: float):
    """``release`` raised until its die clears every die of ``others`` (two hands never hold one spot).

    Neighbours' hands are scattered independently along the walls; two of them could
    otherwise release their dice inside each other (seed 1, throw 5003 of the mixed
    scenes: 1 mm apart).
    """
    from dataclasses import replace

    clear = 1.8 * die_size  # more than a die's diagonal (√3 · size)
    x, y, z = release.position
    while any(math.dist((x, y, z), o.position) < clear for o in others):
        z += clear
    return release if z == release.position[2] else replace(release, position=(x, y, z))
