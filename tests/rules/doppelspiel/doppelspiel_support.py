"""Helpers for the Doppel Spiel tests: states at a chosen throw, sheets filled by hand."""

from __future__ import annotations

from rules.doppelspiel import DoppelState, FieldRef, Roll, default_spec

SPEC = default_spec()
ALL = tuple(range(SPEC.dice))


def idx(key: str) -> int:
    """Position of a field in a column."""
    return SPEC.index(key)


def thrown(dice, state: DoppelState | None = None) -> DoppelState:
    """``state`` (default: a new game) after its player's first throw showed ``dice``."""
    state = state or DoppelState()
    state.apply_action(Roll(ALL))
    state.apply_chance(dice)
    return state


def fill(state: DoppelState, player: int, refs, value: int = 1) -> None:
    """Write ``value`` into the fields ``refs`` (``key@column`` strings or FieldRefs) of a sheet."""
    sheet = state.sheets[player]
    for ref in refs:
        if isinstance(ref, str):
            key, col = ref.split("@")
            ref = FieldRef(int(col) - 1, key)
        sheet.write(ref.column, idx(ref.key), value)


def section_refs(section: str, column: int) -> list[str]:
    """``key@column`` of every field of a section in a (1-based) column."""
    return [f"{f.key}@{column}" for f in SPEC.fields if f.section == section]


def fill_all_but(state: DoppelState, player: int, keep: set[str], value: int = 1) -> None:
    """Fill every field of a sheet except ``keep`` (``key@column`` strings)."""
    refs = [f"{f.key}@{c + 1}" for c in range(SPEC.columns) for f in SPEC.fields]
    fill(state, player, [r for r in refs if r not in keep], value)


def cell(state: DoppelState, player: int, ref: str):
    """The value in a field (``None`` while open)."""
    key, col = ref.split("@")
    return state.sheets[player].cells[int(col) - 1][idx(key)]
