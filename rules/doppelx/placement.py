"""Physical sense of dice said to rest on the playfield: on it, resting on something, apart.

A state file or a save may claim any pose; :func:`check_resting` refuses what no table
could show, with the element named:

- the centre must lie over the playfield (inside the board outline, :data:`OUTLINE_TOLERANCE`;
  :func:`on_playfield`, the same test the physics' final reading uses: a die that came to
  rest in the box beside a smaller board is ``off``); coordinates that fit only when read as
  millimetres get a hint that the unit is the metre;
- the die seen from above must lie inside the box: at most :data:`WALL_TOLERANCE` of it
  in the box's inner walls (the insert fills the box, so a board smaller than it is
  still floor);
- the die may not cut into anything solid: an obstacle, the spinner's pin or the middle of
  its card (the card turns, but always covers the circle of half its arm around the pin),
  by more than :data:`OVERLAP_TOLERANCE`;
- the centre must not hang over the middle of a hole less than :data:`HOLE_TOP` above the
  playfield (nothing would hold the die there: it is in the hole), nor lie below the
  playfield; the die may not sink into the playfield (its lowest point at most
  :data:`SINK_TOLERANCE` below it, unless it leans into a hole);
- (a throw's outcome only, ``lean``) each die rests on what is under it
  (:func:`support_under`): its lowest point is at most :data:`FLOAT_TOLERANCE` above the
  playfield where its footprint is over it, an obstacle's top or the spinner's card where
  it is over them, another die's top where it is over that die, or what a hole or the box
  beyond a smaller board may hold unlisted (dice in a hole, dice off the playfield). A die
  whose centre is over the middle of a hole and higher up must be held there by another
  die, an obstacle or the spinner (:func:`held_over_hole`; the physics reads a die that
  nothing holds there as in the hole). A die tilted more than :data:`FREE_TILT_DEG` must
  have something to lean on within :data:`LEAN_REACH`: another die, a wall, a hole's rim,
  the box beyond a smaller board, an obstacle or the spinner. Between throws (a game state,
  a save) the rules may have taken a die's support away (a Doppel X's X dice go home), so
  there a die may be left tilted or up in the air, only not higher than anything it could
  have rested on (the tallest obstacle or the spinner, plus a die);
- no two dice may overlap: boxes inside each rounded die (the three slabs through its
  faces and its core grown by the cube inscribed in the edge sphere, each less
  :data:`OVERLAP_TOLERANCE`, :func:`inside_boxes`) are disjoint by the separating-axis test.

Tolerances cover what the physics engine leaves after running to rest (contacts a
fraction of a millimetre deep), so every outcome of a real throw passes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

from rules.common.errors import SpecError
from rules.common.vec import dot, matmul, norm
from rules.doppelx.board import BoardSide, Hole
from rules.doppelx.box import BoxSpec, load_box
from rules.doppelx.dice import DiceSet, DieSpec
from rules.doppelx.outcome import Pose

#: How far (m) outside the board outline a die's centre may lie and still be on the playfield.
OUTLINE_TOLERANCE = 0.001
#: How deep a die's lowest point may lie below the playfield (m).
SINK_TOLERANCE = 0.002
#: How far a die may reach past the playfield's edge into the wall (m): contact depth.
WALL_TOLERANCE = 0.0015
#: A die over a hole's middle lies in the hole unless its bottom is more than this (m)
#: above the playfield (then it rests on other dice): :func:`in_hole_middle`.
HOLE_TOP = 0.001
#: A die tilted more than this (°) must have something to lean on (a free die lies flat).
FREE_TILT_DEG = 5.0
#: How close (m) to its footprint a leaning die's support must be.
LEAN_REACH = 0.003
#: How far two dice (or a die and an obstacle or the spinner) may interpenetrate (m).
OVERLAP_TOLERANCE = 0.001
#: How far above what is under it a die's lowest point may be (m).
FLOAT_TOLERANCE = 0.004

_MM_HINT = "; positions are in metres (if these are millimetres, divide by 1000)"


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


@dataclass(frozen=True, eq=False)
class Tray:
    """A board in its box as the checks see it (m, polygons; :func:`tray` builds it once).

    Attributes:
        board: the playfield side.
        walls: the box's inner walls (the insert fills them: floor at z = 0).
        playfield: the outline grown by :data:`OUTLINE_TOLERANCE` (where a centre may be).
        floor: the walls less the holes (the surface a die can stand on).
        beyond: the insert outside the playfield, where dice lie ``off``; ``None`` when the
            board fills the box.
        sweep: the spinner's sweep circle (its card may be anywhere in it), or ``None``.
        solids: ``(what, shape, z from, z to)`` of everything a die cannot be inside: each
            obstacle, the spinner's pin below its card and the card's middle (the circle of
            half the arm around the pin, which the triangle covers at every angle).
    """

    board: BoardSide
    walls: Polygon
    playfield: BaseGeometry
    floor: BaseGeometry
    beyond: BaseGeometry | None
    sweep: BaseGeometry | None
    solids: tuple[tuple[str, BaseGeometry, float, float], ...]


@functools.lru_cache(maxsize=32)
def tray(board: BoardSide, box: BoxSpec | None = None) -> Tray:
    """The :class:`Tray` of ``board`` in ``box`` (default: the shipped box), cached."""
    hx, hy = (v / 2 for v in (box or load_box()).inner_size)
    walls = shapely.box(-hx, -hy, hx, hy)
    playfield = board.outline.buffer(OUTLINE_TOLERANCE)
    holes = shapely.union_all([h.shape for h in board.holes]) if board.holes else None
    floor = walls.difference(holes) if holes is not None else walls
    beyond = walls.difference(board.outline)
    solids: list[tuple[str, BaseGeometry, float, float]] = [
        (f"obstacle {o.id!r} ({o.height * 1e3:g} mm high)", o.shape, 0.0, o.height) for o in board.obstacles
    ]
    sweep = None
    s = board.spinner
    if s is not None:
        sweep = Point(s.center).buffer(s.arm_length)
        low = s.height - s.thickness
        solids.append(
            (
                f"the spinner's pin ({s.pin_radius * 1e3:g} mm around it)",
                Point(s.center).buffer(s.pin_radius),
                0.0,
                low,
            )
        )
        solids.append(
            (
                f"the spinner's card (it covers {s.arm_length / 2 * 1e3:g} mm around the pin, "
                f"{low * 1e3:g}–{s.height * 1e3:g} mm up, whichever way it is turned)",
                Point(s.center).buffer(s.arm_length / 2),
                low,
                s.height,
            )
        )
    for geom in (playfield, floor):
        shapely.prepare(geom)
    return Tray(
        board,
        walls,
        playfield,
        floor,
        beyond if beyond.area > 1e-9 else None,
        sweep,
        tuple(solids),
    )


def fills_box(board: BoardSide, box: BoxSpec | None = None) -> bool:
    """``board``'s outline covers the box's floor (the sides I–IV do): no die in the box can lie
    beside it. The one answer for the physics' final reading, the lying dice's scatter and the
    placement check."""
    return tray(board, box).beyond is None


def on_playfield(board: BoardSide, x: float, y: float) -> bool:
    """A die whose centre is at ``(x, y)`` m lies over the playfield (the outline, with
    :data:`OUTLINE_TOLERANCE`). The one test for the rules' placement check and the physics'
    final reading (``physics.status.Zones.final``): a die that came to rest in the box but
    beside a board smaller than the box is ``off``."""
    return bool(shapely.contains_xy(tray(board).playfield, x, y))


@functools.lru_cache(maxsize=64)
def _middles(board: BoardSide, half: float) -> tuple[tuple[Hole, BaseGeometry], ...]:
    out = []
    for h in board.holes:
        middle = hole_middle(h.shape, half)
        shapely.prepare(middle)
        out.append((h, middle))
    return tuple(out)


def hole_under_centre(board: BoardSide, x: float, y: float, half: float) -> Hole | None:
    """The hole over whose middle (:func:`hole_middle`) a die of half edge ``half`` has its
    centre ``(x, y)``, or ``None``."""
    for h, middle in _middles(board, half):
        if shapely.contains_xy(middle, x, y):
            return h
    return None


@dataclass(frozen=True)
class Body:
    """A resting die as the support checks see it: its footprint (polygon, m) and the heights
    of its lowest and highest points (m, rounded edges included)."""

    footprint: BaseGeometry
    low: float
    top: float


def die_body(pose: Pose, die: DieSpec) -> Body:
    """The :class:`Body` of ``die`` resting at ``pose``."""
    rot = pose.rotation()
    reach = _reach(rot, die.half, die.edge_radius)
    z = float(pose.position[2])
    return Body(_footprint(pose.position, rot, die.half, die.edge_radius), z - reach, z + reach)


def held_over_hole(me: Body, others: Iterable[Body], board: BoardSide) -> bool:
    """Something on the board holds up a die whose centre is over a hole's middle: another
    die lower than it (its lowest point lower) reaching up to it, beside or under it within
    :data:`LEAN_REACH`; or an obstacle or the spinner there that reaches up to it. Dice in
    the hole do not count (they are not on the board): a die held up by them alone is in
    the hole. The one test for the rules and the physics' final reading."""
    near = me.footprint.buffer(LEAN_REACH)
    up_to = me.low - FLOAT_TOLERANCE  # a holder reaches at least this high
    for o in others:
        if o.low < me.low and o.top >= up_to and near.intersects(o.footprint):
            return True
    for ob in board.obstacles:
        if ob.height >= up_to and near.intersects(ob.shape):
            return True
    s = board.spinner
    sweep = tray(board).sweep
    return s is not None and sweep is not None and s.height >= up_to and near.intersects(sweep)


