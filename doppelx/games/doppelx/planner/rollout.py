"""Rollouts: the coming throw played out in the planner's own physics world.

The planner keeps one world (:func:`physics.engine.make_world`, the match's engine) per
table configuration, step settings and process (built once, every throw rebuilds the
simulation inside it). :func:`rollout` turns an aim into a throw with a player's skill
noise drawn from a given stream, runs it to rest from the table's lying dice and spinner
angle and returns the physics result. The tunnel watch is off unless asked: a rollout
needs the resting dice, not the diagnostics.

A rollout steps a lighter world than the game's (:data:`PLANNING`): the game's settings
with adaptive sub-steps of at most 6 mm of travel instead of 3 mm, about two thirds of
the sub-steps of a throw. Still nothing tunnels — a 16 mm die meeting a 3 mm wall has
9.5 mm before Bullet pushes it out the wrong side (docs/physics.md, "Stepping") — and the
solver sweep measured 6 mm sub-steps at the same penetration and creep and a restitution
error of 0.037 against 0.032. What the planner's choices lose by it is measured by
``benchmarks/expert_quality.py --worlds`` (docs/bots.md, "Speed"). ``exact=True`` runs the
game's own world: the same release then gives the very throw the game would run.
"""

from __future__ import annotations

import threading

import numpy as np

from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from physics.settings import SimSettings
from physics.throw_model import Aim, Skill, aimed_throw

#: The planner's step settings: the game's, with sub-steps of at most 6 mm (the game: 3 mm).
PLANNING = SimSettings(max_travel=0.006)
#: The game's own step settings (``exact`` rollouts).
GAME = SimSettings()

_WORLDS: dict[tuple, tuple] = {}
_LOCK = threading.Lock()


def world_of(table: TableSnapshot, settings: SimSettings = PLANNING):
    """The planner's world for ``table``'s board, box, dice, spinner and engine with ``settings`` (one per process)."""
    from physics.engine import make_world

    key = (table.board, table.box, table.spinner, id(table.dice), table.engine, settings)
    with _LOCK:
        hit = _WORLDS.get(key)
        if hit is None:
            world = make_world(
                table.board,
                box=table.box,
                dice=table.dice,
                spinner=table.spinner,
                engine=table.engine,
                settings=settings,
            )
            hit = _WORLDS[key] = (world, table.dice)  # the dice are kept so their id stays theirs
    return hit[0]


def rollout(
    table: TableSnapshot,
    aim: Aim,
    skill: Skill,
    rng: np.random.Generator,
    lying=None,
    thrown=None,
    *,
    exact: bool = False,
    watch: bool = False,
):
    """The throw ``aim`` by a player of ``skill`` (errors from ``rng``) run to rest on ``table``.

    ``lying``/``thrown`` default to the table's; ``exact`` runs it in the game's world
    instead of the planner's lighter one (the module docstring); ``watch`` turns the tunnel
    watch on (benchmarks). Returns the :class:`physics.run.ThrowResult`.
    """
    from physics.run import run_throw

    world = world_of(table, GAME if exact else PLANNING)
    thrown = list(thrown if thrown is not None else table.thrown)
    size = table.dice[thrown[0]].size
    throw = aimed_throw(table.box, aim, thrown, skill, rng, size)
    lying = dict(table.lying if lying is None else lying)
    return run_throw(world, throw, lying, table.spinner_angle, watch=watch)
