"""One player's score sheet: four columns of fields, the Aussetzen boxes and the extra tracks.

The sheet only records; whether an entry is allowed is decided by
:mod:`rules.doppelspiel.state`. It does refuse to write a field twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.common.errors import RulesError
from rules.doppelspiel.spec import DoppelSpec


@dataclass(frozen=True)
class Cell:
    """Address of one field on a sheet: ``column`` 0-based, ``field`` index in the column."""

    column: int
    field: int


@dataclass
class Sheet:
    """A player's sheet.

    Attributes:
        spec: the game spec.
        cells: ``cells[column][field]`` is the written score, ``None`` while open (a struck
            field holds 0 and is listed in ``struck``).
        struck: the struck fields.
        aussetzen: Aussetzen boxes used.
        swaps: faces struck on the Tauschen track (1..6).
        repeats: faces struck on the Wiederholen track (1..6).
        crosses: crosses on the Freiwurf track.
        free_used: free throws taken.
        jokers: columns whose Joker was used.
        zwang: columns whose Zwang box was used.
    """

    spec: DoppelSpec
    cells: list[list[int | None]] = field(default_factory=list)
    struck: set[Cell] = field(default_factory=set)
    aussetzen: int = 0
    swaps: set[int] = field(default_factory=set)
    repeats: set[int] = field(default_factory=set)
    crosses: int = 0
    free_used: int = 0
    jokers: set[int] = field(default_factory=set)
    zwang: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.cells:
            self.cells = [[None] * len(self.spec.fields) for _ in range(self.spec.columns)]

    def copy(self) -> Sheet:
        """An independent copy (the spec is shared)."""
        return Sheet(
            self.spec,
            [list(c) for c in self.cells],
            set(self.struck),
            self.aussetzen,
            set(self.swaps),
            set(self.repeats),
            self.crosses,
            self.free_used,
            set(self.jokers),
            set(self.zwang),
        )

    def __deepcopy__(self, memo) -> Sheet:
        return self.copy()

    # --- fields -------------------------------------------------------------------------
    def is_open(self, column: int, index: int) -> bool:
        """True while the field has neither a score nor a stroke."""
        return self.cells[column][index] is None

    def open_cells(self) -> list[Cell]:
        """Every open field, column by column."""
        return [
            Cell(c, i)
            for c in range(self.spec.columns)
            for i in range(len(self.spec.fields))
            if self.cells[c][i] is None
        ]

    def is_full(self) -> bool:
        """True when every field of every column is written or struck."""
        return all(v is not None for col in self.cells for v in col)

    def write(self, column: int, index: int, value: int) -> None:
        """Enter ``value`` into an open field."""
        self._check_open(column, index)
        if value < 0:
            raise RulesError(f"a score cannot be negative ({value})")
        self.cells[column][index] = int(value)

    def strike(self, column: int, index: int) -> None:
        """Strike an open field (it counts as filled with 0)."""
        self._check_open(column, index)
        self.cells[column][index] = 0
        self.struck.add(Cell(column, index))

    def _check_open(self, column: int, index: int) -> None:
        if not (0 <= column < self.spec.columns and 0 <= index < len(self.spec.fields)):
            raise RulesError(f"no field {index} in column {column + 1}")
        if self.cells[column][index] is not None:
            name = self.spec.fields[index].label
            raise RulesError(f"{name} in column {column + 1} is already filled")

    def section_filled(self, column: int, *sections: str) -> bool:
        """True if every field of ``sections`` in ``column`` is written or struck."""
        return all(
            self.cells[column][i] is not None for i, f in enumerate(self.spec.fields) if f.section in sections
        )

    # --- extras -------------------------------------------------------------------------
    def joker_ready(self, column: int) -> bool:
        """The column's lower part is full and its Joker is unused."""
        return column not in self.jokers and self.section_filled(column, "lower")

    def zwang_ready(self, column: int) -> bool:
        """The column's upper part and 10er are full and its Zwang box is unused."""
        return column not in self.zwang and self.section_filled(column, "upper", "ten")

    def free_earned(self) -> int:
        """Free throws earned by the crosses so far."""
        full = min(self.crosses, self.spec.freiwurf_capacity) // self.spec.freiwurf_height
        return sum(2 if k in self.spec.freiwurf_double else 1 for k in range(1, full + 1))

    def free_available(self) -> int:
        """Free throws earned and not yet taken."""
        return self.free_earned() - self.free_used

    def add_crosses(self, n: int) -> None:
        """Add ``n`` Freiwurf crosses; crosses beyond the track's capacity are lost."""
        self.crosses = min(self.spec.freiwurf_capacity, self.crosses + n)

    # --- totals -------------------------------------------------------------------------
    def section_sum(self, column: int, section: str) -> int:
        """Sum of the written scores of one section of a column."""
        return sum(v or 0 for v, f in zip(self.cells[column], self.spec.fields) if f.section == section)

    def upper_bonus(self, column: int) -> int:
        """The upper bonus of a column (20 once the six upper fields reach 120)."""
        return self.spec.upper_bonus if self.section_sum(column, "upper") >= self.spec.upper_threshold else 0

    def middle_bonus(self, column: int) -> int:
        """The middle bonus of a column (35 once ones..sixes reach 63)."""
        return (
            self.spec.middle_bonus if self.section_sum(column, "middle") >= self.spec.middle_threshold else 0
        )

    def column_total(self, column: int) -> int:
        """All scores of a column plus its two bonuses."""
        return sum(v or 0 for v in self.cells[column]) + self.upper_bonus(column) + self.middle_bonus(column)

    def totals(self) -> list[int]:
        """Column totals, column 1 first."""
        return [self.column_total(c) for c in range(self.spec.columns)]

    def grand_total(self) -> int:
        """Sum of the four column totals."""
        return sum(self.totals())
