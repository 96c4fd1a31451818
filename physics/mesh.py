"""The naive board: box and insert as one concave triangle mesh (the benchmark's baseline).

Bullet handles a concave mesh only as a static body and collides every die with its
triangles one by one; the throughput benchmark builds the same scene this way to show
what the box layout of :mod:`physics.geometry` gains.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry import box as rect

from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec


def board_mesh(board: BoardSide, box: BoxSpec) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) m and triangle indices (m, 3) of floor, walls and the insert with its holes.

    The insert keeps the holes' exact outlines from the board file (no polygon stand-ins).
    """
    import trimesh

    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    t = box.wall_thickness
    parts = []
    slab = rect(-hx, -hy, hx, hy)
    for h in board.holes:
        slab = slab.difference(h.shape)
    parts.append(_extrude(slab, -box.insert_thickness, 0.0))
    floor_z, rim_z = box.floor_z, box.rim_z
    for cx, cy, ex, ey, z0, z1 in (
        (0.0, 0.0, hx + t, hy + t, floor_z - t, floor_z),
        (hx + t / 2, 0.0, t / 2, hy + t, floor_z - t, rim_z),
        (-hx - t / 2, 0.0, t / 2, hy + t, floor_z - t, rim_z),
        (0.0, hy + t / 2, hx + t, t / 2, floor_z - t, rim_z),
        (0.0, -hy - t / 2, hx + t, t / 2, floor_z - t, rim_z),
    ):
        m = trimesh.creation.box(extents=(2 * ex, 2 * ey, z1 - z0))
        m.apply_translation((cx, cy, (z0 + z1) / 2))
        parts.append((np.asarray(m.vertices), np.asarray(m.faces)))
    for ob in board.obstacles:
        parts.append(_extrude(ob.shape, 0.0, ob.height))
    verts, faces, offset = [], [], 0
    for v, f in parts:
        verts.append(v)
        faces.append(f + offset)
        offset += len(v)
    return np.vstack(verts), np.vstack(faces).astype(np.int64)


def _extrude(region, z0: float, z1: float) -> tuple[np.ndarray, np.ndarray]:
    """A closed prism over ``region`` (polygon with holes): caps by constrained Delaunay, side quads."""
    tris = shapely.constrained_delaunay_triangles(region)
    verts: list[tuple[float, float, float]] = []
    faces: list[tuple[int, int, int]] = []
    for tri in tris.geoms:
        if not region.buffer(1e-9).contains(tri.representative_point()):
            continue
        xy = (
            list(shapely.orient_polygons(tri).exterior.coords)[:3]
            if hasattr(shapely, "orient_polygons")
            else list(shapely.geometry.polygon.orient(tri).exterior.coords)[:3]
        )
        k = len(verts)
        verts += [(x, y, z1) for x, y in xy]
        faces.append((k, k + 1, k + 2))
        k = len(verts)
        verts += [(x, y, z0) for x, y in xy]
        faces.append((k, k + 2, k + 1))
    polys = list(region.geoms) if region.geom_type == "MultiPolygon" else [region]
    for poly in polys:
        poly = shapely.geometry.polygon.orient(Polygon(poly.exterior, poly.interiors))
        for ring in (poly.exterior, *poly.interiors):
            pts = list(ring.coords)[:-1]
            for i in range(len(pts)):
                (ax, ay), (bx, by) = pts[i], pts[(i + 1) % len(pts)]
                k = len(verts)
                verts += [(ax, ay, z0), (bx, by, z0), (bx, by, z1), (ax, ay, z1)]
                faces += [(k, k + 1, k + 2), (k, k + 2, k + 3)]
    return np.asarray(verts, dtype=float), np.asarray(faces, dtype=np.int64)
