"""``doppelx play``'s new-game form and end of the game, under Xvfb: the form without text
over text or buttons, with the target (mouse and keyboard, within what the box can pay) and
card texts true to D33; the referee labels clear of the end standings, the decisive throw's
summary kept beside them, dice in a hole or off the box named in the summary; an autosave
failure that does not send the player to a Ctrl+S known to fail."""

from __future__ import annotations

import pytest

from doppelx.games.doppelx.play import view
from doppelx.games.doppelx.play.controller import PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from render.intents import Command, CommandIntent
from render.labels import Rect, overlaps
from rules.doppelx.chips import max_target
from rules.doppelx.game import rulebook_target
from tests.xvfb import FakeClock, display, settle_size  # noqa: F401  (the session's Xvfb)


@pytest.fixture(scope="module")
def window(display):  # noqa: F811
    from doppelx.games.doppelx.play.window import PlayWindow

    clock = FakeClock()
    win = PlayWindow(800, 500, vsync=False, sound=False, clock=clock)
    win.fake_clock = clock
    yield win
    win.close()


@pytest.fixture
def win(window):
    window.switch_to()
    settle_size(window, (800, 500))
    window.close_dialog()
    window.hide_panel()
    window.referee = False
    window.help = window.show_log = False
    window.menu = ""
    window.camera.reset()
    window.hint = ""
    yield window
    window.close_dialog()
    window.hide_panel()
    window.referee = False


class StandIn:
    """The controller's window, recording what it is told (no drawing)."""

    dialog_open = False
    overlay_open = False
    referee_seen = False
    pointer_card = None

    def __init__(self):
        self.said: list[str] = []
        self.panel = None
        self.dialogs: list = []

    def say(self, text, seconds=3.0):
        self.said.append(text)

    def busy(self, text):
        pass

    def open_dialog(self, setup, on_start, on_cancel=None, *, in_progress=False):
        self.dialogs.append((setup, on_start, on_cancel))

    def stand(self, wall, along):
        pass

    def stance(self):
        return None

    def show_panel(self, title, rows, footer, note=""):
        self.panel = (title, rows, footer)

    def hide_panel(self):
        self.panel = None

    def keep_open(self):
        pass


def run_until(ctrl: PlayController, done, max_steps: int = 40000):
    for _ in range(max_steps):
        if done(ctrl):
            return ctrl.snapshot()
        ctrl.step()
    raise AssertionError(f"stuck in stage {ctrl.stage}")


# --- the new-game form -------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (2560, 1440)])
@pytest.mark.parametrize("players", [3, 8])
@pytest.mark.parametrize("behind", [False, True])  # a game behind the form: a Cancel button
def test_the_form_draws_no_text_over_text_or_over_a_button(win, size, players, behind):
    """Finding 2: "Cancel [Esc]" covered the end of the "Keys: …" line (a game behind the form)."""
    target = max_target(players) if behind else None  # (210 for 3 players: three digits)
    setup = GameSetup.standard(players, 1, cards=("A", "C", "D", "G"), target=target)
    dialog = win.open_dialog(setup, lambda s: None, (lambda: None) if behind else None, in_progress=behind)
    dialog.error = "names have at most 14 characters"  # the error line shown too
    w, h = size
    boxes = dialog.text_boxes(w, h)
    rects = [Rect(*b[:4]) for b in boxes]
    texts = [b[4] for b in boxes]
    assert any(t.startswith("Keys:") for t in texts) and ("Cancel  [Esc]" in texts) == behind
    bad = [(texts[i], texts[j]) for i, j in overlaps(rects)]
    assert not bad, bad
    x0, y0, x1, y1 = dialog.frame(w, h)
    for r, text in zip(rects, texts):
        assert x0 <= r.x0 and r.x1 <= x1 and y0 <= r.y0 and r.y1 <= y1, (text, r)
        for t in dialog.targets(w, h):  # over a button only as its own caption
            b = Rect(t.x, t.y, t.x + t.w, t.y + t.h)
            if r.overlap(b) > 0:
                assert b.x0 - 1 <= r.x0 and r.x1 <= b.x1 + 1 and b.y0 - 1 <= r.y0 and r.y1 <= b.y1 + 1, (
                    text,
                    t,
                )


