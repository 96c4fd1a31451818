"""The window made forgiving and legible (issue 14) under Xvfb: HUD laid out from the window size
without text over text, die labels that never overlap, the near wall see-through, flicks that
begin on the table and are timed by the X events' own timestamps, a power bar, the rules card,
the sound button true to the device, a busy indicator drawn at once, no redraw when idle."""

from __future__ import annotations

import shutil
import subprocess
import time

import numpy as np
import pytest

from render.labels import Rect, centred, overlaps, place
from rules.doppelx.style import hex_to_rgb
from tests.xvfb import FakeClock, xdotool_env

OWNERS = ["blue", "red", "yellow", "green", "purple", "orange", "pink", "black"]


def _pixel(img: np.ndarray, x: float, y: float) -> np.ndarray:
    h = img.shape[0]
    return img[h - 1 - int(round(y)), int(round(x))].astype(float)


def _snapshot(table, players: int, *, long: bool = False, resting=None):
    from render.snapshot import FloatingText, InputMode, ScoreLine, Snapshot

    owners = [o for o in OWNERS if o in table.dice.dice][:players]
    names = [("Maximiliane-Alexandra " if long else "") + o.title() for o in owners]
    board = tuple(ScoreLine(n, o, 40 + k, k == 0, "+12 bet X") for k, (n, o) in enumerate(zip(names, owners)))
    summary = ("Doppel X!",) + tuple(f"{n} +10  (dice +6, bet card C paid +3, Doppel X +10)" for n in names)
    return Snapshot(
        table,
        dice={},
        scoreboard=board,
        turn=f"Decider: {names[0]} throws after a very long deliberation about where to stand",
        message="Drag towards the box and let go while moving (H: help) — and one more long clause here",
        banner="Doppel X!",
        floating=(FloatingText("+6", (0.0, 0.0, 0.02), "#2255ff"),),
        input=InputMode.THROW,
        thrower=owners[0],
        summary=summary,
        activity="Rolling…",
    )


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1920, 1080), (2560, 1440)])
@pytest.mark.parametrize("players", [3, 8])
def test_the_hud_never_draws_text_over_text(window, table_i, size, players):
    from render.backend import pyglet
    from render.hud import Hud, HudState

    window.switch_to()
    hud = Hud()
    w, h = size
    state = HudState(
        w,
        h,
        aim_text="Throwing from side S, +12 cm along · release 40 mm over the rim · spin +10 rad/s",
        hint="Not saved — cannot write /very/long/path/to/a/folder/doppelx-save.json: it is a folder.",
        busy="Starting the game…",
    )
    hud.update(_snapshot(table_i, players, long=True), state, [])
    boxes = [Rect(*b[:4]) for b in hud.text_boxes]
    texts = [b[4] for b in hud.text_boxes]
    assert "Starting the game…" in texts and "Rolling…" in texts and "Doppel X!" in texts
    bad = [(texts[i], texts[j]) for i, j in overlaps(boxes)]
    assert not bad, (size, players, bad)
    for b, text in zip(boxes, texts):  # everything inside the window
        assert b.x0 >= -1 and b.y0 >= -1 and b.x1 <= w + 1 and b.y1 <= h + 1, (size, text)
    # every player's row is there (no "…" cut), 3 to 8 of them
    for line in _snapshot(table_i, players, long=True).scoreboard:
        assert str(line.chips) in texts
    # on whole pixels: at 800 x 500 a label at a fractional y lost a row of its glyphs ("=" read
    # as "–"; fourth playtest)
    labels = [item for item in hud._items if isinstance(item, pyglet.text.Label)]
    assert labels and all(float(lab.x).is_integer() and float(lab.y).is_integer() for lab in labels)
    for item in hud._items:
        item.delete()


def test_die_labels_keep_clear_of_the_doppel_x_banner(window, table_i):
    """A die under the banner gets its label placed beside it, not hidden behind the banner."""
    from render.hud import Anchor, Hud, HudState

    window.switch_to()
    hud = Hud()
    w, h = 1280, 800
    hud.update(_snapshot(table_i, 3), HudState(w, h), [])
    # the banner, not the summary's "Doppel X!" line: the tallest text of it
    banner = max((Rect(*b[:4]) for b in hud.text_boxes if b[4] == "Doppel X!"), key=lambda r: r.y1 - r.y0)
    mid = (banner.x0 + banner.x1) / 2
    under = [Anchor("X!", mid + dx, (banner.y0 + banner.y1) / 2, "#ffcc00") for dx in (-40.0, 0.0, 40.0)]
    hud.update(_snapshot(table_i, 3), HudState(w, h), under)
    assert len(hud.plates) == 3
    for plate in hud.plates:
        assert not overlaps([plate, banner]), plate
    for item in hud._items:
        item.delete()


