"""The playfield insert with real holes, and the obstacles standing on it.

The insert's top (z = 0) covers the box's inner rectangle with every hole cut out; the
holes are lined with walls down to the insert's underside (z = -insert_thickness), which
is drawn too, so through a hole one sees the cavity and the box floor below.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box as rect

from render.mesh import Mesh, extrude, flat_mesh, merge, ring_wall
from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec


def inner_rect(box: BoxSpec):
    """The box's inner rectangle (shapely polygon, m)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    return rect(-hx, -hy, hx, hy)


def board_uv(box: BoxSpec):
    """Texture coordinates of board points (k, 2) on the playfield print (u east, v north)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2

    def uv(xy: np.ndarray) -> np.ndarray:
        return np.c_[(xy[:, 0] + hx) / (2 * hx), (xy[:, 1] + hy) / (2 * hy)]

    return uv


def insert_top(board: BoardSide, box: BoxSpec) -> Mesh:
    """The printed top surface at z = 0 with the holes open, UV-mapped to the print."""
    holes = shapely.union_all([h.shape for h in board.holes]) if board.holes else shapely.Polygon()
    return flat_mesh(inner_rect(box).difference(holes), 0.0, up=True, uv_of=board_uv(box))


def insert_sides(board: BoardSide, box: BoxSpec) -> Mesh:
    """The hole linings (insert edge seen inside each hole) and the insert's underside."""
    t = box.insert_thickness
    holes = shapely.union_all([h.shape for h in board.holes]) if board.holes else shapely.Polygon()
    parts = [flat_mesh(inner_rect(box).difference(holes), -t, up=False)]
    for h in board.holes:
        parts.append(ring_wall(np.asarray(h.shape.exterior.coords), -t, 0.0, outward=False))
    return merge(parts)


def obstacles(board: BoardSide) -> Mesh | None:
    """The board's fixed obstacles as prisms standing on z = 0, or ``None`` if it has none."""
    if not board.obstacles:
        return None
    return merge([extrude(o.shape, 0.0, o.height) for o in board.obstacles])
