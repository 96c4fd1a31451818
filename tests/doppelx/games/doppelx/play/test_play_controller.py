"""The interactive match without a window: stages, bets and passes, people's throws, replay, save/load."""

from __future__ import annotations

import json

import numpy as np
import pytest

from doppelx.games.doppelx.match import DoppelXMatch
from doppelx.games.doppelx.play.controller import BOT_PAUSE, LOAD_HOLD, PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from render.intents import BetIntent, Command, CommandIntent
from render.snapshot import InputMode
from rules.common.errors import RulesError
from rules.doppelx.board_file import load_board
from rules.doppelx.game_state_io import games_equal
from tests.helpers.play import FakeUi, flick, run_until


@pytest.fixture
def ctrl():
    c = PlayController(FakeUi())
    yield c
    c.close()


def test_a_bot_game_plays_to_the_end_as_the_headless_match_does(ctrl):
    setup = GameSetup.standard(3, 0, "hard", board="II", seed=4, target=12)
    ctrl.new_game(setup)
    seen = set()
    clatter = 0
    texts = 0
    for _ in range(40000):
        if ctrl.stage is Stage.OVER:
            break
        snap = ctrl.step()
        seen.add(ctrl.stage)
        clatter += len(snap.impacts)
        texts = max(texts, len(snap.floating))
        assert snap.input is InputMode.NONE
    assert ctrl.stage is Stage.OVER and ctrl.game.winner is not None
    assert {Stage.WAIT, Stage.FLIGHT, Stage.RESULT} <= seen
    assert clatter > 0 and texts >= 3
    assert ctrl.throws_shown == len(ctrl.match.log) == ctrl.numbers
    title, rows, _ = ctrl.ui.panel
    assert (
        title.startswith(f"{ctrl.game.names[ctrl.game.winner]} wins")
        and rows[0][0] == ctrl.game.names[ctrl.game.winner]
    )
    assert rows[0][2] == max(ctrl.game.chips.values())
    snap = ctrl.snapshot()
    assert snap.banner.endswith("wins!") and snap.scoreboard[0].chips == ctrl.game.chips[ctrl.game.seats[0]]
    # nobody throws any more, nothing pays: no ▶ and no "+N/throw" (fifth playtest)
    assert not any(line.active or line.income is not None for line in snap.scoreboard), snap.scoreboard
    # R on the end screen: the last throw again, then the end screen is back
    ctrl.handle(CommandIntent(Command.REPLAY))
    assert ctrl.stage is Stage.FLIGHT and ctrl.ui.panel is None
    run_until(ctrl, lambda c: c.stage is Stage.OVER)
    assert ctrl.ui.panel[0] == title and ctrl.throws_shown == len(ctrl.match.log)
    # the same seed and bots without the window: the same game
    plain = DoppelXMatch.with_bots(3, load_board("II"), 4, skill="hard", options=ctrl.game.options)
    try:
        plain.play()
        assert plain.game.chips == ctrl.game.chips and len(plain.log) == len(ctrl.match.log)
    finally:
        plain.close()


def test_playback_runs_at_the_physics_sample_rate_and_ends_on_the_outcome(ctrl):
    ctrl.new_game(GameSetup.standard(4, 0, seed=2))
    run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
    rec = ctrl.match.log[-1]
    traj = rec.result.trajectory
    frames = 0
    before = {c: p.before for c, p in rec.score.players.items()}
    while ctrl.stage is Stage.FLIGHT:
        # the scoreboard keeps the chips from before the throw while the dice roll
        assert {line.colour: line.chips for line in ctrl.snapshot().scoreboard} == before
        assert ctrl.snapshot().activity == "Rolling…"
        snap = ctrl.step()
        frames += 1
    assert frames == len(traj) - 1  # one recorded frame per step: real time
    assert ctrl.frame_dt == pytest.approx(traj.times[1] - traj.times[0])
    for d in rec.result.outcome.dice:  # the last frame is the outcome
        assert np.allclose(snap.dice[d.owner].position, d.pose.position, atol=1e-9)
    assert snap.summary and ctrl.stage is Stage.RESULT
    # at rest: the new totals, a summary that stays through the next decision, the throw log
    assert {line.colour: line.chips for line in snap.scoreboard} == ctrl.game.chips
    run_until(ctrl, lambda c: c.stage is not Stage.RESULT)
    assert ctrl.snapshot().summary == snap.summary and len(snap.log) == 1
    run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
    assert ctrl.snapshot().summary == ()


def people_game(ctrl) -> GameSetup:
    """Ann (blue) and Bo (red) with two bots; seed 12 leaves Bo's die in hand after the setup throw."""
    setup = GameSetup.standard(4, 2, seed=12, names=("Ann", "Bo"))
    ctrl.new_game(setup)
    # setup throw: both people flick their own die first, then every die flies at once
    assert ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
    assert ctrl.snapshot().input is InputMode.THROW and "Ann (blue)" in ctrl.snapshot().turn
    ctrl.handle(flick(ctrl))
    assert ctrl.stage is Stage.THROW and ctrl.thrower == "red" and not ctrl.match.log
    ctrl.handle(flick(ctrl))
    run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
    first = ctrl.match.log[0]
    assert first.request.kind == "setup" and set(first.throw.owners) == {"blue", "red", "yellow", "green"}
    run_until(ctrl, lambda c: c.stage is not Stage.FLIGHT and c.stage is not Stage.RESULT)
    # Ann (blue) throws first; Bo's die is in hand, so he may bet before her throw
    assert ctrl.stage is Stage.BET and ctrl.bettor == "red" and "red" not in ctrl.game.on_board
    snap = ctrl.snapshot()
    assert (
        snap.input is InputMode.BET and "Bo (red)" in snap.message and snap.turn == "Ann (blue) throws next"
    )
    return setup