@pytest.mark.parametrize("size", [(800, 500), (1280, 800), (1920, 1080)])
def test_the_doppel_x_banner_hangs_under_the_top_lines_not_over_the_playfield(window, table_i, size):
    """Third playtest: the banner, at 62 % of the height and up to 64 px, covered the far half of
    the table. It hangs under the turn and activity lines, in the top fifth of the window."""
    from render.hud import Hud, HudState

    window.switch_to()
    hud = Hud()
    w, h = size
    hud.update(_snapshot(table_i, 4), HudState(w, h), [])
    banner = max((Rect(*b[:4]) for b in hud.text_boxes if b[4] == "Doppel X!"), key=lambda r: r.y1 - r.y0)
    activity = hud.blocks["activity"]
    assert banner.y1 <= activity.y0 and banner.y0 >= h * 0.78, (size, banner, activity)
    assert banner.y1 - banner.y0 <= 0.08 * h
    for item in hud._items:
        item.delete()


def test_label_layout_keeps_plates_apart_and_off_the_obstacles():
    rng = np.random.default_rng(4)
    for _ in range(30):
        anchors = [tuple(p) for p in rng.uniform(300, 420, size=(9, 2))]  # nine dice in a heap
        sizes = [(46.0, 22.0)] * 9
        dice = [centred(x, y, 24, 24) for x, y in anchors]
        placed = place(anchors, sizes, dice, Rect(0, 0, 960, 600), gap=18)
        plates = [p.rect for p in placed]
        assert not overlaps(plates)
        assert all(p.overlap(d) == 0 for p in plates for d in dice)
        for (ax, ay), p in zip(anchors, placed):  # a moved plate is tied to its die by a leader line
            if p.leader is not None:
                assert p.leader[:2] == (ax, ay)


def test_die_labels_are_white_on_dark_plates_clear_of_each_other(fresh, table_i, resting):
    from render.snapshot import FloatingText, Snapshot

    win = fresh
    spots = {"blue": (0, 0), "red": (18, 2), "pink": (-17, 4), "black": (3, 19), "yellow": (-2, -18)}
    dice = {o: resting(table_i, o, x, y, "2") for o, (x, y) in spots.items()}
    floating = tuple(
        FloatingText(
            f"+{k + 2}", (p.position[0], p.position[1], p.position[2] + 0.012), table_i.dice[o].colour
        )
        for k, (o, p) in enumerate(dice.items())
    )
    win.show(Snapshot(table_i, dice, floating=floating))
    img = win.capture()
    plates = win.hud.plates
    assert len(plates) == len(dice) and not overlaps(plates)
    assert all(p.overlap(o) == 0 for p in plates for o in win.hud.obstacles)
    for p in plates:  # dark plate, white text on it: high contrast whatever the die's colour
        patch = img[img.shape[0] - int(p.y1) : img.shape[0] - int(p.y0), int(p.x0) : int(p.x1)].astype(float)
        lum = patch.mean(axis=2)
        assert np.percentile(lum, 30) < 60 and lum.max() > 220


def test_the_near_wall_is_see_through_so_a_die_at_its_foot_shows(fresh, table_i, resting):
    from render.scene import near_wall
    from render.snapshot import Snapshot

    win = fresh
    from shapely.geometry import Point

    from rules.doppelx.board import FieldKind

    hy = table_i.box.inner_size[1] / 2
    half = table_i.dice["red"].half
    y0 = -hy + half + 0.001
    blue = [f.shape for f in table_i.board.fields if f.kind is FieldKind.ONE]
    x0 = next(  # a spot at the foot of the near wall on a blue 1x field
        x
        for x in np.arange(-0.1, 0.1, 0.005)
        if any(b.contains(Point(x, y0 + half).buffer(1.2 * half)) for b in blue)
    )
    pose = resting(table_i, "red", x0 * 1000, y0 * 1000, "2")
    win.show(Snapshot(table_i, {"red": pose}))
    img = win.capture()
    assert win.scene.near == near_wall(win.camera, table_i.box.inner_size[0] / 2, hy) == "S"
    w, h = win.get_framebuffer_size()
    red = np.array(hex_to_rgb(table_i.dice["red"].colour)) * 255
    x, y, _ = win.camera.project((x0, pose.position[1] + half * 0.5, pose.position[2] + half), w, h)
    seen = _pixel(img, x, y)
    assert seen[0] > seen[2] + 60 and seen[0] > seen[1] + 40, seen  # the red die shows through the wall
    win.show(Snapshot(table_i))
    without = _pixel(win.capture(), x, y)
    assert np.linalg.norm(seen - without) > 60  # ... where the empty box shows the wall's print
    assert np.linalg.norm(seen - red) < np.linalg.norm(without - red)
    win.referee = True  # from straight above every wall is opaque again
    win.capture()
    assert win.scene.near is None


