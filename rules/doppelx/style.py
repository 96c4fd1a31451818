"""Drawing colours (hex strings) for field kinds and board parts, from ``assets/style.toml``."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rules.common.assets import asset_path, read_toml
from rules.common.schema import DataTable
from rules.doppelx.board import FieldKind


@dataclass(frozen=True)
class Style:
    """``kind_fill``/``kind_label`` per field kind and ``board`` colours by part name."""

    kind_fill: dict[FieldKind, str]
    kind_label: dict[FieldKind, str]
    board: dict[str, str]


@functools.cache
def load_style() -> Style:
    """The shipped style (cached)."""
    path = asset_path("style.toml")
    top = DataTable(read_toml(path), str(path))
    kinds = top.table("kinds")
    assert kinds is not None  # no default: a missing table raises
    fill, label = {}, {}
    for kind in FieldKind:
        t = kinds.table(kind.value)
        assert t is not None
        fill[kind] = t.string("fill")
        label[kind] = t.string("label")
    board_t = top.table("board")
    assert board_t is not None
    board = {k: board_t.string(k) for k in board_t.data}
    return Style(fill, label, board)


def hex_to_rgb(colour: str) -> tuple[float, float, float]:
    """``"#rrggbb"`` → floats in [0, 1]."""
    c = colour.lstrip("#")
    return (int(c[0:2], 16) / 255.0, int(c[2:4], 16) / 255.0, int(c[4:6], 16) / 255.0)
