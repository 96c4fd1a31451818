"""The shipped Doppelt so clever sheet matches the project's facts; malformed data is refused."""

import copy

import pytest

from rules.clever.spec import default_spec, parse_spec
from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError


def test_rounds_and_round_bonuses():
    spec = default_spec()
    assert spec.rounds == {1: 6, 2: 6, 3: 5, 4: 4}
    assert spec.round_bonuses == ("reroll", "plus1", "return", "?any")
    assert spec.dice[0] == "white" and set(spec.dice) == {
        "white",
        "silver",
        "yellow",
        "blue",
        "green",
        "pink",
    }
    assert spec.picks_per_turn == 3


def test_silver_tables():
    spec = default_spec()
    assert spec.silver_rows == ("yellow", "blue", "green", "pink")
    assert spec.silver_points == (0, 2, 4, 7, 11, 16, 22)
    assert spec.silver_column_bonuses == ("plus1", "?yellow", "fox", "?blue", "?green", "?pink")


def test_yellow_grid_and_tables():
    spec = default_spec()
    cells = [(c.row, c.column, c.number) for c in spec.yellow_cells]
    assert cells == [
        (0, 1, 3),
        (0, 3, 6),
        (1, 0, 1),
        (1, 2, 2),
        (2, 1, 4),
        (2, 3, 3),
        (3, 0, 2),
        (3, 2, 5),
        (4, 1, 5),
        (4, 3, 4),
    ]
    assert spec.yellow_row_bonuses == ("?blue", "return", "?yellow", "?green", "?pink")
    assert spec.yellow_column_bonuses == ("reroll", "plus1", "?silver", "fox")
    assert spec.yellow_points == (0, 3, 10, 21, 36, 55, 75, 96, 118, 141, 165)
    assert spec.yellow_rows[0] == (0, 1) and spec.yellow_columns[1] == (0, 4, 8)


def test_blue_green_pink_tables():
    spec = default_spec()
    assert spec.blue_points == tuple(k * (k + 1) // 2 for k in range(13))
    bonuses = {i + 1: b for i, b in enumerate(spec.blue_bonuses) if b}
    assert bonuses == {
        2: "return",
        3: "?yellow",
        5: "plus1",
        6: "reroll",
        7: "?pink",
        9: "fox",
        10: "return",
        12: "?green",
    }
    assert spec.green_multipliers == (2, 2, 2, 1, 3, 3, 3, 2, 3, 1, 4, 1)
    bonuses = {i + 1: b for i, b in enumerate(spec.green_bonuses) if b}
    assert bonuses == {
        2: "reroll",
        4: "?blue",
        5: "return",
        7: "fox",
        8: "?silver",
        9: "plus1",
        11: "?pink",
        12: "?yellow",
    }
    assert spec.pink_thresholds == (0, 0, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6)
    bonuses = {i + 1: b for i, b in enumerate(spec.pink_bonuses) if b}
    assert bonuses == {
        3: "reroll",
        4: "return",
        5: "plus1",
        6: "?green",
        7: "?yellow",
        8: "fox",
        9: "?silver",
        10: "reroll",
        11: "?blue",
        12: "?yellow",
    }


@pytest.mark.parametrize(
    "score, band",
    [
        (400, ">=320"),
        (320, ">=320"),
        (319, "300-319"),
        (200, "200-219"),
        (219, "200-219"),
        (140, "140-159"),
        (139, "<140"),
        (-5, "<140"),
    ],
)
def test_solo_rating_bands(score, band):
    assert default_spec().rating_band(score) == band


def test_rating_band_list_is_best_first():
    bands = default_spec().rating_bands()
    assert bands[0] == ">=320" and bands[-1] == "<140" and len(bands) == 11


def _data():
    return read_toml(asset_path("games", "clever.toml"))


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["silver"].update(points=[0, 2, 4]), "silver.points"),
        (lambda d: d["blue"].update(bonuses=["x"] * 12), "blue.bonuses"),
        (lambda d: d["yellow"]["cells"].append([0, 1, 4]), "yellow.cells"),
        (lambda d: d.update(format="clever/9"), "format"),
        (lambda d: d["pink"].update(thresholds=[0] * 11), "pink.thresholds"),
        (lambda d: d["solo"].update(rating_minimums=[100, 200]), "solo.rating_minimums"),
        (lambda d: d.pop("green"), "green"),
    ],
)
def test_malformed_data_is_a_spec_error(change, where):
    data = copy.deepcopy(_data())
    change(data)
    with pytest.raises(SpecError) as err:
        parse_spec(data, "test.toml")
    assert where in str(err.value) and "test.toml" in str(err.value)
