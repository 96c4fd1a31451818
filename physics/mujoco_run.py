"""Run a throw to rest in the MuJoCo world, by the settle test of :mod:`physics.settle`.

The PyBullet run loop (:func:`physics.run.run_throw`) hands MuJoCo worlds to
:func:`run_throw` here. A sample every ``settings.sample_dt`` seconds (``world.sample_every``
steps) hands every die's pose to the shared settle test, sets aside the dice whose status
can no longer change, watches the spinner and, when asked, records a replay frame;
contacts with the spinner card are checked every step; the tunnel watch compares centres
between samples; the throw ends at ``time_cap`` otherwise.

MuJoCo's island sleeping freezes a body that stays slow for a few steps. A die on the board
that does not lie flat is kept awake until it has been slow for
:data:`physics.settle.SLEEP_AFTER` seconds (:meth:`~physics.mujoco_world.MujocoWorld.keep_awake`),
as the PyBullet loop puts such a die to sleep only then: frozen at the instant it stopped
at the top of a rock, a die stayed balanced on its edge and was read as resting. MuJoCo
puts no die to sleep on the loop's word, so a lying die that never left its pose (its
anchor never moved) is reported at its exact lying pose, as the PyBullet world reports a
die that never woke.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from physics.result import ThrowResult, finish, lying_dice
from physics.settle import Settle, outcomes
from physics.status import TunnelWatch
from physics.throw import Throw
from physics.trajectory import Recorder
from rules.outcome import Pose


def run_throw(
    world,
    throw: Throw,
    lying: Mapping[str, Pose] | None = None,
    spinner_angle: float = 0.0,
    *,
    record: bool = False,
    watch: bool = True,
) -> ThrowResult:
    """Simulate ``throw`` in a :class:`~physics.mujoco_world.MujocoWorld` (arguments as :func:`physics.run.run_throw`)."""
    lying = lying_dice(throw, lying)
    world.reset(lying, spinner_angle, throw.releases)
    owners = (*throw.owners, *lying)
    n, s = len(owners), world.settings
    cols = np.array([world.index[o] for o in owners])  # world order → our order
    halves = [world.dice[o].half for o in owners]
    corner = np.array([math.sqrt(3) * h for h in halves])  # centre-to-corner distance (m)
    tw = TunnelWatch(world.zones, max(world.dice[o].size for o in owners)) if watch else None
    spinner = world.spinner_id is not None
    every = world.sample_every
    dt = world.time_step * every
    pos, quat = _poses(world, cols)
    settle = Settle(s, world.zones, halves, zip(pos, quat), world.spinner_angle() if spinner else None)
    touched: set[str] = set()
    recorder = Recorder(owners) if record else None
    if recorder is not None:
        _record(recorder, world, cols, 0.0, pos, quat)
    t, steps, settled = 0.0, 0, False
    for _ in range(math.ceil(s.time_cap / s.sample_dt)):
        if spinner:
            for _k in range(every):
                world.step()
                touched |= world.spinner_touching()
        else:
            world.steps(every)
        steps += every
        t += dt
        new_pos, new_quat = _poses(world, cols)
        v2, w2 = (a[cols] for a in world.speeds())
        reach = (np.sqrt(v2) + np.sqrt(w2) * corner).tolist()  # fastest point of each die (m/s)
        restless = []
        for i in range(n):
            flat = settle.observe(i, (new_pos[i], new_quat[i]), t)
            if settle.restless(i, flat, new_pos[i], settle.slow(i, reach[i], t)):
                restless.append(owners[i])
        world.keep_awake(restless)
        if tw is not None:
            moved = {i: (new_pos[i], new_quat[i]) for i in range(n) if new_pos[i] != pos[i]}
            if moved:
                tw.check_sample(owners, pos, moved, halves)
        pos, quat = new_pos, new_quat
        for i in list(settle.undecided):
            settle.decide(i, pos[i], quat[i])
        if spinner:
            settle.observe_spinner(world.spinner_angle(), t)
        if recorder is not None:
            _record(recorder, world, cols, t, pos, quat)
        if settle.settled(t):
            settled = True
            break
    unsettled = () if settled else tuple(owners[i] for i in settle.unsettled(t))
    kept = [i >= len(throw.owners) and settle.since[i] == 0.0 for i in range(n)]  # never left its anchor
    dice = outcomes(world, owners, zip(pos, quat), lying, kept, touched)
    return finish(world, throw, dice, t, steps, settled, unsettled, tw, recorder, engine="mujoco")


def _poses(world, cols) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Every die's position and quaternion ``(x, y, z, w)`` as tuples of floats, in the loop's order."""
    pos, quat = (a[cols] for a in world.poses())
    return [tuple(p) for p in pos.tolist()], [tuple(q) for q in quat.tolist()]


def _record(recorder: Recorder, world, cols, t: float, pos, quat) -> None:
    vel = world.data.qvel[: 6 * len(world.owners)].reshape(-1, 6)[cols, :3]
    recorder.add(t, [list(p) for p in pos], [list(q) for q in quat], vel.tolist(), world.spinner_angle())