def test_a_drag_that_begins_on_the_table_in_front_of_the_box_throws(fresh, table_i):
    from render.intents import ThrowIntent
    from render.snapshot import InputMode, Snapshot

    win = fresh
    win.show(Snapshot(table_i, input=InputMode.THROW, thrower="blue"))
    win.aim.wall, win.aim.along = "S", 0.0
    win.camera.goal_yaw = None
    w, h = win.get_framebuffer_size()
    box = table_i.box
    front = (0.0, -(box.inner_size[1] / 2 + box.wall_thickness + 0.03), box.floor_z)
    x, y, _ = win.camera.project(front, w, h)  # on the table, just in front of the near wall
    assert not win._over_box(x, y)
    clock = win.fake_clock
    win.on_mouse_press(x, y, 1, 0)
    for k in range(1, 6):
        clock.t += 0.016
        win.on_mouse_drag(x, y + 16 * k, 0, 16, 1, 0)
        if k == 3:  # the power bar while dragging
            win.render()
            assert win._hud_state().power is not None and "Power" in [b[4] for b in win.hud.text_boxes]
    win.on_mouse_release(x, y + 80, 1, 0)
    throws = [i for i in win.intents if isinstance(i, ThrowIntent)]
    assert len(throws) == 1 and throws[0].wall == "S" and throws[0].target is not None
    # a plain click on the table only places the thrower
    win.intents.clear()
    win.on_mouse_press(x + 60, y, 1, 0)
    win.on_mouse_release(x + 61, y, 1, 0)
    assert win.intents == [] and win.aim.wall == "S" and win.aim.along > 0


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool for real X input events")
def test_flick_speed_comes_from_the_x_events_timestamps_not_from_frame_arrival(display):
    """xdotool moves the real pointer; all events are handled in one batch while the clock stands still."""
    from render.intents import ThrowIntent
    from render.snapshot import InputMode, Snapshot, TableSpec
    from render.window import TableWindow

    clock = FakeClock()
    intents: list = []
    win = TableWindow(960, 600, on_intent=intents.append, vsync=False, sound=False, clock=clock)
    try:
        win.show(Snapshot(TableSpec.standard("I"), input=InputMode.THROW, thrower="blue"))
        win.camera.yaw, win.camera.goal_yaw = 0.0, None
        for _ in range(3):
            win.render()
            win.flip()
            win.dispatch_events()
        samples: list = []
        flick = win.aim.flick
        win.aim.flick = lambda s: samples.append(list(s)) or flick(s)
        wid = str(win._window)
        cmd = ["xdotool", "mousemove", "--window", wid, "480", "420", "mousedown", "1"]
        for k in range(1, 7):
            cmd += ["sleep", "0.02", "mousemove", "--window", wid, "480", str(420 - 14 * k)]
        cmd += ["mouseup", "1"]
        subprocess.run(cmd, check=True, timeout=20, env=xdotool_env(win))
        time.sleep(0.2)
        win.dispatch_events()  # one batch: the clock did not move
        assert samples, win.hint
        times = [t for t, _, _ in samples[0]]
        assert times[-1] - times[0] > 0.08  # the X server's times of the moves, 20 ms apart
        throws = [i for i in intents if isinstance(i, ThrowIntent)]
        assert len(throws) == 1 and 0.0 < throws[0].power < 1.0 and throws[0].velocity[1] > 0.2
    finally:
        win.close()


def test_help_shows_the_rules_card_and_the_sound_button_tells_the_device(fresh, table_i, monkeypatch):
    from render.snapshot import Snapshot

    win = fresh
    win.switch_to()
    win.show(Snapshot(table_i))
    win.help = True
    win.render()
    text = "\n".join(win.hud.modal_texts)
    assert "The white die scores for the player who threw it." in text
    assert "score again and again" in text and "Controls" in text
    win.help = False
    device, enabled = win.sound_device, win.clatter.enabled
    try:
        win.sound_device, win.clatter.enabled = False, False
        win.render()
        assert "Sound no device [M]" in [b[4] for b in win.hud.text_boxes]
        win._toggle("sound")
        assert not win.clatter.enabled and "no sound device" in win.hint
        win.sound_device, win.clatter.enabled = True, True
        win.render()
        assert "Sound on [M]" in [b[4] for b in win.hud.text_boxes]
    finally:
        win.sound_device, win.clatter.enabled = device, enabled


