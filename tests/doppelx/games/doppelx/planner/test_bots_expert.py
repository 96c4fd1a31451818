"""The expert bot: what a rollout scores, the search's determinism, betting, seats with own skills."""

from __future__ import annotations

import dataclasses

import pytest

from doppelx.games.doppelx.bot_factory import make_bot, make_bots
from doppelx.games.doppelx.match import DoppelXMatch
from doppelx.games.doppelx.planner.expert import RolloutBet, ThinkingThrow, predicted_aim
from doppelx.games.doppelx.planner.rollout import rollout
from doppelx.games.doppelx.planner.search import (
    FIRST_ROLLOUTS,
    SWITCH_Z,
    Budget,
    Candidate,
    explicit,
    paired_gain,
    screen,
    search,
)
from doppelx.games.doppelx.planner.snapshot import table_of
from doppelx.games.doppelx.planner.value import (
    SURVIVAL,
    X_WAITING,
    card_payouts,
    chip_changes,
    coming_throws,
    face_cases,
    face_chances,
    future_weight,
    standing_change,
)
from physics.throw_model import SKILLS, Aim
from rules.doppelx.board import FieldKind
from rules.doppelx.box import load_box
from rules.doppelx.game import GameOptions
from rules.doppelx.outcome import DieOutcome, Status, ThrowOutcome
from rules.doppelx.scoring import read_outcome, score_throw
from rules.doppelx.variants import with_faces
from tests.helpers.planner import BOARD, DICE, SEATS, resting, table


def test_face_cases_cover_every_combination_of_the_thrown_dice():
    t = table()
    out = ThrowOutcome((resting("blue", FieldKind.THREE, "3"), resting("white", FieldKind.ONE, "2")))
    readings = read_outcome(out, BOARD, DICE)
    cases = list(face_cases(readings, {o: face_chances(DICE[o]) for o in t.thrown}))
    assert len(cases) == 4 and sum(p for p, _ in cases) == pytest.approx(1.0)
    assert face_chances(DICE["blue"]) == (pytest.approx(1 / 6), pytest.approx(9 / 5))


@pytest.mark.parametrize("faces, top", [("3,3,3,3,3,3", "3"), ("X,X,X,X,X,X", "X")])
def test_chip_changes_agree_with_the_rules_when_the_faces_are_certain(faces, top):
    dice = with_faces(with_faces(DICE, "blue", faces), "white", faces)
    lying = {
        "red": resting("red", FieldKind.TWO, "2").pose,
        "yellow": resting("yellow", FieldKind.ONE, "X").pose,
    }
    t = table(dice, lying, chips={"blue": 4, "red": 1, "yellow": 0, "green": 7}, bets={"green": "D"})
    out = ThrowOutcome(
        (
            resting("blue", FieldKind.THREE, top, dice),
            resting("white", FieldKind.MINUS_ONE, top, dice),
            DieOutcome("red", Status.BOARD, lying["red"]),
            DieOutcome("yellow", Status.BOARD, lying["yellow"]),
        )
    )
    readings = read_outcome(out, BOARD, dice)
    ((p, xs),) = list(face_cases(readings, {o: face_chances(dice[o]) for o in t.thrown}))
    changes, doppel = chip_changes(t, readings, xs, [])
    rules = score_throw(
        out,
        BOARD,
        dice,
        seats=SEATS,
        active="blue",
        chips=t.chips,
        bets=t.bets,
        cards=t.cards,
        lying_before=lying,
    )
    assert p == 1.0 and doppel == rules.doppel_x
    assert changes == {c: pl.change for c, pl in rules.players.items()}


