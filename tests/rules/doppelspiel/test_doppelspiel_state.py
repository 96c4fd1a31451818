"""The state machine: turn flow, chance nodes, every extra, Zwang, Aussetzen and the end."""

from __future__ import annotations

import numpy as np
import pytest
from doppelspiel_support import ALL, SPEC, cell, fill, fill_all_but, idx, section_refs, thrown

from rules.common.errors import RulesError
from rules.doppelspiel import (
    CHANCE,
    TERMINAL,
    ActivateJoker,
    Dice,
    DoppelState,
    FieldRef,
    FreeThrow,
    Pass,
    Place,
    Repeat,
    Roll,
    Split,
    Swap,
    WriteTen,
    Zwang,
    match_points,
    parse_action,
    replay,
    replay_log,
)

DICE = (1, 2, 3, 4, 5, 6, 6, 5, 4, 3)


def snapshot(state: DoppelState):
    return (
        state.phase,
        state.player,
        state.dice,
        state.throws,
        state.pending,
        state.active_jokers,
        tuple(state.marks),
        state.groups,
        state.placed,
        state.doublings,
        len(state.log),
        [
            (s.cells, s.struck, s.aussetzen, s.swaps, s.repeats, s.crosses, s.free_used, s.jokers, s.zwang)
            for s in (x.copy() for x in state.sheets)
        ],
    )


def test_turn_flow_and_chance_nodes():
    state = DoppelState()
    assert state.current_player() == 0 and state.legal_actions() == [Roll(ALL)]
    with pytest.raises(RulesError, match="all ten"):
        state.apply_action(Roll((0, 1)))
    state.apply_action(Roll(ALL))
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.chance_dice() == ALL and state.legal_actions() == []
    dice = state.sample_chance(np.random.default_rng(0))
    assert len(dice.faces) == 10 and all(1 <= f <= 6 for f in dice.faces)
    state.apply_action(dice)
    assert state.phase == "throw" and state.dice == dice.faces
    # second and third throw: any dice; a fourth regular throw is not allowed
    state.apply_action(Roll((0, 3)))
    state.apply_chance((6, 6))
    assert state.dice[0] == 6 and state.dice[3] == 6 and state.dice[1:3] == dice.faces[1:3]
    state.apply_action(Roll((1,)))
    state.apply_chance((2,))
    assert not any(isinstance(a, Roll) for a in state.legal_actions())
    with pytest.raises(RulesError, match="throws"):
        state.apply_action(Roll((1,)))


def test_chance_outcome_is_checked():
    state = DoppelState()
    state.apply_action(Roll(ALL))
    for bad in [(1, 2, 3), (0,) * 10, (7,) * 10]:
        with pytest.raises(RulesError):
            state.apply_chance(bad)
    with pytest.raises(RulesError, match="waiting"):
        state.apply_action(Split((1, 1, 1, 1, 1)))


def test_a_turn_writes_two_groups_then_the_other_player_throws():
    state = thrown((1, 1, 6, 5, 5, 4, 4, 4, 4, 6))
    with pytest.raises(RulesError, match="do not hold"):
        state.apply_action(Split((1, 1, 1, 6, 5)))
    state.apply_action(Split((1, 1, 5, 6, 6)))
    with pytest.raises(RulesError, match="does not meet"):
        state.apply_action(Place("write", FieldRef(0, "5k")))
    state.apply_action(Place("write", FieldRef(0, "116")))
    with pytest.raises(RulesError, match="already filled"):
        state.apply_action(Place("write", FieldRef(0, "116")))
    state.apply_action(Place("write", FieldRef(3, "4s")))
    assert cell(state, 0, "116@1") == 19 and cell(state, 0, "4s@4") == 16
    assert state.current_player() == 1 and state.phase == "start" and state.dice is None


def test_the_ten_takes_both_entries():
    state = thrown(DICE)
    state.apply_action(WriteTen(2))
    assert cell(state, 0, "ten@3") == sum(DICE)
    assert state.current_player() == 1
    state2 = thrown(DICE)
    state2.apply_action(Split((1, 2, 3, 4, 5)))
    with pytest.raises(RulesError, match="10er"):
        state2.apply_action(Place("write", FieldRef(0, "ten")))


