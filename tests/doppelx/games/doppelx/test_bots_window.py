"""A thinking bot in the window: it decides on a worker thread while the table keeps drawing."""

from __future__ import annotations

import time

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
        thinking_frames, statuses, seen = 0, set(), set()
        for _ in range(60000):
            if ctrl.stage is Stage.OVER:
                break
            snap = ctrl.step()
            seen.add(ctrl.stage)
            if ctrl.thinker.busy:
                thinking_frames += 1  # step() came back while the decision was still running
                assert ctrl.stage is Stage.WAIT and "is thinking…" in snap.activity
                statuses.add(snap.activity.split(" is thinking")[0])
                time.sleep(0.002)  # pace the loop like frames do, so the worker gets the interpreter
        assert ctrl.stage is Stage.OVER
        assert thinking_frames > 0 and statuses <= {"Blue", "Yellow", "Blue and Yellow"}
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
        policy.progress = 0.25
        assert t.status() == "Blue is thinking… 25 %"
        t.poll("game 1")
        assert got == [] and t.busy  # not done yet: nothing happens
        gate.set()
        while t.busy:
            t.poll("game 2")  # a result of game 1 is dropped when game 2 asks
        assert got == [] and t.status() == ""
        gate.clear()
        t.start(lambda: "bet", got.append, "Red", Policy(), "game 2")
        while t.busy:
            t.poll("game 2")
        assert got == ["bet"]
        t.start(lambda: "late", got.append, "Red", Policy(), "game 2")
        t.drop()
        t.poll("game 2")
        assert got == ["bet"] and not t.busy
    finally:
        t.close()
