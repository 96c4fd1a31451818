"""The collision layout (no pybullet): the insert with real holes, cards, spinner, obstacles."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon
from shapely.geometry import box as rect

from physics.geometry import build_layout, hole_opening
from rules.doppelx.board_file import BUILTIN_SIDES, load_board, parse_board
from rules.doppelx.box import load_box

BOX = load_box()
INNER = rect(-BOX.inner_size[0] / 2, -BOX.inner_size[1] / 2, BOX.inner_size[0] / 2, BOX.inner_size[1] / 2)


def insert_footprints(layout):
    boxes = [p.footprint() for p in layout.boxes if p.name.startswith(("insert:", "hole:"))]
    hulls = [h.footprint() for h in layout.hulls if h.name.startswith("hole:")]
    return boxes + hulls


def check_insert(layout):
    holes = shapely.union_all(list(layout.openings.values())) if layout.openings else Polygon()
    # snap-rounded union: GEOS's floating union of many slivers can drop a piece
    cover = shapely.union_all(insert_footprints(layout), grid_size=1e-9)
    slab = INNER.difference(holes)
    assert slab.difference(cover).area < 1e-9, "part of the insert is missing"
    assert cover.intersection(holes).area < 1e-9, "a piece of the insert reaches into a hole"
    limit = INNER.buffer(BOX.wall_thickness, join_style="mitre")
    assert cover.difference(limit).area < 1e-9, "a piece of the insert sticks out of the box"
    for p in layout.boxes:
        if p.name.startswith(("insert:", "hole:")):
            assert math.isclose(p.position[2] + p.half_extents[2], 0.0, abs_tol=1e-12)
            assert math.isclose(p.position[2] - p.half_extents[2], -BOX.insert_thickness, abs_tol=1e-12)


@pytest.mark.parametrize("side", BUILTIN_SIDES)
def test_builtin_insert_is_whole_except_the_holes(side):
    layout = build_layout(load_board(side), BOX)
    check_insert(layout)
    assert not [h for h in layout.hulls if h.name.startswith("hole:")], "built-in holes are framed by boxes"


def test_round_hole_becomes_an_area_equal_polygon():
    board = load_board("I")
    for h in board.holes:
        cx, cy, r = h.circle
        for n in (8, 16, 32):
            poly = hole_opening(h, n)
            assert len(poly.exterior.coords) - 1 == n
            assert poly.area == pytest.approx(math.pi * r * r, rel=1e-9)
            assert poly.within(Point(cx, cy).buffer(r / math.cos(math.pi / n) + 1e-9, quad_segs=64))


def test_square_hole_is_cut_exactly():
    board = load_board("II")
    hole = next(h for h in board.holes if h.circle is None)
    layout = build_layout(board, BOX)
    assert layout.openings[hole.id].symmetric_difference(hole.shape).area < 1e-12
    frame = [p for p in layout.boxes if p.name.startswith(f"hole:{hole.id}:")]
    assert len(frame) == 4


def test_bet_cards_lie_on_the_rim_over_each_corner():
    layout = build_layout(load_board("I"), BOX)
    cards = [h for h in layout.hulls if h.name.startswith("bet_card:")]
    assert len(cards) == 4
    ox = BOX.inner_size[0] / 2 + BOX.wall_thickness
    for card in cards:
        v = card.world_vertices()
        assert v[:, 2].min() == pytest.approx(BOX.rim_z)
        assert v[:, 2].max() == pytest.approx(BOX.rim_z + BOX.bet_card_thickness)
        fp = card.footprint()
        assert fp.area == pytest.approx(BOX.bet_card_leg**2 / 2)
        corner = fp.exterior.coords
        assert any(math.isclose(abs(x), ox) and math.isclose(abs(y), ox) for x, y in corner)


def test_spinner_card_pin_and_mass():
    board = load_board("III")
    m = board.spinner
    g = build_layout(board, BOX, spinner_density=700.0).spinner
    side = m.arm_length * math.sqrt(3)
    mass = 700.0 * math.sqrt(3) / 4 * side**2 * m.thickness
    assert g.mass == pytest.approx(mass)
    assert g.inertia[2] == pytest.approx(mass * side**2 / 12)
    assert g.z_high == pytest.approx(m.height) and g.z_high - g.z_low == pytest.approx(m.thickness)
    tips = {round(math.hypot(x, y), 9) for x, y, _ in g.vertices}
    assert tips == {round(m.arm_length, 9)}
    assert g.pin.position[2] + g.pin.half_extents[2] < g.z_low
    assert build_layout(board, BOX, spinner=False).spinner is None
    assert build_layout(load_board("I"), BOX).spinner is None


def _board(holes, obstacles=()):
    data = {
        "format": "doppelx-board/1",
        "name": "t",
        "units": "mm",
        "line_width": 3,
        "outline": {"polygon": [[-135, -135], [135, -135], [135, 135], [-135, 135]]},
        "fields": [{"id": "all", "kind": "1x", "fill": "rest"}],
        "holes": list(holes),
        "obstacles": list(obstacles),
    }
    return parse_board(data, "generated")


def test_obstacles_are_boxes_or_prisms():
    board = _board(
        [],
        [
            {"id": "brick", "polygon": [[0, 0], [30, 10], [20, 40], [-10, 30]], "height": 10},
            {
                "id": "ell",
                "polygon": [[50, 50], [90, 50], [90, 60], [60, 60], [60, 90], [50, 90]],
                "height": 8,
            },
        ],
    )
    layout = build_layout(board, BOX)
    brick = [p for p in layout.boxes if p.name == "obstacle:brick"]
    assert (
        len(brick) == 1 and brick[0].footprint().symmetric_difference(board.obstacles[0].shape).area < 1e-10
    )
    ell = [h for h in layout.hulls if h.name.startswith("obstacle:ell")]
    assert len(ell) >= 4
    assert (
        shapely.union_all([h.footprint() for h in ell]).symmetric_difference(board.obstacles[1].shape).area
        < 1e-10
    )


def test_holes_too_close_for_frames_fall_back_to_prisms():
    board = _board(
        [
            {"id": "a", "circle": {"center": [0, 0], "radius": 15}},
            {"id": "b", "circle": {"center": [31, 5], "radius": 15}},
            {"id": "c", "polygon": [[-40, 20], [-20, 20], [-30, 40]]},
        ]
    )
    layout = build_layout(board, BOX)
    check_insert(layout)
    assert [h for h in layout.hulls if h.name.startswith("hole:")], "close holes need prisms"


hole_spec = st.tuples(st.integers(-110, 110), st.integers(-110, 110), st.integers(8, 20), st.booleans())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(hole_spec, min_size=1, max_size=5))
def test_any_hole_layout_keeps_the_insert_whole(specs):
    holes, shapes = [], []
    for k, (x, y, r, square) in enumerate(specs):
        shape = rect(x - r, y - r, x + r, y + r) if square else Point(x, y).buffer(r)
        if not shape.within(rect(-134, -134, 134, 134)) or any(shape.distance(s) < 5 for s in shapes):
            continue  # the board loader rejects holes outside the outline or closer than 5 mm
        shapes.append(shape)
        if square:
            holes.append(
                {"id": f"h{k}", "polygon": [[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]]}
            )
        else:
            holes.append({"id": f"h{k}", "circle": {"center": [x, y], "radius": r}})
    layout = build_layout(_board(holes), BOX, hole_segments=12)
    check_insert(layout)