def test_a_person_bets_by_card_and_throws_by_hand(ctrl):
    people_game(ctrl)
    ctrl.handle(BetIntent("Z"))
    assert "not in play" in ctrl.ui.said[-1] and ctrl.stage is Stage.BET
    ctrl.handle(BetIntent("C"))
    assert ctrl.game.bets["red"] == "C" and ctrl.snapshot().bets["red"] == "C"
    assert ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
    assert ctrl.ui.stood[-1][0] == "S"  # seat 0 sits at the south wall
    ctrl.handle(BetIntent("A"))
    assert ctrl.ui.said[-1] == "no bets now"
    n = len(ctrl.match.log)
    ctrl.handle(flick(ctrl, 1.1))
    assert len(ctrl.match.log) == n + 1 and ctrl.stage is Stage.FLIGHT
    rec = ctrl.match.log[-1]
    assert rec.request.thrower == "blue" and set(rec.throw.owners) == {"blue", "white"}
    assert rec.bets["red"] == "C"
    traj = rec.result.trajectory
    i = traj.owners.index("blue")
    assert np.linalg.norm(traj.positions[-1, i, :2] - traj.positions[0, i, :2]) > 0.05  # it left the hand
    run_until(ctrl, lambda c: c.stage is Stage.THROW)
    assert ctrl.thrower == "red" and ctrl.game.active == "red"


def test_a_person_may_pass(ctrl):
    people_game(ctrl)
    ctrl.handle(CommandIntent(Command.PASS))
    assert "red" not in ctrl.game.bets and ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
    # a trace like a bet that passed by itself (sixth playtest: N left none): the message, the
    # throw log and the activity line until the throw
    snap = ctrl.snapshot()
    assert ctrl.ui.said[-1].endswith("(red): no bet") and ctrl.history[-1].endswith("(red): no bet")
    assert "(red): no bet" in snap.activity
    ctrl.handle(flick(ctrl))
    assert "red" not in ctrl.match.log[-1].bets and set(ctrl.match.log[-1].bets) <= {"yellow", "green"}


def test_a_throw_intent_when_it_is_not_yours_is_refused(ctrl):
    ctrl.new_game(GameSetup.standard(3, 0, seed=1))
    ctrl.ui.stood.append(("S", 0.0))
    ctrl.handle(flick(ctrl))
    assert ctrl.ui.said[-1] == "it is not your throw now" and not ctrl.match.log


def test_replay_shows_the_last_throw_again_and_the_game_goes_on(ctrl):
    ctrl.new_game(GameSetup.standard(4, 1, seed=5))
    ctrl.handle(CommandIntent(Command.REPLAY))
    assert ctrl.ui.said[-1] == "no throw to replay yet"
    ctrl.handle(flick(ctrl))
    run_until(ctrl, lambda c: c.stage in (Stage.BET, Stage.THROW) and c.match.log)
    stage, who = ctrl.stage, (ctrl.bettor, ctrl.thrower)
    chips, throws = dict(ctrl.game.chips), len(ctrl.match.log)
    ctrl.handle(CommandIntent(Command.REPLAY))
    assert ctrl.stage is Stage.FLIGHT and ctrl.replaying
    snap = ctrl.snapshot()
    assert snap.turn.startswith("Replay of throw 1")
    run_until(ctrl, lambda c: c.stage is Stage.RESULT)
    ctrl.handle(CommandIntent(Command.REPLAY))  # once more from the replay's last frame
    assert ctrl.stage is Stage.FLIGHT and ctrl.replaying
    run_until(ctrl, lambda c: c.stage is stage)
    assert (ctrl.bettor, ctrl.thrower) == who and ctrl.game.chips == chips and len(ctrl.match.log) == throws
    assert ctrl.throws_shown == 1  # a replay is no new throw


def test_save_and_load_restore_the_table_and_the_game_plays_on_identically(tmp_path):
    path = tmp_path / "game.json"
    a = PlayController(FakeUi(), save_path=path)
    b = PlayController(FakeUi(), save_path=path)
    try:
        a.new_game(GameSetup.standard(5, 0, "easy", board="III", cards=("A", "C", "E", "G"), seed=14))
        run_until(a, lambda c: c.throws_shown == 4 and c.stage is Stage.WAIT)  # the bots have bet
        assert a.game.bets
        a.handle(CommandIntent(Command.SAVE))
        assert a.ui.said[-1] == f"game saved to {path}"
        data = json.loads(path.read_text())
        assert data["format"] == "doppelx-save/1" and data["setup"]["board"] == "III"
        assert data["game"]["on_board"] and data["last_throw"]["number"] == 4
        b.handle(CommandIntent(Command.LOAD))
        assert b.ui.said[-1].startswith(f"Loaded {path}: 5 players, throw 4 done")
        assert b.ui.busy_texts == [f"Loading {path}…", ""]
        assert b.setup == a.setup and games_equal(b.game, a.game)
        assert b.game.on_board == a.game.on_board and b.game.chips == a.game.chips
        assert b.match.spinner_angle == a.match.spinner_angle
        assert b.match.rng.bit_generator.state == a.match.rng.bit_generator.state
        assert b.numbers == a.numbers == 4
        # the throw log and the last throw's summary come back with the game
        assert len(a.history) == 4 and b.history == a.history and data["log"] == a.history
        assert b.summary and b.snapshot().summary == a.snapshot().summary
        # the replay of the loaded last throw (simulated again) ends where the dice came to rest
        b.replay()
        run_until(b, lambda c: c.stage is Stage.RESULT)
        snap = b.snapshot()
        for d in a.match.log[-1].result.outcome.dice:
            assert np.allclose(snap.dice[d.owner].position, d.pose.position, atol=1e-9)
        # both play on to the same next throws
        run_until(a, lambda c: c.throws_shown == 2 + 4 and c.stage is Stage.RESULT)
        run_until(b, lambda c: c.numbers == 6 and c.stage is Stage.RESULT)
        assert b.game.chips == a.game.chips and b.game.on_board == a.game.on_board
        assert games_equal(b.game, a.game)
    finally:
        a.close()
        b.close()


