"""Text pictures of Doppelt so clever for the terminal: score sheets, the dice, and actions in words.

Everything returns plain strings (with ANSI colour only when the :class:`Terminal` has
colour on), so tests can read what a person sees.
"""

from __future__ import annotations

from doppelx.terminal import Terminal
from rules.clever.actions import Action
from rules.clever.game import ACTIVE_PICK, BEFORE_ROLL, PASSIVE_PICK, PENDING, PLUS_ONE, CleverState
from rules.clever.sheet import Sheet

#: Terminal colour of each die / area.
COLOUR = {
    "white": "bold",
    "silver": "grey",
    "yellow": "yellow",
    "blue": "blue",
    "green": "green",
    "pink": "pink",
}

#: Short names of the bonuses printed on the sheet.
SHORT = {
    "": ".",
    "reroll": "RR",
    "return": "RET",
    "plus1": "+1",
    "fox": "FOX",
    "?silver": "?S",
    "?yellow": "?Y",
    "?blue": "?B",
    "?green": "?G",
    "?pink": "?P",
    "?any": "?",
}

LEGEND = (
    "bonuses: RR reroll, RET return, +1 extra die, FOX fox, ?S/?Y/?B/?G/?P free entry "
    "in silver/yellow/blue/green/pink; yellow: (n) circled, (X) crossed"
)


def _cell(text: str, width: int = 4) -> str:
    return text.rjust(width)


def render_sheet(term: Terminal, sheet: Sheet, title: str, areas: tuple[str, ...] | None = None) -> str:
    """The sheet of one player with points: all areas, or only ``areas``."""
    spec = sheet.spec
    scores = sheet.area_scores()
    lines = [
        term.paint(f"== {title}: {sheet.total()} points ", "bold")
        + f"(foxes {sheet.foxes} x lowest area {min(scores.values())} = {sheet.fox_points()}) "
        + f"| actions: reroll {sheet.rerolls}, return {sheet.returns}, +1 {sheet.plus_ones}"
    ]
    for area in areas or spec.areas:
        lines += _SECTIONS[area](term, sheet, scores[area])
    return "\n".join(lines)


def _silver(term: Terminal, sheet: Sheet, points: int) -> list[str]:
    spec = sheet.spec
    lines = [
        term.paint("SILVER", COLOUR["silver"], "bold")
        + "        "
        + "".join(_cell(str(v)) for v in range(1, 7))
        + f"   {points:>3} pts"
    ]
    for r, colour in enumerate(spec.silver_rows):
        marks = "".join(_cell("x" if sheet.silver[r] & (1 << (v - 1)) else ".") for v in range(1, 7))
        count = sheet.silver[r].bit_count()
        lines.append(
            f"  {term.paint(f'{colour:<10}', COLOUR[colour])}  {marks}   {spec.silver_points[count]:>3}"
        )
    lines.append("  column bonus" + "".join(_cell(SHORT[b]) for b in spec.silver_column_bonuses))
    return lines


def _yellow(term: Terminal, sheet: Sheet, points: int) -> list[str]:
    spec = sheet.spec
    lines = [
        term.paint("YELLOW", COLOUR["yellow"], "bold")
        + f"  circle a number, then cross it   {sheet.yellow.count(2)} crossed = {points} pts"
    ]
    for r, idx in enumerate(spec.yellow_rows):
        row = ["    "] * len(spec.yellow_columns)
        for i in idx:
            cell = spec.yellow_cells[i]
            state = sheet.yellow[i]
            text = f" {cell.number}  " if state == 0 else (f"({cell.number}) " if state == 1 else "(X) ")
            row[cell.column] = term.paint(text, COLOUR["yellow"]) if state else text
        lines.append("  " + " ".join(row) + f"  -> {SHORT[spec.yellow_row_bonuses[r]]}")
    lines.append("  " + " ".join(f"{SHORT[b]:<4}" for b in spec.yellow_column_bonuses) + "  (column bonuses)")
    return lines


def _boxes(values: list[str], total: int, pairs: bool = False) -> str:
    cells = values + ["_"] * (total - len(values))
    return "".join(_cell(v) + (" |" if pairs and i % 2 else "") for i, v in enumerate(cells))


def _blue(term: Terminal, sheet: Sheet, points: int) -> list[str]:
    spec = sheet.spec
    return [
        term.paint("BLUE", COLOUR["blue"], "bold")
        + f"    blue + white, never above the previous box   {points} pts",
        "  box  " + _boxes([str(b) for b in range(1, spec.boxes + 1)], spec.boxes),
        "  value" + _boxes([str(v) for v in sheet.blue], spec.boxes),
        "  bonus" + _boxes([SHORT[b] for b in spec.blue_bonuses], spec.boxes),
        "  pts  " + _boxes([str(p) for p in spec.blue_points[1:]], spec.boxes),
    ]


def _green(term: Terminal, sheet: Sheet, points: int) -> list[str]:
    spec = sheet.spec
    mult = spec.green_multipliers
    return [
        term.paint("GREEN", COLOUR["green"], "bold")
        + f"   die x multiplier; each pair scores first - second   {points} pts",
        "  x    " + _boxes([f"x{m}" for m in mult], spec.boxes, True),
        "  value" + _boxes([str(v * mult[i]) for i, v in enumerate(sheet.green)], spec.boxes, True),
        "  bonus" + _boxes([SHORT[b] for b in spec.green_bonuses], spec.boxes, True),
    ]


