"""Playing a recorded throw back frame by frame: poses, spinner, clatter, dice coming to rest.

A :class:`Playback` walks through a :class:`physics.trajectory.Trajectory` (frames at the
physics sample rate, 60 per second) one frame per fixed step of the window's loop, so the
dice fly in real time and the window interpolates between frames. It knows which dice have
come to rest by each frame (a die rests from the first frame after which it stays within
:data:`REST_DISTANCE` and :data:`REST_ANGLE` of its final pose), so the match can show
each die's chips as it stops, and it hands out the impacts of each frame for the clatter.
A playback at a ``rate`` below 1 (the slow-motion replay, R) walks through the frames more
slowly and hands out poses between two frames (positions in a straight line, orientations
by normalised linear interpolation of the quaternions: frames 1/60 s apart turn a die by
at most a few tens of degrees, where that is indistinguishable from slerp).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from rules.doppelx.outcome import Pose
from rules.doppelx.scoring import ThrowScore

if TYPE_CHECKING:
    from physics.throw import Throw
    from physics.trajectory import Trajectory

#: A die whose centre stays within this distance (m) ...
REST_DISTANCE = 0.001
#: ... and whose orientation stays within this angle (rad) of its final pose has come to rest.
REST_ANGLE = math.radians(3.0)


class Playback:
    """Frame-by-frame playback of one throw.

    Args:
        trajectory: the recorded throw (:class:`physics.trajectory.Trajectory`).
        rate: frames per :meth:`advance` step (1: real time; 1/3: a third of real speed).
    """

    def __init__(self, trajectory: Trajectory, rate: float = 1.0):
        if not rate > 0:
            raise ValueError(f"a playback's rate must be positive, got {rate}")
        self.trajectory = trajectory
        self.rate = float(rate)
        self.frame = 0
        self._at = 0.0  # the playback's position in frames (fractional when slowed down)
        self._fresh = True  # the current frame has just been reached (its impacts sound once)
        self.impacts = trajectory.impacts()
        self.rest_frame = rest_frames(trajectory)

    @property
    def frames(self) -> int:
        return len(self.trajectory)

    @property
    def done(self) -> bool:
        """The last frame (everything at rest) has been reached."""
        return self.frame >= self.frames - 1

    @property
    def time(self) -> float:
        """Seconds since the release at the current frame."""
        return float(self.trajectory.times[self.frame])

    def advance(self, frames: int = 1) -> None:
        """Move on by ``frames`` steps of :attr:`rate` frames each (not past the last frame)."""
        last = self.frames - 1
        self._at = min(float(last), self._at + max(0, frames) * self.rate)
        frame = min(last, int(self._at + 1e-9))
        self._fresh = frame != self.frame
        self.frame = frame
        if self.frame >= last:
            self._at = float(last)

    def finish(self) -> None:
        """Jump to the last frame."""
        self.frame = self.frames - 1
        self._at = float(self.frame)

    def poses(self) -> dict[str, Pose]:
        """Every die's pose at the current point of the playback, by owner (between two frames when slowed)."""
        f = self._at - self.frame
        if f < 1e-6 or self.frame >= self.frames - 1:
            return self.trajectory.frame(self.frame)
        t = self.trajectory
        pos = (1 - f) * t.positions[self.frame] + f * t.positions[self.frame + 1]
        q0, q1 = t.quaternions[self.frame], t.quaternions[self.frame + 1]
        sign = np.where(np.sum(q0 * q1, axis=1, keepdims=True) < 0, -1.0, 1.0)  # the short way round
        q = (1 - f) * q0 + f * sign * q1
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        return {
            o: Pose(tuple(map(float, pos[i])), tuple(map(float, q[i])))  # type: ignore[arg-type]
            for i, o in enumerate(t.owners)
        }

    def spinner_angle(self) -> float:
        return float(self.trajectory.spinner_angles[self.frame])

    def impacts_now(self) -> tuple[float, ...]:
        """Impact speeds (m/s) between the previous frame and this one (once, when the frame is reached)."""
        if not self._fresh or self.frame >= len(self.impacts):
            return ()
        return tuple(self.impacts[self.frame])

    def resting(self) -> set[str]:
        """Dice that have come to rest by the current frame."""
        return {o for o, k in self.rest_frame.items() if k <= self.frame}


def rest_frames(trajectory) -> dict[str, int]:
    """For each die, the first frame from which on it stays at its final pose (see the module docstring)."""
    pos = np.asarray(trajectory.positions, dtype=float)  # (n, dice, 3)
    quat = np.asarray(trajectory.quaternions, dtype=float)  # (n, dice, 4)
    if len(pos) == 0:
        return {o: 0 for o in trajectory.owners}
    far = np.linalg.norm(pos - pos[-1], axis=2) > REST_DISTANCE
    turned = np.abs(np.sum(quat * quat[-1], axis=2)) < math.cos(REST_ANGLE / 2)
    moving = far | turned  # (n, dice)
    out = {}
    for i, owner in enumerate(trajectory.owners):
        idx = np.nonzero(moving[:, i])[0]
        out[owner] = int(idx[-1]) + 1 if len(idx) else 0
    return out


@dataclass
class ShownThrow:
    """A throw as the window shows and replays it.

    Attributes:
        number: the throw's number in the game (1-based).
        kind, thrower: the request's kind and active player.
        bets: the bets on the cards during the throw.
        score: its scoring.
        throw: the release parameters (:class:`physics.throw.Throw`).
        lying: dice lying before the throw.
        spinner_before: the spinner's angle before it (rad).
        trajectory: the recorded trajectory, or ``None`` until it is simulated again.
    """

    number: int
    kind: str
    thrower: str | None
    bets: dict[str, str]
    score: ThrowScore
    throw: Throw
    lying: dict[str, Pose]
    spinner_before: float
    trajectory: Trajectory | None = None
