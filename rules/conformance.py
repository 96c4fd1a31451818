"""One conformance and determinism checker for every game engine (like Gymnasium's env checker).

:func:`check_game` plays random legal games from a seed and checks that an engine keeps
the contract of :mod:`rules.contract`:

* the methods: every method of :class:`~rules.contract.GameState` is there and takes the
  contract's arguments (no more required, none fewer accepted) — what an ``isinstance``
  check against the runtime-checkable protocol, which looks at the names only, does not see;
* whose turn: ``is_chance_node()``/``is_terminal()`` agree with ``current_player()``; a
  deciding player has legal actions, other nodes have none;
* only legal actions are accepted: actions seen legal earlier but not legal now, a chance
  outcome at a decision, a decision at a chance node and anything at the end raise
  :class:`~rules.common.errors.RulesError` and leave the state unchanged (its JSON record);
* determinism: the same seed gives the same game twice, exactly (JSON record and returns);
* returns: one finite number per player, at every node and at the end;
* replay: ``replay(state.to_json())`` rebuilds the same record, player and returns, in the
  middle of a game and at its end.

Every game's tests call it (``tests/rules/<game>/``).
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from rules.common.errors import RulesError
from rules.contract import CHANCE, SIMULTANEOUS, TERMINAL, GameState


class ConformanceError(AssertionError):
    """An engine broke the contract; the message says where (game, step) and how."""


@dataclass(frozen=True)
class Report:
    """What :func:`check_game` played: per game its steps and final returns."""

    steps: tuple[int, ...]
    returns: tuple[tuple[float, ...], ...]


def _record(state: GameState) -> str:
    return json.dumps(state.to_json(), sort_keys=True, default=str)


class _Checker:
    def __init__(
        self,
        new_state: Callable[[], GameState],
        replay: Callable[[dict[str, Any]], GameState],
        joint_action: Callable[[GameState, np.random.Generator], Any] | None,
        illegal_actions: Callable[[GameState], Iterable[Any]] | None,
        probe_every: int,
        replay_every: int,
        max_steps: int,
    ):
        self.new_state, self.replay = new_state, replay
        self.joint_action, self.illegal_actions = joint_action, illegal_actions
        self.probe_every, self.replay_every, self.max_steps = probe_every, replay_every, max_steps
        self.where = ""

    def fail(self, text: str) -> ConformanceError:
        return ConformanceError(f"{self.where}: {text}")

    def node(self, state: GameState, players: int) -> None:
        cp = state.current_player()
        if state.is_chance_node() != (cp == CHANCE):
            raise self.fail(f"is_chance_node() is {state.is_chance_node()} but current_player() is {cp}")
        if state.is_terminal() != (cp == TERMINAL):
            raise self.fail(f"is_terminal() is {state.is_terminal()} but current_player() is {cp}")
        legal = list(state.legal_actions())
        if cp >= 0 and not legal:
            raise self.fail(f"player {cp} is to decide but has no legal action")
        if cp < 0 and legal:
            raise self.fail(f"{len(legal)} legal actions at a node of player {cp}")
        returns = state.returns()
        if len(returns) != players or not all(math.isfinite(float(r)) for r in returns):
            raise self.fail(f"returns must be {players} finite numbers, got {returns!r}")

    def refused(self, state: GameState, apply: Callable[[], None], what: str) -> None:
        before = _record(state)
        try:
            apply()
        except RulesError:
            if _record(state) != before:
                raise self.fail(f"refusing {what} changed the state") from None
            return
        raise self.fail(f"{what} was accepted")

    def probe(self, state: GameState, seen: list[Any], outcome: Any) -> None:
        cp = state.current_player()
        if cp >= 0:
            legal = list(state.legal_actions())
            stale = [a for a in seen if a not in legal][:3]
            for a in stale:
                self.refused(state, partial(state.apply_action, a), f"the action {a!r}, not legal now")
            if outcome is not None:
                self.refused(state, lambda: state.apply_chance(outcome), "a chance outcome at a decision")
            if self.illegal_actions is not None:
                for a in self.illegal_actions(state):
                    self.refused(state, partial(state.apply_action, a), f"the illegal action {a!r}")
        elif cp in (CHANCE, TERMINAL) and seen:
            self.refused(state, lambda: state.apply_action(seen[-1]), f"a player's action at node {cp}")
        if cp == TERMINAL and outcome is not None:
            self.refused(state, lambda: state.apply_chance(outcome), "a chance outcome at the end")

    def same_replay(self, state: GameState) -> None:
        again = self.replay(state.to_json())
        if _record(again) != _record(state):
            raise self.fail("replay(to_json()) gives a different record")
        if again.current_player() != state.current_player() or again.returns() != state.returns():
            raise self.fail("replay(to_json()) gives a different player to act or returns")

    def play(self, rng: np.random.Generator) -> tuple[GameState, int]:
        state = self.new_state()
        players = len(state.returns())
        seen: list[Any] = []
        outcome = None
        steps = 0
        while True:
            self.where = self.where.split(", step")[0] + f", step {steps}"
            self.node(state, players)
            if steps % self.probe_every == 0:
                self.probe(state, seen, outcome)
            if steps and steps % self.replay_every == 0:
                self.same_replay(state)
            if state.is_terminal():
                self.probe(state, seen, outcome)
                return state, steps
            if steps >= self.max_steps:
                raise self.fail(f"no end after {self.max_steps} steps")
            cp = state.current_player()
            if cp == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply_chance(outcome)
            elif cp == SIMULTANEOUS:
                if self.joint_action is None:
                    raise self.fail("a simultaneous node, but no joint_action was given to the checker")
                state.apply_action(self.joint_action(state, rng))
            else:
                legal = list(state.legal_actions())
                action = legal[int(rng.integers(len(legal)))]
                state.apply_action(action)
                seen = ([action] + [a for a in seen if a != action])[:16]
            steps += 1


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def check_methods(state: Any) -> None:
    """Every method of :class:`~rules.contract.GameState` is on ``state`` and takes the
    contract's positional arguments: raises :class:`ConformanceError` naming the first that does not."""
    kind = type(state).__name__
    for name, member in vars(GameState).items():
        if name.startswith("_") or not callable(member):
            continue
        method = getattr(state, name, None)
        if not callable(method):
            raise ConformanceError(f"{kind} has no method {name}()")
        wanted = len(inspect.signature(member).parameters) - 1  # less self
        params = inspect.signature(method).parameters.values()
        required = sum(p.kind in _POSITIONAL and p.default is p.empty for p in params)
        accepted = sum(p.kind in _POSITIONAL for p in params)
        varargs = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
        if required > wanted or (accepted < wanted and not varargs):
            raise ConformanceError(
                f"{kind}.{name}() takes {required}–{accepted} arguments; the contract passes {wanted}"
            )


