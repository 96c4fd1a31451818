"""Run a throw to rest in the MuJoCo world: the settle test of :mod:`physics.run`, on numpy arrays.

The same rules as the PyBullet run loop (:func:`physics.run.run_throw`, which hands MuJoCo
worlds to :func:`run_throw` here): a sample every ``settings.sample_dt`` seconds; a die is
still once it stayed within ``settle_distance``/``settle_angle`` of one pose for
``settle_hold`` if it lies flat, ``settle_hold_leaning`` otherwise (a die off the board or in
a hole by its centre alone: no face of it is read); dice whose status can no longer change
are set aside; the spinner must be
still too; contacts with the spinner card are checked every step; the tunnel watch compares
centres between samples; the throw ends at ``time_cap`` otherwise. MuJoCo has no sleeping
bodies here, so a lying die that never left its pose (its anchor never moved) is reported
at its exact lying pose, as the PyBullet world reports a die that never woke. For the same
reason the PyBullet loop's tighter test of dice leaning on the board
(``settle_distance_leaning``/``settle_angle_leaning``) is not applied here: it relies on the
sleep that ends a creep after 2 s, and a creeping die would run to the time cap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from physics.die_shape import lies_flat
from physics.result import ThrowResult, finish, lying_dice
from physics.status import TunnelWatch, check_pairs
from physics.throw import Throw
from physics.trajectory import Recorder
from rules.doppelx.outcome import DieOutcome, Pose, Status


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
    thrown = len(throw.owners)
    s = world.settings
    cols = np.array([world.index[o] for o in owners])  # world order → our order
    halves = [world.dice[o].half for o in owners]
    zones = world.zones
    tw = TunnelWatch(zones, max(world.dice[o].size for o in owners)) if watch else None
    spinner = world.spinner_id is not None
    every = world.sample_every
    dt = world.time_step * every
    d2 = s.settle_distance**2
    cos_half = math.cos(s.settle_angle / 2)
    n = len(owners)
    pos, quat = (a[cols] for a in world.poses())
    anchor_p, anchor_q = pos.copy(), quat.copy()
    since = np.zeros(n)
    hold = np.full(n, s.settle_hold)  # how long each die must keep its pose (longer unless lying flat)
    spin_anchor, spin_since = world.spinner_angle(), 0.0
    moved = np.array([i < thrown for i in range(n)])
    undecided = np.ones(n, dtype=bool)
    touched: set[str] = set()
    recorder = Recorder(owners) if record else None
    if recorder is not None:
        _record(recorder, world, cols, 0.0, pos, quat)
    t, steps, settled = 0.0, 0, False
    max_samples = int(math.ceil(s.time_cap / s.sample_dt))
    for _ in range(max_samples):
        if spinner:
            for _k in range(every):
                world.step()
                touched |= world.spinner_touching()
        else:
            world.steps(every)
        steps += every
        t += dt
        new_p, new_q = (a[cols] for a in world.poses())
        far = ((new_p - anchor_p) ** 2).sum(axis=1) > d2
        turned = np.abs((new_q * anchor_q).sum(axis=1)) < cos_half
        for i in map(int, np.nonzero(turned & ~far)[0]):
            if zones.status(tuple(new_p[i])) is not Status.BOARD:
                turned[i] = False  # off (rim, card, table) or in a hole: no face is read, only where it lies
        left = far | turned
        anchor_p[left], anchor_q[left], since[left] = new_p[left], new_q[left], t
        moved |= left
        if tw is not None:
            idx = np.nonzero(np.any(new_p != pos, axis=1))[0]
            changed = {int(i): (tuple(new_p[i]), tuple(new_q[i])) for i in idx}
            old = [tuple(p) for p in pos]
            for i, (position, _) in changed.items():
                tw.check(owners[i], old[i], position)
            if changed and n > 1:
                check_pairs(tw, owners, old, changed, halves)
        pos, quat = new_p, new_q
        for i in range(n):  # a die not lying flat must keep its pose longer (physics.run)
            flat = lies_flat(
                tuple(map(float, pos[i])),
                tuple(map(float, quat[i])),
                halves[i],
                zones.table_z,
                zones.ground_z,
            )
            hold[i] = s.settle_hold if flat else s.settle_hold_leaning
        for u in map(int, np.nonzero(undecided)[0]):
            if zones.decided(tuple(pos[u]), tuple(quat[u]), halves[u]) is not None:
                undecided[u] = False
        if spinner:
            angle = world.spinner_angle()
            if abs(angle - spin_anchor) > s.settle_angle:
                spin_anchor, spin_since = angle, t
        if recorder is not None:
            _record(recorder, world, cols, t, pos, quat)
        limit = t + 1e-9 - hold
        if np.all(since[undecided] <= limit[undecided]) and (
            not spinner or spin_since <= t - s.settle_hold + 1e-9
        ):
            settled = True
            break
    limit = t + 1e-9 - hold
    unsettled = () if settled else tuple(owners[i] for i in np.nonzero(undecided & (since > limit))[0])
    dice = []
    for i, owner in enumerate(owners):
        if not moved[i]:
            pose = lying[owner]
        else:
            x, y, z = map(float, pos[i])
            qx, qy, qz, qw = map(float, quat[i])
            pose = Pose((x, y, z), (qx, qy, qz, qw))
        dice.append(DieOutcome(owner, zones.status(pose.position, halves[i]), pose, owner in touched))
    dice = zones.final(dice, world.board, world.dice)  # off the playfield, held up over a hole
    return finish(world, throw, dice, t, steps, settled, unsettled, tw, recorder, engine="mujoco")


def _record(recorder: Recorder, world, cols, t: float, pos, quat) -> None:
    vel = world.data.qvel[: 6 * len(world.owners)].reshape(-1, 6)[cols, :3]
    recorder.add(t, pos.tolist(), quat.tolist(), vel.tolist(), world.spinner_angle())