def test_loading_a_bad_file_is_explained_in_the_window(tmp_path, ctrl):
    ctrl.save_path = tmp_path / "missing.json"
    ctrl.handle(CommandIntent(Command.LOAD))
    assert "no saved game there" in ctrl.ui.said[-1]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "doppelx-save/1", "setup": {"seats": []}}')
    ctrl.save_path = bad
    ctrl.handle(CommandIntent(Command.LOAD))
    assert "setup.board" in ctrl.ui.said[-1] or "setup" in ctrl.ui.said[-1]
    # a good save whose throw log is damaged names the log
    ctrl.new_game(GameSetup.standard(3, 0, seed=4))
    run_until(ctrl, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
    good = tmp_path / "good.json"
    ctrl.save(good)
    for log, where in ((7, "log"), (["ok", 3], "log[1]")):
        bad.write_text(json.dumps(json.loads(good.read_text()) | {"log": log}))
        ctrl.handle(CommandIntent(Command.LOAD))
        assert f"{bad}: {where}: expected" in ctrl.ui.said[-1]


def test_setup_edits_keep_a_playable_game():
    s = GameSetup.standard(3, 1)
    s.resize(9)
    assert len(s.seats) == 8 and len({x.colour for x in s.seats}) == 8
    s.resize(2)
    assert len(s.seats) == 3
    s.next_colour(0)
    assert s.seats[0].colour not in {x.colour for x in s.seats[1:]}
    s.toggle_human(1)
    assert s.seats[1].human and s.seats[1].name == "Player 2"
    s.next_skill(2)
    assert s.seats[2].skill == "hard"
    s.toggle_card("E")
    assert s.cards == ["A", "B", "C", "D"]  # a fifth card needs one taken out first
    s.toggle_card("B")
    s.toggle_card("H")
    assert s.cards == ["A", "C", "D", "H"]
    s.rename(2, "Player 2")
    with pytest.raises(RulesError, match="same name"):
        s.check()
    with pytest.raises(RulesError, match="--humans"):
        GameSetup.standard(3, 4)
    assert GameSetup.from_dict(
        json.loads(json.dumps(GameSetup.standard(6, 2).to_dict()))
    ) == GameSetup.standard(6, 2)


def test_a_save_that_cannot_be_written_is_a_message_and_the_game_goes_on(tmp_path, ctrl):
    ctrl.new_game(GameSetup.standard(3, 0, seed=4))
    run_until(ctrl, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
    folder = tmp_path / "saves"
    folder.mkdir()
    ctrl.save_path = folder  # a folder where the file should be
    stage, chips = ctrl.stage, dict(ctrl.game.chips)
    ctrl.handle(CommandIntent(Command.SAVE))
    assert ctrl.ui.said[-1] == f"Not saved — cannot write {folder}: it is a folder. The game goes on."
    assert ctrl.stage is stage and ctrl.game.chips == chips and ctrl.match is not None
    assert list(tmp_path.rglob("*")) == [folder]  # nothing written, no stray temporary file
    ctrl.save_path = tmp_path / "no" / "such" / "\0bad.json"  # a path the system refuses
    ctrl.handle(CommandIntent(Command.SAVE))
    assert ctrl.ui.said[-1].startswith("Not saved — cannot write")
    run_until(ctrl, lambda c: c.throws_shown == 2)  # and the game plays on


def test_quitting_a_game_in_progress_autosaves_and_load_resumes_exactly(tmp_path, monkeypatch):
    from doppelx.games.doppelx.play.controller import autosave_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    a, b = PlayController(FakeUi()), PlayController(FakeUi())
    try:
        a.new_game(GameSetup.standard(4, 0, "easy", board="II", seed=21))
        run_until(a, lambda c: c.throws_shown == 3 and c.stage is Stage.WAIT)
        a.handle(CommandIntent(Command.QUIT))  # Esc or the window's close button
        assert a.quit_requested and a.autosaved == autosave_path() == tmp_path / "state/doppelx/autosave.json"
        b.load(a.autosaved)
        assert games_equal(b.game, a.game) and b.numbers == a.numbers == 3
        assert b.match.rng.bit_generator.state == a.match.rng.bit_generator.state
        # a bot throws next: first a look at the loaded table (fifth playtest: a bot threw ~1 s
        # after Ctrl+O), "Enter: go on" ends it at once
        loaded_at = b.time
        run_until(b, lambda c: c.stage is not Stage.WAIT or c.time >= loaded_at + LOAD_HOLD - 0.05)
        assert b.stage is Stage.WAIT and b.snapshot().message == "Enter: go on"
        went_on = b.time
        assert b.go_on()
        run_until(b, lambda c: c.stage is Stage.FLIGHT)
        assert b.time - went_on <= BOT_PAUSE + 0.1  # then the bot's own pause only
        run_until(a, lambda c: c.throws_shown == 5 and c.stage is Stage.RESULT)
        run_until(b, lambda c: c.numbers == 5 and c.stage is Stage.RESULT)
        assert games_equal(b.game, a.game) and b.game.on_board == a.game.on_board
    finally:
        a.close()
        b.close()
    # nothing to save: no game yet, or the game is over
    c = PlayController(FakeUi())
    c.handle(CommandIntent(Command.QUIT))
    assert c.quit_requested and c.autosaved is None


def test_a_failed_autosave_keeps_the_window_open_once_then_leaves_unsaved(tmp_path, monkeypatch):
    """Session 8's window audit: the game was lost in silence when the autosave could not be written."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        c.handle(CommandIntent(Command.QUIT))
        assert not c.quit_requested and c.autosaved is None and c.ui.kept_open == 1
        assert c.ui.said[-1].startswith("Could not autosave — ") and "quit again" in c.ui.said[-1]
        c.handle(CommandIntent(Command.QUIT))  # the second request leaves, unsaved
        assert c.quit_requested and c.autosaved is None and c.unsaved and c.ui.kept_open == 1
        assert c.hand_kept is None
    finally:
        c.close()


def test_a_ctrl_s_of_the_game_as_it_stands_lets_the_window_close_with_nothing_lost(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    c = PlayController(FakeUi(), save_path=tmp_path / "elsewhere.json")
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        c.handle(CommandIntent(Command.QUIT))  # refused: the autosave cannot be written
        c.handle(CommandIntent(Command.SAVE))  # Ctrl+S elsewhere, as the message says
        c.handle(CommandIntent(Command.QUIT))
        assert (
            c.quit_requested and c.unsaved is None and c.hand_kept == (tmp_path / "elsewhere.json").resolve()
        )
        # a throw made after the Ctrl+S: that save is no longer the game as it stands
        d = PlayController(FakeUi(), save_path=tmp_path / "other.json")
        try:
            d.new_game(GameSetup.standard(3, 0, "easy", seed=4))
            d.handle(CommandIntent(Command.SAVE))
            run_until(d, lambda c: c.throws_shown == 2 and c.stage is Stage.WAIT)
            d.handle(CommandIntent(Command.QUIT))
            assert not d.quit_requested and d.unsaved
            run_until(d, lambda c: c.stage is Stage.OVER)  # the game ends meanwhile: nothing to save
            d.handle(CommandIntent(Command.QUIT))
            assert d.quit_requested and d.unsaved is None and d.hand_kept is None
        finally:
            d.close()
    finally:
        c.close()


def test_quitting_while_a_throw_rolls_keeps_its_log_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    a, b = PlayController(FakeUi()), PlayController(FakeUi())
    try:
        a.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(a, lambda c: c.throws_shown == 2 and c.stage is Stage.FLIGHT)
        assert a.numbers == 3 and len(a.history) == 2  # throw 3 is scored and rolling
        a.handle(CommandIntent(Command.QUIT))
        b.load(a.autosaved)
        assert [line.split(".")[0] for line in b.history] == ["1", "2", "3"]
    finally:
        a.close()
        b.close()


def test_quitting_during_the_replay_of_a_finished_games_end_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4, target=8))
        run_until(c, lambda c: c.stage is Stage.OVER)
        c.handle(CommandIntent(Command.REPLAY))
        assert c.stage is Stage.FLIGHT and c.replaying
        c.handle(CommandIntent(Command.QUIT))
        assert c.quit_requested and c.autosaved is None and not (tmp_path / "state").exists()
    finally:
        c.close()


def test_the_summary_says_per_die_and_per_bet_why_then_each_change():
    from doppelx.games.doppelx.play import view
    from rules.doppelx.board import FieldKind
    from rules.doppelx.outcome import Status
    from rules.doppelx.reading import DieReading
    from rules.doppelx.scoring import PlayerScore, ThrowScore

    readings = (
        DieReading("blue", Status.BOARD, "3", field=FieldKind.TWO),
        DieReading("white", Status.BOARD, "X", field=FieldKind.THREE),
        DieReading("green", Status.BOARD, "2", field=FieldKind.MINUS_ONE),
        DieReading("yellow", Status.OFF),
    )
    score = ThrowScore(
        readings,
        False,
        {
            "blue": PlayerScore("blue", 6, 0, 0, 2, 8),
            "red": PlayerScore("red", 0, 3, 0, 0, 3),
            "green": PlayerScore("green", -1, 0, 0, 4, 3),
            "yellow": PlayerScore("yellow", 0, 0, 0, 4, 4),
        },
        "blue",
    )
    names = {"blue": "Ann", "red": "Bo", "green": "Cy", "yellow": "Di"}
    lines = view.result_lines(score, {"red": "C", "yellow": "D"}, names)
    assert lines == (
        "blue 3 on 2x = 6 · white X = 0",
        "green 2 on -1 = -1 · Bo bet C +3",
        "Di bet D 0",
        "= Ann +6 · Bo +3 · Cy -1",
        "Di's die: off the box",
    )
    assert all(len(line) <= view.LINE_CHARS for line in lines)
    log = view.log_line(score, {"red": "C"}, names)
    assert (
        log
        == "blue 3 on 2x = 6 · white X = 0 · green 2 on -1 = -1 · Bo bet C +3 → Ann +6, Bo +3, Cy -1 · Di's die: off the box"
    )
    # a thrower whose dice brought nothing is still named (both off the box, say)
    idle = ThrowScore((), False, {"blue": PlayerScore("blue", 0, 0, 0, 2, 2)}, "blue")
    assert view.result_lines(idle, {}, names) == ("= Ann +0",)
    assert view.log_line(idle, {}, names) == "Ann +0"
    # a Doppel X on the setup throw names no bet cards: nobody bets on it (fourth playtest)
    import dataclasses

    from rules.doppelx.bets import load_bet_cards

    cards = {k: c for k, c in load_bet_cards().items() if k in "ABCD"}
    double = dataclasses.replace(idle, doppel_x=True)
    assert view.result_lines(double, {}, names, "setup", cards)[0] == "Doppel X! No other die pays"
    assert view.result_lines(double, {}, names, "turn", cards)[0].endswith("of the bets only A")


def test_the_log_has_no_empty_part_before_the_changes():
    """Second playtest: the throw log's lines read "… white X = 0 · = Ann +6": a " · " with
    nothing before the "=". The changes follow the dice and bets after an arrow."""
    from doppelx.games.doppelx.play import view
    from rules.doppelx.board import FieldKind
    from rules.doppelx.outcome import Status
    from rules.doppelx.reading import DieReading
    from rules.doppelx.scoring import PlayerScore, ThrowScore

    names = {"blue": "Ann", "red": "Bo"}
    players = {"blue": PlayerScore("blue", 6, 0, 0, 2, 8), "red": PlayerScore("red", 0, 3, 0, 0, 3)}
    dice = (
        DieReading("blue", Status.BOARD, "3", field=FieldKind.TWO),
        DieReading("white", Status.HOLE),
    )
    for readings in (dice, dice[1:], ()):
        for bets in ({}, {"red": "C"}):
            line = view.log_line(ThrowScore(readings, False, players, "blue"), bets, names)
            assert all(p.strip() and not p.lstrip().startswith("=") for p in line.split(" · ")), line
            assert "Ann +6, Bo +3" in line
    line = view.log_line(ThrowScore(dice, False, players, "blue"), {"red": "C"}, names)
    assert line == "blue 3 on 2x = 6 · Bo bet C +3 → Ann +6, Bo +3 · Ann's white die: in a hole"


def test_the_window_and_the_test_stand_in_both_speak_the_game_ui_protocol():
    import inspect

    from doppelx.games.doppelx.play.ui import GameUi
    from doppelx.games.doppelx.play.window import PlayWindow

    members = [n for n, _ in inspect.getmembers(GameUi) if not n.startswith("_")]
    assert set(members) >= {"say", "stand", "open_dialog", "show_panel", "hide_panel", "busy", "dialog_open"}
    for name in members:
        assert hasattr(PlayWindow, name) and hasattr(FakeUi, name), name
    src = inspect.getsource(__import__("doppelx.games.doppelx.play.controller", fromlist=["x"]))
    assert "getattr(self.ui" not in src and "hasattr(self.ui" not in src  # no method names in strings


def test_seats_made_people_out_of_order_get_names_nobody_has():
    """Session 8's window audit: Bot on row 3, then on row 2, made two "Player 2"s."""
    s = GameSetup.standard(4, 1)
    s.toggle_human(2)
    s.toggle_human(1)
    names = [x.name for x in s.seats]
    assert names[:3] == ["Player 1", "Player 3", "Player 2"] and len(set(names)) == 4
    s.check()  # the form's Start accepts it


def test_the_rules_card_names_this_games_mark():
    from render.hud import RULEBOOK_END, RULES_CARD, rules_line

    assert RULEBOOK_END in RULES_CARD
    assert rules_line(RULEBOOK_END, 0) == RULEBOOK_END
    assert rules_line(RULEBOOK_END, 5).startswith("First to 5 chips wins (this game's mark")
    assert rules_line(RULEBOOK_END, 70).startswith("First to 70 chips wins")
    assert rules_line(RULES_CARD[0], 5) == RULES_CARD[0]


def test_the_snapshot_carries_the_games_target():
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4, target=8))
        assert c.snapshot().target == 8
    finally:
        c.close()


