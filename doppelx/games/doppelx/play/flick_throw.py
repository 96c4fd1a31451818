"""A person's flick (:class:`render.intents.ThrowIntent`) → the dice's release velocity and spin.

Two ways of aiming, chosen per person in the new-game form (``SeatSetup.aim``, one of
:data:`doppelx.games.doppelx.play.newgame.AIMS`; assisted the default):

- **assisted**: the flick's direction and power choose a point on the playfield
  (:meth:`render.aim.ThrowAim.aim_point`) and the throw model plans the arc that first lands
  there (``physics.throw_model.plan``, strength = power, horizontal speed 0.35…2.2 m/s), so
  every accepted flick reaches the playfield; a flick whose line misses the playfield is
  thrown as the hand moved (as in *direct*).
- **direct**: the dice leave the hand with the hand's horizontal velocity as it was
  (direction and speed, up to :attr:`render.aim.FlickLimits.max_speed`), lifted just enough to
  clear the rim (:func:`clearing_lift`): nothing is aimed for the player, so a soft flick
  drops short and a hard one crashes into the far wall.

In both the dice **tumble** as a thrown die does: a forward roll about ``z × direction`` at
:func:`flick_roll` rad/s, growing with the flick's power over the bots' own range (the
``physics.throw_model.Skill.spin`` default, 8…30 rad/s), plus the spin the player set with
Shift+wheel (``intent.spin``). Before, a flick's dice left the hand with the player's spin
only — zero unless set — and a few rad/s of random tumble from the fingers, so they slid
flat and stopped (``benchmarks/throw_feel.py`` prints both).
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.games.doppelx.play.newgame import AIMS
from physics.settings import GRAVITY
from physics.throw_model import RIM_CLEARANCE, SKILLS, Aim, plan
from render.intents import ThrowIntent
from rules.doppelx.box import BoxSpec

#: Forward roll (rad/s) of a flick of power 0 and 1: the bots' tumbling range.
FLICK_ROLL: tuple[float, float] = SKILLS["medium"].spin


def flick_roll(power: float) -> float:
    """The forward roll (rad/s) a flick of ``power`` (0…1) gives the dice."""
    lo, hi = FLICK_ROLL
    return lo + float(np.clip(power, 0.0, 1.0)) * (hi - lo)


def roll_axis(velocity) -> np.ndarray:
    """Unit axis (3,) of a forward roll for dice moving with ``velocity`` (``z × direction``)."""
    d = np.array([velocity[0], velocity[1], 0.0], dtype=float)
    n = float(np.linalg.norm(d))
    if n < 1e-9:
        return np.array([1.0, 0.0, 0.0])
    return np.cross([0.0, 0.0, 1.0], d / n)


def clearing_lift(box: BoxSpec, release, velocity_xy, die_half: float) -> float:
    """The least upward speed (m/s, ≥ 0) with which dice released at ``release`` (3,) moving at
    ``velocity_xy`` (2,) clear the rim between the wall's outer and inner faces (a die's
    diagonal and :data:`physics.throw_model.RIM_CLEARANCE` to spare; no air drag)."""
    p0 = np.asarray(release, dtype=float)
    v = np.asarray(velocity_xy, dtype=float)[:2]
    clear_z = box.rim_z + die_half * math.sqrt(3) + RIM_CLEARANCE
    lift = 0.0
    for half_x, half_y in (
        (box.inner_size[0] / 2 + box.wall_thickness, box.inner_size[1] / 2 + box.wall_thickness),
        (box.inner_size[0] / 2, box.inner_size[1] / 2),
    ):
        t = _time_to_enter(p0[:2], v, half_x, half_y)
        if t is not None and t > 1e-6:
            lift = max(lift, (clear_z - p0[2] + GRAVITY * t * t / 2) / t)
    return float(lift)


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
        aim = Aim(intent.target, float(np.clip(intent.power, 0.0, 1.0)), intent.wall, intent.along)
        release, velocity = plan(box, aim, intent.height, die_half)
    else:
        vx, vy = float(intent.velocity[0]), float(intent.velocity[1])
        velocity = (vx, vy, float(clearing_lift(box, release, (vx, vy), die_half)))
    roll = roll_axis(velocity) * flick_roll(intent.power)
    spin = tuple(float(a + b) for a, b in zip(intent.spin, roll))
    return release, velocity, spin  # type: ignore[return-value]
