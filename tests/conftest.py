"""Shared fixtures: the built-in boards and dice, and helpers to make outcomes by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import DieOutcome, Pose, Status

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def dice():
    return load_dice()


@pytest.fixture(scope="session")
def side_i():
    return load_board("I")


def flat(
    dice, owner: str, x_mm: float, y_mm: float, top: str, yaw_deg: float = 0.0, touched_spinner: bool = False
) -> DieOutcome:
    """A die of ``owner`` lying flat at (x, y) mm with ``top`` up."""
    pose = Pose.resting(dice[owner], x_mm / 1e3, y_mm / 1e3, math.radians(yaw_deg), top)
    return DieOutcome(owner, Status.BOARD, pose, touched_spinner)


def gone(owner: str, status: str = "hole", touched_spinner: bool = False) -> DieOutcome:
    return DieOutcome(owner, Status(status), None, touched_spinner)
