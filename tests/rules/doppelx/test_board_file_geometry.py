"""Board files with dead geometry are refused, named by element; playable designs still load.

The yardstick is the shipped die (16 mm): a playfield narrower than a die, holes covering
most of the board, a field no die can ever touch (wholly in holes, or wholly under the lines
of higher fields) and spinner arms shorter than a die are designer mistakes. Tiny fields a die
can still touch are design, and pass.
"""

from __future__ import annotations

import shutil

import pytest

from rules.common.errors import SpecError
from rules.doppelx.board_file import (
    BUILTIN_SIDES,
    DIE_MM,
    MAX_HOLE_SHARE,
    builtin_board_path,
    load_board,
)
from rules.doppelx.dice import load_dice

HEAD = """format = "doppelx-board/1"
name = "t"
units = "mm"
line_width = 3.0
[outline]
polygon = [[-135, -135], [135, -135], [135, 135], [-135, 135]]
[[fields]]
id = "blue"
kind = "1x"
fill = "rest"
"""


def field(fid: str, kind: str, x0, y0, x1, y1) -> str:
    return f'[[fields]]\nid = "{fid}"\nkind = "{kind}"\npolygon = [[{x0},{y0}],[{x1},{y0}],[{x1},{y1}],[{x0},{y1}]]\n'


def hole(hid: str, x, y, r) -> str:
    return f'[[holes]]\nid = "{hid}"\ncircle = {{ center = [{x}, {y}], radius = {r} }}\n'


def spinner(arm) -> str:
    return f"[spinner]\ncenter = [0, 0]\narm_length = {arm}\nthickness = 3\nheight = 14\npin_radius = 4\n"


def load(tmp_path, text: str, name: str = "b.toml"):
    p = tmp_path / name
    p.write_text(text)
    return load_board(p)


def refused(tmp_path, text: str, name: str = "b.toml") -> SpecError:
    with pytest.raises(SpecError) as exc:
        load(tmp_path, text, name)
    assert "\n" not in str(exc.value) and name in str(exc.value)
    return exc.value


def test_the_yardstick_is_the_shipped_die():
    assert load_dice()["white"].size * 1e3 == pytest.approx(DIE_MM)


@pytest.mark.parametrize("side", BUILTIN_SIDES)
def test_shipped_sides_pass_every_check(side):
    assert load_board(side).name == side


# -- fields no die can touch -------------------------------------------------------------------
def test_a_field_wholly_inside_a_hole_is_refused_naming_field_and_hole(tmp_path):
    err = refused(tmp_path, HEAD + field("g", "3x", -5, -5, 5, 5) + hole("h", 0, 0, 20))
    assert err.element == "fields[1]" and "'g'" in err.problem and "hole 'h'" in err.problem
    assert "never touch" in err.problem


def test_a_field_under_two_holes_and_higher_lines_is_refused(tmp_path):
    # an X square nearly filled by a hole; its corners outside lie under the 1x and 3x lines
    err = refused(
        tmp_path,
        HEAD + field("x", "X", -10, -10, 10, 10) + field("r", "3x", 10, -10, 30, 10) + hole("h", -1, 0, 13.5),
    )
    assert err.element == "fields[1]" and "'x'" in err.problem and "hole 'h'" in err.problem


def test_a_strip_narrower_than_the_line_between_higher_fields_is_refused(tmp_path):
    text = HEAD + field("g1", "3x", 0, 0, 20, 20) + field("g2", "3x", 22, 0, 40, 20)
    err = refused(tmp_path, text + field("strip", "X", 20, 0, 22, 20))
    assert err.element == "fields[3]" and "white lines" in err.problem and "line_width" in err.problem
    # the same strip beside lower fields keeps its own lines: it is touchable
    assert load(tmp_path, HEAD + field("strip", "3x", 20, 0, 22, 20), "ok.toml")


def test_tiny_fields_a_die_can_touch_are_design(tmp_path):
    # a 4 x 4 mm 3x field in the open, and a 3x ring just around a hole's rim
    assert load(tmp_path, HEAD + field("g", "3x", 0, 0, 4, 4), "tiny.toml").field("g")
    rim = load(tmp_path, HEAD + field("g", "3x", -10, -10, 10, 10) + hole("h", 0, 0, 14.5), "rim.toml")
    assert rim.field("g")
    # a field under an obstacle: a die against the obstacle touches its edge
    tower = HEAD + field("g", "3x", 40, 40, 60, 60)
    tower += '[[obstacles]]\nid = "tower"\npolygon = [[40,40],[60,40],[60,60],[40,60]]\nheight = 20\n'
    assert load(tmp_path, tower, "tower.toml").field("g")


