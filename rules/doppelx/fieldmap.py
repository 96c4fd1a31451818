"""Where each field *counts* once the white lines are given to the higher field (D8–D10).

Field polygons tile the outline along the centre lines of the white lines. A line of width
``w`` belongs to the higher-ranked of the two fields it separates (D9), so a field's
*effective region* is the field grown by ``w/2`` into every lower-ranked neighbour (and
into equal-ranked ones), minus the holes. A footprint touches a field if it overlaps or
merely touches the field's effective region (D8).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from rules.doppelx.board import BoardSide, Field


@dataclass(frozen=True)
class FieldMap:
    """Effective regions of a board's fields, in the order of ``board.fields``."""

    board: BoardSide
    regions: tuple[BaseGeometry, ...]
    lines: BaseGeometry
    tree: shapely.STRtree
    ranks: np.ndarray

    def touched(self, hull: BaseGeometry, radius: float) -> list[Field]:
        """Fields touched by the footprint ``hull ⊕ disc(radius)``, highest rank first.

        ``hull`` is the convex hull of the die's sharp inner cube seen from above; the
        footprint of the rounded die is exactly that hull grown by the edge radius, so a
        field is touched iff its region lies within ``radius`` of the hull (exact, no arcs
        approximated).
        """
        return self._ranked(int(i) for i in self.tree.query(hull, predicate="dwithin", distance=radius))

    def _ranked(self, idx) -> list[Field]:
        """The fields of tree indices ``idx``, highest rank first (ties in index order)."""
        found = sorted(idx)
        found.sort(key=lambda i: -self.ranks[i])
        return [self.board.fields[i] for i in found]

    def touched_many(self, hulls, radii) -> list[list[Field]]:
        """:meth:`touched` for many footprints at once (one tree query): per hull, the fields
        touched by ``hull ⊕ disc(radius)``, highest rank first (the same lists, in the same order)."""
        which, idx = self.tree.query(hulls, predicate="dwithin", distance=radii)
        per: list[list[int]] = [[] for _ in range(len(hulls))]
        for w, i in zip(which.tolist(), idx.tolist()):
            per[w].append(i)
        return [self._ranked(found) for found in per]


@functools.lru_cache(maxsize=32)
def field_map(board: BoardSide) -> FieldMap:
    """The :class:`FieldMap` of ``board`` (built once per board, then cached)."""
    half = board.line_width / 2
    holes = shapely.union_all([h.shape for h in board.holes]) if board.holes else shapely.Polygon()
    grown = [f.shape.buffer(half, join_style="mitre") for f in board.fields]
    regions = []
    for f, g in zip(board.fields, grown):
        higher = [grown[j] for j, other in enumerate(board.fields) if other.kind.rank > f.kind.rank]
        region = g.intersection(board.outline)
        if higher:
            region = region.difference(shapely.union_all(higher))
        region = region.difference(holes)
        regions.append(region)
    boundaries = shapely.union_all([f.shape.boundary for f in board.fields])
    lines = (
        boundaries.buffer(half, cap_style="flat", join_style="mitre")
        .intersection(board.outline)
        .difference(holes)
    )
    ranks = np.array([f.kind.rank for f in board.fields])
    return FieldMap(board, tuple(regions), lines, shapely.STRtree(regions), ranks)
