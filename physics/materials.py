"""Contact materials: per-pair coefficients from ``assets/materials.toml``, per-body values for Bullet.

Bullet has no per-pair material table; it combines the two bodies' values (see
``btManifoldResult``): friction ``f_a f_b``, restitution ``e_a e_b``, rolling and spinning
friction ``r_a f_b + r_b f_a``. Every pair the file lists involves a die, so the per-body
values are solved exactly: ``f_die = sqrt(μ_die-die)``, ``f_X = μ_die-X / f_die`` and so on.
A pair whose rolling or spinning value cannot be reached with non-negative body values is
a :class:`~rules.common.errors.SpecError`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

from physics.settings import GRAVITY
from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable

FORMAT = "doppelx-materials/1"
DIE = "die"
#: The surfaces a die meets, as named in the file (``die-<surface>``).
SURFACES = ("cardboard", "die", "spinner", "table")


@dataclass(frozen=True)
class PairMaterial:
    """Coefficients of one pair: friction, restitution (1), rolling and spinning friction (m)."""

    friction: float
    restitution: float
    rolling_friction: float
    spinning_friction: float
    source: str = ""


@dataclass(frozen=True)
class BodyMaterial:
    """Per-body values handed to Bullet's ``changeDynamics``."""

    friction: float
    restitution: float
    rolling_friction: float
    spinning_friction: float


@dataclass(frozen=True)
class Materials:
    """The pair table plus the spinner's card and bearing data.

    Attributes:
        pairs: ``"die-cardboard"`` etc. → :class:`PairMaterial`.
        spinner_density: kg/m³.
        bearing_friction: Coulomb coefficient of the card on its pin.
        bearing_damping: viscous torque per angular speed (N m s).
        source: the file.
    """

    pairs: dict[str, PairMaterial]
    spinner_density: float
    bearing_friction: float
    bearing_damping: float
    source: str

    def pair(self, surface: str) -> PairMaterial:
        """The die–``surface`` pair."""
        return self.pairs[f"{DIE}-{surface}"]

    @functools.cached_property
    def bodies(self) -> dict[str, BodyMaterial]:
        """Per-body values (``die``, ``cardboard``, ``spinner``, ``table``) reproducing every pair."""
        dd = self.pair(DIE)
        f_die = math.sqrt(dd.friction)
        e_die = math.sqrt(dd.restitution)
        r_die = dd.rolling_friction / (2 * f_die)
        s_die = dd.spinning_friction / (2 * f_die)
        out = {DIE: BodyMaterial(f_die, e_die, r_die, s_die)}
        for surface in SURFACES:
            if surface == DIE:
                continue
            p = self.pair(surface)
            f = p.friction / f_die
            r = (p.rolling_friction - r_die * f) / f_die
            s = (p.spinning_friction - s_die * f) / f_die
            for value, key in ((r, "rolling_friction"), (s, "spinning_friction")):
                if value < -1e-12:
                    raise SpecError(
                        self.source,
                        f"pairs.die-{surface}.{key}",
                        f"too small to combine with die-die (needs at least "
                        f"{(r_die if key == 'rolling_friction' else s_die) * f:.6g} m)",
                    )
            out[surface] = BodyMaterial(f, p.restitution / e_die, max(r, 0.0), max(s, 0.0))
        return out

    def bearing_torque(self, spinner_mass: float, pin_radius: float, gravity: float = GRAVITY) -> float:
        """Coulomb friction torque of the spinner's bearing (N m): ``μ m g r_pin``."""
        return self.bearing_friction * spinner_mass * gravity * pin_radius


def load_materials(path: str | Path | None = None) -> Materials:
    """Load the materials file (default: the shipped ``assets/materials.toml``)."""
    return _load(str(path if path is not None else asset_path("materials.toml")))


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Materials:
    top = DataTable(read_toml(path), path)
    top.check_keys({"format", "pairs", "spinner"})
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    pairs_t = top.table("pairs")
    wanted = {f"{DIE}-{s}" for s in SURFACES}
    pairs_t.check_keys(wanted)
    pairs = {}
    for name in sorted(wanted):
        t = pairs_t.table(name)
        t.check_keys({"friction", "restitution", "rolling_friction", "spinning_friction", "source"})
        pairs[name] = PairMaterial(
            t.number("friction", positive=True, maximum=5.0),
            t.number("restitution", minimum=0.0, maximum=1.0),
            t.number("rolling_friction", minimum=0.0, maximum=0.01),
            t.number("spinning_friction", minimum=0.0, maximum=0.01),
            t.string("source", ""),
        )
    sp = top.table("spinner")
    sp.check_keys({"density", "bearing_friction", "bearing_damping"})
    mats = Materials(
        pairs,
        sp.number("density", positive=True),
        sp.number("bearing_friction", minimum=0.0),
        sp.number("bearing_damping", minimum=0.0),
        path,
    )
    mats.bodies  # validate the combination now  # noqa: B018
    return mats
