"""Normal turns: laying rules, drawing, interjecting, doubles, neutral cards, start card, penalty."""

from __future__ import annotations

import numpy as np
import pytest

from rules.common.errors import RulesError
from rules.contract import chance_step
from rules.oder_nichts.actions import CHANCE_KIND, Action
from rules.oder_nichts.table import Table
from rules.oder_nichts.table_ops import TableOps


def test_colour_or_symbol_must_match_and_you_must_play_when_you_can(rig):
    g = rig([["green 7", "cyan 2", "cyan 7"], ["yellow 1", "yellow 2", "yellow 3"]], "green 3")
    assert (g.who, g.kind) == (0, "turn")
    with pytest.raises(RulesError, match="must play when you can"):
        g.do("draw")
    with pytest.raises(
        RulesError, match="cyan 2 does not fit on green 3: it needs the colour green or the symbol '3'"
    ):
        g.play("cyan 2")
    assert len(g.state.log) == 1  # refused actions leave no trace
    g.play("green 7")
    assert g.top() == "green 7" and (g.who, g.kind) == (1, "turn")
    g.do("draw")  # P1 has nothing green and no 7
    g.play("cyan 7")  # same symbol, other colour
    assert g.top() == "cyan 7" and g.table.allowed == ("cyan",)


def test_grey_and_brown_cards_are_not_played_at_a_normal_turn(rig):
    g = rig([["grey mirror", "brown double"], ["yellow 1", "yellow 2"]], "green 3")
    assert [a.kind for a in g.state.legal_actions()] == ["draw"]
    with pytest.raises(RulesError, match="grey and brown cards can only be played on an offensive card"):
        g.play("grey mirror")
    with pytest.raises(RulesError, match="grey and brown cards can only be played on an offensive card"):
        g.play("brown double")


def test_a_drawn_card_that_fits_is_played_at_once(rig):
    g = rig([["cyan 2", "cyan 4"], ["yellow 1", "yellow 2"]], "green 3", draw=["green 9", "cyan 5"])
    g.do("draw")
    assert g.kind == "play_drawn"
    assert [a.cards for a in g.state.legal_actions()] == [g.ids(0, ["green 9"])]
    with pytest.raises(RulesError, match="must be played at once"):
        g.play("cyan 2")
    g.play("green 9")
    assert g.top() == "green 9" and g.who == 1


def test_a_drawn_card_that_does_not_fit_ends_the_turn(rig):
    g = rig([["cyan 2", "cyan 4"], ["yellow 1", "yellow 2"]], "green 3", draw=["cyan 5"])
    g.do("draw")
    assert (g.who, g.kind) == (1, "turn")
    assert g.hand(0) == ["cyan 2", "cyan 4", "cyan 5"]


def test_two_identical_cards_are_laid_together(rig):
    g = rig([["green 5", "green 5", "cyan 5"], ["yellow 1", "yellow 2", "yellow 3"]], "green 3")
    with pytest.raises(RulesError, match="exactly the same card"):
        g.play("green 5", "cyan 5")
    g.play("green 5", "green 5")
    assert g.hand(0) == ["cyan 5"]
    assert [g.spec.card(c).label for c in g.table.discard[-2:]] == ["green 5", "green 5"]


def test_interjecting_the_exact_same_card_out_of_turn(rig):
    hands = [["green 5", "cyan 1"], ["yellow 1", "yellow 2"], ["green 5", "magenta 8"]]
    g = rig(hands, "green 3")
    g.play("green 5")
    # P1 is next (may simply play it at their turn); P2 holds the same card and is asked
    assert (g.who, g.kind) == (2, "window")
    legal = g.state.legal_actions()
    assert Action("interject", g.ids(2, ["green 5"])) in legal and Action("pass_window") in legal
    g.do("interject", "green 5")
    # play goes on after the interjector: P0, P1 is passed over
    assert (g.who, g.kind) == (0, "turn") and g.hand(2) == ["magenta 8"]


def test_a_similar_card_is_no_interjection(rig):
    g = rig([["green 5", "cyan 1"], ["yellow 1", "yellow 2"], ["cyan 5", "magenta 8"]], "green 3")
    g.play("green 5")
    assert (g.who, g.kind) == (1, "turn")  # nobody holds the exact same card: no window


def test_the_next_player_is_too_slow_to_interject_but_plays_it_normally(rig):
    g = rig([["green 5", "cyan 1"], ["green 5", "yellow 2"], ["cyan 9", "magenta 8"]], "green 3")
    g.play("green 5")
    assert (g.who, g.kind) == (1, "turn")
    g.play("green 5")
    assert g.top() == "green 5"


def test_playing_out_of_turn_costs_a_penalty_card(rig):
    hands = [["green 5", "cyan 1"], ["yellow 1", "yellow 2"], ["green 5", "grey mirror"]]
    g = rig(hands, "green 3", draw=["magenta 4"])
    g.play("green 5")
    assert (g.who, g.kind) == (2, "window")
    with pytest.raises(RulesError, match="only coloured cards can be interjected"):
        g.do("interject", "grey mirror")
    g.do("out_of_turn", "grey mirror")
    assert g.hand(2) == ["green 5", "grey mirror", "magenta 4"]
    assert any("out of turn" in e and "penalty" in e for e in g.events())
    assert (g.who, g.kind) == (1, "turn")