def _target_shown(dialog, w=800, h=500) -> str:
    """The number between the target's − and +."""
    minus = dialog.target(("target", -1), w, h)
    plus = dialog.target(("target", 1), w, h)
    between = [
        b[4]
        for b in dialog.text_boxes(w, h)
        if minus.x + minus.w <= b[0] and b[2] <= plus.x and b[1] >= minus.y - 2
    ]
    (shown,) = [t for t in between if t.isdigit()]
    return shown


def test_the_form_shows_the_target_and_sets_it_by_mouse(win):
    """Finding 7: Ctrl+N kept the command line's --target without showing it."""
    from pyglet.window import key

    started = []
    dialog = win.open_dialog(GameSetup.standard(4, 1), started.append, None)
    assert _target_shown(dialog) == "50" and any("rulebook" in t[4] for t in dialog.text_boxes(800, 500))
    dialog.click(*dialog.target(("target", 1), 800, 500).centre, 800, 500)
    assert _target_shown(dialog) == "55" and dialog.setup.target == 55
    for _ in range(3):
        dialog.click(*dialog.target(("target", -1), 800, 500).centre, 800, 500)
    assert dialog.setup.target == 40
    for _ in range(2):
        dialog.click(*dialog.target(("target", 1), 800, 500).centre, 800, 500)
    assert dialog.setup.target is None and _target_shown(dialog) == "50"  # the rulebook's mark again
    dialog.act(("players", 1))
    dialog.act(("players", 1))  # 6 players: the rulebook's mark follows
    assert _target_shown(dialog) == "70"
    dialog.act(("target", -1))
    dialog.key(key.RETURN, 0)
    assert started and started[0].target == 65


def test_the_target_is_kept_within_one_chip_and_what_the_box_can_pay(win):
    for players in (3, 8):
        setup = GameSetup.standard(players, 0)
        dialog = win.open_dialog(setup, lambda s: None, None)
        for _ in range(60):
            dialog.act(("target", 1))
        assert dialog.setup.target == max_target(players) and _target_shown(dialog) == str(
            max_target(players)
        )
        for _ in range(60):
            dialog.act(("target", -1))
        assert dialog.setup.target == 1 and _target_shown(dialog) == "1"
    dialog = win.open_dialog(GameSetup.standard(3, 0, target=200), lambda s: None, None)
    for _ in range(5):
        dialog.act(("players", 1))  # 8 players: at most 74
    assert dialog.setup.target == max_target(8)
    dialog.setup.check()


def test_the_target_works_with_the_keyboard_alone(win):
    from pyglet.window import key

    dialog = win.open_dialog(GameSetup.standard(3, 1), lambda s: None, None)
    win.render()
    for _ in range(len(dialog.targets(800, 500))):
        if dialog.focus == ("target", 1):
            break
        dialog.key(key.TAB, 0)
    assert dialog.focus == ("target", 1)
    dialog.key(key.SPACE, 0)
    assert dialog.setup.target == 55
    dialog.key(key.LEFT, 0)  # + → −
    assert dialog.focus == ("target", -1)
    dialog.key(key.SPACE, 0)
    dialog.key(key.SPACE, 0)
    assert dialog.setup.target == 45


def test_ctrl_n_prefills_the_target_of_the_game_and_the_new_game_plays_to_the_one_chosen(win):
    c = PlayController(StandIn())
    try:
        c.new_game(GameSetup.standard(3, 0, seed=3, target=15))
        c.open_new_game()
        setup, start, _ = c.ui.dialogs[-1]
        dialog = win.open_dialog(setup, start, lambda: None)
        assert _target_shown(dialog) == "15" and any(
            "rulebook: 50" in t[4] for t in dialog.text_boxes(800, 500)
        )
        dialog.act(("players", 1))
        dialog.act(("target", 1))
        dialog.start()
        assert c.game.target == 20 and len(c.game.seats) == 4
    finally:
        c.close()


@pytest.mark.parametrize("players", range(3, 9))
def test_the_rulebook_target_is_the_games(players):
    from rules.doppelx.board_file import load_board
    from rules.doppelx.dice import load_dice
    from rules.doppelx.game import DoppelXGame

    dice = load_dice()
    game = DoppelXGame(list(dice.player_colours[:players]), load_board("I"), dice)
    assert rulebook_target(players) == game.target


