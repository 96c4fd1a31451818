"""The frames of the holes as convex hulls: the die meets a hole's rim as the rounded cube it is."""

from __future__ import annotations

import math

import numpy as np
import pytest

from doppelx.bench.common import quat_mul
from physics.settings import SimSettings
from physics.throw import DieRelease
from physics.world import MESH_MARGIN, World, hull_box_file
from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice

DICE = load_dice()
R = DICE["blue"].edge_radius


def _contact_gap(frames: str, tilt: float, lift: float) -> float:
    """The contact the engine makes between a hole frame's top and a die tilted by ``tilt``
    (rad) about the frame's long axis whose centre is ``lift`` m above the top (m; < 0: overlap).

    The distance comes from Bullet's collision detection for the dynamics (the contact
    manifold), not from ``getClosestPoints`` (which always uses GJK and sees the margins).
    """
    w = World(load_board("I"), settings=SimSettings(hole_frames=frames))
    w.reset({})
    assert any(c is not None and c[4] == (frames == "hulls") for _, _, c in w._tray_plan)
    piece = next(p for p in w.layout.boxes if p.name.startswith("hole:") and p.half_extents[1] > 0.011)
    top = piece.position[2] + piece.half_extents[2]
    x, y, z, qw = piece.quaternion  # the piece's long axis is its local y: tilt the die about it
    s, c = math.sin(tilt / 2), math.cos(tilt / 2)
    tilted = quat_mul((x, y, z, qw), (0.0, s, 0.0, c))
    centre = (piece.position[0], piece.position[1], top + lift)
    w.reset({}, 0.0, [DieRelease("blue", centre, tilted, (0, 0, 0), (0, 0, 0))])
    frame = min(  # the hole's frame: the smallest static body around the piece
        (b for b in w.static_ids if _holds(w.p.getAABB(b, physicsClientId=w.client), piece.position)),
        key=lambda b: np.prod(np.subtract(*w.p.getAABB(b, physicsClientId=w.client)[::-1])),
    )
    w.p.performCollisionDetection(physicsClientId=w.client)
    pts = w.p.getContactPoints(bodyA=w.body_of["blue"], bodyB=frame, physicsClientId=w.client)
    w.close()
    return min(pt[8] for pt in pts)


def _holds(aabb, point) -> bool:
    lo, hi = aabb
    return all(a <= x <= b for a, x, b in zip(lo, point, hi))


def test_on_its_edge_the_die_is_rounded_against_hull_frames_and_sharp_against_boxes():
    """A die balanced on its edge (45°) over a hole frame: its centre is (a/2 − r)√2 + r above
    the top if the edge is rounded by r, a/2·√2 if it is sharp. Held 0.3 mm below the
    rounded height, Bullet's box–box test finds the sharp edge 1.3 mm deep in the box;
    against the hull, GJK finds the rounded edge 0.3 mm deep."""
    half = DICE["blue"].half
    rounded = (half - R) * math.sqrt(2) + R
    lift = rounded - 0.0003
    assert _contact_gap("boxes", math.pi / 4, lift) == pytest.approx(lift - half * math.sqrt(2), abs=3e-5)
    assert _contact_gap("hulls", math.pi / 4, lift) == pytest.approx(-0.0003, abs=3e-5)


def test_flat_on_a_hull_frame_the_die_rests_on_the_box_top():
    """The hull's vertices are pulled in by PyBullet's margin for file meshes, so with the
    margin the hull is the box: a flat die sunk 0.3 mm into a frame's top is 0.3 mm deep in
    either (fails if the margin PyBullet gives file meshes changes)."""
    half = DICE["blue"].half
    for frames in ("hulls", "boxes"):
        assert _contact_gap(frames, 0.0, half - 0.0003) == pytest.approx(-0.0003, abs=2e-5)


def test_the_hull_file_is_the_box_pulled_in_by_the_margin_at_top_and_bottom():
    path = hull_box_file((0.01, 0.02, 0.0015))
    assert hull_box_file((0.01, 0.02, 0.0015)) == path  # one file per size
    with open(path) as f:
        vs = np.array([[float(x) for x in line.split()[1:]] for line in f if line.startswith("v ")])
    assert len(vs) == 8
    np.testing.assert_allclose(np.abs(vs).max(axis=0), [0.01, 0.02, 0.0015 - MESH_MARGIN])


def test_a_hull_frame_is_flat_up_to_its_footprint_edge():
    """The hull is pulled in only at its top and bottom: its flat top covers the box's whole
    footprint, so a die resting on a frame is carried right up to the hole's rim (as on the
    real, cut board), and the margin rounds the rim outside the footprint, over the hole.
    A ball 0.2 mm above the top, 0.3 mm inside the footprint's edge, is 0.2 mm from the hull."""
    import pybullet as p

    frame_half = (0.01, 0.01, 0.0015)
    ball_r = 0.0001
    c = p.connect(p.DIRECT)
    try:
        shape = p.createCollisionShapeArray(
            [p.GEOM_MESH], fileNames=[hull_box_file(frame_half)], physicsClientId=c
        )
        frame = p.createMultiBody(0.0, shape, physicsClientId=c)
        ball_shape = p.createCollisionShape(p.GEOM_SPHERE, radius=ball_r, physicsClientId=c)
        gaps = []
        for inside in (0.0003, 0.003):
            ball = p.createMultiBody(
                0.001,
                ball_shape,
                basePosition=(frame_half[0] - inside, 0.0, frame_half[2] + 0.0002 + ball_r),
                physicsClientId=c,
            )
            gaps.append(min(pt[8] for pt in p.getClosestPoints(ball, frame, 0.01, physicsClientId=c)))
    finally:
        p.disconnect(c)
    assert gaps == pytest.approx([0.0002, 0.0002], abs=1e-5)


def test_unknown_hole_frames_are_refused():
    with pytest.raises(ValueError, match="hole_frames"):
        SimSettings(hole_frames="spheres")
