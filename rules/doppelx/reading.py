"""Read a resting die from above (D6–D14): top face, tilt, footprint, fields, chips.

The die is a cube of edge ``s`` whose edges and corners are rounded with radius ``r`` —
the Minkowski sum of a sharp cube of edge ``s - 2r`` and a ball of radius ``r``. Its
vertical projection (the footprint, D8) is therefore exactly the convex hull of the inner
cube's projected corners grown by ``r``; for a flat die that is a rounded square of area
``s² - (4 - π) r²``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon

from rules.common.vec import matmul
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.dice import AXIS_VECTORS, DiceSet, DieSpec
from rules.doppelx.fieldmap import field_map
from rules.doppelx.outcome import DieOutcome, Pose, Status

#: Segments per quarter circle when a footprint polygon is built for drawing or area.
FOOTPRINT_QUAD_SEGS = 16
_CORNER_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)


@dataclass(frozen=True)
class DieReading:
    """What a referee sees of one die.

    Attributes:
        owner: player colour or ``"white"``.
        status: board / hole / off.
        top: face label up (``"1"``, ``"2"``, ``"3"``, ``"X"``), ``None`` unless on the board.
        tilt: angle between the top face's normal and vertical (rad), ``None`` off the board.
        cocked: tilt above the dice set's cocked angle (D7).
        touched: ids of the fields the footprint touches, highest rank first.
        field: the die's single field by rank (D10), ``None`` off the board or if it
            touches no field (e.g. lying on an obstacle).
        field_id: id of that field.
    """

    owner: str
    status: Status
    top: str | None = None
    tilt: float | None = None
    cocked: bool = False
    touched: tuple[str, ...] = ()
    field: FieldKind | None = None
    field_id: str | None = None
    x: float | None = None
    y: float | None = None


def top_face(pose: Pose, die: DieSpec) -> tuple[str, float]:
    """The face whose outward normal points most nearly up (D7) and its tilt (rad)."""
    return _top(pose.rotation(), die)


def _top(rot: np.ndarray, die: DieSpec) -> tuple[str, float]:
    """:func:`top_face` of a die whose body-to-board rotation is ``rot`` (3×3)."""
    dots = matmul(AXIS_VECTORS, rot[2, :])  # board z expressed in the die frame
    k = int(np.argmax(dots))
    return die.faces[k], math.acos(max(-1.0, min(1.0, float(dots[k]))))


def _inner_corners(rot: np.ndarray, position, die: DieSpec) -> np.ndarray:
    """The inner cube's eight corners seen from above (8, 2) m, the die turned by ``rot`` at ``position``."""
    inner_half = die.half - die.edge_radius
    return (matmul(_CORNER_SIGNS * inner_half, rot.T) + np.asarray(position))[:, :2]


def inner_hull(pose: Pose, die: DieSpec) -> Polygon:
    """Vertical projection of the die's sharp inner cube (edge ``s - 2r``): a convex polygon (m)."""
    hull = MultiPoint(_inner_corners(pose.rotation(), pose.position, die)).convex_hull
    if hull.geom_type != "Polygon":  # inner cube degenerate (r = s/2 is rejected by the loader)
        hull = hull.buffer(1e-12)
    return hull


def footprint(pose: Pose, die: DieSpec, quad_segs: int = FOOTPRINT_QUAD_SEGS) -> Polygon:
    """The die's outline seen from straight above, as a polygon (m) — for drawing and areas."""
    return inner_hull(pose, die).buffer(die.edge_radius, quad_segs=quad_segs)


def read_die(outcome: DieOutcome, die: DieSpec, board: BoardSide, cocked_angle: float) -> DieReading:
    """Read one die's outcome on ``board``; dice off the board get only their status."""
    if outcome.status is not Status.BOARD:
        return DieReading(outcome.owner, outcome.status)
    pose = outcome.pose
    assert pose is not None
    touched = field_map(board).touched(inner_hull(pose, die), die.edge_radius)
    return _on_board(outcome.owner, pose, top_face(pose, die), touched, cocked_angle)


def _on_board(
    owner: str, pose: Pose, top_tilt: tuple[str, float], touched, cocked_angle: float
) -> DieReading:
    """The reading of a die on the board: its ``(top, tilt)`` and the fields it ``touched`` (ranked)."""
    top, tilt = top_tilt
    best = touched[0] if touched else None
    return DieReading(
        owner=owner,
        status=Status.BOARD,
        top=top,
        tilt=tilt,
        cocked=tilt > cocked_angle,
        touched=tuple(f.id for f in touched),
        field=best.kind if best else None,
        field_id=best.id if best else None,
        x=float(pose.position[0]),
        y=float(pose.position[1]),
    )


def read_dice(
    outcomes: Sequence[DieOutcome], dice: DiceSet, board: BoardSide, cocked_angle: float
) -> tuple[DieReading, ...]:
    """:func:`read_die` of every outcome at once: the same readings, bit for bit.

    Each die's rotation is worked out once (for its top face and its corners, through the
    same helpers as :func:`top_face` and :func:`inner_hull`); the hulls are built and
    the field map queried for all dice of the board in one vectorised shapely call each,
    instead of a ``MultiPoint`` and a tree query per die (a batch reads eight dice a throw).
    """
    on_board = [k for k, d in enumerate(outcomes) if d.status is Status.BOARD]
    readings: list[DieReading | None] = [
        None if d.status is Status.BOARD else DieReading(d.owner, d.status) for d in outcomes
    ]
    if on_board:
        tops, corners, radii = [], [], []
        for k in on_board:
            pose, die = outcomes[k].pose, dice[outcomes[k].owner]
            assert pose is not None
            rot = pose.rotation()
            tops.append(_top(rot, die))
            corners.append(_inner_corners(rot, pose.position, die))
            radii.append(die.edge_radius)
        hulls = shapely.convex_hull(shapely.multipoints(np.stack(corners)))
        flat = shapely.get_type_id(hulls) != shapely.GeometryType.POLYGON
        if flat.any():  # inner cube degenerate (as inner_hull)
            hulls[flat] = shapely.buffer(hulls[flat], 1e-12)
        touched_all = field_map(board).touched_many(hulls, np.asarray(radii))
        for k, top_tilt, touched in zip(on_board, tops, touched_all):
            pose = outcomes[k].pose
            assert pose is not None
            readings[k] = _on_board(outcomes[k].owner, pose, top_tilt, touched, cocked_angle)
    return tuple(r for r in readings if r is not None)


def chips_for(reading: DieReading) -> int:
    """Chips a die brings its owner outside a Doppel X (D11–D14); negative means pay back.

    Args:
        reading: a die's reading.

    Returns:
        top × multiplier on 1x/2x/3x; 0 for an X face, an X field or a die off the board;
        -1 on a -1 field whatever the face (D13).
    """
    if reading.status is not Status.BOARD or reading.field is None:
        return 0
    if reading.field is FieldKind.MINUS_ONE:
        return -1
    if reading.top == "X":
        return 0
    return int(reading.top) * reading.field.multiplier  # type: ignore[arg-type]


def footprint_area_flat(die: DieSpec) -> float:
    """Analytic footprint area of a flat die: a rounded square, ``s² - (4 - π) r²`` (m²)."""
    return die.size**2 - (4 - math.pi) * die.edge_radius**2


__all__ = [
    "DieReading",
    "chips_for",
    "footprint",
    "footprint_area_flat",
    "inner_hull",
    "read_dice",
    "read_die",
    "top_face",
]