def test_nothing_is_redrawn_while_nothing_changes(fresh, table_i, resting):
    from dataclasses import replace

    from render.snapshot import Snapshot

    win = fresh
    snap = Snapshot(table_i, {"blue": resting(table_i, "blue", 0, 0, "2")}, turn="Blue throws")
    win.show(snap)
    win.render()
    win.camera.goal_yaw = None
    assert not win.wants_redraw()
    win.show(replace(snap, time=snap.time + 1.0))  # a later step of a standing game: the same picture
    assert not win.wants_redraw()
    win.show(replace(snap, turn="Red throws"))
    assert win.wants_redraw()
    win.render()
    win.dispatch_event("on_mouse_motion", 10, 10, 1, 1)  # (motion alone changes nothing)
    assert not win.wants_redraw()
    win.dispatch_event("on_key_press", 0x6D, 0)  # M: sound
    assert win.wants_redraw()
    win.dispatch_events()  # (deliver the queued events now, not in another test)
    win.clatter.enabled = False


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool for real X input events")
def test_busy_draws_a_frame_at_once_and_drops_the_input_meanwhile(fresh, table_i):
    from pyglet.window import key

    from render.snapshot import Snapshot

    win = fresh
    win.show(Snapshot(table_i))
    win.dispatch_events()
    flips = []
    flip = win.flip
    win.flip = lambda: flips.append([b[4] for b in win.hud.text_boxes]) or flip()
    pressed = []
    win.push_handlers(on_key_press=lambda s, m: pressed.append(s))
    wid = str(win._window)
    try:
        win.busy("Starting the game…")
        assert flips and "Starting the game…" in flips[-1]
        # Esc typed while the program is busy (the real key, through the X server)
        subprocess.run(
            ["xdotool", "key", "--window", wid, "Escape"], check=True, timeout=20, env=xdotool_env(win)
        )
        time.sleep(0.2)
        win.busy("")
        assert pressed == [] and not win.has_exit and win.busy_text == ""
        subprocess.run(["xdotool", "key", "--window", wid, "m"], check=True, timeout=20, env=xdotool_env(win))
        time.sleep(0.2)
        win.dispatch_events()  # a key after the wait is handled as usual
        assert pressed == [key.M]
    finally:
        win.pop_handlers()
        win.flip = flip
        win.clatter.enabled = False


def test_a_die_that_left_the_box_below_the_view_is_shown_in_the_inset(fresh, table_i):
    from render import box_mesh
    from render.snapshot import FloatingText, Snapshot
    from rules.doppelx.outcome import Pose

    win = fresh
    die = table_i.dice["green"]
    z = box_mesh.table_z(table_i.box) + die.half
    pose = Pose.resting(die, 0.05, -0.45, 0.3, "2")  # on the table, in front of the box, below the view
    pose = Pose((pose.position[0], pose.position[1], z), pose.quaternion)
    label = FloatingText("off the box: back to hand", (0.05, -0.45, z + 0.012), die.colour)
    win.show(Snapshot(table_i, {"green": pose}, floating=(label,)))
    w, h = win.get_framebuffer_size()
    home = win.camera.distance
    _, y, _ = win.camera.project(label.position, w, h)
    assert y < 0  # out of the default view
    for _ in range(60):
        win.render()
        if not win.wants_redraw():
            break
    assert not win.wants_redraw()  # no endless redraw while it lies there
    assert win.camera.distance == home and win.insets  # shown in the inset, not by zooming out
    assert "off the box: back to hand" in win._inset_items[-1].text
    win.show(Snapshot(table_i))  # the next throw: no labels, no inset
    win.render()
    assert win.camera.distance == home and not win.insets


def test_a_screenshot_that_cannot_be_written_is_a_message(fresh, table_i, tmp_path):
    from pyglet.window import key

    from render.snapshot import Snapshot

    win = fresh
    win.show(Snapshot(table_i))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    old = win.screenshot_dir
    try:
        win.screenshot_dir = blocker / "shots"  # below a file: cannot be made
        win.on_key_press(key.F12, 0)
        assert win.hint.startswith(f"no screenshot — cannot write {blocker / 'shots'}")
        win.screenshot_dir = tmp_path
        win.on_key_press(key.F12, 0)
        assert win.hint.startswith("screenshot saved") and len(list(tmp_path.glob("doppelx-*.png"))) == 1
        assert not list(tmp_path.glob(".*tmp"))
    finally:
        win.screenshot_dir = old


