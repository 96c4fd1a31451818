"""Fixtures for the window tests: a private Xvfb display, one shared window, scene helpers.

The ``display`` fixture (a private Xvfb for the session) and :class:`FakeClock` live in
``tests/xvfb.py``, shared with the application's window tests.
"""

from __future__ import annotations

import math

import pytest

from rules.doppelx.outcome import Pose
from tests.xvfb import FakeClock, display, settle_size  # noqa: F401  (fixtures shared with tests/doppelx/games/doppelx/play)


@pytest.fixture(scope="module")
def window(display):
    """One 960 × 600 window for a test module, with a fake clock and the intents it emitted."""
    from render.window import TableWindow

    clock = FakeClock()
    intents: list = []
    win = TableWindow(960, 600, on_intent=intents.append, vsync=False, sound=False, clock=clock)
    win.intents = intents
    win.fake_clock = clock
    win.home_size = (960, 600)  # what :func:`fresh` gives each test
    yield win
    win.close()


@pytest.fixture(scope="session")
def table_i():
    from render.snapshot import TableSpec

    return TableSpec.standard("I")


@pytest.fixture(scope="session")
def resting():
    """``resting(table, owner, x_mm, y_mm, top, yaw_deg=0)``: a die lying flat with ``top`` up."""

    def make(table, owner: str, x_mm: float, y_mm: float, top: str, yaw_deg: float = 0.0) -> Pose:
        return Pose.resting(table.dice[owner], x_mm / 1e3, y_mm / 1e3, math.radians(yaw_deg), top)

    return make


@pytest.fixture
def fresh(window):
    """The module's window as a new table shows it: table view, no help, log or busy text,
    the camera at home, no pending input or hint, at its own size (every resize answered)."""
    window.switch_to()
    settle_size(window, window.home_size)
    window.referee = False
    window.help = False
    window.show_log = False
    window.menu = ""
    window.busy_text = ""
    window.camera.reset()
    window.intents.clear()
    window.hint = ""
    yield window
