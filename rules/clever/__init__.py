"""Doppelt so clever (Wolfgang Warsch, 1-4 players): sheet data, sheet rules and the game state machine.

The readings taken where the rulebook texts are unclear are listed in the docstring of
:mod:`rules.clever.game` and in ``docs/games/clever.md``.
"""

from rules.clever.actions import Action
from rules.clever.game import CHANCE, TERMINAL, CleverGame, CleverState, replay
from rules.clever.sheet import Sheet
from rules.clever.spec import CleverSpec, default_spec, load_spec

__all__ = [
    "Action",
    "CHANCE",
    "TERMINAL",
    "CleverGame",
    "CleverState",
    "replay",
    "Sheet",
    "CleverSpec",
    "default_spec",
    "load_spec",
]