def test_the_forms_field_cards_count_a_dies_best_field_only(win):
    """Finding 11: the form said C/D pay for a die that "touches" a 2x / 3x field; by D33 only the
    die's single best field counts (touching 2x and 3x pays D only)."""
    dialog = win.open_dialog(GameSetup.standard(4, 1, cards=("C", "D", "E", "F")), lambda s: None, None)
    lines = {t[4][0]: t[4] for t in dialog.text_boxes(800, 500) if t[4][:1] in "CDEF" and "chip" in t[4]}
    assert set(lines) == set("CDEF")
    assert "counts for a red 2x field" in lines["C"] and "counts for a yellow 3x field" in lines["D"]
    for text in lines.values():
        assert "touches a" not in text and "best field" in text, text


# --- the end of the game -------------------------------------------------------------------------
def test_referee_labels_keep_clear_of_the_end_standings(win):
    """Finding 4: on the end screen, Tab showed a die's "1 on 1x" under the standings."""
    from render.snapshot import Snapshot, TableSpec
    from rules.doppelx.outcome import Pose

    table = TableSpec.standard("I")
    dice = {
        o: Pose.resting(table.dice[o], x, y, 0.3, "1")
        for o, x, y in (("blue", 0.0, -0.02), ("red", 0.035, 0.01), ("yellow", -0.04, 0.015))
    }
    win.referee = True
    win.show(Snapshot(table, dice=dice, turn="Game over after 6 throws"))
    win.show_panel(
        "Cy wins!", [("Cy", "#f4c21b", 15), ("Bo", "#d7263d", 14), ("Ann", "#1f5fae", 13)], "Esc: quit"
    )
    win.render()
    panel = win.panel.rect
    labels = [a for a in win.hud._anchors]
    assert len(labels) == 3 and len(win.hud.plates) == 3
    w, h = win.get_framebuffer_size()
    covered = [o for o, p in dice.items() if panel.x0 < win.camera.project(p.position, w, h)[0] < panel.x1]
    assert not covered  # the standings lie in a column beside the box now (second playtest)
    for plate in win.hud.plates:
        assert plate.overlap(panel) == 0, (plate, panel)


def test_the_end_standings_leave_the_decisive_throws_summary_in_view(win):
    """Finding 5: at 800×500 with 8 players, a long summary and the standings must both show."""
    from render.snapshot import ScoreLine, Snapshot, TableSpec

    table = TableSpec.standard("I")
    owners = list(table.dice.player_colours)[:8]
    board = tuple(ScoreLine(o.title(), o, 60 + k, k == 0) for k, o in enumerate(owners))
    summary = (
        ("Doppel X!",)
        + tuple(f"{o.title()} +10  (Doppel X +10)" for o in owners)
        + (
            "Red's die: in a hole",
            "Blue, Green: off the box",
        )
    )
    win.show(Snapshot(table, scoreboard=board, turn="Game over after 9 throws", summary=summary, target=70))
    win.show_panel("Blue wins!", [(o.title(), "#888888", 70 - k) for k, o in enumerate(owners)], "Esc: quit")
    win.render()
    texts = [b[4] for b in win.hud.text_boxes]
    assert "Last throw" in texts and "Blue, Green: off the box" in texts
    panel = win.panel.rect
    for b in win.hud.text_boxes:
        assert Rect(*b[:4]).overlap(panel) == 0, b[4]
    assert (
        panel.y0 >= 52 - 1e-6
        and panel.y1 <= win.height - 12 + 1e-6
        and panel.x0 >= 0
        and panel.x1 <= win.width
    )


def test_the_game_over_snapshot_keeps_the_last_throws_summary():
    c = PlayController(StandIn())
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=11, target=4))
        snap = run_until(c, lambda x: x.stage is Stage.OVER)
        last = c.last
        assert c.ui.panel is not None and last is not None
        names = c.game.names
        assert snap.summary == view.result_lines(last.score, last.bets, names, last.kind) and snap.summary
        # the decisive throw's labels stay over its dice (second playtest: all of them went)
        on_board = [r for r in last.score.readings if view.die_text(r, last.score.doppel_x)]
        assert on_board and len(snap.floating) == len(on_board)
    finally:
        c.close()


# --- the last throw's summary ---------------------------------------------------------------------
def _score(readings, active="yellow"):
    from rules.doppelx.scoring import PlayerScore, ThrowScore

    players = {c: PlayerScore(c, 0, 0, 0, 5, 5) for c in ("blue", "red", "yellow")}
    players["yellow"] = PlayerScore("yellow", 2, 0, 0, 5, 7)
    return ThrowScore(tuple(readings), False, players, active)