def test_middle_needs_a_die_of_its_face():
    state = thrown((1, 2, 3, 4, 5, 1, 2, 3, 4, 5))
    state.apply_action(Split((1, 2, 3, 4, 5)))
    assert Place("write", FieldRef(0, "6s")) not in state.legal_actions()
    with pytest.raises(RulesError):
        state.apply_action(Place("write", FieldRef(0, "6s")))


def test_aussetzen_four_boxes_then_strike_any_field_but_the_ten():
    state = DoppelState()
    state.sheets[0].aussetzen = 3
    thrown((1, 2, 3, 4, 5, 1, 2, 3, 4, 5), state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    with pytest.raises(RulesError, match="only when all Aussetzen"):
        state.apply_action(Place("strike", FieldRef(0, "5k")))
    state.apply_action(Place("skip"))
    assert state.sheets[0].aussetzen == 4
    assert Place("skip") not in state.legal_actions()
    with pytest.raises(RulesError, match="Aussetzen boxes are used"):
        state.apply_action(Place("skip"))
    with pytest.raises(RulesError, match="10er"):
        state.apply_action(Place("strike", FieldRef(0, "ten")))
    state.apply_action(Place("strike", FieldRef(0, "5k")))
    assert cell(state, 0, "5k@1") == 0 and state.sheets[0].struck


def test_one_entry_when_no_target_is_left_for_the_second_group():
    state = DoppelState()
    state.sheets[0].aussetzen = 4
    state.sheets[0].zwang = {0, 1, 2, 3}
    fill_all_but(state, 0, {"ch@4", "ten@1"})
    thrown(DICE, state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    state.apply_action(Place("write", FieldRef(3, "ch")))
    assert state.current_player() == 1 and cell(state, 0, "ch@4") == 15


def test_only_tens_open_means_write_a_ten():
    state = DoppelState()
    state.sheets[0].aussetzen = 4
    fill_all_but(state, 0, {"ten@1", "ten@2"})
    thrown(DICE, state)
    starts = state.write_starts()
    assert starts == [WriteTen(0), WriteTen(1)]
    with pytest.raises(RulesError, match="no field is left"):
        state.apply_action(Split((1, 2, 3, 4, 5)))


def test_tauschen_strikes_both_faces_and_allows_three_swaps():
    state = thrown((1, 2, 3, 4, 5, 6, 1, 2, 3, 4))
    state.apply_action(Swap(0, 6))
    assert state.dice[0] == 6 and state.sheets[0].swaps == {1, 6}
    with pytest.raises(RulesError, match="already struck"):
        state.apply_action(Swap(1, 6))
    with pytest.raises(RulesError, match="another face"):
        state.apply_action(Swap(1, 2))
    state.apply_action(Swap(1, 3))
    state.apply_action(Swap(3, 5))
    assert state.sheets[0].swaps == {1, 2, 3, 4, 5, 6}
    assert not any(isinstance(a, Swap) for a in state.legal_actions())


def test_wiederholen_rethrows_every_die_of_one_face_once_per_game():
    state = thrown((2, 5, 2, 5, 2, 1, 1, 3, 4, 2))
    with pytest.raises(RulesError, match="no die shows"):
        state.apply_action(Repeat(6))
    state.apply_action(Repeat(2))
    assert state.is_chance_node() and state.chance_dice() == (0, 2, 4, 9)
    state.apply_chance((6, 6, 6, 6))
    assert state.dice == (6, 5, 6, 5, 6, 1, 1, 3, 4, 6)
    assert state.sheets[0].repeats == {2}
    assert state.throws == 1  # not a regular throw
    state.apply_action(Repeat(1))  # another face may follow
    state.apply_chance((6, 6))
    state.apply_action(Split((6, 6, 6, 6, 6)))
    state.apply_action(Place("write", FieldRef(0, "5k")))
    state.apply_action(Place("skip"))
    # next turn of player 0: the 2 is struck for the whole game
    state.apply_action(Roll(ALL))
    state.apply_chance(DICE)
    state.apply_action(WriteTen(0))
    thrown((2,) * 10, state)
    with pytest.raises(RulesError, match="already struck"):
        state.apply_action(Repeat(2))


def test_freiwurf_crosses_and_free_throws():
    sheet = DoppelState().sheets[0]
    assert sheet.free_earned() == 0
    for crosses, earned in [(2, 0), (3, 1), (6, 2), (8, 2), (9, 4), (18, 8), (27, 12), (40, 12)]:
        sheet.crosses = 0
        sheet.add_crosses(crosses)
        assert sheet.free_earned() == earned, crosses
    assert sheet.crosses == 27  # crosses beyond the track are lost
    state = DoppelState()
    state.sheets[0].crosses = 3
    thrown(DICE, state)
    state.apply_action(FreeThrow((0, 1, 2)))
    assert state.sheets[0].free_available() == 0 and state.throws == 1
    state.apply_chance((6, 6, 6))
    with pytest.raises(RulesError, match="no free throw"):
        state.apply_action(FreeThrow((0,)))


def test_crosses_are_made_when_the_turn_is_written():
    state = thrown((3, 3, 3, 3, 3, 1, 2, 4, 5, 6))
    assert state.sheets[0].crosses == 0
    state.apply_action(Split((1, 2, 4, 5, 6)))
    state.apply_action(Place("write", FieldRef(0, "ss")))
    state.apply_action(Place("write", FieldRef(0, "ch")))
    assert state.sheets[0].crosses == 1


def test_joker_needs_a_full_lower_part_and_comes_before_the_throw():
    state = DoppelState()
    assert ActivateJoker(0) not in state.legal_actions()
    with pytest.raises(RulesError, match="lower part"):
        state.apply_action(ActivateJoker(0))
    fill(state, 0, section_refs("lower", 1) + section_refs("lower", 2) + section_refs("lower", 3))
    assert {a for a in state.legal_actions() if isinstance(a, ActivateJoker)} == {
        ActivateJoker(0),
        ActivateJoker(1),
        ActivateJoker(2),
    }
    state.apply_action(ActivateJoker(0))
    state.apply_action(ActivateJoker(1))
    with pytest.raises(RulesError, match="at most 2"):
        state.apply_action(ActivateJoker(2))
    state.apply_action(Roll(ALL))
    state.apply_chance((6, 6, 6, 6, 1, 5, 5, 5, 2, 3))
    with pytest.raises(RulesError):
        state.apply_action(ActivateJoker(2))  # only before the throw
    state.apply_action(Split((1, 6, 6, 6, 6)))
    assert state.doublings == (0, 2)
    with pytest.raises(RulesError, match="no doubling"):
        state.apply_action(Place("write", FieldRef(3, "4k"), doubled=True))
    state.apply_action(Place("write", FieldRef(3, "661"), doubled=True))
    state.apply_action(Place("write", FieldRef(3, "5s"), doubled=True))
    assert cell(state, 0, "661@4") == 50 and cell(state, 0, "5s@4") == 30
    assert state.sheets[0].jokers == {0, 1}


def test_an_activated_joker_is_spent_even_if_unused():
    state = DoppelState()
    fill(state, 0, section_refs("lower", 1))
    state.apply_action(ActivateJoker(0))
    state.apply_action(Roll(ALL))
    state.apply_chance(DICE)
    state.apply_action(WriteTen(0))
    assert state.sheets[0].jokers == {0}
    assert not state.sheets[0].joker_ready(0)


def _zwang_ready_state() -> DoppelState:
    state = DoppelState()
    fill(state, 0, section_refs("upper", 2) + ["ten@2"])
    assert state.sheets[0].zwang_ready(1)
    thrown(DICE, state)
    state.apply_action(WriteTen(0))
    assert state.phase == "zwang" and state.current_player() == 0
    return state


def test_zwang_marks_two_fields_the_opponent_must_fill():
    state = _zwang_ready_state()
    legal = state.legal_actions()
    assert Pass() in legal and Zwang((FieldRef(0, "661"), FieldRef(2, "6s"))) in legal
    with pytest.raises(RulesError, match="small square"):
        state.apply_action(Zwang((FieldRef(0, "fh"), FieldRef(0, "6s"))))
    with pytest.raises(RulesError, match="two fields or one 10er"):
        state.apply_action(Zwang((FieldRef(0, "ten"), FieldRef(0, "6s"))))
    state.apply_action(Zwang((FieldRef(0, "661"), FieldRef(2, "6s"))))
    assert state.sheets[0].zwang == {1}
    assert state.marks[1] == (FieldRef(0, "661"), FieldRef(2, "6s"))
    thrown((6, 6, 1, 2, 3, 4, 4, 5, 5, 2), state)
    assert not any(isinstance(a, WriteTen) for a in state.legal_actions())
    state.apply_action(Split((1, 2, 3, 6, 6)))
    assert set(state.legal_actions()) == {
        Place("write", FieldRef(0, "661")),
        Place("write", FieldRef(2, "6s")),
    }
    with pytest.raises(RulesError, match="Zwang"):
        state.apply_action(Place("skip"))
    with pytest.raises(RulesError, match="must be filled"):
        state.apply_action(Place("strike", FieldRef(0, "661")))
    state.apply_action(Place("write", FieldRef(0, "661")))
    # the rest (2 4 4 5 5) has no six: the marked field is struck
    assert state.legal_actions() == [Place("strike", FieldRef(2, "6s"))]
    state.apply_action(Place("strike", FieldRef(2, "6s")))
    assert cell(state, 1, "661@1") == 18 and cell(state, 1, "6s@3") == 0
    assert state.marks == [(), ()]


def test_zwang_on_a_ten_binds_the_whole_throw():
    state = _zwang_ready_state()
    state.apply_action(Zwang((FieldRef(3, "ten"),)))
    thrown(DICE, state)
    assert state.write_starts() == [WriteTen(3)]
    with pytest.raises(RulesError, match="Zwang"):
        state.apply_action(WriteTen(0))
    state.apply_action(WriteTen(3))
    assert cell(state, 1, "ten@4") == sum(DICE)


def test_each_zwang_box_is_used_once():
    state = _zwang_ready_state()
    state.apply_action(Pass())
    thrown(DICE, state)
    state.apply_action(WriteTen(0))  # player 1
    thrown(DICE, state)
    state.apply_action(WriteTen(2))  # player 0 again: Zwang still ready
    assert state.phase == "zwang"
    state.apply_action(state.zwang_options()[0])
    thrown(DICE, state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    while state.phase == "place":
        state.apply_action(state.legal_actions()[0])
    thrown(DICE, state)
    state.apply_action(WriteTen(3))
    assert state.phase == "start" and state.current_player() == 1  # no second Zwang from column 2


def test_full_sheet_is_skipped_and_the_game_ends():
    state = DoppelState()
    fill_all_but(state, 0, {"ch@1"}, value=10)
    fill_all_but(state, 1, {"ch@1", "ch@2"}, value=5)
    state.sheets[0].aussetzen = state.sheets[1].aussetzen = 4
    thrown(DICE, state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    state.apply_action(Place("write", FieldRef(0, "ch")))
    assert state.current_player() == 1
    thrown(DICE, state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    state.apply_action(Place("write", FieldRef(0, "ch")))
    state.apply_action(Place("write", FieldRef(1, "ch")))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [13, 0]
    with pytest.raises(RulesError, match="over"):
        state.apply_action(Roll(ALL))


def test_bonuses():
    state = DoppelState()
    sheet = state.sheets[0]
    for key, value in zip(["116", "225", "334", "443", "552", "661"], [20, 20, 20, 20, 20, 19]):
        sheet.write(0, idx(key), value)
    assert sheet.upper_bonus(0) == 0
    sheet.cells[0][idx("661")] = 20
    assert sheet.section_sum(0, "upper") == 120 and sheet.upper_bonus(0) == 20
    for key, value in zip(["1s", "2s", "3s", "4s", "5s"], [3, 6, 9, 12, 15]):
        sheet.write(1, idx(key), value)
    sheet.strike(1, idx("6s"))
    assert sheet.middle_bonus(1) == 0
    sheet.cells[1][idx("6s")] = 18
    assert sheet.middle_bonus(1) == 35
    assert sheet.column_total(0) == 140 and sheet.column_total(1) == 63 + 35


def test_match_points_columns_best_column_and_grand_total():
    state = DoppelState()
    a, b = state.sheets
    for c, (x, y) in enumerate([(100, 90), (80, 95), (70, 70), (60, 50)]):
        a.write(c, idx("ch"), x)
        b.write(c, idx("ch"), y)
    res = match_points(state.sheets)
    # columns: A 4 + 0 + tie + 1; best column 100 > 95: A; grand 310 > 305: A
    assert res.points == (4 + 1 + 1 + 2, 3)
    assert sum(res.points) == 13 - 2  # the tied column goes to nobody
    assert res.winner == 0


def test_log_replay_and_json_rebuild_the_same_game():
    state = thrown(DICE)
    state.apply_action(Roll((0, 1)))
    state.apply_chance((6, 6))
    state.apply_action(Split((3, 4, 5, 6, 6)))
    state.apply_action(Place("write", FieldRef(0, "ch")))
    state.apply_action(Place("skip"))
    again = replay_log(state.log)
    assert again.sheets[0].cells == state.sheets[0].cells and again.player == state.player
    assert replay(state.to_json()).log == state.log
    with pytest.raises(RulesError, match="log entry 2"):
        replay_log([(0, "roll all"), (0, "split 11111")])
    with pytest.raises(RulesError, match="log entry 1"):
        replay_log([(0, "frobnicate")])


def test_action_text_round_trip():
    for action in [
        ActivateJoker(1),
        Roll(ALL),
        Roll((0, 4)),
        FreeThrow((9,)),
        Repeat(3),
        Swap(4, 6),
        Split((1, 1, 5, 6, 6)),
        Place("write", FieldRef(0, "116")),
        Place("write", FieldRef(3, "6s"), True),
        Place("skip"),
        Place("strike", FieldRef(1, "fh")),
        WriteTen(2),
        Zwang((FieldRef(0, "116"), FieldRef(2, "6s"))),
        Zwang((FieldRef(1, "ten"),)),
        Pass(),
        Dice((1, 2, 3)),
    ]:
        assert parse_action(str(action), SPEC) == action
    for bad in [
        "",
        "roll 0",
        "roll 11",
        "roll 1 1",
        "place 117@1",
        "place 116@5",
        "swap 1",
        "split 1234",
        "joker 9",
        "dance",
    ]:
        with pytest.raises(ValueError):
            parse_action(bad, SPEC)


def test_illegal_action_changes_nothing():
    state = thrown(DICE)
    before = snapshot(state)
    for bad in [
        Roll(()),
        Repeat(7),
        Swap(0, 1),
        WriteTen(9),
        Split((6, 6, 6, 6, 6)),
        Place("skip"),
        Pass(),
        ActivateJoker(0),
        Dice((1,)),
    ]:
        with pytest.raises(RulesError):
            state.apply_action(bad)
        assert snapshot(state) == before


def test_filling_the_last_field_ends_the_turn_without_using_an_aussetzen_box():
    # issue 16: with Aussetzen boxes free, the first group filling the last open field
    # left "place skip" as the only move, which used up a box on a full sheet
    state = DoppelState()
    state.sheets[0].zwang = {0, 1, 2, 3}
    fill_all_but(state, 0, {"ch@1"})
    thrown(DICE, state)
    state.apply_action(Split((1, 2, 3, 4, 5)))
    state.apply_action(Place("write", FieldRef(0, "ch")))
    assert state.sheets[0].is_full() and state.sheets[0].aussetzen == 0
    assert state.current_player() == 1 and state.phase == "start"


def test_the_solver_plans_one_entry_for_the_last_field():
    from rules.doppelspiel import best_writes

    state = DoppelState()
    state.sheets[0].zwang = {0, 1, 2, 3}
    fill_all_but(state, 0, {"ch@1"})
    thrown(DICE, state)
    plan = best_writes(state)[0]
    assert [type(a).__name__ for a in plan.actions] == ["Split", "Place"]
    for action in plan.actions:
        state.apply_action(action)
    assert state.sheets[0].is_full() and state.sheets[0].aussetzen == 0


def test_highest_single_result_read_as_the_highest_entry():
    # "einen Punkt für das höchste Einzelergebnis": column totals (default) or single entries
    spec = SPEC.with_readings(highest_single="entry")
    state = DoppelState(spec)
    a, b = state.sheets
    for c, (x, y) in enumerate([(100, 90), (80, 95), (70, 70), (60, 50)]):
        a.write(c, idx("ch"), x)
        b.write(c, idx("ch"), y)
    b.write(3, idx("1s"), 101)
    # columns: A 4 + 0 + tie + 0 (110 < 151 now); highest entry 101 > 100: B; grand 310 < 406: B
    res = match_points(state.sheets)
    assert res.points == (4, 3 + 1 + 1 + 2)
    assert ("highest single entry", 1, 1) in res.awards
    assert match_points(DoppelState(SPEC).sheets).awards[4][0] == "best single column"
