"""Errors of the desktop window: no display, no usable OpenGL 3.3 context.

:class:`NoDisplayError` is a :class:`rules.common.errors.DoppelXError`, so the CLI prints it as
one line and exits with code 2.
"""

from __future__ import annotations

from rules.common.errors import DoppelXError

#: What to tell a user who has no display.
HEADLESS_HINT = (
    "run it under a virtual display (xvfb-run -a doppelx play ...) or use the headless commands instead"
)


class NoDisplayError(DoppelXError):
    """No window can be opened: no X display, or no OpenGL 3.3 core context on it.

    Args:
        reason: what went wrong, e.g. ``"DISPLAY is not set"``.
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"cannot open the 3D window: {reason}; {HEADLESS_HINT}")
