"""Reading a resting die (D6–D10): top face, tilt, footprint and the field it counts for."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.doppelx.board import FieldKind
from rules.doppelx.dice import AXES, load_dice
from rules.doppelx.outcome import DieOutcome, Pose, Status
from rules.doppelx.reading import chips_for, footprint, footprint_area_flat, read_die, top_face
from tests.helpers.outcomes import flat

DICE = load_dice()
DIE = DICE["blue"]
HALF_MM = DIE.half * 1e3


def read(board, outcome):
    return read_die(outcome, DICE[outcome.owner], board, DICE.cocked_angle)


@pytest.mark.parametrize("face", ["1", "2", "3", "X"])
def test_resting_pose_shows_the_requested_face(face):
    for yaw in np.linspace(0, 2 * math.pi, 7):
        top, tilt = top_face(Pose.resting(DIE, 0, 0, yaw, face), DIE)
        assert top == face and tilt == pytest.approx(0, abs=1e-6)


def test_each_axis_up_reads_its_own_face():
    die = DICE["white"]
    for k, axis in enumerate(AXES):
        top, _ = top_face(Pose.resting(die, 0, 0, 0.3, die.faces[k]), die)
        assert top == die.faces[k], axis


def _tilted(deg: float) -> Pose:
    a = math.radians(deg) / 2
    return Pose((0.0, 0.0, DIE.half), (math.sin(a), 0.0, 0.0, math.cos(a)))  # about x: +z face tips


def test_tilt_and_cocked_flag():
    r = read_die(DieOutcome("blue", Status.BOARD, _tilted(20)), DIE, _board(), DICE.cocked_angle)
    assert math.degrees(r.tilt) == pytest.approx(20) and not r.cocked
    r = read_die(DieOutcome("blue", Status.BOARD, _tilted(30)), DIE, _board(), DICE.cocked_angle)
    assert math.degrees(r.tilt) == pytest.approx(30) and r.cocked
    assert r.top == DIE.faces[AXES.index("+z")]  # still read by its most-up face (D7)


def test_face_switches_past_45_degrees():
    assert top_face(_tilted(44), DIE)[0] == DIE.faces[AXES.index("+z")]
    assert top_face(_tilted(46), DIE)[0] == DIE.faces[AXES.index("+y")]


def _board():
    from rules.doppelx.board_file import load_board

    return load_board("I")


@given(yaw=st.floats(0, 360), face=st.sampled_from(["1", "2", "3", "X"]))
def test_footprint_area_of_a_flat_die_is_a_rounded_square(yaw, face):
    fp = footprint(Pose.resting(DIE, 0.01, -0.02, math.radians(yaw), face), DIE, quad_segs=64)
    assert fp.area == pytest.approx(footprint_area_flat(DIE), rel=2e-4)


def test_footprint_includes_rounded_corners_when_tilted():
    # a die balanced on an edge shows a wider outline than flat
    assert footprint(_tilted(45), DIE).area > footprint_area_flat(DIE)


# well-inside points of side I, by field id (mm), more than a die's reach from any line
INSIDE = {
    "red-diamond": (0, 0),
    "blue": (-100, -20),
    "gold-by-hole": (-51, 75),
    "x-southwest-corner": (-120, -120),
    "minus-north-edge": (52, 122),
}


@settings(max_examples=60)
@given(
    field_id=st.sampled_from(sorted(INSIDE)),
    yaw=st.floats(0, 360),
    face=st.sampled_from(["1", "2", "3", "X"]),
)
def test_die_well_inside_a_field_reads_it_whatever_its_yaw(side_i, field_id, yaw, face):
    x, y = INSIDE[field_id]
    r = read(side_i, flat(DICE, "blue", x, y, face, yaw))
    assert r.touched == (field_id,)
    assert r.field is side_i.field(field_id).kind and r.top == face


@settings(max_examples=40)
@given(x=st.floats(-55, -50), yaw=st.floats(0, 90))  # x > -50 reaches red-beside-gold at yaw 45
def test_crossing_a_line_switches_field_exactly_where_the_footprint_reaches_it(side_i, x, yaw):
    """Move a die up from blue towards gold-by-hole (bottom edge y = 58 mm, line 3 mm)."""
    line_edge = 58 - 1.5  # the line belongs to the higher field (D9)
    die_pose = Pose.resting(DIE, x / 1e3, 0.0, math.radians(yaw), "2")
    reach = footprint(die_pose, DIE, quad_segs=256).bounds[3] * 1e3  # top of the footprint above its centre
    y_switch = line_edge - reach
    below = read(side_i, flat(DICE, "blue", x, y_switch - 0.02, "2", yaw))
    above = read(side_i, flat(DICE, "blue", x, y_switch + 0.02, "2", yaw))
    assert below.field is FieldKind.ONE
    assert above.field is FieldKind.THREE and "blue" in above.touched


def test_line_belongs_to_the_higher_field(side_i):
    # gold-by-hole (3x) meets red-beside-gold (2x) at x = -36 mm: a die in red whose left
    # edge reaches the line's red half counts as 3x, although it never reaches yellow paint
    just_on_line = -36 + 1.5 + HALF_MM - 0.01
    r = read(side_i, flat(DICE, "blue", just_on_line, 75, "2"))
    assert r.field is FieldKind.THREE and set(r.touched) == {"gold-by-hole", "red-beside-gold"}
    r = read(side_i, flat(DICE, "blue", just_on_line + 0.05, 75, "2"))
    assert r.field is FieldKind.TWO and r.touched == ("red-beside-gold",)


def test_hole_and_off_dice_have_no_face_or_field(side_i):
    for status in (Status.HOLE, Status.OFF):
        r = read(side_i, DieOutcome("blue", status))
        assert r.status is status and r.top is None and r.field is None and chips_for(r) == 0


@pytest.mark.parametrize(
    "field_id, face, chips",
    [
        ("blue", "1", 1),
        ("blue", "3", 3),
        ("red-diamond", "2", 4),
        ("red-diamond", "3", 6),
        ("gold-by-hole", "1", 3),
        ("gold-by-hole", "3", 9),  # D11
        ("x-southwest-corner", "3", 0),
        ("x-southwest-corner", "X", 0),  # D12
        ("minus-north-edge", "3", -1),
        ("minus-north-edge", "X", -1),  # D13
        ("gold-by-hole", "X", 0),
        ("blue", "X", 0),  # D14
    ],
)
def test_chips_for_one_die(side_i, field_id, face, chips):
    x, y = INSIDE[field_id]
    assert chips_for(read(side_i, flat(DICE, "blue", x, y, face))) == chips


def _random_outcomes(board, rng, n):
    """``n`` dice anywhere over the board (turned every way, some outside it), some in a hole or off."""
    owners = list(DICE.dice)
    (x0, y0, x1, y1) = board.outline.bounds
    out = []
    for k in range(n):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        if k % 3 == 0:  # flat, at a random turn: the common case, lines crossed often
            pose = Pose.resting(DIE, *rng.uniform((x0, y0), (x1, y1)), rng.uniform(0, 2 * math.pi), "2")
        else:
            pose = Pose((*rng.uniform((x0 - 0.01, y0 - 0.01), (x1 + 0.01, y1 + 0.01)), DIE.half), tuple(q))
        status = (Status.BOARD, Status.BOARD, Status.BOARD, Status.HOLE, Status.OFF)[k % 5]
        out.append(DieOutcome(owners[k % len(owners)], status, pose))
    return out


@pytest.mark.parametrize("side", ["I", "II", "III", "IV"])
def test_reading_all_dice_at_once_equals_reading_each(side):
    """read_dice (the batch's one call a throw) gives read_die's readings exactly, in order."""
    from rules.doppelx.board_file import load_board
    from rules.doppelx.reading import read_dice

    board = load_board(side)
    rng = np.random.default_rng(33)
    outcomes = _random_outcomes(board, rng, 400)
    assert read_dice(outcomes, DICE, board, DICE.cocked_angle) == tuple(read(board, d) for d in outcomes)
    assert read_dice([], DICE, board, DICE.cocked_angle) == ()
    assert read_dice(outcomes[3:5], DICE, board, DICE.cocked_angle) == tuple(
        read(board, d) for d in outcomes[3:5]
    )
    touched = [r.touched for r in read_dice(outcomes, DICE, board, DICE.cocked_angle)]
    assert sum(len(t) > 1 for t in touched) > 10  # dice across lines: the rank order is tested