def test_a_decider_says_its_points_and_who_won_it():
    """Session 8's window audit: a decider throw read "Orange +0 (dice +4)" and the end screen
    did not say the tie was settled."""
    c = PlayController(FakeUi())
    try:
        # seed 4, target 5, 8 easy bots: the setup throw's Doppel X ties Yellow, Purple and Pink at 10
        c.new_game(GameSetup.standard(8, 0, "easy", seed=4, target=5))
        run_until(c, lambda c: c.stage is Stage.OVER)
        game = c.game
        assert game.decider_history, "this game was meant to end in a decider"
        deciders = [line for line in c.history if "Decider:" in line]
        assert deciders and all("in the decider" in line and "+0" not in line for line in deciders)
        title = c.ui.panel[0]
        assert title == f"{game.names[game.winner]} wins the decider!"
        # the throws that ended the game and the decider's are counted apart (third playtest:
        # "Game over after 10 throws" when the game ended at throw 8)
        deciding = sum(1 for e in game.log if e.kind == "decider")
        turns = sum(1 for e in game.log if e.kind != "decider")
        assert (turns, deciding) == (1, 3)  # the setup throw, then three decider throws
        assert c.snapshot().turn == "Game over after 1 throw and 3 decider throws"
    finally:
        c.close()


def test_ctrl_o_of_a_missing_file_leaves_the_autosave_alone(tmp_path, monkeypatch):
    """Session 8's review: Ctrl+O autosaved before it knew the load would work."""
    from doppelx.games.doppelx.play.controller import autosave_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    c = PlayController(FakeUi(), save_path=tmp_path / "missing.json")
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        c.handle(CommandIntent(Command.LOAD))
        assert c.ui.said[-1].startswith("Not loaded — ") and c.ui.said[-1].endswith("The game goes on.")
        assert not autosave_path().exists()
    finally:
        c.close()


