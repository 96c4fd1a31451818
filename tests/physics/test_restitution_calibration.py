"""Restitution calibrated per engine: the curve's inversion, its file, and dice that rebound as specified."""

from __future__ import annotations

import dataclasses
import statistics

import pytest

from doppelx.bench.restitution import CALIBRATION_SPEEDS, drop_mean, head_on_mean
from physics.engine import make_world
from physics.materials import load_materials
from physics.restitution_calibration import Calibration, calibrated, load_calibration
from physics.settings import SimSettings
from rules.common.errors import SpecError
from rules.doppelx.board_file import load_board

MATS = load_materials()
CURVES = load_calibration()
SPEEDS = CALIBRATION_SPEEDS  # 0.5 … 4 m/s

LINE = Calibration("pybullet", "drop", (0.1, 0.5, 0.9), (0.2, 0.5, 0.7), (1.0,))


def test_coefficient_inverts_the_curve_between_its_points():
    assert LINE.coefficient(0.5) == pytest.approx(0.5)
    assert LINE.coefficient(0.35) == pytest.approx(0.3)  # halfway along the first segment
    assert LINE.coefficient(0.6) == pytest.approx(0.7)
    for x in (0.1, 0.23, 0.5, 0.77, 0.9):
        assert LINE.coefficient(LINE.rebound(x)) == pytest.approx(x)


def test_beyond_the_measured_rebounds_the_nearest_end_holds():
    assert LINE.coefficient(0.05) == pytest.approx(0.1)
    assert LINE.coefficient(0.95) == pytest.approx(0.9)


@pytest.mark.parametrize("engine", ["pybullet", "mujoco"])
def test_calibrated_materials_change_restitution_only(engine):
    c = calibrated(MATS, engine)
    for name, pair in MATS.pairs.items():
        got = c.pairs[name]
        assert dataclasses.replace(got, restitution=pair.restitution) == pair
        scene = "head_on" if name == "die-die" else "drop"
        assert got.restitution == pytest.approx(CURVES[engine][scene].coefficient(pair.restitution), abs=1e-6)
    # Bullet's dice rebound above its coefficient, MuJoCo's below: the inputs move the other way
    moved = c.pair("cardboard").restitution - MATS.pair("cardboard").restitution
    assert (moved < -0.005) if engine == "pybullet" else (moved > 0.02)


GOOD = "[{e}.drop]\ncoefficients = [0.1, 0.2]\nrebounds = [0.1, 0.2]\n[{e}.head_on]\ncoefficients = [0.1, 0.2]\nrebounds = [0.1, 0.2]\n"
HEAD = 'format = "doppelx-restitution-calibration/1"\nspeeds = [1.0]\n'


@pytest.mark.parametrize(
    "text, where",
    [
        ('format = "other/1"\n', "format"),
        (
            HEAD
            + GOOD.format(e="mujoco")
            + GOOD.format(e="pybullet")
            .replace("[0.1, 0.2]\n[", "[0.3, 0.3]\n[", 1)
            .replace(
                "rebounds = [0.1, 0.2]\n[pybullet.head_on]", "rebounds = [0.3, 0.3]\n[pybullet.head_on]"
            ),
            "pybullet.drop.rebounds",
        ),
        (
            HEAD
            + GOOD.format(e="pybullet")
            + GOOD.format(e="mujoco").replace("rebounds = [0.1, 0.2]\n", 'rebounds = [0.1, "x"]\n', 1),
            "mujoco.drop.rebounds",
        ),
        (
            HEAD
            + GOOD.format(e="pybullet")
            + GOOD.format(e="mujoco").replace("[0.1, 0.2]", "[0.1, 0.2, 0.3]", 1),
            "mujoco.drop.rebounds",
        ),
        (HEAD + GOOD.format(e="pybullet"), "mujoco"),
    ],
)
def test_a_malformed_file_names_the_element(tmp_path, text, where):
    path = tmp_path / "calibration.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=where.replace(".", r"\.")):
        load_calibration(path)


def test_a_well_formed_file_loads(tmp_path):
    path = tmp_path / "calibration.toml"
    path.write_text(HEAD + GOOD.format(e="pybullet") + GOOD.format(e="mujoco"), encoding="utf-8")
    assert load_calibration(path)["mujoco"]["head_on"].rebounds == (0.1, 0.2)


def _rebound(engine: str, pair: str, settings: SimSettings | None = None) -> float:
    """Mean over 0.5–4 m/s of the pair's own scene: a flat drop onto the playfield, or two dice head-on."""
    with make_world(load_board("I"), engine=engine, settings=settings) as world:
        if pair == "die-die":
            return statistics.mean(head_on_mean(world, v) for v in SPEEDS)
        return statistics.mean(drop_mean(world, pair, v).e_measured for v in SPEEDS)


@pytest.mark.parametrize("pair", ["die-cardboard", "die-die"])
def test_pybullet_dice_rebound_with_the_materials_coefficient(pair):
    """Calibrated within 0.005 of the material; raw, 0.025 (drop) and 0.052 (head-on) above it."""
    material = MATS.pairs[pair].restitution
    assert _rebound("pybullet", pair) == pytest.approx(material, abs=0.005)
    assert _rebound("pybullet", pair, SimSettings(restitution_calibration=False)) - material > 0.01


@pytest.mark.parametrize("pair", ["die-cardboard", "die-die"])
def test_mujoco_dice_rebound_with_the_materials_coefficient(pair):
    """Calibrated within 0.005 of the material; raw, 0.033 (drop) and 0.012 (head-on) below it."""
    material = MATS.pairs[pair].restitution
    assert _rebound("mujoco", pair) == pytest.approx(material, abs=0.005)
    assert material - _rebound("mujoco", pair, SimSettings(restitution_calibration=False)) > 0.01


def test_the_shipped_pybullet_curve_is_todays_engine():
    """The file's curve still describes the engine: fresh drops at three inputs agree within 0.005."""
    from doppelx.bench.restitution import rebound_curve

    inputs = (0.3, 0.4, 0.6)
    for scene in ("drop", "head_on"):
        fresh = rebound_curve("pybullet", scene, inputs)
        for x, y in zip(inputs, fresh):
            assert y == pytest.approx(CURVES["pybullet"][scene].rebound(x), abs=0.005)
