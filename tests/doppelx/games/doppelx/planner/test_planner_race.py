"""The expert's chance of winning: the race model, the value of a throw by it, bets in expectation."""

from __future__ import annotations

import numpy as np
import pytest

from doppelx.games.doppelx.planner.race import SAMPLES, draws, win_chances
from doppelx.games.doppelx.planner.value import (
    expected_card_payouts,
    face_chances,
    win_value,
)
from rules.doppelx.board import FieldKind
from rules.doppelx.outcome import DieOutcome, Status, ThrowOutcome
from tests.helpers.planner import BOARD, DICE, SEATS, resting, table

RAND = draws((3, 9), 4, 0.94)


def chances(chips, worth, first=1, target=50):
    rows = np.array([chips], dtype=float), np.array([worth], dtype=float)
    return [float(win_chances(*rows, me, first, target, RAND)[0]) for me in range(4)]


def test_the_chances_of_all_players_add_up_to_one_and_follow_the_chips():
    even = chances([20, 20, 20, 20], [2, 2, 2, 2])
    assert sum(even) == pytest.approx(1.0)
    ahead = chances([35, 20, 20, 20], [2, 2, 2, 2])
    assert sum(ahead) == pytest.approx(1.0)
    assert ahead[0] > even[0] + 0.2 and all(a < e for a, e in zip(ahead[1:], even[1:]))
    # a rival one throw from the target with a die worth 9 on the board is all but sure to win
    # (yellow throws next, then green, then blue)
    doomed = chances([42, 45, 20, 20], [2, 9, 2, 2], first=2)
    assert doomed[1] > 0.9 and doomed[0] < 0.05
    # knock that die away and blue may get there first
    assert chances([42, 45, 20, 20], [2, 0, 2, 2], first=2)[0] > doomed[0] + 0.2


def test_the_draws_are_the_decisions_own_and_the_same_for_the_same_seed():
    a, b, c = draws((3, 9), 4, 0.94), draws((3, 9), 4, 0.94), draws((3, 10), 4, 0.94)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], c[0])
    assert a[0].shape == (SAMPLES, a[0].shape[1]) and a[2].shape[2] == 4


def test_a_throw_that_reaches_the_target_wins_and_a_rival_knocked_before_his_winning_throw_helps():
    mine = resting("blue", FieldKind.THREE, "3")
    white = resting("white", FieldKind.ONE, "1", k=1)
    # blue at 49: any chip wins now (both dice X: a Doppel X, 10)
    t = table(chips={"blue": 49, "red": 10, "yellow": 10, "green": 10})
    assert win_value(t, ThrowOutcome((mine, white)), 0.5) == 100.0
    # at 45 it takes 5 chips now: blue on 3x (3 × 1.8) does it unless it shows X (the white die
    # brings 1.8); else the race goes on, red at 46 throwing next
    t = table(chips={"blue": 45, "red": 46, "yellow": 10, "green": 10})
    p_x = face_chances(DICE["blue"])[0]
    now = 100 * (1 - p_x * (1 - p_x))
    assert now < win_value(t, ThrowOutcome((mine, white)), 0.5) < now + 5
    # red at 40 lies with 9 a throw: 49 after blue's throw, and red throws next, unless knocked
    lying = {"red": resting("red", FieldKind.THREE, "3", k=1).pose}
    chips = {"blue": 30, "red": 40, "yellow": 20, "green": 20}
    t = table(lying=lying, chips=chips)
    stays = ThrowOutcome((mine, white, DieOutcome("red", Status.BOARD, lying["red"])))
    knocked = ThrowOutcome((mine, white, DieOutcome("red", Status.HOLE)))
    assert win_value(t, knocked, 0.5) > win_value(t, stays, 0.5) + 5
    assert win_value(t, knocked, 0.5) == win_value(t, knocked, 0.5)  # the decision's own draws


def test_bets_in_expectation_weigh_the_faces_of_the_thrown_dice():
    lying = {"red": resting("red", FieldKind.ONE, "X", k=2).pose}
    t = table(lying=lying)
    out = ThrowOutcome(
        (
            resting("blue", FieldKind.TWO, "1"),
            resting("white", FieldKind.THREE, "2"),
            DieOutcome("red", Status.BOARD, lying["red"]),
        )
    )
    pays = expected_card_payouts(t, out, t.cards)
    p = face_chances(DICE["blue"])[0]
    doppel = 1 - (1 - p) ** 2  # red's X lies: one X of the two thrown dice makes a Doppel X
    assert pays["A"] == pytest.approx(5 * doppel)
    assert pays["B"] == 0.0
    assert pays["C"] == pytest.approx(3 * (1 - doppel)) and pays["D"] == pytest.approx(4 * (1 - doppel))
    assert set(pays) == set(t.cards) and SEATS[0] == t.thrower


