"""Shared fixtures: the built-in boards and dice, and helpers to make outcomes by hand."""

from __future__ import annotations

import pytest

from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice


@pytest.fixture(scope="session")
def dice():
    return load_dice()


@pytest.fixture(scope="session")
def side_i():
    return load_board("I")
