"""Meshes, textures and baked light: the geometry the window draws, checked without OpenGL."""

import math

import numpy as np
import pytest
import shapely

from render import board_mesh, box_mesh, parts_mesh
from render.board_texture import board_image
from render.card_places import bet_die_poses, card_at
from render.card_texture import card_atlas
from render.dice_texture import TILES, dice_atlas
from render.die_mesh import rounded_cube
from render.lighting import LIGHT_DIR, baked_light, planar_shadow_matrix
from render.mesh import triangulate
from rules.doppelx.fieldmap import field_map
from rules.doppelx.reading import footprint_area_flat
from rules.doppelx.style import hex_to_rgb, load_style


def _area(mesh) -> float:
    p = mesh.positions[mesh.indices]
    return float(0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1).sum())


def test_rounded_cube_has_the_die_shape(table_i):
    die = table_i.dice["blue"]
    m = rounded_cube(die.size, die.edge_radius)
    assert np.abs(m.positions).max() == pytest.approx(die.half, abs=1e-6)
    assert np.allclose(np.linalg.norm(m.normals, axis=1), 1.0, atol=1e-5)
    # every vertex is exactly r from the inner cube (the Minkowski shape rules.doppelx.reading reads)
    inner = np.clip(m.positions, -(die.half - die.edge_radius), die.half - die.edge_radius)
    assert np.allclose(np.linalg.norm(m.positions - inner, axis=1), die.edge_radius, atol=1e-6)
    # the shadow seen from straight above matches the analytic flat footprint
    top = m.positions[m.normals[:, 2] > -1e-6]  # upper half, equator included
    hull = shapely.MultiPoint(top[:, :2]).convex_hull
    assert hull.area == pytest.approx(footprint_area_flat(die), rel=0.01)
    assert set(np.unique(m.faces)) == set(range(6))


def test_insert_top_has_real_holes(table_i):
    board, box = table_i.board, table_i.box
    top = board_mesh.insert_top(board, box)
    holes = sum(h.shape.area for h in board.holes)
    assert _area(top) == pytest.approx(box.inner_size[0] * box.inner_size[1] - holes, rel=1e-6)
    centroids = top.positions[top.indices].mean(axis=1)
    for h in board.holes:
        cx, cy, r = h.circle
        assert np.min(np.hypot(centroids[:, 0] - cx, centroids[:, 1] - cy)) > r * 0.5
    assert np.all(top.uvs >= -1e-9) and np.all(top.uvs <= 1 + 1e-9)


def test_hole_linings_face_into_the_holes(table_i):
    board, box = table_i.board, table_i.box
    sides = board_mesh.insert_sides(board, box)
    walls = sides.normals[:, 2] == 0
    cx, cy, r = board.holes[0].circle
    near = walls & (np.hypot(sides.positions[:, 0] - cx, sides.positions[:, 1] - cy) < r * 1.01)
    to_axis = np.c_[cx - sides.positions[near, 0], cy - sides.positions[near, 1]]
    assert np.all(np.einsum("ij,ij->i", to_axis, sides.normals[near, :2]) > 0)
    assert sides.positions[:, 2].min() == pytest.approx(-box.insert_thickness)


def test_triangulate_covers_polygon_with_hole():
    poly = shapely.box(0, 0, 2, 1).difference(shapely.Point(1, 0.5).buffer(0.3))
    tris = triangulate(poly)
    a, b = tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
    signed = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    assert np.all(signed > 0)  # counter-clockwise seen from above
    assert 0.5 * signed.sum() == pytest.approx(poly.area)


def test_box_parts_sit_where_the_box_spec_says(table_i):
    box = table_i.box
    assert box_mesh.inner_walls(box, 0.0, box.rim_z).positions[:, 2].max() == pytest.approx(box.rim_z)
    assert box_mesh.table(box).positions[:, 2].max() == pytest.approx(box.floor_z - box_mesh.BOTTOM)
    rim = box_mesh.rim(box)
    assert _area(rim) == pytest.approx(
        (box.inner_size[0] + 2 * box.wall_thickness) ** 2 - box.inner_size[0] ** 2, rel=1e-5
    )


def test_cards_lie_over_their_corners_and_are_clickable(table_i):
    box = table_i.box
    for letter, corner in zip("ABCD", box.corner_order):
        poly = parts_mesh.card_polygon(box, corner)
        assert poly.area == pytest.approx(box.bet_card_leg**2 / 2)
        c = poly.centroid
        assert card_at(table_i, c.x, c.y) == letter
        cx, cy = box.corner_xy(corner)
        assert poly.distance(shapely.Point(cx, cy)) == 0.0
    assert card_at(table_i, 0.0, 0.0) is None
    mesh = parts_mesh.card(box, "NE", 2, 4)
    assert mesh.uvs[:, 0].min() >= 0.5 - 1e-9 and mesh.uvs[:, 0].max() <= 0.75 + 1e-9


