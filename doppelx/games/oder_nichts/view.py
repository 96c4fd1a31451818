"""Doppelt oder nichts as text: cards (in colour when the terminal has it), the table with
the person's hand, the game's events and the result."""

from __future__ import annotations

from collections.abc import Sequence

from doppelx.terminal import Terminal
from rules.oder_nichts.cards import COLOURS, Card, DeckSpec
from rules.oder_nichts.state import State
from rules.oder_nichts.table_ops import Event

PAINT = {"magenta": "magenta", "cyan": "cyan", "yellow": "yellow", "green": "green"}


def card_text(term: Terminal, card: Card) -> str:
    """A card's label, painted in its colour(s); grey and brown cards in grey and orange."""
    if card.category == "defensive":
        return term.paint(card.label, "grey")
    if card.category == "brown":
        return term.paint(card.label, "orange")
    if card.kind == "colour_change":
        cols = "/".join(term.paint(c, PAINT[c], "bold") for c in card.colours)
        return f"{cols} {card.name}"
    return term.paint(card.label, PAINT[card.colours[0]], "bold")


def hand_order(spec: DeckSpec, hand: Sequence[int]) -> list[int]:
    """A hand as displayed and numbered: by colour, then kind, then number."""

    def key(cid: int) -> tuple:
        c = spec.card(cid)
        col = COLOURS.index(c.colours[0]) if c.colours else 4 + (c.category == "brown")
        return (col, c.kind != "number", c.number if c.number is not None else 0, c.kind, cid)

    return sorted(hand, key=key)


def event_lines(term: Terminal, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One line per event."""
    return ["  " + term.paint("· ", "dim") + ev.render(list(names)) for ev in events]


def table_lines(term: Terminal, state: State, names: Sequence[str], player: int, new: set[int]) -> list[str]:
    """The round, every player's cards and minus points, the pile, the attack and ``player``'s
    numbered hand (cards in ``new`` marked as new)."""
    t = state.table
    spec = state.spec
    arrow = "clockwise" if t.direction == 1 else "counter-clockwise"
    lines = [
        "",
        term.paint(f"Round {t.round_no}", "bold") + f" — play goes {arrow}; draw pile {len(t.draw_pile)}",
    ]
    for p in t.in_order(t.seats[0]):
        extra = []
        if t.skips[p]:
            extra.append(f"sits out {t.skips[p]}")
        if t.away[p]:
            extra.append(f"away from keyboard, misses {t.away[p] - 1} more turn(s)")
        note = f" ({', '.join(extra)})" if extra else ""
        lines.append(f"  {names[p]:<24} {len(t.hands[p]):>2} cards  {t.minus[p]:>4} minus{note}")
    if t.discard:
        follow = " or ".join(term.paint(c, PAINT[c]) for c in t.allowed)
        lines.append(f"  Pile: {card_text(term, t.top)}   colour to follow: {follow}")
    if t.attack is not None:
        att = t.attack
        lines.append(
            term.paint(f"  Attack: {names[att.owner]} → {names[att.target]}: " + state.attack_text(), "red")
        )
    lines.append("  Your hand:")
    for i, cid in enumerate(hand_order(spec, t.hands[player]), 1):
        mark = term.paint("  (new)", "dim") if cid in new else ""
        lines.append(f"   {i:>2}) {card_text(term, spec.card(cid))}{mark}")
    return lines


def status_text(state: State, names: Sequence[str], player: int) -> str:
    """The one-line status: round, pile, the colour to follow, hands and minus points."""
    t = state.table
    pile = t.top.label if t.discard else "-"
    follow = "/".join(t.allowed)
    hands = ", ".join(f"{names[p].split(' (')[0]} {len(t.hands[p])}c {t.minus[p]}m" for p in range(t.n))
    attack = f" · attack: {state.attack_text()}" if t.attack is not None else ""
    return f"Doppelt oder nichts · round {t.round_no} · pile {pile} (follow {follow}) · {hands}{attack}"


def result_lines(term: Terminal, state: State, names: Sequence[str]) -> list[str]:
    """Who won each round, everybody's minus points and the winner(s)."""
    lines = ["", term.paint("Game over", "bold")]
    for r in state.rounds:
        won = ", ".join(names[p] for p in r.winners) or "nobody (stalled)"
        lines.append(f"  round {r.round_no}: won by {won}; minus points now {list(r.minus_after)}")
    for p in sorted(range(len(names)), key=lambda q: state.minus[q]):
        lines.append(f"  {names[p]:<24} {state.minus[p]:>4} minus points")
    winners = ", ".join(names[p] for p in state.winners())
    lines.append(term.paint(f"Winner: {winners}", "bold"))
    return lines