def test_a_die_under_a_bet_card_shows_through_it(window, table_i, resting):
    """Session 8's window audit: a die on the playfield corner under a card was hidden from above."""
    import numpy as np

    from render.snapshot import Snapshot

    window.show(Snapshot(table_i, dice={"white": resting(table_i, "white", 108, -108, "3")}))
    window.switch_to()
    window.render()
    under = window.capture()
    assert window.scene.under_card
    window.show(Snapshot(table_i, dice={"white": resting(table_i, "white", 0, 0, "3")}))
    window.render()
    assert not window.scene.under_card
    window.show(Snapshot(table_i))
    window.render()
    empty = window.capture()
    assert np.abs(under.astype(int) - empty.astype(int)).max() > 60  # the die is seen, not only the card


def _die_region(window, table, pose, owner: str = "white", size: int = 9):
    """The ``size`` × ``size`` pixels round the projected centre of a die's top in the window's last frame."""
    w, h = window.get_framebuffer_size()
    x, y, z = pose.position
    px, py, _ = window.camera.project((x, y, z + table.dice[owner].half), w, h)
    img = window.capture().astype(int)
    r, c = img.shape[0] - 1 - int(round(py)), int(round(px))
    k = size // 2
    return img[r - k : r + k + 1, c - k : c + k + 1]


def test_a_die_under_a_card_that_nothing_hides_is_drawn_as_itself(window, table_i, monkeypatch):
    """Fifth playtest: the dice under corner cards A/B showed as an outline with a washed-out
    inside. The outline pass (for a die something nearer hides) drew the die's own back faces
    over its front: every die under a card was "hidden" by itself. It draws front faces only."""
    from render import scene as scene_module
    from render.card_places import bet_die_poses
    from render.snapshot import Snapshot
    from rules.doppelx.outcome import Pose

    on_card = bet_die_poses(table_i, {"green": "A"})["green"]
    x, y, _ = on_card.position
    under = Pose.resting(table_i.dice["white"], x, y, 0.0, "3")
    window.switch_to()
    window.camera.reset()
    window.referee = False
    for bets in ({}, {"green": "A"}):  # the card alone, and with a (faded) die bet on it
        window.show(Snapshot(table_i, dice={"white": under}, bets=bets))
        window.needs_redraw = True
        window.render()
        assert window.scene.under_card
        outlined = _die_region(window, table_i, under)
        monkeypatch.setattr(scene_module, "GHOST_ALPHA", 0.0)
        window.needs_redraw = True
        window.render()
        plain = _die_region(window, table_i, under)
        monkeypatch.undo()
        assert abs(outlined - plain).max() <= 6, (bets, abs(outlined - plain).max())  # 59 before


@pytest.mark.parametrize("where", [(122, -120), (108, -108), (-122, -120)])
def test_the_field_lines_printed_on_a_see_through_card_do_not_cross_a_die_under_it(
    window, table_i, resting, monkeypatch, where
):
    """A die under a bet card shows through the card, but the outlines of the fields under the
    card, drawn on its top, ran across the die as white lines (a die under card B read as cut
    in two). Where a die is seen, the card's lines are not drawn."""
    from render.scene import Scene
    from render.snapshot import Snapshot

    pose = resting(table_i, "white", *where, "3")
    window.show(Snapshot(table_i, dice={"white": pose}))
    window.switch_to()
    window.camera.reset()
    window.referee = False
    window.needs_redraw = True
    window.render()
    assert window.scene.under_card and window.scene.card_fields[1]
    with_lines = _die_region(window, table_i, pose, size=15)
    monkeypatch.setattr(Scene, "_draw_card_fields", lambda self, fill: None)
    window.needs_redraw = True
    window.render()
    without = _die_region(window, table_i, pose, size=15)
    monkeypatch.undo()
    assert np.abs(with_lines - without).max() <= 6, np.abs(with_lines - without).max()


