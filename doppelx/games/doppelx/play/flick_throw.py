"""A person's flick (:class:`render.intents.ThrowIntent`) → the dice's release velocity and spin.

Two ways of aiming, chosen per person in the new-game form (``SeatSetup.aim``, one of
:data:`doppelx.games.doppelx.play.newgame.AIMS`; assisted the default):

- **assisted**: the release speed, the arc and the tumble all grow with the flick's power
  (:func:`assisted_release`). Up to :data:`WALL_POWER` the flick's direction and power choose
  a point on the playfield (:meth:`render.aim.ThrowAim.aim_point`) and the throw model plans
  the arc that first lands there (``physics.throw_model.plan``, strength = power, horizontal
  speed 0.35…1.46 m/s): a soft flick is a short low lob over the near rim that lands and rolls
  a little. Above it the flick is a hard throw: faster (up to :data:`WALL_SPEED`), flatter,
  aimed along the flick's line at the far wall low down (:data:`WALL_AIM_HEIGHT`), so the dice
  hit it, rebound onto the playfield and tumble. A flick whose line misses the playfield is
  thrown as the hand moved (as in *direct*).
- **direct**: the dice leave the hand with the hand's horizontal velocity as it was
  (direction and speed, up to :attr:`render.aim.FlickLimits.max_speed`), lifted just enough to
  clear the rim (:func:`clearing_lift`): nothing is aimed for the player, so a soft flick
  drops short and a hard one crashes into the far wall.

In both the dice **tumble** as a thrown die does: a forward roll about ``z × direction`` at
:func:`flick_roll` rad/s, growing with the flick's power over :data:`FLICK_ROLL`, plus the
spin the player set with Shift+wheel (``intent.spin``). ``benchmarks/throw_feel.py`` measures
what each mapping does (release to rest, wall hits, roll, dice lost), the earlier ones beside it.
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.games.doppelx.play.newgame import AIMS
from physics.settings import GRAVITY
from physics.throw import HAND_SPACING
from physics.throw_model import RIM_CLEARANCE, SKILLS, Aim, plan
from render.intents import ThrowIntent
from rules.common.vec import norm
from rules.doppelx.box import BoxSpec

#: Forward roll (rad/s) of a flick of power 0 and 1: the bots' tumbling range.
FLICK_ROLL: tuple[float, float] = SKILLS["medium"].spin
#: Power above which an assisted flick is a hard throw at the far wall (not onto the playfield).
WALL_POWER = 0.6
#: Horizontal release speed (m/s) of a full-power assisted flick: a person's hard throw of
#: dice into a box is 2–4 m/s.
WALL_SPEED = 3.0
#: Where a full-power assisted flick meets the far wall: its dice's centres this fraction of
#: the rim's height above the playfield (low, so they rebound onto it rather than over the rim).
WALL_AIM_HEIGHT = 0.5


def flick_roll(power: float) -> float:
    """The forward roll (rad/s) a flick of ``power`` (0…1) gives the dice."""
    lo, hi = FLICK_ROLL
    return lo + float(np.clip(power, 0.0, 1.0)) * (hi - lo)


def roll_axis(velocity) -> np.ndarray:
    """Unit axis (3,) of a forward roll for dice moving with ``velocity`` (``z × direction``)."""
    d = np.array([velocity[0], velocity[1], 0.0], dtype=float)
    n = norm(d)
    if n < 1e-9:
        return np.array([1.0, 0.0, 0.0])
    return np.cross([0.0, 0.0, 1.0], d / n)


def clearing_lift(box: BoxSpec, release, velocity_xy, die_half: float) -> float:
    """The least upward speed (m/s, ≥ 0) with which dice released at ``release`` (3,) moving at
    ``velocity_xy`` (2,) clear the rim between the wall's outer and inner faces (a die's
    diagonal and :data:`physics.throw_model.RIM_CLEARANCE` to spare; no air drag), and any
    bet card they fly over before they come down to the rim's height (:func:`card_lift`)."""
    p0 = np.asarray(release, dtype=float)
    v = np.asarray(velocity_xy, dtype=float)[:2]
    vz = max(0.0, least_vz(box, p0, v, die_half))
    # where that arc comes down to the rim's height: the dice fly over cards only before it
    t_down = (vz + math.sqrt(vz * vz + 2 * GRAVITY * max(p0[2] - box.rim_z, 0.0))) / GRAVITY
    return card_lift(box, p0, (v[0], v[1], vz), die_half, norm(v) * t_down)


