"""Bots for Doppelt oder nichts: policies that choose among the engine's legal actions.

A policy sees only its :class:`~rules.oder_nichts.state.PlayerView` (own hand + public
table) and the open :class:`~rules.oder_nichts.actions.Decision`, and draws any randomness
from the generator it is given. The engine checks every choice.

* ``random``: a uniformly random legal action (including silly ones such as playing out
  of turn); used for robustness tests.
* ``basic``: sheds the most valuable cards first, interjects whenever it can, throws brown
  cards as soon as it may, defends against every attack (brown > passing on > grey cards),
  tries a task when the chance of managing all of them is above one half (then double or
  nothing costs fewer cards on average), names the magnet number with the fewest unseen
  copies, and makes gestures / rock-paper-scissors signs at random.
* ``gambler``: like ``basic`` but always tries the tasks.
* ``cautious``: like ``basic`` but never tries a task.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from rules.oder_nichts.actions import Action, Decision
from rules.oder_nichts.cards import COLOURS, DeckSpec
from rules.oder_nichts.state import PlayerView

BOT_NAMES: tuple[str, ...] = ("basic", "gambler", "cautious", "random")


class RandomBot:
    """Chooses a uniformly random legal action."""

    name = "random"

    def act(self, view: PlayerView, decision: Decision, spec: DeckSpec, rng: np.random.Generator) -> Action:
        return decision.legal[int(rng.integers(len(decision.legal)))]


@dataclass
class BasicBot:
    """A simple heuristic player.

    Attributes:
        name: label in statistics.
        task_threshold: try the task(s) when the chance of managing all of them exceeds this.
    """

    name: str = "basic"
    task_threshold: float = 0.5

    def act(self, view: PlayerView, decision: Decision, spec: DeckSpec, rng: np.random.Generator) -> Action:
        legal = decision.legal
        kind = decision.kind
        if kind in ("gesture", "rps"):
            return legal[int(rng.integers(len(legal)))]
        if kind == "turn":
            return self._turn(view, legal, spec)
        if kind == "play_drawn":
            return self._best_colour(view, legal, spec)
        if kind == "window":
            return self._window(view, legal, spec)
        if kind == "attack":
            return self._attack(view, legal, spec)
        if kind == "task":
            chance = float(np.prod([spec.tasks[k].success for k in decision.info["tasks"]]))
            return Action("attempt") if chance > self.task_threshold else Action("draw")
        if kind == "magnet":
            return self._magnet(view, legal, spec)
        if kind == "hand_swap":
            return min(legal, key=lambda a: (view.hand_sizes[a.target_player], a.target_player))
        if kind == "half_hand":
            return Action("halve", choice="yes")
        if kind == "seat":
            return Action("seat")
        return legal[0]

    # ---- helpers -----------------------------------------------------------------------
    def _leader(self, view: PlayerView, candidates: list[int]) -> int:
        """The candidate closest to going out (fewest cards, then fewest minus points)."""
        return min(candidates, key=lambda p: (view.hand_sizes[p], view.minus[p], p))

    def _colour_counts(self, view: PlayerView, spec: DeckSpec) -> Counter:
        return Counter(c for cid in view.hand for c in spec.card(cid).colours)

    def _best_colour(self, view: PlayerView, legal: tuple[Action, ...], spec: DeckSpec) -> Action:
        counts = self._colour_counts(view, spec)
        return max(legal, key=lambda a: counts.get(a.colour, 0) if a.colour else 0)

    def _turn(self, view: PlayerView, legal: tuple[Action, ...], spec: DeckSpec) -> Action:
        if Action("exchange") in legal:
            return Action("exchange")
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return legal[0]
        counts = self._colour_counts(view, spec)
        nxt = view.seats[(view.seats.index(view.player) + view.direction) % len(view.seats)]

        def score(a: Action) -> tuple:
            cards = [spec.card(c) for c in a.cards]
            value = sum(c.points for c in cards) + 5 * (len(cards) - 1)
            if cards[0].category == "offensive" and view.hand_sizes[nxt] <= 2:
                value += 30
            colour_bonus = counts.get(a.colour, 0) if a.colour else counts.get(cards[0].colours[0], 0)
            return (value, colour_bonus)

        return max(plays, key=score)

    def _window(self, view: PlayerView, legal: tuple[Action, ...], spec: DeckSpec) -> Action:
        interjections = [a for a in legal if a.kind == "interject"]
        if interjections:
            return max(interjections, key=lambda a: len(a.cards))
        browns = [a for a in legal if a.kind == "brown"]
        if browns:
            return self._pick_brown(view, browns, spec)
        return Action("pass_window")

    def _pick_brown(self, view: PlayerView, browns: list[Action], spec: DeckSpec) -> Action:
        order = {"not_me": 0, "hijack": 1, "double": 2}
        best = min(order[spec.card(a.cards[0]).kind] for a in browns)
        options = [a for a in browns if order[spec.card(a.cards[0]).kind] == best]
        if best == 1:
            leader = self._leader(view, [a.target_player for a in options])
            return next(a for a in options if a.target == leader)
        return options[0]

    def _attack(self, view: PlayerView, legal: tuple[Action, ...], spec: DeckSpec) -> Action:
        browns = [a for a in legal if a.kind == "brown" and spec.card(a.cards[0]).kind != "double"]
        if browns:
            return self._pick_brown(view, browns, spec)
        stacks = [a for a in legal if a.kind == "stack"]
        if stacks:
            return max(stacks, key=lambda a: len(a.cards))
        defends = [a for a in legal if a.kind == "defend"]
        if defends:
            order = {"you": 0, "mirror": 1, "dodge": 2, "unlucky": 3}
            best = min(order[spec.card(a.cards[0]).kind] for a in defends)
            options = [a for a in defends if order[spec.card(a.cards[0]).kind] == best]
            if best == 0:
                leader = self._leader(view, [a.target_player for a in options])
                return next(a for a in options if a.target == leader)
            return options[0]
        return Action("accept")

    def _magnet(self, view: PlayerView, legal: tuple[Action, ...], spec: DeckSpec) -> Action:
        seen: Counter[tuple[str, int | str | None]] = Counter()
        for cid in list(view.hand) + list(view.discard):
            card = spec.card(cid)
            seen[("n", card.number)] += 1
            for c in card.colours:
                seen[("c", c)] += 1
        total: Counter[tuple[str, int | str | None]] = Counter()
        for card in spec.cards:
            total[("n", card.number)] += 1
            for c in card.colours:
                total[("c", c)] += 1

        def unseen(a: Action) -> tuple:
            key = ("n", a.number) if a.number is not None else ("c", a.colour)
            order = a.number if a.number is not None else COLOURS.index(a.colour)
            return (total[key] - seen[key], order)

        return min(legal, key=unseen)


def make_bot(name: str) -> RandomBot | BasicBot:
    """A bot by name (one of :data:`BOT_NAMES`); ``ValueError`` for an unknown name."""
    if name == "random":
        return RandomBot()
    if name == "basic":
        return BasicBot("basic", 0.5)
    if name == "gambler":
        return BasicBot("gambler", -1.0)
    if name == "cautious":
        return BasicBot("cautious", 2.0)
    raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)}")
