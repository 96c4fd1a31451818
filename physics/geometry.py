"""The collision layout of the tray: which static boxes and hulls stand where (no pybullet).

Bullet's fastest contact path is box against box, so the static world is built from
boxes wherever the real shape allows it (see ``docs/physics.md``):

* box floor, four walls up to the rim, and a table top around the box: one box each;
* the insert carrying the playfield: the rectangle inside the walls minus the holes. Each
  hole gets a square *cell* around it; the insert outside the cells is cut into a few
  axis-aligned boxes (exact). Inside a cell, a convex hole is framed by one box per hole
  edge: the box's inner face lies on the edge's line and the box covers the part of the
  cell beyond that line, so the frame never reaches into the hole and the boxes may
  overlap each other (overlapping static boxes are harmless). Square holes are thus
  exact; a round hole becomes the regular ``segments``-gon of the same area. A non-convex
  hole, or one whose frame would reach into a neighbouring hole, falls back to triangular
  prisms (hulls) for its cell;
* obstacles: a box if the footprint is a rectangle, else a prism hull (convex) or
  triangular prisms (non-convex);
* bet cards: triangular prism hulls lying on the rim over the four top corners;
* the spinner: a static pin and a triangular prism that turns about it.

All lengths in metres in the board frame (z up, playfield top at z = 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry import box as rect

from rules.common.vec import dot, matmul, norm
from rules.doppelx.board import BoardSide
from rules.doppelx.box import GROUND_DROP, GROUND_HALF, TABLE_HALF, TABLE_THICKNESS, BoxSpec

#: Material names a static or moving part can carry (see :mod:`physics.materials`).
CARDBOARD, TABLE, SPINNER = "cardboard", "table", "spinner"
#: Gap between the top of the pin and the underside of the spinner triangle (m).
PIN_GAP = 0.001
_AREA_TOL = 1e-10


@dataclass(frozen=True)
class BoxPiece:
    """A static box: half extents (3,) m, centre (3,) m, turned by ``yaw`` rad about z."""

    name: str
    half_extents: tuple[float, float, float]
    position: tuple[float, float, float]
    yaw: float = 0.0
    material: str = CARDBOARD

    def footprint(self) -> Polygon:
        """The box seen from above (m)."""
        hx, hy = self.half_extents[0], self.half_extents[1]
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        pts = [
            (self.position[0] + c * x - s * y, self.position[1] + s * x + c * y)
            for x, y in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy))
        ]
        return Polygon(pts)

    @property
    def quaternion(self) -> tuple[float, float, float, float]:
        """Orientation ``(x, y, z, w)``."""
        return (0.0, 0.0, math.sin(self.yaw / 2), math.cos(self.yaw / 2))


@dataclass(frozen=True)
class HullPiece:
    """A static convex hull: vertices (n, 3) m in its own frame, placed at ``position``, turned by ``yaw``."""

    name: str
    vertices: tuple[tuple[float, float, float], ...]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    yaw: float = 0.0
    material: str = CARDBOARD

    @classmethod
    def around(cls, name: str, world_vertices, material: str = CARDBOARD) -> HullPiece:
        """A hull from vertices in the board frame, with its frame at their centre."""
        v = np.asarray(world_vertices, dtype=float)
        c = v.mean(axis=0)
        return cls(
            name,
            tuple(_point(row) for row in v - c),
            _point(c),
            0.0,
            material,
        )

    def world_vertices(self) -> np.ndarray:
        """Vertices (n, 3) in the board frame."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        return matmul(np.asarray(self.vertices), rot.T) + np.asarray(self.position)

    def footprint(self) -> Polygon:
        """The hull seen from above (m)."""
        return shapely.MultiPoint(self.world_vertices()[:, :2]).convex_hull

    @property
    def quaternion(self) -> tuple[float, float, float, float]:
        """Orientation ``(x, y, z, w)``."""
        return (0.0, 0.0, math.sin(self.yaw / 2), math.cos(self.yaw / 2))


