"""A thinking bot in the window: it decides on a worker thread while the table keeps drawing."""

from __future__ import annotations

import time

import pytest

from doppelx.games.doppelx.match import DoppelXMatch
from doppelx.games.doppelx.play.controller import PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from rules.doppelx.board_file import load_board
from rules.doppelx.game import GameOptions


def test_an_expert_thinks_off_the_frame_loop_and_its_throw_plays_back(monkeypatch):
    import doppelx.games.doppelx.planner.expert as expert

    monkeypatch.setattr(expert, "DEFAULT_ROLLOUTS", 12)
    monkeypatch.setattr(expert, "WINDOW_SECONDS", None)  # a rollout budget only: deterministic
    setup = GameSetup.standard(
        3, 0, "medium", board="I", seed=5, target=25, skills=("expert", "medium", "expert")
    )
    ctrl = PlayController(None)
    try:
        ctrl.new_game(setup)
        thinking_frames, statuses, seen, kinds = 0, set(), set(), set()
        for _ in range(60000):
            if ctrl.stage is Stage.OVER:
                break
            snap = ctrl.step()
            seen.add(ctrl.stage)
            if ctrl.thinker.busy:
                thinking_frames += 1  # step() came back while the decision was still running
                assert ctrl.stage is Stage.WAIT
                who, _, about = snap.activity.partition(" thinking")
                statuses.add(who.removesuffix(" is").removesuffix(" are"))
                if ctrl.thinker.bets:  # bots bet on another's throw: that throw comes next, not now
                    assert about.startswith((" about a bet…", " about their bets…")), snap.activity
                    assert snap.turn.endswith(" throws next"), snap.turn
                else:  # the thrower plans its throw
                    assert about.startswith("…") and snap.turn.endswith(" throws"), (snap.turn, snap.activity)
                    assert snap.turn.startswith(who.removesuffix(" is")), (snap.turn, snap.activity)
                kinds.add(ctrl.thinker.bets)
                time.sleep(0.002)  # pace the loop like frames do, so the worker gets the interpreter
        assert ctrl.stage is Stage.OVER
        assert thinking_frames > 0 and statuses <= {"Blue", "Yellow", "Blue and Yellow"}
        assert False in kinds
        assert {Stage.FLIGHT, Stage.RESULT} <= seen and ctrl.throws_shown == len(ctrl.match.log)
        # the same seed and bots without the window: the same game
        plain = DoppelXMatch.with_bots(
            3,
            load_board("I"),
            5,
            skill=["expert", "medium", "expert"],
            think=12,
            options=GameOptions(target=25),
        )
        try:
            plain.play()
            assert plain.game.chips == ctrl.game.chips and len(plain.log) == len(ctrl.match.log)
        finally:
            plain.close()
    finally:
        ctrl.close()


def test_while_bots_think_about_their_bets_the_thrower_throws_next(monkeypatch):
    """Fourth playtest: "Blue throws" and "Yellow is thinking…" stood together while the
    experts decided their bets on Blue's throw — Blue could not throw yet. The turn line says
    "throws next" then, and the activity line what the bots think about."""
    import doppelx.games.doppelx.planner.expert as expert

    monkeypatch.setattr(expert, "DEFAULT_ROLLOUTS", 12)
    monkeypatch.setattr(expert, "WINDOW_SECONDS", None)
    setup = GameSetup.standard(
        3, 0, "medium", board="I", seed=1, target=25, skills=("expert", "medium", "expert")
    )
    ctrl = PlayController(None)
    try:
        ctrl.new_game(setup)
        betting_frames = 0
        for _ in range(60000):
            if ctrl.stage is Stage.OVER:
                break
            snap = ctrl.step()
            if ctrl.thinker.busy and ctrl.thinker.bets:
                betting_frames += 1
                assert snap.turn.endswith(" throws next"), snap.turn
                assert " thinking about a bet… " in snap.activity or " thinking about their bets… " in (
                    snap.activity
                ), snap.activity
            if ctrl.thinker.busy:
                time.sleep(0.002)
        assert betting_frames > 0  # (seed 1: the experts bet with rollouts on others' throws)
    finally:
        ctrl.close()


