"""The spinner's static stand-in (physics/spinner_standin.py): the card stands still as static
bodies while no moving die can reach it, and turns again the moment one can."""

from __future__ import annotations

import math

import numpy as np
import pytest

from physics.run import EngineSchedule, run_throw
from physics.settings import SimSettings
from physics.spinner_standin import CardReach
from physics.world import World
from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import Pose
from tests.helpers.releases import drop, throw_of

DICE = load_dice()
HALF = DICE["red"].half
NORMAL = math.radians(30)  # at angle 0 the card's edge between the tips at 330° and 90° faces 30°


def along(r: float, s: float) -> tuple[float, float]:
    """The point ``r`` out along the edge's normal and ``s`` along the edge (m)."""
    n, e = (math.cos(NORMAL), math.sin(NORMAL)), (-math.sin(NORMAL), math.cos(NORMAL))
    return r * n[0] + s * e[0], r * n[1] + s * e[1]


def reach_of(w: World) -> CardReach:
    s = w.settings
    corner = [math.sqrt(3) * HALF] * 2
    return CardReach(w.layout.spinner, w.contact_threshold, corner, s.sample_dt, s.gravity * s.sample_dt)


def test_a_die_thrown_at_the_card_turns_it_after_the_stand_in(world_iii):
    """The card stands in while blue is far, and turns again before blue hits it."""
    schedule = EngineSchedule()
    r = run_throw(world_iii, throw_of(drop("blue", -0.10, -0.021, 0.02, vx=1.5)), schedule=schedule)
    assert schedule.swaps[-1] is True  # still and out of reach at the release
    first_release = min(k for k, v in schedule.swaps.items() if v is False)
    assert first_release < 6  # blue reaches the card ~0.04 s (2.4 samples) after the release
    assert r.outcome.get("blue").touched_spinner
    assert abs(r.spinner_angle) > 0.3


def test_a_die_resting_against_the_stand_in_still_turns_the_card_when_pushed(world_iii):
    """Red lies flat against the card's edge, off its middle, asleep: the card stands in. Blue
    slides into red from outside; the card turns back into the turning one before blue can
    push red into it, so red turns it (bet G: red touched it)."""
    x, y = along(0.021 + HALF + 0.0003, 0.010)
    red = Pose.resting(DICE["red"], x, y, NORMAL, "1")
    bx, by = along(0.021 + HALF + 0.0003 + 0.115, 0.010)  # beyond the boxes red's could overlap
    vx, vy = along(-1.2, 0.0)
    schedule = EngineSchedule()
    r = run_throw(
        world_iii,
        throw_of(drop("blue", bx, by, HALF + 0.0005, vx=vx, vy=vy)),
        {"red": red},
        spinner_angle=0.0,
        schedule=schedule,
    )
    assert schedule.swaps[-1] is True
    assert False in schedule.swaps.values()
    assert r.outcome.get("red").touched_spinner
    assert abs(r.spinner_angle) > 0.02


def test_a_throw_far_from_the_card_leaves_it_standing_in_and_the_dice_by_it_asleep(world_iii):
    """Red lies flat by the card, inside its sweep; blue lands far off. The card stands in the
    whole throw, so red is never woken: it ends exactly where it lay, and the world freezes."""
    x, y = along(0.021 + HALF + 0.002, 0.0)
    red = Pose.resting(DICE["red"], x, y, NORMAL, "1")
    throw = throw_of(drop("blue", 0.09, -0.09, 0.03))
    schedule = EngineSchedule()
    r = run_throw(world_iii, throw, {"red": red}, spinner_angle=0.0, schedule=schedule)
    assert schedule.swaps == {-1: True} and world_iii.spinner_static
    assert r.outcome.get("red").pose == red
    assert r.spinner_angle == 0.0
    stepped = run_throw(world_iii, throw, {"red": red}, spinner_angle=0.0, frozen_end=False)
    assert r.steps < stepped.steps  # frozen: the samples left were counted, not stepped
    assert r.outcome == stepped.outcome and (r.sim_time, r.settled) == (stepped.sim_time, stepped.settled)


