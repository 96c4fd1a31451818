"""Building a chosen deal: the shuffle outcome that gives each player given cards.

The round's shuffle is a chance node whose outcome may be supplied from outside. These
helpers turn "player 1 holds green 7 and grey mirror, the start card is cyan 3, the next
card drawn is …" into that outcome, e.g. to replay a real deal or to test a situation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.oder_nichts.actions import CHANCE_KIND, Action
from rules.oder_nichts.cards import DeckSpec


def find_cards(spec: DeckSpec, labels: Iterable[str], taken: set[int] | None = None) -> list[int]:
    """Ids of cards with the given labels (``"green 7"``, ``"grey mirror"`` …), each a card
    not in ``taken`` (which is updated). Raises ``ValueError`` if a label has no card left."""
    taken = set() if taken is None else taken
    out = []
    for label in labels:
        for card in spec.cards:
            if card.label == label and card.id not in taken:
                taken.add(card.id)
                out.append(card.id)
                break
        else:
            raise ValueError(f"no (more) card labelled {label!r} in the deck")
    return out


def deal_outcome(
    spec: DeckSpec,
    hands: Sequence[Sequence[int]],
    start: int,
    draw_first: Sequence[int] = (),
    deal_order: Sequence[int] | None = None,
) -> Action:
    """The shuffle outcome dealing ``hands`` (player i gets ``hands[i]``), turning up ``start``
    and then drawing ``draw_first`` in that order; every other card follows in id order.

    Args:
        spec: the deck (its ``hand_size`` must equal every hand's length).
        hands: card ids per player.
        start: the start card (a coloured card).
        draw_first: the next cards of the draw pile, first drawn first.
        deal_order: players in the order cards are dealt (default 0, 1, …: the first
            round, where the last seat deals).
    """
    n = len(hands)
    if any(len(h) != spec.hand_size for h in hands):
        raise ValueError(f"every hand must have {spec.hand_size} cards")
    order = list(range(n)) if deal_order is None else list(deal_order)
    pops: list[int] = []
    for i in range(spec.hand_size):
        for p in order:
            pops.append(hands[p][i])
    pops.append(start)
    pops.extend(draw_first)
    if len(set(pops)) != len(pops):
        raise ValueError("a card is used twice")
    used = set(pops)
    pops.extend(c.id for c in spec.cards if c.id not in used)
    return Action(CHANCE_KIND, cards=tuple(reversed(pops)))
