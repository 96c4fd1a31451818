"""A die as a rounded cube: each face a grid whose border bands bend round the edges.

The shape is the set of points within ``r`` of a sharp inner cube of half-edge ``h - r``
(the same shape :mod:`rules.doppelx.reading` reads footprints from). Every vertex carries its
face axis (index into :data:`rules.doppelx.dice.AXES`) and face-local texture coordinates that
span the whole face, so the face atlas (:mod:`render.dice_texture`) prints the pips.
"""

from __future__ import annotations

import numpy as np

from render.mesh import Mesh, merge

#: (normal, u axis, v axis) per face in AXES order (+x, -x, +y, -y, +z, -z); u × v = normal.
FACE_FRAMES = (
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
)


def rounded_cube(size: float, radius: float, band_segments: int = 4) -> Mesh:
    """A rounded cube of edge ``size`` (m) and edge radius ``radius``, centred at the origin.

    Args:
        band_segments: segments per 45° of edge rounding (each edge gets twice that).
    """
    h = size / 2
    inner = h - radius
    theta = np.linspace(0.0, np.pi / 4, band_segments + 1)[1:]
    band = inner + radius * np.tan(theta)  # grid positions in the rounded band
    coords = np.concatenate([-band[::-1], [-inner, inner] if inner > 0 else [0.0], band])
    n = len(coords)
    s, t = np.meshgrid(coords, coords, indexing="xy")  # s along u, t along v; rows follow v
    parts = []
    for face, (normal, u_ax, v_ax) in enumerate(FACE_FRAMES):
        nrm, u, v = (np.asarray(a, dtype=float) for a in (normal, u_ax, v_ax))
        p = h * nrm + s.reshape(-1, 1) * u + t.reshape(-1, 1) * v
        q = np.clip(p, -inner, inner)
        d = p - q
        dn = d / np.linalg.norm(d, axis=1, keepdims=True)
        pos = q + radius * dn
        uv = np.c_[s.reshape(-1) / size + 0.5, t.reshape(-1) / size + 0.5]
        i, j = np.meshgrid(np.arange(n - 1), np.arange(n - 1), indexing="xy")
        a = (j * n + i).reshape(-1)
        quads = np.c_[a, a + 1, a + n + 1, a, a + n + 1, a + n].reshape(-1, 3)
        parts.append(Mesh.build(pos, dn, uv, quads, np.full(len(pos), face)))
    return merge(parts)