def support_under(
    me: Body, centre, others: Mapping[str, Body], t: Tray, tallest: float
) -> tuple[float, str] | None:
    """The highest thing a die could rest on under its footprint (within :data:`LEAN_REACH`)
    and what it is (height m, words), or ``None``: the playfield where the footprint is over
    it, an obstacle's top, the spinner's card, another die's highest point, or what the
    state does not list — dice in a hole under the die's centre (reaching ``tallest`` over
    the playfield plus :data:`HOLE_TOP`, the highest a die still counts as in the hole) and
    dice off a smaller board's playfield beside it (``tallest`` high). ``tallest``: the
    largest vertical extent of a die, standing on a corner."""
    board = t.board
    near = me.footprint.buffer(LEAN_REACH)
    best: tuple[float, str] | None = None

    def offer(height: float, what: str) -> None:
        nonlocal best
        if best is None or height > best[0]:
            best = (height, what)

    if me.footprint.intersects(t.floor):
        offer(0.0, "the playfield")
    x, y = centre
    for h in board.holes:
        if h.shape.contains(Point(x, y)):
            offer(tallest + HOLE_TOP, f"dice in hole {h.id!r}")
    if t.beyond is not None and near.intersects(t.beyond):
        offer(tallest, "a die off the playfield beside it")
    for ob in board.obstacles:
        if near.intersects(ob.shape):
            offer(ob.height, f"obstacle {ob.id!r}")
    if t.sweep is not None and board.spinner is not None and near.intersects(t.sweep):
        offer(board.spinner.height, "the spinner's card")
    for owner, o in others.items():
        if near.intersects(o.footprint):
            offer(o.top, f"the {owner} die")
    return best