def test_ctrl_o_autosaves_the_game_in_progress_first(tmp_path, monkeypatch):
    from doppelx.games.doppelx.play.controller import autosave_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    c = PlayController(FakeUi(), save_path=tmp_path / "saved.json")
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        c.save()
        run_until(c, lambda c: c.throws_shown == 3 and c.stage is Stage.WAIT)
        c.handle(CommandIntent(Command.LOAD))  # Ctrl+O
        assert c.numbers == 1 and autosave_path().is_file()
        assert "the game before is in" in c.ui.said[-1]
        c.load(autosave_path())
        assert c.numbers == 3  # the game that was replaced is not lost
    finally:
        c.close()


def test_a_new_game_over_a_game_in_progress_autosaves_it_first(tmp_path, monkeypatch):
    """Ninth playtest: Ctrl+N then Enter mid-game threw the game away without a word (Ctrl+O
    autosaved first). A new game now does too and names the file; a finished game is not saved."""
    from doppelx.games.doppelx.play.controller import autosave_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        assert not autosave_path().exists()  # nothing was in progress
        run_until(c, lambda c: c.throws_shown == 2 and c.stage is Stage.WAIT)
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))
        assert c.numbers == 0 and c.setup.seed == 5 and autosave_path().is_file()
        assert c.ui.said[-1].startswith("New game; the game before is in ")
        c.load(autosave_path())
        assert c.numbers == 2 and c.setup.seed == 4  # the game that was replaced is not lost
    finally:
        c.close()


