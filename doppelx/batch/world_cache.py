"""One physics world per worker process and configuration, built on first use.

Building a world costs a PyBullet client and the tray layout; a worker runs many items of
the same configuration, so it keeps the world (every throw still rebuilds the simulation
from scratch, which is what makes results identical in any process).
"""

from __future__ import annotations

import functools
import json

from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice
from rules.doppelx.variants import widen_holes, with_faces


def table_specs(params: dict):
    """Board and dice of a run's parameters (``board``, ``dice``, ``hole_delta_mm``, ``faces``)."""
    board = load_board(params.get("board", "I"))
    if params.get("hole_delta_mm"):
        board = widen_holes(board, float(params["hole_delta_mm"]) / 1e3)
    dice = load_dice(params.get("dice"))
    for owner, faces in (params.get("faces") or {}).items():
        dice = with_faces(dice, owner, faces)
    if params.get("cocked_deg") is not None:
        import dataclasses
        import math

        dice = dataclasses.replace(dice, cocked_angle=math.radians(float(params["cocked_deg"])))
    return board, dice


@functools.lru_cache(maxsize=4)
def _world(key: str):
    from physics.engine import make_world

    params = json.loads(key)
    board, dice = table_specs(params)
    engine = params.get("engine") or "pybullet"
    return make_world(board, dice=dice, spinner=bool(params.get("spinner", True)), engine=engine)


#: The parameters that make a world different.
WORLD_KEYS = ("board", "dice", "hole_delta_mm", "faces", "cocked_deg", "spinner", "engine")


@functools.lru_cache(maxsize=4)
def _service(key: str):
    from doppelx.games.doppelx.throw_service import ThrowService

    return ThrowService(_world(key))


def service_for(params: dict):
    """The :class:`doppelx.games.doppelx.throw_service.ThrowService` on the cached world of these parameters."""
    return _service(json.dumps({k: params.get(k) for k in WORLD_KEYS}, sort_keys=True))
