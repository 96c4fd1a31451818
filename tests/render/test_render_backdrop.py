"""The still parts drawn once per view (:mod:`render.backdrop`): the same picture, pixel for
pixel, as drawing them every frame — and drawn anew exactly when the view changes."""

from __future__ import annotations

import math

import numpy as np
import pytest


@pytest.fixture(scope="module")
def scaled(display):
    """A window whose scene has a framebuffer of its own (drawn at 0.6 of its size and
    stretched, as a large window's on a software renderer)."""
    from render.window import TableWindow
    from tests.xvfb import FakeClock

    win = TableWindow(960, 600, vsync=False, sound=False, clock=FakeClock(), render_scale=0.6)
    yield win
    win.close()


def _tumbling(table, frame: int):
    """A die in the air, turning and moving from one frame to the next."""
    from rules.doppelx.outcome import Pose

    a = 0.4 * frame
    q = np.array([math.sin(a), math.cos(1.3 * a), 0.3, math.cos(a)])
    q /= np.linalg.norm(q)
    return Pose((0.02 * math.sin(a), -0.03, 0.035), tuple(float(v) for v in q))


def _both(win, snap) -> tuple[np.ndarray, np.ndarray]:
    """The frame of ``snap`` drawn with the backdrop and without it."""
    win.show(snap)
    win.capture()  # the labels settle over a frame (their placer keeps a label where it was)
    win.keep_still = True
    kept = win.capture()
    win.keep_still = False
    drawn = win.capture()
    win.keep_still = True
    return kept, drawn


def test_the_backdrop_changes_no_pixel(scaled, table_i, resting):
    """Dice lying, tumbling, under a card and lying off the box; the table view, a turned
    camera and the referee view: with and without the backdrop the same picture."""
    from render.snapshot import Snapshot

    box = table_i.box
    corner_x, corner_y = box.inner_size[0] / 2 - 0.012, box.inner_size[1] / 2 - 0.012
    outside = box.inner_size[0] / 2 + box.wall_thickness + 0.05
    dice = {
        "blue": resting(table_i, "blue", -40, 20, "3"),
        "red": resting(table_i, "red", 1e3 * corner_x, 1e3 * corner_y, "X"),  # under a card
        "yellow": resting(table_i, "yellow", 1e3 * outside, 0, "2"),  # on the table, off the box
    }
    win = scaled
    assert win.software, "these figures are for a software renderer (the test display's)"
    for frame, (yaw, referee) in enumerate([(None, False), (0.7, False), (None, True)]):
        win.camera.reset()
        if yaw is not None:
            win.camera.yaw += yaw
            win.camera.goal_yaw = None
        win.referee = referee
        snap = Snapshot(table_i, {**dice, "green": _tumbling(table_i, frame)})
        kept, drawn = _both(win, snap)
        assert kept.shape == drawn.shape
        assert np.array_equal(kept, drawn), (yaw, referee, int((kept != drawn).any(axis=2).sum()))
    win.referee = False
    win.camera.reset()
    assert win.scene.backdrop is not None and not win.scene.backdrop.broken


def test_the_spinners_blade_moves_over_the_backdrop(scaled, resting):
    """Side III: the blade turns from frame to frame over the still pin and its shadow."""
    from render.snapshot import Snapshot, TableSpec

    table = TableSpec.standard("III")
    win = scaled
    win.camera.reset()
    win.referee = False
    pictures = []
    for angle in (0.0, 1.1):
        kept, drawn = _both(
            win, Snapshot(table, {"blue": resting(table, "blue", -40, 20, "3")}, spinner_angle=angle)
        )
        assert np.array_equal(kept, drawn), angle
        pictures.append(kept)
    assert (pictures[0] != pictures[1]).any(axis=2).sum() > 200  # the blade turned on the copied backdrop