def check_resting(
    poses: Mapping[str, Pose],
    board: BoardSide,
    dice: DiceSet,
    source: str,
    where: Mapping[str, str],
    box: BoxSpec | None = None,
    lean: bool = False,
    short: Collection[str] = (),
) -> None:
    """Refuse poses no resting die could have (see the module docstring).

    Args:
        poses: resting pose by die owner (board frame, m).
        where: element path by owner for the error (``dice[2]``, ``game.on_board.red``).
        box: the box the board lies in (default: the shipped box, as every command uses).
        lean: the dice of one throw's outcome (a score state), which physics has just
            brought to rest: each must rest on what is under it, be held up over a hole's
            middle, and have something to lean on if tilted. Between throws the rules take
            dice away (a Doppel X's X dice go home), so a die that lay or leaned on one may
            be left up in the air or tilted until the next throw moves it.
        short: owners whose pose was written in the short form (``x``, ``y``, ``yaw_deg``,
            ``top``): errors name those keys instead of ``position``/``quaternion``.

    Raises:
        SpecError: naming ``source``, the die's element and what is wrong.
    """
    t = tray(board, box)
    at = _Where(source, where, short)
    checked = {owner: _check_one_die(owner, pose, dice[owner], t, at) for owner, pose in poses.items()}
    bodies = {owner: c.body for owner, c in checked.items()}
    if lean:
        _check_held_over_holes(poses, checked, board, at)
        _check_resting_on_support(poses, bodies, dice, t, at)
        _check_leaning(poses, checked, t, dice, at)
    else:
        _check_not_above_any_support(poses, bodies, board, dice, at)
    _check_apart(checked, where, source)


