"""``doppelx play``'s window under Xvfb: a bot game to its end, dice drawn where physics puts
them, a flick with synthetic mouse events, the new-game form, the end screen."""

from __future__ import annotations

import numpy as np
import pytest

from doppelx.games.doppelx.play.controller import PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from rules.doppelx.outcome import Status
from rules.doppelx.style import hex_to_rgb
from tests.xvfb import FakeClock, display  # noqa: F401  (the session's Xvfb)

W, H = 960, 600


@pytest.fixture(scope="module")
def window(display):  # noqa: F811
    from doppelx.games.doppelx.play.window import PlayWindow

    clock = FakeClock()
    win = PlayWindow(W, H, vsync=False, sound=False, clock=clock)
    win.fake_clock = clock
    yield win
    win.close()


@pytest.fixture
def ctrl(window):
    c = PlayController(window)
    window.on_intent = c.handle
    window.referee = False
    window.help = False
    window.close_dialog()
    window.hide_panel()
    window.camera.reset()
    yield c
    c.close()


def advance(ctrl, window, done, max_steps=20000, every=0):
    """Step the game until ``done(ctrl)``; show every step's snapshot (and draw every ``every``-th)."""
    for k in range(max_steps):
        if done(ctrl):
            window.show(ctrl.snapshot())
            return
        window.show(ctrl.step())
        if every and k % every == 0:
            window.render()
    raise AssertionError(f"stuck in stage {ctrl.stage}")


def patch(img, window, point, radius_px):
    """Pixels (float) within ``radius_px`` of the projection of board point ``point``."""
    w, h = window.get_framebuffer_size()
    x, y, _ = window.camera.project(point, w, h)
    row, col = h - 1 - int(round(y)), int(round(x))
    r = max(2, int(radius_px))
    return img[max(0, row - r) : row + r + 1, max(0, col - r) : col + r + 1].astype(float)


def test_a_bot_game_to_the_end_with_dice_drawn_where_physics_says(ctrl, window, tmp_path):
    from dataclasses import replace

    ctrl.new_game(GameSetup.standard(4, 0, "hard", board="I", seed=5, target=14))
    checked = 0
    shots = 0
    while ctrl.stage is not Stage.OVER:
        advance(ctrl, window, lambda c: c.stage in (Stage.RESULT, Stage.OVER), every=45)
        if ctrl.stage is not Stage.RESULT:
            break
        rec = ctrl.match.log[-1]
        if shots < 2:
            window.save_screenshot(tmp_path / f"result-{shots}.png")
            shots += 1
        if checked < 8:
            # referee view: each die lying flat on the board is drawn where physics put it — its
            # colour is there, and taking the die away changes exactly that spot
            snap = ctrl.snapshot()
            window.referee = True
            img = window.capture()
            w, h = window.get_framebuffer_size()
            scale = h / (2 * window.camera.extent)  # px per m (orthographic)
            for reading, die in zip(rec.score.readings, rec.result.outcome.dice):
                if die.status is not Status.BOARD or reading.tilt > 0.15:
                    continue
                spec = ctrl.table.dice[die.owner]
                top = (die.pose.position[0], die.pose.position[1], die.pose.position[2] + spec.half)
                aside = (top[0] + 0.05, top[1] - 0.05, top[2])
                radius = 0.6 * spec.half * scale
                here = patch(img, window, top, radius)
                target = np.array(hex_to_rgb(spec.colour)) * 255
                # pips and the referee's label cover part of the face: a quarter of the patch
                # in the die's colour is already far above any field's share of it
                assert np.mean(np.linalg.norm(here - target, axis=2) < 70) > 0.25, die.owner
                window.show(replace(snap, dice={o: p for o, p in snap.dice.items() if o != die.owner}))
                without = window.capture()
                window.show(snap)
                assert np.abs(patch(without, window, top, radius) - here).mean() > 25, die.owner
                assert (
                    np.abs(patch(without, window, aside, radius) - patch(img, window, aside, radius)).mean()
                    < 8
                )
                checked += 1
            window.referee = False
        advance(ctrl, window, lambda c: c.stage is not Stage.RESULT)
    assert ctrl.stage is Stage.OVER and ctrl.game.winner and checked >= 6
    # the end screen: the winner's banner and the standings panel
    img = window.capture()
    window.save_screenshot(tmp_path / "end.png")
    assert window.panel is not None and window.panel.title.startswith(
        f"{ctrl.game.names[ctrl.game.winner]} wins"
    )
    assert window.panel.rows[0][0] == ctrl.game.names[ctrl.game.winner]
    r = window.panel.rect  # in a column at the right edge, beside the box (second playtest)
    assert r.x0 > W / 2 and window._box_on_screen(ctrl.snapshot()).overlap(r) == 0
    middle = int(img.shape[0] - (r.y0 + r.y1) / 2)
    panel = img[middle - 20 : middle + 20, int(r.x0) + 10 : int(r.x1) - 10].astype(float)
    assert panel.mean() < 90  # the dark panel
    assert ctrl.snapshot().banner.endswith("wins!")