def test_the_summary_names_the_dice_that_went_into_a_hole_or_off_the_box():
    """Finding 6: Cy's white die vanished into a hole; the panel said only "Cy +2 (dice +2)"."""
    from rules.doppelx.outcome import Status
    from rules.doppelx.reading import DieReading

    names = {"blue": "Ann", "red": "Bo", "yellow": "Cy"}
    score = _score([DieReading("yellow", Status.BOARD), DieReading("white", Status.HOLE)])
    assert view.result_lines(score, {}, names) == ("= Cy +2", "Cy's white die: in a hole")
    score = _score(
        [
            DieReading("white", Status.OFF),
            DieReading("blue", Status.OFF),
            DieReading("red", Status.HOLE),
            DieReading("yellow", Status.OFF),
        ]
    )
    assert view.result_lines(score, {}, names)[1:] == (
        "Bo's die: in a hole",
        "Ann, Cy (both dice): off the box",
    )
    score = _score([DieReading("yellow", Status.OFF), DieReading("white", Status.OFF)])
    assert view.result_lines(score, {}, names)[1:] == ("Cy's two dice: off the box",)
    score = _score([DieReading("white", Status.HOLE)], active=None)  # (no thrower named)
    assert view.result_lines(score, {}, names)[-1] == "the white die: in a hole"


def test_the_hole_line_fits_the_summary_at_800x500_with_8_players(win):
    from render.hud import Hud, HudState
    from render.snapshot import ScoreLine, Snapshot, TableSpec

    table = TableSpec.standard("I")
    owners = list(table.dice.player_colours)[:8]
    names = ["Maximilianofab", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    board = tuple(ScoreLine(n, o, 40 + k, k == 0) for k, (n, o) in enumerate(zip(names, owners)))
    summary = tuple(f"{n} +6  (dice +6, bet card C paid +3)" for n in names) + (
        "Maximilianofab's white die: in a hole",
    )
    hud = Hud()
    hud.update(
        Snapshot(table, scoreboard=board, summary=summary, turn="Throw 9: Maximilianofab"),
        HudState(800, 500),
        [],
    )
    try:
        texts = [b[4] for b in hud.text_boxes]
        assert "Maximilianofab's white die: in a hole" in texts  # whole: no "…"
        summary_panel = max((p for p in hud.panels if p.x0 > 400), key=lambda p: p.y1 - p.y0)
        assert summary_panel.y0 > 500 / 2  # in the upper half, clear of the table's middle
    finally:
        for item in hud._items:
            item.delete()


# --- quitting when the autosave fails ---------------------------------------------------------------
def test_the_autosave_failure_does_not_offer_a_ctrl_s_that_failed(tmp_path, monkeypatch):
    """Finding 10: after Ctrl+S had failed at its file, the autosave failure said "Ctrl+S saves
    to <that file>"."""
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    folder = tmp_path / "saves"
    folder.mkdir()
    c = PlayController(StandIn(), save_path=folder)
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))
        run_until(c, lambda x: x.throws_shown == 1)
        c.handle(CommandIntent(Command.SAVE))
        assert c.ui.said[-1].startswith("Not saved")
        assert not c.quit()
        said = c.ui.said[-1]
        assert said.startswith("Could not autosave — quit again to leave without saving")
        assert "Ctrl+S saves to" not in said and "--save-file" in said
        assert c.quit() and c.unsaved  # the second request leaves without saving
    finally:
        c.close()


def test_the_autosave_failure_offers_ctrl_s_when_it_may_work(tmp_path, monkeypatch):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    c = PlayController(StandIn(), save_path=tmp_path / "game.json")
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))
        run_until(c, lambda x: x.throws_shown == 1)
        assert not c.quit()
        assert c.ui.said[-1].startswith(f"Could not autosave — Ctrl+S saves to {tmp_path / 'game.json'}")
        c.handle(CommandIntent(Command.SAVE))  # it does: then the window may close
        assert c.quit() and c.unsaved is None and c.hand_kept == (tmp_path / "game.json").resolve()
    finally:
        c.close()