def test_a_grid_of_many_small_fields_loads(tmp_path):
    text = HEAD + "".join(
        field(f"f{i}{j}", "2x", 13 * i, 13 * j, 13 * i + 6.5, 13 * j + 6.5)
        for i in range(5)
        for j in range(5)
    )
    assert len(load(tmp_path, text).fields) == 26


# -- holes, outline, spinner ---------------------------------------------------------------------
def test_holes_covering_most_of_the_board_are_refused(tmp_path):
    err = refused(tmp_path, HEAD + hole("h", 0, 0, 130))
    assert err.element == "holes" and "73%" in err.problem and f"{100 * MAX_HOLE_SHARE:.0f}%" in err.problem
    assert load(tmp_path, HEAD + hole("h", 0, 0, 100), "big.toml").holes  # 43 %: a big hole is design


def test_a_playfield_narrower_than_a_die_is_refused(tmp_path):
    for side_mm, ok in ((10, False), (15.9, False), (16, True), (40, True)):
        h = side_mm / 2
        text = HEAD.replace(
            "[[-135, -135], [135, -135], [135, 135], [-135, 135]]",
            f"[[-{h}, -{h}], [{h}, -{h}], [{h}, {h}], [-{h}, {h}]]",
        )
        name = f"w{side_mm}.toml"
        if ok:
            assert load(tmp_path, text, name)
        else:
            err = refused(tmp_path, text, name)
            assert err.element == "outline.polygon" and "16 mm" in err.problem
    # a long thin strip is as narrow as its width
    strip = HEAD.replace(
        "[[-135, -135], [135, -135], [135, 135], [-135, 135]]", "[[-130, -5], [130, -5], [130, 5], [-130, 5]]"
    )
    assert "10 mm wide" in refused(tmp_path, strip, "strip.toml").problem


def test_spinner_arms_shorter_than_a_die_are_refused(tmp_path):
    err = refused(tmp_path, HEAD + spinner(0.01))
    assert err.element == "spinner.arm_length" and "16 mm" in err.problem
    assert refused(tmp_path, HEAD + spinner(15.9), "b2.toml").element == "spinner.arm_length"
    assert load(tmp_path, HEAD + spinner(16), "ok.toml").spinner is not None


# -- obstacles above the rim, names of shipped sides ----------------------------------------------
def test_an_obstacle_above_the_rim_is_named_by_place_and_id(tmp_path):
    text = HEAD + '[[obstacles]]\nid = "low"\npolygon = [[0,0],[10,0],[10,10],[0,10]]\nheight = 10\n'
    text += '[[obstacles]]\nid = "t"\npolygon = [[60,60],[75,60],[75,75],[60,75]]\nheight = 60\n'
    err = refused(tmp_path, text)
    assert err.element == "obstacles[1].height" and "obstacle 't'" in err.problem and "rim" in err.problem


@pytest.mark.parametrize("name", ["II", "ii", "IV"])
def test_a_custom_board_may_not_take_a_shipped_sides_name(tmp_path, name):
    err = refused(tmp_path, HEAD.replace('name = "t"', f'name = "{name}"'))
    assert err.element == "name" and f"shipped side {name.upper()}" in err.problem


def test_a_changed_copy_of_a_side_must_be_renamed_but_a_plain_copy_is_that_side(tmp_path):
    shipped = builtin_board_path("II")
    copy = tmp_path / "copy.toml"
    shutil.copy(shipped, copy)
    with copy.open("a") as f:
        f.write("# my copy\n")  # a comment changes nothing
    assert load_board(copy).name == "II"
    changed = shipped.read_text().replace("radius = 15", "radius = 14")
    assert refused(tmp_path, changed, "changed.toml").element == "name"
    assert load(tmp_path, changed.replace('name = "II"', 'name = "mine"'), "mine.toml").name == "mine"


def test_a_file_named_like_a_side_without_a_name_is_not_that_side(tmp_path):
    board = load(tmp_path, HEAD.replace('name = "t"\n', ""), "II.toml")
    assert board.name == "II.toml" and board.title == "Side II.toml"
