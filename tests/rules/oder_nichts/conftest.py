"""Fixtures for the Doppelt oder nichts tests: the deck and a driver for chosen deals."""

from __future__ import annotations

import dataclasses

import pytest

from rules.oder_nichts.actions import CHANCE_KIND, Action
from rules.oder_nichts.cards import load_deck
from rules.oder_nichts.deal import deal_outcome, find_cards
from rules.oder_nichts.state import GameConfig, State


@pytest.fixture(scope="session")
def deck():
    return load_deck()


class Driver:
    """A game from a chosen deal, driven by card labels.

    Player i is dealt ``hands[i]``; player n-1 deals, so player 0 moves first (unless the
    start card says otherwise).
    """

    def __init__(self, deck, hands, start, draw=(), target=None, rounds=None):
        self.spec = dataclasses.replace(deck, hand_size=len(hands[0]))
        taken: set[int] = set()
        hand_ids = [find_cards(self.spec, h, taken) for h in hands]
        start_id = find_cards(self.spec, [start], taken)[0]
        draw_ids = find_cards(self.spec, draw, taken)
        self.state = State(GameConfig(len(hands), target, rounds), self.spec)
        self.state.apply_action(deal_outcome(self.spec, hand_ids, start_id, draw_ids))

    # ---- looking -----------------------------------------------------------------------
    @property
    def pending(self):
        return self.state.pending

    @property
    def who(self) -> int:
        return self.state.current_player()

    @property
    def kind(self) -> str:
        return self.state.pending.kind

    @property
    def table(self):
        return self.state.table

    def hand(self, p: int) -> list[str]:
        return sorted(self.spec.card(c).label for c in self.table.hands[p])

    def top(self) -> str:
        return self.table.top.label

    def events(self) -> list[str]:
        return [e.render([f"P{i}" for i in range(self.table.n)]) for e in self.state.events]

    # ---- acting ------------------------------------------------------------------------
    def ids(self, player: int, labels) -> tuple[int, ...]:
        """Card ids in ``player``'s hand with these labels (two equal labels → two cards)."""
        out: list[int] = []
        for label in labels:
            for c in sorted(self.table.hands[player]):
                if self.spec.card(c).label == label and c not in out:
                    out.append(c)
                    break
            else:
                raise AssertionError(f"player {player} holds no {label!r}: {self.hand(player)}")
        return tuple(out)

    def action(self, kind: str, *labels: str, **fields) -> Action:
        return Action(kind, self.ids(self.who, labels), **fields)

    def do(self, kind: str, *labels: str, **fields) -> None:
        """The deciding player does ``kind`` with the cards named by ``labels``."""
        self.state.apply_action(self.action(kind, *labels, **fields))

    def play(self, *labels: str, colour=None) -> None:
        self.do("play", *labels, colour=colour)

    def task(self, success: bool) -> None:
        assert self.state.is_chance_node() and self.pending.kind == "task"
        self.state.apply_action(Action(CHANCE_KIND, choice="success" if success else "failure"))

    def pick(self, *labels: str) -> None:
        """Outcome of a random pick (half hand): these cards of the picking player."""
        req = self.pending
        assert req.kind == "pick"
        self.state.apply_action(Action(CHANCE_KIND, cards=self.ids(req.player, labels)))

    def until(self, player: int, kind: str = "turn", passes: bool = True) -> None:
        """Let others pass their windows until ``player`` has a ``kind`` decision."""
        for _ in range(50):
            if self.who == player and self.kind == kind:
                return
            if passes and self.kind == "window":
                self.state.apply_action(Action("pass_window"))
                continue
            raise AssertionError(f"expected {kind} of P{player}, got {self.kind} of P{self.who}")
        raise AssertionError("no progress")


@pytest.fixture
def rig(deck):
    """``rig(hands, start, draw=(), target=None, rounds=None)`` → a :class:`Driver`."""

    def make(hands, start, draw=(), target=None, rounds=None) -> Driver:
        return Driver(deck, hands, start, draw, target, rounds)

    return make