def test_a_ctrl_s_that_failed_and_then_worked_is_offered_again(tmp_path, monkeypatch):
    blocker = tmp_path / "state"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    target = tmp_path / "later" / "game.json"
    target.parent.write_text("a file where the folder should be")
    c = PlayController(StandIn(), save_path=target)
    try:
        c.new_game(GameSetup.standard(3, 0, "easy", seed=5))
        run_until(c, lambda x: x.throws_shown == 1)
        c.handle(CommandIntent(Command.SAVE))
        assert c.ui.said[-1].startswith("Not saved")
        target.parent.unlink()
        target.parent.mkdir()
        c.handle(CommandIntent(Command.SAVE))
        run_until(c, lambda x: x.throws_shown == 2)  # the game moved on: that save is not enough
        assert not c.quit() and "Ctrl+S saves to" in c.ui.said[-1]
    finally:
        c.close()


def test_right_from_the_targets_plus_stays_in_its_row_and_space_does_not_reroll_the_seed(window):
    """Issue 32: → from the target's "+" jumped up to "new seed", and Space then drew a new seed."""
    from pyglet.window import key

    dialog = window.open_dialog(GameSetup.standard(3, 1, seed=5), lambda s: None, None)
    window.switch_to()
    window.render()
    dialog.focus = ("target", 1)
    dialog.key(key.RIGHT, 0)
    assert dialog.focus == ("target", 1)  # nothing beside it to the right
    target = dialog.setup.game_target
    dialog.key(key.SPACE, 0)
    assert dialog.setup.seed == 5 and dialog.setup.game_target > target
    dialog.key(key.LEFT, 0)
    assert dialog.focus == ("target", -1)
    dialog.key(key.UP, 0)  # up and down still go to the nearest control above, in any column
    assert dialog.focus in (("seedtext",), ("seed",))
    window.close_dialog()


def test_up_from_start_game_goes_to_the_row_just_above_it(window):
    """Up from "Start game" went to "new seed", two rows up, past the target's "+" right above it
    (the arrow keys' cost let a wide control off to the side win)."""
    from pyglet.window import key

    dialog = window.open_dialog(GameSetup.standard(4, 1, seed=5), lambda s: None, None)
    window.switch_to()
    window.render()
    dialog.focus = ("start",)
    dialog.key(key.UP, 0)
    assert dialog.focus == ("target", 1)
    dialog.key(key.DOWN, 0)
    assert dialog.focus == ("start",)
    dialog.focus = ("target", 1)
    dialog.key(key.UP, 0)  # the seed's row just above, not a bet card further up (thirteenth playtest)
    assert dialog.focus in (("seedtext",), ("seed",))
    window.close_dialog()


def test_the_opposite_arrow_goes_back_where_the_last_one_came_from(window):
    """Sixteenth playtest: ↑ from the target's "+" went to the seed box, and ↓ from there to
    the target's "−" (centred nearer below the box), not back to "+"."""
    from pyglet.window import key

    dialog = window.open_dialog(GameSetup.standard(3, 1, seed=5), lambda s: None, None)
    window.switch_to()
    window.render()
    for start in (("target", 1), ("target", -1)):
        dialog.focus = start
        dialog.key(key.UP, 0)
        above = dialog.focus
        assert above in (("seedtext",), ("seed",))
        dialog.key(key.DOWN, 0)
        assert dialog.focus == start, (start, above)
        dialog.key(key.UP, 0)  # and up again: back to the same box
        assert dialog.focus == above
    dialog.focus = ("target", 1)  # a focus set otherwise (a click) forgets the last move
    dialog.key(key.UP, 0)
    dialog.click(-100, -100, *window.get_framebuffer_size())
    dialog.focus = ("target", -1)
    dialog.key(key.UP, 0)
    assert dialog.focus in (("seedtext",), ("seed",))
    window.close_dialog()


def test_space_on_the_seed_being_typed_ends_the_typing_without_an_error(window):
    """Seventeenth playtest: Space on the seed box, then Enter, left "the seed is a whole number:
    type digits" under the form — the Space, pressed while the seed was being typed, went in as
    a character. Space presses the box (starts the typing) and, while typing, ends it."""
    from pyglet.window import key

    dialog = window.open_dialog(GameSetup.standard(3, 1, seed=5), lambda s: None, None)
    window.switch_to()
    window.render()
    dialog.focus = ("seedtext",)
    dialog.key(key.SPACE, 0)  # presses the box: typing starts
    dialog.text(" ")
    assert dialog.editing is not None and dialog.error == ""
    dialog.text("42")
    dialog.key(key.SPACE, 0)  # while typing: ends it, no character
    dialog.text(" ")
    assert dialog.editing is None and dialog.error == "" and dialog.setup.seed == 42
    window.close_dialog()


