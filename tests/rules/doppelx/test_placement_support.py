"""A die is judged against what is actually under it (rules/doppelx/placement.py).

Before, one global height (the tallest support plus a die) stood for every die: a die
hovering over a hole's middle or 17.5 mm above open board passed, and nothing checked a die
against an obstacle or the spinner's pin; a die beside a board smaller than the box was read
``board`` by the physics and refused by ``doppelx score``.
"""

from __future__ import annotations

import math

import pytest

from rules.common.errors import SpecError
from rules.common.schema import DataTable
from rules.doppelx.board_file import load_board
from rules.doppelx.outcome import Pose
from rules.doppelx.placement import check_resting, on_playfield

UP = (0.0, 0.0, 0.0, 1.0)


def _board(
    tmp_path,
    name: str,
    extra: str = "",
    outline: str = "[[-135, -135], [135, -135], [135, 135], [-135, 135]]",
):
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f"""format = "doppelx-board/1"
name = "{name}"
units = "mm"
line_width = 3.0

[outline]
polygon = {outline}

[[fields]]
id = "red"
kind = "2x"
polygon = [[-20, -20], [20, -20], [20, 20], [-20, 20]]

[[fields]]
id = "blue"
kind = "1x"
fill = "rest"
{extra}""",
        encoding="utf-8",
    )
    return load_board(path)


BLOCK = """
[[obstacles]]
id = "block"
polygon = [[-20, -20], [20, -20], [20, 20], [-20, 20]]
height = 6
"""


def _at(x_mm: float, y_mm: float, z_mm: float, q=UP) -> Pose:
    return Pose((x_mm / 1e3, y_mm / 1e3, z_mm / 1e3), q)


def _check(poses, board, dice, *, lean: bool = True, short=()) -> None:
    where = {o: f"dice[{i}]" for i, o in enumerate(poses)}
    check_resting(poses, board, dice, "s.json", where, lean=lean, short=short)


# -- over a hole --------------------------------------------------------------------------
def test_a_die_hovering_over_a_holes_middle_with_nothing_under_it_is_refused(side_i, dice):
    """A die 25.5 mm up over hole h-northwest, scored 'board 1 -'."""
    with pytest.raises(SpecError, match=r"dice\[0\]\.position: .*middle of hole 'h-northwest'.*holds it"):
        _check({"blue": _at(-86, 75, 25.5)}, side_i, dice)


def test_a_die_up_on_another_die_over_a_holes_middle_passes(side_i, dice):
    """A die over a hole's middle, up on a die of the board that lies on the hole's rim:
    held. Without that die only dice in the hole could hold it: the physics reads it in the
    hole (``physics.status.Zones.final``), and a state claiming it on the board is refused."""
    rim = Pose.resting(dice["red"], -0.076, 0.075, 0.0, "2")  # its centre 10 mm inside the rim's east side
    held = _at(-89, 75, 24.0)  # on the red die's top, its centre 3 mm from the hole's centre
    _check({"red": rim, "blue": held}, side_i, dice)
    with pytest.raises(SpecError, match="holds it"):
        _check({"blue": held}, side_i, dice)


def test_between_throws_a_die_may_be_left_over_a_hole(side_i, dice):
    """A save: the dice that held it may have gone home (a Doppel X) — only not higher than
    anything could have held it."""
    _check({"blue": _at(-86, 75, 25.5)}, side_i, dice, lean=False)
    with pytest.raises(SpecError, match="floats"):
        _check({"blue": _at(-86, 75, 35.0)}, side_i, dice, lean=False)


def test_low_over_a_holes_middle_is_in_the_hole(side_i, dice):
    with pytest.raises(SpecError, match='nothing holds it there \\(a die in a hole has status "hole"\\)'):
        _check({"blue": _at(-86, 75, 8.5)}, side_i, dice)


