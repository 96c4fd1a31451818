"""The off-the-box inset: a small picture of the dice lying on the table outside the box.

A die knocked out of the box used to make the camera zoom the whole table out until the box
was a fifth of the window. Now the main view keeps the box framed and the window draws a
second, small viewport (:func:`inset_rect`, a corner clear of the HUD's panels) seen from
above those dice (:func:`inset_camera`), framed in the first die's colour and captioned
"<colour> · off the box" (or with what the die's own label says: a label over a die off the
box is not drawn over the main view, the caption carries it). Nothing is drawn — and nothing costs — while no die is outside.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from render import box_mesh
from render.camera import Camera
from render.labels import Rect
from render.snapshot import TableSpec
from rules.doppelx.outcome import Pose

#: The inset's height as a fraction of the window's (its width is :data:`ASPECT` × that).
HEIGHT_FRACTION = 0.26
ASPECT = 1.3
#: Its smallest height (px), for the 640 × 480 window.
MIN_HEIGHT = 120
#: A die counts as "on the table" below this height over the table top (m): one in flight
#: past the rim is not shown (the inset would blink in and out during a throw).
ON_TABLE_BELOW = 0.06
#: Window margin (px) round the inset.
MARGIN = 12


def on_table(table: TableSpec, point) -> bool:
    """The board point ``(x, y, z)`` m lies on the table outside the box's outer walls (up to
    :data:`ON_TABLE_BELOW` over it)."""
    ox, oy = box_mesh.outer_half(table.box)
    x, y, z = (float(v) for v in point)
    return (abs(x) > ox or abs(y) > oy) and z < box_mesh.table_z(table.box) + ON_TABLE_BELOW


def off_box(table: TableSpec, dice: Sequence[tuple[str, Pose]]) -> list[tuple[str, Pose]]:
    """The dice lying on the table outside the box (owner, pose)."""
    return [(owner, pose) for owner, pose in dice if on_table(table, pose.position)]


def inset_camera(dice: Sequence[tuple[str, Pose]], yaw: float = 0.0) -> Camera:
    """A camera looking down steeply (70°) at the dice ``dice``, near enough that a die fills
    about a sixth of the inset's height and far enough that every one of them is in it; turned
    like the main view (``yaw``) so left and right agree with it."""
    pts = np.array([pose.position for _, pose in dice], dtype=float)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    cam = Camera()
    cam.target = (lo + hi) / 2
    cam.yaw = yaw
    cam.pitch = math.radians(70)
    spread = float(np.max(hi[:2] - lo[:2])) / 2 + 0.03
    cam.distance = float(np.clip(spread / math.tan(cam.fov / 2) * 1.15, 0.12, 1.2))
    return cam


def inset_rect(width: int, height: int, panels: Sequence[Rect]) -> Rect:
    """Where the inset goes in a ``width`` × ``height`` window (px, bottom-left origin): the
    first of the right-middle, left-middle and bottom-left spots that overlaps none of
    ``panels`` (the HUD's), else the one overlapping them least."""
    h = max(MIN_HEIGHT, round(height * HEIGHT_FRACTION))
    w = round(h * ASPECT)
    mid = (height - h) / 2
    spots = [
        Rect(width - MARGIN - w, mid, width - MARGIN, mid + h),
        Rect(MARGIN, mid, MARGIN + w, mid + h),
        Rect(MARGIN, height * 0.12, MARGIN + w, height * 0.12 + h),
    ]
    return min(spots, key=lambda r: (sum(r.overlap(p) for p in panels), spots.index(r)))


def caption(owners: Sequence[str], texts: Sequence[str] = ()) -> str:
    """The inset's caption: the dice's colours and what the labels over them say (they are
    not drawn over the main view), e.g. ``"green · off the box: back to hand"``; without a
    label ``"green, red · off the box"``."""
    said = list(dict.fromkeys(texts)) or ["off the box"]
    return f"{', '.join(owners)} · {' · '.join(said)}"


__all__ = ["caption", "inset_camera", "inset_rect", "off_box", "on_table"]
