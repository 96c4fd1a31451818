"""The conformance checker itself: it passes a toy game that keeps the contract and catches
each kind of breach (a tiny game: players alternately add 1 or 2 to a count after a coin
flip; the game ends at 10)."""

from __future__ import annotations

import random

import pytest

from rules.common.errors import RulesError
from rules.conformance import ConformanceError, check_game
from rules.contract import CHANCE, TERMINAL


class Toy:
    def __init__(self):
        self.count, self.player, self.coin, self.log = 0, 0, None, []

    def current_player(self):
        if self.count >= 10:
            return TERMINAL
        return CHANCE if self.coin is None else self.player

    def is_chance_node(self):
        return self.current_player() == CHANCE

    def is_terminal(self):
        return self.current_player() == TERMINAL

    def legal_actions(self):
        return [1, 2] if self.current_player() >= 0 else []

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise RulesError(f"{action!r} is not legal")
        self.count += action + self.coin
        self.player, self.coin = 1 - self.player, None
        self.log.append(["a", action])

    def sample_chance(self, rng):
        return int(rng.integers(2))

    def apply_chance(self, outcome):
        if not self.is_chance_node() or outcome not in (0, 1):
            raise RulesError("not a chance node")
        self.coin = outcome
        self.log.append(["c", outcome])

    def returns(self):
        return [0.0, 0.0] if not self.is_terminal() else ([1.0, 0.0] if self.player else [0.0, 1.0])

    def to_json(self):
        return {"log": list(self.log)}


def toy_replay(data, cls=Toy):
    state = cls()
    for kind, value in data["log"]:
        (state.apply_action if kind == "a" else state.apply_chance)(value)
    return state


def test_a_toy_game_that_keeps_the_contract_passes():
    report = check_game(Toy, toy_replay, seed=1, games=3, probe_every=1, replay_every=3)
    assert len(report.steps) == 3 and all(s > 0 for s in report.steps)


class AcceptsAnything(Toy):
    def apply_action(self, action):
        self.count += action + (self.coin or 0)
        self.player, self.coin = 1 - self.player, None
        self.log.append(["a", action])


class Nondeterministic(Toy):
    def sample_chance(self, rng):
        return random.randint(0, 1)


class ForgetfulReplay(Toy):
    def to_json(self):
        return {"log": list(self.log[:-1])}


class ChanceMismatch(Toy):
    def is_chance_node(self):
        return False


class ChanceWithoutRng(Toy):
    """Has every method name (isinstance of the runtime-checkable protocol passes) but draws
    its chance outcome from nowhere: sample_chance takes no generator."""

    def sample_chance(self):  # type: ignore[override]
        return 0


class ApplyWantsMore(Toy):
    def apply_action(self, action, player):  # type: ignore[override]
        super().apply_action(action)


class NoReturns(Toy):
    returns = None  # type: ignore[assignment]


@pytest.mark.parametrize(
    "cls, words",
    [
        (AcceptsAnything, "accepted"),
        (Nondeterministic, "different game"),
        (ForgetfulReplay, "replay"),
        (ChanceMismatch, "is_chance_node"),
        (ChanceWithoutRng, r"sample_chance\(\) takes 0–0 arguments; the contract passes 1"),
        (ApplyWantsMore, r"apply_action\(\) takes 2–2 arguments; the contract passes 1"),
        (NoReturns, r"has no method returns\(\)"),
    ],
)
def test_each_breach_is_caught(cls, words):
    with pytest.raises(ConformanceError, match=words):
        check_game(cls, lambda d: toy_replay(d, cls), seed=3, games=4, probe_every=1, replay_every=2)