# -- floating -----------------------------------------------------------------------------
def test_a_die_floating_above_open_board_is_refused(side_i, dice):
    """A die 17.5 mm above open board near hole h-southeast scored 1."""
    with pytest.raises(SpecError, match=r"floats: its lowest point is 17\.5 mm .*the playfield at 0\.0 mm"):
        _check({"blue": _at(60, -60, 25.5)}, side_i, dice)
    _check({"blue": _at(60, -60, 8.0 + 3.5)}, side_i, dice)  # within the 4 mm tolerance


def test_a_die_on_another_die_passes_and_floating_above_it_does_not(side_i, dice):
    lower = Pose.resting(dice["red"], 0.0, -0.05, 0.3, "3")
    _check({"red": lower, "blue": _at(3, -50, 24.0)}, side_i, dice)
    with pytest.raises(SpecError, match=r"dice\[1\]\.position: the die floats.*the red die at 16\.0 mm"):
        _check({"red": lower, "blue": _at(3, -50, 30.0)}, side_i, dice)


# -- obstacles and the spinner ------------------------------------------------------------
def test_a_die_inside_an_obstacle_is_refused(tmp_path, dice):
    """A die inside a 6 mm block over the 2x field, it scored 6."""
    board = _board(tmp_path, "block", BLOCK)
    with pytest.raises(SpecError, match=r"dice\[0\]\.position: .*cuts into obstacle 'block' \(6 mm high\)"):
        _check({"blue": _at(0, 0, 8)}, board, dice)
    with pytest.raises(SpecError, match="cuts into obstacle 'block'"):  # half in it, beside it
        _check({"blue": _at(24, 0, 8)}, board, dice)
    _check({"blue": _at(0, 0, 14)}, board, dice)  # on top of it
    _check({"blue": _at(28.2, 0, 8)}, board, dice)  # against its side
    with pytest.raises(SpecError, match="floats"):  # above it, not on it
        _check({"blue": _at(0, 0, 20)}, board, dice)


def _gap_to_edge(pose: Pose, die, edge) -> float:
    """Distance (m) from the point ``edge`` (x, y, z) to the rounded die's surface."""
    import numpy as np

    p = pose.rotation().T @ (np.asarray(edge) - np.asarray(pose.position))
    core = die.half - die.edge_radius
    return float(np.linalg.norm(np.maximum(np.abs(p) - core, 0.0))) - die.edge_radius


def test_a_die_leaning_against_an_obstacle_passes(tmp_path, dice):
    """Tilted 30° against the block's top east edge: its lowest edge on the playfield, its
    upper part reaching over the block (its footprint overlaps the block's)."""
    from rules.doppelx.reading import footprint

    board = _board(tmp_path, "block", BLOCK)
    die = dice["blue"]
    a = -math.radians(30)  # its top leans west, over the block
    q = (0.0, math.sin(a / 2), 0.0, math.cos(a / 2))
    core = die.half - die.edge_radius
    z = core * (math.cos(a) + math.sin(-a)) + die.edge_radius  # its lowest point on the playfield
    lo, hi = 0.020, 0.045  # bisect x for a 0.1 mm gap to the block's top edge (x 20 mm, z 6 mm)
    for _ in range(60):
        mid = (lo + hi) / 2
        if _gap_to_edge(Pose((mid, 0.0, z), q), die, (0.020, 0.0, 0.006)) < 0.0001:
            lo = mid
        else:
            hi = mid
    pose = Pose((hi, 0.0, z), q)
    assert footprint(pose, die).intersects(board.obstacles[0].shape)
    _check({"blue": pose}, board, dice)
    with pytest.raises(SpecError, match="cuts into obstacle 'block'"):  # 2 mm further in
        _check({"blue": Pose((hi - 0.002, 0.0, z), q)}, board, dice)


