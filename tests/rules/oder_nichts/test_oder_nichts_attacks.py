"""Attacks: every offensive, grey and brown card, passing on, tasks, and a last card that attacks."""

from __future__ import annotations

import pytest

from rules.common.errors import RulesError
from rules.oder_nichts.actions import Action

FILL = ["magenta 1", "magenta 2", "magenta 3"]


def test_draw3_accepted_then_the_target_takes_their_turn(rig):
    g = rig([["green +3", "green 1"], ["cyan 5", "cyan 6"]], "green 4")
    g.play("green +3")
    assert (g.who, g.kind) == (1, "attack")
    assert g.state.legal_actions() == [Action("accept")]
    g.do("accept")
    assert g.kind == "task" and g.pending.info["cards"] == 3
    g.do("draw")
    assert len(g.table.hands[1]) == 5
    assert (g.who, g.kind) == (1, "turn")
    assert g.top() == "green +3"


@pytest.mark.parametrize("success, drawn", [(True, 0), (False, 6)])
def test_double_or_nothing(rig, success, drawn):
    g = rig([["green +3", "green 1"], ["cyan 5", "cyan 6"]], "green 4")
    g.play("green +3")
    g.do("accept")
    g.do("attempt")
    req = g.pending
    assert req.kind == "task" and req.player == 1
    task = g.spec.tasks[g.spec.card(g.table.discard[-1]).task]
    assert req.probability == task.success and req.info["text"] == task.text
    assert req.info["opponent"] == 0
    g.task(success)
    assert len(g.table.hands[1]) == 2 + drawn


def test_every_task_of_the_stack_must_be_managed(rig):
    g = rig([["green +3", "green +3", "green 1"], ["cyan 5", "cyan 6", "cyan 7"]], "green 4")
    g.play("green +3", "green +3")
    g.do("accept")
    g.do("attempt")
    g.task(True)
    assert g.pending.kind == "task"  # the second card's task
    g.task(False)
    assert len(g.table.hands[1]) == 3 + 12


