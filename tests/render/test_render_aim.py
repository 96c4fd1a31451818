"""Aiming: walking round the box, the release point outside the rim (D25), flick → throw."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.aim import FlickLimits, ThrowAim
from render.intents import WALLS
from rules.doppelx.box import load_box


@pytest.fixture
def aim():
    return ThrowAim(load_box(), 0.016)


def test_walking_right_turns_the_corner(aim):
    half = aim.half_length("S")
    aim.walk(half + 0.03)
    assert aim.wall == "E" and aim.along == pytest.approx(-aim.half_length("E") + 0.03)
    aim.walk(-0.06)
    assert aim.wall == "S" and aim.along == pytest.approx(half - 0.03)
    for _ in range(4):
        aim.turn(1)
    assert aim.wall == "S" and aim.along == 0.0


def test_stand_at_picks_the_nearest_wall(aim):
    aim.stand_at(0.05, 0.30)
    assert aim.wall == "N" and aim.along == pytest.approx(-0.05)  # N faces south: right is -x
    aim.stand_at(-0.4, -0.02)
    assert aim.wall == "W" and aim.along == pytest.approx(0.02)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(WALLS), st.floats(-0.2, 0.2), st.floats(-0.1, 0.3))
def test_release_point_is_outside_the_rim_plane(wall, along, dh):
    """D25: the hand never crosses the rim — the release point lies beyond the outer wall."""
    box = load_box()
    a = ThrowAim(box, 0.016)
    a.wall = wall
    a.walk(along)
    a.adjust_height(dh)
    x, y, z = a.release_point()
    ox = box.inner_size[0] / 2 + box.wall_thickness
    oy = box.inner_size[1] / 2 + box.wall_thickness
    assert abs(x) > ox or abs(y) > oy
    assert z > box.rim_z + 0.008  # a die's half diagonal clears the rim
    assert float(np.dot(a.inward, a.right)) == 0.0


def _samples(start, velocity, steps=5, dt=0.02):
    return [(k * dt, start[0] + velocity[0] * k * dt, start[1] + velocity[1] * k * dt) for k in range(steps)]


def test_flick_velocity_follows_the_drag(aim):
    intent = aim.flick(_samples((0.0, -0.2), (0.3, 1.5)))
    assert intent.wall == "S"
    assert intent.velocity[0] == pytest.approx(0.3) and intent.velocity[1] == pytest.approx(1.5)
    assert intent.velocity[2] == 0.0
    assert intent.release == pytest.approx(tuple(aim.release_point()))


def test_flick_uses_the_last_moments_of_the_drag(aim):
    slow = _samples((0.0, -0.3), (0.0, 0.1), steps=20)
    t0, x0, y0 = slow[-1]
    fast = [(t0 + 0.02 * k, x0, y0 + 2.0 * 0.02 * k) for k in range(1, 5)]
    intent = aim.flick(slow + fast)
    assert intent.velocity[1] > 1.5


def test_flick_speed_is_clamped(aim):
    intent = aim.flick(_samples((0.0, -0.2), (0.0, 40.0)))
    assert intent.speed == pytest.approx(FlickLimits().max_speed)


@pytest.mark.parametrize(
    "samples, reason",
    [
        ([(0.0, 0.0, 0.0)], "drag"),
        (_samples((0.0, 0.0), (0.0, 0.02)), "too slow"),
        (_samples((0.0, 0.0), (0.0, -1.0)), "into the box: .* away from it is no throw"),
    ],
)
def test_no_throw_for_a_click_a_crawl_or_a_backwards_flick(aim, samples, reason):
    with pytest.raises(ValueError, match=reason):
        aim.flick(samples)


def test_spin_is_a_forward_roll_about_z_cross_direction(aim):
    aim.adjust_spin(10.0)
    intent = aim.flick(_samples((0.0, -0.2), (0.0, 1.0)))
    # moving north (+y): forward roll turns about -x
    assert intent.spin == pytest.approx((-10.0, 0.0, 0.0))
    aim.adjust_spin(1000.0)
    assert aim.spin == ThrowAim.SPIN_RANGE[1]


def test_height_stays_in_range(aim):
    aim.adjust_height(-1.0)
    low = aim.height
    aim.adjust_height(1.0)
    assert aim.height - low == pytest.approx(ThrowAim.HEIGHT_RANGE[1] - ThrowAim.HEIGHT_RANGE[0])
    assert low == pytest.approx(0.016 * math.sqrt(3) / 2 + 0.002)


@pytest.mark.parametrize("wall", WALLS)
def test_release_point_matches_the_physics_convention(wall):
    """The window's stance (wall, along, height) means the same point as the physics' throw."""
    from physics import throw

    box = load_box()
    a = ThrowAim(box, 0.016)
    a.wall = wall
    a.walk(0.04)
    want = throw.release_point(box, wall, a.along, a.height)
    assert tuple(a.release_point()) == pytest.approx(want)


def test_a_key_held_longer_throws_harder_up_to_full_power():
    from render.aim import CHARGE_SECONDS, charge_power

    assert charge_power(0.0) == 0.0 and charge_power(-1.0) == 0.0
    assert charge_power(CHARGE_SECONDS / 2) == pytest.approx(0.5)
    assert charge_power(CHARGE_SECONDS) == charge_power(10 * CHARGE_SECONDS) == 1.0


@pytest.mark.parametrize("wall", WALLS)
def test_a_keyboard_throw_goes_straight_in_and_lands_as_a_flick_of_its_power(aim, wall):
    aim.wall = wall
    soft, hard = aim.charged(0.2), aim.charged(0.9)
    for t, power in ((soft, 0.2), (hard, 0.9)):
        direction = np.array(t.velocity[:2]) / np.linalg.norm(t.velocity[:2])
        assert direction == pytest.approx(aim.inward) and t.power == pytest.approx(power)
        assert t.target == pytest.approx(aim.aim_point(aim.inward, power))
    # the harder throw aims further across the box
    r = np.array(aim.release_point()[:2])
    assert np.linalg.norm(np.array(hard.target) - r) > np.linalg.norm(np.array(soft.target) - r)


def test_comma_and_period_turn_the_keyboard_aim_within_its_range(aim):
    aim.wall = "S"
    aim.adjust_aim_angle(math.radians(20))  # to the thrower's right: east, from the south wall
    d = aim.keyboard_direction()
    assert d == pytest.approx((math.sin(math.radians(20)), math.cos(math.radians(20))))
    t = aim.charged(0.5)
    assert t.velocity[0] > 0 and t.target is not None and t.target[0] > 0
    aim.adjust_aim_angle(math.radians(500))
    assert aim.aim_angle == pytest.approx(aim.ANGLE_RANGE[1])


def test_a_keyboard_throw_that_would_miss_the_playfield_is_refused(aim):
    aim.wall, aim.along = "S", aim.half_length()  # at the east end of the south wall ...
    aim.adjust_aim_angle(aim.ANGLE_RANGE[1])  # ... turned far to the east: the line misses the box
    with pytest.raises(ValueError, match="misses the playfield"):
        aim.charged(0.5)