def test_bet_dice_lie_on_their_card(table_i):
    poses = bet_die_poses(table_i, {"red": "C", "green": "C", "pink": "A"})
    for owner, letter in (("red", "C"), ("green", "C"), ("pink", "A")):
        x, y, z = poses[owner].position
        assert card_at(table_i, x, y) == letter
        assert z == pytest.approx(
            table_i.box.rim_z + table_i.box.bet_card_thickness + table_i.dice[owner].half
        )
    assert poses["red"].position != poses["green"].position


def _footprint(pose, die):
    """A die's outline seen from above (m): its eight corners as ``pose`` turns them."""
    import itertools

    from shapely.geometry import MultiPoint

    corners = np.array(list(itertools.product((-die.half, die.half), repeat=3)))
    xy = corners @ pose.rotation().T + np.asarray(pose.position)
    return MultiPoint([tuple(p[:2]) for p in xy]).convex_hull


def test_bettors_dice_lie_side_by_side_on_their_card(table_i):
    """Several bettors on one card: the third and fourth die lay on the first two, so one
    bettor's die hid another's before and during the roll. Up to 7 bettors (8 players, one
    throws) each die lies wholly on its card (sixth playtest: not over the box's outer wall or
    past the card's long edge), no two in the same place: the first six side by side on the
    card, no two footprints overlapping, the first four clear of the letter's and the chip's
    middle; the seventh across two of them one die higher, its top clear of theirs."""
    from shapely.geometry import Point

    from render.card_places import card_corners
    from render.parts_mesh import card_corner, card_polygon

    box = table_i.box
    owners = ["red", "green", "pink", "blue", "yellow", "purple", "orange"]
    for letter, corner in card_corners(table_i).items():
        poses = bet_die_poses(table_i, {o: letter for o in owners})
        card = card_polygon(box, corner)
        a, u, v = card_corner(box, corner)
        marks = [a + (u + v) * f * box.bet_card_leg for f in (0.27, 0.125)]  # the letter, the chip
        feet = {o: _footprint(poses[o], table_i.dice[o]) for o in owners}
        on_card = box.rim_z + box.bet_card_thickness
        for k, owner in enumerate(owners):
            die, z = table_i.dice[owner], poses[owner].position[2]
            assert feet[owner].within(card), (letter, owner)
            assert z == pytest.approx(on_card + die.half + (die.size if k == 6 else 0.0)), (letter, owner)
            if k < 4:
                assert all(not feet[owner].contains(Point(*m)) for m in marks), (letter, owner)
        flat = owners[:6]
        for i, first in enumerate(flat):
            for second in flat[i + 1 :]:
                assert feet[first].intersection(feet[second]).area < 1e-9, (letter, first, second)
        top = owners[6]
        under = [o for o in flat if feet[o].intersection(feet[top]).area > 1e-9]
        assert len(under) == 2, (letter, under)  # across two dice, resting on both
        for o in under:  # each still shows most of its top
            assert feet[o].difference(feet[top]).area > 0.4 * feet[o].area, (letter, o)


def test_a_die_bet_on_a_card_keeps_off_a_die_resting_under_it(table_i):
    """Eighth playtest: Purple's die bet on card A lay right over the orange die resting under
    the card, which could then not be seen at all. A card's slots farthest from a die under it
    are taken first; with none under it, the slots are as before."""
    from render.card_places import CARD_SLOTS, card_corners
    from render.parts_mesh import card_corner
    from rules.doppelx.outcome import Pose

    box = table_i.box
    plain = bet_die_poses(table_i, {"purple": "A"})
    for letter, corner in card_corners(table_i).items():
        a, u, v = card_corner(box, corner)
        die = table_i.dice["orange"]
        for slot, (fu, fv) in enumerate(CARD_SLOTS):
            x, y = a + (u * fu + v * fv) * box.bet_card_leg
            flat = Pose.resting(die, float(x), float(y), 0.0, "2")
            under = {
                "orange": Pose((float(x), float(y), box.floor_z + die.half), flat.quaternion)
            }  # in the box
            poses = bet_die_poses(table_i, {"purple": letter, "green": letter}, under)
            first = poses["purple"].position
            assert math.dist(first[:2], (x, y)) >= die.size, (letter, slot)  # the free slot first
            assert poses["green"].position[2] == pytest.approx(first[2])  # the second: the other slot
            # the slots farthest from the die under the card go first: a bet die one slot away
            # still hid it from the side, a rim's height above it (thirteenth playtest)
            spots = [a + (u * gu + v * gv) * box.bet_card_leg for gu, gv in CARD_SLOTS]
            gaps = sorted((math.dist((float(q[0]), float(q[1])), (x, y)) for q in spots), reverse=True)
            taken = [math.dist(poses[o].position[:2], (x, y)) for o in ("purple", "green")]
            assert taken == pytest.approx(gaps[:2], abs=1e-6), (letter, slot)
    assert bet_die_poses(table_i, {"purple": "A"}, {}) == plain


def test_spinner_blade_reaches_its_arm_length():
    from rules.doppelx.board_file import load_board

    sp = load_board("III").spinner
    blade = parts_mesh.spinner_blade(sp)
    r = np.hypot(blade.positions[:, 0], blade.positions[:, 1])
    assert r.max() == pytest.approx(sp.arm_length, abs=0.0012)  # tips rounded by 1 mm
    assert blade.positions[:, 2].max() == pytest.approx(sp.height)