def test_a_game_not_yet_played_is_not_autosaved_over_the_one_before(tmp_path, monkeypatch):
    """Tenth playtest: Ctrl+N put the game in the autosave; the new game, not yet played, was
    autosaved over it by Ctrl+O, and the old game was gone. A game with nothing played is not in
    progress: it is not autosaved, and the form over it says nothing of ending a game."""
    from doppelx.games.doppelx.play.controller import autosave_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    c = PlayController(FakeUi(), save_path=tmp_path / "saved.json")
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 2 and c.stage is Stage.WAIT)
        c.save()  # something for Ctrl+O to load
        c.open_new_game()
        assert c.ui.dialog_over_a_game  # a game in progress: the form says starting ends it
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))  # the seed-4 game goes to the autosave
        assert not c.in_progress
        c.open_new_game()
        assert not c.ui.dialog_over_a_game
        c.handle(CommandIntent(Command.LOAD))  # Ctrl+O over the unplayed game
        assert c.setup.seed == 4 and "the game before" not in c.ui.said[-1]
        c.load(autosave_path())
        assert c.setup.seed == 4 and c.numbers == 2  # still the game Ctrl+N put there, not seed 5's
    finally:
        c.close()


def test_a_new_game_is_not_started_when_the_game_in_progress_cannot_be_autosaved(tmp_path, monkeypatch):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))
        assert c.setup.seed == 4 and c.numbers == 1  # the game goes on
        assert c.ui.said[-1].startswith("Not started — the game in progress could not be autosaved first")
    finally:
        c.close()


def test_a_new_game_from_the_form_gets_a_new_seed():
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        c.open_new_game()
        offered = c.ui.dialogs[-1][0]
        assert offered.seed != 4 and offered.seats == c.setup.seats
    finally:
        c.close()


def test_a_save_during_the_setup_throw_keeps_the_dice_people_threw(tmp_path):
    """Session 8's window audit: Ann's setup flick was lost on Ctrl+S / Ctrl+O."""
    a, b = PlayController(FakeUi()), PlayController(FakeUi())
    try:
        a.new_game(GameSetup.standard(4, 2, seed=8, names=("Ann", "Bo")))
        a.handle(flick(a))  # Ann throws her die; it waits for Bo's
        assert a.thrower == "red" and set(a.hands) == {"blue"}
        path = a.save(tmp_path / "s.json")
        b.load(path)
        assert b.stage is Stage.THROW and b.thrower == "red" and set(b.hands) == {"blue"}
        assert b.hands["blue"].to_dict() == a.hands["blue"].to_dict()
        b.ui.stood.append(a.ui.stood[-1])
        a.handle(flick(a))
        b.handle(flick(b))  # Bo throws in both: the same setup throw
        run_until(a, lambda c: c.stage is Stage.FLIGHT)
        run_until(b, lambda c: c.stage is Stage.FLIGHT)
        assert a.match.log[0].throw.to_dict() == b.match.log[0].throw.to_dict()
    finally:
        a.close()
        b.close()


REFEREE_HINT = "Tab: see why"


def hints(ctrl: PlayController) -> list[str]:
    """The referee hints the window was asked to show."""
    return [s for s in ctrl.ui.said if s.startswith(REFEREE_HINT)]