def test_the_new_game_form_cycles_through_expert():
    setup = GameSetup.standard(4, 1, "hard")
    setup.next_skill(2)
    assert setup.seats[2].skill == "expert"
    setup.next_skill(2)
    assert setup.seats[2].skill == "easy"
    assert (
        GameSetup.from_dict(GameSetup.standard(3, 0, skills=("expert",) * 3).to_dict()).seats[0].skill
        == "expert"
    )


def test_a_decision_for_another_game_or_a_dropped_one_is_not_used():
    import threading

    from doppelx.games.doppelx.play.thinking import Thinker

    class Policy:
        progress = 1.0  # the last decision's end

    gate, got = threading.Event(), []
    t = Thinker()
    policy = Policy()
    try:
        t.start(lambda: gate.wait(5) and "throw", got.append, "Blue", policy, "game 1")
        assert t.busy and t.status() == "Blue is thinking… 0 %"  # not the last decision's 100 %
        assert not t.bets
        policy.progress = 0.25
        assert t.status() == "Blue is thinking… 25 %"
        t.poll("game 1")
        assert got == [] and t.busy  # not done yet: nothing happens
        gate.set()
        while t.busy:
            t.poll("game 2")  # a result of game 1 is dropped when game 2 asks
        assert got == [] and t.status() == ""
        gate.clear()
        t.start(
            lambda: gate.wait(5) and "bet",
            got.append,
            "Red and Blue",
            Policy(),
            "game 2",
            many=True,
            bets=True,
        )
        assert t.bets and t.status() == "Red and Blue are thinking about their bets… 0 %"
        gate.set()
        while t.busy:
            t.poll("game 2")
        assert got == ["bet"]
        t.start(lambda: "late", got.append, "Red", Policy(), "game 2")
        t.drop()
        t.poll("game 2")
        assert got == ["bet"] and not t.busy
    finally:
        t.close()


def test_an_expert_thinks_during_the_pause_before_its_throw_not_after_it(monkeypatch):
    """Issue 33: the expert's thinking fills the pause every bot makes before throwing, so from
    the last throw's rest to its release it takes no longer than a medium bot (when no person can
    still bet, which would change its plan)."""
    import doppelx.games.doppelx.planner.expert as expert
    from doppelx.games.doppelx.play import controller as ctl

    monkeypatch.setattr(expert, "DEFAULT_ROLLOUTS", 12)
    monkeypatch.setattr(expert, "WINDOW_SECONDS", None)
    setup = GameSetup.standard(3, 0, "medium", board="I", seed=5, target=25, skills=("expert",) * 3)
    ctrl = PlayController(None)
    waits, releases = [], []
    started = ctrl.thinker.start
    thrown = ctrl._throw_now

    def start(*a, **k):
        req = ctrl.live.request()
        if req.kind == "turn" and a[3] is ctrl.live.bots[req.thrower].throw:  # a throw, not a bet
            waits.append(ctrl.time)
        return started(*a, **k)

    def throw_now(throw=None):
        if ctrl.live.request().kind == "turn":
            releases.append(ctrl.time)
        return thrown(throw)

    monkeypatch.setattr(ctrl.thinker, "start", start)
    monkeypatch.setattr(ctrl, "_throw_now", throw_now)
    try:
        ctrl.new_game(setup)
        for _ in range(20000):
            if len(releases) >= 3 or ctrl.stage is Stage.OVER:
                break
            ctrl.step()
            if ctrl.thinker.busy:
                time.sleep(ctrl.frame_dt)  # frames at the table's pace: thinking takes table time
        assert len(releases) >= 3, (releases, waits)
        # a throw's thinking starts as its pause starts, and it is thrown when the pause ends
        assert len(waits) == len(releases)
        for w, r in zip(waits, releases):
            assert r - w == pytest.approx(ctl.BOT_PAUSE, abs=1.5 * ctrl.frame_dt)
    finally:
        ctrl.close()
