"""Shared physics fixtures: the box, one world per side (rebuilt by every throw anyway)."""

from __future__ import annotations

import math

import pytest

from physics.throw import DieRelease, Throw
from physics.world import World
from rules.doppelx.board_file import load_board
from rules.doppelx.box import load_box


@pytest.fixture(scope="session")
def box():
    return load_box()


@pytest.fixture(scope="module")
def world_i():
    with World(load_board("I")) as w:
        yield w


@pytest.fixture(scope="module")
def world_iii():
    with World(load_board("III")) as w:
        yield w


def drop(
    owner: str,
    x: float,
    y: float,
    z: float,
    *,
    vx: float = 0.0,
    vy: float = 0.0,
    vz: float = 0.0,
    tilt: float = 0.0,
    spin=(0.0, 0.0, 0.0),
) -> DieRelease:
    """A die released at (x, y, z) m, turned by ``tilt`` rad about x, with a velocity."""
    q = (math.sin(tilt / 2), 0.0, 0.0, math.cos(tilt / 2))
    return DieRelease(owner, (x, y, z), q, (vx, vy, vz), tuple(spin))  # type: ignore[arg-type]


def throw_of(*releases: DieRelease) -> Throw:
    return Throw(tuple(releases))