def test_direction_change_and_two_of_them(rig):
    hands = [["green direction change", "cyan 1"], ["yellow 1", "yellow 2"], ["cyan 9", "magenta 8"]]
    g = rig(hands, "green 3")
    g.play("green direction change")
    assert g.table.direction == -1 and g.who == 2
    hands = [
        ["green direction change", "green direction change", "cyan 1"],
        ["yellow 1", "yellow 2", "yellow 3"],
        ["cyan 9", "magenta 8", "magenta 9"],
    ]
    g = rig(hands, "green 3")
    g.play("green direction change", "green direction change")
    assert g.table.direction == 1 and g.who == 1


def test_colour_change_matches_by_colour_and_sets_the_other_colour(rig):
    hands = [["magenta/green colour change", "cyan 1"], ["magenta 8", "cyan/green colour change"]]
    g = rig(hands, "magenta 4")
    with pytest.raises(RulesError, match="colour to follow is green"):
        g.play("magenta/green colour change")
    g.play("magenta/green colour change", colour="green")
    assert g.table.allowed == ("green",)
    with pytest.raises(RulesError, match="needs the colour green"):
        g.play("magenta 8")
    g.play("cyan/green colour change", colour="cyan")
    assert g.table.allowed == ("cyan",)


def test_a_colour_change_does_not_fit_by_symbol(rig):
    g = rig(
        [["cyan/yellow colour change", "cyan 1"], ["yellow 1", "yellow 2"]], "magenta/green colour change"
    )
    assert g.table.allowed == ("magenta", "green")  # as start card: either colour may follow
    with pytest.raises(RulesError, match="one of its colours must be magenta or green"):
        g.play("cyan/yellow colour change", colour="yellow")


def test_zero_lets_you_swap_seats(rig):
    hands = [["green 0", "cyan 1"], ["yellow 1", "yellow 2"], ["cyan 9", "magenta 8"]]
    g = rig(hands, "green 3")
    g.play("green 0")
    assert g.kind == "seat"
    g.do("seat", target=1)
    assert g.table.seats == [1, 0, 2]
    assert g.who == 2  # next after P0's new seat


def test_zero_swap_is_optional(rig):
    g = rig([["green 0", "cyan 1"], ["yellow 1", "yellow 2"], ["cyan 9", "magenta 8"]], "green 3")
    g.play("green 0")
    g.do("seat")
    assert g.table.seats == [0, 1, 2] and g.who == 1


def test_half_hand_puts_half_of_the_rest_under_the_pile_at_random(rig):
    hands = [
        ["green half hand", "cyan 1", "cyan 2", "cyan 3", "yellow 4"],
        ["yellow 1", "yellow 2", "yellow 3", "yellow 5", "yellow 6"],
    ]
    g = rig(hands, "green 3")
    g.play("green half hand")
    assert g.kind == "half_hand" and g.pending.info["count"] == 2
    g.do("halve", choice="yes")
    assert g.pending.kind == "pick" and g.pending.count == 2
    with pytest.raises(RulesError, match="2 different cards from the hand"):
        g.state.apply_action(Action(CHANCE_KIND, cards=g.ids(0, ["cyan 1"])))
    g.pick("cyan 1", "yellow 4")
    assert g.hand(0) == ["cyan 2", "cyan 3"]
    assert [g.spec.card(c).label for c in g.table.discard[:2]] == ["yellow 4", "cyan 1"]
    assert g.top() == "green half hand"


def test_half_hand_is_optional(rig):
    g = rig([["green half hand", "cyan 1", "cyan 2"], ["yellow 1", "yellow 2", "yellow 3"]], "green 3")
    g.play("green half hand")
    g.do("halve", choice="no")
    assert g.hand(0) == ["cyan 1", "cyan 2"] and g.who == 1


def test_hand_swap_is_compulsory_even_with_the_last_card(rig):
    g = rig([["green hand swap"], ["cyan 9"]], "green 3", target=1000)
    g.play("green hand swap")
    assert g.kind == "hand_swap" and [a.target for a in g.state.legal_actions()] == [1]
    g.do("swap", target=1)
    assert "P0 swaps hands with P1" in g.events()
    result = g.state.rounds[0]  # P1 now has no cards: the round is over, P1 won it
    assert result.winners == (1,) and result.hand_points == (9, 0)


def test_a_hand_of_only_grey_cards_may_be_exchanged(rig):
    g = rig([["grey mirror", "grey dodge"], ["yellow 1", "yellow 2"]], "green 3")
    legal = g.state.legal_actions()
    assert Action("exchange") in legal and Action("draw") in legal
    g.do("exchange")
    assert g.pending.kind == "shuffle"
    chance_step(g.state, np.random.default_rng(1))
    assert len(g.table.hands[0]) == 2
    assert sorted(g.table.all_cards()) == list(range(138))
    assert g.who == 0 and g.kind in ("turn", "window")
    if g.kind == "turn":
        assert Action("exchange") not in g.state.legal_actions()  # once per turn


