"""Each engine's restitution input that makes a die rebound with the material's coefficient.

A material's restitution (``assets/materials.toml``) is a physical coefficient: a die
dropped flat onto the surface rebounds with that ratio of its impact speed, and two dice
meeting face to face part with that ratio of their closing speed. Neither engine's own
parameter is that coefficient. Bullet's velocity push that removes an impact's
penetration adds a little speed (its flat drops rebounded 0.025 above its coefficient,
two dice head-on 0.052); MuJoCo's contact is a damped spring whose rebound the linear
spring–dashpot theory of :mod:`physics.mujoco_materials` overestimates, the more the
faster the impact (flat drops 0.033 below at 0.4). Left alone, the two engines realised
the same material 0.06 apart, and their dice reached different fields (docs/physics.md,
"Restitution calibrated per engine").

``assets/restitution_calibration.toml`` holds, per engine and scene, the rebound ratio
measured for each input coefficient, averaged over impacts at 0.5, 1, 2, 3 and 4 m/s, each
from six releases spread over where in a step the contact begins
(``python benchmarks/restitution_calibration.py`` measures it and writes the file):

* ``drop``: a die dropped flat onto side I's playfield, the rise to the first bounce's
  apex (the measure of ``doppelx bench restitution``). It calibrates every pair of a die
  and a surface: cardboard, and — not measured on their own — the table and the spinner
  card;
* ``head_on``: two dice meeting face to face with gravity off, the relative speed after
  over before (the die–die coefficient by its definition). It calibrates die–die.

:func:`calibrated` inverts the curves: each engine gets the input whose rebound is the
material's coefficient. The curves were measured at the default settings; a world with
other solver settings gets the same inputs. ``SimSettings(restitution_calibration=False)``
hands the engines the file's coefficients as they stand.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from physics.materials import Materials
from rules.common.assets import asset_path, read_toml
from rules.common.schema import DataTable

FORMAT = "doppelx-restitution-calibration/1"
#: The engines the file must calibrate (``physics.engine.ENGINES``).
CALIBRATED_ENGINES = ("pybullet", "mujoco")
#: The scenes each engine's curves come from, and the scene that calibrates each pair.
SCENES = ("drop", "head_on")
SCENE_OF_PAIR = {"die-cardboard": "drop", "die-die": "head_on", "die-spinner": "drop", "die-table": "drop"}


@dataclass(frozen=True)
class Calibration:
    """One engine's measured curve in one scene: input coefficient → mean rebound ratio.

    Attributes:
        engine: ``pybullet`` or ``mujoco``.
        scene: ``drop`` or ``head_on`` (:data:`SCENES`).
        coefficients: the engine's input values, increasing.
        rebounds: the rebound ratio measured for each, increasing.
        speeds: the impact speeds averaged over (m/s).
    """

    engine: str
    scene: str
    coefficients: tuple[float, ...]
    rebounds: tuple[float, ...]
    speeds: tuple[float, ...]

    def coefficient(self, restitution: float) -> float:
        """The engine input whose rebound is ``restitution`` (linear between the points).

        Beyond the measured rebounds it is the nearest end's input: the engine was not
        measured there, and MuJoCo's contact spring cannot rebound much higher (its inputs
        above the curve's launched the die).
        """
        return float(np.interp(restitution, self.rebounds, self.coefficients))

    def rebound(self, coefficient: float) -> float:
        """The rebound ratio of an input ``coefficient`` (linear between the points, the nearest end's beyond them)."""
        return float(np.interp(coefficient, self.coefficients, self.rebounds))


def load_calibration(path: str | Path | None = None) -> dict[str, dict[str, Calibration]]:
    """The curves, by engine and scene (default: the shipped file)."""
    return _load(str(path if path is not None else asset_path("restitution_calibration.toml")))


@functools.lru_cache(maxsize=4)
def _load(path: str) -> dict[str, dict[str, Calibration]]:
    top = DataTable(read_toml(path), path)
    top.check_keys({"format", "speeds", *CALIBRATED_ENGINES})
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    speeds = _numbers(top, "speeds", 1)
    out: dict[str, dict[str, Calibration]] = {}
    for engine in CALIBRATED_ENGINES:
        e = top.table(engine)
        e.check_keys(set(SCENES))
        out[engine] = {}
        for scene in SCENES:
            t = e.table(scene)
            t.check_keys({"coefficients", "rebounds", "command"})
            xs = _numbers(t, "coefficients", 2)
            ys = _numbers(t, "rebounds", 2)
            if len(xs) != len(ys):
                raise t.error("rebounds", f"{len(ys)} values for {len(xs)} coefficients")
            for key, values in (("coefficients", xs), ("rebounds", ys)):
                if any(b <= a for a, b in zip(values, values[1:])):
                    raise t.error(key, "must increase strictly (the curve is inverted)")
                if not all(0.0 <= v <= 1.0 for v in values):
                    raise t.error(key, "must lie within 0…1")
            out[engine][scene] = Calibration(engine, scene, xs, ys, speeds)
    return out


def _numbers(t: DataTable, key: str, at_least: int) -> tuple[float, ...]:
    values = t.raw(key)
    if not isinstance(values, list) or len(values) < at_least:
        raise t.error(key, f"must be a list of at least {at_least} numbers")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise t.error(key, "must hold numbers only")
    return tuple(float(v) for v in values)


def calibrated(materials: Materials, engine: str, path: str | Path | None = None) -> Materials:
    """``materials`` with every pair's restitution replaced by ``engine``'s input for it."""
    curves = load_calibration(path)[engine]
    pairs = {
        name: dataclasses.replace(
            p, restitution=round(curves[SCENE_OF_PAIR[name]].coefficient(p.restitution), 6)
        )
        for name, p in materials.pairs.items()
    }
    return dataclasses.replace(materials, pairs=pairs)


def engine_materials(materials: Materials, engine: str, calibrate: bool = True) -> Materials:
    """The materials as handed to ``engine``: calibrated unless ``calibrate`` is false
    (``SimSettings.restitution_calibration``); the worlds keep ``materials`` physical."""
    return calibrated(materials, engine) if calibrate else materials
