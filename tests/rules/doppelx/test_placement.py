"""Dice said to rest on the playfield must be apart (rules/doppelx/placement.py): touching passes, overlapping does not."""

from __future__ import annotations

import math

import pytest

from rules.common.errors import SpecError
from rules.doppelx.outcome import Pose
from rules.doppelx.placement import check_resting


def two(dice, gap_mm: float, yaw_b: float = 0.0, dy_mm: float = 0.0):
    blue, red = dice["blue"], dice["red"]
    return {
        "blue": Pose.resting(blue, 0.0, 0.0, 0.0, "2"),
        "red": Pose.resting(red, gap_mm / 1000, dy_mm / 1000, yaw_b, "3"),
    }


@pytest.mark.parametrize("gap", [16.0, 15.5, 17.0])
def test_dice_side_by_side_that_touch_pass(side_i, dice, gap):
    check_resting(two(dice, gap), side_i, dice, "s.json", {})


@pytest.mark.parametrize("gap", [12.0, 13.0, 14.0, 8.0])
def test_dice_sharing_room_are_refused(side_i, dice, gap):
    """Session 8's audit: 12 mm apart (4 mm of two 16 mm dice shared) passed the corner-cube test."""
    with pytest.raises(SpecError, match="overlaps the blue die"):
        check_resting(two(dice, gap), side_i, dice, "s.json", {})


def test_rounded_corners_may_come_closer_than_the_flat_faces(side_i, dice):
    """Two dice turned 45° to each other, corner to face: the rounded corner leaves room."""
    size = dice["blue"].size * 1000
    corner = size / 2 * math.sqrt(2) - dice["red"].edge_radius * 1000 * (math.sqrt(2) - 1)
    check_resting(two(dice, size / 2 + corner + 0.2, math.pi / 4), side_i, dice, "s.json", {})
    with pytest.raises(SpecError, match="overlaps"):
        check_resting(two(dice, size / 2 + corner - 3.0, math.pi / 4), side_i, dice, "s.json", {})


def test_a_die_must_lie_on_the_playfield_not_in_the_wall(side_i, dice):
    """Session 8's audit: a centre on the outline (half the die inside the wall) passed."""
    from rules.doppelx.box import load_box

    edge = load_box().inner_size[0] / 2  # the east wall (side I fills the box)
    assert abs(edge - side_i.outline.bounds[2]) < 1e-9
    half = dice["blue"].half
    check_resting(
        {"blue": Pose.resting(dice["blue"], edge - half, 0.0, 0.0, "2")}, side_i, dice, "s.json", {}
    )
    with pytest.raises(SpecError, match=r"reaches 8\.\d mm into the box wall"):
        check_resting({"blue": Pose.resting(dice["blue"], edge, 0.0, 0.0, "2")}, side_i, dice, "s.json", {})
    with pytest.raises(SpecError, match="into the box wall"):  # turned 45°: its corner reaches further
        check_resting(
            {"blue": Pose.resting(dice["blue"], edge - half, 0.0, math.pi / 4, "2")},
            side_i,
            dice,
            "s.json",
            {},
        )


def _tilted(die, x: float, y: float, deg: float) -> Pose:
    import numpy as np

    a = math.radians(deg)
    q = (math.sin(a / 2), 0.0, 0.0, math.cos(a / 2))  # turned about x
    reach = die.half * (abs(math.cos(a)) + abs(math.sin(a)))  # its lowest edge on the playfield
    return Pose((x, y, float(np.float64(reach))), q)


def test_a_tilted_die_needs_something_to_lean_on(side_i, dice):
    """Session 8's audit: a die tilted 30° alone in the middle of the board passed."""
    alone = {"blue": _tilted(dice["blue"], 0.0, -0.04, 30)}
    with pytest.raises(SpecError, match="tilted 30° with nothing to lean on"):
        check_resting(alone, side_i, dice, "s.json", {}, lean=True)
    leaning = {**alone, "red": Pose.resting(dice["red"], 0.0, -0.04 + 0.019, 0.0, "3")}
    check_resting(leaning, side_i, dice, "s.json", {}, lean=True)  # against another die
    nearly_flat = {"blue": _tilted(dice["blue"], 0.0, -0.04, 3)}
    check_resting(nearly_flat, side_i, dice, "s.json", {}, lean=True)
    # between throws (a game state, a save) the rules may have taken its support away
    check_resting(alone, side_i, dice, "game state", {})
