"""Variants of the shipped specs for balance questions: wider holes, other dice faces.

"What if the holes were 2 mm wider?" or "what if the white die had two X faces?" — each a
function returning a new spec, so a batch or sweep can run the variant without files.
"""

from __future__ import annotations

import dataclasses

from shapely.geometry import Point

from rules.common.errors import SpecError
from rules.doppelx.board import BoardSide, Hole
from rules.doppelx.board_file import CIRCLE_QUAD_SEGS
from rules.doppelx.dice import AXES, FACE_LABELS, DiceSet


def widen_holes(board: BoardSide, delta: float) -> BoardSide:
    """``board`` with every hole grown by ``delta`` m in radius (negative shrinks).

    Round holes stay round; polygon holes are offset with mitred corners.
    """
    if delta == 0:
        return board
    holes = []
    for h in board.holes:
        if h.circle is not None:
            cx, cy, r = h.circle
            if r + delta <= 0:
                raise SpecError(
                    board.source,
                    f"holes.{h.id}",
                    f"radius {r * 1e3:.1f} mm cannot shrink by {-delta * 1e3:.1f} mm",
                )
            holes.append(
                Hole(h.id, Point(cx, cy).buffer(r + delta, quad_segs=CIRCLE_QUAD_SEGS), (cx, cy, r + delta))
            )
        else:
            holes.append(Hole(h.id, h.shape.buffer(delta, join_style="mitre"), None))
    for h in holes:
        if not h.shape.within(board.outline):
            raise SpecError(board.source, f"holes.{h.id}", "the widened hole no longer fits inside the board")
    return dataclasses.replace(
        board,
        holes=tuple(holes),
        name=f"{board.name}{delta * 1e3:+g}mm",
        title=f"{board.title}, holes {delta * 1e3:+g} mm",
    )


def with_faces(dice: DiceSet, owner: str, faces: str) -> DiceSet:
    """``dice`` with die ``owner`` given ``faces`` in axis order, e.g. ``"1,2,3,X,X,2"``."""
    labels = tuple(f.strip() for f in faces.replace("-", ",").split(","))
    if len(labels) != len(AXES) or any(f not in FACE_LABELS for f in labels):
        raise SpecError(
            dice.source,
            f"dice.{owner}.faces",
            f"expected 6 faces out of {', '.join(FACE_LABELS)} for axes {' '.join(AXES)}, got {faces!r}",
        )
    die = dataclasses.replace(dice[owner], faces=labels)
    return dataclasses.replace(dice, dice={**dice.dice, owner: die})
