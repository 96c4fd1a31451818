"""The tidy tables of a batch run: one row per die, per bet, per turn, per seat, per game or throw.

A chunk function returns, beside each item's row, that item's rows of the tidy tables under
the keys ``tidy_<table>`` (lists of dicts); :mod:`doppelx.batch.store` keeps them as nested
columns of the chunk file (written atomically with the chunk) and, when the run is merged,
writes each table to ``<root>/<table>/[<name>=<value>/…]part-0.parquet``: a run's own folder,
or in a sweep the sweep's folder, hive-partitioned by the variant's parameters. The columns
are :data:`SCHEMAS` (documented in ``docs/batch.md``, "Tidy tables").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import pyarrow as pa

from rules.doppelx.outcome import Status

_i, _f, _s, _b = pa.int64(), pa.float64(), pa.string(), pa.bool_()

#: The tidy tables and their columns (every run kind writes the tables it has rows for).
SCHEMAS: dict[str, pa.Schema] = {
    "throws": pa.schema(
        [
            ("item", _i),
            ("throw", _i),
            ("thrower", _s),
            ("lying", _i),
            ("lying_in_reach", _i),
            ("aim_x_mm", _f),
            ("aim_y_mm", _f),
            ("strength", _f),
            ("chips", _i),
            ("doppel_x", _b),
            ("lying_moved_to_hole", _i),
            ("sim_s", _f),
            ("settled", _b),
            ("tunnelled", _i),
        ]
    ),
    "dice": pa.schema(
        [
            ("item", _i),
            ("throw", _i),
            ("owner", _s),
            ("seat", _i),
            ("role", _s),
            ("face", _s),
            ("field", _s),
            ("status", _s),
            ("chips", _i),
            ("touched", _b),
            ("cocked", _b),
            ("x_mm", _f),
            ("y_mm", _f),
        ]
    ),
    "bets": pa.schema(
        [("item", _i), ("throw", _i), ("card", _s), ("bettor", _i), ("placed", _b), ("paid", _i)]
    ),
    "turns": pa.schema(
        [
            ("item", _i),
            ("turn", _i),
            ("kind", _s),
            ("rethrow", _b),
            ("active_seat", _i),
            ("active_skill", _s),
            ("chips_before", pa.list_(_i)),
            ("chips_after", pa.list_(_i)),
            ("change", _i),
            ("doppel_x", _b),
            ("bets_placed", _i),
            ("bets_paid", _i),
            ("rivals_out", _i),
        ]
    ),
    "seats": pa.schema(
        [
            ("item", _i),
            ("seat", _i),
            ("colour", _s),
            ("skill", _s),
            ("won", _b),
            ("final_chips", _i),
            ("turns", _i),
            ("own_chips", _i),
        ]
    ),
    "games": pa.schema(
        [
            ("item", _i),
            ("players", _i),
            ("winner_seat", _i),
            ("winner", _s),
            ("throws", _i),
            ("turns", _i),
            ("decider_rounds", _i),
            ("doppel_x", _i),
            ("bets_placed", _i),
            ("bets_won", _i),
            ("tunnelled", _i),
        ]
    ),
}
#: The prefix of a chunk row's key (and of the chunk file's nested column) holding a table's rows.
PREFIX = "tidy_"
#: The file of a table in its (partition) folder.
PART = "part-0.parquet"


def nested_type(table: str) -> pa.DataType:
    """The chunk file's column type of ``table``'s rows of one item: a list of structs."""
    return pa.list_(pa.struct(list(SCHEMAS[table])))


def die_rows(item: int, throw: int, score, outcome, thrown, seats=None, spinner: bool = True) -> list[dict]:
    """One row per die of a throw: who owns it, thrown or lying, where it ended and what it is worth.

    ``score``: the throw's :class:`rules.doppelx.scoring.ThrowScore` (its readings and each
    die's chips, worked out once by the rules); ``thrown``: the owners of the dice thrown (the
    others lay on the board before the throw); ``seats``: the seat of each player colour
    (games; ``None`` in a throws run); ``spinner``: the board has a spinner that turns (else
    ``touched`` is null: not "did not touch it" but "there was none").
    """
    touched = {d.owner: d.touched_spinner for d in outcome.dice}
    chips = {d.owner: d.chips for d in score.dice}
    rows = []
    for r in score.readings:
        rows.append(
            {
                "item": item,
                "throw": throw,
                "owner": r.owner,
                "seat": None if seats is None else seats.get(r.owner),
                "role": "thrown" if r.owner in thrown else "lying",
                "face": r.top,
                "field": None if r.field is None else r.field.value,
                "status": r.status.value,
                "chips": chips[r.owner],
                "touched": bool(touched.get(r.owner, False)) if spinner else None,
                "cocked": bool(r.cocked) if r.status is Status.BOARD else None,
                "x_mm": None if r.x is None else r.x * 1e3,
                "y_mm": None if r.y is None else r.y * 1e3,
            }
        )
    return rows


def bet_rows(item: int, throw: int, pays: Mapping[str, int | None], placed: Mapping[Any, str]) -> list[dict]:
    """Rows of the bets of a throw: ``placed`` maps a bettor's seat to its card (``None``: a
    throws run's bettor who bets on every card, each row then ``placed`` false); a pay-out of
    ``None`` is a card that cannot pay in this run (card G without a turning spinner)."""
    if None in placed:
        return [
            {"item": item, "throw": throw, "card": c, "bettor": None, "placed": False, "paid": p}
            for c, p in pays.items()
        ]
    return [
        {"item": item, "throw": throw, "card": card, "bettor": seat, "placed": True, "paid": pays[card]}
        for seat, card in placed.items()
    ]


def partition_path(variant: Mapping[str, Any]) -> str:
    """``hole_delta_mm=2/spinner=off``: the hive folders of a variant (values percent-encoded
    where a path would break: ``/``, ``=``, ``%``; numbers as ``%g``; on/off for the spinner)."""
    parts = []
    for name, value in variant.items():
        parts.append(f"{name}={quote(partition_value(value), safe=' -_.,:+~')}")
    return "/".join(parts)


def partition_value(value: Any) -> str:
    """A parameter's value as its hive folder spells it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def flatten(column: pa.ChunkedArray | pa.Array, table: str) -> pa.Table:
    """The rows of a chunk's nested column ``tidy_<table>`` as a table of :data:`SCHEMAS`."""
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    arr = arr.cast(nested_type(table))
    structs = arr.flatten()
    return pa.Table.from_batches([pa.RecordBatch.from_struct_array(structs)], schema=SCHEMAS[table])


def pop_nested(rows: list[dict[str, Any]]) -> dict[str, pa.Array]:
    """Take the ``tidy_<table>`` keys out of chunk rows, as nested Arrow columns of fixed type."""
    out = {}
    for name in SCHEMAS:
        key = PREFIX + name
        if rows and key in rows[0]:
            out[key] = pa.array([r.pop(key) for r in rows], type=nested_type(name))
    return out
