"""Scenes for tests, benchmarks and the ``throw`` command: dice lying flat at random free places."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from rules.common.errors import RulesError
from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec
from rules.doppelx.dice import DiceSet
from rules.doppelx.outcome import Pose
from rules.doppelx.placement import fills_box

#: Gap kept between a scattered die and walls, holes, the spinner's sweep and other dice (m).
SCATTER_GAP = 0.002


def scatter_lying(
    board: BoardSide,
    box: BoxSpec,
    dice: DiceSet,
    owners: Sequence[str],
    rng: np.random.Generator,
    tries: int = 2000,
    in_reach: int = 0,
) -> dict[str, Pose]:
    """Dice ``owners`` lying flat on the playfield at random free places, random face up and yaw.

    A die keeps clear of the walls, the holes, the spinner's sweep, the obstacles, the edge
    of a playfield smaller than the box and the other dice (by its full diagonal), so the
    poses are resting poses on the playfield. The first ``in_reach`` dice (a side with a
    spinner) lie *within* the spinner's sweep instead: the die's footprint reaches into the
    circle its tips sweep, clear of the resting triangle (tips at 90°, 210°, 330°, as the
    world builds it at angle 0) and of the part of the card that covers the pin whichever
    way it turns (half the arm), so the spinner, once a thrown die turns it, can fling it (bet G).

    Raises:
        RulesError: no free place was found in ``tries`` attempts (a crowded board).
    """
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    blocked_geom = _blocked(board)
    # a board that does not cover the box's floor: a die must lie on it, not beside it
    smaller = not fills_box(board, box)
    out: dict[str, Pose] = {}
    placed: list[tuple[float, float]] = []
    s = board.spinner
    for k, owner in enumerate(owners):
        spec = dice[owner]
        reach = spec.half * math.sqrt(2) + SCATTER_GAP
        inside = board.outline.buffer(-reach) if smaller else None
        near = s is not None and k < in_reach
        blocks = _reach_blocked(board) if near else blocked_geom
        for _ in range(tries):
            if near:
                assert s is not None
                # a point in the ring from the card's inner disc out to a die's half beyond the tips
                r = float(rng.uniform(s.arm_length / 2 + reach, s.arm_length + spec.half))
                a = float(rng.uniform(0, 2 * math.pi))
                x, y = s.center[0] + r * math.cos(a), s.center[1] + r * math.sin(a)
                if abs(x) > hx - reach or abs(y) > hy - reach:
                    continue
            else:
                x = float(rng.uniform(-hx + reach, hx - reach))
                y = float(rng.uniform(-hy + reach, hy - reach))
            if any((x - a) ** 2 + (y - b) ** 2 < (2 * reach) ** 2 for a, b in placed):
                continue
            if inside is not None and not shapely.contains_xy(inside, x, y):
                continue
            if blocks is not None and shapely.dwithin(blocks, Point(x, y), reach):
                continue
            top = spec.faces[int(rng.integers(len(spec.faces)))]
            out[owner] = Pose.resting(spec, x, y, float(rng.uniform(0, 2 * math.pi)), top)
            placed.append((x, y))
            break
        else:
            where = " within the spinner's reach" if near else ""
            raise RulesError(f"no free place for the {owner} die{where} on side {board.name}")
    return out


@functools.lru_cache(maxsize=16)
def _blocked(board: BoardSide):
    """What a lying die keeps clear of (holes, obstacles, the spinner's sweep), as one prepared
    geometry, or ``None``; worked out once per board (a batch scatters dice every throw)."""
    blocked = [h.shape for h in board.holes] + [o.shape for o in board.obstacles]
    if board.spinner is not None:
        blocked.append(Point(board.spinner.center).buffer(board.spinner.arm_length))
    if not blocked:
        return None
    geom = shapely.union_all(blocked)
    shapely.prepare(geom)
    return geom


@functools.lru_cache(maxsize=16)
def _reach_blocked(board: BoardSide):
    """What a die lying within the spinner's reach keeps clear of: holes, obstacles and the
    spinner's resting triangle (angle 0: tips at 90°, 210°, 330° about the pin)."""
    s = board.spinner
    assert s is not None
    cx, cy = s.center
    tips = [
        (cx + s.arm_length * math.cos(math.radians(d)), cy + s.arm_length * math.sin(math.radians(d)))
        for d in (90, 210, 330)
    ]
    shapes = [h.shape for h in board.holes] + [o.shape for o in board.obstacles] + [Polygon(tips)]
    geom = shapely.union_all(shapes)
    shapely.prepare(geom)
    return geom