@dataclass(frozen=True)
class _Where:
    """Where an error of :func:`check_resting` points: the file and each die's element."""

    source: str
    where: Mapping[str, str]
    short: Collection[str]

    def key(self, owner: str, what: str) -> str:
        el = self.where.get(owner, owner)
        if owner in self.short:
            return f"{el} ({'x, y' if what == 'position' else 'top, yaw_deg'})"
        return f"{el}.{what}"

    def error(self, owner: str, what: str, message: str) -> SpecError:
        return SpecError(self.source, self.key(owner, what), message)


@dataclass(frozen=True)
class _Checked:
    """One die that passed the checks of its own: its body, its inside boxes, the hole over
    whose middle it is up (or ``None``) and its tilt (degrees)."""

    body: Body
    boxes: tuple
    hole: Hole | None
    tilt: float


def _check_one_die(owner: str, pose: Pose, spec: DieSpec, t: Tray, at: _Where) -> _Checked:
    """The checks of one die by itself: on the playfield, inside the walls, not below the
    playfield or over a hole's middle low down, not sunk into the playfield, not cutting into
    anything solid."""
    board = t.board
    half, r = spec.half, spec.edge_radius
    x, y, z = (float(v) for v in pose.position)
    if not on_playfield(board, x, y):
        minx, miny, maxx, maxy = board.outline.bounds
        hint = ""
        if max(abs(x), abs(y)) > 1 and shapely.contains_xy(board.outline, x / 1000, y / 1000):
            hint = _MM_HINT
        raise at.error(
            owner,
            "position",
            f"({x:g}, {y:g}) m is not on the playfield (x {minx:g}…{maxx:g}, y {miny:g}…{maxy:g} m){hint}",
        )
    rot = pose.rotation()
    footprint = _footprint(pose.position, rot, half, r)
    _check_inside_walls(owner, footprint, (x, y), t, at)
    reach = _reach(rot, half, r)
    low = z - reach
    if z < 0:
        raise at.error(
            owner,
            "position",
            f"the die's centre is {-z * 1e3:.1f} mm below the playfield; "
            'a die that sank into a hole has status "hole"',
        )
    hole = hole_under_centre(board, x, y, half)
    if (
        hole is not None and z < half + HOLE_TOP
    ):  # (the centre is over the middle: in_hole_middle's other half)
        raise at.error(
            owner,
            "position",
            f"the die's centre ({x:g}, {y:g}) m is over the middle of hole {hole.id!r}: "
            'nothing holds it there (a die in a hole has status "hole")',
        )
    hint = _MM_HINT if z > 1 else ""
    if low < -SINK_TOLERANCE and not any(footprint.intersects(h.shape) for h in board.holes):
        raise at.error(owner, "position", f"the die is sunk {-low * 1e3:.1f} mm into the playfield{hint}")
    cut = _cuts_into(pose, rot, spec, footprint, t)
    if cut is not None:
        raise at.error(
            owner,
            "position",
            f"the die at ({x:g}, {y:g}, {z:g}) m cuts into {cut}; a die rests on or beside it, not in it",
        )
    tilt = math.degrees(math.acos(min(1.0, float(np.abs(rot[2]).max()))))
    boxes = (np.asarray(pose.position, dtype=float), rot, inside_boxes(half, r))
    return _Checked(Body(footprint, low, z + reach), boxes, hole, tilt)


def _check_inside_walls(owner: str, footprint, centre, t: Tray, at: _Where) -> None:
    """Seen from above the die lies inside the box (at most :data:`WALL_TOLERANCE` in its walls)."""
    if footprint.within(t.walls.buffer(WALL_TOLERANCE, join_style="mitre")):
        return
    past = footprint.difference(t.walls)
    depth = max(
        (Point(px, py).distance(t.walls.exterior) for px, py in shapely.get_coordinates(past)),
        default=0.0,
    )
    x, y = centre
    raise at.error(
        owner,
        "position",
        f"the die at ({x:g}, {y:g}) m reaches {depth * 1e3:.1f} mm into the box wall; "
        "a die resting there lies at least half its edge from the wall",
    )