def check_game(
    new_state: Callable[[], GameState],
    replay: Callable[[dict[str, Any]], GameState],
    *,
    seed: int = 0,
    games: int = 2,
    joint_action: Callable[[GameState, np.random.Generator], Any] | None = None,
    illegal_actions: Callable[[GameState], Iterable[Any]] | None = None,
    probe_every: int = 5,
    replay_every: int = 97,
    max_steps: int = 200_000,
) -> Report:
    """Play ``games`` random legal games (game i from ``np.random.default_rng([seed, i])``),
    each twice, and check the contract; raises :class:`ConformanceError` at the first breach.

    Args:
        new_state: makes the initial state (the same every call).
        replay: the engine's ``replay(data)`` (spec and options bound).
        joint_action: for games with simultaneous nodes, draws everybody's joint action.
        illegal_actions: game-specific actions that must be refused where they are offered.
        probe_every: check the refusals at every n-th node.
        replay_every: check ``replay`` at every n-th node (and always at the end).
        max_steps: a game longer than this fails.
    """
    check_methods(new_state())
    checker = _Checker(new_state, replay, joint_action, illegal_actions, probe_every, replay_every, max_steps)
    steps, returns = [], []
    for i in range(games):
        checker.where = f"game {i} (seed {seed})"
        first, n = checker.play(np.random.default_rng([seed, i]))
        checker.where = f"game {i} (seed {seed}), second run"
        second, n2 = checker.play(np.random.default_rng([seed, i]))
        checker.where = f"game {i} (seed {seed})"
        if n2 != n or _record(first) != _record(second) or first.returns() != second.returns():
            raise checker.fail("the same seed gave a different game")
        checker.same_replay(first)
        steps.append(n)
        returns.append(tuple(float(r) for r in first.returns()))
    return Report(tuple(steps), tuple(returns))