@dataclass(frozen=True)
class SpinnerGeometry:
    """The spinner: pin axis at ``center`` (x, y) m; triangle prism between ``z_low`` and ``z_high``.

    ``vertices`` (6, 3) are in the spinner's own frame (origin on the pin axis at
    ``z_low``, angle 0 = a tip pointing along +y); ``mass`` kg and ``inertia`` (3,) kg m²
    about its centroid (an equilateral plate: ``m a²/12`` about the pin, ``m a²/24`` in plane).
    """

    center: tuple[float, float]
    z_low: float
    z_high: float
    arm_length: float
    vertices: tuple[tuple[float, float, float], ...]
    mass: float
    inertia: tuple[float, float, float]
    pin: BoxPiece | None = None
    pin_radius: float = 0.0


@dataclass(frozen=True)
class Layout:
    """Everything static (and the spinner) of one board in one box."""

    boxes: tuple[BoxPiece, ...]
    hulls: tuple[HullPiece, ...]
    spinner: SpinnerGeometry | None
    #: The hole openings as the physics sees them (polygons, m), by hole id.
    openings: dict[str, Polygon] = field(default_factory=dict)


def build_layout(
    board: BoardSide,
    box: BoxSpec,
    *,
    hole_segments: int = 16,
    hole_margin: float = 0.004,
    spinner_density: float = 700.0,
    spinner: bool = True,
) -> Layout:
    """The collision layout of ``board`` in ``box``.

    Args:
        board: the playfield side (holes, obstacles, spinner mount).
        box: the box spec.
        hole_segments: sides of the polygon standing in for a round hole (area-equal).
        hole_margin: how far a hole's cell reaches beyond the hole (m).
        spinner_density: density of the spinner card (kg/m³) for its mass.
        spinner: build the spinner where the board has a mount (it is optional, D39).
    """
    box.check_board(board)
    boxes: list[BoxPiece] = []
    hulls: list[HullPiece] = []
    boxes += _shell(box)
    openings = {h.id: hole_opening(h, hole_segments) for h in board.holes}
    ins_boxes, ins_hulls = _insert(box, openings, hole_margin)
    boxes += ins_boxes
    hulls += ins_hulls
    for ob in board.obstacles:
        b, h = _prism_pieces(f"obstacle:{ob.id}", ob.shape, 0.0, ob.height)
        boxes += b
        hulls += h
    hulls += _bet_cards(box)
    spinner_geo = _spinner(board, spinner_density) if spinner else None
    return Layout(tuple(boxes), tuple(hulls), spinner_geo, openings)


def hole_opening(hole, segments: int) -> Polygon:
    """The opening the physics cuts for ``hole``: exact polygon, or an area-equal ``segments``-gon."""
    if hole.circle is None:
        return shapely.normalize(hole.shape)
    cx, cy, r = hole.circle
    apothem = r * math.sqrt(math.pi / (segments * math.tan(math.pi / segments)))
    rv = apothem / math.cos(math.pi / segments)
    # vertices between the edge normals at angles 2πk/n, so one edge faces +x
    pts = [
        (
            cx + rv * math.cos(2 * math.pi * (k + 0.5) / segments),
            cy + rv * math.sin(2 * math.pi * (k + 0.5) / segments),
        )
        for k in range(segments)
    ]
    return shapely.normalize(Polygon(pts))