def test_a_flick_with_the_mouse_throws_the_persons_die(ctrl, window):
    ctrl.new_game(GameSetup.standard(3, 1, seed=11, names=("Ann",)))
    assert ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
    window.show(ctrl.step())
    window.render()
    assert window.aim.wall == "S"
    window.camera.yaw, window.camera.goal_yaw = 0.0, None
    clock = window.fake_clock
    window.on_mouse_press(480, 200, 1, 0)
    for k in range(1, 6):
        clock.t += 0.016
        window.on_mouse_drag(480, 200 + 16 * k, 0, 16, 1, 0)
    window.on_mouse_release(480, 280, 1, 0)
    assert ctrl.hands and "blue" in ctrl.hands  # the flick became Ann's throw
    advance(ctrl, window, lambda c: c.stage is Stage.FLIGHT)
    rec = ctrl.match.log[-1]
    assert rec.request.kind == "setup" and "blue" in rec.throw.owners
    release = next(r for r in rec.throw.releases if r.owner == "blue")
    box = ctrl.match.world.box
    assert release.position[1] < -(box.inner_size[1] / 2 + box.wall_thickness)  # from outside the rim
    assert release.velocity[1] > 0.3  # thrown north, into the box
    traj = rec.result.trajectory
    i = traj.owners.index("blue")
    assert traj.positions[-1, i, 1] > traj.positions[0, i, 1] + 0.05  # the die left the hand
    # the snapshot the window draws during the flight has Ann's die in the air
    window.show(ctrl.step())
    assert "blue" in window._shown.dice


def test_the_new_game_form_sets_up_the_game(ctrl, window, tmp_path):
    setup = GameSetup.standard(3, 1, seed=5)
    dialog = window.open_dialog(setup, ctrl.new_game, None)
    assert ctrl.paused() or ctrl.match is None

    def click(action):
        x, y = dialog.target(action, window.width, window.height).centre
        window.on_mouse_press(x, y, 1, 0)

    click(("players", 1))
    click(("players", 1))
    assert len(dialog.setup.seats) == 5
    click(("human", 1))
    click(("skill", 2))
    click(("colour", 0))
    click(("name", 0))
    window.on_text("Zoë")
    from pyglet.window import key

    window.on_key_press(key.BACKSPACE, 0)
    window.on_text("e")
    window.on_key_press(key.RETURN, 0)  # ends typing, does not start yet
    assert window.dialog is dialog
    click(("board", "III"))
    click(("spinner",))
    click(("card", "B"))
    click(("card", "G"))
    click(("card", "H"))  # a fifth card is refused with a reason
    assert "4 cards" in dialog.error
    window.render()
    window.save_screenshot(tmp_path / "dialog.png")
    img = window.capture()
    assert img.std() > 20
    assert window.hud.buttons == {}  # the form covers the table: no toggle buttons under it
    labels = [i for i in dialog._items if hasattr(i, "text")]
    # on whole pixels: at 800 x 500 a card line placed on y = 139.5 lost its lower third
    assert labels and all(lab.x == int(lab.x) and lab.y == int(lab.y) for lab in labels)
    assert not any("Help [H]" in b[4] for b in window.hud.text_boxes)
    click(("start",))
    assert window.dialog is None and ctrl.match is not None
    s = ctrl.setup
    assert s.seats[0].name == "Zoe" and s.seats[1].name == "Player 2"
    assert len(s.seats) == 5 and s.seats[1].human and s.seats[2].skill == "hard"
    assert s.board == "III" and s.spinner is False and s.cards == ["A", "C", "D", "G"]
    assert ctrl.game.board.name == "III" and list(ctrl.game.cards) == ["A", "C", "D", "G"]
    assert ctrl.match.world.spinner_id is None
    window.render()
    assert set(window.hud.buttons) == {"referee", "sound", "help"}  # back with the table


def test_the_loop_ends_when_the_window_is_closed(display, monkeypatch, tmp_path):  # noqa: F811
    from pyglet.window import key

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))

    from doppelx.games.doppelx.play import app
    from doppelx.games.doppelx.play.window import PlayWindow

    for how in ("esc during a game", "esc on the first form"):
        c = PlayController()
        win = PlayWindow(640, 480, vsync=False, sound=False, on_intent=c.handle)
        c.ui = win
        if how == "esc during a game":
            c.new_game(GameSetup.standard(3, 0, seed=1))
            for _ in range(600):  # until the setup throw is made: a game played, so in progress
                win.show(c.step())
                if c.numbers:
                    break
            assert c.in_progress
            win.on_key_press(key.ESCAPE, 0)  # the menu ...
            win.on_key_press(key.Q, 0)  # ... Quit asks once ...
            win.on_key_press(key.Q, 0)  # ... and quits
        else:
            win.open_dialog(GameSetup.standard(3, 1), c.new_game, None)
            win.on_key_press(key.ESCAPE, 0)  # the form cannot be cancelled: Esc quits
        assert app.run(win, c, max_frames=50) == 0
        assert win.context is None and c.match is None, how
        if how == "esc on the first form":
            assert c.quit_requested and c.autosaved is None
        else:  # Esc, Q, Q in a game in progress: it was saved where `doppelx play --load` finds it
            assert c.autosaved == tmp_path / "doppelx" / "autosave.json" and c.autosaved.exists()
