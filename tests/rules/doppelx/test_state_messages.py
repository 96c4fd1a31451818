"""A state's mistakes are named where the user wrote them (rules/doppelx/table_state.py)."""

from __future__ import annotations

import pytest

from rules.common.errors import SpecError
from rules.doppelx.board_file import load_board
from rules.doppelx.table_state import check_on_board, parse_table_state


def _state(**over):
    data = {"seats": ["blue", "red", "green"], "dice": [{"owner": "blue", "x": 0.0, "y": 0.0, "top": "3"}]}
    data.update(over)
    return data


@pytest.mark.parametrize(
    "seats, element, got",
    [([1, "red", "green"], "seats[0]", "got number 1"), (["blue", None, "red"], "seats[1]", "got null")],
)
def test_a_bad_seat_is_named_by_its_index(dice, seats, element, got):
    with pytest.raises(SpecError) as exc:
        parse_table_state(_state(seats=seats), "s.json", dice)
    assert str(exc.value).startswith(f"s.json: {element}: expected a player colour (")
    assert str(exc.value).endswith(got)


def test_a_short_form_die_is_blamed_on_x_and_y(dice, side_i):
    state = parse_table_state(
        _state(dice=[{"owner": "blue", "x": 0.2, "y": 0.0, "top": "3"}]), "s.json", dice
    )
    with pytest.raises(SpecError) as exc:
        check_on_board(state, side_i, dice, "s.json")
    assert str(exc.value) == (
        "s.json: dice[0] (x, y): (0.2, 0) m is not on the playfield (x -0.135…0.135, y -0.135…0.135 m)"
    )
    full = parse_table_state(
        _state(dice=[{"owner": "blue", "position": [0.2, 0.0, 0.008], "quaternion": [0, 0, 0, 1]}]),
        "s.json",
        dice,
    )
    with pytest.raises(SpecError, match=r"^s\.json: dice\[0\]\.position: "):
        check_on_board(full, side_i, dice, "s.json")


def test_a_short_form_die_in_the_spinners_pin_names_x_and_y(dice):
    state = parse_table_state(_state(), "s.json", dice)
    with pytest.raises(SpecError, match=r"^s\.json: dice\[0\] \(x, y\): .*cuts into the spinner's pin"):
        check_on_board(state, load_board("III"), dice, "s.json")


def test_json_null_is_called_null(dice):
    with pytest.raises(SpecError, match=r"^s\.json: dice\[0\]\.x: expected a number, got null$"):
        parse_table_state(_state(dice=[{"owner": "blue", "x": None, "y": 0.0, "top": "3"}]), "s.json", dice)
