"""The spinner (D2): it turns when hit, flings resting dice, and its bearing brakes it."""

from __future__ import annotations

import math

import pytest

from physics.materials import load_materials
from physics.run import run_throw
from rules.dice import load_dice
from rules.outcome import Pose, Status
from tests.physics.conftest import drop, throw_of

DICE = load_dice()


def hit_tip():
    """Blue slides in from the west along y = -21 mm, where a tip of the card points at angle 0."""
    return throw_of(drop("blue", -0.10, -0.021, 0.02, vx=1.5))


def test_a_die_hitting_the_card_sets_it_turning(world_iii):
    r = run_throw(world_iii, hit_tip(), spinner_angle=0.0)
    assert r.outcome.get("blue").touched_spinner
    assert abs(r.spinner_angle) > 0.3
    assert r.settled


def test_the_spinner_keeps_its_angle_when_nothing_touches_it(world_iii):
    r = run_throw(world_iii, throw_of(drop("blue", 0.09, -0.09, 0.03)), spinner_angle=0.7)
    assert not r.outcome.get("blue").touched_spinner
    assert r.spinner_angle == pytest.approx(0.7, abs=1e-3)


def test_the_spinner_knocks_a_resting_die_away(world_iii):
    a = math.radians(30)  # between two tips, within the sweep of the card
    red = Pose.resting(DICE["red"], 0.037 * math.cos(a), 0.037 * math.sin(a), a, "1")
    r = run_throw(world_iii, hit_tip(), {"red": red}, spinner_angle=0.0)
    out = r.outcome.get("red")
    assert out.touched_spinner
    assert out.status is Status.BOARD
    assert math.dist(out.pose.position, red.position) > 0.005


def test_bearing_friction_brakes_a_free_spin(world_iii):
    """Spun by hand at 10 rad/s the card slows at about τ/I (Coulomb bearing friction)."""
    w = world_iii
    w.reset({}, 0.0)
    w.p.resetJointState(w.spinner_id, 0, 0.0, 10.0, physicsClientId=w.client)
    for _ in range(48):  # 0.2 s
        w.step()
    g = w.layout.spinner
    mats = load_materials()
    decel = mats.bearing_torque(g.mass, g.pin_radius) / g.inertia[2]
    expected = 10.0 - decel * 0.2
    assert expected > 1.0
    assert w.spinner_speed() == pytest.approx(expected, rel=0.15)
    for _ in range(480):
        w.step()
    assert abs(w.spinner_speed()) < 1e-3  # it comes to a stop
