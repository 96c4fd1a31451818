"""Physical sense of dice said to rest on the playfield: on it, resting on something, apart.

A state file or a save may claim any pose; :func:`check_resting` refuses what no table
could show, with the element named:

- the centre must lie over the playfield (inside the board outline); coordinates that
  fit only when read as millimetres get a hint that the unit is the metre;
- the die seen from above must lie inside the box: at most :data:`WALL_TOLERANCE` of it
  in the box's inner walls (the insert fills the box, so a board smaller than it is
  still floor);
- (a throw's outcome only, ``lean``) a die tilted more than :data:`FREE_TILT_DEG` must have
  something to lean on within :data:`LEAN_REACH`: another die, a wall, a hole's rim, an
  obstacle or the spinner;
- the centre must not hang over the middle of a hole (nothing would hold the die there)
  unless the die rests above the playfield on other dice;
- the die may not sink into the playfield (its lowest corner at most
  :data:`SINK_TOLERANCE` below it, unless it leans into a hole), nor float above
  everything it could rest on (the playfield, an obstacle, the spinner, another die);
- no two dice may overlap: boxes inside each rounded die (the three slabs through its
  faces and its core grown by the cube inscribed in the edge sphere, each less
  :data:`OVERLAP_TOLERANCE`, :func:`inside_boxes`) are disjoint by the separating-axis test.

Tolerances cover what the physics engine leaves after running to rest (contacts a
fraction of a millimetre deep), so every outcome of a real throw passes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point

from rules.board import BoardSide
from rules.box import BoxSpec, load_box
from rules.dice import DiceSet
from rules.errors import SpecError
from rules.outcome import Pose

#: How deep a die's lowest corner may lie below the playfield (m).
SINK_TOLERANCE = 0.002
#: How far a die may reach past the playfield's edge into the wall (m): contact depth.
WALL_TOLERANCE = 0.0015
#: A die over a hole's middle lies in the hole unless its bottom is more than this (m)
#: above the playfield (then it rests on other dice): :func:`in_hole_middle`.
HOLE_TOP = 0.001


def hole_middle(shape, half: float):
    """The middle of a hole ``shape`` for a die of half edge ``half``: more than half an edge
    inside the rim, where the playfield cannot hold the die's centre."""
    return shape.buffer(-half)


def in_hole_middle(middle, position, half: float) -> bool:
    """A die resting with its centre at ``position`` lies in the hole whose :func:`hole_middle`
    is ``middle``: its centre is over that middle and its bottom less than :data:`HOLE_TOP`
    above the playfield (higher, it rests on other dice). The one test of this for the rules'
    placement check and the physics' final reading (``physics.status.Zones.status``)."""
    x, y, z = position
    return z < half + HOLE_TOP and bool(shapely.contains_xy(middle, x, y))


#: A die tilted more than this (°) must have something to lean on (a free die lies flat).
FREE_TILT_DEG = 5.0
#: How close (m) to its footprint a leaning die's support must be.
LEAN_REACH = 0.003
#: How far two dice may interpenetrate (m).
OVERLAP_TOLERANCE = 0.001
#: How far above its highest possible support a die's lowest corner may be (m).
FLOAT_TOLERANCE = 0.004