def test_a_close_finish_is_explained_and_equal_chips_share_a_place(window):
    """Issue 32: two players passing the target on one throw got no word of why the one won, and
    equal scores were listed as 3. and 4., not as a tie."""
    from doppelx.games.doppelx.play import view
    from doppelx.games.doppelx.play.newgame import start_match
    from rules.doppelx.scoring import PlayerScore, ThrowScore

    match = start_match(GameSetup.standard(4, 0, seed=1, names=("Ann", "Bo", "Cy", "Di")))
    try:
        game = match.game
        game.chips.update({"blue": 54, "red": 52, "yellow": 12, "green": 12})
        score = ThrowScore(
            (),
            False,
            {
                "blue": PlayerScore("blue", 6, 0, 0, 48, 54),
                "red": PlayerScore("red", 4, 0, 0, 48, 52),
                "yellow": PlayerScore("yellow", 0, 0, 0, 12, 12),
            },
            "blue",
        )
        assert view.end_note(game, score) == (
            "Ann and Bo both reached 50 on the last throw: the most chips win (54 to 52)"
        )
        score.players["red"] = PlayerScore("red", 0, 0, 0, 52, 52)  # Bo was past the mark already
        assert view.end_note(game, score) == "Ann reached 50 with the last throw (+6)"  # her own
        # Ann passed it on Bo's throw, with her die lying on 3x and a bet: the end said nothing of how
        score.players["blue"] = PlayerScore("blue", 9, 4, 0, 41, 54)
        on_bos = ThrowScore((), False, score.players, "red")
        assert view.end_note(game, on_bos) == (
            "Ann reached 50 on Bo's throw: Ann's die lying on the board +9, Ann's bet +4 "
            "(a die on the board pays its owner at every throw)"
        )
        score.players["blue"] = PlayerScore("blue", 0, 0, 6, 48, 54)
        assert view.end_note(game, ThrowScore((), True, score.players, "red")) == (
            "Ann reached 50 on Bo's throw: Doppel X +6"
        )
        game.decider_history.append({"blue": 5, "red": 2})
        assert view.end_note(game, score) == (
            "Ann and Bo tied at 54: a decider throw settled it (points: Ann 5, Bo 2)"
        )
    finally:
        match.close()
    assert view.places([54, 52, 12, 12]) == [1, 2, 3, 3]
    assert view.places([54, 54, 54, 9], decided=True) == [1, 2, 2, 4]
    rows = [("Ann", "#1f5fae", 54), ("Bo", "#d7263d", 52), ("Cy", "#f4c21b", 12), ("Di", "#2e9e4f", 12)]
    window.close_dialog()
    window.show_panel("Ann wins!", rows, "Esc: menu", note="Ann and Bo both passed 50 on the last throw")
    window.switch_to()
    window.render()
    shown = [item.text for item in window.panel._items if hasattr(item, "text")]
    assert "3.  Cy" in shown and "3.  Di" in shown and "4.  Di" not in shown
    assert "Ann and Bo both passed 50 on the last throw" in shown


