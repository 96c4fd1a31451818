"""The Doppelt so clever state machine: turns, platter, passive picks, actions, bonuses, rounds, end."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clever.actions import PASS, REROLL, ROLL, Action
from rules.clever.game import (
    ACTIVE_PICK,
    BEFORE_ROLL,
    CHANCE,
    PASSIVE_PICK,
    PENDING,
    PLUS_ONE,
    TERMINAL,
    CleverGame,
    replay,
)
from rules.common.errors import RulesError, SpecError
from rules.common.rng import child_rng
from rules.contract import chance_step


def new(players=1):
    return CleverGame(players).new_initial_state()


def find(state, kind="choose", **fields):
    """The one legal action of ``kind`` whose fields match (fails if not exactly one)."""
    hits = [
        a
        for a in state.legal_actions()
        if a.kind == kind and all(getattr(a, k) == v for k, v in fields.items())
    ]
    assert len(hits) == 1, (kind, fields, state.legal_actions())
    return hits[0]


def play_first_legal(state, rng):
    """Finish a game: random rolls, always the first legal action."""
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(state.legal_actions()[0])
    return state


# ------------------------------------------------------------------ start, chance, rounds
def test_start_gives_round_one_reroll_and_a_roll_of_all_six():
    s = new()
    assert s.round == 1 and s.sheets[0].rerolls == 1
    assert s.current_player() == CHANCE and s.is_chance_node()
    assert s.chance_dice() == ("white", "silver", "yellow", "blue", "green", "pink")
    assert s.legal_actions() == []


@pytest.mark.parametrize(
    "values, reason",
    [((1, 2, 3), "needs 6 values"), ((1, 2, 3, 4, 5, 7), "1-6"), ((0, 1, 1, 1, 1, 1), "1-6")],
)
def test_roll_from_outside_is_checked(values, reason):
    s = new()
    with pytest.raises(RulesError, match=reason):
        s.apply_chance(values)
    assert s.is_chance_node() and s.log == []


def test_no_roll_and_no_action_out_of_turn():
    s = new()
    with pytest.raises(RulesError, match="dice must be rolled"):
        s.apply_action(PASS)
    s.apply_chance((1, 2, 3, 4, 5, 6))
    with pytest.raises(RulesError, match="no roll is pending"):
        s.apply_chance((1, 2, 3, 4, 5, 6))


@pytest.mark.parametrize("players, rounds", [(1, 6), (2, 6), (3, 5), (4, 4)])
def test_rounds_by_player_count_and_everyone_active_once_per_round(players, rounds):
    s = new(players)
    rng = child_rng(5, players)
    turns = set()
    while not s.is_terminal():
        if s.is_chance_node():
            chance_step(s, rng)
        else:
            if s.phase == ACTIVE_PICK:
                turns.add((s.round, s.active))
            s.apply_action(s.legal_actions()[0])
    assert s.game.rounds == rounds
    assert turns == {(r, p) for r in range(1, rounds + 1) for p in range(players)}
    assert s.current_player() == TERMINAL and s.legal_actions() == []


def test_five_players_are_refused():
    with pytest.raises(RulesError, match="1-4 players"):
        CleverGame(5)


def test_round_bonuses_reroll_plus_one_return_and_black_question_mark():
    s = new()
    rng = np.random.default_rng(1)
    seen = {}
    while s.round < 4:
        if s.is_chance_node():
            chance_step(s, rng)
        else:
            s.apply_action(PASS if PASS in s.legal_actions() else s.legal_actions()[0])
        seen.setdefault(s.round, (s.sheets[0].rerolls, s.sheets[0].plus_ones, s.sheets[0].returns))
    sheet = s.sheets[0]
    assert seen[1][0] >= 1 and seen[2][1] >= 1 and seen[3][2] >= 1
    # round 4 opens with the black "?": a free entry in any area, for the player, before the roll
    assert s.phase == PENDING and s.pending[0] == ("?", "any")
    areas = {a.area for a in s.legal_actions()}
    assert areas == {"silver", "yellow", "blue", "green", "pink"}
    assert PASS not in s.legal_actions()
    before = len(sheet.pink)
    s.apply_action(find(s, "mark", area="pink", value=6))
    assert len(sheet.pink) == before + 1 and s.is_chance_node()


# ------------------------------------------------------------------ the active player's picks
def test_pick_sends_lower_dice_to_the_platter_equal_dice_stay():
    s = new()
    s.apply_chance((4, 3, 1, 4, 5, 1))  # white silver yellow blue green pink
    s.apply_action(find(s, die="white", area="yellow", slot=4))
    assert s.fields == ["white"]
    assert s.platter == ["silver", "yellow", "pink"]
    assert s.hand == ["blue", "green"]
    assert s.picks == 1 and s.sheets[0].yellow[4] == 1
    assert s.is_chance_node() and s.chance_dice() == ("blue", "green")


def test_lowest_die_sends_nothing_and_three_picks_end_the_turn():
    s = new(2)
    s.apply_chance((2, 3, 4, 5, 6, 1))
    s.apply_action(find(s, die="pink"))
    assert s.platter == [] and len(s.hand) == 5
    s.apply_chance((2, 3, 4, 5, 6))
    s.apply_action(find(s, die="white", area="pink"))
    s.apply_chance((2, 3, 4, 5))
    s.apply_action(find(s, die="yellow", slot=0))  # yellow 3: silver 2 goes to the platter
    # third pick made: the dice still in hand go to the platter, then the passive player picks
    assert s.picks == 3 and s.fields == ["white", "yellow", "pink"] and s.hand == []
    assert s.platter == ["silver", "blue", "green"]
    assert s.phase == PASSIVE_PICK and s.decider == 1


def test_forfeit_counts_as_a_pick_and_moves_no_die():
    s = new()
    s.apply_chance((1, 1, 1, 1, 1, 1))
    s.apply_action(PASS)
    assert s.picks == 1 and s.fields == [] and s.platter == [] and len(s.hand) == 6
    assert s.is_chance_node() and len(s.chance_dice()) == 6


def test_a_die_that_fits_nowhere_cannot_be_chosen():
    s = new()
    for r in range(4):
        s.sheets[0].silver[r] = 0b111111
    s.apply_chance((1, 5, 1, 1, 1, 1))
    assert not [a for a in s.legal_actions() if a.die == "silver"]
    with pytest.raises(RulesError, match="already marked"):
        s.apply_action(Action("choose", "silver", "silver", 5, 0))


def test_white_is_wild_and_blue_always_adds_white():
    s = new()
    s.apply_chance((4, 3, 2, 5, 6, 1))
    white = {(a.area, a.value) for a in s.legal_actions() if a.die == "white"}
    assert white == {("silver", 4), ("yellow", 4), ("blue", 9), ("green", 4), ("pink", 4)}
    blue = {(a.area, a.value) for a in s.legal_actions() if a.die == "blue"}
    assert blue == {("blue", 9)}
    # after white went to a die field, blue still counts blue + white
    s.apply_action(find(s, die="white", area="pink"))
    s.apply_chance((5, 6))  # blue 5, green 6 (the lower dice went to the platter)
    assert {(a.area, a.value) for a in s.legal_actions() if a.die == "blue"} == {("blue", 9)}


def test_illegal_action_is_refused_and_changes_nothing():
    s = new()
    s.apply_chance((4, 3, 2, 5, 6, 1))
    log, phase = list(s.log), s.phase
    with pytest.raises(RulesError, match="counts as"):
        s.apply_action(Action("choose", "yellow", "pink", 2, None))
    with pytest.raises(RulesError, match="only possible before"):
        s.apply_action(Action("return", "yellow"))  # a return is not possible after the roll
    with pytest.raises(RulesError, match="not among the dice just rolled"):
        s.apply_action(Action("choose", "orange", "pink", 2, None))
    with pytest.raises(RulesError):
        s.apply_action("pass")
    assert s.log == log and s.phase == phase


# ------------------------------------------------------------------ silver platter marks
def test_choosing_silver_marks_the_dice_it_sends_to_the_platter():
    s = new()
    s.apply_chance((2, 5, 3, 1, 4, 6))  # white 2, silver 5, yellow 3, blue 1, green 4, pink 6
    s.apply_action(find(s, die="silver", slot=0))
    assert s.platter == ["white", "yellow", "blue", "green"] and s.hand == ["pink"]
    assert s.phase == PENDING
    # white: its own value in any row (wild)
    assert {a.slot for a in s.legal_actions() if a.kind == "mark"} == {0, 1, 2, 3}
    s.apply_action(find(s, "mark", die="white", slot=3))
    # yellow die 3: only the yellow row
    assert [(a.value, a.slot) for a in s.legal_actions() if a.kind == "mark"] == [(3, 0)]
    s.apply_action(PASS)  # each platter mark is optional
    # blue die: its own face (1), not blue + white, in the blue row
    assert [(a.value, a.slot) for a in s.legal_actions() if a.kind == "mark"] == [(1, 1)]
    s.apply_action(find(s, "mark", die="blue"))
    s.apply_action(find(s, "mark", die="green"))
    sheet = s.sheets[0]
    assert sheet.silver == [0b10000, 0b1, 0b1000, 0b10]
    assert s.is_chance_node() and s.chance_dice() == ("pink",)


def test_white_2_row_0_is_missing_because_silver_took_it():
    s = new()
    s.sheets[0].silver[0] = 0b10  # 2 already marked in the yellow row
    s.apply_chance((2, 5, 6, 6, 6, 6))
    s.apply_action(find(s, die="silver", slot=1))
    assert {a.slot for a in s.legal_actions() if a.kind == "mark"} == {1, 2, 3}


def test_white_as_silver_marks_the_silver_die_in_any_row():
    s = new()
    s.apply_chance((5, 2, 6, 6, 6, 6))
    s.apply_action(find(s, die="white", area="silver", slot=0))
    assert s.pending == [("platter", "silver", 2)]
    assert {a.slot for a in s.legal_actions() if a.kind == "mark"} == {0, 1, 2, 3}


def test_other_choices_and_passive_or_plus_one_silver_mark_nothing_more():
    s = new()
    s.sheets[0].plus_ones = 1
    s.apply_chance((2, 5, 3, 1, 4, 6))
    s.apply_action(find(s, die="pink", area="pink"))  # pink 6: all others go to the platter
    assert s.pending == [] and s.phase == PLUS_ONE
    s.apply_action(find(s, die="silver", slot=1))  # silver by +1: one mark, nothing more
    assert s.pending == [] and s.sheets[0].silver == [0, 0b10000, 0, 0]
    assert s.is_chance_node() and s.solo_passive
    s.apply_chance((6, 1, 2, 6, 3, 6))
    assert s.phase == PASSIVE_PICK and s.platter == ["silver", "yellow", "green"]
    s.apply_action(find(s, die="silver", slot=2))  # silver from the platter: one mark, nothing more
    assert s.pending == [] and s.sheets[0].silver == [0, 0b10000, 0b1, 0]


# ------------------------------------------------------------------ reroll and return
def test_reroll_only_with_an_action_rerolls_the_dice_just_rolled():
    s = new()
    s.apply_chance((1, 1, 1, 1, 1, 1))
    s.apply_action(find(s, die="pink"))  # nothing is lower: five dice stay in hand
    s.apply_chance((1, 1, 1, 1, 1))
    assert REROLL in s.legal_actions()
    s.apply_action(REROLL)
    assert s.sheets[0].rerolls == 0
    assert s.is_chance_node() and s.chance_dice() == ("white", "silver", "yellow", "blue", "green")
    s.apply_chance((6, 6, 6, 6, 6))
    assert REROLL not in s.legal_actions()
    with pytest.raises(RulesError, match="no reroll action"):
        s.apply_action(REROLL)


def test_return_brings_a_platter_die_back_before_a_roll():
    s = new()
    s.sheets[0].returns = 1
    s.apply_chance((4, 3, 1, 4, 5, 1))
    s.apply_action(find(s, die="white", area="yellow", slot=4))
    assert s.phase == BEFORE_ROLL
    assert set(s.legal_actions()) == {
        Action("return", "silver"),
        Action("return", "yellow"),
        Action("return", "pink"),
        ROLL,
    }
    s.apply_action(Action("return", "yellow"))
    assert s.sheets[0].returns == 0 and s.platter == ["silver", "pink"]
    assert s.is_chance_node() and s.chance_dice() == ("yellow", "blue", "green")


def test_return_with_an_empty_hand_lets_the_turn_go_on_or_end():
    s = new()
    s.sheets[0].returns = 1
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))  # pink 6: everything else to the platter
    assert s.hand == [] and s.phase == BEFORE_ROLL
    assert PASS in s.legal_actions() and ROLL not in s.legal_actions()
    s.apply_action(Action("return", "green"))
    assert s.is_chance_node() and s.chance_dice() == ("green",)


def test_without_return_an_empty_hand_ends_the_active_turn():
    s = new()
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    assert s.is_chance_node() and s.solo_passive


# ------------------------------------------------------------------ passive players
def _two_player_turn_done(active_roll=(1, 2, 3, 4, 5, 6)):
    """Two players; player 1 picks pink 6 (everything else to the platter)."""
    s = new(2)
    s.apply_chance(active_roll)
    s.apply_action(find(s, die="pink"))
    return s


def test_each_passive_player_picks_from_the_platter_and_may_take_the_same_die():
    s = new(3)
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    assert s.phase == PASSIVE_PICK and s.decider == 1
    assert {a.die for a in s.legal_actions() if a.kind == "choose"} == {
        "white",
        "silver",
        "yellow",
        "blue",
        "green",
    }
    s.apply_action(find(s, die="green"))
    assert s.phase == PASSIVE_PICK and s.decider == 2
    s.apply_action(find(s, die="green"))
    assert s.sheets[1].green == [5] and s.sheets[2].green == [5]
    assert s.is_chance_node() and s.active == 1


def test_passive_fallback_to_the_active_players_dice_only_if_no_platter_die_fits():
    s = new(2)
    p = s.sheets[1]
    for r in range(4):
        p.silver[r] |= 1 << 1  # silver 2 marked everywhere
    p.yellow[2] = 2  # yellow 1 crossed
    p.blue = [2]  # blue 4 + white 6 = 10 does not fit
    p.green = [1] * 12
    p.pink = [1] * 12
    s.apply_chance((6, 2, 1, 4, 3, 5))  # white 6 is the highest
    s.apply_action(find(s, die="white", area="pink"))
    assert s.platter == ["silver", "yellow", "blue", "green", "pink"]
    assert s.phase == PASSIVE_PICK and s.decider == 1 and s.passive_fallback()
    legal = s.legal_actions()
    assert {a.die for a in legal if a.kind == "choose"} == {"white"} and PASS in legal


def test_no_fallback_when_a_platter_die_fits():
    s = _two_player_turn_done()
    assert not s.passive_fallback()
    assert "pink" not in {a.die for a in s.legal_actions() if a.kind == "choose"}
    s.apply_action(PASS)  # passing voluntarily: nothing from the die fields
    assert s.is_chance_node() and s.active == 1


def test_passive_players_have_no_reroll():
    s = _two_player_turn_done()
    s.sheets[1].rerolls = 3
    assert REROLL not in s.legal_actions()


# ------------------------------------------------------------------ +1 extra die
def test_plus_one_at_end_of_turn_any_die_each_once():
    s = new()
    s.sheets[0].plus_ones = 2
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    assert s.phase == PLUS_ONE
    dice = {a.die for a in s.legal_actions() if a.kind == "choose"}
    assert dice == {"white", "silver", "yellow", "blue", "green", "pink"}  # platter and die fields alike
    s.apply_action(find(s, die="green"))
    assert s.sheets[0].plus_ones == 1 and s.phase == PLUS_ONE
    assert "green" not in {a.die for a in s.legal_actions() if a.kind == "choose"}
    s.apply_action(PASS)
    assert s.is_chance_node() and s.solo_passive and s.sheets[0].plus_ones == 1


def test_plus_one_for_every_player_active_first():
    s = new(2)
    s.sheets[0].plus_ones = 1
    s.sheets[1].plus_ones = 1
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    s.apply_action(PASS)  # passive player 2 takes nothing
    assert s.phase == PLUS_ONE and s.decider == 0
    s.apply_action(PASS)
    assert s.phase == PLUS_ONE and s.decider == 1
    s.apply_action(find(s, die="pink"))
    assert s.sheets[1].pink == [6] and s.is_chance_node() and s.active == 1


# ------------------------------------------------------------------ bonuses chain
def test_bonuses_chain_and_are_resolved_first_come_first_served():
    s = new()
    sheet = s.sheets[0]
    sheet.yellow[1] = 1  # the 6 of yellow row 0 is circled
    sheet.yellow[4] = sheet.yellow[8] = 1  # yellow column 1 misses only the 3
    sheet.blue = [12, 12]
    s.apply_chance((6, 6, 3, 6, 6, 6))
    s.apply_action(find(s, die="yellow", slot=0))  # circles 3: row 0 -> ?blue, column 1 -> +1
    assert sheet.plus_ones == 1
    assert s.phase == PENDING and s.pending == [("?", "blue")]
    assert PASS not in s.legal_actions()
    with pytest.raises(RulesError, match="must be used"):
        s.apply_action(PASS)
    assert sorted(a.value for a in s.legal_actions()) == list(range(2, 13))
    s.apply_action(find(s, "mark", area="blue", value=11))  # blue box 3 -> ?yellow
    assert s.pending == [("?", "yellow")]
    s.apply_action(find(s, "mark", area="yellow", slot=1))  # cross the circled 6
    assert sheet.yellow[1] == 2 and sheet.blue == [12, 12, 11]
    assert s.is_chance_node()


def test_a_bonus_that_cannot_be_used_is_lost():
    s = new()
    sheet = s.sheets[0]
    sheet.pink = [1, 1, 1, 1, 1]  # next pink box (6) pays ?green at 5 or more
    sheet.green = [1] * 12  # green is full
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    assert s.pending == [] and s.phase != PENDING


def test_foxes_and_actions_are_credited_at_once():
    s = new()
    sheet = s.sheets[0]
    sheet.blue = [12] * 8  # box 9 pays a fox
    s.apply_chance((6, 1, 1, 6, 1, 1))
    s.apply_action(find(s, die="blue"))
    assert sheet.foxes == 1


# ------------------------------------------------------------------ the solo passive step
def test_solo_passive_step_three_lowest_to_the_platter():
    s = new()
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    assert s.chance_dice() == s.spec.dice
    s.apply_chance((3, 1, 3, 2, 6, 1))
    assert s.platter == ["silver", "blue", "pink"] and s.fields == ["white", "yellow", "green"]
    assert s.phase == PASSIVE_PICK and REROLL not in s.legal_actions()


def test_solo_passive_ties_go_by_die_order():
    s = new()
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    s.apply_chance((2, 1, 2, 5, 2, 6))  # three 2s compete for two places
    assert s.platter == ["white", "silver", "yellow"]


def test_solo_round_is_active_turn_then_passive_step():
    s = new()
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(find(s, die="pink"))
    s.apply_chance((1, 2, 3, 4, 5, 6))
    s.apply_action(PASS)
    assert s.round == 2 and s.is_chance_node() and not s.solo_passive


# ------------------------------------------------------------------ end and winners
def test_winner_highest_total_then_highest_single_area_then_shared():
    s = new(3)
    a, b, c = s.sheets
    a.pink = [6, 6, 6]  # 18 in one area
    b.pink = [6, 6]
    b.silver[0] = 0b11  # 12 + 4 = 16 ... plus 2 below
    b.green = [1, 0]  # 2 - 0 = 2 -> total 18, best area 12
    c.pink = [6, 6, 6]
    assert s.scores() == [18, 18, 18]
    assert s.winners() == [0, 2]
    c.pink = [6, 6, 5]
    assert s.winners() == [0]


def test_terminal_state_reports_totals():
    s = play_first_legal(new(2), np.random.default_rng(3))
    assert s.is_terminal() and s.returns() == [float(t) for t in s.scores()]
    with pytest.raises(RulesError, match="game is over"):
        s.apply_action(PASS)


# ------------------------------------------------------------------ property: the log replays identically
@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_scores_are_recomputed_identically_from_the_log(players, seed):
    rng = np.random.default_rng(seed)
    s = new(players)
    while not s.is_terminal():
        if s.is_chance_node():
            chance_step(s, rng)
        else:
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
    again = replay(s.to_json())
    assert again.is_terminal()
    assert again.scores() == s.scores()
    assert [x.to_dict() for x in again.sheets] == [x.to_dict() for x in s.sheets]


def test_a_tampered_log_is_refused():
    s = play_first_legal(new(1), np.random.default_rng(4))
    data = s.to_json()
    data["log"][1] = {"player": 0, "action": {"kind": "return", "die": "pink"}}
    with pytest.raises(SpecError) as info:
        replay(data)
    assert info.value.element == "log[1]"
    data["log"][1] = {"pick": 3}  # neither a roll nor a decision: said in words, not Python dicts
    with pytest.raises(SpecError, match=r'a roll \("roll": the dice\) or a decision') as info:
        replay(data)
    assert "{" not in str(info.value)
    with pytest.raises(SpecError, match="format: not a Doppelt so clever log"):
        replay({"format": "x"})
