"""Scoring a throw (D15–D20, D29–D35) and the rulebook's worked examples E1–E6."""

from __future__ import annotations

import math

import pytest

from rules.common.errors import RulesError
from rules.doppelx.bets import choose_cards, load_bet_cards
from rules.doppelx.outcome import ThrowOutcome
from rules.doppelx.scoring import score_throw
from tests.helpers.outcomes import flat, gone

SEATS5 = ("blue", "yellow", "green", "red", "purple")


def score(
    side_i,
    dice,
    outcome_dice,
    *,
    active="blue",
    seats=SEATS5,
    chips=None,
    bets=None,
    cards=("A", "B", "C", "D"),
    lying_before=None,
):
    outcome = ThrowOutcome(tuple(outcome_dice))
    if lying_before is None:  # every passive die lay there before, its pose unknown (as in a state file)
        lying_before = {d.owner: None for d in outcome_dice if d.owner not in (active, "white")}
    return score_throw(
        outcome,
        side_i,
        dice,
        seats=seats,
        active=active,
        chips=chips or {},
        bets=bets or {},
        cards=choose_cards(cards),
        lying_before=lying_before,
    )


def test_e1_die_touching_the_line_to_3x_scores_triple(side_i, dice):
    s = score(side_i, dice, [flat(dice, "blue", -51, 48.51, "3"), gone("white")])
    assert s.players["blue"].dice == 9
    s = score(side_i, dice, [flat(dice, "blue", -51, 48.40, "3"), gone("white")])  # 0.1 mm short
    assert s.players["blue"].dice == 3


def test_e2_active_player_scores_both_dice(side_i, dice):
    s = score(
        side_i,
        dice,
        [flat(dice, "blue", -51, 48.51, "3"), flat(dice, "white", -100, -20, "2")],
        chips={"blue": 7},
    )
    assert s.players["blue"].dice == 11 and s.players["blue"].after == 18


def test_e3_x_and_minus_one_gives_x(side_i, dice):
    s = score(
        side_i,
        dice,
        [gone("blue", "off"), gone("white", "off"), flat(dice, "green", -97, -116, "2")],
        chips={"green": 5},
    )
    r = s.reading("green")
    assert r.field.value == "X" and set(r.touched) == {"x-southwest-corner", "minus-beside-x"}
    assert s.players["green"].dice == 0 and s.players["green"].after == 5


def test_e4_bets_on_c_and_passive_dice(side_i, dice):
    s = score(
        side_i,
        dice,
        [
            flat(dice, "blue", 0, 0, "2", 45),
            flat(dice, "white", -100, -20, "2"),
            flat(dice, "red", -90, 20, "X", 15),
            flat(dice, "purple", 67, 40, "3", 5),
        ],
        bets={"yellow": "C", "green": "C"},
    )
    p = s.players
    assert (p["yellow"].bets, p["green"].bets) == (3, 3)
    assert p["blue"].dice == 6 and p["red"].dice == 0 and p["purple"].dice == 6
    assert not s.doppel_x


def test_e5_x_die_on_minus_one_pays_a_chip(side_i, dice):
    s = score(
        side_i,
        dice,
        [
            flat(dice, "blue", -100, -20, "1"),
            flat(dice, "white", 100, -50, "3"),
            flat(dice, "red", 52, 122, "X"),
        ],
        chips={"red": 4},
    )
    assert s.players["red"].dice == -1 and s.players["red"].after == 3


def test_e6_doppel_x_pays_only_x_owners_and_doppel_bets(side_i, dice):
    s = score(
        side_i,
        dice,
        [
            flat(dice, "blue", 0, 0, "X", 45),
            flat(dice, "white", -51, 75, "X"),
            flat(dice, "purple", 67, 40, "3"),
        ],
        cards=("A", "C", "D", "H"),
        bets={"yellow": "A", "green": "H", "red": "C"},
        chips={"blue": 12, "purple": 20},
    )
    p = s.players
    assert s.doppel_x
    assert p["blue"].doppel_x == 10 and p["blue"].after == 22  # once, not 20 (D18)
    assert p["purple"].dice == 0 and p["purple"].after == 20  # D19
    assert (p["yellow"].bets, p["green"].bets, p["red"].bets) == (5, 5, 0)  # D34


def test_d15_passive_dice_score_every_throw(side_i, dice):
    s = score(
        side_i,
        dice,
        [gone("blue"), gone("white"), flat(dice, "purple", 0, 0, "3"), flat(dice, "yellow", -100, -20, "2")],
    )
    assert s.players["purple"].dice == 6 and s.players["yellow"].dice == 2


def test_d16_only_the_active_player_scores_the_white_die(side_i, dice):
    s = score(side_i, dice, [gone("blue"), flat(dice, "white", 0, 0, "3")], active="blue")
    assert s.players["blue"].dice == 6 and all(s.players[c].dice == 0 for c in SEATS5[1:])


def test_d13_score_never_below_zero(side_i, dice):
    s = score(
        side_i,
        dice,
        [flat(dice, "blue", 52, 122, "2"), flat(dice, "white", -80, -116, "1")],
        chips={"blue": 1},
    )
    assert s.players["blue"].dice == -2 and s.players["blue"].after == 0


def test_d17_lying_x_dice_count_for_doppel_x(side_i, dice):
    # active throws one X; green's die lying since an earlier throw shows X: Doppel X
    s = score(
        side_i,
        dice,
        [
            flat(dice, "blue", -100, -20, "X"),
            flat(dice, "white", 0, 0, "3"),
            flat(dice, "green", 67, 40, "X"),
        ],
    )
    assert s.doppel_x
    assert s.players["green"].doppel_x == 10 and s.players["blue"].doppel_x == 10
    assert s.players["blue"].dice == 0  # the white 3 on 2x brings nothing (D19)


