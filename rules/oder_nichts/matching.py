"""The laying rules: which cards fit on the pile, identical cards, doubles, colour changes.

A coloured card fits when it has a currently allowed colour or the same symbol as the top
card. A colour change shows two colours; it fits when either is allowed and makes the
*other* one the colour to follow (reading: colour changes match by colour only, never by
symbol). Two exactly identical cards may be laid together as one play.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from rules.oder_nichts.actions import Action
from rules.oder_nichts.cards import Card, DeckSpec


def fits(card: Card, top: Card, allowed: Iterable[str]) -> bool:
    """True if coloured ``card`` may be laid on ``top`` while ``allowed`` colours are current."""
    if not card.coloured:
        return False
    allowed = set(allowed)
    if card.kind == "colour_change":
        return bool(allowed & set(card.colours))
    if card.colours[0] in allowed:
        return True
    return top.kind != "colour_change" and card.symbol == top.symbol


def colour_after(card: Card, count: int, allowed: Iterable[str]) -> list[str]:
    """Possible current colours after laying ``count`` identical colour-change cards.

    Each colour change flips the current colour to the other colour of its pair, so one
    card turns an allowed ``a`` into ``b`` and two identical cards flip it back to ``a``.
    """
    allowed = set(allowed)
    options: list[str] = []
    for i, c in enumerate(card.colours):
        if c in allowed:
            other = card.colours[1 - i]
            final = other if count % 2 == 1 else c
            if final not in options:
                options.append(final)
    return options


def groups(hand: Sequence[int], spec: DeckSpec) -> dict[tuple, list[int]]:
    """Hand cards grouped by identity (identical cards together), ids sorted."""
    out: dict[tuple, list[int]] = defaultdict(list)
    for cid in sorted(hand):
        out[spec.card(cid).identity].append(cid)
    return out


def plays_of(ids: Sequence[int], spec: DeckSpec, allowed: Iterable[str], kind: str = "play") -> list[Action]:
    """Actions laying the cards ``ids`` (one card or two identical ones), with colour choices."""
    card = spec.card(ids[0])
    if card.kind == "colour_change":
        return [Action(kind, tuple(ids), colour=c) for c in colour_after(card, len(ids), allowed)]
    return [Action(kind, tuple(ids))]


def turn_plays(hand: Sequence[int], spec: DeckSpec, top: Card, allowed: Sequence[str]) -> list[Action]:
    """Every legal play of a normal turn: single cards and pairs of identical cards that fit."""
    actions: list[Action] = []
    for ids in groups(hand, spec).values():
        card = spec.card(ids[0])
        if not fits(card, top, allowed):
            continue
        for cid in ids:
            actions.extend(plays_of([cid], spec, allowed))
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                actions.extend(plays_of([ids[i], ids[j]], spec, allowed))
    return actions


def identical_plays(
    hand: Sequence[int], spec: DeckSpec, top: Card, allowed: Sequence[str], kind: str = "interject"
) -> list[Action]:
    """Interjections: the exact same coloured card as ``top`` (alone or as an identical pair)."""
    if not top.coloured:
        return []
    same = [cid for cid in sorted(hand) if spec.card(cid).identity == top.identity]
    actions: list[Action] = []
    for cid in same:
        actions.extend(plays_of([cid], spec, allowed, kind))
    for i in range(len(same)):
        for j in range(i + 1, len(same)):
            actions.extend(plays_of([same[i], same[j]], spec, allowed, kind))
    return actions


def stack_plays(hand: Sequence[int], spec: DeckSpec, symbol: str) -> list[Action]:
    """Passing an attack on: an offensive card with the attack's symbol (any colour), or two identical ones."""
    actions: list[Action] = []
    for ids in groups(hand, spec).values():
        if spec.card(ids[0]).kind != symbol:
            continue
        for cid in ids:
            actions.append(Action("stack", (cid,)))
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                actions.append(Action("stack", (ids[i], ids[j])))
    return actions


def play_problem(
    cards: Sequence[int], hand: Sequence[int], spec: DeckSpec, top: Card, allowed: Sequence[str]
) -> str:
    """Why laying ``cards`` in a normal turn is not allowed ("" if it is)."""
    if not cards:
        return "name the card(s) to play"
    for cid in cards:
        if cid not in hand:
            return f"card {cid} is not in your hand"
    if len(set(cards)) != len(cards):
        return "the same card was named twice"
    if len(cards) > 2:
        return "at most two identical cards can be played together"
    first = spec.card(cards[0])
    if any(spec.card(c).identity != first.identity for c in cards):
        return "two cards played together must be exactly the same card (colour and symbol)"
    if not first.coloured:
        return f"{first.label}: grey and brown cards can only be played on an offensive card"
    if not fits(first, top, allowed):
        colours = " or ".join(allowed)
        if first.kind == "colour_change":
            return f"{first.label} does not fit on {top.label}: one of its colours must be {colours}"
        symbol = str(top.number) if top.kind == "number" else top.name
        symbol_note = "" if top.kind == "colour_change" else f" or the symbol {symbol!r}"
        return f"{first.label} does not fit on {top.label}: it needs the colour {colours}{symbol_note}"
    return ""
