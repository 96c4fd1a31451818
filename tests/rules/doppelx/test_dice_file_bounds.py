"""Dice files (``score --dice``) are bounded: a die's size, rounding and mass, and owners
named like board ids (docs/board-format.md, "Other data files")."""

from __future__ import annotations

import tomllib

import pytest

from rules.common.assets import asset_path
from rules.common.errors import SpecError
from rules.doppelx.dice import parse_dice

BASE = tomllib.loads(asset_path("dice.toml").read_text())


def dice_with(**top) -> dict:
    data = {**BASE, **top}
    data["dice"] = [dict(d) for d in BASE["dice"]]
    return data


def with_owner(owner: str) -> dict:
    data = dice_with()
    data["dice"][0]["owner"] = owner
    return data


def refused(data: dict) -> SpecError:
    with pytest.raises(SpecError) as exc:
        parse_dice(data, "d.toml")
    assert "\n" not in str(exc.value) and str(exc.value).startswith("d.toml: ")
    return exc.value


def test_the_shipped_dice_load():
    dice = parse_dice(dice_with(), "d.toml")
    assert dice["white"].size == pytest.approx(0.016) and len(dice.dice) == 9


@pytest.mark.parametrize("size", [1e14, 100.0, 40.0, 21.5, 4.9, 0.01])
def test_a_size_that_is_no_die_or_does_not_fit_the_box_is_refused(size):
    err = refused(dice_with(size=size, edge_radius=0.0, mass_g=min(max(4.5, 0.3 * (size / 10) ** 3), 1e3)))
    assert err.element == "size" and "5 to 21 mm" in err.problem and "cavity" in err.problem


@pytest.mark.parametrize("size, mass", [(5.0, 0.1), (21.0, 10.0), (12.0, 2.0)])
def test_sizes_of_real_dice_load(size, mass):
    assert parse_dice(dice_with(size=size, edge_radius=1.0, mass_g=mass), "d.toml")[
        "blue"
    ].size == pytest.approx(size / 1e3)


def test_edge_radius_is_at_most_a_quarter_of_the_size():
    assert refused(dice_with(edge_radius=4.1)).element == "edge_radius"
    assert refused(dice_with(edge_radius=7.9)).element == "edge_radius"
    for radius in (0.0, 4.0):
        assert parse_dice(dice_with(edge_radius=radius), "d.toml")["blue"].edge_radius == pytest.approx(
            radius / 1e3
        )


@pytest.mark.parametrize("mass", [1e15, 1000.0, 100.0, 0.5, 1e-6])
def test_a_mass_no_material_has_is_refused(mass):
    err = refused(dice_with(mass_g=mass))
    assert err.element == "mass_g" and "g/cm³" in err.problem and "0.819 to 81.9 g" in err.problem


@pytest.mark.parametrize(
    "owner, words",
    [
        ("a\x07b", "control character"),
        ("a\nb", "control character"),
        ("x" * 300, "1 to 80 characters"),
        ("x" * 81, "1 to 80 characters"),
        ("   ", "1 to 80 characters"),
        ("blue,red", "','"),
        ("blue=1", "'='"),
        (" blue", "space at an end"),
    ],
)
def test_owners_are_checked_like_board_ids(owner, words):
    err = refused(with_owner(owner))
    assert err.element == "dice[0].owner" and words in err.problem


def test_an_owner_of_80_characters_with_spaces_inside_loads():
    owner = "light blue " + "x" * 69
    assert owner in parse_dice(with_owner(owner), "d.toml").dice
