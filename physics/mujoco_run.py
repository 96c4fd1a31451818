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
from rules.doppelx.outcome import Pose


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
    run = _MujocoRun(world, throw, lying, record, watch)
    every, s = world.sample_every, world.settings
    dt = world.time_step * every
    t, steps, settled = 0.0, 0, False
    for _ in range(math.ceil(s.time_cap / s.sample_dt)):
        run.step(every)
        steps += every
        t += dt
        run.read(t)
        if run.settle.settled(t):
            settled = True
            break
    return run.finish(t, steps, settled)


class _MujocoRun:
    """One throw in MuJoCo's world: its dice, the settle test and the steps of a sample.

    Dice are indexed as ``owners``: the thrown ones, then the lying ones.
    """

    def __init__(self, world, throw: Throw, lying: dict[str, Pose], record: bool, watch: bool):
        self.world, self.throw, self.lying = world, throw, lying
        self.owners = owners = (*throw.owners, *lying)
        self.cols = np.array([world.index[o] for o in owners])  # world order → our order
        self.halves = halves = [world.dice[o].half for o in owners]
        self.corner = np.array([math.sqrt(3) * h for h in halves])  # centre-to-corner distance (m)
        self.tw = TunnelWatch(world.zones, max(world.dice[o].size for o in owners)) if watch else None
        self.spinner = world.spinner_id is not None
        self.pos, self.quat = _poses(world, self.cols)  # every die's pose at the last sample
        angle = world.spinner_angle() if self.spinner else None
        self.settle = Settle(world.settings, world.zones, halves, zip(self.pos, self.quat), angle)
        self.touched: set[str] = set()
        self.recorder = Recorder(owners) if record else None
        if self.recorder is not None:
            _record(self.recorder, world, self.cols, 0.0, self.pos, self.quat)

    def step(self, every: int) -> None:
        """Step one sample (``every`` steps); with a spinner, its contacts after every step (bet G)."""
        world = self.world
        if self.spinner:
            for _k in range(every):
                world.step()
                self.touched |= world.spinner_touching()
        else:
            world.steps(every)

    def read(self, t: float) -> None:
        """The sample at ``t``: the settle test, dice kept awake, the tunnel watch, dice set aside, the spinner."""
        world, settle, n = self.world, self.settle, len(self.owners)
        pos, quat = _poses(world, self.cols)
        v2, w2 = (a[self.cols] for a in world.speeds())
        reach = (np.sqrt(v2) + np.sqrt(w2) * self.corner).tolist()  # fastest point of each die (m/s)
        restless = []
        for i in range(n):
            flat = settle.observe(i, (pos[i], quat[i]), t)
            if settle.restless(i, flat, pos[i], settle.slow(i, reach[i], t)):
                restless.append(self.owners[i])
        world.keep_awake(restless)
        moved = {i: (pos[i], quat[i]) for i in range(n) if pos[i] != self.pos[i]}
        if self.tw is not None and moved:
            self.tw.check_sample(self.owners, self.pos, moved, self.halves)
        self.pos, self.quat = pos, quat
        for i in list(settle.undecided):
            settle.decide(i, pos[i], quat[i])
        if self.spinner:
            settle.observe_spinner(world.spinner_angle(), t)
        if self.recorder is not None:
            _record(self.recorder, world, self.cols, t, pos, quat)

    def finish(self, t: float, steps: int, settled: bool) -> ThrowResult:
        """The result at ``t``: every die's outcome where it is (a lying die that never left its anchor at its given pose)."""
        owners, settle = self.owners, self.settle
        unsettled = () if settled else tuple(owners[i] for i in settle.unsettled(t))
        thrown = len(self.throw.owners)
        kept = [i >= thrown and settle.since[i] == 0.0 for i in range(len(owners))]
        dice = outcomes(self.world, owners, zip(self.pos, self.quat), self.lying, kept, self.touched)
        return finish(
            self.world,
            self.throw,
            dice,
            t,
            steps,
            settled,
            unsettled,
            self.tw,
            self.recorder,
            engine="mujoco",
        )


def _poses(world, cols) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Every die's position and quaternion ``(x, y, z, w)`` as tuples of floats, in the loop's order."""
    pos, quat = (a[cols] for a in world.poses())
    return [tuple(p) for p in pos.tolist()], [tuple(q) for q in quat.tolist()]


def _record(recorder: Recorder, world, cols, t: float, pos, quat) -> None:
    vel = world.data.qvel[: 6 * len(world.owners)].reshape(-1, 6)[cols, :3]
    recorder.add(t, [list(p) for p in pos], [list(q) for q in quat], vel.tolist(), world.spinner_angle())
