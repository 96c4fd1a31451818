"""A recorded throw for replays: every die's pose at display rate, as plain arrays.

``times`` (n,) s, ``positions`` (n, dice, 3) m, ``quaternions`` (n, dice, 4) ``(x, y, z, w)``,
``velocities`` (n, dice, 3) m/s and ``spinner_angles`` (n,) rad, with ``owners`` naming the
dice axis. Frame ``k`` is the table ``times[k]`` s after the release; the last frame is the
resting state the outcome reports. Saved and loaded as ``.npz``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from physics.settings import GRAVITY
from rules.doppelx.outcome import Pose


@dataclass(frozen=True)
class Trajectory:
    """Frames of one throw (see the module docstring for the array shapes)."""

    owners: tuple[str, ...]
    times: np.ndarray
    positions: np.ndarray
    quaternions: np.ndarray
    velocities: np.ndarray
    spinner_angles: np.ndarray

    def __len__(self) -> int:
        return len(self.times)

    def frame(self, k: int) -> dict[str, Pose]:
        """Poses by owner at frame ``k``."""
        return {
            o: Pose(tuple(map(float, self.positions[k, i])), tuple(map(float, self.quaternions[k, i])))  # type: ignore[arg-type]
            for i, o in enumerate(self.owners)
        }

    def impacts(self, threshold: float = 0.3) -> list[list[float]]:
        """Per frame, the speed changes (m/s) of dice hit since the frame before (clatter sounds).

        A die's velocity change beyond free fall larger than ``threshold`` counts as one impact.
        """
        out: list[list[float]] = [[]]
        g = np.array([0.0, 0.0, -GRAVITY])
        for k in range(1, len(self.times)):
            dt = self.times[k] - self.times[k - 1]
            dv = self.velocities[k] - self.velocities[k - 1] - g * dt
            speeds = np.linalg.norm(dv, axis=1)
            out.append([float(s) for s in speeds if s > threshold])
        return out

    def save(self, path: str | Path | IO[bytes]) -> None:
        """Write an ``.npz`` file (to a path, or to a binary file open for writing)."""
        np.savez_compressed(
            path,
            owners=np.array(self.owners),
            times=self.times,
            positions=self.positions,
            quaternions=self.quaternions,
            velocities=self.velocities,
            spinner_angles=self.spinner_angles,
        )

    @classmethod
    def load(cls, path: str | Path) -> Trajectory:
        """Read a file written by :meth:`save`."""
        with np.load(path) as z:
            return cls(
                tuple(str(o) for o in z["owners"]),
                z["times"],
                z["positions"],
                z["quaternions"],
                z["velocities"],
                z["spinner_angles"],
            )


class Recorder:
    """Collects frames during a throw; :meth:`finish` makes the :class:`Trajectory`."""

    def __init__(self, owners: tuple[str, ...]):
        self.owners = owners
        self._t: list[float] = []
        self._p: list[list] = []
        self._q: list[list] = []
        self._v: list[list] = []
        self._s: list[float] = []

    def add(self, t: float, positions: list, quaternions: list, velocities: list, spinner: float) -> None:
        self._t.append(t)
        self._p.append(positions)
        self._q.append(quaternions)
        self._v.append(velocities)
        self._s.append(spinner)

    def finish(self) -> Trajectory:
        n, k = len(self._t), len(self.owners)
        return Trajectory(
            self.owners,
            np.asarray(self._t, dtype=float),
            np.asarray(self._p, dtype=float).reshape(n, k, 3),
            np.asarray(self._q, dtype=float).reshape(n, k, 4),
            np.asarray(self._v, dtype=float).reshape(n, k, 3),
            np.asarray(self._s, dtype=float),
        )
