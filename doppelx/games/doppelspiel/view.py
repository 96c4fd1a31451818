"""Text pictures of Das Doppel Spiel for the terminal: both score sheets side by side, the dice.

Written scores are green, struck fields red (``x``), Zwang marks yellow (``[ ]``), open
fields a dim dot. Without colour the same information is in the characters alone.
"""

from __future__ import annotations

from doppelx.terminal import Terminal
from rules.doppelspiel.actions import FieldRef
from rules.doppelspiel.sheet import Cell, Sheet
from rules.doppelspiel.state import DoppelState

LABEL = 21
CELL = 5


def _cell(term: Terminal, sheet: Sheet, col: int, idx: int, marked: bool) -> str:
    v = sheet.cells[col][idx]
    if v is None:
        text = "[ ]" if marked else "."
        return term.paint(text.rjust(CELL), "yellow" if marked else "dim")
    if Cell(col, idx) in sheet.struck:
        return term.paint("x".rjust(CELL), "red")
    return term.paint(str(v).rjust(CELL), "green")


def _num(term: Terminal, value: int, style: str = "bold") -> str:
    return term.paint(str(value).rjust(CELL), style)


def sheet_lines(term: Terminal, state: DoppelState, names: list[str]) -> list[str]:
    """Both sheets, row by row, the player to act first in bold."""
    spec = state.spec
    cols = spec.columns
    width = CELL * cols
    head = " " * LABEL
    for p in range(2):
        name = names[p][:width]
        style = ("bold", "cyan") if p == state.player and not state.is_terminal() else ("bold",)
        head += " | " + term.paint(name.center(width), *style)
    lines = [head]
    numbers = " " * LABEL + (" | " + "".join(f"{c + 1:>{CELL}}" for c in range(cols))) * 2
    lines.append(numbers)
    marks = [set(state.marks[p]) for p in range(2)]

    def row(label: str, per_player) -> str:
        text = label[:LABEL].ljust(LABEL)
        for p in range(2):
            text += " | " + "".join(per_player(p, c) for c in range(cols))
        return text

    def rule(char: str = "-") -> str:
        return char * LABEL + ("-+-" + char * width) * 2

    lines.append(rule())
    section = None
    for i, f in enumerate(spec.fields):
        if section is not None and f.section != section:
            if section == "upper":
                lines.append(
                    row(
                        "  upper sum", lambda p, c: _num(term, state.sheets[p].section_sum(c, "upper"), "dim")
                    )
                )
                lines.append(
                    row(
                        f"  bonus >={spec.upper_threshold}",
                        lambda p, c: _num(term, state.sheets[p].upper_bonus(c), "dim"),
                    )
                )
            if section == "middle":
                lines.append(
                    row(
                        "  middle sum",
                        lambda p, c: _num(term, state.sheets[p].section_sum(c, "middle"), "dim"),
                    )
                )
                lines.append(
                    row(
                        f"  bonus >={spec.middle_threshold}",
                        lambda p, c: _num(term, state.sheets[p].middle_bonus(c), "dim"),
                    )
                )
            lines.append(rule())
        section = f.section
        label = f"{f.label} ({f.key})"
        lines.append(
            row(
                label,
                lambda p, c, i=i, f=f: _cell(term, state.sheets[p], c, i, FieldRef(c, f.key) in marks[p]),
            )
        )
    lines.append(rule("="))
    lines.append(row("column total", lambda p, c: _num(term, state.sheets[p].column_total(c))))
    lines.append(row("match points", lambda p, c: _num(term, spec.column_match_points[c], "dim")))
    grand = [s.grand_total() for s in state.sheets]
    lines.append(
        " " * LABEL
        + "".join(" | " + term.paint(f"grand total {grand[p]}".rjust(width), "bold") for p in range(2))
    )
    return lines


def tracks_lines(term: Terminal, state: DoppelState, names: list[str]) -> list[str]:
    """The extras of both players: Aussetzen, Tauschen, Wiederholen, Freiwurf, Joker, Zwang."""
    spec = state.spec
    out = []
    faces = range(1, spec.faces + 1)
    for p, sheet in enumerate(state.sheets):

        def track(used: set[int]) -> str:
            return " ".join(term.paint("x", "red") if f in used else str(f) for f in faces)

        jokers = " ".join(
            term.paint("used", "dim")
            if c in sheet.jokers
            else term.paint("READY", "green")
            if sheet.joker_ready(c)
            else "-"
            for c in range(spec.columns)
        )
        zwang = " ".join(
            term.paint("used", "dim")
            if c in sheet.zwang
            else term.paint("READY", "green")
            if sheet.zwang_ready(c)
            else "-"
            for c in range(spec.columns)
        )
        out.append(
            term.paint(names[p], "bold")
            + f": Aussetzen {sheet.aussetzen}/{spec.aussetzen_boxes} used | Tauschen {track(sheet.swaps)}"
            f" | Wiederholen {track(sheet.repeats)}"
        )
        out.append(
            f"   Freiwurf crosses {sheet.crosses}/{spec.freiwurf_capacity}, free throws "
            f"{sheet.free_available()} | Joker per column: {jokers} | Zwang per column: {zwang}"
        )
        if state.marks[p]:
            out.append(
                term.paint("   Zwang marks to fill next: " + ", ".join(map(str, state.marks[p])), "yellow")
            )
    return out


def dice_lines(term: Terminal, dice: tuple[int, ...], highlight: tuple[int, ...] = ()) -> list[str]:
    """Dice positions and faces; freshly thrown dice in bold."""
    pos = "  pos  " + " ".join(f"{i + 1:>3}" for i in range(len(dice)))
    faces = "  dice " + " ".join(
        term.paint(f"[{d}]", "bold", "yellow") if i in highlight else f"[{d}]" for i, d in enumerate(dice)
    )
    return [pos, faces]
