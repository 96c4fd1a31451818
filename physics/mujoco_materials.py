"""The materials of ``assets/materials.toml`` as MuJoCo contact parameters (no mujoco import).

MuJoCo has no coefficient of restitution: a contact is a damped spring acting on the
penetration, set per geom by ``solref = (timeconst, dampratio)`` (stiffness
``1/(timeconst·dampratio)²``, damping ``2/timeconst``, per unit mass) and
``solimp`` (how hard the constraint is). A linear spring–dashpot whose force may only push
lets go when the force reaches zero, before the penetration does; its coefficient of
restitution then depends on the damping ratio ζ alone (Schwager & Pöschel, "Coefficient of
restitution and linear–dashpot model revisited", Granular Matter 9, 465–469, 2007):

    e(ζ) = exp(−ζ/√(1−ζ²) · (π − atan2(2ζ√(1−ζ²), 1 − 2ζ²)))

:func:`damping_ratio` inverts it, so a die dropped flat rebounds with the pair's
``restitution``. Friction maps one to one: MuJoCo's ``friction = (sliding, torsional,
rolling)`` with ``condim = 6`` are Coulomb's μ and the torque limits per unit normal force
(m) that Bullet calls spinning and rolling friction.

MuJoCo combines two geoms' parameters unless one has the higher ``priority``: then that
geom's parameters are the pair's. Every surface a die meets (cardboard, spinner, table)
gets priority 1 and the die–surface pair's values; dice get priority 0 and the die–die
values. So every pair of the file is reproduced exactly, with no per-body solving as in
:mod:`physics.materials`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from physics.materials import DIE, Materials

#: Contact time constant (s): the contact spring's timescale. It must span several steps
#: (MuJoCo asks for at least 2); 4 ms at 0.26 ms steps keeps the flat-drop rebound within
#: ±0.04 of the coefficient from 0.3 to 5 m/s (docs/physics.md).
TIME_CONSTANT = 0.004
#: ``solimp``: a constant impedance of 0.99 (a nearly hard constraint whose spring and
#: damper are the solref's), reached at once (width 0.1 mm).
SOLIMP = (0.99, 0.99, 0.0001, 0.5, 2.0)


def restitution_of(zeta: float) -> float:
    """Coefficient of restitution of a force-free-separating linear spring–dashpot of damping ratio ``zeta``."""
    if zeta <= 0.0:
        return 1.0
    if zeta >= 1.0:
        return 0.0
    w = math.sqrt(1.0 - zeta * zeta)
    return math.exp(-zeta / w * (math.pi - math.atan2(2.0 * zeta * w, 1.0 - 2.0 * zeta * zeta)))


def damping_ratio(e: float) -> float:
    """The damping ratio ζ in (0, 1) whose contact rebounds with restitution ``e`` (bisection)."""
    if not 0.0 < e < 1.0:
        raise ValueError(f"restitution must lie in (0, 1) for MuJoCo's contact spring, got {e}")
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if restitution_of(mid) > e:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class MujocoContact:
    """One geom's contact parameters: ``friction`` (3,), ``solref`` (2,), ``solimp`` (5,), ``condim``, ``priority``."""

    friction: tuple[float, float, float]
    solref: tuple[float, float]
    solimp: tuple[float, float, float, float, float]
    condim: int
    priority: int

    def attributes(self) -> str:
        """The MJCF attributes of a geom carrying these parameters."""
        return (
            f'friction="{_f(self.friction)}" solref="{_f(self.solref)}" solimp="{_f(self.solimp)}" '
            f'condim="{self.condim}" priority="{self.priority}"'
        )


def contact_of(
    materials: Materials, surface: str, time_constant: float = TIME_CONSTANT, condim: int = 6
) -> MujocoContact:
    """Parameters of a geom of ``surface`` (``die``, ``cardboard``, ``spinner``, ``table``)."""
    p = materials.pair(surface)
    e = min(max(p.restitution, 1e-3), 0.999)
    return MujocoContact(
        (p.friction, p.spinning_friction, p.rolling_friction),
        (time_constant, damping_ratio(e)),
        SOLIMP,
        condim,
        0 if surface == DIE else 1,
    )


def _f(values) -> str:
    return " ".join(f"{v:.9g}" for v in values)