def _check_held_over_holes(
    poses: Mapping[str, Pose], checked: Mapping[str, _Checked], board: BoardSide, at: _Where
) -> None:
    """(A throw's outcome) a die up over a hole's middle is held there by something on the board."""
    for owner, c in checked.items():
        if c.hole is None:
            continue
        me = c.body
        if not held_over_hole(me, (o.body for other, o in checked.items() if other != owner), board):
            x, y, _ = poses[owner].position
            raise at.error(
                owner,
                "position",
                f"the die's centre ({x:g}, {y:g}) m is over the middle of hole {c.hole.id!r}, "
                f"{me.low * 1e3:.1f} mm up, and no die, obstacle or spinner on the board holds it "
                'there; a die held up only by dice in the hole is in the hole (status "hole")',
            )


def _unlisted_height(dice: DiceSet) -> float:
    """How high a die the state does not list may stand (in a hole, beside a smaller board):
    on a corner, its vertical extent is twice its rounded corner's reach."""
    return max(
        (2 * ((d.half - d.edge_radius) * math.sqrt(3) + d.edge_radius) for d in dice.dice.values()),
        default=0.0,
    )


def _check_resting_on_support(
    poses: Mapping[str, Pose], bodies: Mapping[str, Body], dice: DiceSet, t: Tray, at: _Where
) -> None:
    """(A throw's outcome) each die rests on what is under it (:func:`support_under`)."""
    unlisted = _unlisted_height(dice)
    for owner, me in bodies.items():
        x, y, z = poses[owner].position
        others = {o: b for o, b in bodies.items() if o != owner}
        found = support_under(me, (x, y), others, t, unlisted)
        if found is None or me.low > found[0] + FLOAT_TOLERANCE:
            under = (
                "nothing under it"
                if found is None
                else f"the highest thing under it is {found[1]} at {found[0] * 1e3:.1f} mm"
            )
            raise at.error(
                owner,
                "position",
                f"the die floats: its lowest point is {me.low * 1e3:.1f} mm above the playfield and "
                f"{under}{_MM_HINT if z > 1 else ''}",
            )


def _check_not_above_any_support(
    poses: Mapping[str, Pose], bodies: Mapping[str, Body], board: BoardSide, dice: DiceSet, at: _Where
) -> None:
    """(Between throws) no die is higher than anything it could have rested on: the tallest
    obstacle or the spinner, plus a die."""
    tallest_die = max((d.size for d in dice.dice.values()), default=0.0)
    supports = [0.0, *(o.height for o in board.obstacles)]
    if board.spinner is not None:
        supports.append(board.spinner.height)
    top_support = max(supports) + tallest_die
    for owner, me in bodies.items():
        if me.low > top_support + FLOAT_TOLERANCE:
            z = poses[owner].position[2]
            raise at.error(
                owner,
                "position",
                f"the die floats {me.low * 1e3:.1f} mm above the playfield, higher than anything "
                f"it could rest on ({top_support * 1e3:.1f} mm){_MM_HINT if z > 1 else ''}",
            )


def _check_leaning(
    poses: Mapping[str, Pose], checked: Mapping[str, _Checked], t: Tray, dice: DiceSet, at: _Where
) -> None:
    """(A throw's outcome) a die tilted more than :data:`FREE_TILT_DEG` has something to lean on."""
    for owner, c in checked.items():
        if c.tilt > FREE_TILT_DEG and not _has_support(owner, c.body.footprint, poses, t, dice):
            raise at.error(
                owner,
                "quaternion",
                f"the die is tilted {c.tilt:.0f}° with nothing to lean on (no die, wall, hole, "
                "obstacle or spinner beside it); a die resting alone lies flat",
            )


def _check_apart(checked: Mapping[str, _Checked], where: Mapping[str, str], source: str) -> None:
    """No two dice overlap (their inside boxes, :func:`inside_boxes`, are disjoint)."""
    owners = list(checked)
    for i, a in enumerate(owners):
        for b in owners[i + 1 :]:
            ca, ra, inside_a = checked[a].boxes
            cb, rb, inside_b = checked[b].boxes
            if any(_boxes_overlap((ca, ra, ea), (cb, rb, eb)) for ea in inside_a for eb in inside_b):
                raise SpecError(
                    source,
                    where.get(b, b),
                    f"the {b} die overlaps the {a} die ({where.get(a, a)}); two dice cannot share a place",
                )


