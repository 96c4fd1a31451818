"""Whole games: scoring, the end at the target points, replay from the log, seeds, chance checks,
and the card-conservation property over arbitrary games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.errors import RulesError
from rules.contract import CHANCE, TERMINAL, chance_step
from rules.oder_nichts.actions import CHANCE_KIND, Action, Decision
from rules.oder_nichts.state import GameConfig, new_game, replay_log


def random_play(state, rng, max_steps=100_000, check=None):
    """Play random legal actions and random chance outcomes until the end (or ``max_steps``)."""
    for _ in range(max_steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if check is not None:
            check(state)


def test_card_values_in_the_score(rig):
    g = rig([["green 1"], ["brown not me"], ["grey mirror"]], "green 2", target=1000)
    g.play("green 1")
    result = g.state.rounds[0]
    assert result.winners == (0,) and result.hand_points == (0, 70, 20)
    assert g.state.minus == [0, 70, 20]
    assert g.state.pending.kind == "shuffle"  # round 2 is dealt


def test_the_game_ends_at_the_target_points(rig):
    g = rig([["green 1"], ["brown not me"], ["cyan 7"]], "green 2", target=70)
    g.play("green 1")
    assert g.state.is_terminal() and g.state.current_player() == TERMINAL
    assert g.state.winners() == [0] and g.state.returns() == [0.0, -70.0, -7.0]
    with pytest.raises(RulesError, match="the game is over"):
        g.state.apply_action(Action("draw"))


def test_the_game_ends_below_the_target_after_a_set_number_of_rounds(rig):
    g = rig([["green 1"], ["cyan 3"]], "green 2", rounds=1)
    g.play("green 1")
    assert g.state.is_terminal() and g.state.minus == [0, 3]


def test_20_minus_counts_towards_the_end_at_once(rig):
    g = rig([["magenta 20 minus", "magenta 1"], ["magenta 5", "cyan 6"]], "magenta 2", target=25)
    g.play("magenta 20 minus")
    g.do("accept")
    assert g.state.minus == [0, 20]
    g.play("magenta 5")
    g.play("magenta 1")
    assert g.state.is_terminal() and g.state.minus == [0, 26]  # 20 during the round + cyan 6


def test_the_deal_passes_to_the_next_seat(rig):
    g = rig([["green 1"], ["cyan 3"], ["yellow 4"]], "green 2", target=1000)
    g.play("green 1")
    chance_step(g.state, np.random.default_rng(3))
    t = g.table
    assert t.round_no == 2 and t.seats[t.dealer_seat] == 0
    assert [len(h) for h in t.hands] == [1, 1, 1]
    assert t.direction == 1 and t.attack is None and t.named == []


def test_a_whole_random_game_replays_identically_from_its_log():
    config = GameConfig(players=4, target_points=150)
    state = new_game(config)
    random_play(state, np.random.default_rng(11))
    assert state.is_terminal()
    again = replay_log(config, state.log)
    assert again.is_terminal()
    assert again.minus == state.minus and again.returns() == state.returns()
    assert [r.minus_after for r in again.rounds] == [r.minus_after for r in state.rounds]
    assert again.table.hands == state.table.hands and again.table.discard == state.table.discard
    json_log = [Action.from_json(a.to_json()) for a in state.log]
    assert replay_log(config, json_log).minus == state.minus


def test_the_same_seed_gives_the_same_game():
    logs = []
    for _ in range(2):
        state = new_game(GameConfig(players=3, target_points=120))
        random_play(state, np.random.default_rng(5))
        logs.append(state.log)
    assert logs[0] == logs[1]


def test_a_log_with_an_illegal_entry_is_refused():
    config = GameConfig(players=2)
    state = new_game(config)
    rng = np.random.default_rng(2)
    random_play(state, rng, max_steps=20)
    bad = list(state.log) + [Action("play", (999,))]
    if state.is_chance_node():
        bad[-1] = Action("accept")
    with pytest.raises(RulesError, match=f"log entry {len(bad) - 1}"):
        replay_log(config, bad)


def test_chance_outcomes_are_checked():
    state = new_game(GameConfig(players=2))
    assert state.current_player() == CHANCE and state.chance_outcomes() is None
    with pytest.raises(RulesError, match="ordering of exactly the shuffled cards"):
        state.apply_action(Action(CHANCE_KIND, cards=tuple(range(137))))
    with pytest.raises(RulesError, match="a chance outcome"):
        state.apply_action(Action("draw"))
    chance_step(state, np.random.default_rng(0))
    assert isinstance(state.pending, Decision)
    with pytest.raises(RulesError):
        state.apply_action(Action(CHANCE_KIND, choice="success"))


def test_task_outcomes_have_probabilities(rig):
    g = rig([["green +5", "green 1"], ["cyan 5", "cyan 6"]], "green 4")
    g.play("green +5")
    g.do("accept")
    g.do("attempt")
    outcomes = g.state.chance_outcomes()
    p = g.pending.probability
    assert outcomes == [
        (Action(CHANCE_KIND, choice="success"), p),
        (Action(CHANCE_KIND, choice="failure"), 1 - p),
    ]
    with pytest.raises(RulesError, match="'success' or 'failure'"):
        g.state.apply_action(Action(CHANCE_KIND, choice="maybe"))


def test_an_illegal_action_changes_nothing(rig):
    g = rig([["green 7", "cyan 2"], ["yellow 1", "yellow 2"]], "green 3")
    before = (list(g.table.hands[0]), list(g.table.discard), len(g.state.log))
    for bad in (
        Action("play", (999,)),
        Action("accept"),
        Action("draw"),
        Action("interject", g.ids(0, ["green 7"])),
    ):
        with pytest.raises(RulesError):
            g.state.apply_action(bad)
    assert (list(g.table.hands[0]), list(g.table.discard), len(g.state.log)) == before


def test_bad_set_ups_are_refused():
    with pytest.raises(RulesError, match="2 to 8 players"):
        new_game(GameConfig(players=1))
    with pytest.raises(RulesError, match="at least 1"):
        new_game(GameConfig(players=3, target_points=0))


def test_the_clone_is_independent():
    state = new_game(GameConfig(players=3))
    random_play(state, np.random.default_rng(4), max_steps=40)
    copy = state.clone()
    assert copy.log == state.log and copy.minus == state.minus
    random_play(copy, np.random.default_rng(9), max_steps=10)
    assert len(copy.log) > len(state.log)


def _invariants(state):
    t = state.table
    cards = t.all_cards()
    assert len(cards) == len(state.spec.cards) and set(cards) == set(range(len(state.spec.cards)))
    if not state.is_terminal() and t.discard:
        assert t.top.coloured, "the top of the pile is always a colour card"
    assert sorted(t.seats) == list(range(t.n))
    assert all(s >= 0 for s in t.skips) and all(a >= 0 for a in t.away)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), target=st.integers(30, 300))
def test_cards_are_conserved_through_any_game(seed, players, target):
    """Deck + hands + pile always hold each of the 138 cards exactly once."""
    state = new_game(GameConfig(players=players, target_points=target))
    random_play(state, np.random.default_rng(seed), max_steps=20_000, check=_invariants)
    assert state.is_terminal() and max(state.minus) >= target


def test_actions_round_trip_through_json_and_bad_entries_are_refused():
    a = Action("defend", (3,), target=2)
    assert Action.from_json(a.to_json()) == a and a.to_json() == {"kind": "defend", "cards": [3], "target": 2}
    with pytest.raises(ValueError, match="kind: unknown value 'cheat'"):
        Action.from_json({"kind": "cheat"})
    with pytest.raises(ValueError, match="speed: unknown key"):
        Action.from_json({"kind": "draw", "speed": 3})
    with pytest.raises(
        ValueError, match="cards: expected a list of any number of card numbers, got string '7'"
    ):
        Action.from_json({"kind": "play", "cards": "7"})
    with pytest.raises(ValueError, match=r"cards\[1\]: expected a whole number, got string '7'"):
        Action.from_json({"kind": "play", "cards": [3, "7"]})