def _shell(box: BoxSpec) -> list[BoxPiece]:
    """Box floor, walls to the rim, the table top under the box and the room's floor under the table."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    t = box.wall_thickness
    floor_z, rim_z = box.floor_z, box.rim_z
    wall_h = (rim_z - (floor_z - t)) / 2
    wall_z = (rim_z + floor_z - t) / 2
    pieces = [
        BoxPiece("floor", (hx + t, hy + t, t / 2), (0.0, 0.0, floor_z - t / 2)),
        BoxPiece("wall:E", (t / 2, hy + t, wall_h), (hx + t / 2, 0.0, wall_z)),
        BoxPiece("wall:W", (t / 2, hy + t, wall_h), (-hx - t / 2, 0.0, wall_z)),
        BoxPiece("wall:N", (hx + t, t / 2, wall_h), (0.0, hy + t / 2, wall_z)),
        BoxPiece("wall:S", (hx + t, t / 2, wall_h), (0.0, -hy - t / 2, wall_z)),
        BoxPiece(
            "table",
            (TABLE_HALF, TABLE_HALF, TABLE_THICKNESS / 2),
            (0.0, 0.0, floor_z - t - TABLE_THICKNESS / 2),
            material=TABLE,
        ),
        BoxPiece(
            "table:ground",
            (GROUND_HALF, GROUND_HALF, TABLE_THICKNESS / 2),
            (0.0, 0.0, floor_z - t - GROUND_DROP - TABLE_THICKNESS / 2),
            material=TABLE,
        ),
    ]
    return pieces


def _insert(
    box: BoxSpec, openings: dict[str, Polygon], margin: float
) -> tuple[list[BoxPiece], list[HullPiece]]:
    """The insert slab (z from ``-insert_thickness`` to 0) with its holes cut out."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    inner = rect(-hx, -hy, hx, hy)
    z0, z1 = -box.insert_thickness, 0.0
    cells = _cells(openings, inner, margin)
    boxes: list[BoxPiece] = []
    hulls: list[HullPiece] = []
    for k, (x0, y0, x1, y1) in enumerate(_rectangles(inner.bounds, list(cells.values()))):
        boxes.append(
            BoxPiece(
                f"insert:{k}",
                ((x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2),
                ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2),
            )
        )
    others_all = shapely.union_all(list(openings.values())) if openings else Polygon()
    limit = inner.buffer(box.wall_thickness, join_style="mitre")
    shared = {c for c in cells.values() if list(cells.values()).count(c) > 1}
    for hid, opening in openings.items():
        cell = rect(*cells[hid])
        others = others_all.difference(opening.buffer(1e-9))
        # a frame covers its cell minus one opening: a cell shared by merged holes needs prisms
        frame = None if cells[hid] in shared else _frame(f"hole:{hid}", opening, cell, z0, z1)
        ok = frame is not None and all(
            others.intersection(p.footprint()).area < _AREA_TOL and p.footprint().within(limit) for p in frame
        )
        if ok:
            assert frame is not None  # ok above
            boxes += frame
        else:
            region = cell.difference(others_all)
            hulls += _triangle_prisms(f"hole:{hid}", region, z0, z1)
    return boxes, hulls


def _cells(openings: dict[str, Polygon], inner: Polygon, margin: float) -> dict[str, tuple]:
    """A square-ish cell (bounds) around each hole, clipped to the inside of the box.

    Cells must not overlap; cells that would are merged (their holes then share one cell
    of triangle prisms). (Shrinking them to the holes' own bounds instead left frames with
    zero-width pieces that lost slivers of the insert.)
    """
    ix0, iy0, ix1, iy1 = inner.bounds

    def cell(poly: Polygon, m: float) -> tuple:
        # snapped to 1 µm: cells that meet must meet exactly, not an ulp apart
        x0, y0, x1, y1 = poly.bounds
        return tuple(
            round(v, 6) for v in (max(ix0, x0 - m), max(iy0, y0 - m), min(ix1, x1 + m), min(iy1, y1 + m))
        )

    cells = {hid: cell(p, margin) for hid, p in openings.items()}
    changed = True
    while changed:  # merge cells that still overlap into their common bounds
        changed = False
        ids = list(cells)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if cells[a] != cells[b] and _overlap(cells[a], cells[b]):
                    u = (
                        min(cells[a][0], cells[b][0]),
                        min(cells[a][1], cells[b][1]),
                        max(cells[a][2], cells[b][2]),
                        max(cells[a][3], cells[b][3]),
                    )
                    for k in ids:
                        if cells[k] in (cells[a], cells[b]):
                            cells[k] = u
                    changed = True
    return cells


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _rectangles(bounds: tuple, cells: list[tuple]) -> list[tuple[float, float, float, float]]:
    """Cover the rectangle ``bounds`` minus the ``cells`` with few axis-aligned rectangles (exact)."""
    x0, y0, x1, y1 = bounds
    xs = sorted({x0, x1, *(c[0] for c in cells), *(c[2] for c in cells)})
    ys = sorted({y0, y1, *(c[1] for c in cells), *(c[3] for c in cells)})
    xs = [x for x in xs if x0 <= x <= x1]
    ys = [y for y in ys if y0 <= y <= y1]
    filled = _filled_grid(xs, ys, cells)
    # runs per row, then stack identical runs of consecutive rows
    runs: dict[tuple[int, int], int] = {}  # (i0, i1) -> row where the open rectangle started
    out: list[tuple[float, float, float, float]] = []
    ny = len(ys) - 1
    for j in range(ny + 1):
        row = _row_runs(filled[j]) if j < ny else set()
        for run in sorted(set(runs) - row):
            out.append((xs[run[0]], ys[runs[run]], xs[run[1] + 1], ys[j]))
            del runs[run]
        for run in sorted(row - set(runs)):
            runs[run] = j
    return out


