"""The play tests' shared pieces: a stand-in for the window that records what the play
controller asks of it, a flick and a drag as a person makes them, a game played in a real
window, and stepping a match (with or without a real window) until something is true."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from benchmarks.throw_feel import drag  # noqa: F401  (the tests' steady drag, one definition)
from doppelx.games.doppelx.play.controller import PlayController
from render.intents import ThrowIntent


class FakeUi:
    """Records what the controller asks of the window."""

    dialog_open = False
    overlay_open = False
    referee_seen = False
    pointer_card = None

    def __init__(self):
        self.said: list[str] = []
        self.stood: list[tuple[str, float]] = []
        self.panel = None
        self.busy_texts: list[str] = []
        self.dialogs: list = []

    def say(self, text, seconds=3.0):
        self.said.append(text)

    def busy(self, text):
        self.busy_texts.append(text)

    def open_dialog(self, setup, on_start, on_cancel=None, *, in_progress=False):
        self.dialogs.append((setup, on_start, on_cancel))
        self.dialog_over_a_game = in_progress

    def stand(self, wall, along):
        self.stood.append((wall, along))

    def stance(self):
        return self.stood[-1] if self.stood else None

    def show_panel(self, title, rows, footer, note=""):
        self.panel = (title, rows, footer)
        self.note = note

    def hide_panel(self):
        self.panel = None

    def keep_open(self):
        self.kept_open = getattr(self, "kept_open", 0) + 1


@contextmanager
def playing(window, setup, **kw) -> Iterator[PlayController]:
    """A :class:`PlayController` on ``window`` (its intents wired) with the game ``setup``
    started; closed afterwards. ``kw``: the controller's own options (``save_path``)."""
    c = PlayController(window, **kw)
    window.on_intent = c.handle
    try:
        c.new_game(setup)
        yield c
    finally:
        c.close()


def run_until(ctrl: PlayController, done, max_steps: int = 20000):
    """Step ``ctrl`` until ``done(ctrl)``; the snapshot then."""
    for _ in range(max_steps):
        if done(ctrl):
            return ctrl.snapshot()
        ctrl.step()
    raise AssertionError(f"stuck in stage {ctrl.stage}")


def flick(ctrl: PlayController, speed: float = 0.9) -> ThrowIntent:
    """A throw from the middle of the thrower's wall straight into the box."""
    from physics.throw import release_point

    wall, along = ctrl.ui.stood[-1]
    inward = {"S": (0, 1), "N": (0, -1), "E": (-1, 0), "W": (1, 0)}[wall]
    rel = release_point(ctrl.match.world.box, wall, along, 0.06)
    return ThrowIntent(wall, along, 0.06, rel, (inward[0] * speed, inward[1] * speed, 0.4), (0.0, 0.0, 0.0))


def play_until(ctrl, window, done, max_steps=20000):
    """Step ``ctrl`` and draw each snapshot in ``window`` until ``done(ctrl)``."""
    for _ in range(max_steps):
        if done(ctrl):
            window.show(ctrl.snapshot())
            return
        window.show(ctrl.step())
    raise AssertionError(f"stuck in stage {ctrl.stage}")


def texts(window) -> list[str]:
    """The HUD's texts of the window's next frame."""
    window.switch_to()
    window.render()
    return [b[4] for b in window.hud.text_boxes]
