"""A private Xvfb display for window tests, shared by tests/render and tests/doppelx/games/doppelx/play.

The ``display`` fixture starts ``Xvfb`` on a free display number for the test session
(Mesa's llvmpipe renders there) and points ``DISPLAY`` at it; tests that need OpenGL are
skipped when neither Xvfb nor an existing display is available. :class:`FakeClock` is a
clock the tests advance by hand. Import both into a test module or conftest.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest


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
        _unavailable("needs Xvfb or a display for OpenGL")
    n = _free_display()
    proc = subprocess.Popen(
        [xvfb, f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    socket = Path(f"/tmp/.X11-unix/X{n}")
    for _ in range(100):
        if socket.exists() or proc.poll() is not None:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        _unavailable("Xvfb did not start")
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


def x_display_of(window) -> str:
    """The X display a pyglet window lives on (pyglet keeps the display it opened first, which
    need not be today's ``DISPLAY``: each test package starts its own Xvfb)."""
    import ctypes

    from pyglet.libs.x11 import xlib

    f = xlib._lib.XDisplayString
    f.restype, f.argtypes = ctypes.c_char_p, [ctypes.c_void_p]
    return f(ctypes.cast(window.display._display, ctypes.c_void_p)).decode()


def xdotool_env(window) -> dict[str, str]:
    """The environment for an ``xdotool`` process that talks to ``window``'s display."""
    return dict(os.environ, DISPLAY=x_display_of(window))


def settle_size(window, size: tuple[int, int]) -> None:
    """Put ``window`` at ``size`` and let the X server's answers to every resize asked for so far
    arrive: a test that resizes the shared window puts it back in a ``finally``, but the
    server's ConfigureNotify for an earlier size can come after the next test has started, which
    then draws (and reads pixels) at a size it did not ask for (seen under load: an end panel
    laid out at 1280 × 800, a referee picture read outside the framebuffer)."""
    from pyglet.libs.x11 import xlib

    for _ in range(3):
        xlib.XSync(window._x_display, False)
        window.dispatch_events()
        if window.get_size() == tuple(size):
            return
        window.set_size(*size)
    raise AssertionError(f"the test window stays at {window.get_size()}, not {size}")


class FakeClock:
    """A clock the tests advance by hand (seconds)."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _unavailable(reason: str) -> None:
    """Skip on a developer's machine without Xvfb; in CI (which installs it) that is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs xvfb and Mesa: check .ci/run)")
    pytest.skip(reason)