def _pink(term: Terminal, sheet: Sheet, points: int) -> list[str]:
    spec = sheet.spec
    return [
        term.paint("PINK", COLOUR["pink"], "bold")
        + f"    any die value; the bonus needs at least the threshold   {points} pts",
        "  min  " + _boxes([str(t) if t else "-" for t in spec.pink_thresholds], spec.boxes),
        "  value" + _boxes([str(v) for v in sheet.pink], spec.boxes),
        "  bonus" + _boxes([SHORT[b] for b in spec.pink_bonuses], spec.boxes),
    ]


_SECTIONS = {"silver": _silver, "yellow": _yellow, "blue": _blue, "green": _green, "pink": _pink}


def render_dice(term: Terminal, state: CleverState) -> str:
    """Where the dice are and what they show."""

    def show(dice: list[str]) -> str:
        if not dice:
            return "-"
        return " ".join(
            term.paint(f"{d} {state.values[d] if state.values[d] is not None else '?'}", COLOUR[d])
            for d in dice
        )

    parts = (
        [f"in hand: {show(state.hand)}"] if state.hand or state.phase in (ACTIVE_PICK, BEFORE_ROLL) else []
    )
    parts += [f"platter: {show(state.platter)}", f"die fields: {show(state.fields)}"]
    if state.phase == PLUS_ONE:
        parts.append(f"all dice: {show(list(state.spec.dice))}")
    return " | ".join(parts)


def _bonus_note(bonus: str) -> str:
    return f" ({SHORT[bonus]} bonus)" if bonus else ""


def describe_entry(state: CleverState, area: str, value: int, slot: int | None, sheet: Sheet) -> str:
    """An entry in words, e.g. ``yellow: circle 4 (row 3)``."""
    spec = state.spec
    if area == "silver":
        assert slot is not None  # a silver entry names its row
        return f"silver: mark {value} in the {spec.silver_rows[slot]} row"
    if area == "yellow":
        assert slot is not None  # a yellow entry names its cell
        cell = spec.yellow_cells[slot]
        verb = "cross" if sheet.yellow[slot] == 1 else "circle"
        return f"yellow: {verb} {value} (row {cell.row + 1}, column {cell.column + 1})"
    if area == "blue":
        box = len(sheet.blue)
        return f"blue: write {value} in box {box + 1}{_bonus_note(spec.blue_bonuses[box])}"
    if area == "green":
        box = len(sheet.green)
        mult = spec.green_multipliers[box]
        return (
            f"green: {value} x{mult} = {value * mult} in box {box + 1}{_bonus_note(spec.green_bonuses[box])}"
        )
    box = len(sheet.pink)
    bonus = spec.pink_bonuses[box]
    note = (
        ""
        if not bonus
        else (
            f" ({SHORT[bonus]} bonus)"
            if value >= spec.pink_thresholds[box]
            else f" (no {SHORT[bonus]}: needs {spec.pink_thresholds[box]})"
        )
    )
    return f"pink: write {value} in box {box + 1}{note}"


def describe_action(state: CleverState, action: Action) -> str:
    """A legal ``action`` of the current decision in words."""
    sheet = state.sheets[state.decider]
    if action.kind == "choose":
        face = f"{state.values[action.picked]}"
        if action.area == "blue" and action.die == "blue":
            face = f"{face} + white {state.values['white']}"
        elif action.area == "blue":
            face = f"{face} + blue {state.values['blue']}"
        return f"{action.die} {face} -> {describe_entry(state, *action.entry, sheet)}"
    if action.kind == "mark":
        return describe_entry(state, *action.entry, sheet)
    if action.kind == "reroll":
        return f"reroll the dice just rolled (uses 1 of {sheet.rerolls} rerolls)"
    if action.kind == "return":
        return f"return the {action.die} die from the platter to the roll (uses 1 of {sheet.returns} returns)"
    if action.kind == "roll":
        return "roll the dice in hand"
    return {
        ACTIVE_PICK: "forfeit this roll (no die)",
        PASSIVE_PICK: "take no die",
        PLUS_ONE: "no more +1 this turn",
        PENDING: "skip this platter mark",
        BEFORE_ROLL: "end the turn",
    }.get(state.phase, "pass")


def describe_decision(state: CleverState) -> str:
    """What the current decision is about, in words."""
    phase = state.phase
    if phase == ACTIVE_PICK:
        return f"active: pick {state.picks + 1} of {state.spec.picks_per_turn} - choose a rolled die"
    if phase == BEFORE_ROLL:
        return "active: before the roll - return a platter die?"
    if phase == PASSIVE_PICK:
        where = "the active player's die fields" if state.passive_fallback() else "the silver platter"
        return f"passive: take a die from {where}"
    if phase == PLUS_ONE:
        return f"end of turn - use a +1 action ({state.sheets[state.decider].plus_ones} left)?"
    if phase == PENDING:
        return state.describe_pending()
    return phase