@pytest.mark.parametrize("size", [(800, 500), (1920, 1080)])
def test_the_end_panels_keys_line_stays_inside_it(win, size):
    """Second playtest: the end screen's "Ctrl+N: new game · R: replay the last throw · Esc: menu"
    touched the panel's edges at 800×500 and 1920×1080; it is fitted inside, a margin each side."""
    from render.snapshot import Snapshot, TableSpec

    w0, h0 = win.width, win.height
    win.set_size(*size)
    win.dispatch_events()
    try:
        win.show(Snapshot(TableSpec.standard("I"), turn="Game over after 9 throws"))
        footer = "Ctrl+N: new game  ·  R: replay the last throw  ·  Esc: menu"
        win.show_panel("Yellow wins!", [("Yellow", "#f4c21b", 27), ("Red", "#d7263d", 21)], footer)
        win.render()
        panel = win.panel.rect
        keys = next(item for item in win.panel._items if getattr(item, "text", None) == footer)
        assert keys.content_width <= (panel.x1 - panel.x0) - 12
    finally:
        win.set_size(w0, h0)
        win.dispatch_events()


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize("side", ["I", "III"])
def test_the_end_standings_leave_the_box_in_view(win, size, side):
    """Second playtest: at 1920×1080 the game-over standings lay over the board's middle, its
    dice under them. They stand in a column at the right edge, under the last throw's summary,
    and the picture moves left of them (as of the throw log), 8 players, every size."""
    from render.snapshot import ScoreLine, Snapshot, TableSpec

    table = TableSpec.standard(side)
    owners = list(table.dice.player_colours)[:8]
    board = tuple(ScoreLine(o.title(), o, 60 + k, k == 0) for k, o in enumerate(owners))
    summary = ("blue 3 on 3x = 9 · white X = 0", "red 2 on 1x = 2 · Yellow bet A 0", "= Blue +9 · Red +2")
    snap = Snapshot(table, scoreboard=board, turn="Game over after 9 throws", summary=summary, target=70)
    w0, h0 = win.width, win.height
    win.set_size(*size)
    win.dispatch_events()
    try:
        win.show(snap)
        win.render()
        alone = win._box_on_screen(snap)
        win.show_panel(
            "Blue wins!", [(o.title(), "#888888", 70 - k) for k, o in enumerate(owners)], "Esc: menu"
        )
        win.render()
        panel, box = win.panel.rect, win._box_on_screen(snap)
        assert box.overlap(panel) == 0, (box, panel)
        assert box.x0 >= 0 and panel.x1 <= win.width and panel.y0 >= 52 - 1e-6
        for b in win.hud.text_boxes:
            assert Rect(*b[:4]).overlap(panel) == 0, b[4]
        if size == (1920, 1080):  # the case of the finding: where the box lies alone, the panel covered it
            assert alone.overlap(panel) > 0
        win.hide_panel()
        win.render()
        assert win.camera.screen_shift == (0.0, 1.0) and win._box_on_screen(snap) == alone
    finally:
        win.hide_panel()
        win.set_size(w0, h0)
        win.dispatch_events()


@pytest.mark.parametrize("size", [(800, 500), (1920, 1080)])
def test_the_end_panels_note_wraps_at_a_readable_size(win, size):
    """Fifth playtest: at 800×500 with 8 players the note "Purple, Tester and Yellow all passed
    12 on the last throw: the most chips win (18 to 15 to 14)" was shrunk onto one line 7 px
    tall. It wraps inside the panel at 8 pt or more, above the standings, every line in the box."""
    from doppelx.games.doppelx.play.window import NOTE_POINTS
    from render.snapshot import ScoreLine, Snapshot, TableSpec

    table = TableSpec.standard("I")
    owners = list(table.dice.player_colours)[:8]
    board = tuple(ScoreLine(o.title(), o, 18 - k, k == 0) for k, o in enumerate(owners))
    summary = ("purple 2 on 1x = 2 · white 3 on 3x = 9", "= Tester +4 · Red +2 · Yellow +3", "Purple +11")
    note = "Purple, Tester and Yellow all passed 12 on the last throw: the most chips win (18 to 15 to 14)"
    rows = [(o.title(), "#888888", 18 - k) for k, o in enumerate(owners)]
    w0, h0 = win.width, win.height
    win.set_size(*size)
    win.dispatch_events()
    try:
        win.show(
            Snapshot(table, scoreboard=board, turn="Game over after 6 throws", summary=summary, target=12)
        )
        win.show_panel(
            "Purple wins!", rows, "Ctrl+N: new game  ·  R: replay the last throw  ·  Esc: menu", note
        )
        win.render()
        panel = win.panel.rect
        label = next(item for item in win.panel._items if getattr(item, "text", None) == note)
        assert label.font_size >= NOTE_POINTS  # (4.2 pt before, on one line)
        top, bottom = label.y, label.y - label.content_height
        assert panel.y0 < bottom and top <= panel.y1
        assert label.x - label.content_width / 2 >= panel.x0 and label.x + label.content_width / 2 <= panel.x1
        first_row = next(item for item in win.panel._items if getattr(item, "text", "").startswith("1.  "))
        assert first_row.y + first_row.content_height <= bottom + 2  # the standings start under it
        assert panel.y0 >= 52 - 1e-6  # still above the buttons' row
    finally:
        win.hide_panel()
        win.set_size(w0, h0)
        win.dispatch_events()


