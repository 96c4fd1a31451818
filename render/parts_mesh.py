"""Smaller parts: the spinner (triangle on a pin), the bet cards, markers and shadow quads."""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import Polygon

from render.box_mesh import outer_half
from render.mesh import Mesh, cylinder, extrude, flat_mesh, merge
from rules.doppelx.board import SpinnerMount
from rules.doppelx.box import BoxSpec

#: Texture axes (u, v) of a card's legs at each corner; u × v = +z so no print is mirrored.
CARD_AXES = {
    "SW": ((1, 0), (0, 1)),
    "SE": ((0, 1), (-1, 0)),
    "NE": ((-1, 0), (0, -1)),
    "NW": ((0, -1), (1, 0)),
}


def spinner_blade(spinner: SpinnerMount, tip_round: float = 0.001) -> Mesh:
    """The spinner's triangle around its own pin axis (origin), one tip along +y."""
    ang = np.radians([90.0, 210.0, 330.0])
    tri = Polygon(np.c_[np.cos(ang), np.sin(ang)] * spinner.arm_length)
    tri = tri.buffer(-tip_round, join_style="mitre").buffer(tip_round, quad_segs=4)
    return extrude(tri, spinner.height - spinner.thickness, spinner.height)


def spinner_pin(spinner: SpinnerMount) -> Mesh:
    """The pin the spinner turns on, with a cap above the blade (at the mount's centre)."""
    cx, cy = spinner.center
    r = spinner.pin_radius
    return merge(
        [
            cylinder(cx, cy, r, 0.0, spinner.height + 0.0015, 24),
            cylinder(cx, cy, r * 1.45, spinner.height, spinner.height + 0.003, 24),
        ]
    )


def card_corner(box: BoxSpec, corner: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Right-angle vertex (outer box corner) and the two unit leg directions of a card."""
    ox, oy = outer_half(box)
    sx = -1 if corner[1] == "W" else 1
    sy = -1 if corner[0] == "S" else 1
    u, v = (np.asarray(a, dtype=float) for a in CARD_AXES[corner])
    return np.array([sx * ox, sy * oy]), u, v


def card_polygon(box: BoxSpec, corner: str) -> Polygon:
    """The card's outline seen from above (m)."""
    a, u, v = card_corner(box, corner)
    leg = box.bet_card_leg
    return Polygon([a, a + u * leg, a + v * leg])


def card(box: BoxSpec, corner: str, tile: int, tiles: int) -> Mesh:
    """A bet card lying on the rim over ``corner``; its top maps tile ``tile`` of ``tiles``."""
    a, u, v = card_corner(box, corner)
    leg = box.bet_card_leg
    z0, z1 = box.rim_z, box.rim_z + box.bet_card_thickness

    def uv_of(xy: np.ndarray) -> np.ndarray:
        d = xy - a
        return np.c_[(tile + np.clip(d @ u / leg, 0, 1)) / tiles, np.clip(d @ v / leg, 0, 1)]

    body = extrude(card_polygon(box, corner), z0, z1)
    top = flat_mesh(card_polygon(box, corner), z1 + 1e-5, uv_of=uv_of)
    # edges and bottom show the accent border: the texel next to the right angle
    body = Mesh.build(
        body.positions,
        body.normals,
        np.tile([(tile + 0.02) / tiles, 0.02], (len(body.positions), 1)),
        body.indices,
    )
    return merge([body, top])


def disc(radius: float, segments: int = 40) -> Mesh:
    """A flat disc at the origin facing up; u, v span [0, 1] across it."""
    ang = np.linspace(0, 2 * np.pi, segments, endpoint=False)
    rim = np.c_[np.cos(ang), np.sin(ang)] * radius
    pos = np.r_[[(0.0, 0.0, 0.0)], np.c_[rim, np.zeros(segments)]]
    uv = np.r_[[(0.5, 0.5)], rim / (2 * radius) + 0.5]
    i = np.arange(segments)
    idx = np.c_[np.zeros(segments, int), 1 + i, 1 + (i + 1) % segments]
    return Mesh.build(pos, [(0.0, 0.0, 1.0)], uv, idx)


def unit_quad() -> Mesh:
    """The square [-1, 1]² at z = 0 facing up, u, v in [0, 1] (for shadow blobs)."""
    pos = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    return Mesh.build(pos, [(0.0, 0.0, 1.0)], [(0, 0), (1, 0), (1, 1), (0, 1)], [0, 1, 2, 0, 2, 3])


def arrow(length: float = 1.0, width: float = 0.1, head: float = 0.3) -> Mesh:
    """A flat arrow along +x from the origin, ``length`` long (head included)."""
    w, hl = width / 2, head * length
    body = length - hl
    pts = [(0, -w), (body, -w), (body, -2.2 * w), (length, 0), (body, 2.2 * w), (body, w), (0, w)]
    return flat_mesh(Polygon(pts), 0.0)


def ring(inner: float, outer: float, segments: int = 40) -> Mesh:
    """A flat ring (annulus) at the origin facing up."""
    outer_p = Polygon(
        np.c_[
            np.cos(np.linspace(0, 2 * math.pi, segments, endpoint=False)),
            np.sin(np.linspace(0, 2 * math.pi, segments, endpoint=False)),
        ]
        * outer
    )
    inner_p = Polygon(np.asarray(outer_p.exterior.coords) * inner / outer)
    return flat_mesh(outer_p.difference(inner_p), 0.0)