def test_the_expert_scores_its_throws_by_its_chance_of_winning():
    from doppelx.games.doppelx.bot_factory import make_bot

    assert make_bot("expert", 20).throw.value is win_value


def throw_by_throw(chips, worth, me, first, target, rand):
    """The race model played throw by throw, as the module docstring tells it (the oracle)."""
    gain, lying, alive = rand
    cases, n = chips.shape
    c = np.repeat(chips[:, None, :], gain.shape[0], axis=1).astype(float)
    w = np.repeat(worth[:, None, :], gain.shape[0], axis=1).astype(float)
    won = np.full(c.shape[:2], np.nan)
    for t in range(gain.shape[1]):
        a = (first + t) % n
        w *= alive[:, t, :]  # a die hit by this throw scores no more until its owner throws
        w[:, :, a] = gain[:, t]
        c += w
        w[:, :, a] = lying[:, t]  # the thrower's die as it now lies
        top = c.max(axis=2)
        ends = np.isnan(won) & (top >= target)
        lead = c[ends] == top[ends][:, None]
        won[ends] = lead[:, me] / lead.sum(axis=1)
    last = np.isnan(won)
    lead = c[last] == c.max(axis=2)[last][:, None]
    won[last] = lead[:, me] / lead.sum(axis=1)
    return won.mean(axis=1)


@pytest.mark.parametrize("players", [3, 4, 8])
def test_the_race_is_the_throw_by_throw_game_bit_for_bit(players):
    rng = np.random.default_rng(players)
    rand = draws((5, players), players, 0.94)
    chips = rng.integers(0, 60, size=(9, players)).astype(float)
    worth = rng.choice([-1.0, 0.0, 1.0, 2.5, 3.06, 9.0], size=(9, players))
    chips[0] = 10.0  # nobody reaches 99 in a few throws: the leader beyond the horizon
    for me, first, target in ((0, 1, 50), (players - 1, 0, 60), (1, 2, 99), (2, 1, 250)):
        fast = win_chances(chips, worth, me, first, target, rand)
        assert fast.tolist() == throw_by_throw(chips, worth, me, first, target, rand).tolist()


def test_the_memo_gives_the_race_models_chances_bit_for_bit_each_row_played_once(monkeypatch):
    from doppelx.games.doppelx.planner import race

    rng = np.random.default_rng(5)
    chips = rng.integers(0, 45, size=(7, 4)).astype(float)
    worth = rng.integers(-1, 9, size=(7, 4)).astype(float)
    chips[4], worth[4] = chips[1], worth[1]  # a row seen twice in one call
    seed = (3, 9)
    expected = win_chances(chips, worth, 2, 3, 50, draws(seed, 4, 0.94))
    played = []
    real = race.win_chances
    monkeypatch.setattr(race, "win_chances", lambda c, *a: played.append(len(c)) or real(c, *a))
    first = race.win_chances_memo(chips, worth, 2, 3, 50, seed, 0.94)
    again = race.win_chances_memo(chips[::-1].copy(), worth[::-1].copy(), 2, 3, 50, seed, 0.94)
    assert first.tolist() == expected.tolist() and again.tolist() == expected[::-1].tolist()
    assert played == [6]  # six distinct rows, played forward once; the second call looks them up
    # another decision (seed), another seat or target: played afresh
    race.win_chances_memo(chips, worth, 2, 3, 50, (3, 10), 0.94)
    race.win_chances_memo(chips, worth, 1, 3, 50, seed, 0.94)
    assert played == [6, 6, 6]


def test_the_planners_readings_are_the_rules_readings_kept_by_pose():
    from doppelx.games.doppelx.planner.value import read_outcome
    from rules.doppelx.scoring import read_outcome as rules_read

    dice = (
        resting("blue", FieldKind.THREE, "3"),
        resting("red", FieldKind.TWO, "X"),
        resting("yellow", FieldKind.ONE, "2"),
        DieOutcome("white", Status.HOLE),
    )
    out = ThrowOutcome(dice)
    first = read_outcome(out, BOARD, DICE)
    assert first == rules_read(out, BOARD, DICE)
    moved = ThrowOutcome((resting("blue", FieldKind.ONE, "1", k=1), *dice[1:]))
    again = read_outcome(moved, BOARD, DICE)
    assert again == rules_read(moved, BOARD, DICE)
    assert again[1:] == first[1:] and again[0] != first[0]
