"""The game contract every game engine meets, in the shape of OpenSpiel's Python games.

A state answers whose turn it is (a player number, :data:`CHANCE`, :data:`SIMULTANEOUS` or
:data:`TERMINAL`), lists the legal actions, applies an action after checking it (an illegal
one raises :class:`~rules.common.errors.RulesError` and changes nothing), treats chance as an
explicit step (:meth:`GameState.sample_chance` draws an outcome from a seeded generator;
:meth:`GameState.apply_chance` applies it, whether drawn or supplied from outside, e.g. by
the physics tray), reports the returns, and serialises itself (:meth:`GameState.to_json`);
each engine's module-level ``replay(data, spec=None)`` rebuilds the identical state from
that record.

Engines: DoppelX (:mod:`rules.doppelx.state`: the bets are the decisions, the throw is the
chance node whose outcome the physics tray supplies), :mod:`rules.clever`,
:mod:`rules.doppelspiel`, :mod:`rules.oder_nichts`, :mod:`rules.wuerfelblitz`.
:mod:`rules.conformance` checks any of them against this contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

#: ``current_player()`` at a chance node (dice, shuffles, task outcomes).
CHANCE = -1
#: ``current_player()`` while every player acts at once (Würfelblitz's calls).
SIMULTANEOUS = -2
#: ``current_player()`` once the game is over.
TERMINAL = -4


@runtime_checkable
class GameState(Protocol):
    """What every engine's state offers."""

    def current_player(self) -> int:
        """The player to decide, or :data:`CHANCE`, :data:`SIMULTANEOUS`, :data:`TERMINAL`."""
        ...

    def is_chance_node(self) -> bool:
        """True exactly when ``current_player() == CHANCE``."""
        ...

    def is_terminal(self) -> bool:
        """True exactly when ``current_player() == TERMINAL``."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """The deciding player's legal actions (empty at chance, simultaneous and terminal nodes)."""
        ...

    def apply_action(self, action: Any) -> None:
        """Check and apply the deciding player's action (at a simultaneous node: everybody's)."""
        ...

    def sample_chance(self, rng: np.random.Generator) -> Any:
        """A chance outcome drawn from ``rng``; not applied."""
        ...

    def apply_chance(self, outcome: Any) -> None:
        """Check and apply a chance outcome (drawn by :meth:`sample_chance` or from outside)."""
        ...

    def returns(self) -> list[float]:
        """One number per player, higher is better (final at the terminal node)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The game as JSON data from which the engine's ``replay(data)`` rebuilds it."""
        ...


def chance_step(state: GameState, rng: np.random.Generator) -> Any:
    """Draw a chance outcome from ``rng``, apply it and return it."""
    outcome = state.sample_chance(rng)
    state.apply_chance(outcome)
    return outcome