def check_resting(
    poses: Mapping[str, Pose],
    board: BoardSide,
    dice: DiceSet,
    source: str,
    where: Mapping[str, str],
    box: BoxSpec | None = None,
    lean: bool = False,
) -> None:
    """Refuse poses no resting die could have (see the module docstring).

    Args:
        poses: resting pose by die owner (board frame, m).
        where: element path by owner for the error (``dice[2]``, ``game.on_board.red``).
        box: the box the board lies in (default: the shipped box, as every command uses).
        lean: also require a tilted die to have something to lean on. Only for the dice of
            one throw's outcome (a score state), which physics has just brought to rest:
            between throws the rules take dice away (a Doppel X's X dice go home), so a die
            that leaned on one may be left tilted until the next throw moves it.

    Raises:
        SpecError: naming ``source``, the die's element and what is wrong.
    """
    outline = board.outline
    hx, hy = (v / 2 for v in (box or load_box()).inner_size)
    walls = shapely.box(-hx, -hy, hx, hy)  # the box's inner walls: the insert fills them (physics)
    supports = [0.0, *(o.height for o in board.obstacles)]
    if board.spinner is not None:
        supports.append(board.spinner.height)
    tallest_die = max((d.size for d in dice.dice.values()), default=0.0)
    top_support = max(supports) + tallest_die
    boxes = {}
    leaning: dict[str, tuple] = {}  # dice tilted more than FREE_TILT_DEG: footprint and tilt
    for owner, pose in poses.items():
        half = dice[owner].half
        x, y, z = pose.position
        el = where.get(owner, owner)
        if not shapely.contains_xy(outline.buffer(0.001), x, y):
            minx, miny, maxx, maxy = outline.bounds
            hint = ""
            if shapely.contains_xy(outline, x / 1000, y / 1000):
                hint = "; positions are in metres (if these are millimetres, divide by 1000)"
            raise SpecError(
                source,
                f"{el}.position",
                f"({x:g}, {y:g}) m is not on the playfield (x {minx:g}…{maxx:g}, y {miny:g}…{maxy:g} m)"
                f"{hint}",
            )
        rot = pose.rotation()
        footprint = _footprint(pose.position, rot, half, dice[owner].edge_radius)
        if not footprint.within(walls.buffer(WALL_TOLERANCE, join_style="mitre")):
            past = footprint.difference(walls)
            depth = max(
                (Point(px, py).distance(walls.exterior) for px, py in shapely.get_coordinates(past)),
                default=0.0,
            )
            raise SpecError(
                source,
                f"{el}.position",
                f"the die at ({x:g}, {y:g}) m reaches {depth * 1e3:.1f} mm into the box wall; "
                "a die resting there lies at least half its edge from the wall",
            )
        reach = np.abs(rot[2]) @ np.full(3, half)  # centre to lowest corner, vertically
        low = z - reach
        over_hole = None
        for h in board.holes:
            if in_hole_middle(hole_middle(h.shape, half), (x, y, z), half):
                raise SpecError(
                    source,
                    f"{el}.position",
                    f"the die's centre ({x:g}, {y:g}) m is over the middle of hole {h.id!r}: "
                    'nothing holds it there (a die in a hole has status "hole")',
                )
            if over_hole is None and h.shape.contains(Point(x, y)):
                over_hole = h.id
        if z < 0:
            raise SpecError(
                source,
                f"{el}.position",
                f"the die's centre is {-z * 1e3:.1f} mm below the playfield; "
                'a die that sank into a hole has status "hole"',
            )
        if low < -SINK_TOLERANCE and over_hole is None:
            hint = "; positions are in metres (if these are millimetres, divide by 1000)" if z > 1 else ""
            raise SpecError(
                source, f"{el}.position", f"the die is sunk {-low * 1e3:.1f} mm into the playfield{hint}"
            )
        if low > top_support + FLOAT_TOLERANCE:
            hint = "; positions are in metres (if these are millimetres, divide by 1000)" if z > 1 else ""
            raise SpecError(
                source,
                f"{el}.position",
                f"the die floats {low * 1e3:.1f} mm above the playfield, higher than anything "
                f"it could rest on ({top_support * 1e3:.1f} mm){hint}",
            )
        boxes[owner] = (
            np.asarray(pose.position, dtype=float),
            rot,
            inside_boxes(half, dice[owner].edge_radius),
        )
        tilt = math.degrees(math.acos(min(1.0, float(np.abs(rot[2]).max()))))
        if lean and tilt > FREE_TILT_DEG:
            leaning[owner] = (footprint, tilt)
    for owner, (footprint, tilt) in leaning.items():
        if not _has_support(owner, footprint, poses, board, walls, dice):
            raise SpecError(
                source,
                f"{where.get(owner, owner)}.quaternion",
                f"the die is tilted {tilt:.0f}° with nothing to lean on (no die, wall, hole, "
                "obstacle or spinner beside it); a die resting alone lies flat",
            )
    owners = list(boxes)
    for i, a in enumerate(owners):
        for b in owners[i + 1 :]:
            ca, ra, inside_a = boxes[a]
            cb, rb, inside_b = boxes[b]
            if any(_boxes_overlap((ca, ra, ea), (cb, rb, eb)) for ea in inside_a for eb in inside_b):
                raise SpecError(
                    source,
                    where.get(b, b),
                    f"the {b} die overlaps the {a} die ({where.get(a, a)}); two dice cannot share a place",
                )


def _has_support(owner: str, footprint, poses: Mapping[str, Pose], board: BoardSide, walls, dice) -> bool:
    """Something a tilted die can lean on lies within :data:`LEAN_REACH` of its footprint:
    another die, a wall, a hole's rim, an obstacle or the spinner's sweep."""
    near = footprint.buffer(LEAN_REACH)
    if not near.within(walls):
        return True
    centre = np.asarray(poses[owner].position[:2], dtype=float)
    for other, pose in poses.items():
        if other != owner:
            gap = float(np.linalg.norm(np.asarray(pose.position[:2]) - centre))
            if gap < (dice[owner].half + dice[other].half) * 1.8:
                return True
    shapes = [h.shape for h in board.holes] + [o.shape for o in board.obstacles]
    if board.spinner is not None:
        shapes.append(Point(board.spinner.center).buffer(board.spinner.arm_length))
    return any(near.intersects(shape) for shape in shapes)


def _footprint(position, rot: np.ndarray, half: float, r: float):
    """The die seen from above: its core cube's corners, projected, grown by the rounding."""
    signs = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], dtype=float)
    corners = (signs * (half - r)) @ rot.T + np.asarray(position, dtype=float)
    return MultiPoint(corners[:, :2]).convex_hull.buffer(r, quad_segs=4)


def inside_boxes(half: float, r: float) -> list[np.ndarray]:
    """Boxes (half extents along the die's axes) inside a die of half edge ``half`` rounded
    with radius ``r``, each less :data:`OVERLAP_TOLERANCE`: the three slabs through the
    faces (full depth across one axis, the flat part of the face across the others) and the
    core grown by the cube inscribed in the edge sphere (the corners). Two dice overlap if
    any box of one overlaps any of the other; dice that merely touch never do."""
    t = OVERLAP_TOLERANCE
    flat = half - r - t
    out = []
    for k in range(3):
        e = np.full(3, flat)
        e[k] = half - t
        out.append(e)
    out.append(np.full(3, half - r + r / np.sqrt(3) - t))
    return out


def _boxes_overlap(a, b) -> bool:
    """Whether two boxes ``(centre, rotation, half extents (3,))`` overlap (separating-axis test)."""
    ca, ra, ha = a
    cb, rb, hb = b
    d = cb - ca
    if np.dot(d, d) > (np.linalg.norm(ha) + np.linalg.norm(hb)) ** 2:
        return False
    axes = [ra[:, i] for i in range(3)] + [rb[:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(ra[:, i], rb[:, j])
            n = np.linalg.norm(c)
            if n > 1e-9:
                axes.append(c / n)
    for axis in axes:
        pa = float(ha @ np.abs(ra.T @ axis))
        pb = float(hb @ np.abs(rb.T @ axis))
        if abs(np.dot(d, axis)) > pa + pb:
            return False
    return True