@pytest.mark.parametrize(
    "x_mm, what",
    [(0.0, "the spinner's pin"), (25.0, "the spinner's card"), (-24.0, "the spinner's card")],
)
def test_a_die_through_the_spinners_pin_or_card_is_refused(dice, x_mm, what):
    """A die on side III at x = 0, y = 0 scored 9 through the pin and hub."""
    side_iii = load_board("III")
    with pytest.raises(SpecError, match=f"cuts into {what}"):
        _check({"blue": _at(x_mm, 0, 8)}, side_iii, dice)


def test_a_die_on_the_spinners_card_or_beside_it_passes(dice):
    side_iii = load_board("III")
    _check({"blue": _at(0, 0, 22.0)}, side_iii, dice)  # on the card's top, over the pin
    _check({"blue": _at(30.5, 0, 8)}, side_iii, dice)  # beside the card's middle (its arms may be elsewhere)
    _check({"blue": _at(30, 5, 22.5)}, side_iii, dice)  # on an arm


# -- boards smaller than the box ----------------------------------------------------------
SMALL = "[[-100, -100], [100, -100], [100, 100], [-100, 100]]"


def test_the_centre_must_be_over_a_smaller_boards_outline(tmp_path, dice):
    """Physics reads such a die 'off' (physics.status.Zones.final), by the same test."""
    board = _board(tmp_path, "small", outline=SMALL)
    assert on_playfield(board, 0.1005, 0.0) and not on_playfield(board, 0.1015, 0.0)
    with pytest.raises(
        SpecError, match=r"dice\[0\]\.position: \(-0\.059, 0\.124\) m is not on the playfield"
    ) as exc:
        _check({"blue": _at(-59, 124, 8)}, board, dice)
    assert "millimetres" not in str(exc.value)
    _check({"blue": _at(-59, 99.5, 8)}, board, dice)


def test_a_die_may_rest_on_or_lean_against_a_die_off_a_smaller_board(tmp_path, dice):
    """A die off the playfield (not listed in a state) may hold up or lean a die beside it."""
    board = _board(tmp_path, "small", outline=SMALL)
    _check({"blue": _at(0, 99.5, 24.0)}, board, dice)  # on a die lying at y = 105 mm
    a = math.radians(20)
    _check({"blue": Pose((0.0, 0.0955, 0.0105), (math.sin(a / 2), 0.0, 0.0, math.cos(a / 2)))}, board, dice)
    with pytest.raises(SpecError, match="floats"):
        _check({"blue": _at(0, 40, 24.0)}, board, dice)


# -- messages -----------------------------------------------------------------------------
def test_the_millimetre_hint_only_for_plausible_millimetres(side_i, dice):
    with pytest.raises(SpecError) as exc:
        _check({"blue": _at(200, 0, 8)}, side_i, dice)  # x = 0.2 m: just off the board
    assert "millimetres" not in str(exc.value)
    with pytest.raises(SpecError, match="if these are millimetres, divide by 1000"):
        check_resting({"blue": Pose((20.0, 0.0, 0.008))}, side_i, dice, "s.json", {"blue": "dice[0]"})


def test_a_short_form_die_is_blamed_on_the_keys_written(side_i, dice):
    pose = Pose.resting(dice["blue"], 0.2, 0.0, 0.0, "3")
    with pytest.raises(
        SpecError, match=r"s\.json: dice\[0\] \(x, y\): \(0\.2, 0\) m is not on the playfield"
    ):
        _check({"blue": pose}, side_i, dice, short={"blue"})
    with pytest.raises(SpecError, match=r"dice\[0\] \(x, y\): the die's centre .* hole 'h-northwest'"):
        _check({"blue": Pose.resting(dice["blue"], -0.086, 0.075, 0.0, "3")}, side_i, dice, short={"blue"})


def test_json_null_is_called_null():
    with pytest.raises(SpecError, match="dice\\[0\\].x: expected a number, got null$"):
        DataTable({"x": None}, "s.json", "dice[0]").number("x")
    with pytest.raises(SpecError, match="status: expected a non-empty string, got null$"):
        DataTable({"status": None}, "s.json").string("status")