def test_stacking_with_the_same_symbol_in_any_colour(rig):
    g = rig([["green +3", "green 1"], ["cyan +3", "cyan +5"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green +3")
    with pytest.raises(
        RulesError, match=r"only a \+3 card \(any colour\) passes this attack on; cyan \+5 does not"
    ):
        g.do("stack", "cyan +5")
    g.do("stack", "cyan +3")
    att = g.table.attack
    assert (att.owner, att.target, att.amount) == (1, 2, 6)
    g.do("accept")
    g.do("draw")
    assert len(g.table.hands[2]) == 8


def test_two_identical_offensive_cards_count_double(rig):
    g = rig([["green +3", "green +3", "green 1"], FILL, ["yellow 1", "yellow 2", "yellow 3"]], "green 4")
    g.play("green +3", "green +3")
    assert g.table.attack.amount == 6 and g.table.attack.target == 1


def test_interjecting_the_same_offensive_card_passes_it_on(rig):
    g = rig(
        [["green +3", "green 1"], ["cyan 5", "cyan 6"], ["green +3", "yellow 2"], ["yellow 4", "yellow 5"]],
        "green 4",
    )
    g.play("green +3")
    assert (g.who, g.kind) == (2, "window")
    g.do("interject", "green +3")
    att = g.table.attack
    assert (att.owner, att.target, att.amount) == (2, 3, 6)


def test_dodge_hits_the_next_player(rig):
    g = rig([["green +3", "green 1"], ["grey dodge", "cyan 6"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green +3")
    g.do("defend", "grey dodge")
    att = g.table.attack
    assert att.target == 2 and 1 in att.absent
    assert g.spec.card(g.table.discard[0]).label == "grey dodge"
    assert g.top() == "green +3"  # grey cards go under the pile


def test_dodge_back_to_the_owner_and_no_further(rig):
    g = rig([["green +3", "grey dodge"], ["grey dodge", "cyan 6"]], "green 4")
    g.play("green +3")
    g.do("defend", "grey dodge")
    assert g.table.attack.target == 0  # the owner is hit by their own card
    assert Action("defend", g.ids(0, ["grey dodge"])) not in g.state.legal_actions()
    with pytest.raises(RulesError, match="nobody is left to dodge to"):
        g.do("defend", "grey dodge")


def test_you_chooses_any_other_player(rig):
    g = rig([["green +3", "green 1"], ["grey you!", "cyan 6"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green +3")
    targets = sorted(a.target for a in g.state.legal_actions() if a.kind == "defend")
    assert targets == [0, 2]
    g.do("defend", "grey you!", target=0)
    assert g.table.attack.target == 0 and g.table.attack.owner == 0


def test_mirror_turns_a_passed_on_stack_back_to_who_laid_the_last_card(rig):
    hands = [
        ["green +3", "green 1"],
        ["cyan +3", "cyan 6"],
        ["grey mirror", "yellow 2"],
        ["yellow 4", "yellow 5"],
    ]
    g = rig(hands, "green 4")
    g.play("green +3")
    g.do("stack", "cyan +3")
    assert g.table.attack.target == 2
    g.do("defend", "grey mirror")
    assert g.table.direction == -1
    att = g.table.attack
    assert (att.target, att.amount) == (1, 6)
    g.do("accept")
    g.do("draw")
    assert len(g.table.hands[1]) == 1 + 6
    assert (g.who, g.kind) == (1, "turn")  # the direction stays reversed
    assert g.table.next_player(1) == 0


def test_who_is_unlucky_the_minority_is_the_target(rig):
    g = rig([["green +3", "green 1"], ["grey who is unlucky", "cyan 6"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green +3")
    g.do("defend", "grey who is unlucky")
    assert [g.who, g.kind] == [1, "gesture"]
    g.do("gesture", choice="up")  # P1
    g.do("gesture", choice="up")  # P2
    g.do("gesture", choice="up")  # P0: everybody the same -> again
    assert g.kind == "gesture" and g.who == 1
    g.do("gesture", choice="up")
    g.do("gesture", choice="down")
    g.do("gesture", choice="up")
    assert g.table.attack.target == 2


def test_who_is_unlucky_two_left_play_rock_paper_scissors(rig):
    g = rig([["green +3", "green 1"], ["grey who is unlucky", "cyan 6"]], "green 4")
    g.play("green +3")
    g.do("defend", "grey who is unlucky")
    assert g.kind == "rps"
    g.do("rps", choice="rock")  # P1
    g.do("rps", choice="rock")  # P0: a draw
    g.do("rps", choice="rock")
    g.do("rps", choice="paper")
    assert g.table.attack.target == 1  # rock loses to paper


def test_only_one_brown_card_per_offensive_card(rig):
    hands = [["green +3", "green 1"], ["cyan +3", "brown hijack"], ["brown double", "yellow 2"], FILL[:2]]
    g = rig(hands, "green 4")
    g.play("green +3")
    assert (g.who, g.kind) == (2, "window")
    g.do("brown", "brown double")
    assert g.table.attack.amount == 6
    assert (g.who, g.kind) == (1, "attack")
    assert not any(a.kind == "brown" for a in g.state.legal_actions())
    with pytest.raises(RulesError, match="only one brown card may be laid on each offensive card"):
        g.do("brown", "brown hijack", target=3)
    g.do("stack", "cyan +3")  # a new offensive card: a brown card may be laid again
    assert g.table.attack.brown_open and g.table.attack.amount == 9
    assert g.spec.card(g.table.discard[0]).label == "brown double"


def test_no_brown_card_on_your_own_offensive_card(rig):
    g = rig([["green +3", "brown double"], ["grey mirror", "cyan 6"]], "green 4")
    g.play("green +3")
    assert (g.who, g.kind) == (1, "attack")  # the owner is not asked
    g.do("defend", "grey mirror")
    assert (g.who, g.kind) == (0, "attack")
    assert not any(a.kind == "brown" for a in g.state.legal_actions())
    with pytest.raises(RulesError, match="laid yourself"):
        g.do("brown", "brown double")


def test_hijack_makes_you_the_owner_with_a_new_target(rig):
    hands = [["green +3", "green 1"], ["cyan 5", "cyan 6"], ["brown hijack", "yellow 2"]]
    g = rig(hands, "green 4")
    g.play("green +3")
    g.do("brown", "brown hijack", target=0)
    att = g.table.attack
    assert (att.owner, att.target, att.brown_open) == (2, 0, False)
    g.do("accept")
    g.do("attempt")
    assert g.pending.info["opponent"] == 2  # tasks against "the player who played this card"


def test_double_doubles_the_whole_stack(rig):
    hands = [
        ["green +3", "green 1"],
        ["cyan +3", "cyan 6"],
        ["yellow 1", "yellow 2"],
        ["brown double", "magenta 5"],
    ]
    g = rig(hands, "green 4")
    g.play("green +3")
    g.until(1, "attack")
    g.do("stack", "cyan +3")
    assert (g.who, g.kind) == (3, "window")
    g.do("brown", "brown double")
    g.do("accept")
    g.do("draw")
    assert len(g.table.hands[2]) == 2 + 12


def test_double_on_skip_means_sitting_out_twice(rig):
    hands = [["green skip", "green 1"], ["cyan 5", "cyan 6"], ["brown double", "yellow 2"]]
    g = rig(hands, "green 4")
    g.play("green skip")
    g.do("brown", "brown double")
    g.do("accept")
    assert g.table.skips[1] == 1  # one sat out now, one still to come
    assert (g.who, g.kind) == (2, "turn")


def test_double_on_20_minus_and_on_magnet(rig):
    g = rig(
        [["magenta 20 minus", "green 1"], ["cyan 5", "cyan 6"], ["brown double", "yellow 2"]], "magenta 4"
    )
    g.play("magenta 20 minus")
    g.do("brown", "brown double")
    g.do("accept")
    assert g.table.minus == [0, 40, 0]
    hands = [
        ["magenta magnet", "green 1", "green 2", "cyan 9"],
        ["cyan 5", "cyan 6", "cyan 7", "cyan 8"],
        ["brown double", "yellow 2", "magenta 9", "magenta 8"],
    ]
    g = rig(hands, "magenta 4")
    g.play("magenta magnet")
    g.do("brown", "brown double")
    g.do("accept")
    g.do("name", number=1)
    assert g.kind == "magnet"
    with pytest.raises(RulesError, match="not named yet"):
        g.do("name", number=1)
    g.do("name", number=2)
    assert g.hand(1) == ["cyan 5", "cyan 6", "cyan 7", "cyan 8", "green 1", "green 2", "yellow 2"]
    assert g.hand(0) == ["cyan 9"] and g.hand(2) == ["magenta 8", "magenta 9"]


def test_double_on_away_from_keyboard_means_twice_away(rig):
    g = rig(
        [["yellow away from keyboard", "green 1"], ["cyan 5", "cyan 6"], ["brown double", "yellow 2"]],
        "yellow 4",
    )
    g.play("yellow away from keyboard")
    g.do("brown", "brown double")
    g.do("accept")
    assert (g.who, g.kind) == (2, "turn")
    assert g.table.away[1] == 2  # missed one turn, misses one more, then back


def test_not_me_hits_everybody_else_without_defence(rig):
    hands = [["green +3", "green 1"], ["brown not me", "cyan 6"], ["grey mirror", "yellow 2"]]
    g = rig(hands, "green 4")
    g.play("green +3")
    g.do("brown", "brown not me")
    # everybody but P1, in play order from the original target: P2, then P0 (the owner)
    assert (g.who, g.kind) == (2, "task")
    assert g.state.legal_actions() == [Action("draw"), Action("attempt")]  # no grey card now
    g.do("draw")
    assert (g.who, g.kind) == (0, "task")
    g.do("attempt")
    assert g.pending.info["opponent"] == 1  # the "not me" player stands in against the owner
    g.task(False)
    assert [len(h) for h in g.table.hands] == [1 + 6, 1, 2 + 3]
    assert g.table.attack is None
    assert (g.who, g.kind) == (1, "turn")  # the original target continues


def test_not_me_thrown_in_by_a_bystander(rig):
    hands = [["magenta 20 minus", "green 1"], ["cyan 5", "cyan 6"], ["brown not me", "yellow 2"]]
    g = rig(hands, "magenta 4")
    g.play("magenta 20 minus")
    assert (g.who, g.kind) == (2, "window")
    g.do("brown", "brown not me")
    assert g.table.minus == [20, 20, 0]
    assert (g.who, g.kind) == (1, "turn")


def test_skip_the_target_sits_out(rig):
    g = rig([["green skip", "green 1"], ["cyan 5", "cyan 6"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green skip")
    g.do("accept")
    assert (g.who, g.kind) == (2, "turn")
    assert "P1 sits out this turn" in g.events()


def test_two_skips_together_two_players_sit_out(rig):
    g = rig(
        [
            ["green skip", "green skip", "green 1"],
            ["cyan 5", "cyan 6", "cyan 7"],
            ["yellow 1", "yellow 2", "yellow 3"],
        ],
        "green 4",
    )
    g.play("green skip", "green skip")
    g.do("accept")
    assert (g.who, g.kind) == (0, "turn")
    assert {"P1 sits out this turn", "P2 sits out this turn"} <= set(g.events())


def test_skip_passed_on_with_another_skip(rig):
    g = rig([["green skip", "green 1"], ["cyan skip", "cyan 6"], ["yellow 1", "yellow 2"]], "green 4")
    g.play("green skip")
    g.do("stack", "cyan skip")
    assert g.table.attack.target == 2
    g.do("accept")
    # two skip cards: P2 and the player after them (P0) sit out, P1 plays
    assert (g.who, g.kind) == (1, "turn")


def test_20_minus_goes_straight_to_the_score(rig):
    g = rig(
        [["magenta 20 minus", "green 1"], ["cyan 20 minus", "cyan 6"], ["yellow 1", "yellow 2"]], "magenta 4"
    )
    g.play("magenta 20 minus")
    g.do("stack", "cyan 20 minus")
    g.do("accept")
    assert g.table.minus == [0, 0, 40]


def test_away_from_keyboard_passed_over_until_the_next_own_turn(rig):
    hands = [
        ["yellow away from keyboard", "green 1", "yellow 8"],
        ["cyan 5", "yellow 5", "yellow 6"],
        ["yellow 1", "yellow +3", "yellow 2"],
        ["yellow 7", "magenta 2", "magenta 3"],
    ]
    g = rig(hands, "yellow 4")
    g.play("yellow away from keyboard")
    g.do("accept")
    assert g.table.away[1] == 1
    assert (g.who, g.kind) == (2, "turn")
    g.play("yellow +3")
    assert g.table.attack.target == 3
    g.do("accept")
    g.do("draw")
    g.play("yellow 7")
    g.play("yellow 8")
    assert (g.who, g.kind) == (1, "turn") and g.table.away[1] == 0  # back at the keyboard
    assert "P1 is back at the keyboard" in g.events()


def test_an_away_player_is_passed_over_by_attacks_and_windows(rig):
    hands = [
        ["yellow away from keyboard", "yellow +3", "green 1"],
        ["yellow 1", "cyan 6", "brown double"],
        ["yellow 1", "yellow 2", "yellow 3"],
    ]
    g = rig(hands, "yellow 4")
    g.play("yellow away from keyboard")
    g.do("accept")
    assert not g.table.present(1)
    g.play("yellow 1")  # P2; P1 holds the same card but is away: no window
    assert (g.who, g.kind) == (0, "turn")
    g.play("yellow +3")  # P1 is away: the attack passes to P2, and P1 throws no brown card
    assert (g.who, g.kind) == (2, "attack") and g.table.attack.target == 2


def test_magnet_names_a_number_and_pulls_it_from_every_hand(rig):
    hands = [
        ["magenta magnet", "green 5", "cyan 1"],
        ["cyan 8", "cyan 6", "cyan 7"],
        ["yellow 5", "magenta 5", "yellow 9"],
    ]
    g = rig(hands, "magenta 4")
    g.play("magenta magnet")
    g.do("accept")
    assert g.kind == "magnet" and [a.number for a in g.state.legal_actions()] == list(range(1, 10))
    with pytest.raises(RulesError, match="name a number 1-9"):
        g.do("name", number=0)
    g.do("name", number=5)
    assert g.hand(1) == ["cyan 6", "cyan 7", "cyan 8", "green 5", "magenta 5", "yellow 5"]
    assert g.hand(0) == ["cyan 1"] and g.hand(2) == ["yellow 9"]
    assert g.table.named == [5]


def test_magnet_names_a_colour_once_all_numbers_are_named(rig):
    hands = [
        ["magenta magnet", "green 5", "cyan 1"],
        ["cyan 8", "cyan 6", "cyan 7"],
        ["yellow 5", "magenta 5", "yellow 9"],
    ]
    g = rig(hands, "magenta 4")
    g.play("magenta magnet")
    g.table.named = list(range(1, 10))
    g.do("accept")
    assert [a.colour for a in g.state.legal_actions()] == ["magenta", "cyan", "yellow", "green"]
    g.do("name", colour="yellow")
    assert g.hand(1) == ["cyan 6", "cyan 7", "cyan 8", "yellow 5", "yellow 9"]


def test_a_last_card_that_attacks_is_carried_out_and_ends_the_round(rig):
    g = rig([["green +3"], ["cyan 5"]], "green 4", draw=["cyan 1", "cyan 2", "cyan 3"], target=1000)
    g.play("green +3")
    g.do("accept")
    g.do("draw")
    result = g.state.rounds[0]
    assert result.winners == (0,) and result.hand_points == (0, 5 + 1 + 2 + 3)
    assert g.state.is_chance_node() and g.pending.kind == "shuffle"  # the next round


def test_a_mirrored_last_attack_brings_the_player_back_into_the_round(rig):
    hands = [["green +3", "green 1", "green 2"], ["grey mirror", "cyan 9", "green 6"]]
    g = rig(hands, "green 4", draw=["yellow 5", "cyan 1", "cyan 2", "cyan 3"])
    g.play("green 1")
    g.play("green 6")
    g.play("green 2")
    g.do("draw")  # P1 draws yellow 5, which does not fit
    g.play("green +3")  # P0's last card
    assert g.table.hands[0] == []
    g.do("defend", "grey mirror")
    assert (g.who, g.kind) == (0, "attack")
    g.do("accept")
    g.do("draw")
    assert g.state.rounds == []  # everybody holds cards again: the round goes on
    assert (g.who, g.kind) == (0, "turn") and len(g.table.hands[0]) == 3


def test_a_defender_who_lays_their_last_card_wins_after_the_attack(rig):
    hands = [["green +3", "green 1"], ["grey mirror", "green 6"]]
    g = rig(hands, "green 4", draw=["cyan 1", "cyan 2", "cyan 3"], target=1000)
    g.play("green 1")
    g.play("green 6")
    g.play("green +3")  # P0's last card
    g.do("defend", "grey mirror")  # P1's last card
    g.do("accept")
    g.do("draw")
    result = g.state.rounds[0]
    assert result.winners == (1,) and result.hand_points == (6, 0)


def test_a_magnet_that_empties_a_hand_ends_the_round(rig):
    hands = [["magenta magnet", "green 1"], ["cyan 5", "cyan 6"], ["yellow 3", "magenta 8"]]
    g = rig(hands, "magenta 4", target=1000)
    g.play("magenta magnet")
    g.do("accept")
    g.do("name", number=1)  # P0's last card goes to P1
    result = g.state.rounds[0]
    assert result.winners == (0,) and result.hand_points == (0, 12, 11)


def test_two_skips_in_a_two_player_game_make_the_target_sit_out_twice(rig):
    # issue 16: hitting "the next two players" would hit the layer too and cancel the card;
    # the second skip goes to the target again, so the layer plays twice in a row
    hands = [["green skip", "green skip", "green 1", "green 2"], ["cyan 5", "cyan 6", "cyan 7", "cyan 8"]]
    g = rig(hands, "green 4")
    g.play("green skip", "green skip")
    g.do("accept")
    assert (g.who, g.kind) == (0, "turn") and g.table.skips == [0, 1]
    g.play("green 1")
    assert (g.who, g.kind) == (0, "turn") and g.table.skips == [0, 0]
