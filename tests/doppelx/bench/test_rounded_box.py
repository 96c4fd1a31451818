"""The rounded cube of ``doppelx bench tosses --edge rounded``: mass, inertia, extent, and which geoms touch.

The model keeps the cube's mass and inertia exactly (set on the body, not from the geoms),
its faces where the sharp cube's are and its edges and corners rounded by the radius; a cube
lying flat touches the table through its face box alone, a cube tilted onto an edge or a
corner through the edge's or corner's own geoms alone, which carry their own contact.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from doppelx.bench.cuboid import EdgeContact, MujocoCuboidTable
from doppelx.bench.rounded_box import INSET

mujoco = pytest.importorskip("mujoco")

HALF, MASS, R = 0.0524, 0.37, 0.003
INERTIA = (MASS * (2 * HALF) ** 2 / 6,) * 3


def _model(radius=R):
    xml = MujocoCuboidTable().mjcf_box((HALF,) * 3, MASS, INERTIA, edge=EdgeContact(radius, 0.15, 0.3, 0.03))
    return mujoco.MjModel.from_xml_string(xml)


def _support(m, n) -> float:
    """The die's extent along the unit ``n`` from the compiled geoms (body frame: the body sits at the origin)."""
    n = np.asarray(n, float) / np.linalg.norm(n)
    best = -math.inf
    for g in range(m.ngeom):
        if m.geom_bodyid[g] != 1:
            continue
        pos, size = m.geom_pos[g], m.geom_size[g]
        rot = np.zeros(9)
        mujoco.mju_quat2Mat(rot, m.geom_quat[g])
        local = rot.reshape(3, 3).T @ n  # n in the geom's frame
        t = m.geom_type[g]
        if t == mujoco.mjtGeom.mjGEOM_BOX:
            ext = float(np.abs(local) @ size)
        elif t == mujoco.mjtGeom.mjGEOM_SPHERE:
            ext = size[0]
        else:  # cylinder along its z: radius across, half length along
            ext = size[0] * math.hypot(local[0], local[1]) + size[1] * abs(local[2])
        best = max(best, float(pos @ n) + ext)
    return best


def test_the_rounded_cube_keeps_the_mass_and_inertia_and_rounds_only_the_edges():
    m = _model()
    assert m.body_mass[1] == pytest.approx(MASS, rel=1e-9)
    np.testing.assert_allclose(m.body_inertia[1], INERTIA, rtol=1e-9)
    assert m.ngeom == 1 + 3 + 12 + 8  # the table, three face boxes, twelve edges, eight corners
    c = HALF - R - INSET
    for axis in np.eye(3):
        assert _support(m, axis) == pytest.approx(HALF, abs=1e-9)
        assert _support(m, -axis) == pytest.approx(HALF, abs=1e-9)
    assert _support(m, (1, 1, 0)) == pytest.approx(math.sqrt(2) * c + R, abs=1e-9)  # an edge
    assert _support(m, (1, -1, 1)) == pytest.approx(math.sqrt(3) * c + R, abs=1e-9)  # a corner
    assert _support(m, (1, -1, 1)) < math.sqrt(3) * HALF - 0.002  # the sharp corner is gone


def test_the_edges_carry_their_own_contact_and_the_faces_the_tables():
    m = _model()
    die = [g for g in range(m.ngeom) if m.geom_bodyid[g] == 1]
    faces = [g for g in die if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX]
    rims = [g for g in die if g not in faces]
    assert len(faces) == 3 and len(rims) == 20
    assert all(m.geom_priority[g] == 0 for g in faces) and all(m.geom_priority[g] == 2 for g in rims)
    assert m.geom_priority[0] == 1  # the table's contact is the faces'
    assert all(m.geom_friction[g][0] == pytest.approx(0.15) for g in rims)
    assert all(m.geom_solref[g][0] == pytest.approx(0.03) for g in rims)
    assert all(m.geom_solref[g][0] == m.geom_solref[0][0] for g in faces)
    # without an impedance of their own the edges keep the faces' solimp
    assert all(np.array_equal(m.geom_solimp[g], m.geom_solimp[faces[0]]) for g in rims)


def test_the_edges_impedance_rises_from_its_own_first_touch_to_the_faces_over_its_width():
    table = MujocoCuboidTable()
    xml = table.mjcf_box((HALF,) * 3, MASS, INERTIA, impedance=0.84,
                         edge=EdgeContact(R, 0.15, 0.3, 0.03, impedance=0.3, impedance_width=0.004))  # fmt: skip
    m = mujoco.MjModel.from_xml_string(xml)
    die = [g for g in range(m.ngeom) if m.geom_bodyid[g] == 1]
    faces = [g for g in die if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX]
    rims = [g for g in die if g not in faces]
    for g in rims:  # d0 the edge's, d_width the face's, the edge's width
        np.testing.assert_allclose(m.geom_solimp[g][:3], (0.3, 0.84, 0.004))
    for g in [0, *faces]:  # the table and the faces keep the constant impedance
        np.testing.assert_allclose(m.geom_solimp[g][:2], (0.84, 0.84))
        assert m.geom_solimp[g][2] == pytest.approx(0.0001)
    from doppelx.bench.cuboid import CuboidTable

    pb = CuboidTable()  # PyBullet's contact has no impedance: refused, not ignored
    try:
        with pytest.raises(ValueError, match="impedance"):
            pb.build((HALF,) * 3, MASS, INERTIA, ((0, 0, 0.2), (0, 0, 0, 1), (0, 0, 0), (0, 0, 0)),
                     EdgeContact(R, 0.15, 0.3, impedance=0.3))  # fmt: skip
    finally:
        pb.close()


