"""A flick that lives: the dice tumble with the flick's power, a direct flick keeps the hand's
velocity and clears the rim, each person's aim and bet settings are kept, R replays slowly."""

from __future__ import annotations

import math

import numpy as np
import pytest

from doppelx.games.doppelx.play.controller import REPLAY_RATE, PlayController, Stage
from doppelx.games.doppelx.play.flick_throw import (
    FLICK_ROLL,
    WALL_POWER,
    WALL_SPEED,
    clearing_lift,
    flick_release,
    flick_roll,
)
from doppelx.games.doppelx.play.newgame import GameSetup
from doppelx.games.doppelx.play.playback import Playback
from physics.settings import GRAVITY
from render.aim import ThrowAim
from rules.doppelx.box import load_box
from tests.helpers.play import FakeUi, drag, flick, run_until

DIE = 0.016


def test_a_harder_flick_tumbles_faster_about_its_travel_and_adds_the_players_spin():
    box = load_box()
    aim = ThrowAim(box, DIE)
    soft, hard = aim.flick(drag(aim, 0.2)), aim.flick(drag(aim, 1.6))
    _, v_soft, w_soft = flick_release(box, soft, DIE / 2)
    _, v_hard, w_hard = flick_release(box, hard, DIE / 2)
    assert np.linalg.norm(w_soft) < np.linalg.norm(w_hard) == pytest.approx(FLICK_ROLL[1])
    # a forward roll: about z × direction (-x for a throw from the south wall towards +y)
    assert w_hard[0] < 0 and abs(w_hard[1]) < 1e-9 and abs(w_hard[2]) < 1e-9
    assert flick_roll(0.0) == FLICK_ROLL[0] and flick_roll(2.0) == FLICK_ROLL[1]
    aim.adjust_spin(10.0)  # Shift+wheel: 10 rad/s more forward roll on top
    _, _, w_more = flick_release(box, aim.flick(drag(aim, 1.6)), DIE / 2)
    assert w_more[0] == pytest.approx(w_hard[0] - 10.0)
    assert v_hard[1] > v_soft[1] > 0  # assisted: the throw model's arc, faster for the harder flick


def test_an_assisted_flicks_speed_grows_with_power_and_a_hard_one_meets_the_far_wall_below_its_top():
    box = load_box()
    aim = ThrowAim(box, DIE)
    speeds = [
        float(np.hypot(*flick_release(box, aim.flick(drag(aim, v)), DIE / 2)[1][:2])) for v in (0.2, 0.8, 1.6)
    ]
    assert speeds[0] < 0.6 < speeds[1] < 1.6 < 2.5 < speeds[2] == pytest.approx(WALL_SPEED)
    top = box.rim_z - DIE / 2 * math.sqrt(3)  # a die's centre higher at the far wall goes over it
    far = box.inner_size[1] / 2 - DIE / 2
    for extra in (0.0, 0.01, 0.03, 0.08, 0.15):  # the lowest hand over the rim to the highest
        aim.height = aim.min_height + extra
        intent = aim.flick(drag(aim, 1.6))
        assert intent.power > WALL_POWER
        release, v, _ = flick_release(box, intent, DIE / 2)
        for face in (-box.inner_size[1] / 2 - box.wall_thickness, -box.inner_size[1] / 2):  # the near rim
            assert _height_at(release, v, face) - DIE / 2 * math.sqrt(3) >= box.rim_z - 1e-9, extra
        # flies into the far wall, not onto the playfield nor over it
        assert DIE / 2 < _height_at(release, v, far) <= top, extra


def _height_at(release, v, y: float) -> float:
    """The height of a flight from ``release`` with velocity ``v`` when it reaches ``y``."""
    t = (y - release[1]) / v[1]
    return release[2] + v[2] * t - GRAVITY * t * t / 2