def test_without_the_stand_in_the_card_always_turns():
    with World(load_board("III"), settings=SimSettings(spinner_standin=False)) as w:
        schedule = EngineSchedule()
        run_throw(w, throw_of(drop("blue", 0.09, -0.09, 0.03)), schedule=schedule)
        assert schedule.swaps == {} and not w.spinner_static


@pytest.mark.parametrize("side", ["III", "IV"])
def test_the_stand_in_is_the_card_at_its_angle(side):
    """Held at an angle, the static card has the turning card's shape and place: a die's
    closest points to it are the same (to 1 µm), and the reach test never finds a die farther
    from the card than it is (its distance is a lower bound)."""
    rng = np.random.default_rng(5)
    with World(load_board(side)) as w:
        g = w.layout.spinner
        reach = reach_of(w)
        for angle in (0.0, 0.4, -2.1):
            w.reset({}, angle, (drop("blue", 0.0, 0.0, 0.3),))
            blue, cid = w.body_of["blue"], w.client
            placed = []
            for _ in range(12):
                r, phi = rng.uniform(0.02, 0.08), rng.uniform(-math.pi, math.pi)
                pos = (
                    g.center[0] + r * math.cos(phi),
                    g.center[1] + r * math.sin(phi),
                    rng.uniform(0.0, 0.04),
                )
                q = tuple(rng.normal(size=4))
                q = tuple(v / math.sqrt(sum(c * c for c in q)) for v in q)
                w.p.resetBasePositionAndOrientation(blue, pos, q, physicsClientId=cid)
                pts = w.p.getClosestPoints(blue, w.spinner_id, 0.2, linkIndexB=0, physicsClientId=cid)
                placed.append((pos, q, min(pt[8] for pt in pts)))
            w.hold_spinner()
            card = w._standin[1]
            for i, (pos, q, turning) in enumerate(placed):
                w.p.resetBasePositionAndOrientation(blue, pos, q, physicsClientId=cid)
                pts = w.p.getClosestPoints(blue, card, 0.2, physicsClientId=cid)
                static = min(pt[8] for pt in pts)
                assert static == pytest.approx(turning, abs=1e-6), (angle, i)
                # the test's gap (from the centre, less the corner and the threshold) is a lower bound
                assert (
                    reach.gap(0, pos, angle) + w.contact_threshold <= turning + w.settings.hull_margin + 1e-6
                )
            w.release_spinner()
            assert not w.spinner_static and w.spinner_angle() == pytest.approx(angle, abs=1e-12)


def test_a_sleeping_die_by_the_card_moves_with_a_moving_die_that_can_wake_it(world_iii):
    """The reach test follows the dice a moving die could wake or strike: a die asleep 5 mm
    from the card's contacts is out of reach alone, within it once a fast die is beside it."""
    reach = reach_of(world_iii)
    t, corner = world_iii.contact_threshold, math.sqrt(3) * HALF
    near = (*along(0.021 + corner + t + 0.005, 0.0), HALF)
    assert reach.gap(0, near, 0.0) == pytest.approx(0.005, abs=1e-9)
    far = (*along(0.021 + corner + t + 0.005 + 2 * HALF + 0.004, 0.0), HALF)
    assert reach.gap(1, far, 0.0) > 0.02  # a fast die (1 m/s: ~18 mm a sample) cannot reach the card alone
    assert not reach.reachable(0.0, [near, far], [-1.0, -1.0])  # all asleep
    assert not reach.reachable(0.0, [near, far], [-1.0, 0.0])  # the far one awake, but still
    assert reach.reachable(0.0, [near, far], [-1.0, 1.0])  # ... or fast: it could push the near one in
    assert not reach.reachable(0.0, [near, far], [0.0, -1.0])  # the near one awake and still: ~4 mm a sample
    assert reach.reachable(0.0, [near, far], [0.2, -1.0])  # ... at 0.2 m/s: ~7 mm
