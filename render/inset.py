"""The off-the-box insets: small pictures of the dice lying on the table outside the box.

A die knocked out of the box used to make the camera zoom the whole table out until the box
was a fifth of the window. Now the main view keeps the box framed and the window draws a
second, small viewport (:func:`inset_rect`, at the window's edge on the die's side, clear of
the HUD's panels and, where it can be, of the box) seen from
above those dice (:func:`inset_camera`), framed in the first die's colour and captioned
"<colour> · off the box" (or with what the die's own label says: a label over a die off the
box is not drawn over the main view, the caption carries it). Dice knocked far apart get an
inset each (:func:`groups`), so every die off the box is seen. Nothing is drawn — and nothing
costs — while no die is outside.
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
#: The share of the inset that may lie over the box's bounding box without counting.
BOX_SLACK = 0.12
#: Window margin (px) round the inset.
MARGIN = 12
#: Dice this far (m, across the table) from the one nearest the box are framed with it; a die
#: further away would make each a dot (:func:`framed`).
GROUP_REACH = 0.12
#: At most this many insets (:func:`groups`); dice knocked apart in more directions than that
#: share the last one.
MAX_INSETS = 3


def on_table(table: TableSpec, point) -> bool:
    """The board point ``(x, y, z)`` m lies on the table outside the box's outer walls (up to
    :data:`ON_TABLE_BELOW` over it)."""
    ox, oy = box_mesh.outer_half(table.box)
    x, y, z = (float(v) for v in point)
    return (abs(x) > ox or abs(y) > oy) and z < box_mesh.table_z(table.box) + ON_TABLE_BELOW


def off_box(table: TableSpec, dice: Sequence[tuple[str, Pose]]) -> list[tuple[str, Pose]]:
    """The dice lying on the table outside the box (owner, pose)."""
    return [(owner, pose) for owner, pose in dice if on_table(table, pose.position)]


def framed(dice: Sequence[tuple[str, Pose]]) -> list[tuple[str, Pose]]:
    """The dice of ``dice`` the inset frames: the one nearest the box and those within
    :data:`GROUP_REACH` of it. Dice knocked far apart (a second playtest: two dice 0.7 m apart
    showed as 1–2 px dots) are not all framed — the nearest is shown large enough to read, and
    the caption still names every die off the box."""
    nearest = min(dice, key=lambda d: math.hypot(d[1].position[0], d[1].position[1]))
    x0, y0 = nearest[1].position[0], nearest[1].position[1]
    return [d for d in dice if math.hypot(d[1].position[0] - x0, d[1].position[1] - y0) <= GROUP_REACH]


def groups(dice: Sequence[tuple[str, Pose]]) -> list[list[tuple[str, Pose]]]:
    """The dice off the box ``dice`` as the insets show them, one group an inset, nearest the
    box first: :func:`framed` of them, then :func:`framed` of the rest, and so on — each die
    large enough to read. A die knocked far from the others used to be only named in the
    caption ("white further off", and not seen); the groups beyond :data:`MAX_INSETS` share the
    last inset."""
    rest = list(dice)
    out: list[list[tuple[str, Pose]]] = []
    while rest and len(out) < MAX_INSETS - 1:
        group = framed(rest)
        out.append(group)
        rest = [d for d in rest if d not in group]
    return out + [rest] if rest else out


def inset_camera(dice: Sequence[tuple[str, Pose]], yaw: float = 0.0) -> Camera:
    """A camera looking down steeply (70°) at the dice ``dice`` (one of :func:`groups`), near
    enough that a die fills about a sixth of the inset's height and far enough that every one
    is in it; turned like the main view (``yaw``) so left and right agree with it."""
    pts = np.array([pose.position for _, pose in dice], dtype=float)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    cam = Camera()
    cam.target = (lo + hi) / 2
    cam.yaw = yaw
    cam.pitch = math.radians(70)
    spread = float(np.max(hi[:2] - lo[:2])) / 2 + 0.03
    cam.distance = float(np.clip(spread / math.tan(cam.fov / 2) * 1.15, 0.12, 1.2))
    return cam


def inset_rect(
    width: int, height: int, panels: Sequence[Rect], avoid: Sequence[Rect] = (), left_first: bool = False
) -> Rect:
    """Where the inset goes in a ``width`` × ``height`` window (px, bottom-left origin): of the
    spots at the middle, lower and upper left and right edges (the die's own side first,
    ``left_first``), the first that overlaps none of ``panels`` (the HUD's) and, of those,
    least of ``avoid`` (the box as the main view shows it; up to :data:`BOX_SLACK` of the
    inset counts as none)."""
    h = max(MIN_HEIGHT, round(height * HEIGHT_FRACTION))
    w = round(h * ASPECT)
    # the top corners last: the scoreboard and the last throw's panel are there while a game
    # runs, but at its end the standings stand for the scoreboard and the top left is free
    # (eighth playtest: at 800 × 500 the inset then lay over the box's near-left corner, card A)
    mid, high = (height - h) / 2, height - MARGIN - h
    low = min(height * 0.12, mid - h - MARGIN / 2)  # clear of the middle one: two insets, one over the other
    right = [Rect(width - MARGIN - w, y, width - MARGIN, y + h) for y in (mid, low, high)]
    left = [Rect(MARGIN, y, MARGIN + w, y + h) for y in (mid, low, high)]
    spots = left + right if left_first else right + left

    def cost(r: Rect) -> tuple[float, float, int]:
        hidden = sum(r.overlap(a) for a in avoid)
        return (
            sum(r.overlap(p) for p in panels),
            hidden if hidden > BOX_SLACK * w * h else 0.0,
            spots.index(r),
        )

    return min(spots, key=cost)


def in_screen_order(rects: Sequence[Rect], ys: Sequence[float]) -> list[Rect]:
    """The insets ``rects`` dealt out again so that on each side of the window they stand in the
    order their dice do in the main view (``ys``: each inset's dice's height there, px up): a
    die knocked towards the near side of the table gets the lower of two insets."""
    out = list(rects)
    for x0 in {r.x0 for r in rects}:
        side = [i for i, r in enumerate(rects) if r.x0 == x0]
        spots = sorted((rects[i] for i in side), key=lambda r: r.y0)
        for i, spot in zip(sorted(side, key=lambda i: ys[i]), spots):
            out[i] = spot
    return out


def caption(owners: Sequence[str], texts: Sequence[str] = ()) -> str:
    """An inset's caption: its dice's colours and what the labels over them say (they are not
    drawn over the main view), e.g. ``"green · off the box: back to hand"``; without a label
    ``"green, red · off the box"``. Every die named is in the picture (a fourth playtest read
    "blue, white" over a picture of the blue die alone: the white die now has an inset of its
    own)."""
    said = list(dict.fromkeys(texts)) or ["off the box"]
    return f"{', '.join(owners)} · {' · '.join(said)}"


__all__ = [
    "MAX_INSETS",
    "caption",
    "framed",
    "groups",
    "in_screen_order",
    "inset_camera",
    "inset_rect",
    "off_box",
    "on_table",
]
