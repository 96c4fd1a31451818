"""Esc opens a menu (Resume / Save / New game / Quit) naming the autosave; Quit asks once."""

from __future__ import annotations

from pathlib import Path

from doppelx.games.doppelx.play.controller import Stage, autosave_path
from doppelx.games.doppelx.play.newgame import GameSetup
from tests.helpers.play import play_until, playing, texts
from tests.xvfb import display  # noqa: F401


def test_esc_opens_the_menu_naming_the_autosave_and_quit_asks_once(window, tmp_path, monkeypatch):
    from pyglet.window import key

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    with playing(window, GameSetup.standard(3, 0, "easy", seed=4), save_path=tmp_path / "mine.json") as c:
        play_until(c, window, lambda c: c.throws_shown == 1)
        window.on_key_press(key.ESCAPE, 0)
        assert window.menu == "menu" and not window.has_exit and not c.quit_requested
        shown = " ".join(texts(window) + window.hud.modal_texts)
        assert "Resume" in shown and "New game" in shown and str(autosave_path()) in shown
        window.on_key_press(key.ESCAPE, 0)  # Resume
        assert window.menu == "" and not window.has_exit
        window.on_key_press(key.ESCAPE, 0)
        window.on_key_press(key.S, 0)  # Save: Ctrl+S's file
        assert window.menu == "" and (tmp_path / "mine.json").is_file()
        window.on_key_press(key.ESCAPE, 0)
        window.on_key_press(key.Q, 0)  # Quit asks ...
        assert window.menu == "quit" and not window.has_exit
        shown = texts(window)
        assert "Quit DoppelX?" in window.hud.modal_texts
        message = c.snapshot().message
        assert message and message not in shown  # the game's own keys would contradict the menu's
        window.on_key_press(key.ESCAPE, 0)  # ... Stay goes back to the game (eighth playtest: to the menu)
        assert window.menu == "" and not window.has_exit and not c.quit_requested
        window.on_key_press(key.ESCAPE, 0)
        texts(window)
        x, y, bw, bh = window.hud.buttons["menu:quit"]  # the buttons answer clicks too
        window.on_mouse_press(x + bw / 2, y + bh / 2, 1, 0)
        texts(window)
        x, y, bw, bh = window.hud.buttons["menu:quit-yes"]
        window.on_mouse_press(x + bw / 2, y + bh / 2, 1, 0)
        assert c.quit_requested and c.autosaved == autosave_path() and Path(c.autosaved).is_file()


def test_esc_at_game_over_opens_the_menu_too_and_says_nothing_is_saved(window):
    from pyglet.window import key

    with playing(window, GameSetup.standard(3, 0, "hard", seed=4, target=5)) as c:
        play_until(c, window, lambda c: c.stage is Stage.OVER)
        assert window.overlay_boxes()  # the standings are shown
        window.on_key_press(key.ESCAPE, 0)
        assert window.menu == "menu" and not window.has_exit
        texts(window)
        assert any("saves nothing" in t for t in window.hud.modal_texts)
        # nothing to save, so no Save button, and S does nothing (sixth playtest: Save was offered)
        assert "menu:save" not in window.hud.buttons and not any("Save" in t for t in window.hud.modal_texts)
        window.on_key_press(key.S, 0)
        assert window.menu == "menu"  # (it closed the menu and asked the game to save)
        # the standings step aside while the menu is open (they covered its buttons: newcomer play test)
        assert window.overlay_boxes() == []
        # and the menu says who won, on its first line (third playtest: Esc hid the result)
        names = [name for name, _, _ in window.panel.rows]
        result = window.panel.result_line()
        shown = " · ".join(window.hud.modal_texts)
        assert result.startswith(window.panel.title) and all(f". {n} " in result for n in names)
        assert all(piece in shown for piece in result.split(" · "))
        window.on_key_press(key.Q, 0)
        assert window.menu == "quit" and window.overlay_boxes() == []
        window.on_key_press(key.ESCAPE, 0)  # Stay: back to the standings
        assert window.menu == "" and window.overlay_boxes()
        window.on_key_press(key.ESCAPE, 0)
        window.on_key_press(key.N, 0)  # New game: the form
        assert window.menu == "" and window.dialog is not None


def test_a_click_beside_the_menu_resumes_and_does_nothing_else(window):
    from pyglet.window import key

    with playing(window, GameSetup.standard(3, 0, "easy", seed=4)) as c:
        play_until(c, window, lambda c: c.throws_shown == 1)
        window.on_key_press(key.ESCAPE, 0)
        texts(window)
        stage, throws = c.stage, c.throws_shown
        window.on_mouse_press(window.width / 2, 5, 1, 0)
        assert window.menu == "" and not window.has_exit and (c.stage, c.throws_shown) == (stage, throws)


def test_the_menus_result_is_whole_at_800_by_500_with_8_players(window):
    """The third playtest's menu cut the result with "…" before their own place at 800 x 500."""
    from render.hud import Hud, HudState
    from render.snapshot import Snapshot, TableSpec

    window.switch_to()
    hud = Hud()
    names = ["Player 1", "Orange", "Black", "Purple", "Green", "Yellow", "Red", "Pink"]
    result = "Orange wins!  " + " · ".join(f"{k + 1}. {n} {70 - 5 * k}" for k, n in enumerate(names))
    hud.update(Snapshot(TableSpec.standard("I")), HudState(800, 500, menu="menu", menu_result=result), [])
    assert hud.modal_texts
    assert not any("…" in t for t in hud.modal_texts)
    shown = " · ".join(hud.modal_texts)
    assert all(piece in shown for piece in result.split(" · "))
    for item in hud._items:
        item.delete()


def test_the_menus_result_line_shares_a_place_between_equal_chips(window):
    from doppelx.games.doppelx.play.window import EndPanel

    window.switch_to()
    panel = EndPanel("Ann wins!", [("Ann", "#2255ff", 12), ("Bo", "#ff2222", 7), ("Cy", "#ffcc00", 7)], "")
    assert panel.result_line() == "Ann wins!  1. Ann 12 · 2. Bo 7 · 2. Cy 7"
    panel.delete()


def test_the_help_the_log_and_the_menu_tell_the_game_to_wait(window):
    """The controller holds the game while any of them covers the table (``overlay_open``)."""
    from pyglet.window import key

    with playing(window, GameSetup.standard(3, 0, "easy", seed=4)) as c:
        assert not window.overlay_open and not c.paused()
        for open_key in (key.H, key.L, key.ESCAPE):
            window.on_key_press(open_key, 0)
            assert window.overlay_open and c.paused(), open_key
            window.on_key_press(key.ESCAPE, 0)  # closes the help and the log; resumes from the menu
            assert not window.overlay_open and not c.paused(), open_key
