"""Bet cards A–H (D29–D35): the card data and whether a card came true in a throw.

A card's ``condition`` is one of :data:`CONDITIONS`. B–F count the active player's dice
meeting it and pay ``payout × count`` (double when both dice meet it, D32); A/H and G pay
once. In a Doppel X only ``doppel_x`` cards pay (D19, D34).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable
from rules.doppelx.board import FieldKind
from rules.doppelx.outcome import Status
from rules.doppelx.reading import DieReading

FORMAT = "doppelx-bets/1"
#: Conditions about one die of the active player (counted per die, D32) and the field they need.
PER_DIE_FIELD = {
    "field_3x": FieldKind.THREE,
    "field_2x": FieldKind.TWO,
    "field_1x": FieldKind.ONE,
    "field_X": FieldKind.X,
}
CONDITIONS = ("doppel_x", "hole_or_off", "spinner_fling", *PER_DIE_FIELD)
DEFAULT_CARDS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class BetCard:
    """One bet card side: letter, condition, pay-out (chips), text and drawing colours."""

    letter: str
    condition: str
    payout: int
    text: str
    colour: str
    accent: str


def load_bet_cards(path: str | Path | None = None) -> dict[str, BetCard]:
    """All bet card sides by letter (default: the shipped ``assets/bet_cards.toml``)."""
    return _load(str(path if path is not None else asset_path("bet_cards.toml")))


@functools.lru_cache(maxsize=8)
def _load(path: str) -> dict[str, BetCard]:
    top = DataTable(read_toml(path), path)
    top.check_keys({"format", "cards"})
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    cards: dict[str, BetCard] = {}
    for t in top.tables("cards", required=True):
        t.check_keys({"letter", "condition", "payout", "text", "colour", "accent"})
        letter = t.string("letter")
        if letter in cards:
            raise t.error("letter", f"duplicate card {letter!r}")
        cards[letter] = BetCard(
            letter,
            t.string("condition", choices=CONDITIONS),
            t.integer("payout", minimum=0),
            t.string("text"),
            t.string("colour"),
            t.string("accent"),
        )
    return cards


def choose_cards(letters: Iterable[str], source: str = "bet cards") -> dict[str, BetCard]:
    """The 4 cards in play (D3, D39): distinct known letters, in the given order."""
    letters = [str(x).upper() for x in letters]
    all_cards = load_bet_cards()
    if len(letters) != 4 or len(set(letters)) != 4:
        raise SpecError(source, "bet_cards", f"choose 4 different cards out of A–H, got {letters}")
    unknown = [x for x in letters if x not in all_cards]
    if unknown:
        raise SpecError(source, "bet_cards", f"unknown card {unknown[0]!r}; cards are {', '.join(all_cards)}")
    return {x: all_cards[x] for x in letters}


def card_pays(
    card: BetCard,
    *,
    doppel_x: bool,
    active_dice: Iterable[DieReading],
    flung_by_spinner: Iterable[DieReading],
) -> int:
    """Chips ``card`` pays each bettor after a throw.

    Args:
        card: the card bet on.
        doppel_x: whether the throw was a Doppel X (D17).
        active_dice: readings of the active player's coloured and white dice.
        flung_by_spinner: the dice bet G is about — lying on the board before the throw, flung
            by the spinner into a hole or onto X or -1 (:func:`rules.doppelx.scoring.flung_by_spinner`
            decides which).
    """
    if card.condition == "doppel_x":
        return card.payout if doppel_x else 0
    if doppel_x:
        return 0  # D34: only the Doppel X cards pay in a Doppel X
    if card.condition == "spinner_fling":
        return card.payout if any(True for _ in flung_by_spinner) else 0  # once, however many (D31)
    if card.condition == "hole_or_off":
        count = sum(r.status in (Status.HOLE, Status.OFF) for r in active_dice)
    else:
        want = PER_DIE_FIELD[card.condition]
        count = sum(r.status is Status.BOARD and r.field is want for r in active_dice)
    return card.payout * count


def check_bets(bets: Mapping[str, str], cards: Mapping[str, BetCard], source: str = "bets") -> None:
    """Every bet names a card in play."""
    for colour, letter in bets.items():
        if letter not in cards:
            raise SpecError(
                source, f"bets.{colour}", f"card {letter!r} is not in play (cards: {', '.join(cards)})"
            )
