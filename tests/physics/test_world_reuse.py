"""A world keeps its static bodies between throws and still throws as a fresh process does.

:meth:`physics.world.World.reset` removes only the spinner and the dice and builds them
again; these tests hold it to the promise a full rebuild gave: a throw's result depends
only on its inputs, byte for byte, after a thousand other throws as in a fresh process.
"""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from doppelx.bench.throws import standard_turns
from physics.run import run_throw
from physics.world import World
from rules.common.rng import make_rng

ROOT = Path(__file__).resolve().parents[2]
#: side III has the spinner: its angle differs from throw to throw, and it is rebuilt too
SIDE, SEED, OTHERS = "III", 4711, 1000


def _spinner_angle(k: int) -> float:
    return (k * 0.731) % (2 * math.pi)


def _record(result) -> str:
    """Everything a throw produces, as exact text (floats by repr, so every bit counts)."""
    dice = [
        (d.owner, d.status.value, [repr(v) for v in d.pose.position], [repr(v) for v in d.pose.quaternion])
        for d in result.outcome.dice
    ]
    return json.dumps([dice, result.steps, repr(result.sim_time), repr(result.spinner_angle), result.settled])


#: run in a fresh interpreter: one throw in a new world
FRESH = """
import sys
sys.path.insert(0, {root!r})
from tests.physics.test_world_reuse import SIDE, SEED, OTHERS, _record, _spinner_angle
from doppelx.bench.throws import standard_turns
from physics.run import run_throw
from physics.world import World
from rules.common.rng import make_rng
board, items = standard_turns(OTHERS + 1, make_rng(SEED), SIDE)
lying, throw = items[OTHERS]
print(_record(run_throw(World(board), throw, lying, _spinner_angle(OTHERS))))
"""


def test_a_throw_after_a_thousand_others_equals_it_in_a_fresh_process():
    board, items = standard_turns(OTHERS + 1, make_rng(SEED), SIDE)
    world = World(board)
    try:
        for k, (lying, throw) in enumerate(items[:OTHERS]):
            run_throw(world, throw, lying, _spinner_angle(k))
        lying, throw = items[OTHERS]
        ours = _record(run_throw(world, throw, lying, _spinner_angle(OTHERS)))
        assert world.rebuilds == OTHERS + 1 and len(world.static_ids) > 0  # one world, statics kept
    finally:
        world.close()
    out = subprocess.run(
        [sys.executable, "-c", FRESH.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=300,
    )
    assert out.stdout.strip().splitlines()[-1] == ours


def test_kept_statics_throw_as_a_full_rebuild_would():
    """Each throw in a long-lived world equals it in a world built for it alone."""
    board, items = standard_turns(12, make_rng(SEED + 1), SIDE)
    kept = World(board)
    try:
        first_static: list[int] = []
        for k, (lying, throw) in enumerate(items):
            ours = _record(run_throw(kept, throw, lying, _spinner_angle(k)))
            first_static = first_static or list(kept.static_ids)
            assert kept.static_ids == first_static  # nothing static was built again
            with World(board) as fresh:
                assert _record(run_throw(fresh, throw, lying, _spinner_angle(k))) == ours
    finally:
        kept.close()


def test_a_reset_keeps_the_static_bodies_and_replaces_the_moving_ones():
    board, items = standard_turns(2, make_rng(SEED + 2), SIDE)
    with World(board) as world:
        (lying, throw), (lying2, throw2) = items
        world.reset(lying, 0.3, throw.releases)
        statics, dice = list(world.static_ids), dict(world.body_of)
        world.reset(lying2, 0.0, throw2.releases)
        assert world.static_ids == statics
        assert set(world.body_of) == set(lying2) | set(throw2.owners)
        # the same places: dice made in the same order get the same body ids as before
        assert sorted(world.body_of.values()) == sorted(dice.values())[: len(world.body_of)]
        assert world.spinner_angle() == pytest.approx(0.0)


def test_every_reset_puts_the_bodies_in_the_broadphase_in_a_fresh_worlds_order():
    """The analyst's audit (2 Dec 2026): games on side III resumed or grown with ``--extend``
    gave other rows than the same run made in one go. The spinner is one multibody with two
    colliders (pin and card); removed and built again, it came back with the two swapped, on
    every other reset, and Bullet meets contact pairs in its colliders' order, so a throw came
    out one way after an even number of throws in a world and another way after an odd one.
    The broadphase's order is what ``getOverlappingObjects`` lists: after each reset it must be
    the first reset's (``World._restore_collider_order``)."""
    board, items = standard_turns(1, make_rng(SEED + 3), SIDE)
    (lying, throw), seen = items[0], []
    with World(board) as world:
        for _ in range(4):
            world.reset(lying, 0.3, throw.releases)
            found = world.p.getOverlappingObjects(
                [-1.0, -1.0, -1.0], [1.0, 1.0, 1.0], physicsClientId=world.client
            )
            seen.append([o for o in found if o[0] in set(world._moving)])
        spinner = world.spinner_id
    assert spinner is not None and [(spinner, -1), (spinner, 0)] == [o for o in seen[0] if o[0] == spinner]
    assert seen == [seen[0]] * 4  # reset by reset, the same order as the first (a fresh world's)