def test_exchange_needs_a_hand_of_only_grey_cards(rig):
    g = rig([["grey mirror", "cyan 1"], ["yellow 1", "yellow 2"]], "green 3")
    with pytest.raises(RulesError, match="only a hand of nothing but grey cards"):
        g.do("exchange")
    g = rig([["grey mirror", "brown double"], ["yellow 1", "yellow 2"]], "green 3")
    assert Action("exchange") not in g.state.legal_actions()


def test_grey_and_brown_start_cards_are_passed_over(rig):
    g = rig([["cyan 1"], ["yellow 1"]], "grey mirror", draw=["brown hijack", "green 7"])
    assert g.top() == "green 7"
    assert [g.spec.card(c).label for c in g.table.discard] == ["grey mirror", "brown hijack", "green 7"]
    assert g.who == 0


def test_a_direction_change_as_start_card_lets_the_player_behind_the_dealer_start(rig):
    g = rig([["cyan 1"], ["yellow 1"], ["magenta 1"]], "green direction change")
    assert g.table.direction == -1
    assert g.table.seats[g.table.dealer_seat] == 2
    assert g.who == 1


def test_an_offensive_start_card_is_the_dealers_attack(rig):
    g = rig([["cyan 1"], ["yellow 1"], ["magenta 1"]], "green +3")
    assert (g.who, g.kind) == (0, "attack")
    assert g.table.attack.owner == 2 and g.table.attack.amount == 3


def test_a_skip_start_card_skips_the_first_player(rig):
    g = rig([["cyan 1"], ["yellow 1"], ["magenta 1"]], "green skip")
    g.do("accept")
    assert (g.who, g.kind) == (1, "turn")


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top(deck):
    t = Table.new(deck, 2)
    t.hands = [[], []]
    t.discard = [5, 6, 7]
    t.draw_pile = []
    ops = TableOps(t)
    gen = ops._draw(0, 3)
    req = next(gen)
    assert req.kind == "shuffle" and req.cards == (5, 6)
    assert sorted(t.all_cards()) == [5, 6, 7]  # cards are on the table while shuffling
    try:
        gen.send(Action(CHANCE_KIND, cards=(6, 5)))
    except StopIteration as stop:
        got = stop.value
    assert got == [5, 6] and t.discard == [7] and t.hands[0] == [5, 6]


def test_the_round_ends_without_winner_when_nobody_can_play_or_draw(rig):
    g = rig([["cyan 1"], ["yellow 2"]], "green 3", target=1000)
    g.table.draw_pile.clear()  # a table where every other card is gone
    g.do("draw")  # nothing comes
    assert (g.who, g.kind) == (1, "turn")
    assert g.state.legal_actions() == [Action("pass")]
    with pytest.raises(RulesError, match="nothing left to draw"):
        g.do("draw")
    g.do("pass")
    g.do("pass")
    result = g.state.rounds[0]
    assert result.stalled and result.winners == () and result.hand_points == (1, 2)


def test_a_player_who_sits_out_may_still_throw_in(rig):
    # issue 16: "Dazwischenwerfen darf er weiterhin" — P1 sits out twice (skip + double) and
    # must still be asked when the exact same card is laid just before their lost turn
    hands = [
        ["magenta skip", "magenta 7", "green 1"],
        ["magenta 7", "cyan 1", "cyan 2"],
        ["brown double", "magenta 5", "yellow 1"],
    ]
    g = rig(hands, "magenta 4")
    g.play("magenta skip")
    g.do("brown", "brown double")
    g.do("accept")
    assert (g.who, g.kind) == (2, "turn") and g.table.skips[1] == 1
    g.play("magenta 5")
    assert (g.who, g.kind) == (0, "turn")
    g.play("magenta 7")
    assert (g.who, g.kind) == (1, "window")
    g.do("interject", "magenta 7")
    assert (g.who, g.kind) == (2, "turn") and g.hand(1) == ["cyan 1", "cyan 2"]


def test_the_player_who_really_plays_next_gets_no_window(rig):
    # P1 sits out, so P2 is the one to act next: P2 simply plays the card at their turn
    hands = [["green skip", "green 5"], ["cyan 1", "cyan 2"], ["green 5", "yellow 1"]]
    g = rig(hands, "green 4")
    g.play("green skip")
    g.do("accept")
    assert (g.who, g.kind) == (2, "turn")


def test_the_dealer_may_throw_in_on_the_start_card(rig):
    # the start card comes from the pile, so the dealer (P2) holding the same card is asked
    g = rig([["cyan 1", "cyan 2"], ["yellow 1", "yellow 2"], ["green 3", "magenta 8"]], "green 3")
    assert (g.who, g.kind) == (2, "window")
    g.do("interject", "green 3")
    assert (g.who, g.kind) == (0, "turn") and g.hand(2) == ["magenta 8"]