def test_planar_shadow_moves_points_along_the_light():
    m = planar_shadow_matrix(0.0)
    p = np.array([0.01, 0.02, 0.05, 1.0])
    q = m @ p
    assert q[2] == pytest.approx(0.0)
    d = p[:3] - q[:3]
    assert np.allclose(np.cross(d, LIGHT_DIR), 0.0, atol=1e-12)


def test_baked_light_shadows_the_walls_towards_the_light(table_i):
    box = table_i.box
    lit = baked_light(box, [], 270, 270)
    assert lit[135, 135] == 1.0  # the middle of the playfield is in the sun
    assert lit[135, 1] < 0.05  # at the foot of the west wall (light from the SW)
    assert lit[268, 135] < 0.05  # ... and of the south wall
    assert lit[135, 268] == 1.0 and lit[1, 135] == 1.0  # east and north feet face the light


def test_board_print_puts_each_colour_where_the_board_file_says(table_i):
    board, box = table_i.board, table_i.box
    img = board_image(board, box)
    rows, cols = img.shape[:2]
    style = load_style()
    fm = field_map(board)
    for field, region in zip(board.fields, fm.regions):
        inner = region.buffer(-0.004)
        if inner.is_empty:
            continue
        # points clear of the lines, along the inside of the field's edge (labels sit mid-field)
        for q in (
            inner.boundary.interpolate(0.1, normalized=True),
            inner.boundary.interpolate(0.6, normalized=True),
        ):
            col = int((q.x + box.inner_size[0] / 2) / box.inner_size[0] * cols)
            row = int((box.inner_size[1] / 2 - q.y) / box.inner_size[1] * rows)
            want = np.array(hex_to_rgb(style.kind_fill[field.kind])) * 255
            got = img[row, col, :3].astype(float)
            shade = got.sum() / max(want.sum(), 1)  # baked wall shading darkens a little
            assert np.abs(got - want * shade).max() < 22, (field.id, got, want)
            assert 0.7 < shade < 1.06
    cx, cy, r = board.holes[0].circle
    col = int((cx + box.inner_size[0] / 2) / box.inner_size[0] * cols)
    row = int((box.inner_size[1] / 2 - cy) / box.inner_size[1] * rows)
    assert img[row, col, 3] == 0 and img[rows // 2, cols // 2, 3] == 255


def test_dice_atlas_tiles():
    atlas = dice_atlas(128)
    assert atlas.shape == (128, 512, 4)
    centre = lambda label: atlas[64, TILES[label] * 128 + 64, 0]
    assert centre("1") == 255 and centre("3") == 255 and centre("X") == 255
    assert centre("2") == 0
    corner = atlas[5, TILES["X"] * 128 + 64, 0]
    assert corner == 0


def test_card_atlas_prints_each_card_in_its_colour(table_i):
    atlas = card_atlas(table_i.cards, tile=128)
    assert atlas.shape == (128, 512, 4)
    for i, card in enumerate(table_i.cards):
        u, v = 0.70, 0.12  # inside the triangle, clear of the print
        px = atlas[int(v * 128), int((i + u) * 128), :3]
        assert np.abs(px - np.array(hex_to_rgb(card.colour)) * 255).max() < 8
        assert atlas[120, i * 128 + 120, 3] == 0  # beyond the hypotenuse: transparent
    assert math.isclose(float(atlas[..., 3].astype(bool).mean()), 0.5, abs_tol=0.05)


def test_bet_dice_keep_away_from_a_die_beside_their_card(table_i):
    """Fifteenth playtest: the dice bet on card A hid a die lying on the 1x field beside the card
    (not under it): seen from the side, a die on the card a rim's height up covers it. A die within
    a rim's height of the card also sends the bet dice to the card's places farthest from it."""
    from shapely.geometry import Point

    from render.card_places import CARD_SLOTS, card_corners
    from render.parts_mesh import card_corner, card_polygon
    from rules.doppelx.outcome import Pose

    box = table_i.box
    letter, corner = next(iter(card_corners(table_i).items()))
    card = card_polygon(box, corner)
    a, u, v = card_corner(box, corner)
    mid = a + (u + v) * 0.5 * box.bet_card_leg  # the middle of the card's long edge
    spot = mid - mid / np.linalg.norm(mid) * 0.025  # 25 mm from it, towards the box's middle
    assert not card.buffer(0.012).contains(Point(*spot))  # beside the card, not under it
    die = table_i.dice["black"]
    beside = {"black": Pose.resting(die, float(spot[0]), float(spot[1]), 0.0, "2")}
    poses = bet_die_poses(table_i, {"purple": letter, "orange": letter}, beside)
    spots = [a + (u * gu + v * gv) * box.bet_card_leg for gu, gv in CARD_SLOTS]
    gaps = sorted((math.dist((float(q[0]), float(q[1])), spot) for q in spots), reverse=True)
    taken = [math.dist(poses[o].position[:2], spot) for o in ("purple", "orange")]
    assert taken == pytest.approx(gaps[:2], abs=1e-6)
