"""The dice face atlas: one tile per face label (``1``, ``2``, ``3``, ``X``), side by side.

Each tile covers a whole die face (rounded bands included), u left → right, v bottom → top.
Channel R is the pip/X mask (1 = pip colour), channel G a soft rim around each pip that
the shader darkens so pips look drilled in. The die shader mixes body and pip colours per
die, so one atlas serves all nine dice.
"""

from __future__ import annotations

import functools

import numpy as np

#: Face label → tile index in the atlas.
TILES = {"1": 0, "2": 1, "3": 2, "X": 3}
#: Pip centres per label in face units (-0.5 … 0.5).
PIPS = {
    "1": [(0.0, 0.0)],
    "2": [(-0.24, 0.24), (0.24, -0.24)],
    "3": [(-0.24, 0.24), (0.0, 0.0), (0.24, -0.24)],
}
PIP_RADIUS = 0.095  # face units
X_HALF_LENGTH = 0.27
X_HALF_WIDTH = 0.065


@functools.lru_cache(maxsize=2)
def dice_atlas(tile: int = 256) -> np.ndarray:
    """The atlas, shape ``(tile, 4 * tile, 4)`` uint8, rows bottom-up (v = 0 first)."""
    aa = 4  # supersampling per axis
    n = tile * aa
    c = (np.arange(n) + 0.5) / n - 0.5
    u, v = np.meshgrid(c, c)  # u right, v up (row 0 is v = -0.5)
    tiles = []
    for label in ("1", "2", "3", "X"):
        if label == "X":
            d = np.full_like(u, np.inf)
            for sx in (1, -1):  # distance to the two diagonal bars
                along = (u + sx * v) / np.sqrt(2)
                across = (u - sx * v) / np.sqrt(2)
                dist = np.maximum(np.abs(across) - X_HALF_WIDTH, np.abs(along) - X_HALF_LENGTH)
                d = np.minimum(d, dist)
        else:
            d = np.full_like(u, np.inf)
            for px, py in PIPS[label]:
                d = np.minimum(d, np.hypot(u - px, v - py) - PIP_RADIUS)
        mask = (d <= 0).astype(np.float32)
        rim = np.clip(1.0 - np.abs(d) / 0.03, 0.0, 1.0) * (d > -0.03)
        tile_img = np.stack([mask, rim.astype(np.float32)], axis=-1)
        tile_img = tile_img.reshape(tile, aa, tile, aa, 2).mean(axis=(1, 3))
        tiles.append(tile_img)
    atlas = np.concatenate(tiles, axis=1)
    out = np.zeros((tile, 4 * tile, 4), dtype=np.uint8)
    out[..., 0] = np.round(atlas[..., 0] * 255)
    out[..., 1] = np.round(atlas[..., 1] * 255)
    out[..., 3] = 255
    return out
