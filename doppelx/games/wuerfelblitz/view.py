"""Würfelblitz as text: a throw (coloured glyphs with each colour's initial, or words),
why a sum is what it is, and the discs of every player."""

from __future__ import annotations

from collections.abc import Sequence

from doppelx.terminal import Terminal
from rules.wuerfelblitz import BlitzThrow, RoundResult, breakdown

#: How each die colour is painted (``Terminal.paint`` style names); black shows as grey so
#: it stays visible on a dark background.
PAINT = {
    "orange": ("orange", "bold"),
    "blue": ("blue", "bold"),
    "black": ("grey", "bold"),
    "yellow": ("yellow", "bold"),
    "green": ("green", "bold"),
    "red": ("red", "bold"),
    "white": ("white", "bold"),
}
#: The letter shown with each colour in colour mode, so dice are told apart without
#: relying on colour alone. Black is K (as in CMYK) because B is blue.
INITIALS = {"orange": "O", "blue": "B", "black": "K", "yellow": "Y", "green": "G", "red": "R", "white": "W"}
GLYPHS = {1: "\u2680", 2: "\u2681", 3: "\u2682", 4: "\u2683", 5: "\u2684", 6: "\u2685"}
DOT = "\u25cf"


def initial(colour: str) -> str:
    """The letter shown for ``colour`` (its initial; K for black)."""
    return INITIALS.get(colour, colour[:1].upper())


def legend(colours: Sequence[str]) -> str:
    """One line naming the letters, e.g. ``O orange, B blue, K black, …``."""
    return "letters: " + ", ".join(f"{initial(c)} {c}" for c in colours)


def render_throw(term: Terminal, throw: BlitzThrow) -> list[str]:
    """Two lines showing the throw: painted glyphs with initials if the terminal has colour,
    else words."""

    def paint(text: str, colour: str) -> str:
        return term.paint(text, *PAINT.get(colour, ()))

    if term.colour:
        dice = []
        for colour, face in throw.coloured:
            if isinstance(face, int):
                dice.append(paint(f"{initial(colour)}{GLYPHS.get(face, '?')}{face}", colour))
            else:
                dice.append(
                    paint(f"{initial(colour)}(", colour)
                    + paint(DOT + initial(face), face)
                    + paint(")", colour)
                )
        white = [paint("[", "white") + paint(DOT + initial(w), w) + paint("]", "white") for w in throw.white]
    else:
        dice = [f"{c} {f}" if isinstance(f, int) else f"{c}: {f} dot" for c, f in throw.coloured]
        white = [f"{w} dot" for w in throw.white]
    return ["  coloured: " + "   ".join(dice), "  white:    " + "   ".join(white)]


def explain(result: RoundResult, variant: bool) -> str:
    """One line saying why the correct sum is what it is."""
    bd = breakdown(result.throw, variant)
    terms = " + ".join(f"{c} {p}" for c, p in bd.counted) or "nothing"
    excl = ", ".join(bd.excluded) or "none"
    if bd.reversed:
        return f"a dot shows twice, so only the dice shown as dots count ({excl}): {terms} = {bd.total}"
    return f"dice shown as dots don't count ({excl}): {terms} = {bd.total}"


def standings(names: Sequence[str], discs: Sequence[tuple[int, int]], whites_per_black: Sequence[int]) -> str:
    """Everybody's discs on one line."""
    parts = [f"{n}: {w}/{wpb} white, {b} black" for n, (w, b), wpb in zip(names, discs, whites_per_black)]
    return "  " + " | ".join(parts)
