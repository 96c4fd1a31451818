"""Triangle meshes as numpy arrays, and the builders the scene's parts share.

A :class:`Mesh` holds per-vertex positions (n, 3) m, normals (n, 3), texture
coordinates (n, 2) and a face index (n,) (the die face axis 0–5, or -1), plus triangle
indices (m, 3). Builders here are plain numpy/shapely: testable without OpenGL.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from render.raster import polygons


@dataclass(frozen=True)
class Mesh:
    """Triangles with normals and texture coordinates (float32 / uint32 arrays)."""

    positions: np.ndarray
    normals: np.ndarray
    uvs: np.ndarray
    faces: np.ndarray
    indices: np.ndarray

    @classmethod
    def build(cls, positions, normals, uvs=None, indices=None, faces=None) -> Mesh:
        """A mesh from array-likes; ``uvs`` default to 0, ``faces`` to -1, ``indices`` to 0..n-1."""
        p = np.asarray(positions, dtype=np.float32).reshape(-1, 3)
        n = np.asarray(normals, dtype=np.float32).reshape(-1, 3)
        if n.shape[0] == 1:
            n = np.repeat(n, len(p), axis=0)
        uv = np.zeros((len(p), 2), np.float32) if uvs is None else np.asarray(uvs, np.float32).reshape(-1, 2)
        f = np.full(len(p), -1.0, np.float32) if faces is None else np.asarray(faces, np.float32).reshape(-1)
        idx = np.arange(len(p), dtype=np.uint32) if indices is None else np.asarray(indices, np.uint32)
        return cls(p, n, uv, f, idx.reshape(-1, 3))


def merge(meshes) -> Mesh:
    """One mesh holding all of ``meshes``."""
    meshes = [m for m in meshes if len(m.positions)]
    offsets = np.cumsum([0] + [len(m.positions) for m in meshes[:-1]])
    return Mesh(
        np.concatenate([m.positions for m in meshes]),
        np.concatenate([m.normals for m in meshes]),
        np.concatenate([m.uvs for m in meshes]),
        np.concatenate([m.faces for m in meshes]),
        np.concatenate([m.indices + o for m, o in zip(meshes, offsets)]).astype(np.uint32),
    )


def triangulate(geom) -> np.ndarray:
    """Triangles (k, 3, 2) covering the polygon(s) ``geom`` — holes left open — CCW from above."""
    tris = []
    for poly in polygons(geom):
        for t in shapely.constrained_delaunay_triangles(poly).geoms:
            c = np.asarray(t.exterior.coords)[:3]
            area2 = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
            if abs(area2) < 1e-14:
                continue
            tris.append(c if area2 > 0 else c[::-1])
    return np.asarray(tris, dtype=np.float64).reshape(-1, 3, 2)


def flat_mesh(geom, z: float, up: bool = True, uv_of=None) -> Mesh:
    """The polygon(s) ``geom`` as a horizontal surface at height ``z`` (facing up or down).

    Args:
        uv_of: maps (k, 2) points to (k, 2) texture coordinates; default: zeros.
    """
    tris = triangulate(geom)
    if not up:
        tris = tris[:, ::-1]
    xy = tris.reshape(-1, 2)
    pos = np.c_[xy, np.full(len(xy), z)]
    uv = uv_of(xy) if uv_of is not None else None
    return Mesh.build(pos, [(0.0, 0.0, 1.0 if up else -1.0)], uv)


def ring_wall(ring_xy: np.ndarray, z0: float, z1: float, outward: bool) -> Mesh:
    """Vertical wall along a closed ring of points (k, 2), from ``z0`` up to ``z1``.

    Normals point away from the ring's enclosed area if ``outward``, else into it. Flat
    shading per segment; ``u`` runs along the ring (m), ``v`` from 0 at z0 to 1 at z1.
    """
    pts = np.asarray(ring_xy, dtype=np.float64)[:, :2]
    if np.allclose(pts[0], pts[-1]):
        pts = pts[:-1]
    signed = 0.5 * np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1])
    ccw = signed > 0
    a, b = pts, np.roll(pts, -1, axis=0)
    d = b - a
    length = np.linalg.norm(d, axis=1)
    keep = length > 1e-9
    a, b, d, length = a[keep], b[keep], d[keep], length[keep]
    n = np.c_[d[:, 1], -d[:, 0]] / length[:, None]  # right-hand normal: outward for CCW rings
    if ccw != outward:
        n = -n
    u0 = np.concatenate([[0.0], np.cumsum(length)[:-1]])
    k = len(a)
    pos = np.empty((k, 4, 3))
    pos[:, 0] = np.c_[a, np.full(k, z0)]
    pos[:, 1] = np.c_[b, np.full(k, z0)]
    pos[:, 2] = np.c_[b, np.full(k, z1)]
    pos[:, 3] = np.c_[a, np.full(k, z1)]
    nor = np.repeat(np.c_[n, np.zeros(k)][:, None, :], 4, axis=1)
    uv = np.empty((k, 4, 2))
    uv[:, 0] = np.c_[u0, np.zeros(k)]
    uv[:, 1] = np.c_[u0 + length, np.zeros(k)]
    uv[:, 2] = np.c_[u0 + length, np.ones(k)]
    uv[:, 3] = np.c_[u0, np.ones(k)]
    base = np.arange(k)[:, None] * 4
    idx = np.concatenate([base + [0, 1, 2], base + [0, 2, 3]], axis=1).reshape(-1, 3)
    return Mesh.build(pos.reshape(-1, 3), nor.reshape(-1, 3), uv.reshape(-1, 2), idx)


def extrude(poly: Polygon, z0: float, z1: float) -> Mesh:
    """A prism: the polygon ``poly`` from ``z0`` to ``z1`` with top, bottom and side walls."""
    parts = [
        flat_mesh(poly, z1, up=True),
        flat_mesh(poly, z0, up=False),
        ring_wall(np.asarray(poly.exterior.coords), z0, z1, outward=True),
    ]
    for ring in poly.interiors:
        parts.append(ring_wall(np.asarray(ring.coords), z0, z1, outward=False))
    return merge(parts)


def cylinder(cx: float, cy: float, r: float, z0: float, z1: float, segments: int = 24) -> Mesh:
    """A closed upright cylinder with smooth side normals."""
    ang = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    ring = np.c_[np.cos(ang), np.sin(ang)]
    side_pos = np.concatenate([np.c_[cx + r * ring, np.full(segments, z)] for z in (z0, z1)])
    side_nor = np.concatenate([np.c_[ring, np.zeros(segments)]] * 2)
    i = np.arange(segments)
    j = (i + 1) % segments
    side_idx = np.concatenate([np.c_[i, j, j + segments], np.c_[i, j + segments, i + segments]])
    side = Mesh.build(side_pos, side_nor, None, side_idx)
    disc = shapely.Point(cx, cy).buffer(r, quad_segs=max(2, segments // 4))
    return merge([side, flat_mesh(disc, z1, True), flat_mesh(disc, z0, False)])
