"""Rollouts: the coming throw played out in the planner's own physics world.

The planner keeps one world (:func:`physics.engine.make_world`, the match's engine) per
table configuration and process
(built once, every throw rebuilds the simulation inside it, so a rollout is exactly what
the real throw would be with the same release). :func:`rollout` turns an aim into a throw
with a player's skill noise drawn from a given stream, runs it to rest from the table's
lying dice and spinner angle and returns the physics result. The tunnel watch is off:
a rollout needs the resting dice, not the diagnostics.
"""

from __future__ import annotations

import threading

import numpy as np

from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from physics.throw_model import Aim, Skill, aimed_throw

_WORLDS: dict[tuple, tuple] = {}
_LOCK = threading.Lock()


def world_of(table: TableSnapshot):
    """The planner's world for ``table``'s board, box, dice, spinner and engine (one per process)."""
    from physics.engine import make_world

    key = (table.board, table.box, table.spinner, id(table.dice), table.engine)
    with _LOCK:
        hit = _WORLDS.get(key)
        if hit is None:
            world = make_world(
                table.board, box=table.box, dice=table.dice, spinner=table.spinner, engine=table.engine
            )
            hit = _WORLDS[key] = (world, table.dice)  # the dice are kept so their id stays theirs
    return hit[0]


def rollout(table: TableSnapshot, aim: Aim, skill: Skill, rng: np.random.Generator, lying=None, thrown=None):
    """The throw ``aim`` by a player of ``skill`` (errors from ``rng``) run to rest on ``table``.

    ``lying``/``thrown`` default to the table's; returns the :class:`physics.run.ThrowResult`.
    """
    from physics.run import run_throw

    world = world_of(table)
    thrown = list(thrown if thrown is not None else table.thrown)
    size = table.dice[thrown[0]].size
    throw = aimed_throw(table.box, aim, thrown, skill, rng, size)
    lying = dict(table.lying if lying is None else lying)
    return run_throw(world, throw, lying, table.spinner_angle, watch=False)
