"""Recorded trajectories for replays: array shapes, frames, the last frame is the outcome."""

from __future__ import annotations

import numpy as np
import pytest

from physics.run import run_throw
from physics.trajectory import Trajectory
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import Pose
from tests.helpers.releases import drop, throw_of

DICE = load_dice()


def test_recorded_throw_has_frames_at_display_rate(world_i, tmp_path):
    lying = {"red": Pose.resting(DICE["red"], 0.02, 0.0, 0.0, "1")}
    throw = throw_of(
        drop("blue", -0.06, 0.0, 0.03, vx=0.9, spin=(0, 5, 0)), drop("white", -0.06, 0.03, 0.03, vx=0.5)
    )
    r = run_throw(world_i, throw, lying, record=True)
    tr = r.trajectory
    n = len(tr)
    assert tr.owners == ("blue", "white", "red")
    assert tr.positions.shape == (n, 3, 3) and tr.quaternions.shape == (n, 3, 4)
    assert tr.velocities.shape == (n, 3, 3) and tr.spinner_angles.shape == (n,)
    assert np.allclose(np.diff(tr.times), world_i.settings.sample_dt)
    assert tr.times[0] == 0.0 and tr.times[-1] == pytest.approx(r.sim_time)
    last = tr.frame(n - 1)
    for d in r.outcome.dice:
        assert last[d.owner].position == pytest.approx(d.pose.position)
    assert len(tr.impacts()) == n and any(tr.impacts())
    path = tmp_path / "t.npz"
    tr.save(path)
    back = Trajectory.load(path)
    assert back.owners == tr.owners and np.array_equal(back.positions, tr.positions)


def test_recording_does_not_change_the_outcome(world_i):
    throw = throw_of(drop("blue", -0.06, 0.0, 0.03, vx=0.9, spin=(0, 5, 0)))
    a = run_throw(world_i, throw, record=True).outcome.dice
    b = run_throw(world_i, throw).outcome.dice
    assert [d.pose for d in a] == [d.pose for d in b]
