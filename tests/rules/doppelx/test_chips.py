"""Chips (D5): 665 in all, fewest-chip breakdowns, the supply."""

import itertools

import pytest

from rules.common.errors import RulesError
from rules.doppelx.chips import CHIP_SET, TOTAL_VALUE, breakdown, supply_after


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
    from rules.doppelx.game import DoppelXGame
    from rules.doppelx.outcome import ThrowOutcome
    from tests.helpers.outcomes import flat, gone

    g = DoppelXGame(("blue", "red", "green"), side_i, dice)
    g.apply_throw(
        ThrowOutcome((flat(dice, "blue", -51, 75, "3"), gone("red"), flat(dice, "green", 0, 0, "3")))
    )
    assert g.chips == {"blue": 9, "red": 0, "green": 6}
    assert g.supply == 665 - 15 and g.chips_held("blue") == {5: 1, 1: 4}
    assert g.summary()["supply"] == 650


def test_breakdowns_come_from_the_one_box():
    """Eight players at 69 would each want two thirties alone; the box has ten."""
    from rules.doppelx.chips import breakdowns

    holdings = {c: 69 for c in ("blue", "red", "green", "yellow", "pink", "purple", "orange", "black")}
    held = breakdowns(holdings)
    for c, chips in held.items():
        assert sum(k * n for k, n in chips.items()) == holdings[c]
    for denom, stock in CHIP_SET.items():
        assert sum(chips.get(denom, 0) for chips in held.values()) <= stock
    # the first five seats get the thirties (seat order among equals), the rest tens instead
    assert [held[c].get(30, 0) for c in holdings] == [2, 2, 2, 2, 2, 0, 0, 0]
    # with few chips out every player holds the fewest chips, as alone
    few = {"blue": 69, "red": 23, "green": 0}
    assert breakdowns(few) == {c: breakdown(v) for c, v in few.items()}


@pytest.mark.parametrize("seed", range(20))
def test_breakdowns_of_random_holdings_fit_the_box(seed):
    import numpy as np

    from rules.doppelx.chips import breakdowns

    rng = np.random.default_rng(seed)
    players = int(rng.integers(3, 9))
    holdings = {f"p{i}": int(v) for i, v in enumerate(rng.integers(0, 80, players))}
    held = breakdowns(holdings)
    assert all(sum(k * n for k, n in held[c].items()) == v for c, v in holdings.items())
    assert all(sum(h.get(d, 0) for h in held.values()) <= n for d, n in CHIP_SET.items())


def test_breakdowns_refuse_what_the_box_cannot_make():
    from rules.doppelx.chips import breakdowns

    with pytest.raises(RulesError, match="cannot make up"):
        breakdowns({"blue": 600, "red": 66})


@pytest.mark.parametrize("players", range(3, 9))
def test_the_most_one_throw_pays_is_reached_and_the_largest_target_fits_the_box(side_i, dice, players):
    """Every die on a 3x field showing 3 pays :func:`most_one_throw_pays`; a bettor gets less
    (card D on both dice pays 8, and their die is in hand). So holdings of ``target - 1`` each
    plus that throw fit the box for the largest target allowed, and not for one more."""
    from rules.doppelx.bets import choose_cards
    from rules.doppelx.chips import max_target, most_one_throw_pays
    from rules.doppelx.outcome import ThrowOutcome
    from rules.doppelx.scoring import score_throw
    from tests.helpers.outcomes import flat

    seats = dice.player_colours[:players]
    on_3x = [flat(dice, c, -51, 75, "3") for c in (*seats, "white")]
    s = score_throw(ThrowOutcome(tuple(on_3x)), side_i, dice, seats=seats, active=seats[0], chips={})
    assert sum(p.change for p in s.players.values()) == most_one_throw_pays(players)
    bettor = score_throw(
        ThrowOutcome(tuple(on_3x[:1] + on_3x[-1:])),
        side_i,
        dice,
        seats=seats,
        active=seats[0],
        chips={},
        bets={seats[1]: "D"},
        cards=choose_cards("ABCD"),
    )
    assert bettor.players[seats[1]].bets == 8 < 9
    most = max_target(players)
    assert players * (most - 1) + most_one_throw_pays(players) <= TOTAL_VALUE
    assert players * most + most_one_throw_pays(players) > TOTAL_VALUE
    assert most >= (50 if players <= 5 else 70)  # the rulebook's marks are allowed


def test_a_target_that_could_empty_the_box_is_refused(side_i, dice):
    """The rules audit of session 10: 8 players to 1000 chips stopped at throw 73 with 'the box
    has only 665'; the target is refused up front instead."""
    from rules.doppelx.game import DoppelXGame, GameOptions

    seats = dice.player_colours[:8]
    assert DoppelXGame(seats, side_i, dice, options=GameOptions(target=74)).target == 74
    with pytest.raises(RulesError, match="target of 75 chips could empty the box with 8 players.*at most 74"):
        DoppelXGame(seats, side_i, dice, options=GameOptions(target=75))
