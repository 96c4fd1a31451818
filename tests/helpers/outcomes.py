"""Dice outcomes made by hand: a die lying flat where a test says, a die gone; the test data folder."""

from __future__ import annotations

import math
from pathlib import Path

from rules.doppelx.outcome import DieOutcome, Pose, Status

DATA = Path(__file__).parents[1] / "data"


def flat(
    dice, owner: str, x_mm: float, y_mm: float, top: str, yaw_deg: float = 0.0, touched_spinner: bool = False
) -> DieOutcome:
    """A die of ``owner`` lying flat at (x, y) mm with ``top`` up."""
    pose = Pose.resting(dice[owner], x_mm / 1e3, y_mm / 1e3, math.radians(yaw_deg), top)
    return DieOutcome(owner, Status.BOARD, pose, touched_spinner)


def gone(owner: str, status: str = "hole", touched_spinner: bool = False) -> DieOutcome:
    return DieOutcome(owner, Status(status), None, touched_spinner)
