"""A fixed-step loop for the window: the simulation steps at a fixed rate, frames interpolate.

The match gives a ``step()`` function that advances its world by one fixed step and
returns the new :class:`~render.snapshot.Snapshot`; :class:`FixedStep` calls it as often
as real time demands and shows the window the last two snapshots with the fraction of a
step that has passed since (the "fix your timestep" pattern), so motion looks smooth at
any frame rate. Impacts of all the steps taken between two frames reach the window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from render.snapshot import Snapshot


class Shows(Protocol):
    def show(self, current: Snapshot, previous: Snapshot | None = None, alpha: float = 1.0) -> None: ...


class FixedStep:
    """Accumulate real time and step the simulation in fixed ``dt`` increments.

    Args:
        window: anything with :meth:`render.window.TableWindow.show`.
        step: advances the simulation by ``dt`` and returns its snapshot.
        first: the snapshot before the first step.
        dt: the fixed step (s).
        max_steps: most steps per :meth:`tick` (the simulation slows down rather than
            spiralling when a frame took too long).
    """

    def __init__(
        self,
        window: Shows,
        step: Callable[[], Snapshot],
        first: Snapshot,
        dt: float = 1 / 240,
        max_steps: int = 16,
    ):
        if dt <= 0:
            raise ValueError("dt must be positive")
        self.window = window
        self.step = step
        self.dt = dt
        self.max_steps = max_steps
        self.previous = first
        self.current = first
        self.accumulated = 0.0
        self.steps = 0

    def tick(self, elapsed: float) -> float:
        """Advance by ``elapsed`` seconds of real time; returns the interpolation factor shown."""
        self.accumulated += max(0.0, elapsed)
        n = 0
        impacts: list[float] = []
        while self.accumulated >= self.dt and n < self.max_steps:
            self.previous, self.current = self.current, self.step()
            impacts.extend(self.current.impacts)
            self.accumulated -= self.dt
            self.steps += 1
            n += 1
        if n > 1 and len(impacts) > len(self.current.impacts):
            # every step's impacts clatter, not only the last one's
            self.current = replace(self.current, impacts=tuple(impacts))
        if n == self.max_steps:
            self.accumulated = min(self.accumulated, self.dt)
        alpha = self.accumulated / self.dt
        self.window.show(self.current, self.previous, alpha)
        return alpha

    def reset(self, snapshot: Snapshot) -> None:
        """Jump to ``snapshot`` (e.g. after loading a game), dropping any time owed."""
        self.previous = self.current = snapshot
        self.accumulated = 0.0
        self.window.show(snapshot)