def _has_support(owner: str, footprint, poses: Mapping[str, Pose], t: Tray, dice: DiceSet) -> bool:
    """Something a tilted die can lean on lies within :data:`LEAN_REACH` of its footprint:
    another die, a wall, a hole's rim (dice in the hole), the box beyond a smaller board
    (dice off the playfield), an obstacle or the spinner's sweep."""
    near = footprint.buffer(LEAN_REACH)
    if not near.within(t.walls):
        return True
    centre = np.asarray(poses[owner].position[:2], dtype=float)
    for other, pose in poses.items():
        if other != owner:
            gap = norm(np.asarray(pose.position[:2]) - centre)
            if gap < (dice[owner].half + dice[other].half) * 1.8:
                return True
    board = t.board
    shapes = [h.shape for h in board.holes] + [o.shape for o in board.obstacles]
    if t.sweep is not None:
        shapes.append(t.sweep)
    if t.beyond is not None:
        shapes.append(t.beyond)
    return any(near.intersects(shape) for shape in shapes)


def _reach(rot: np.ndarray, half: float, r: float) -> float:
    """Vertical distance (m) from a rounded die's centre to its lowest (and highest) point."""
    return float((half - r) * np.abs(rot[2]).sum() + r)


def _footprint(position, rot: np.ndarray, half: float, r: float):
    """The die seen from above: its core cube's corners, projected, grown by the rounding."""
    corners = matmul(_SIGNS * (half - r), rot.T) + np.asarray(position, dtype=float)
    return MultiPoint(corners[:, :2]).convex_hull.buffer(r, quad_segs=4)


def _cuts_into(pose: Pose, rot: np.ndarray, spec: DieSpec, footprint, t: Tray) -> str | None:
    """What solid (:attr:`Tray.solids`) the die cuts into by more than
    :data:`OVERLAP_TOLERANCE`, in words, or ``None``: the part of one of its
    :func:`inside_boxes` between the solid's bottom and top, seen from above, meets the
    solid's outline (a solid is an upright prism, so that is exactly "they share a point")."""
    centre = np.asarray(pose.position, dtype=float)
    inside = None
    for what, shape, z0, z1 in t.solids:
        if not footprint.intersects(shape):
            continue
        if inside is None:
            inside = inside_boxes(spec.half, spec.edge_radius)
        for ext in inside:
            shadow = _slab_shadow(centre, rot, ext, z0, z1)
            if shadow is not None and shadow.intersects(shape):
                return what
    return None


_SIGNS = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], dtype=float)
#: The 12 edges of a box as pairs of corner indices into :data:`_SIGNS` (one sign differs).
_EDGES = tuple((i, i | bit) for i in range(8) for bit in (1, 2, 4) if not i & bit)


def _slab_shadow(centre: np.ndarray, rot: np.ndarray, ext: np.ndarray, z0: float, z1: float):
    """The part of the box ``(centre, rot, half extents ext)`` between heights ``z0`` and
    ``z1`` (m), seen from above: a convex shape, or ``None`` if no part of it is there."""
    corners = matmul(_SIGNS * ext, rot.T) + centre
    zs = corners[:, 2]
    if zs.min() > z1 or zs.max() < z0:
        return None
    pts = [c[:2] for c in corners if z0 <= c[2] <= z1]
    for i, j in _EDGES:
        zi, zj = zs[i], zs[j]
        for plane in (z0, z1):
            if (zi - plane) * (zj - plane) < 0:
                f = (plane - zi) / (zj - zi)
                pts.append(corners[i, :2] + f * (corners[j, :2] - corners[i, :2]))
    if not pts:
        return None
    return MultiPoint(np.asarray(pts)).convex_hull


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
    if dot(d, d) > (norm(ha) + norm(hb)) ** 2:
        return False
    axes = [ra[:, i] for i in range(3)] + [rb[:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(ra[:, i], rb[:, j])
            n = norm(c)
            if n > 1e-9:
                axes.append(c / n)
    for axis in axes:
        pa = dot(ha, np.abs(matmul(ra.T, axis)))
        pb = dot(hb, np.abs(matmul(rb.T, axis)))
        if abs(dot(d, axis)) > pa + pb:
            return False
    return True