def test_a_die_under_a_card_hidden_by_another_die_shows_its_outline(window, table_i, monkeypatch):
    """Where a die nearer the camera hides a die under a card, that die's outline is drawn over it."""
    from render import scene as scene_module
    from render.card_places import bet_die_poses
    from render.snapshot import Snapshot
    from rules.doppelx.outcome import Pose

    on_card = bet_die_poses(table_i, {"green": "A"})["green"]
    x, y, _ = on_card.position
    window.switch_to()
    window.camera.reset()
    window.referee = False
    w, h = window.get_framebuffer_size()
    # the camera's ground direction: a die a little nearer the camera along it hides the other's foot
    near = window.camera.project((x, y, 0.0), w, h)
    far = window.camera.project((x, y + 0.01, 0.0), w, h)
    toward = -0.018 if far[1] > near[1] else 0.018
    under = Pose.resting(table_i.dice["white"], x, y, 0.0, "3")
    front = Pose.resting(table_i.dice["blue"], x, y + toward, 0.0, "3")
    window.show(Snapshot(table_i, dice={"white": under, "blue": front}))
    window.needs_redraw = True
    window.render()
    assert "white" in window.scene.ghosts
    outlined = window.capture().astype(int)
    monkeypatch.setattr(scene_module, "GHOST_ALPHA", 0.0)
    window.needs_redraw = True
    window.render()
    plain = window.capture().astype(int)
    assert abs(outlined - plain).max() > 60  # the white die's outline over the blue die


def test_the_dice_bet_on_a_card_fade_while_a_die_lies_under_it(window, table_i):
    """Second playtest: a die under a bet card carrying bettors' dice was only an outline — the
    card faded, the dice standing on it still hid the die's face. They fade too: where the die
    lies, the picture is nearly what it is with no die on the card (the faded card alone)."""
    import numpy as np

    from render.card_places import bet_die_poses
    from render.snapshot import Snapshot
    from rules.doppelx.outcome import Pose

    bets = {"green": "A", "red": "A", "blue": "A"}
    on_card = bet_die_poses(table_i, bets)["red"]
    x, y, _ = on_card.position
    under = {"white": Pose.resting(table_i.dice["white"], x, y, 0.0, "3")}  # right below a bet die
    window.switch_to()
    window.camera.reset()
    window.referee = False
    w, h = window.get_framebuffer_size()
    px, py, _ = window.camera.project((x, y, table_i.dice["white"].half), w, h)
    shots = {}
    for name, snap in (
        ("bets", Snapshot(table_i, dice=under, bets=bets)),
        ("alone", Snapshot(table_i, dice=under)),
        ("card only", Snapshot(table_i, bets=bets)),
    ):
        window.show(snap)
        window.needs_redraw = True
        window.render()
        img = window.capture().astype(float)
        r = img.shape[0] - 1 - int(round(py))
        shots[name] = img[r - 3 : r + 4, int(round(px)) - 3 : int(round(px)) + 4]
        if name == "bets":  # the die right over it fades; green's, at the card's other corner, does
            # not cover it in this view and stays opaque (thirteenth playtest: every die bet on the
            # card faded and a bettor's own die all but vanished)
            assert "red" in window.scene.faded_bets and "green" not in window.scene.faded_bets
    assert window.scene.faded_bets == frozenset()  # no die under the card: the bet dice opaque
    seen = np.abs(shots["bets"] - shots["alone"]).mean()
    hidden = np.abs(shots["card only"] - shots["alone"]).mean()
    assert seen < 0.35 * hidden, (seen, hidden)  # (0.22 measured; 0.54 with the bet dice opaque)


def test_a_see_through_cards_print_is_faint_over_the_die_under_it(window, table_i, resting, monkeypatch):
    """Thirteenth playtest: a yellow die under card A could not be read through the card's
    "Doppel X" print, drawn over it at the card's see-through 30 %. Over a die seen under the
    card the veil and its print are fainter (:data:`render.scene.CARD_OVER_DIE_ALPHA`)."""
    from render import scene as scene_module
    from render.snapshot import Snapshot

    pose = resting(table_i, "white", 122, -120, "3")  # wholly under card B
    window.switch_to()
    window.camera.reset()
    window.referee = False

    def die_with(alpha: float):
        monkeypatch.setattr(scene_module, "CARD_OVER_DIE_ALPHA", alpha)
        window.show(Snapshot(table_i, dice={"white": pose}))
        window.needs_redraw = True
        window.render()
        assert window.scene.under_card
        return _die_region(window, table_i, pose, size=7)

    bare = die_with(0.0)  # no veil over the die at all
    before = np.abs(die_with(scene_module.CARD_SEE_THROUGH_ALPHA) - bare).mean()
    monkeypatch.undo()
    now = np.abs(die_with(scene_module.CARD_OVER_DIE_ALPHA) - bare).mean()
    monkeypatch.undo()
    assert before > 5 and now < 0.6 * before, (now, before)