def _touching(tilt_deg: float, about=(0.0, 1.0, 0.0)) -> set[str]:
    """Names of the die's geoms in contact with the table when the cube, tilted ``tilt_deg`` about
    ``about``, is lowered until its lowest point is 0.05 mm into the table."""
    m = _model()
    d = mujoco.MjData(m)
    q = np.zeros(4)
    mujoco.mju_axisAngle2Quat(q, np.asarray(about, float) / np.linalg.norm(about), math.radians(tilt_deg))
    d.qpos[3:7] = q
    rot = np.zeros(9)
    mujoco.mju_quat2Mat(rot, q)
    d.qpos[2] = _support(m, rot.reshape(3, 3).T @ np.array([0.0, 0.0, -1.0])) - 0.00005
    mujoco.mj_forward(m, d)
    pairs = {int(g) for c in d.contact[: d.ncon] for g in c.geom}
    return {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g) for g in pairs} - {"table"}


@pytest.mark.parametrize(
    ("tilt", "about", "kind"),
    [
        (0.0, (0, 1, 0), "face"),
        (5.0, (0, 1, 0), "edge"),
        (40.0, (0, 1, 0), "edge"),
        (35.0, (1, 1, 0), "corner"),
    ],
)
def test_a_flat_cube_touches_through_its_face_and_a_tilted_one_through_its_edge_or_corner(tilt, about, kind):
    touching = _touching(tilt, about)
    assert any(name.startswith(kind) for name in touching), touching
    if kind == "face":
        assert all(name.startswith("face") for name in touching), touching
    else:  # the edge's own geoms only (the corners at its ends touch with it)
        assert not any(name.startswith("face") for name in touching), touching


def _pybullet_die(tilt_deg: float = 0.0, about=(0.0, 1.0, 0.0)):
    """The PyBullet table and rounded cube (rims as fixed-joint links), tilted and lowered until
    its lowest point is 0.05 mm into the table; (table, die, pybullet, client)."""
    from doppelx.bench.cuboid import CuboidTable

    table = CuboidTable()
    p, c = table.p, table.client
    q = p.getQuaternionFromAxisAngle(about, math.radians(tilt_deg))
    rot = np.array(p.getMatrixFromQuaternion(q)).reshape(3, 3)
    m = _model()  # the same pieces: MuJoCo's support function gives the height
    z = _support(m, rot.T @ np.array([0.0, 0.0, -1.0])) - 0.00005
    die = table.build(
        (HALF,) * 3, MASS, INERTIA, ((0, 0, z), q, (0, 0, 0), (0, 0, 0)), EdgeContact(R, 0.15, 0.3)
    )
    return table, die, p, c


def test_pybullets_rounded_cube_keeps_the_mass_and_inertia_in_its_links():
    table, die, p, c = _pybullet_die()
    try:
        total, inertia = 0.0, np.zeros((3, 3))
        for link in range(-1, p.getNumJoints(die, physicsClientId=c)):
            info = p.getDynamicsInfo(die, link, physicsClientId=c)
            mass, local = info[0], np.diag(info[2])
            d = np.zeros(3) if link < 0 else np.array(p.getJointInfo(die, link, physicsClientId=c)[14])
            total += mass
            inertia += local + mass * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
            if link >= 0:
                assert info[1] == pytest.approx(0.15) and info[5] == pytest.approx(0.3)  # the edge's own
        assert p.getNumJoints(die, physicsClientId=c) == 20
        assert total == pytest.approx(MASS, rel=1e-9)
        np.testing.assert_allclose(inertia, np.diag(INERTIA), rtol=1e-6, atol=1e-12)
    finally:
        table.close()


@pytest.mark.parametrize(("tilt", "about", "face"), [(0.0, (0, 1, 0), True), (5.0, (0, 1, 0), False),
                                                     (40.0, (0, 1, 0), False), (35.0, (1, 1, 0), False)])  # fmt: skip
def test_pybullets_rounded_cube_touches_through_the_base_flat_and_through_links_tilted(tilt, about, face):
    table, die, p, c = _pybullet_die(tilt, about)
    try:
        p.performCollisionDetection(physicsClientId=c)
        # Bullet also lists pairs within its breaking threshold: the touching ones are those at distance ≤ 0
        links = {pt[3] for pt in p.getContactPoints(bodyA=die, physicsClientId=c) if pt[8] <= 0.0}
        assert links, "nothing touches"
        assert (links == {-1}) if face else (-1 not in links), links
    finally:
        table.close()
