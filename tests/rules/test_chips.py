"""Chips (D5): 665 in all, fewest-chip breakdowns, the supply."""

import itertools

import pytest

from rules.chips import CHIP_SET, TOTAL_VALUE, breakdown, supply_after
from rules.errors import RulesError


def test_the_box_holds_90_chips_worth_665():
    assert sum(CHIP_SET.values()) == 90 and TOTAL_VALUE == 665


def fewest(value):
    best = None
    for n30, n10, n5 in itertools.product(
        range(value // 30 + 1), range(value // 10 + 1), range(value // 5 + 1)
    ):
        rest = value - 30 * n30 - 10 * n10 - 5 * n5
        if rest >= 0:
            n = n30 + n10 + n5 + rest
            best = n if best is None else min(best, n)
    return best


@pytest.mark.parametrize("value", range(0, 121))
def test_breakdown_uses_the_fewest_chips(value):
    b = breakdown(value)
    assert sum(k * n for k, n in b.items()) == value
    assert sum(b.values()) == fewest(value)


def test_supply_and_its_limit():
    assert supply_after({"blue": 50, "red": 15}) == 600
    with pytest.raises(RulesError, match="only 665"):
        supply_after({"blue": 600, "red": 66})


def test_game_tracks_supply_and_holdings(side_i, dice):
    from rules.game import DoppelXGame
    from rules.outcome import ThrowOutcome
    from tests.conftest import flat, gone

    g = DoppelXGame(("blue", "red", "green"), side_i, dice)
    g.apply_throw(
        ThrowOutcome((flat(dice, "blue", -51, 75, "3"), gone("red"), flat(dice, "green", 0, 0, "3")))
    )
    assert g.chips == {"blue": 9, "red": 0, "green": 6}
    assert g.supply == 665 - 15 and g.chips_held("blue") == {5: 1, 1: 4}
    assert g.summary()["supply"] == 650
