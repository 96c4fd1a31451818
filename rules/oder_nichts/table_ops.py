"""Small steps shared by the turn flow and the attack flow: drawing, events, finding targets.

Every method that may need a random outcome is a generator that yields a
:class:`~rules.oder_nichts.actions.ChanceRequest` and receives the outcome.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.table import Table

#: What the flow generators yield and receive.
Step = Generator[Decision | ChanceRequest, Action, Any]


@dataclass(frozen=True)
class Event:
    """Something that happened, for display: ``text`` with ``{0}``, ``{1}`` … for ``players``."""

    text: str
    players: tuple[int, ...] = ()

    def render(self, names: list[str]) -> str:
        """The text with player names filled in."""
        return self.text.format(*(names[p] for p in self.players))


class TableOps:
    """Holds the table and the event list; base of the flows."""

    def __init__(self, table: Table):
        self.t = table
        self.events: list[Event] = []

    def _ev(self, text: str, *players: int) -> None:
        self.events.append(Event(text, tuple(players)))

    def _can_draw(self) -> bool:
        return bool(self.t.draw_pile) or len(self.t.discard) > 1

    def _shuffle_into_draw(self, cards: list[int]) -> Step:
        """Make ``cards`` the draw pile and shuffle it (chance)."""
        self.t.draw_pile = sorted(cards)
        outcome = yield ChanceRequest("shuffle", cards=tuple(self.t.draw_pile))
        self.t.draw_pile = list(outcome.cards)

    def _draw(self, player: int, count: int) -> Step:
        """Draw ``count`` cards for ``player``; reshuffles the discard pile (all but its top card)
        when the draw pile runs out; stops early when there is nothing left. Returns the cards."""
        t = self.t
        got: list[int] = []
        for _ in range(count):
            if not t.draw_pile:
                if len(t.discard) <= 1:
                    self._ev("nothing left to draw for {0}", player)
                    break
                rest, t.discard = t.discard[:-1], t.discard[-1:]
                self._ev("the discard pile (but its top card) is shuffled into a new draw pile")
                yield from self._shuffle_into_draw(rest)
            cid = t.draw_pile.pop()
            t.hands[player].append(cid)
            got.append(cid)
        return got

    def _penalty(self, player: int, cards: tuple[int, ...]) -> Step:
        """A card played out of turn goes back to the hand and the player draws a penalty card."""
        labels = ", ".join(self.t.card(c).label for c in cards)
        self._ev("{0} played " + labels + " out of turn: it goes back, and {0} draws a penalty card", player)
        yield from self._draw(player, 1)

    def _someone_out(self) -> bool:
        return any(not hand for hand in self.t.hands)

    def _next_target(self, start: int) -> int | None:
        """The next player after ``start`` an attack passes to.

        Players away from the keyboard and players who dodged are passed over. If every
        other player is away, the next player who did not dodge is hit anyway. ``None``
        when nobody but ``start`` is left.
        """
        t = self.t
        order = t.in_order(start)[1:]
        for q in order:
            if t.present(q):
                return q
        absent = t.attack.absent if t.attack is not None else set()
        for q in order:
            if q not in absent:
                return q
        return None
