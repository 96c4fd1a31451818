"""The light of the scene: one key light from above the south-west, sky/ground ambient.

The key light's shadows are cheap by construction (software renderers must reach 20 fps):
static shadows of the walls and bet cards on the playfield are baked into the print
(:func:`baked_light`), moving parts cast planar shadows (:func:`planar_shadow_matrix`).
"""

from __future__ import annotations

import numpy as np

from rules.doppelx.box import BoxSpec

#: Unit vector towards the key light: high (57° elevation), from the south-west.
LIGHT_DIR = np.array([-0.38, -0.52, 1.0]) / np.linalg.norm([-0.38, -0.52, 1.0])
#: Background (the room beyond the table) and fog colour.
BACKGROUND = (0.085, 0.08, 0.075)
#: How soft shadow edges are: penumbra width per metre of distance to the occluder.
PENUMBRA = 0.05
#: Darkest a baked shadow gets (fraction of direct light left; ambient stays).
SHADOW_FLOOR = 0.0


def planar_shadow_matrix(height: float, light=LIGHT_DIR) -> np.ndarray:
    """4×4 matrix flattening points along the light onto the plane ``z = height``."""
    lx, ly, lz = light
    m = np.eye(4)
    m[0, 2], m[0, 3] = -lx / lz, lx / lz * height
    m[1, 2], m[1, 3] = -ly / lz, ly / lz * height
    m[2, 2], m[2, 3] = 0.0, height
    return m


def baked_light(box: BoxSpec, cards: list[np.ndarray], cols: int, rows: int, light=LIGHT_DIR) -> np.ndarray:
    """Direct light (0 … 1) reaching each texel of the playfield print, shape ``(rows, cols)``.

    Rows run north to south, columns west to east over the box's inner rectangle, as in
    :func:`render.board_texture.board_image`. A texel is shadowed when the ray towards the
    light leaves the box below the rim (a wall) or passes through a bet card lying on the
    rim; edges are softened in proportion to the distance to the occluder.

    Args:
        cards: each card's outline, an array (3, 2) of corner points (m).
    """
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    x = -hx + (np.arange(cols) + 0.5) / cols * 2 * hx
    y = hy - (np.arange(rows) + 0.5) / rows * 2 * hy
    px, py = np.meshgrid(x, y)
    lx, ly, lz = (float(v) for v in light)
    with np.errstate(divide="ignore"):
        tx = np.where(lx > 0, (hx - px) / lx, np.where(lx < 0, (-hx - px) / lx, np.inf))
        ty = np.where(ly > 0, (hy - py) / ly, np.where(ly < 0, (-hy - py) / ly, np.inf))
    t_exit = np.minimum(tx, ty)
    z_exit = t_exit * lz
    lit = np.clip((z_exit - box.rim_z) / (PENUMBRA * t_exit + 1e-4) + 0.5, 0.0, 1.0)
    t_rim = box.rim_z / lz
    qx, qy = px + lx * t_rim, py + ly * t_rim
    width = PENUMBRA * t_rim + 1e-4
    for tri in cards:
        d = _convex_signed_distance(np.asarray(tri, dtype=float), qx, qy)
        lit = np.minimum(lit, np.clip(d / width + 0.5, 0.0, 1.0))
    return np.maximum(lit, SHADOW_FLOOR)


def _convex_signed_distance(poly: np.ndarray, qx: np.ndarray, qy: np.ndarray) -> np.ndarray:
    """Approximate signed distance (m, > 0 outside) of points to a convex polygon."""
    pts = poly if _ccw(poly) else poly[::-1]
    d = np.full(qx.shape, -np.inf)
    for a, b in zip(pts, np.roll(pts, -1, axis=0)):
        e = b - a
        n = np.array([e[1], -e[0]]) / np.linalg.norm(e)  # outward normal of a CCW edge
        d = np.maximum(d, (qx - a[0]) * n[0] + (qy - a[1]) * n[1])
    return d


def _ccw(poly: np.ndarray) -> bool:
    x, y = poly[:, 0], poly[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0