def test_d17_x_in_a_hole_does_not_count(side_i, dice):
    s = score(side_i, dice, [flat(dice, "blue", -100, -20, "X"), gone("white")])
    assert not s.doppel_x


def test_d19_no_minus_one_in_a_doppel_x(side_i, dice):
    s = score(
        side_i,
        dice,
        [flat(dice, "blue", -100, -20, "X"), flat(dice, "white", 0, 0, "X"), flat(dice, "red", 52, 122, "3")],
        chips={"red": 4},
    )
    assert s.players["red"].after == 4


@pytest.mark.parametrize(
    "card, dice_args, pays",
    [
        ("B", [gone("blue"), gone("white", "off")], 4),  # both: double
        ("B", [gone("blue"), "white-blue"], 2),
        ("C", ["blue-red", "white-red"], 6),
        ("C", ["blue-red", "white-blue"], 3),
        ("D", ["blue-gold", "white-blue"], 4),
        ("E", ["blue-x", "white-blue"], 2),
        ("F", ["blue-blue", "white-blue"], 2),
        ("F", ["blue-red", "white-gold"], 0),
    ],
)
def test_d31_d32_bet_cards_b_to_f(side_i, dice, card, dice_args, pays):
    spots = {"red": (0, 0), "blue": (-100, -20), "gold": (-51, 75), "x": (-120, -120)}
    outcome = []
    for d in dice_args:
        if isinstance(d, str):
            owner, where = d.split("-")
            outcome.append(flat(dice, owner, *spots[where], "3"))
        else:
            outcome.append(d)
    cards = (card, *[c for c in "ABCDEFGH" if c != card][:3])
    s = score(side_i, dice, outcome, cards=cards, bets={"yellow": card})
    assert s.players["yellow"].bets == pays


def test_d33_d35_single_best_field_and_face_irrelevant(side_i, dice):
    # a die on the 3x/2x line counts only for D; an X face on 2x still pays C
    on_line = -36 + 1.5 + 8 - 0.01
    s = score(
        side_i,
        dice,
        [flat(dice, "blue", on_line, 75, "2"), gone("white")],
        bets={"yellow": "C", "green": "D"},
    )
    assert (s.players["yellow"].bets, s.players["green"].bets) == (0, 4)
    s = score(side_i, dice, [flat(dice, "blue", 0, 0, "X"), gone("white")], bets={"yellow": "C"})
    assert s.players["yellow"].bets == 3


def test_g_spinner_fling_pays_once_for_lying_dice_only(side_i, dice):
    cards = ("A", "B", "C", "G")
    thrown = [flat(dice, "blue", -100, -20, "1", touched_spinner=True), gone("white", touched_spinner=True)]
    flung = [gone("green", touched_spinner=True), flat(dice, "red", -120, -120, "2", touched_spinner=True)]
    s = score(side_i, dice, thrown + flung, cards=cards, bets={"yellow": "G"})
    assert s.players["yellow"].bets == 5  # two dice flung: still 5, once
    s = score(side_i, dice, thrown + [flat(dice, "red", -120, -120, "2")], cards=cards, bets={"yellow": "G"})
    assert s.players["yellow"].bets == 0  # red did not touch the spinner
    s = score(side_i, dice, thrown, cards=cards, bets={"yellow": "G"})
    assert s.players["yellow"].bets == 0  # the thrown white die does not count


def test_g_pays_only_for_a_die_the_spinner_moved(dice):
    """Side IV's -1 band lies within the spinner's arms: a die lying on it is brushed by the
    turning spinner without being flung anywhere (the audit of session 10 found G paying)."""
    from rules.doppelx.board_file import load_board
    from rules.doppelx.outcome import Pose

    side_iv = load_board("IV")
    thrown = [flat(dice, "blue", -60, 20, "1"), flat(dice, "white", -70, -20, "1")]

    def g_pays(before_mm, after_mm):
        before = Pose.resting(dice["red"], before_mm[0] / 1e3, before_mm[1] / 1e3, math.radians(45), "2")
        red = flat(dice, "red", *after_mm, "2", yaw_deg=45, touched_spinner=True)
        s = score(
            side_iv,
            dice,
            [*thrown, red],
            cards=("A", "B", "C", "G"),
            bets={"yellow": "G"},
            lying_before={"red": before},
        )
        assert s.reading("red").field.value == "-1"
        return s.players["yellow"].bets

    on_minus = (37.2, 37.2)
    assert g_pays(on_minus, on_minus) == 0  # only brushed: it lay on -1 before
    assert g_pays(on_minus, (38.6, 35.8)) == 0  # pushed 2 mm along the band
    assert g_pays(on_minus, (49.2, 25.2)) == 5  # flung 17 mm (more than its size) along the band
    assert g_pays((25.0, 25.0), on_minus) == 5  # flung from the 1x band onto -1
    s = score(
        side_iv,
        dice,
        [*thrown, flat(dice, "red", *on_minus, "2", yaw_deg=45, touched_spinner=True)],
        cards=("A", "B", "C", "G"),
        bets={"yellow": "G"},
    )
    assert s.players["yellow"].bets == 5  # pose before unknown (a state file): touching counts


def test_no_bets_on_the_setup_throw(side_i, dice):
    with pytest.raises(RulesError, match="setup"):
        score(side_i, dice, [flat(dice, "blue", 0, 0, "1")], active=None, bets={"yellow": "A"})


def test_bet_cards_data():
    cards = load_bet_cards()
    assert list(cards) == list("ABCDEFGH")
    assert [cards[c].payout for c in "ABCDEFGH"] == [5, 2, 3, 4, 2, 1, 5, 5]
    assert cards["A"].condition == cards["H"].condition == "doppel_x"
