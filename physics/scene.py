"""Scenes for tests, benchmarks and the ``throw`` command: dice lying flat at random free places."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Point

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
) -> dict[str, Pose]:
    """Dice ``owners`` lying flat on the playfield at random free places, random face up and yaw.

    A die keeps clear of the walls, the holes, the spinner's sweep, the obstacles, the edge
    of a playfield smaller than the box and the other dice (by its full diagonal), so the
    poses are resting poses on the playfield.

    Raises:
        RulesError: no free place was found in ``tries`` attempts (a crowded board).
    """
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    blocked = [h.shape for h in board.holes] + [o.shape for o in board.obstacles]
    if board.spinner is not None:
        blocked.append(Point(board.spinner.center).buffer(board.spinner.arm_length))
    blocked_geom = shapely.union_all(blocked) if blocked else None
    # a board that does not cover the box's floor: a die must lie on it, not beside it
    smaller = not fills_box(board, box)
    out: dict[str, Pose] = {}
    placed: list[tuple[float, float]] = []
    for owner in owners:
        spec = dice[owner]
        reach = spec.half * math.sqrt(2) + SCATTER_GAP
        inside = board.outline.buffer(-reach) if smaller else None
        for _ in range(tries):
            x = float(rng.uniform(-hx + reach, hx - reach))
            y = float(rng.uniform(-hy + reach, hy - reach))
            if any((x - a) ** 2 + (y - b) ** 2 < (2 * reach) ** 2 for a, b in placed):
                continue
            if inside is not None and not shapely.contains_xy(inside, x, y):
                continue
            if blocked_geom is not None and shapely.dwithin(blocked_geom, Point(x, y), reach):
                continue
            top = spec.faces[int(rng.integers(len(spec.faces)))]
            out[owner] = Pose.resting(spec, x, y, float(rng.uniform(0, 2 * math.pi)), top)
            placed.append((x, y))
            break
        else:
            raise RulesError(f"no free place for the {owner} die on side {board.name}")
    return out