def least_vz(box: BoxSpec, release, velocity_xy, die_half: float) -> float:
    """The least vertical speed (m/s; negative: thrown downwards) that clears the rim as
    :func:`clearing_lift` says; ``-inf`` if the path crosses no wall face."""
    p0 = np.asarray(release, dtype=float)
    v = np.asarray(velocity_xy, dtype=float)[:2]
    clear_z = box.rim_z + die_half * math.sqrt(3) + RIM_CLEARANCE
    least = -math.inf
    for half_x, half_y in (
        (box.inner_size[0] / 2 + box.wall_thickness, box.inner_size[1] / 2 + box.wall_thickness),
        (box.inner_size[0] / 2, box.inner_size[1] / 2),
    ):
        t = _time_to_enter(p0[:2], v, half_x, half_y)
        if t is not None and t > 1e-6:
            least = max(least, (clear_z - p0[2] + GRAVITY * t * t / 2) / t)
    return float(least)


def card_lift(box: BoxSpec, p0, velocity, die_half: float, until: float) -> float:
    """The vertical speed (m/s, at least ``velocity[2]``) with which both dice of a hand
    (:data:`physics.throw.HAND_SPACING` apart across the path) released at ``p0`` (3,) with ``velocity``
    (3,) miss every bet card they pass in the first ``until`` m (horizontally) of their path:
    over a card a die flies either below it (a hard throw meeting the wall under it: a die's
    half diagonal below the rim) or above it with a die's half diagonal and
    :data:`physics.throw_model.RIM_CLEARANCE` to spare — the arc is lifted until it does.

    Each card is a right triangle lying on the rim over a corner (:attr:`BoxSpec.card_reach`). A low lob from beside a
    corner brushed card A at the rim's height and bounced off the box (the sixteenth
    playtest's flick from W).
    """
    p0 = np.asarray(p0, dtype=float)
    v = np.asarray(velocity, dtype=float)
    vz = float(v[2])
    speed = norm(v[:2])
    if speed < 1e-9:
        return vz
    across = np.array([-v[1], v[0]]) / speed
    outer = np.array(box.inner_size, dtype=float) / 2 + box.wall_thickness
    edge = box.card_reach - 2 * die_half  # a card covers |x| + |y| ≥ card_reach
    reach = die_half * math.sqrt(3)  # a die's half diagonal
    above, below = box.rim_z + box.bet_card_thickness + reach + RIM_CLEARANCE, box.rim_z - reach
    t = np.linspace(1e-3, max(until, 1e-3) / speed, 240)
    over = np.zeros(len(t), dtype=bool)
    for offset in (-HAND_SPACING / 2, 0.0, HAND_SPACING / 2):
        xy = p0[:2] + across * offset + np.outer(t, v[:2])
        over |= (np.abs(xy) <= outer).all(axis=1) & (np.abs(xy).sum(axis=1) >= edge)
    t = t[over]
    for _ in range(8):  # a lift can bring a moment that passed under a card up to it: again
        z = p0[2] + vz * t - GRAVITY * t * t / 2
        hit = (z > below) & (z < above)
        if not hit.any():
            break
        th = t[hit]
        vz = max(vz, float(((above - p0[2] + GRAVITY * th * th / 2) / th).max()))
    return vz


def _time_to_enter(p0: np.ndarray, v: np.ndarray, half_x: float, half_y: float) -> float | None:
    """When a point at ``p0`` moving at ``v`` enters the rectangle ``|x| ≤ half_x, |y| ≤ half_y``."""
    lo, hi = 0.0, math.inf
    for k, half in ((0, half_x), (1, half_y)):
        if abs(v[k]) < 1e-12:
            if abs(p0[k]) > half:
                return None
            continue
        t1, t2 = (-half - p0[k]) / v[k], (half - p0[k]) / v[k]
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo if lo <= hi else None


def flick_release(
    box: BoxSpec, intent: ThrowIntent, die_half: float, mode: str = "assisted"
) -> tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]:
    """Release point (3,) m, velocity (3,) m/s and spin (3,) rad/s of the dice of ``intent``.

    Args:
        box: the box.
        intent: the flick (its target, power, the hand's velocity and the player's spin).
        die_half: half a die's edge (m).
        mode: one of :data:`doppelx.games.doppelx.play.newgame.AIMS`.

    Raises:
        ValueError: ``mode`` is none of them.
    """
    if mode not in AIMS:
        raise ValueError(f"aim must be one of {', '.join(AIMS)}, got {mode!r}")
    release = tuple(float(c) for c in intent.release)
    if mode == "assisted" and intent.target is not None:
        release, velocity = assisted_release(box, intent, die_half)
    else:
        vx, vy = float(intent.velocity[0]), float(intent.velocity[1])
        velocity = (vx, vy, float(clearing_lift(box, release, (vx, vy), die_half)))
    roll = roll_axis(velocity) * flick_roll(intent.power)
    spin = tuple(float(a + b) for a, b in zip(intent.spin, roll))
    return release, velocity, spin  # type: ignore[return-value]