def test_the_referee_view_gives_each_die_one_plate_clear_of_the_others(fresh):
    """Issue 32 (4): with 8 dice round the spinner the Tab view drew 16 plates (chips and
    reading apart) with crossing leaders. One plate a die, reading and chips together."""
    from render.snapshot import FloatingText, Snapshot, TableSpec
    from rules.doppelx.outcome import Pose

    table = TableSpec.standard("III")
    owners = list(table.dice.dice)[:8]
    spots = [(-40, 30), (-20, 35), (-30, 10), (10, 20), (25, 5), (60, -40), (70, -60), (-80, -70)]
    dice = {
        o: Pose.resting(table.dice[o], x / 1e3, y / 1e3, 0.2 * i, "2")
        for i, (o, (x, y)) in enumerate(zip(owners, spots))
    }
    chips = tuple(
        FloatingText(f"+{2 * i}", (p.position[0], p.position[1], p.position[2] + 0.012), table.dice[o].colour)
        for i, (o, p) in enumerate(dice.items())
    )
    win = fresh
    win.referee = True
    win.show(Snapshot(table, dice, floating=chips))
    win.render()
    win.render()  # the referee labels of the first frame drawn are placed
    plates = win.hud.plates
    assert len(plates) == 8
    assert all(a.overlap(b) == 0 for i, a in enumerate(plates) for b in plates[i + 1 :])
    assert all(p.x0 >= 0 and p.y0 >= 0 and p.x1 <= win.width and p.y1 <= win.height for p in plates)
    texts = [a.text for a in win._anchors(win._shown, *win.get_framebuffer_size())[0]]
    assert all(" on " in t and " · +" in t for t in texts), texts


def test_the_throw_log_keeps_its_column_while_bet_cards_are_outlined(window, table_i):
    """Third playtest: the log (L) opened during a bet question was a dark band over the last
    line of the "Last throw" panel, without entries: drawing the outlines of the cards one may
    bet on (high in the window) had overwritten where the bottom bands end."""
    from dataclasses import replace

    from render.hud import Hud, HudState

    window.switch_to()
    hud = Hud()
    w, h = 800, 500
    snap = replace(_snapshot(table_i, 8), log=tuple(f"{k}. Blue: blue 3 on 3x = 9" for k in range(6)))
    card = [(300.0, 440.0), (360.0, 440.0), (360.0, 480.0), (300.0, 480.0)]  # a card at the top
    hud.update(snap, HudState(w, h, log=True, highlights=(card,)), [])
    log, summary = hud.blocks["log"], hud.blocks["summary"]
    assert log.y1 <= summary.y0 and log.y1 - log.y0 > 100, (log, summary)
    assert hud.modal_texts[1].startswith("5. Blue")  # the newest throw shows
    for item in hud._items:
        item.delete()