def test_the_backdrop_is_drawn_once_while_the_view_stays(scaled, table_i, resting):
    """Ten frames of a tumbling die under a still camera record the still parts once; turning
    the camera, the referee view and a die going under a card each record them anew."""
    from render.snapshot import Snapshot

    win = scaled
    win.camera.reset()
    win.referee = False
    win.keep_still = True
    lying = {"blue": resting(table_i, "blue", -40, 20, "3")}
    win.show(Snapshot(table_i, lying))
    win.capture()
    backdrop = win.scene.backdrop
    records, copies = backdrop.records, backdrop.copies
    for frame in range(10):
        win.show(Snapshot(table_i, {**lying, "green": _tumbling(table_i, frame)}))
        win.capture()
    assert (backdrop.records, backdrop.copies) == (records, copies + 10)
    win.camera.yaw += 0.3
    win.camera.goal_yaw = None
    win.capture()
    assert backdrop.records == records + 1
    win.referee = True
    win.capture()
    assert backdrop.records == records + 2
    win.referee = False
    box = table_i.box
    cx, cy = 1e3 * (box.inner_size[0] / 2 - 0.012), 1e3 * (box.inner_size[1] / 2 - 0.012)
    win.show(Snapshot(table_i, {**lying, "red": resting(table_i, "red", cx, cy, "X")}))
    win.capture()
    assert win.scene.under_card and backdrop.records == records + 3  # the cards now see-through
    win.camera.reset()


def test_a_backdrop_the_driver_will_not_copy_is_given_up(scaled, table_i, resting, monkeypatch):
    """A copy the driver refuses (a depth format it will not blit into) is not left as a broken
    picture: the scene draws the still parts itself from then on."""
    from render.backdrop import Backdrop
    from render.snapshot import Snapshot

    win = scaled
    win.camera.reset()
    snap = Snapshot(table_i, {"blue": resting(table_i, "blue", -40, 20, "3")})
    win.show(snap)
    win.keep_still = False
    drawn = win.capture()
    win.keep_still = True
    old = win.scene.backdrop
    if old is not None:
        old.delete()
    win.scene.backdrop = Backdrop()

    def refuse(self, framebuffer, width, height):
        self.broken, self.key = True, None
        return False

    monkeypatch.setattr(Backdrop, "copy_into", refuse)
    kept = win.capture()
    assert win.scene.backdrop.broken
    assert np.array_equal(kept, drawn)


def test_a_window_the_scene_fills_whole_gets_the_backdrop_and_the_same_picture(fresh, table_i, resting):
    """A window small enough for the scene to be drawn at its full size (the default 1280 × 800 and
    below) draws it into a framebuffer of the window's size, so the backdrop serves it too (at
    1280 × 800 the frame took half the time: docs/window.md). Copied 1:1, the picture is the one
    that framebuffer gets without the backdrop, pixel for pixel, and the one drawn straight into
    the window to within 2 levels at a few pixels (the window's own framebuffer blends a hair
    differently from an offscreen one)."""
    from render.snapshot import Snapshot

    win = fresh
    assert win.keep_still and win.render_scale is None
    dice = {"blue": resting(table_i, "blue", -40, 20, "3"), "green": _tumbling(table_i, 2)}
    kept, drawn = _both(win, Snapshot(table_i, dice))
    backdrop = win.scene.backdrop
    assert backdrop is not None and backdrop.copies >= 1 and not backdrop.broken
    assert win._scaled is not None and win._scaled.size == win.get_framebuffer_size()
    backdrop.broken = True  # the same framebuffer, the still parts drawn in the frame
    try:
        offscreen = win.capture()
    finally:
        backdrop.broken = False
    assert np.array_equal(kept, offscreen), int((kept != offscreen).any(axis=2).sum())
    apart = np.abs(kept.astype(int) - drawn.astype(int)).max(axis=2)
    assert apart.max() <= 2 and (apart > 0).mean() < 0.001, (apart.max(), int((apart > 0).sum()))
