"""The one place that imports :mod:`pyglet`: sets its options before any window module loads.

Every GL-using module of :mod:`render` imports ``pyglet`` from here, so the shadow window
is never created (it would need a display at import time) and :func:`check_display` can
turn a missing display into :class:`render.errors.NoDisplayError` before pyglet tries.
"""

from __future__ import annotations

import os
import sys

import pyglet

pyglet.options["shadow_window"] = False
pyglet.options["debug_gl"] = False

from render.errors import NoDisplayError  # noqa: E402  (after pyglet's options are set)


def check_display() -> None:
    """Raise :class:`NoDisplayError` when no X display is configured (Linux/BSD only)."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")) and not os.environ.get("DISPLAY"):
        if not pyglet.options.get("headless"):
            raise NoDisplayError("DISPLAY is not set (no X display)")


__all__ = ["check_display", "pyglet"]