def test_the_referee_hint_shows_once_a_window_session_and_not_again_after_a_load(tmp_path, monkeypatch):
    """Ctrl+O and ``doppelx play --load`` do not bring the hint back (a load starts no new session's
    count: the hint follows the game's own throws)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    saved = tmp_path / "saved.json"
    c = PlayController(FakeUi(), save_path=saved)
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 1 and c.stage is Stage.WAIT)
        assert hints(c) == []
        c.save()
        run_until(c, lambda c: c.throws_shown == 3 and c.stage is Stage.WAIT)
        assert len(hints(c)) == 1  # after the game's second throw
        c.handle(CommandIntent(Command.LOAD))  # Ctrl+O: back to throw 1, its second throw comes again
        run_until(c, lambda c: c.throws_shown == 2 and c.stage is Stage.WAIT)
        assert len(hints(c)) == 1
        c.save(tmp_path / "later.json")
    finally:
        c.close()
    d = PlayController(FakeUi())  # --load: a new window, a game past its second throw
    try:
        d.load(tmp_path / "later.json")
        run_until(d, lambda d: d.throws_shown == 2 and d.stage is Stage.WAIT)
        assert hints(d) == []
    finally:
        d.close()


def test_no_referee_hint_once_the_referee_view_has_been_opened():
    ui = FakeUi()
    ui.referee_seen = True  # Tab before the second throw
    c = PlayController(ui)
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=4))
        run_until(c, lambda c: c.throws_shown == 3 and c.stage is Stage.WAIT)
        assert hints(c) == [] and c.ui.said == []
    finally:
        c.close()


def test_a_replay_labels_the_lying_dice_once_the_thrown_ones_rest():
    """Issue 32, third playtest: in the R replay of a Doppel X the second X, lying on the board
    before the throw (at rest from the first frame), had no "X!" label: a die resting from frame
    0 was labelled only on the trajectory's very last frame. Once every die rests, every die
    with a text is labelled, the lying ones too."""
    from doppelx.games.doppelx.play import view

    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(4, 0, "hard", seed=4))
        for _ in range(12):  # a throw with a die lying from before and a tail after all rest
            run_until(c, lambda c: c.stage in (Stage.BET, Stage.THROW, Stage.WAIT) and c.last is not None)
            last = c.last
            c.handle(CommandIntent(Command.REPLAY))
            pb = c.playback
            lying = {o for o, k in pb.rest_frame.items() if k == 0}
            texts = {r.owner for r in last.score.readings if view.die_text(r, last.score.doppel_x)}
            if lying & texts and max(pb.rest_frame.values()) < pb.frames - 1:
                break
            run_until(c, lambda c: not c.replaying)
            run_until(c, lambda c: c.stage is Stage.FLIGHT)
        else:
            pytest.fail("no throw with a lying die to replay")
        run_until(c, lambda c: c.playback.resting() >= set(c.playback.poses()))
        assert not c.playback.done
        snap = c.snapshot()
        dice = pb.poses()
        want = len([r for r in last.score.readings if r.owner in dice and r.owner in texts])
        assert len(snap.floating) >= want
        shown = {f.position[:2] for f in snap.floating}
        for o in lying & texts:
            assert tuple(dice[o].position[:2]) in shown, o
    finally:
        c.close()


def test_each_person_throws_again_from_where_they_stood_and_a_save_keeps_it(tmp_path):
    """Eleventh playtest (hot seat): Ann stood at the east wall and saved; Ctrl+O put her back at
    her seat, and Bo's 8 cm along his wall were gone at his next turn. Each person's next throw
    now starts where they last stood, and a save keeps every person's stance (the one about to
    throw: as walked, not yet thrown); a new game starts everyone at their seats."""
    path = tmp_path / "game.json"
    a = PlayController(FakeUi(), save_path=path)
    b = PlayController(FakeUi(), save_path=path)
    try:
        a.new_game(GameSetup.standard(3, 2, "easy", board="I", seed=8))
        people = [s.colour for s in a.setup.seats if s.human]
        walked = {people[0]: ("E", 0.05), people[1]: ("S", 0.08)}
        seats = {}
        for _ in range(2):  # the setup throw: each person throws their own die from a walked spot
            run_until(a, lambda c: c.stage is Stage.THROW and c.thrower not in seats)
            seats[a.thrower] = a.ui.stood[-1]  # where the turn put them: their seat
            a.ui.stand(*walked[a.thrower])
            a.handle(flick(a))
        assert all(seats[c] != walked[c] for c in people)
        # their next throws start where they stood, not at their seats
        for k in range(3):
            run_until(a, lambda c, k=k: c.stage is Stage.THROW and c.numbers >= 1 + k)
            assert a.ui.stood[-1] == walked[a.thrower], (a.thrower, a.ui.stood[-3:])
            if k == 0:
                a.ui.stand("W", -0.03)  # walks on, then saves before throwing
                moved = a.thrower
                a.handle(CommandIntent(Command.SAVE))
                saved = json.loads(path.read_text())["stances"]
                assert saved[moved] == {"wall": "W", "along": -0.03}
                other = next(c for c in people if c != moved)
                assert saved[other] == {"wall": walked[other][0], "along": walked[other][1]}
                b.handle(CommandIntent(Command.LOAD))
                run_until(b, lambda c: c.stage is Stage.THROW)
                assert b.thrower == moved and b.ui.stood[-1] == ("W", -0.03)
                assert b.stances[other] == walked[other]
            a.handle(flick(a))
            walked[moved] = ("W", -0.03)  # thrown from there: their next turn starts there
        b.new_game(GameSetup.standard(3, 2, "easy", board="I", seed=8))
        assert b.stances == {}
        run_until(b, lambda c: c.stage is Stage.THROW)
        assert b.ui.stood[-1] == seats[b.thrower]  # a new game: the seat again
    finally:
        a.close()
        b.close()


def _damaged_save_error(tmp_path, key: str, entry) -> str:
    """The message of loading a one-person save whose ``key`` is ``entry(person, bot)``."""
    from doppelx.games.doppelx.play.savegame import load_game
    from rules.common.errors import DoppelXError

    path = tmp_path / "game.json"
    a = PlayController(FakeUi(), save_path=path)
    try:
        a.new_game(GameSetup.standard(3, 1, "easy", board="I", seed=8))
        a.handle(CommandIntent(Command.SAVE))
        person = next(s.colour for s in a.setup.seats if s.human)
        bot = next(s.colour for s in a.setup.seats if not s.human)
    finally:
        a.close()
    data = json.loads(path.read_text())
    data[key] = entry(person, bot)
    path.write_text(json.dumps(data))
    with pytest.raises(DoppelXError) as err:
        load_game(path)
    return str(err.value)


@pytest.mark.parametrize(
    ("stances", "words"),
    [
        ({"PERSON": {"wall": "Q", "along": 0.0}}, "wall"),
        ({"PERSON": {"wall": "E", "along": 5.0}}, "beyond the box's walls"),
        ({"BOT": {"wall": "E", "along": 0.0}}, "is not a person at this table"),
        ({"PERSON": {"wall": "E"}}, "along"),
    ],
)
def test_a_damaged_stance_in_a_save_is_refused_naming_it(tmp_path, stances, words):
    said = _damaged_save_error(
        tmp_path,
        "stances",
        lambda person, bot: {person if k == "PERSON" else bot: v for k, v in stances.items()},
    )
    assert "stances" in said and words in said, said


@pytest.mark.parametrize(
    ("passes", "words"),
    [({"passed": ["BOT"], "said": []}, "people's colours"), ({"passed": [], "said": [3]}, "lines of text")],
)
def test_damaged_passes_in_a_save_are_refused_naming_them(tmp_path, passes, words):
    said = _damaged_save_error(
        tmp_path,
        "passes",
        lambda person, bot: {k: [bot if x == "BOT" else x for x in v] for k, v in passes.items()},
    )
    assert "passes" in said and words in said, said


def test_the_white_dies_label_says_whose_chips_they_are():
    """Thirteenth playtest: the white die's "+2" did not say whose it was (it pays the thrower,
    D15). On a player's throw its label names them: "+2 for Ann" (a 0 names nobody); other dice's
    labels as before."""
    from doppelx.games.doppelx.play import view
    from rules.doppelx.dice import WHITE
    from rules.doppelx.outcome import Status

    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(3, 0, "medium", seed=8, names=("Ann", "Bo", "Cy")))
        for _ in range(20):
            run_until(c, lambda c: c.stage in (Stage.BET, Stage.THROW, Stage.WAIT) and c.last is not None)
            white = c.last.score.reading(WHITE)
            board = white is not None and white.status is Status.BOARD
            pays = board and view.die_text(white, c.last.score.doppel_x) != "0"
            if c.last.kind == "turn" and pays and not c.last.score.doppel_x:
                break
            run_until(c, lambda c: c.stage is Stage.FLIGHT)
        else:
            pytest.fail("no player's throw with the white die on the board")
        last = c.last
        texts = [f.text for f in c.snapshot().floating]
        name = c.live.game.names[last.thrower]
        white_text = view.die_text(white, last.score.doppel_x)
        assert f"{white_text} for {name}" in texts, texts
        assert sum(t.endswith(f" for {name}") for t in texts) == 1  # the white die's alone
    finally:
        c.close()


def test_the_white_dies_x_in_a_doppel_x_names_the_thrower_too():
    """Fourteenth playtest: in a Doppel X the white die read only "X!", and the summary's
    "Pink +10" left it to be worked out that its X counted for Pink, the thrower (D18)."""
    from doppelx.games.doppelx.play import view
    from rules.doppelx.board import FieldKind
    from rules.doppelx.outcome import Pose, Status
    from rules.doppelx.reading import DieReading

    readings = (
        DieReading("white", Status.BOARD, "X", field=FieldKind.ONE),
        DieReading("blue", Status.BOARD, "X", field=FieldKind.TWO),
        DieReading("red", Status.BOARD, "2", field=FieldKind.TWO),
    )
    poses = {
        o: Pose((0.01 * k, 0.0, 0.008), (0.0, 0.0, 0.0, 1.0)) for k, o in enumerate(("white", "blue", "red"))
    }
    colours = {"white": "#ffffff", "blue": "#1f5fae", "red": "#d7263d"}
    texts = [f.text for f in view.floating_for(readings, True, poses, colours, white_for="Pink")]
    assert texts == ["X! for Pink", "X!"]
    plain = [f.text for f in view.floating_for(readings, False, poses, colours, white_for="Pink")]
    assert plain == ["0", "0", "+4"]  # no Doppel X: an X pays nothing, and a 0 names nobody


def test_the_snapshot_names_the_walls_the_people_throw_from():
    """The referee view fits every person's hand at once (playtest 14: in a hot seat it shrank
    when the thrower changed from the south to the north wall): the snapshot names their walls,
    each person's seat until they have stood elsewhere."""
    c = PlayController(FakeUi())
    try:
        c.new_game(GameSetup.standard(4, 2, seed=5, names=("Ann", "Bo")))
        game = c.live.game
        people = list(c.seats.humans)
        seats = {c.live.service.seat(game.seats, p)[0] for p in people}
        assert set(c.snapshot().hand_walls) == seats and len(people) == 2
        c.stances[people[0]] = ("E", 0.0)
        assert "E" in c.snapshot().hand_walls
    finally:
        c.close()


