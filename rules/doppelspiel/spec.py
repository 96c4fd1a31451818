"""Das Doppel Spiel sheet spec as frozen dataclasses, loaded from ``assets/games/doppelspiel.toml``.

The spec holds the data of the game (fields of a column, bonuses, tracks, match points);
how a group of dice meets a field's requirement is :meth:`FieldSpec.natural`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable

FORMAT = "doppelspiel/1"
SECTIONS = ("upper", "ten", "middle", "lower")
KINDS = (
    "pattern",
    "all_ten",
    "count",
    "of_a_kind",
    "full_house",
    "distinct",
    "small_straight",
    "straight",
    "chance",
)
#: Readings of the small straight: ``run`` = five different values or four in a row (the
#: default), ``distinct`` = five different values only (the seed's definition read alone).
SMALL_STRAIGHT_READINGS = ("run", "distinct")
#: Readings of "das höchste Einzelergebnis": ``column`` = the best column total (default),
#: ``entry`` = the highest single entry on the sheet.
HIGHEST_SINGLE_READINGS = ("column", "entry")


@dataclass(frozen=True)
class FieldSpec:
    """One field of a column.

    Attributes:
        key: short name used in actions and saves, e.g. ``"116"``, ``"6s"``, ``"fh"``.
        label: the name printed on the sheet.
        section: ``"upper"``, ``"ten"``, ``"middle"`` or ``"lower"``.
        kind: how the requirement and score are read (see the TOML file).
        pair, single: the pattern of an upper field (two of ``pair`` and one ``single``).
        face: the counted face of a middle field.
        n: dice that must be equal (``of_a_kind``).
        score: fixed score, if the field has one.
        runs: the allowed value sets of a ``straight``; for a ``small_straight`` the runs
            of which the group must hold one (four in a row) unless its five values differ.
        max_value: the highest score the field can take from one group of five
            (a five of a kind written here scores this; for the 10er the sum of ten sixes).
    """

    key: str
    label: str
    section: str
    kind: str
    pair: int | None = None
    single: int | None = None
    face: int | None = None
    n: int | None = None
    score: int | None = None
    runs: tuple[tuple[int, ...], ...] = ()
    max_value: int = 0

    @property
    def is_ten(self) -> bool:
        """True for the 10er ("Alle 10 Würfel")."""
        return self.kind == "all_ten"

    @property
    def has_square(self) -> bool:
        """Fields with the small square: the opponent may mark them with a Zwang (upper, middle, 10er)."""
        return self.section in ("upper", "middle", "ten")

    @property
    def jokerable(self) -> bool:
        """Fields a Joker can double (upper and middle, not the 10er)."""
        return self.section in ("upper", "middle")

    def natural(self, group: tuple[int, ...]) -> int | None:
        """Score of ``group`` in this field by its own requirement, ``None`` if not met.

        Five of a kind's "write anywhere at the maximum" is not applied here (see
        :func:`rules.doppelspiel.fields.base_value`). For the 10er, ``group`` is all ten dice.
        """
        if self.kind == "all_ten":
            return sum(group)
        counts = Counter(group)
        total = sum(group)
        if self.kind == "pattern":
            assert self.pair is not None and self.single is not None  # the loader sets both
            if self.pair == self.single:
                ok = counts[self.pair] >= 3
            else:
                ok = counts[self.pair] >= 2 and counts[self.single] >= 1
            return total if ok else None
        if self.kind == "count":
            assert self.face is not None  # the loader sets it
            return self.face * counts[self.face] if counts[self.face] else None
        if self.kind == "of_a_kind":
            assert self.n is not None  # the loader sets it
            if max(counts.values()) < self.n:
                return None
            return self.score if self.score is not None else total
        if self.kind == "full_house":
            return self.score if sorted(counts.values()) == [2, 3] else None
        if self.kind == "distinct":
            return self.score if len(counts) == len(group) else None
        if self.kind == "small_straight":
            values = set(counts)
            ok = len(counts) == len(group) or any(values.issuperset(run) for run in self.runs)
            return self.score if ok else None
        if self.kind == "straight":
            return self.score if tuple(sorted(group)) in self.runs else None
        if self.kind == "chance":
            return total
        raise AssertionError(f"unknown field kind {self.kind!r}")


@dataclass(frozen=True)
class DoppelSpec:
    """The whole game: material, sheet layout and the scoring constants.

    Attributes:
        players: number of players (2).
        dice: dice thrown (10); faces: faces per die (6); group_size: dice per group (5).
        throws_per_turn: regular throws in a turn (3).
        columns: columns on a sheet (4).
        fields: the fields of one column, top to bottom.
        column_match_points: match points of each column for the higher column total.
        best_column_match_points: match points for the best single column total.
        grand_total_match_points: match points for the higher grand total.
        aussetzen_boxes: "Aussetzen" boxes on a sheet.
        max_jokers_per_turn: Jokers that may be active in one turn.
        upper_threshold, upper_bonus: upper-part bonus rule of a column.
        middle_threshold, middle_bonus: middle-part bonus rule of a column.
        freiwurf_columns, freiwurf_height: layout of the free-throw cross track.
        freiwurf_double: 1-based track columns that earn two free throws.
        small_straight: the reading of the small straight (:data:`SMALL_STRAIGHT_READINGS`).
        highest_single: the reading of "das höchste Einzelergebnis"
            (:data:`HIGHEST_SINGLE_READINGS`).
    """

    players: int
    dice: int
    faces: int
    group_size: int
    throws_per_turn: int
    columns: int
    fields: tuple[FieldSpec, ...]
    column_match_points: tuple[int, ...]
    best_column_match_points: int
    grand_total_match_points: int
    aussetzen_boxes: int
    max_jokers_per_turn: int
    upper_threshold: int
    upper_bonus: int
    middle_threshold: int
    middle_bonus: int
    freiwurf_columns: int
    freiwurf_height: int
    freiwurf_double: tuple[int, ...]
    small_straight: str = "run"
    highest_single: str = "column"

    def with_readings(
        self, small_straight: str | None = None, highest_single: str | None = None
    ) -> DoppelSpec:
        """This spec with other readings of the small straight and of the highest single result.

        Raises:
            SpecError: an unknown reading.
        """
        small = small_straight or self.small_straight
        single = highest_single or self.highest_single
        if small not in SMALL_STRAIGHT_READINGS:
            raise SpecError(
                "small straight", "", f"expected one of {', '.join(SMALL_STRAIGHT_READINGS)}, got {small!r}"
            )
        if single not in HIGHEST_SINGLE_READINGS:
            raise SpecError(
                "highest single result",
                "",
                f"expected one of {', '.join(HIGHEST_SINGLE_READINGS)}, got {single!r}",
            )
        fields = self.fields
        if small != self.small_straight:
            fields = tuple(_with_small_straight(f, small) for f in self.fields)
        return dataclasses.replace(self, fields=fields, small_straight=small, highest_single=single)

    def readings(self) -> dict[str, str]:
        """The readings as data (saved with a game)."""
        return {"small_straight": self.small_straight, "highest_single": self.highest_single}

    def field(self, key: str) -> FieldSpec:
        """The field named ``key``; ``KeyError`` with the known keys otherwise."""
        for f in self.fields:
            if f.key == key:
                return f
        raise KeyError(f"unknown field {key!r}; known: {', '.join(f.key for f in self.fields)}")

    def index(self, key: str) -> int:
        """Position of field ``key`` in a column."""
        return self.fields.index(self.field(key))

    @property
    def ten_index(self) -> int:
        """Position of the 10er in a column."""
        return next(i for i, f in enumerate(self.fields) if f.is_ten)

    @property
    def freiwurf_capacity(self) -> int:
        """Crosses the free-throw track holds."""
        return self.freiwurf_columns * self.freiwurf_height

    @property
    def match_points_total(self) -> int:
        """Match points handed out in a game without ties (13)."""
        return sum(self.column_match_points) + self.best_column_match_points + self.grand_total_match_points


def _with_small_straight(f: FieldSpec, reading: str) -> FieldSpec:
    """A small-straight field read as ``reading`` (its runs are kept while read as ``distinct``)."""
    if reading == "distinct" and f.kind == "small_straight":
        return dataclasses.replace(f, kind="distinct")
    if reading == "run" and f.kind == "distinct" and f.runs:
        return dataclasses.replace(f, kind="small_straight")
    return f


def _all_groups(faces: int, size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(1, faces + 1), size))


_TOP_KEYS = {
    "format",
    "players",
    "dice",
    "faces",
    "group_size",
    "throws_per_turn",
    "columns",
    "column_match_points",
    "best_column_match_points",
    "grand_total_match_points",
    "aussetzen_boxes",
    "max_jokers_per_turn",
    "upper_bonus",
    "middle_bonus",
    "freiwurf",
    "fields",
}
_FIELD_KEYS = {"key", "label", "section", "kind", "pair", "single", "face", "n", "score", "runs"}
_NEEDS = {
    "pattern": ("pair", "single"),
    "count": ("face",),
    "of_a_kind": ("n",),
    "full_house": ("score",),
    "distinct": ("score",),
    "small_straight": ("score", "runs"),
    "straight": ("score", "runs"),
    "all_ten": (),
    "chance": (),
}


def _int(table: DataTable, key: str, lo: int, hi: int | None = None) -> int:
    """An integer ``lo..hi`` at ``key`` of ``table``."""
    return _check_int(table.raw(key), table.source, table.where(key), lo, hi)


def _check_int(value: Any, source: str, where: str, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(source, where, f"expected an integer, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        bound = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SpecError(source, where, f"expected {bound}, got {value}")
    return value


def _exact(table: DataTable | None, keys: set[str]) -> DataTable:
    """``table`` after checking it has exactly ``keys`` (``None`` only comes from a default of
    ``None``, which no caller gives)."""
    assert table is not None
    table.check_keys(keys)
    missing = keys - set(table.data)
    if missing:
        raise table.error(None, f"missing key(s) {sorted(missing)}")
    return table


def _field(raw: DataTable, faces: int, group_size: int, dice: int) -> FieldSpec:
    unknown = set(raw.data) - _FIELD_KEYS
    if unknown:
        raise raw.error(None, f"unknown key(s) {sorted(unknown)}")
    label = {k: raw.string(k) for k in ("key", "label", "section", "kind")}
    if label["section"] not in SECTIONS:
        raise raw.error("section", f"expected one of {SECTIONS}, got {label['section']!r}")
    kind = label["kind"]
    if kind not in KINDS:
        raise raw.error("kind", f"expected one of {KINDS}, got {kind!r}")
    for k in _NEEDS[kind]:
        if not raw.has(k):
            raise raw.error(None, f"kind {kind!r} needs key {k!r}")
    extra = (
        set(raw.data)
        - {"key", "label", "section", "kind", *_NEEDS[kind]}
        - ({"score"} if kind == "of_a_kind" else set())
    )
    if extra:
        raise raw.error(None, f"key(s) {sorted(extra)} do not apply to kind {kind!r}")
    if (kind == "all_ten") != (label["section"] == "ten"):
        raise raw.error(None, "the all_ten kind and the ten section go together")
    ints = {k: _int(raw, k, 1, faces) for k in ("pair", "single", "face") if raw.has(k)}
    n = _int(raw, "n", 2, group_size) if raw.has("n") else None
    score = _int(raw, "score", 0) if raw.has("score") else None
    runs: tuple[tuple[int, ...], ...] = ()
    if raw.has("runs"):
        value = raw.raw("runs")
        if not isinstance(value, list) or not value:
            raise raw.error("runs", "expected a non-empty list of value lists")
        out = []
        for j, run in enumerate(value):
            where = f"{raw.where('runs')}[{j}]"
            sizes = (
                range(2, group_size + 1) if kind == "small_straight" else range(group_size, group_size + 1)
            )
            if not isinstance(run, list) or len(run) not in sizes:
                raise SpecError(raw.source, where, f"expected a list of {sizes[0]}..{group_size} values")
            out.append(tuple(sorted(_check_int(v, raw.source, where, 1, faces) for v in run)))
        runs = tuple(out)
    spec = FieldSpec(
        key=label["key"],
        label=label["label"],
        section=label["section"],
        kind=kind,
        n=n,
        score=score,
        runs=runs,
        **ints,
    )
    best: int | None
    if spec.is_ten:
        best = faces * dice
    else:
        scores = [spec.natural(g) for g in _all_groups(faces, group_size)]
        best = max((s for s in scores if s is not None), default=None)
        if best is None:
            raise raw.error(None, "no group of dice can meet this field's requirement")
    return FieldSpec(**{**spec.__dict__, "max_value": best})


def load_spec(path: Path | str | None = None) -> DoppelSpec:
    """Load and check the game spec (default: the shipped ``assets/games/doppelspiel.toml``),
    read through :class:`rules.common.schema.DataTable`.

    Raises:
        SpecError: a key is missing, unknown or out of range.
    """
    path = Path(path) if path is not None else asset_path("games", "doppelspiel.toml")
    top = _exact(DataTable(read_toml(path), str(path)), _TOP_KEYS)
    if top.raw("format") != FORMAT:
        raise top.error("format", f"expected {FORMAT!r}, got {top.raw('format')!r}")
    players = _int(top, "players", 2, 2)
    faces = _int(top, "faces", 2, 20)
    group_size = _int(top, "group_size", 2, 10)
    dice = _int(top, "dice", 2 * group_size, 2 * group_size)
    throws = _int(top, "throws_per_turn", 1, 10)
    columns = _int(top, "columns", 1, 10)
    cmp_raw = top.raw("column_match_points")
    if not isinstance(cmp_raw, list) or len(cmp_raw) != columns:
        raise top.error("column_match_points", f"expected a list of {columns} integers")
    cmp = tuple(_check_int(v, top.source, f"column_match_points[{i}]", 0) for i, v in enumerate(cmp_raw))
    ub = _exact(top.table("upper_bonus"), {"threshold", "bonus"})
    mb = _exact(top.table("middle_bonus"), {"threshold", "bonus"})
    fw = _exact(top.table("freiwurf"), {"columns", "crosses_per_column", "double_columns"})
    fw_cols = _int(fw, "columns", 1, 100)
    doubles = fw.raw("double_columns")
    if not isinstance(doubles, list):
        raise fw.error("double_columns", "expected a list of column numbers")
    fw_double = tuple(_check_int(v, fw.source, fw.where("double_columns"), 1, fw_cols) for v in doubles)
    if not isinstance(top.raw("fields"), list) or not top.raw("fields"):
        raise top.error("fields", "expected a non-empty array of tables")
    fields = tuple(_field(f, faces, group_size, dice) for f in top.tables("fields", required=True))
    keys = [f.key for f in fields]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise top.error("fields", f"duplicate key(s) {sorted(dup)}")
    if sum(f.is_ten for f in fields) != 1:
        raise top.error("fields", "expected exactly one field of kind all_ten")
    for section in ("upper", "middle", "lower"):
        if not any(f.section == section for f in fields):
            raise top.error("fields", f"no field in section {section!r}")
    return DoppelSpec(
        players=players,
        dice=dice,
        faces=faces,
        group_size=group_size,
        throws_per_turn=throws,
        columns=columns,
        fields=fields,
        column_match_points=cmp,
        best_column_match_points=_int(top, "best_column_match_points", 0),
        grand_total_match_points=_int(top, "grand_total_match_points", 0),
        aussetzen_boxes=_int(top, "aussetzen_boxes", 0, 100),
        max_jokers_per_turn=_int(top, "max_jokers_per_turn", 0, 2),
        upper_threshold=_int(ub, "threshold", 0),
        upper_bonus=_int(ub, "bonus", 0),
        middle_threshold=_int(mb, "threshold", 0),
        middle_bonus=_int(mb, "bonus", 0),
        freiwurf_columns=fw_cols,
        freiwurf_height=_int(fw, "crosses_per_column", 1, 10),
        freiwurf_double=fw_double,
        small_straight="run" if any(f.kind == "small_straight" for f in fields) else "distinct",
    )


@lru_cache(maxsize=1)
def default_spec() -> DoppelSpec:
    """The shipped spec, loaded once."""
    return load_spec()
