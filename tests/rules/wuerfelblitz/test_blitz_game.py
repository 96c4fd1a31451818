"""Würfelblitz game flow: calls and timing, white/black discs, handicap, end, log and replay."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.errors import RulesError, SpecError
from rules.common.rng import make_rng
from rules.wuerfelblitz import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    BlitzState,
    BlitzThrow,
    Call,
    GameConfig,
    correct_sum,
    load_spec,
    new_game,
    replay,
)

SPEC = load_spec()
# standard sum 8 (orange 3 + blue 4 + red 1)
THROW = BlitzThrow.of(
    {"orange": 3, "blue": 4, "black": 6, "yellow": "green", "green": 2, "red": 1}, ["black", "green"]
)
RIGHT = 8


def game(players=3, first=0, **kw) -> BlitzState:
    return BlitzState(SPEC, GameConfig.from_spec(SPEC, players, **kw), first)


def play_round(state, *calls):
    state.apply_chance(THROW)
    return state.apply_calls([Call(*c) for c in calls])


def test_phases_follow_the_openspiel_convention():
    s = game()
    assert s.current_player() == CHANCE and s.is_chance_node()
    assert s.legal_calls() == range(0)
    s.apply_chance(THROW)
    assert s.current_player() == SIMULTANEOUS
    assert s.legal_calls() == range(0, 36)
    assert s.correct() == RIGHT
    s.apply_calls([])
    assert s.current_player() == CHANCE


def test_first_correct_caller_gets_a_white_disc():
    s = game()
    r = play_round(s, (0, RIGHT, 2.0), (1, RIGHT, 1.2), (2, 5, 0.9))
    assert r.winners == (1,)
    assert r.wrong == (2,)
    assert [c.player for c in r.calls] == [2, 1]
    assert [c.player for c in r.late] == [0]
    assert s.discs() == [(0, 0), (1, 0), (0, 0)]


def test_simultaneous_correct_calls_each_get_a_white_disc():
    s = game(tie_window_s=0.1)
    r = play_round(s, (0, RIGHT, 1.0), (1, RIGHT, 1.1), (2, RIGHT, 1.3))
    assert r.winners == (0, 1)
    assert s.white == [1, 1, 0]
    # an exact tie, too
    r = play_round(s, (0, RIGHT, 2.0), (2, RIGHT, 2.0))
    assert r.winners == (0, 2)
    assert s.white == [2, 1, 1]


def test_tie_window_zero_only_exact_ties():
    s = game(tie_window_s=0.0)
    r = play_round(s, (0, RIGHT, 1.0), (1, RIGHT, 1.0), (2, RIGHT, 1.01))
    assert r.winners == (0, 1)


def test_wrong_call_loses_a_white_disc_only_if_there_is_one():
    s = game()
    play_round(s, (0, RIGHT, 1.0))
    assert s.white == [1, 0, 0]
    r = play_round(s, (0, 3, 0.5), (1, 4, 0.6), (2, RIGHT, 1.0))
    assert r.wrong == (0, 1)
    assert r.lost_white == (0,)
    assert s.white == [0, 0, 1]


def test_wrong_call_after_the_round_ended_costs_nothing():
    s = game()
    play_round(s, (1, RIGHT, 1.0))
    r = play_round(s, (0, RIGHT, 1.0), (1, 2, 5.0))
    assert r.wrong == () and r.lost_white == ()
    assert [c.player for c in r.late] == [1]
    assert s.white == [1, 1, 0]


def test_round_without_correct_call_has_no_winner_and_thrower_stays():
    s = game(first=2)
    r = play_round(s, (0, 1, 1.0), (1, 2, 2.0))
    assert r.winners == () and r.wrong == (0, 1) and r.thrower == 2
    assert s.thrower == 2
    assert s.discs() == [(0, 0)] * 3


def test_fastest_winner_throws_next():
    s = game(first=0)
    play_round(s, (2, RIGHT, 1.05), (1, RIGHT, 1.0))
    assert s.thrower == 1
    assert s.history[-1].thrower == 0


def test_three_white_discs_become_a_safe_black_disc():
    s = game()
    for _ in range(2):
        play_round(s, (0, RIGHT, 1.0))
    assert s.discs()[0] == (2, 0)
    r = play_round(s, (0, RIGHT, 1.0))
    assert r.exchanged == (0,)
    assert s.discs()[0] == (0, 1)
    # a wrong call now costs nothing: black discs are safe
    r = play_round(s, (0, 1, 0.5), (1, RIGHT, 1.0))
    assert r.wrong == (0,) and r.lost_white == ()
    assert s.discs()[0] == (0, 1)


def test_handicap_fewer_white_discs_per_black():
    # seat 0: a black disc for every correct answer; seat 1: for every second one
    s = game(players=3, whites_per_black=(1, 2, 3))
    play_round(s, (0, RIGHT, 1.0), (1, RIGHT, 1.0), (2, RIGHT, 1.0))
    assert s.discs() == [(0, 1), (1, 0), (1, 0)]
    r = play_round(s, (0, RIGHT, 1.0), (1, RIGHT, 1.0), (2, RIGHT, 1.0))
    assert r.exchanged == (0, 1)
    assert s.discs() == [(0, 2), (0, 1), (2, 0)]


def test_game_ends_at_three_black_discs():
    s = game(players=2, whites_per_black=(1, 3))
    for _ in range(2):
        play_round(s, (0, RIGHT, 1.0))
        assert not s.is_terminal()
        assert s.returns() == [0.0, 0.0]
    play_round(s, (0, RIGHT, 1.0))
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.winners() == (0,)
    assert s.returns() == [1.0, 0.0]
    with pytest.raises(RulesError, match="over"):
        s.apply_chance(THROW)


def test_players_reaching_three_black_in_the_same_round_share_the_win():
    s = game(players=3, whites_per_black=(1, 1, 1))
    for _ in range(2):
        play_round(s, (0, RIGHT, 1.0))
        play_round(s, (1, RIGHT, 1.0))
    play_round(s, (0, RIGHT, 1.0), (1, RIGHT, 1.05), (2, RIGHT, 1.0))
    assert s.winners() == (0, 1)
    assert s.returns() == [1.0, 1.0, 0.0]


@pytest.mark.parametrize(
    "calls, problem",
    [
        ([Call(3, 8, 1.0)], "no player 3"),
        ([Call(0, 8, 1.0), Call(0, 7, 2.0)], "twice"),
        ([Call(0, 36, 1.0)], "0..35"),
        ([Call(0, -1, 1.0)], "0..35"),
        ([Call(0, True, 1.0)], "0..35"),
        ([Call(0, 8, -0.5)], "time"),
        ([Call(0, 8, float("nan"))], "time"),
    ],
)
def test_illegal_calls_are_rejected_and_change_nothing(calls, problem):
    s = game()
    s.apply_chance(THROW)
    with pytest.raises(RulesError, match=problem):
        s.apply_calls(calls)
    assert s.current_player() == SIMULTANEOUS and s.history == []


def test_steps_out_of_order_are_rejected():
    s = game()
    with pytest.raises(RulesError, match="no throw"):
        s.apply_calls([])
    s.apply_chance(THROW)
    with pytest.raises(RulesError, match="already"):
        s.apply_chance(THROW)
    with pytest.raises(RulesError, match="expected 3 white"):
        game(white_dice=3).apply_chance(THROW)


@pytest.mark.parametrize(
    "kw, problem",
    [
        (dict(players=1), "2-7 players"),
        (dict(players=8), "2-7 players"),
        (dict(players=3, white_dice=4), "only 3 white dice in the box"),
        (dict(players=3, white_dice=1), "2 or 3 white"),
        (dict(players=3, whites_per_black=(3, 3)), "one number per player"),
        (dict(players=2, whites_per_black=(0, 3)), "whole numbers 1-3"),
        (dict(players=2, whites_per_black=(4, 3)), "whole numbers 1-3"),  # a handicap only lowers the 3
        (dict(players=2, tie_window_s=-1), "tie window"),
    ],
)
def test_bad_configs_are_rejected(kw, problem):
    with pytest.raises(RulesError, match=problem):
        GameConfig.from_spec(SPEC, **kw)


def _random_game(seed: int, players: int, white: int, variant: bool) -> BlitzState:
    rng = make_rng(seed)
    s = new_game(
        SPEC,
        GameConfig.from_spec(
            SPEC,
            players,
            white_dice=white,
            variant=variant,
            whites_per_black=[int(x) for x in rng.integers(1, 4, players)],
        ),
        rng,
    )
    while not s.is_terminal():
        s.apply_chance(s.sample_chance(rng))
        right = s.correct()
        calls = []
        for p in range(players):
            if rng.random() < 0.8:
                value = right if rng.random() < 0.7 else int(rng.integers(0, 36))
                calls.append(Call(p, value, float(np.round(rng.uniform(0.5, 3.0), 2))))
        s.apply_calls(calls)
    return s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 7), st.sampled_from([2, 3]), st.booleans())
def test_replay_of_the_log_gives_the_same_game(seed, players, white, variant):
    s = _random_game(seed, players, white, variant)
    data = json.loads(json.dumps(s.to_json()))
    r = replay(data, SPEC)
    assert r.discs() == s.discs()
    assert r.history == s.history
    assert r.winners() == s.winners() and r.returns() == s.returns()
    # invariants: nobody holds as many whites as their exchange rate; someone won
    assert all(w < n for w, n in zip(s.white, s.config.whites_per_black))
    assert s.winners() and all(s.black[p] == s.config.black_to_win for p in s.winners())
    # every round's correct sum is the scoring rule's
    assert all(h.correct == correct_sum(h.throw, variant) for h in s.history)


def test_same_seed_same_game():
    assert _random_game(5, 4, 2, True).to_json() == _random_game(5, 4, 2, True).to_json()


@pytest.mark.parametrize(
    "data, element",
    [
        ({"game": "other"}, "game"),
        ({"game": "wuerfelblitz", "config": {}}, "config.players"),
        (
            {
                "game": "wuerfelblitz",
                "config": GameConfig(2).to_json(),
                "first_thrower": 0,
                "actions": [{"x": 1}],
            },
            "actions[0]",
        ),
        (
            {
                "game": "wuerfelblitz",
                "config": GameConfig(2).to_json(),
                "first_thrower": 0,
                "actions": [{"throw": THROW.to_json()}, {"calls": [[0, 8]]}],
            },
            "actions[1].calls[0]",
        ),
    ],
)
def test_malformed_logs_are_spec_errors(data, element):
    with pytest.raises(SpecError) as info:
        replay(data, SPEC)
    assert info.value.element == element