def test_a_die_in_a_hole_is_labelled_over_its_hole_not_where_it_rolled_under_the_playfield():
    """Sixteenth playtest: "in a hole: back to hand" floated 80 px from its hole with no leader —
    the die had rolled on in the cavity, under the playfield, and its label followed it."""
    from doppelx.games.doppelx.play import view
    from rules.doppelx.board_file import load_board
    from rules.doppelx.outcome import Pose, Status
    from rules.doppelx.reading import DieReading

    board = load_board("I")
    hole = board.holes[0].shape
    c = hole.centroid
    under = Pose((c.x + 0.04, c.y, -0.015), (0.0, 0.0, 0.0, 1.0))  # 4 cm on, in the cavity
    readings = (DieReading("blue", Status.HOLE, None), DieReading("red", Status.BOARD, "2"))
    poses = {"blue": under, "red": Pose((0.05, 0.05, 0.008), (0.0, 0.0, 0.0, 1.0))}
    colours = {"blue": "#1f5fae", "red": "#d7263d"}
    blue, red = view.floating_for(readings, False, poses, colours, holes=board.holes)
    assert blue.text == "in a hole: back to hand"
    assert blue.position[:2] == pytest.approx((c.x, c.y)) and blue.position[2] == pytest.approx(
        view.TEXT_LIFT
    )
    assert red.position == pytest.approx((0.05, 0.05, 0.008 + view.TEXT_LIFT))  # a die on the board as ever
    alone = view.floating_for(readings, False, poses, colours)  # no holes given: over the die, as before
    assert alone[0].position[0] == pytest.approx(c.x + 0.04)