def _filled_grid(xs: list[float], ys: list[float], cells: list[tuple]) -> np.ndarray:
    """(len(ys) - 1, len(xs) - 1): the grid's cells between ``xs`` and ``ys`` that no ``cells`` rectangle covers."""
    nx, ny = len(xs) - 1, len(ys) - 1
    filled = np.ones((ny, nx), dtype=bool)
    for c in set(cells):
        for j in range(ny):
            for i in range(nx):
                mx, my = (xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2
                if c[0] < mx < c[2] and c[1] < my < c[3]:
                    filled[j, i] = False
    return filled


def _row_runs(row: np.ndarray) -> set[tuple[int, int]]:
    """The runs ``(first, last)`` of filled cells in one ``row`` of the grid."""
    runs: set[tuple[int, int]] = set()
    i, nx = 0, len(row)
    while i < nx:
        if row[i]:
            k = i
            while k + 1 < nx and row[k + 1]:
                k += 1
            runs.add((i, k))
            i = k + 1
        else:
            i += 1
    return runs


def _frame(prefix: str, opening: Polygon, cell: Polygon, z0: float, z1: float) -> list[BoxPiece] | None:
    """One box per edge of a convex ``opening``, together covering ``cell`` minus the opening."""
    if not opening.equals(opening.convex_hull):
        return None
    pts = np.asarray(shapely.normalize(opening).exterior.coords)[:-1]
    if shapely.Polygon(pts).exterior.is_ccw is False:
        pts = pts[::-1]
    pieces = []
    n = len(pts)
    hz = (z1 - z0) / 2
    for k in range(n):
        a, b = pts[k], pts[(k + 1) % n]
        t = (b - a) / norm(b - a)
        normal = np.array([t[1], -t[0]])  # outward for a counter-clockwise ring
        offset = dot(normal, a)
        half_plane = _half_plane(normal, offset, cell)
        region = cell.intersection(half_plane)
        if region.is_empty or region.area < _AREA_TOL:
            continue
        rp = np.asarray(region.exterior.coords)[:-1]
        u, v = matmul(rp, normal), matmul(rp, t)
        u0, u1, v0, v1 = offset, float(u.max()), float(v.min()), float(v.max())
        if u1 - u0 < 1e-6:
            continue
        cu, cv = (u0 + u1) / 2, (v0 + v1) / 2
        centre = cu * normal + cv * t
        pieces.append(
            BoxPiece(
                f"{prefix}:{k}",
                ((u1 - u0) / 2, (v1 - v0) / 2, hz),
                (float(centre[0]), float(centre[1]), (z0 + z1) / 2),
                math.atan2(normal[1], normal[0]),
            )
        )
    return pieces


def _half_plane(normal: np.ndarray, offset: float, around: Polygon) -> Polygon:
    """The half-plane ``{p : p·normal >= offset}`` clipped to a big square around ``around``."""
    x0, y0, x1, y1 = around.bounds
    big = 4 * max(x1 - x0, y1 - y0) + 1.0
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    t = np.array([-normal[1], normal[0]])
    base = c + (offset - dot(c, normal)) * normal
    return Polygon(
        [base - big * t, base + big * t, base + big * t + big * normal, base - big * t + big * normal]
    )


def _triangle_prisms(prefix: str, region, z0: float, z1: float) -> list[HullPiece]:
    """Triangular prism hulls tiling ``region`` (any polygon) between heights z0 and z1."""
    tris = shapely.constrained_delaunay_triangles(region) if not region.is_empty else None
    out: list[HullPiece] = []
    if tris is None:
        return out
    for k, tri in enumerate(tris.geoms):
        if tri.area <= 0.0 or not region.buffer(1e-9).contains(tri.representative_point()):
            continue
        xy = list(tri.exterior.coords)[:-1]
        out.append(HullPiece.around(f"{prefix}:t{k}", [(x, y, z) for z in (z0, z1) for x, y in xy]))
    return out


def _prism_pieces(
    prefix: str, shape: Polygon, z0: float, z1: float
) -> tuple[list[BoxPiece], list[HullPiece]]:
    """A vertical prism over ``shape``: one box if a rectangle, else hull(s)."""
    mrr = shape.minimum_rotated_rectangle
    if abs(mrr.area - shape.area) <= 1e-9 * max(shape.area, 1e-12) + _AREA_TOL:
        pts = np.asarray(mrr.exterior.coords)[:4]
        e1, e2 = pts[1] - pts[0], pts[2] - pts[1]
        c = pts.mean(axis=0)
        return [
            BoxPiece(
                prefix,
                (norm(e1) / 2, norm(e2) / 2, (z1 - z0) / 2),
                (float(c[0]), float(c[1]), (z0 + z1) / 2),
                math.atan2(e1[1], e1[0]),
            )
        ], []
    if shape.equals(shape.convex_hull):
        xy = list(shapely.normalize(shape).exterior.coords)[:-1]
        return [], [HullPiece.around(prefix, [(x, y, z) for z in (z0, z1) for x, y in xy])]
    return [], _triangle_prisms(prefix, shape, z0, z1)


def _bet_cards(box: BoxSpec) -> list[HullPiece]:
    """Four triangular cards lying on the rim; the right angle sits on the outer corner.

    All four share one shape (legs along +x and +y from the right angle, in the card's
    frame) turned by 0°, 90°, 180°, 270° for the SW, SE, NE, NW corners.
    """
    t, leg = box.wall_thickness, box.bet_card_leg
    z0, z1 = box.rim_z, box.rim_z + box.bet_card_thickness
    tri = np.array([(0.0, 0.0), (leg, 0.0), (0.0, leg)])
    centroid = tri.mean(axis=0)
    local = tuple((float(x), float(y), z - (z0 + z1) / 2) for z in (z0, z1) for x, y in tri - centroid)
    out = []
    for k, corner in enumerate(("SW", "SE", "NE", "NW")):
        cx, cy = box.corner_xy(corner)
        ox, oy = cx + math.copysign(t, cx), cy + math.copysign(t, cy)
        yaw = k * math.pi / 2
        c, s = math.cos(yaw), math.sin(yaw)
        px, py = ox + c * centroid[0] - s * centroid[1], oy + s * centroid[0] + c * centroid[1]
        out.append(HullPiece(f"bet_card:{corner}", local, (float(px), float(py), (z0 + z1) / 2), yaw))
    return out


def _spinner(board: BoardSide, density: float) -> SpinnerGeometry | None:
    m = board.spinner
    if m is None:
        return None
    z_high = m.height
    z_low = m.height - m.thickness
    arm = m.arm_length
    tips = [
        (arm * math.cos(math.pi / 2 + 2 * math.pi * k / 3), arm * math.sin(math.pi / 2 + 2 * math.pi * k / 3))
        for k in range(3)
    ]
    verts = tuple((x, y, z) for z in (0.0, m.thickness) for x, y in tips)
    side = arm * math.sqrt(3)
    mass = density * (math.sqrt(3) / 4 * side**2) * m.thickness
    i_z = mass * side**2 / 12
    i_xy = mass * side**2 / 24 + mass * m.thickness**2 / 12
    pin_h = max(z_low - PIN_GAP, 1e-4)
    pin = BoxPiece(
        "spinner:pin", (m.pin_radius, m.pin_radius, pin_h / 2), (m.center[0], m.center[1], pin_h / 2)
    )
    return SpinnerGeometry(m.center, z_low, z_high, arm, verts, mass, (i_xy, i_xy, i_z), pin, m.pin_radius)


def _point(values) -> tuple[float, float, float]:
    x, y, z = (float(a) for a in values)
    return (x, y, z)
