"""Materials: per-body values reproduce the pair table; the world bounces and slides as specified."""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.materials import SURFACES, Materials, PairMaterial, load_materials
from rules.common.errors import SpecError
from tests.helpers.releases import drop, throw_of

MATS = load_materials()


@pytest.mark.parametrize("surface", SURFACES)
def test_body_values_combine_to_the_pair_values(surface):
    die, other = MATS.bodies["die"], MATS.bodies[surface]
    pair = MATS.pair(surface)
    # Bullet: friction and restitution multiply; rolling/spinning r_a f_b + r_b f_a
    assert die.friction * other.friction == pytest.approx(pair.friction)
    assert die.restitution * other.restitution == pytest.approx(pair.restitution)
    assert die.rolling_friction * other.friction + other.rolling_friction * die.friction == pytest.approx(
        pair.rolling_friction
    )
    assert die.spinning_friction * other.friction + other.spinning_friction * die.friction == pytest.approx(
        pair.spinning_friction
    )


def test_every_pair_names_its_source():
    assert set(MATS.pairs) == {f"die-{s}" for s in SURFACES}
    assert all(len(p.source) > 20 for p in MATS.pairs.values())


def test_a_pair_bullet_cannot_combine_is_an_error():
    pairs = dict(MATS.pairs)
    pairs["die-die"] = PairMaterial(0.3, 0.6, 0.004, 0.0002)  # large die-die rolling ...
    # ... needs more rolling friction on every other pair than the file gives
    bad = Materials(pairs, 700.0, 0.3, 1e-5, "test.toml")
    with pytest.raises(SpecError, match=r"pairs\.die-\w+\.rolling_friction"):
        bad.bodies  # noqa: B018


def test_malformed_file_names_the_element(tmp_path):
    text = tmp_path / "m.toml"
    text.write_text(
        'format = "doppelx-materials/1"\n[pairs.die-cardboard]\nfriction = -1\n', encoding="utf-8"
    )
    with pytest.raises(SpecError, match="pairs"):
        load_materials(text)


def _bounce(world, h0: float) -> float:
    """Restitution seen in a flat drop from ``h0`` m: sqrt(rebound height / drop height)."""
    world.reset({}, 0.0, throw_of(drop("blue", 0.06, -0.02, 0.008 + h0)).releases)
    zs = []
    for _ in range(360):
        world.step()
        zs.append(world.pose("blue")[0][2])
    zs = np.array(zs)
    low = int(np.argmax(np.diff(zs) > 0))  # the first impact
    top = low + int(np.argmax(np.diff(zs[low:]) < 0))  # the first bounce's apex
    return math.sqrt((zs[top] - 0.008) / h0)


@pytest.mark.parametrize("h0", [0.05, 0.1])
def test_drop_rebounds_with_the_die_cardboard_restitution(world_i, h0):
    assert _bounce(world_i, h0) == pytest.approx(MATS.pair("cardboard").restitution, abs=0.05)


@pytest.mark.parametrize("delta_deg, slides", [(-3.0, False), (3.0, True)])
def test_die_slides_beyond_the_friction_angle(world_i, delta_deg, slides):
    theta = math.atan(MATS.pair("cardboard").friction) + math.radians(delta_deg)
    world_i.reset({}, 0.0, throw_of(drop("blue", 0.0, -0.05, 0.008)).releases)
    p = world_i.p
    p.setGravity(9.81 * math.sin(theta), 0.0, -9.81 * math.cos(theta), physicsClientId=world_i.client)
    for _ in range(120):
        world_i.step()
    moved = abs(world_i.pose("blue")[0][0])
    assert (moved > 0.01) is slides
