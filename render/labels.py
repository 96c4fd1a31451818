"""Placing labels on the screen so that they never overlap: candidate spots, first free one wins.

Each label belongs to an anchor point (a die, in window pixels) and has a plate size. The
labels are placed one after another (nearest the top of the window first); a label tries
spots around its anchor — above it first, then the sides, below, the diagonals, then the
same ring further out — and takes the first spot that overlaps neither a label placed
before, nor an obstacle (the dice themselves, the printed field labels, the HUD's panels),
and stays inside the window. A spot that would run past the window's edge (a die near the
edge, or outside the window altogether) is shifted inside it, and a label whose spots all
touch an obstacle also tries the spots just outside that obstacle (a panel larger than the
rings round the die); a label that still finds no free spot takes the spot with the least
overlap. A label moved away from its default spot gets a leader line from its anchor (the
caller draws it from :attr:`Placed.leader`).

This is the greedy "candidate positions" labelling of cartography (Christensen, Marks &
Shieber 1995, the simplest of the methods compared there), enough for the ≤ 9 dice of
DoppelX.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Candidate directions around the anchor, in order of preference (unit steps).
DIRECTIONS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, -1.0),
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
)
#: Distances tried, as multiples of the base gap.
RINGS: tuple[float, ...] = (1.0, 2.2, 3.6, 5.2)
#: What a spot shifted inside the window costs beyond its overlaps (px²): a free spot that
#: needs no shift is preferred, and any spot with real overlap is worse.
SHIFTED = 1.0


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box in window pixels (``x0 < x1``, ``y0 < y1``)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlap(self, other: Rect) -> float:
        """Area shared with ``other`` (px²)."""
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


@dataclass(frozen=True)
class Placed:
    """Where a label went: its plate and, if it was moved off its default spot, a leader line."""

    rect: Rect
    leader: tuple[float, float, float, float] | None


def centred(x: float, y: float, w: float, h: float) -> Rect:
    return Rect(x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def place(
    anchors: Sequence[tuple[float, float]],
    sizes: Sequence[tuple[float, float]],
    obstacles: Sequence[Rect] = (),
    bounds: Rect | None = None,
    gap: float = 22.0,
) -> list[Placed]:
    """Plates for labels of size ``sizes[i]`` (w, h px) at ``anchors[i]`` (x, y px), in input order.

    Args:
        anchors: the points the labels belong to.
        sizes: plate sizes.
        obstacles: boxes no plate may cover (dice, printed labels, panels).
        bounds: the window; plates stay inside it when they fit in it.
        gap: distance from the anchor to the first ring of spots (px).
    """
    order = sorted(range(len(anchors)), key=lambda i: (-anchors[i][1], anchors[i][0]))
    taken: list[Rect] = []
    out: dict[int, Placed] = {}
    blocked = _boxes(obstacles)  # dozens of boxes, nine labels × up to 40 spots: one array
    for i in order:
        ax, ay = anchors[i]
        w, h = sizes[i]
        placed = _boxes(taken)

        def cost(r: Rect, placed: np.ndarray = placed) -> float:
            c = _covered(r, placed) * 4 + _covered(r, blocked)
            if bounds is not None:
                c += (_area(r) - _area(_clip(r, bounds))) * 8
            return c

        best: tuple[float, Rect, bool] | None = None
        first = True
        for ring in RINGS:
            for dx, dy in DIRECTIONS:
                ox = dx * (ring * gap + (w / 2 if dx else 0.0))
                oy = dy * (ring * gap + (h / 2 if dy else 0.0))
                r = centred(ax + ox, ay + oy, w, h)
                c, default = cost(r), first
                if c > 0 and bounds is not None:  # past the edge: the same spot shifted inside
                    shifted = _inside(r, bounds)
                    if shifted != r:  # (a hair dearer than a free spot found later that needs no shift)
                        r, c, default = shifted, cost(shifted) + SHIFTED, False
                if best is None or c < best[0]:
                    best = (c, r, default)
                first = False
                if c == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        if best[0] > SHIFTED:  # still covering something: try the spots just outside what it covers
            for r in _beside(best[1], ax, ay, [*obstacles, *taken], gap / 2):
                if bounds is not None:
                    r = _inside(r, bounds)
                c = cost(r)
                if c < best[0]:
                    best = (c, r, False)
        _, rect, default = best
        taken.append(rect)
        out[i] = Placed(rect, None if default else _leader(ax, ay, rect))
    return [out[i] for i in range(len(anchors))]


def _boxes(rects: Sequence[Rect]) -> np.ndarray:
    """``rects`` as an ``(n, 4)`` array of ``x0, y0, x1, y1``."""
    return np.array([(r.x0, r.y0, r.x1, r.y1) for r in rects], dtype=float).reshape(-1, 4)


def _covered(r: Rect, boxes: np.ndarray) -> float:
    """Total area ``r`` shares with the boxes of :func:`_boxes` (px²; as :meth:`Rect.overlap` summed)."""
    if not len(boxes):
        return 0.0
    w = np.minimum(r.x1, boxes[:, 2]) - np.maximum(r.x0, boxes[:, 0])
    h = np.minimum(r.y1, boxes[:, 3]) - np.maximum(r.y0, boxes[:, 1])
    return float(np.sum(np.where((w > 0) & (h > 0), w * h, 0.0)))


def _clip(r: Rect, bounds: Rect) -> Rect:
    """The part of ``r`` inside ``bounds`` (may be empty: x0 ≥ x1 or y0 ≥ y1)."""
    return Rect(max(r.x0, bounds.x0), max(r.y0, bounds.y0), min(r.x1, bounds.x1), min(r.y1, bounds.y1))


def _inside(r: Rect, bounds: Rect) -> Rect:
    """``r`` moved the least so that it lies inside ``bounds`` (as far as it fits)."""
    dx = max(0.0, bounds.x0 - r.x0) - max(0.0, r.x1 - bounds.x1)
    dy = max(0.0, bounds.y0 - r.y0) - max(0.0, r.y1 - bounds.y1)
    if r.x1 - r.x0 > bounds.x1 - bounds.x0:
        dx = bounds.x0 - r.x0
    if r.y1 - r.y0 > bounds.y1 - bounds.y0:
        dy = bounds.y1 - r.y1
    return Rect(r.x0 + dx, r.y0 + dy, r.x1 + dx, r.y1 + dy) if dx or dy else r


def _beside(r: Rect, ax: float, ay: float, blockers: Sequence[Rect], gap: float) -> list[Rect]:
    """Spots for plate ``r`` just outside each box of ``blockers`` it overlaps, level with the anchor."""
    w, h = r.x1 - r.x0, r.y1 - r.y0
    out = []
    for b in blockers:
        if r.overlap(b) <= 0:
            continue
        out += [
            Rect(ax - w / 2, b.y1 + gap, ax + w / 2, b.y1 + gap + h),  # above it
            Rect(ax - w / 2, b.y0 - gap - h, ax + w / 2, b.y0 - gap),  # below it
            Rect(b.x1 + gap, ay - h / 2, b.x1 + gap + w, ay + h / 2),  # right of it
            Rect(b.x0 - gap - w, ay - h / 2, b.x0 - gap, ay + h / 2),  # left of it
        ]
    return sorted(out, key=lambda c: abs(c.centre[0] - ax) + abs(c.centre[1] - ay))


def _area(r: Rect) -> float:
    return max(0.0, r.x1 - r.x0) * max(0.0, r.y1 - r.y0)


def _leader(ax: float, ay: float, rect: Rect) -> tuple[float, float, float, float]:
    """A line from the anchor to the nearest point of the plate's edge."""
    x = min(max(ax, rect.x0), rect.x1)
    y = min(max(ay, rect.y0), rect.y1)
    return ax, ay, x, y


def overlaps(rects: Sequence[Rect]) -> list[tuple[int, int]]:
    """Pairs of indices of ``rects`` that overlap (for tests and checks)."""
    return [
        (i, j) for i in range(len(rects)) for j in range(i + 1, len(rects)) if rects[i].overlap(rects[j]) > 0
    ]


__all__ = ["DIRECTIONS", "Placed", "RINGS", "Rect", "centred", "overlaps", "place"]