def test_a_rival_knocked_into_a_hole_and_an_own_die_on_3x_raise_the_standing():
    lying = {"yellow": resting("yellow", FieldKind.THREE, "3", k=1).pose}
    t = table(lying=lying)
    mine = resting("blue", FieldKind.ONE, "1")
    white = resting("white", FieldKind.ONE, "1", k=1)
    stays = ThrowOutcome((mine, white, DieOutcome("yellow", Status.BOARD, lying["yellow"])))
    knocked = ThrowOutcome((mine, white, DieOutcome("yellow", Status.HOLE)))
    better = ThrowOutcome((resting("blue", FieldKind.THREE, "1"), white, DieOutcome("yellow", Status.HOLE)))
    v_stays, v_knocked, v_better = (standing_change(t, o, 0.5) for o in (stays, knocked, better))
    assert v_knocked > v_stays + 4  # yellow loses 9 now and 9 on red's throw
    assert v_better > v_knocked
    # a bet on "a die of the active player in a hole" pays the bettor when the thrower loses a die
    lost = ThrowOutcome((DieOutcome("blue", Status.OFF), white, DieOutcome("yellow", Status.HOLE)))
    assert standing_change(table(lying=lying, bets={"green": "B"}), lost, 0.5) < standing_change(t, lost, 0.5)


def test_lying_dice_count_through_the_throws_before_their_owner_throws_again():
    t = table(thrower="red")
    assert [coming_throws(t, c) for c in SEATS] == [2, 3, 0, 1]
    assert future_weight(3) == pytest.approx(SURVIVAL + SURVIVAL**2 + SURVIVAL**3)
    assert 2.5 < X_WAITING < 3.5


def test_a_decider_counts_only_the_throwers_points():
    t = table(kind="decider")
    out = ThrowOutcome((resting("blue", FieldKind.THREE, "3"), resting("white", FieldKind.TWO, "2")))
    pips = face_chances(DICE["blue"])[1]
    # no X: 3 × mean pips + 2 × mean pips; one X: that die 0; two X: 10
    p = 1 / 6
    expected = (1 - p) ** 2 * 5 * pips + p * (1 - p) * (3 * pips + 2 * pips) + p * p * 10
    assert standing_change(t, out, 0.0) == pytest.approx(expected)


def played(n: int, skills, seed: int = 3, think: int = 12):
    m = DoppelXMatch.with_bots(4, BOARD, seed, skill=skills, think=think, options=GameOptions(target=100))
    for _ in range(n):
        m.play_throw()
    return m


def test_the_search_is_deterministic_by_seed_and_throws_its_best_candidate():
    m = played(5, ["medium"] * 4)
    try:
        req = m.request()
        t = table_of(m, req)
        start = Aim((0.0, 0.0), 0.1)
        a = search(t, SKILLS["hard"], start, Budget(24))
        b = search(t, SKILLS["hard"], start, Budget(24))
        assert a.aim == b.aim and a.value == b.value and a.rollouts == b.rollouts <= 24
        finalists = [c for c in a.candidates if len(c.values) == max(len(c.values) for c in a.candidates)]
        chosen = [c for c in finalists if c.aim == a.aim]
        assert chosen and a.value == chosen[0].mean
        # the search keeps its incumbent unless a finalist beats it on clear evidence (SWITCH_Z
        # standard errors of the paired gain on the rollouts after the spread), and then takes
        # the finalist that beats it most
        incumbent = a.candidates[0]
        assert incumbent.aim == explicit(t, start, SKILLS["hard"])
        gains = [paired_gain(c, incumbent, FIRST_ROLLOUTS) for c in finalists if c is not incumbent]
        clear = [g for g, se in gains if g > SWITCH_Z * se]
        if chosen[0] is incumbent:
            assert not clear
        else:
            assert paired_gain(chosen[0], incumbent, FIRST_ROLLOUTS)[0] == max(clear)
    finally:
        m.close()


def test_the_paired_gains_standard_error_is_over_the_rollouts_it_is_taken_on():
    base = Candidate(Aim((0.0, 0.0), 0.1), [5.0, 5.0, 1.0, 2.0, 3.0, 4.0])
    c = Candidate(Aim((0.0, 0.0), 0.2), [9.0, 9.0, 2.0, 2.0, 5.0, 5.0])
    gain, se = paired_gain(c, base, skip=2)
    # the differences after the first 2: 1, 0, 2, 1 -> mean 1, sd sqrt(2/3), over 4 (not 6) rollouts
    assert gain == pytest.approx(1.0)
    assert se == pytest.approx((2 / 3) ** 0.5 / 2)
    assert paired_gain(c, base, skip=5) == (-float("inf"), float("inf"))  # one difference: no error