def assisted_release(
    box: BoxSpec, intent: ThrowIntent, die_half: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Release point (3,) m and velocity (3,) m/s of an assisted flick (``intent.target`` set).

    Up to :data:`WALL_POWER` the throw model's arc to ``intent.target`` (strength = power).
    Above it the aim point slides, along the flick's line, from that target to the far wall
    (:func:`far_wall_point`, reached at half-way to full power) while the horizontal speed
    grows from the arc's at :data:`WALL_POWER` to :data:`WALL_SPEED`; the arc is the ballistic
    one through the aim point, lifted if it would not clear the near rim (:func:`least_vz`) —
    and if, so lifted, it would meet the far wall above its top (a hand low over the rim),
    thrown slower until it meets the wall below.
    """
    assert intent.target is not None
    power = float(np.clip(intent.power, 0.0, 1.0))
    aim = Aim(intent.target, min(power, WALL_POWER), intent.wall, intent.along)
    release, velocity = plan(box, aim, intent.height, die_half)
    p0 = np.asarray(release, dtype=float)
    to_aim = norm(np.asarray(intent.target) - p0[:2])
    # an arc that would brush a bet card by the corner goes a little higher
    velocity = (velocity[0], velocity[1], card_lift(box, p0, velocity, die_half, to_aim))
    if power <= WALL_POWER:
        return release, velocity
    u = (power - WALL_POWER) / (1.0 - WALL_POWER)
    start = np.array([intent.target[0], intent.target[1], die_half])
    wall = far_wall_point(box, p0, start, die_half)
    goal = start + min(1.0, 2.0 * u) * (wall - start)
    speed0 = norm(velocity[:2])
    # a hand low over the rim must lift the dice to clear it; thrown too fast they would then
    # meet the far wall above its top: slower, until they meet it below
    top = box.rim_z - die_half * math.sqrt(3) - RIM_CLEARANCE
    # (and one aimed under a bet card goes lower, down to the playfield, to pass under it)
    for speed in np.linspace(speed0 + u * (WALL_SPEED - speed0), speed0, 12):
        for low in np.linspace(goal[2], die_half, 3):
            vxy, vz, at_wall = _through(box, p0, (goal[0], goal[1], low), wall, float(speed), die_half)
            if at_wall <= top:
                return release, (float(vxy[0]), float(vxy[1]), float(vz))
    # a wall this near (a flick along a side wall, or from near a corner) cannot be met below
    # its top by a throw that clears the near rim: the dice would fly over it, off the box
    # (32 of 20 × 4 flicks at 1.6 m/s in benchmarks/throw_feel.py --stances before this);
    # the throw stays the arc onto the aim point
    return release, velocity


def _through(
    box: BoxSpec, p0: np.ndarray, goal, wall: np.ndarray, speed: float, die_half: float
) -> tuple[np.ndarray, float, float]:
    """Horizontal velocity (2,), vertical speed and the height at ``wall`` of the ballistic
    arc from ``p0`` through ``goal`` (3,) at ``speed`` m/s across, lifted to clear the near rim
    and the bet cards (:func:`card_lift`)."""
    goal = np.asarray(goal, dtype=float)
    flat = goal[:2] - p0[:2]
    t = max(norm(flat) / speed, 0.02)
    vxy = flat / t
    vz = max((goal[2] - p0[2] + GRAVITY * t * t / 2) / t, least_vz(box, p0, vxy, die_half))
    vz = card_lift(box, p0, (vxy[0], vxy[1], vz), die_half, norm(flat))
    t_wall = norm(wall[:2] - p0[:2]) / norm(vxy)
    return vxy, vz, float(p0[2] + vz * t_wall - GRAVITY * t_wall * t_wall / 2)


def far_wall_point(box: BoxSpec, release, target, die_half: float) -> np.ndarray:
    """Where a die's centre meets the wall beyond ``target`` (3,) on the line from ``release``
    (3,) through it, :data:`WALL_AIM_HEIGHT` of the rim's height above the playfield."""
    p0 = np.asarray(release, dtype=float)[:2]
    d = np.asarray(target, dtype=float)[:2] - p0
    d /= norm(d)
    reach = math.inf
    for k in (0, 1):
        if abs(d[k]) > 1e-12:
            face = math.copysign(box.inner_size[k] / 2 - die_half, d[k])
            reach = min(reach, (face - p0[k]) / d[k])
    xy = p0 + d * reach
    return np.array([xy[0], xy[1], max(die_half, WALL_AIM_HEIGHT * box.rim_z)])
