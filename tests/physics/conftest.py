"""Shared physics fixtures: the box, one world per side (rebuilt by every throw anyway)."""

from __future__ import annotations

import pytest

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
