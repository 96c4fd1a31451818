"""The physical table of Doppelt oder nichts: seats, piles, hands, an attack in progress.

Piles are lists with the top card last. "Under the discard pile" means index 0. The
:class:`Table` only holds state and small helpers; the rules that change it are in
:mod:`rules.oder_nichts.flow`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.oder_nichts.cards import Card, DeckSpec


@dataclass
class Attack:
    """An offensive card (or stack of them) waiting to hit someone.

    Attributes:
        symbol: kind of the offensive cards (``skip``, ``draw3`` …).
        cards: the offensive cards in the stack (their tasks count for draw attacks).
        amount: the effect: players who sit out (skip), minus points, cards to draw,
            turns away (away from keyboard) or numbers to name (magnet).
        turns: skip only: how many turns each skipped player sits out (doubled by "double").
        owner: who laid the last offensive card (or hijacked it).
        target: who the attack is aimed at now.
        absent: players who dodged: not there until the attack is over.
        brown_open: a brown card may still be thrown on the current offensive card.
        last_redirect: the player who last chose the target with a grey card, if any.
    """

    symbol: str
    cards: list[int]
    amount: int
    owner: int
    target: int
    turns: int = 1
    absent: set[int] = field(default_factory=set)
    brown_open: bool = True
    last_redirect: int | None = None

    def to_json(self) -> dict:
        """Plain-data copy for views and saves."""
        return {
            "symbol": self.symbol,
            "cards": list(self.cards),
            "amount": self.amount,
            "turns": self.turns,
            "owner": self.owner,
            "target": self.target,
            "absent": sorted(self.absent),
            "brown_open": self.brown_open,
        }


@dataclass
class Table:
    """Everything on and around the table during a game.

    Attributes:
        spec: the deck.
        n: number of players (players are 0..n-1).
        seats: player sitting at each seat, clockwise.
        direction: +1 clockwise, -1 counter-clockwise.
        draw_pile: face-down cards, top last.
        discard: face-up pile, top last.
        hands: cards in each player's hand.
        allowed: colours a card may have to fit on the top card.
        minus: minus points of each player, all rounds so far.
        skips: turns each player still has to sit out (skip cards).
        away: away from the keyboard: 0 = at the table; k > 0 = misses k−1 more turns
            and is back at the k-th (absent until then).
        named: magnet numbers (and colours) named this round.
        attack: the attack in progress, if any.
        dealer_seat: seat of this round's dealer.
        round_no: rounds started so far.
        turns: turns taken this game (players who acted at their turn).
    """

    spec: DeckSpec
    n: int
    seats: list[int]
    direction: int = 1
    draw_pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    allowed: tuple[str, ...] = ()
    minus: list[int] = field(default_factory=list)
    skips: list[int] = field(default_factory=list)
    away: list[int] = field(default_factory=list)
    named: list[int | str] = field(default_factory=list)
    attack: Attack | None = None
    dealer_seat: int = 0
    round_no: int = 0
    turns: int = 0

    @classmethod
    def new(cls, spec: DeckSpec, n: int) -> Table:
        """An empty table for ``n`` players; player i sits at seat i; the last seat deals first."""
        return cls(
            spec=spec,
            n=n,
            seats=list(range(n)),
            hands=[[] for _ in range(n)],
            minus=[0] * n,
            skips=[0] * n,
            away=[0] * n,
            dealer_seat=n - 1,
        )

    def card(self, cid: int) -> Card:
        """The card with id ``cid``."""
        return self.spec.card(cid)

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.spec.card(self.discard[-1])

    def seat_of(self, player: int) -> int:
        """Seat index of ``player``."""
        return self.seats.index(player)

    def next_player(self, player: int, direction: int | None = None) -> int:
        """The player after ``player`` in the given (default: current) direction."""
        d = self.direction if direction is None else direction
        return self.seats[(self.seat_of(player) + d) % self.n]

    def in_order(self, start: int) -> list[int]:
        """All players in play order, beginning with ``start``."""
        out = [start]
        while len(out) < self.n:
            out.append(self.next_player(out[-1]))
        return out

    def present(self, player: int) -> bool:
        """Not away from the keyboard and not dodging the current attack."""
        if self.away[player] > 0:
            return False
        return not (self.attack is not None and player in self.attack.absent)

    def hand_points(self, player: int) -> int:
        """Minus points of the cards in ``player``'s hand."""
        return sum(self.card(c).points for c in self.hands[player])

    def all_cards(self) -> list[int]:
        """Every card id on the table (draw pile, discard pile, hands), for conservation checks."""
        out = list(self.draw_pile) + list(self.discard)
        for hand in self.hands:
            out.extend(hand)
        return out