def test_the_screen_gives_every_candidate_one_rollout_and_the_better_half_and_the_incumbent_two():
    worth = [1.0, 7.0, 3.0, 9.0, 2.0, 8.0, 0.0, 5.0]  # the incumbent (0) is among the worse half
    pool = [Candidate(Aim((0.0, 0.0), 0.1 * k)) for k in range(len(worth))]
    calls = []

    def evaluate(c, upto):
        k = pool.index(c)
        while len(c.values) < upto:
            calls.append(k)
            c.values.append(worth[k])
        return True

    screen(pool, pool[0], evaluate)
    assert calls[: len(pool)] == list(range(len(pool)))  # one each, in order (stream 0)
    assert [len(c.values) for c in pool] == [2, 2, 1, 2, 1, 2, 1, 2]  # 9, 8, 7, 5 and the incumbent
    assert len(calls) == len(pool) + len(pool) // 2 + 1


def test_a_game_with_an_expert_seat_is_the_same_game_for_the_same_seed():
    skills = ["expert", "medium", "hard", "medium"]
    runs = [played(9, skills) for _ in range(2)]
    try:
        a, b = runs
        assert [r.score.players for r in a.log] == [r.score.players for r in b.log]
        expert = a.bots["blue"]
        assert isinstance(expert.throw, ThinkingThrow) and isinstance(expert.bet, RolloutBet)
        assert expert.throw.last is not None and expert.throw.last.rollouts <= 12
        assert expert.throw.progress == 1.0
    finally:
        for m in runs:
            m.close()


def test_the_expert_bets_on_the_card_its_rollouts_pay_best():
    m = played(5, ["medium", "expert", "medium", "medium"])
    try:
        t = table_of(m, m.request())
        assert t.thrower == "blue"
        t = dataclasses.replace(
            t, lying={o: p for o, p in t.lying.items() if o != "red"}
        )  # red's die in hand
        bet = RolloutBet(12)
        letter = bet.think(t, "red")
        assert letter in t.cards and bet.progress == 1.0
        assert RolloutBet(12).think(t, "red") == letter  # the same rollouts, the same card
        # the card is the best mean pay-out over those rollouts of blue's predicted throw
        skill, aim = predicted_aim(t.policies["blue"], t)
        pays = {x: 0 for x in t.cards}
        for j in range(12):
            out = rollout(t, aim, skill, t.rng(2, t.seat("red"), j)).outcome
            for x, v in card_payouts(t, out, t.cards).items():
                pays[x] += v
        assert pays[letter] == max(pays.values())
    finally:
        m.close()


def test_seats_have_their_own_skills():
    colours = list(SEATS)
    bots = make_bots(colours, ["easy", "expert", "hard", "expert"], think=20)
    assert bots["blue"].throw.skill is SKILLS["easy"] and bots["yellow"].throw.skill is SKILLS["hard"]
    assert bots["red"] is not bots["green"] and bots["red"].throw.budget.rollouts == 20
    assert make_bot("expert").throw.skill is SKILLS["hard"]  # the hard hand, a thinking head
    with pytest.raises(ValueError, match="4 seats need 4 skills"):
        make_bots(colours, ["easy", "hard"])
    with pytest.raises(ValueError, match="at least 12 rollouts"):
        Budget(5)


@pytest.mark.parametrize("spin", [-20.0, 20.0])
def test_a_chosen_spin_rolls_the_dice_forwards_or_backwards(spin):
    import numpy as np

    from physics.throw_model import aimed_throw
    from rules.common.rng import make_rng

    dots = []
    for seed in range(30):
        th = aimed_throw(
            load_box(), Aim((0.0, 0.05), 0.2, "S", 0.0, spin), ["blue"], SKILLS["hard"], make_rng(seed), 0.016
        )
        r = th.releases[0]
        d = np.array([r.velocity[0], r.velocity[1], 0.0])
        roll = np.cross([0.0, 0.0, 1.0], d / np.linalg.norm(d))
        dots.append(float(np.dot(r.angular_velocity, roll)))
    assert np.sign(np.mean(dots)) == np.sign(spin) and abs(np.mean(dots)) > 0.4 * abs(spin)
