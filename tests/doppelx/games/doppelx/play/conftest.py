"""Fixtures of the window's play tests: a real PlayWindow on the session's Xvfb with a fake clock."""

from __future__ import annotations

import pytest

from tests.xvfb import FakeClock, display  # noqa: F401  (the session's Xvfb)


@pytest.fixture
def window(display):
    from doppelx.games.doppelx.play.window import PlayWindow

    clock = FakeClock()
    win = PlayWindow(800, 500, vsync=False, sound=False, clock=clock)
    win.fake_clock = clock
    yield win
    if win.context is not None:
        win.close()
