"""The window's main loop: events, fixed-step game time, drawing, and the automatic quit.

:func:`run` opens nothing itself: it takes a :class:`doppelx.games.doppelx.play.window.PlayWindow` and a
:class:`doppelx.games.doppelx.play.controller.PlayController` and loops — dispatch the window's events,
advance the game by the real time passed (times ``speed``) through
:class:`render.driver.FixedStep`, draw and flip only if the picture changed
(:meth:`render.window.TableWindow.wants_redraw`), sleep to about 60 loops per second
(30 while nothing moves, so an idle window costs next to no CPU) — until
the window closes, or, with ``quit_after``, until that many throws have come to rest (or
the game is over); then it saves the screenshot if one was asked for, releases the physics
world and closes the window.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from doppelx.games.doppelx.play.controller import PlayController, Stage
from render.backend import pyglet
from render.driver import FixedStep

#: Frames per second the loop aims at (it sleeps the rest of a frame).
FPS = 60
#: Loops per second while nothing changes on screen (input still answered within 1/30 s).
IDLE_FPS = 30


def should_quit(controller: PlayController, quit_after: int | None) -> bool:
    """Whether ``quit_after`` throws have come to rest, or the game ended first."""
    if quit_after is None or controller.match is None:
        return False
    done = controller.throws_shown >= quit_after and controller.stage is Stage.RESULT
    return done or controller.stage is Stage.OVER


def run(
    window,
    controller: PlayController,
    *,
    speed: float = 1.0,
    quit_after: int | None = None,
    screenshot: str | Path | None = None,
    clock: Callable[[], float] = time.perf_counter,
    max_frames: int | None = None,
) -> int:
    """Loop until the window closes or the automatic quit, then close it; returns the exit code (0).

    Args:
        window: the open window.
        controller: the match (its ``ui`` is ``window``).
        speed: game seconds per real second.
        quit_after: quit once this many throws have come to rest (or the game is over).
        screenshot: save the window to this PNG when quitting after ``quit_after`` throws.
        clock: seconds (tests inject their own).
        max_frames: stop after this many loops (tests).
    """
    drive = FixedStep(
        window,
        controller.step,
        controller.snapshot(),
        dt=controller.frame_dt / speed,
        max_steps=max(16, int(4 * speed)),
    )
    last = clock()
    frames = 0
    while not _closed(window) and not controller.quit_requested:
        start = clock()
        window.dispatch_events()
        if _closed(window) or controller.quit_requested:
            break
        pyglet.clock.tick()
        now = clock()
        drive.tick(now - last)
        last = now
        if should_quit(controller, quit_after):
            if screenshot is not None:
                window.save_screenshot(screenshot)
            break
        drew = window.wants_redraw()
        if drew:
            window.switch_to()
            window.render()
            window.flip()
        frames += 1
        if max_frames is not None and frames >= max_frames:
            break
        rest = 1.0 / (FPS if drew else IDLE_FPS) - (clock() - start)
        if rest > 0:
            time.sleep(rest)
    controller.close()
    if window.context is not None:
        window.close()
    return 0


def _closed(window) -> bool:
    """The window was closed (its close button, Esc, Ctrl+Q): no context left to draw with."""
    return bool(window.has_exit or window.context is None)