def test_a_direct_flick_keeps_the_hands_velocity_and_just_clears_the_rim():
    box = load_box()
    aim = ThrowAim(box, DIE)
    for speed, lifted in ((0.6, False), (0.12, True)):  # fast enough to fly flat over the rim, or lifted
        intent = aim.flick(drag(aim, speed))
        release, v, _ = flick_release(box, intent, DIE / 2, "direct")
        assert v[0] == pytest.approx(intent.velocity[0]) and v[1] == pytest.approx(intent.velocity[1])
        assert (v[2] > 0) is lifted and v[2] == clearing_lift(box, release, v[:2], DIE / 2)
        for face in (box.inner_size[1] / 2 + box.wall_thickness, box.inner_size[1] / 2):  # outer, inner
            t = (release[1] + face) / -v[1] if v[1] < 0 else (-face - release[1]) / v[1]
            z = release[2] + v[2] * t - GRAVITY * t * t / 2
            assert z - DIE / 2 * math.sqrt(3) >= box.rim_z - 1e-9, (speed, face)
    with pytest.raises(ValueError, match="aim must be one of"):
        flick_release(box, intent, DIE / 2, "magic")


def test_aim_and_bets_settings_round_trip_and_older_setups_default_to_assisted_and_ask():
    setup = GameSetup.standard(3, 2, seed=3)
    setup.next_aim(0)
    setup.next_bets(1)
    again = GameSetup.from_dict(setup.to_dict())
    assert (again.seats[0].aim, again.seats[0].bets) == ("direct", "ask")
    assert (again.seats[1].aim, again.seats[1].bets) == ("assisted", "pass")
    old = setup.to_dict()
    for seat in old["seats"]:
        del seat["aim"], seat["bets"]
    assert all(s.aim == "assisted" and s.bets == "ask" for s in GameSetup.from_dict(old).seats)
    bad = setup.to_dict()
    bad["seats"][0]["aim"] = "wild"
    with pytest.raises(Exception, match=r"seats.*aim.*expected one of assisted, direct"):
        GameSetup.from_dict(bad)


def test_the_replay_plays_the_throw_at_a_third_of_its_speed_between_frames():
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(3, 1, seed=5, names=("Ann",)))
        ctrl.handle(flick(ctrl))
        run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
        live = 0
        while ctrl.stage is Stage.FLIGHT:
            ctrl.step()
            live += 1
        ctrl.replay()
        assert ctrl.replaying and ctrl.playback.rate == REPLAY_RATE
        slow = 0
        while ctrl.stage is Stage.FLIGHT:
            ctrl.step()
            slow += 1
        assert slow == pytest.approx(live / REPLAY_RATE, abs=3)
    finally:
        ctrl.close()


def test_a_slowed_playback_hands_out_poses_between_frames_and_each_impact_once():
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(3, 1, seed=5, names=("Ann",)))
        ctrl.handle(flick(ctrl))
        run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
        traj = ctrl.last.trajectory
    finally:
        ctrl.close()
    pb = Playback(traj, rate=0.5)
    pb.advance(3)  # 1.5 frames
    owner = traj.owners[0]
    x = pb.poses()[owner].position[0]
    assert x == pytest.approx((traj.positions[1, 0, 0] + traj.positions[2, 0, 0]) / 2)
    sounds = []
    slow = Playback(traj, rate=0.25)
    while not slow.done:
        slow.advance()
        sounds.extend(slow.impacts_now())
    assert sorted(sounds) == sorted(s for frame in traj.impacts() for s in frame)
    with pytest.raises(ValueError, match="rate must be positive"):
        Playback(traj, rate=0)


def test_the_power_bar_is_marked_where_an_assisted_throw_turns_hard_and_not_for_a_direct_one():
    """The throw's snapshot carries the power from which an assisted flick is thrown at the far
    wall (the power bar marks it); a direct aim has no such step, a bot's throw no bar."""
    ctrl = PlayController(FakeUi())
    try:
        for turns, mark in ((0, WALL_POWER), (1, 0.0)):
            setup = GameSetup.standard(3, 1, seed=5, names=("Ann",))
            for _ in range(turns):
                setup.next_aim(0)
            ctrl.new_game(setup)
            run_until(ctrl, lambda c: c.stage is Stage.THROW)
            assert ctrl.snapshot().power_mark == mark
            ctrl.handle(flick(ctrl))
            run_until(ctrl, lambda c: c.stage is not Stage.THROW)
            assert ctrl.snapshot().power_mark == 0.0
    finally:
        ctrl.close()
