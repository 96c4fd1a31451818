"""Fixtures for the window tests: a private Xvfb display, one shared window, scene helpers.

The ``display`` fixture starts ``Xvfb`` on a free display number for the test session
(Mesa's llvmpipe renders there) and points ``DISPLAY`` at it; tests that need OpenGL are
skipped when neither Xvfb nor an existing display is available.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from rules.outcome import Pose


def _free_display() -> int:
    for n in range(91, 140):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number")


@pytest.fixture(scope="session")
def display():
    """A running X display for the session (a private Xvfb when possible)."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("DISPLAY"):
            yield os.environ["DISPLAY"]
            return
        pytest.skip("needs Xvfb or a display for OpenGL")
    n = _free_display()
    proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socket = Path(f"/tmp/.X11-unix/X{n}")
    for _ in range(100):
        if socket.exists() or proc.poll() is not None:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip("Xvfb did not start")
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    try:
        yield f":{n}"
    finally:
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old
        proc.terminate()
        proc.wait(timeout=10)


class FakeClock:
    """A clock the tests advance by hand (seconds)."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def window(display):
    """One 960 × 600 window for a test module, with a fake clock and the intents it emitted."""
    from render.window import TableWindow

    clock = FakeClock()
    intents: list = []
    win = TableWindow(960, 600, on_intent=intents.append, vsync=False, sound=False, clock=clock)
    win.intents = intents
    win.fake_clock = clock
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
