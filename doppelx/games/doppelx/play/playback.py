"""Playing a recorded throw back frame by frame: poses, spinner, clatter, dice coming to rest.

A :class:`Playback` walks through a :class:`physics.trajectory.Trajectory` (frames at the
physics sample rate, 60 per second) one frame per fixed step of the window's loop, so the
dice fly in real time and the window interpolates between frames. It knows which dice have
come to rest by each frame (a die rests from the first frame after which it stays within
:data:`REST_DISTANCE` and :data:`REST_ANGLE` of its final pose), so the match can show
each die's chips as it stops, and it hands out the impacts of each frame for the clatter.
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
    """

    def __init__(self, trajectory: Trajectory):
        self.trajectory = trajectory
        self.frame = 0
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
        """Move on by ``frames`` (not past the last frame)."""
        self.frame = min(self.frames - 1, self.frame + max(0, frames))

    def finish(self) -> None:
        """Jump to the last frame."""
        self.frame = self.frames - 1

    def poses(self) -> dict[str, Pose]:
        """Every die's pose at the current frame, by owner."""
        return self.trajectory.frame(self.frame)

    def spinner_angle(self) -> float:
        return float(self.trajectory.spinner_angles[self.frame])

    def impacts_now(self) -> tuple[float, ...]:
        """Impact speeds (m/s) between the previous frame and this one."""
        return tuple(self.impacts[self.frame]) if self.frame < len(self.impacts) else ()

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
