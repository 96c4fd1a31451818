"""The "Doppelt so clever" score sheet as a frozen dataclass, loaded from ``assets/games/clever.toml``.

Bonus names used throughout the engine: ``reroll``, ``return``, ``plus1`` (actions a
player keeps), ``fox``, and the free entries ``?silver``, ``?yellow``, ``?blue``,
``?green``, ``?pink`` and ``?any`` (the black "?": any area). ``""`` in a bonus list means
no bonus.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable, plain_digits

FORMAT = "clever/1"
DICE = ("white", "silver", "yellow", "blue", "green", "pink")
AREAS = ("silver", "yellow", "blue", "green", "pink")
ACTION_BONUSES = ("reroll", "return", "plus1")
FREE_BONUSES = ("?silver", "?yellow", "?blue", "?green", "?pink", "?any")
BONUSES = ACTION_BONUSES + ("fox",) + FREE_BONUSES


@dataclass(frozen=True)
class YellowCell:
    """One number of the yellow grid: its ``row`` (0..4), ``column`` (0..3) and ``number``."""

    row: int
    column: int
    number: int


@dataclass(frozen=True)
class CleverSpec:
    """Everything printed on the score sheet, plus the round structure.

    Attributes:
        dice: die colours in engine order (white first; white is wild).
        areas: the five scoring areas in sheet order.
        picks_per_turn: die fields of an active turn (3).
        rounds: number of rounds by number of players (1..4).
        round_bonuses: the bonus of round 1, 2, ...; rounds past the list give none.
        silver_rows: the colour naming each silver row.
        silver_points: points of one silver row by its number of marks (index 0..6).
        silver_column_bonuses: bonus for completing the column of number 1..6.
        yellow_cells: the ten yellow numbers.
        yellow_row_bonuses / yellow_column_bonuses: bonus for a completely circled
            row 0..4 / column 0..3.
        yellow_points: points by number of yellow crosses (index 0..10).
        blue_min / blue_max: the smallest and largest blue entry (2, 12).
        blue_points: points by number of filled blue boxes (index 0..12).
        blue_bonuses / green_bonuses / pink_bonuses: bonus under box 1..12.
        green_multipliers: the multiplier of each green box.
        pink_thresholds: the least value that earns a pink box's bonus.
        rating_minimums: lowest score of each solo rating band, best band first.
        source: the file the spec was read from.
    """

    dice: tuple[str, ...]
    areas: tuple[str, ...]
    picks_per_turn: int
    rounds: dict[int, int]
    round_bonuses: tuple[str, ...]
    silver_rows: tuple[str, ...]
    silver_points: tuple[int, ...]
    silver_column_bonuses: tuple[str, ...]
    yellow_cells: tuple[YellowCell, ...]
    yellow_row_bonuses: tuple[str, ...]
    yellow_column_bonuses: tuple[str, ...]
    yellow_points: tuple[int, ...]
    blue_min: int
    blue_max: int
    blue_points: tuple[int, ...]
    blue_bonuses: tuple[str, ...]
    green_multipliers: tuple[int, ...]
    green_bonuses: tuple[str, ...]
    pink_thresholds: tuple[int, ...]
    pink_bonuses: tuple[str, ...]
    rating_minimums: tuple[int, ...]
    source: str = ""

    @cached_property
    def yellow_rows(self) -> tuple[tuple[int, ...], ...]:
        """Indices of the yellow numbers in each grid row."""
        n = max(c.row for c in self.yellow_cells) + 1
        return tuple(tuple(i for i, c in enumerate(self.yellow_cells) if c.row == r) for r in range(n))

    @cached_property
    def yellow_columns(self) -> tuple[tuple[int, ...], ...]:
        """Indices of the yellow numbers in each grid column."""
        n = max(c.column for c in self.yellow_cells) + 1
        return tuple(tuple(i for i, c in enumerate(self.yellow_cells) if c.column == k) for k in range(n))

    @property
    def boxes(self) -> int:
        """Boxes of each of the blue, green and pink rows (12)."""
        return len(self.blue_bonuses)

    def rounds_for(self, players: int) -> int:
        """Rounds of a game with ``players`` players."""
        try:
            return self.rounds[players]
        except KeyError:
            raise ValueError(
                f"Doppelt so clever is for {min(self.rounds)}-{max(self.rounds)} players, not {players}"
            ) from None

    def rating_band(self, score: float) -> str:
        """The solo rating band of ``score``, named by its range (e.g. ``"200-219"``)."""
        mins = self.rating_minimums
        for i, low in enumerate(mins):
            if score >= low:
                if i == 0:
                    return f">={low}"
                if i == len(mins) - 1:
                    break
                return f"{low}-{mins[i - 1] - 1}"
        return f"<{mins[-2]}"

    def rating_bands(self) -> list[str]:
        """All band names, best first."""
        return [self.rating_band(low) for low in self.rating_minimums[:-1]] + [f"<{self.rating_minimums[-2]}"]


def _table(parent: DataTable, key: str, keys: set[str]) -> DataTable:
    """The sub-table ``key`` with exactly ``keys``."""
    table = parent.table(key)
    assert table is not None  # no default: a missing table raises
    _exact_keys(table, keys)
    return table


def _exact_keys(table: DataTable, keys: set[str]) -> None:
    table.check_keys(keys)
    missing = sorted(keys - set(table.data))
    if missing:
        raise table.error(missing[0], "missing key")


def _ints(
    table: DataTable, key: str, length: int | None = None, low: int | None = None, high: int | None = None
) -> tuple[int, ...]:
    value = table.raw(key)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise table.error(key, "expected a list of integers")
    if length is not None and len(value) != length:
        raise table.error(key, f"expected {length} entries, got {len(value)}")
    for v in value:
        if (low is not None and v < low) or (high is not None and v > high):
            raise table.error(key, f"value {v} outside {low}..{high}")
    return tuple(value)


def _int(table: DataTable, key: str, low: int, high: int) -> int:
    value = table.integer(key, minimum=low)
    if value > high:
        raise table.error(key, f"expected an integer in {low}..{high}")
    return value


def _names(
    table: DataTable, key: str, allowed: tuple[str, ...], length: int | None = None, blank: bool = False
) -> tuple[str, ...]:
    value = table.raw(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise table.error(key, "expected a list of strings")
    if length is not None and len(value) != length:
        raise table.error(key, f"expected {length} entries, got {len(value)}")
    for v in value:
        if not (v in allowed or (blank and v == "")):
            raise table.error(key, f"unknown name {v!r}; expected one of {', '.join(allowed)}")
    return tuple(value)


def _non_decreasing(source: str, where: str, values: tuple[int, ...]) -> None:
    if values[0] != 0 or any(b < a for a, b in zip(values, values[1:])):
        raise SpecError(source, where, "expected a non-decreasing point table starting at 0")


def parse_spec(data: dict[str, Any], source: str = "<data>") -> CleverSpec:
    """Build a :class:`CleverSpec` from parsed TOML, checking every key (through
    :class:`rules.common.schema.DataTable`).

    Raises:
        SpecError: a key is unknown or missing, or a value is out of range.
    """
    top = DataTable(data, source)
    _exact_keys(
        top,
        {
            "format",
            "dice",
            "areas",
            "picks_per_turn",
            "rounds",
            "round_bonuses",
            "silver",
            "yellow",
            "blue",
            "green",
            "pink",
            "solo",
        },
    )
    if top.string("format") != FORMAT:
        raise SpecError(source, "format", f"expected {FORMAT!r}, got {data['format']!r}")
    dice = _names(top, "dice", DICE, len(DICE))
    if set(dice) != set(DICE) or dice[0] != "white":
        raise SpecError(source, "dice", "expected the six dice once each, white first")
    areas = _names(top, "areas", AREAS, len(AREAS))
    if set(areas) != set(AREAS):
        raise SpecError(source, "areas", "expected the five areas once each")
    rounds_raw = top.raw("rounds")
    if not isinstance(rounds_raw, dict) or not rounds_raw:
        raise SpecError(source, "rounds", "expected a table of players = rounds")
    rounds: dict[int, int] = {}
    for key, value in rounds_raw.items():
        if not plain_digits(str(key)) or not 1 <= int(key) <= 4:
            raise SpecError(source, f"rounds.{key}", "players must be 1..4")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 20:
            raise SpecError(source, f"rounds.{key}", "expected a number of rounds 1..20")
        rounds[int(key)] = value

    silver = _table(top, "silver", {"rows", "points", "column_bonuses"})
    rows = _names(silver, "rows", ("yellow", "blue", "green", "pink"), 4)
    if len(set(rows)) != 4:
        raise SpecError(source, "silver.rows", "expected the four colours once each")
    silver_points = _ints(silver, "points", 7, 0)
    _non_decreasing(source, "silver.points", silver_points)

    yellow = _table(top, "yellow", {"cells", "row_bonuses", "column_bonuses", "points"})
    raw_cells = yellow.raw("cells")
    if not isinstance(raw_cells, list) or not raw_cells:
        raise SpecError(source, "yellow.cells", "expected a list of [row, column, number]")
    cells = []
    for i, cell in enumerate(raw_cells):
        if (
            not isinstance(cell, list)
            or len(cell) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise SpecError(source, f"yellow.cells[{i}]", "expected [row, column, number]")
        if not 1 <= cell[2] <= 6 or cell[0] < 0 or cell[1] < 0:
            raise SpecError(source, f"yellow.cells[{i}]", "row/column must be >= 0 and number 1..6")
        cells.append(YellowCell(*cell))
    if len({(c.row, c.column) for c in cells}) != len(cells):
        raise SpecError(source, "yellow.cells", "two numbers share a grid cell")
    n_rows = max(c.row for c in cells) + 1
    n_cols = max(c.column for c in cells) + 1
    yellow_points = _ints(yellow, "points", len(cells) + 1, 0)
    _non_decreasing(source, "yellow.points", yellow_points)

    blue = _table(top, "blue", {"min_value", "max_value", "points", "bonuses"})
    blue_bonuses = _names(blue, "bonuses", BONUSES, blank=True)
    boxes = len(blue_bonuses)
    blue_points = _ints(blue, "points", boxes + 1, 0)
    _non_decreasing(source, "blue.points", blue_points)
    green = _table(top, "green", {"multipliers", "bonuses"})
    pink = _table(top, "pink", {"thresholds", "bonuses"})
    solo = _table(top, "solo", {"rating_minimums"})
    minimums = _ints(solo, "rating_minimums")
    if len(minimums) < 2 or any(b >= a for a, b in zip(minimums, minimums[1:])):
        raise SpecError(source, "solo.rating_minimums", "expected at least two strictly decreasing minimums")

    return CleverSpec(
        dice=dice,
        areas=areas,
        picks_per_turn=_int(top, "picks_per_turn", 1, 6),
        rounds=rounds,
        round_bonuses=_names(top, "round_bonuses", BONUSES),
        silver_rows=rows,
        silver_points=silver_points,
        silver_column_bonuses=_names(silver, "column_bonuses", BONUSES, 6, blank=True),
        yellow_cells=tuple(cells),
        yellow_row_bonuses=_names(yellow, "row_bonuses", BONUSES, n_rows, blank=True),
        yellow_column_bonuses=_names(yellow, "column_bonuses", BONUSES, n_cols, blank=True),
        yellow_points=yellow_points,
        blue_min=_int(blue, "min_value", 2, 12),
        blue_max=_int(blue, "max_value", 2, 12),
        blue_points=blue_points,
        blue_bonuses=blue_bonuses,
        green_multipliers=_ints(green, "multipliers", boxes, 1, 9),
        green_bonuses=_names(green, "bonuses", BONUSES, boxes, blank=True),
        pink_thresholds=_ints(pink, "thresholds", boxes, 0, 6),
        pink_bonuses=_names(pink, "bonuses", BONUSES, boxes, blank=True),
        rating_minimums=minimums,
        source=source,
    )


def load_spec(path: Path | str | None = None) -> CleverSpec:
    """Read the sheet from ``path`` (default: the shipped ``assets/games/clever.toml``)."""
    if path is None:
        return default_spec()
    return parse_spec(read_toml(path), str(path))


@lru_cache(maxsize=1)
def default_spec() -> CleverSpec:
    """The shipped sheet, read once."""
    path = asset_path("games", "clever.toml")
    return parse_spec(read_toml(path), str(path))
