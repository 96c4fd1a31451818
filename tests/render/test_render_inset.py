"""The off-the-box inset's pure parts: which dice it shows, where it goes, what it says."""

from __future__ import annotations

from render import box_mesh
from render.inset import (
    MAX_INSETS,
    caption,
    framed,
    groups,
    in_screen_order,
    inset_camera,
    inset_rect,
    off_box,
)
from render.labels import Rect
from render.snapshot import TableSpec
from rules.doppelx.outcome import Pose


def _on_table(table, owner, x, y, lift=0.0):
    die = table.dice[owner]
    return owner, Pose((x, y, box_mesh.table_z(table.box) + die.half + lift))


def test_only_dice_resting_on_the_table_outside_the_box_are_shown():
    table = TableSpec.standard("IV")
    ox, _ = box_mesh.outer_half(table.box)
    dice = [
        _on_table(table, "green", ox + 0.2, 0.0),  # off the box, on the table
        ("red", Pose((0.02, 0.03, 0.01))),  # in the box
        _on_table(table, "blue", ox + 0.1, 0.0, lift=0.2),  # flying past the rim
    ]
    assert [o for o, _ in off_box(table, dice)] == ["green"]


def test_the_inset_takes_the_dice_side_and_keeps_clear_of_panels_and_the_box():
    right = inset_rect(1280, 800, [])
    assert right.x1 > 1200 and right.x0 > 640
    left = inset_rect(1280, 800, [], left_first=True)
    assert left.x0 < 100
    scoreboard = Rect(0, 0, 400, 800)  # the whole left edge taken by a panel
    assert inset_rect(1280, 800, [scoreboard], left_first=True).x0 > 640
    box = Rect(0, 300, 1280, 520)  # the box across the middle: a lower spot
    low = inset_rect(1280, 800, [], [box])
    assert low.overlap(box) <= 0.12 * (low.x1 - low.x0) * (low.y1 - low.y0)
    # the end of a game at 800 × 500 (eighth playtest): the standings' column at the right, the box
    # moved left of it down to the bottom, the top left free (no scoreboard): the inset goes there
    standings, box = Rect(555, 190, 795, 385), Rect(125, 55, 555, 400)
    end = inset_rect(800, 500, [standings], [box], left_first=True)
    assert end.overlap(standings) == 0 and end.overlap(box) <= 0.12 * (end.x1 - end.x0) * (end.y1 - end.y0)
    assert end.y1 > 450 and end.x0 < 100


def test_the_inset_camera_sees_every_die_off_the_box_and_the_caption_names_them():
    table = TableSpec.standard("I")
    ox, _ = box_mesh.outer_half(table.box)
    dice = [_on_table(table, "green", ox + 0.2, 0.05), _on_table(table, "red", ox + 0.28, -0.03)]
    assert framed(dice) == dice  # near each other: both framed
    cam = inset_camera(dice)
    for _, pose in dice:
        x, y, depth = cam.project(pose.position, 338, 260)
        assert 0 < x < 338 and 0 < y < 260 and 0 < depth < 1
    far = [_on_table(table, "red", ox + 0.6, -0.4), _on_table(table, "green", ox + 0.05, 0.02)]
    assert [o for o, _ in framed(far)] == ["green"]  # far apart: the one nearest the box
    assert caption(["green", "red"]) == "green, red · off the box"
    assert caption(["green"], ["off the box: back to hand"] * 2) == "green · off the box: back to hand"


def test_dice_knocked_far_apart_are_each_framed_in_an_inset_of_their_own():
    """The inset framed the group nearest the box and only named a die further off ("white
    further off"): it was not seen. Each group of dice lying together gets an inset, nearest the
    box first, each camera seeing its dice; more groups than :data:`MAX_INSETS` share the last."""
    table = TableSpec.standard("I")
    ox, oy = box_mesh.outer_half(table.box)
    far = [
        _on_table(table, "red", ox + 0.6, -0.4),
        _on_table(table, "green", ox + 0.05, 0.02),
        _on_table(table, "blue", ox + 0.1, 0.05),  # beside green: framed with it
    ]
    parts = groups(far)
    assert [[o for o, _ in g] for g in parts] == [["green", "blue"], ["red"]]
    for group in parts:
        cam = inset_camera(group)
        for _, pose in group:
            x, y, depth = cam.project(pose.position, 338, 260)
            assert 0 < x < 338 and 0 < y < 260 and 0 < depth < 1
    scattered = [
        _on_table(table, o, ox + 0.05 + 0.3 * k, -0.02)
        for k, o in enumerate(["green", "red", "blue", "pink"])
    ]
    parts = groups(scattered)
    assert len(parts) == MAX_INSETS and sorted(o for g in parts for o, _ in g) == [
        "blue",
        "green",
        "pink",
        "red",
    ]


def test_two_insets_on_one_side_stand_one_over_the_other_as_their_dice_do():
    """The lower spot at the window's edge is clear of the middle one, so a second inset goes
    there; the insets on one side are dealt in the order their dice stand in the main view."""
    first = inset_rect(800, 500, [])
    second = inset_rect(800, 500, [first])
    assert second.overlap(first) == 0 and second.y1 < first.y0 and second.x0 == first.x0
    left = inset_rect(800, 500, [first, second], left_first=True)
    # dice: the first inset's high in the view, the second's low, the third's on the left
    assert in_screen_order([second, first, left], [400.0, 100.0, 250.0]) == [first, second, left]
    assert in_screen_order([first, second, left], [400.0, 100.0, 250.0]) == [first, second, left]
