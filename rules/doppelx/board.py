"""Playfield side specs: field kinds and their ranking, fields, holes, spinner, obstacles.

All lengths are metres in the board frame: origin at the playfield centre, x to the right
(side III of the box), y away from the viewer, z up, playfield top surface at z = 0.
Shapes are shapely polygons in that frame. Files are read by :mod:`rules.doppelx.board_file`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from enum import StrEnum

from shapely.geometry import Polygon


class FieldKind(StrEnum):
    """The five kinds of field printed on a playfield (D10)."""

    THREE = "3x"
    TWO = "2x"
    ONE = "1x"
    X = "X"
    MINUS_ONE = "-1"

    @property
    def rank(self) -> int:
        """Higher is better: 3x > 2x > 1x > X > -1 (D10)."""
        return _RANK[self]

    @property
    def multiplier(self) -> int:
        """Chips per pip on this field (D11); 0 for X and -1 fields."""
        return _MULTIPLIER[self]


_RANK = {FieldKind.THREE: 4, FieldKind.TWO: 3, FieldKind.ONE: 2, FieldKind.X: 1, FieldKind.MINUS_ONE: 0}
_MULTIPLIER = {FieldKind.THREE: 3, FieldKind.TWO: 2, FieldKind.ONE: 1, FieldKind.X: 0, FieldKind.MINUS_ONE: 0}


@dataclass(frozen=True)
class Field:
    """One coloured field: its id in the board file, its kind and its polygon (m)."""

    id: str
    kind: FieldKind
    shape: Polygon


@dataclass(frozen=True)
class Hole:
    """A hole through the playfield and insert; ``circle`` is ``(cx, cy, r)`` in m if round."""

    id: str
    shape: Polygon
    circle: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class SpinnerMount:
    """Where the spinner is plugged in (sides III/IV) and its size, in m.

    The spinner is a flat triangle turning about a vertical pin at ``center``; ``arm_length``
    is the distance from the pin to a tip, ``height`` the top of the triangle above z = 0.
    """

    center: tuple[float, float]
    arm_length: float
    thickness: float
    height: float
    pin_radius: float


@dataclass(frozen=True)
class Obstacle:
    """A fixed extra obstacle standing on the playfield (D40): footprint polygon and height (m)."""

    id: str
    shape: Polygon
    height: float


@dataclass(frozen=True, eq=False)
class BoardSide:
    """One playfield side (I–IV or a custom file), in metres.

    Attributes:
        name: short name (``"I"`` or the file stem of a custom board).
        title: a human title.
        source: the file it was loaded from.
        line_width: width of the white lines centred on field boundaries (m).
        outline: the playing area.
        fields: polygons tiling the outline without gaps or overlaps.
        holes: holes a die can fall through (they cut through fields).
        spinner: the spinner mount, or ``None`` (sides I/II).
        obstacles: fixed obstacles standing on the board.

    Compared and hashed by identity: the loader returns one object per file version, and
    derived data (the field map) is cached against it.
    """

    name: str
    title: str
    source: str
    line_width: float
    outline: Polygon
    fields: tuple[Field, ...]
    holes: tuple[Hole, ...] = ()
    spinner: SpinnerMount | None = None
    obstacles: tuple[Obstacle, ...] = ()

    def with_spinner(self, on: bool) -> BoardSide:
        """The side as played: itself, or — ``on`` false on a side with a spinner mount (D39:
        III/IV may be played without it) — the same side without the spinner, one object per
        side (so what is cached against a board is made once). Everything that judges a die
        (the physics' final reading, the placement checks, bet G) then sees no spinner."""
        if on or self.spinner is None:
            return self
        return _without_spinner(self)

    def field(self, field_id: str) -> Field:
        """The field with id ``field_id`` (``KeyError`` if there is none)."""
        for f in self.fields:
            if f.id == field_id:
                return f
        raise KeyError(field_id)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(min_x, min_y, max_x, max_y)`` of the outline, m."""
        return tuple(self.outline.bounds)


@functools.lru_cache(maxsize=16)
def _without_spinner(board: BoardSide) -> BoardSide:
    return replace(board, spinner=None)