def test_the_end_standings_stand_for_the_scoreboard_so_no_panel_covers_the_box(win):
    """Fifth playtest: at 800×500 with 8 players the box, moved left of the end standings, lay
    under the scoreboard (card D with the winning bet die under it, its label's leader across
    the scoreboard). While the standings are shown — the same players and chips — the
    scoreboard is not drawn, and no HUD panel covers the box; Esc's menu brings it back."""
    from render.snapshot import ScoreLine, Snapshot, TableSpec

    table = TableSpec.standard("I")
    owners = list(table.dice.player_colours)[:8]
    board = tuple(ScoreLine(o.title(), o, 18 - k, k == 0) for k, o in enumerate(owners))
    summary = ("purple 2 on 1x = 2 · white 3 on 3x = 9", "= Tester +4 · Red +2 · Yellow +3", "Purple +11")
    snap = Snapshot(table, scoreboard=board, turn="Game over after 6 throws", summary=summary, target=12)
    w0, h0 = win.width, win.height
    win.set_size(800, 500)
    win.dispatch_events()
    try:
        win.show(snap)
        win.show_panel(
            "Purple wins!", [(o.title(), "#888888", 18 - k) for k, o in enumerate(owners)], "Esc: menu"
        )
        win.render()
        box = win._box_on_screen(snap)
        assert "scoreboard" not in win.hud.blocks
        assert all(p.overlap(box) == 0 for p in win.hud.panels), (box, win.hud.panels)
        win.menu = "menu"  # the standings are not drawn under the menu: the scoreboard is
        win.render()
        assert "scoreboard" in win.hud.blocks
    finally:
        win.menu = ""
        win.hide_panel()
        win.set_size(w0, h0)
        win.dispatch_events()


def test_the_form_mid_game_shows_nothing_of_the_table_round_it(win):
    """Seventh playtest: with Ctrl+N mid-game the table's die labels, its "Enter: go on" and the
    referee hint showed round the new-game form, and the table through it. While the form is
    open no die label, game message, hint or card outline is drawn, and the form is opaque."""
    from doppelx.games.doppelx.play.dialog import BACK
    from tests.helpers.play import play_until, playing

    with playing(win, GameSetup.standard(4, 0, seed=3)) as c:
        play_until(c, win, lambda c: len(c.game.log) >= 3 and c.stage is Stage.RESULT)
        win.say("a hint")
        win.render()
        assert win.hud.plates and "Enter: go on" in [b[4] for b in win.hud.text_boxes]
        c.open_new_game()
        win.show(c.snapshot())
        win.render()
        shown = [b[4] for b in win.hud.text_boxes]
        assert not win.hud.plates and "Enter: go on" not in shown and "a hint" not in shown, shown
        # nor the table's panels, whose edges peeked out round the form at 800 × 500 (eighth playtest)
        assert not win.hud.panels and not shown, shown
        assert BACK[3] == 255
        win.close_dialog()
        win.render()
        assert win.hud.plates  # the labels come back with the table


def test_a_black_dies_swatch_shows_on_the_end_standings(win):
    """Eighth playtest: Black's colour swatch was invisible on the dark standings (the
    scoreboard's has a light border). The standings' swatches have one too: seen in the
    window's pixels, the border is light round a black swatch."""
    rows = [("Purple", "#7e22ce", 72), ("Black", "#1f1f1f", 56), ("Orange", "#f97316", 55)]
    win.show_panel("Purple wins!", rows, "Ctrl+N: new game")
    win.render()
    img = win.capture()
    swatches = [i for i in win.panel._items if type(i).__name__ == "BorderedRectangle"]
    assert len(swatches) == len(rows)
    black = swatches[1]
    h = img.shape[0]

    def px(x: float, y: float):
        return img[h - 1 - int(y), int(x)][:3]

    edge = black.x + black._border / 2  # the middle of the border's width
    assert min(px(edge, black.y + black.height / 2)) > 110  # the border: light (the panel is ~20)
    assert max(px(black.x + black.width / 2, black.y + black.height / 2)) < 60  # the swatch: black


@pytest.mark.parametrize(("size", "scale"), [((800, 500), 0.85), ((1280, 800), 1.0), ((1920, 1080), 1.35)])
def test_the_form_grows_with_the_hud_on_a_large_window(win, size, scale):
    """Ninth playtest: at 1920 × 1080 the form stayed 880 × 560 px, its small text beside the
    HUD's grown one. It takes the HUD's scale where it fits (and shrinks where it must)."""
    from doppelx.games.doppelx.play.dialog import HEIGHT, WIDTH

    dialog = win.open_dialog(GameSetup.standard(4, 1), lambda s: None, None)
    x0, y0, x1, y1 = dialog.frame(*size)
    assert (x1 - x0, y1 - y0) == pytest.approx((WIDTH * scale, HEIGHT * scale), abs=0.5)
    assert x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1]