@pytest.mark.parametrize("size", [(800, 500), (1024, 600), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize("log", [False, True])
def test_no_hud_panel_overlaps_another_with_the_log_open_or_closed(window, table_i, size, log):
    """Issue 32: the throw log (L) lay over the "Last throw" panel top right. The scoreboard, the
    turn and activity lines, the last throw, the log, the bottom bands and the buttons each keep
    their own place at 8 players, from 800×500 to 1920×1080."""
    from dataclasses import replace

    from render.hud import Hud, HudState

    window.switch_to()
    hud = Hud()
    w, h = size
    snap = _snapshot(table_i, 8)
    snap = replace(
        snap, log=tuple(f"{k}. Blue: blue 3 on 3x = 9 · white X = 0 · Red bet D +4" for k in range(12))
    )
    state = HudState(w, h, aim_text="Throwing from side S, +12 cm along", hint="Tab: see why", log=log)
    hud.update(snap, state, [])
    names = set(hud.blocks)
    assert {"scoreboard", "summary", "turn", "activity", "message", "hint", "buttons", "aim"} <= names
    assert ("log" in names) == log
    rects = list(hud.blocks.items())
    bad = [(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1 :] if ra.overlap(rb) > 0]
    assert not bad, (size, log, bad)
    for name, r in rects:  # everything inside the window
        assert r.x0 >= -1 and r.y0 >= -1 and r.x1 <= w + 1 and r.y1 <= h + 1, (size, name)
    if log:
        assert hud.modal_texts[1].startswith("11. Blue")  # the newest throw shows
    for item in hud._items:
        item.delete()


def test_the_referee_view_shows_the_print_through_the_bet_cards(window, monkeypatch):
    """Fifth playtest: on sides III/IV the referee view (Tab) drew the bet cards opaque, so the
    3x corners under them could not be seen — nor a die's field there checked. In the referee
    view the cards are always see-through: under a card the print shows through."""
    import numpy as np

    from render import scene as scene_module
    from render.parts_mesh import card_corner
    from render.snapshot import Snapshot, TableSpec

    table = TableSpec.standard("IV")
    window.switch_to()
    window.camera.reset()
    window.referee = True
    w, h = window.get_framebuffer_size()
    spots = []
    for corner in table.box.corner_order:  # on the playfield under each card, clear of its letter
        a, u, v = card_corner(table.box, corner)
        px, py = a + (u + v) * 0.44 * table.box.bet_card_leg
        x, y, _ = window.camera.project((px, py, table.box.rim_z), w, h)
        spots.append((h - 1 - int(round(y)), int(round(x))))

    def under_cards() -> np.ndarray:
        window.show(Snapshot(table))
        window.needs_redraw = True
        window.render()
        img = window.capture().astype(float)
        return np.array([img[r - 3 : r + 4, c - 3 : c + 4] for r, c in spots])

    try:
        seen = under_cards()
        assert window.scene.under_card  # see-through with no die under a card
        monkeypatch.setattr(scene_module, "CARD_SEE_THROUGH_ALPHA", 0.0)  # the print alone
        print_only = under_cards()
        monkeypatch.setattr(scene_module, "CARD_SEE_THROUGH_ALPHA", 1.0)  # as opaque as before
        opaque = under_cards()
    finally:
        window.referee = False
    # the print shows through: the picture moves well towards it from the opaque card's (0 before)
    moved, apart = np.abs(seen - opaque).mean(), np.abs(print_only - opaque).mean()
    assert moved > 0.3 * apart, (moved, apart)


def test_a_die_beside_a_card_that_the_card_hides_from_the_camera_makes_it_see_through(window, table_i):
    """Fifth playtest: a die beside card B, beyond it as the camera looks, lay half under the
    card's edge while the card stayed opaque — seen from above the die is clear of the card, but
    the card lies at the rim's height, so the camera's line of sight to the die's top crosses
    it. The cards go see-through then too; a die further off leaves them opaque."""
    import numpy as np

    from render.card_places import card_corners
    from render.parts_mesh import card_corner
    from render.snapshot import Snapshot
    from rules.doppelx.outcome import Pose

    window.switch_to()
    window.camera.reset()
    window.referee = False
    box = table_i.box
    a, u, v = card_corner(box, card_corners(table_i)["B"])
    middle = a + (u + v) * 0.5 * box.bet_card_leg  # of the card's long edge
    inward = -middle / np.linalg.norm(middle)
    half = table_i.dice["white"].half
    for off, hidden in ((half * np.sqrt(2) + 0.002, True), (0.03, False)):  # beyond the top view's reach
        p = middle + inward * off
        window.show(
            Snapshot(table_i, dice={"white": Pose.resting(table_i.dice["white"], *map(float, p), 0.3, "3")})
        )
        window.needs_redraw = True
        window.render()
        assert window.scene.under_card is hidden, off


def test_the_throwers_ring_and_arrow_fade_over_a_die(window, table_i, resting, monkeypatch):
    """Fifth playtest: the hand's ring and arrow, drawn in front of the near wall, lay over a die
    resting against it. Over a die they are drawn at MARKER_OVER_DIE of their opacity."""
    import numpy as np

    from render import scene as scene_module
    from render.scene import Marker
    from render.snapshot import Snapshot

    die = resting(table_i, "red", 0, -100, "3")
    x, y, z = die.position
    marker = Marker((x, y, z + 0.01), "#ffffff", (0.0, 1.0), 0.04)  # ring and arrow over the die
    window.switch_to()
    window.camera.reset()
    window.referee = False
    window.show(Snapshot(table_i, dice={"red": die}))
    shots = {}
    for name, mark, fade in (("none", None, 0.3), ("faded", marker, 0.3), ("full", marker, 1.0)):
        monkeypatch.setattr(window, "_marker", lambda snap, mark=mark: mark)
        monkeypatch.setattr(scene_module, "MARKER_OVER_DIE", fade)
        window.needs_redraw = True
        window.render()
        shots[name] = _die_region(window, table_i, die, "red").astype(float)
    full = np.abs(shots["full"] - shots["none"]).max()
    faded = np.abs(shots["faded"] - shots["none"]).max()
    assert full > 60 and faded < 0.5 * full, (faded, full)
