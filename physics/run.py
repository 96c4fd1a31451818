"""Run a throw to rest: step, test for rest, read every die's outcome.

:func:`run_throw` sets the world up (:meth:`physics.world.World.reset`) with the lying
dice and the spinner's angle, releases the thrown dice and steps. Each step is cut into
sub-steps while dice move fast (``settings.max_travel``: the fastest point of any die moves
at most that far per sub-step; the speed is read at every sample). Every
``settings.sample_every`` steps it takes a *sample*: dice still moving are read, dice whose
status can no longer change (fully in the cavity) are set aside, the tunnel watch compares
centres, and, when asked, a replay frame is recorded. Dice that leave the box fall onto
the table (or off its edge onto the room's floor) and must come to rest there too.

The settle test is :class:`physics.settle.Settle`, the MuJoCo loop's too: a die is still
once it has held one pose for a while (longer, and tighter on the board, unless it lies
flat). Bullet reports velocities of a few mm/s for dice resting on hulls or leaning in the
cavity that never move them, so the loop judges poses, and puts a die to sleep once its
fastest point has been slower than ``sleep_threshold`` for :data:`SLEEP_AFTER` seconds, or
at once when it lies flat slower than ``settle_speed``/``settle_spin`` (it wakes when
touched). The throw has come to rest when every die not set aside — and the spinner — is
still; it ends at ``time_cap`` otherwise, with ``settled = False`` and the dice still
moving named, and every die still gets a status from where it is then. Once a sample finds
every die asleep on a side without a spinner, the world is frozen: the samples left to the
verdict are counted, not stepped. Contacts with the spinner card are checked every
sub-step (bet G needs them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from physics.result import ThrowResult, finish, lying_dice
from physics.settle import PoseTuple, Settle, outcomes
from physics.status import TunnelWatch
from physics.throw import Throw
from physics.trajectory import Recorder
from physics.world import World
from rules.common.vec import norm

if TYPE_CHECKING:
    from physics.engine import PhysicsWorld
from rules.doppelx.outcome import Pose


def run_throw(
    world: PhysicsWorld,
    throw: Throw,
    lying: Mapping[str, Pose] | None = None,
    spinner_angle: float = 0.0,
    *,
    record: bool = False,
    watch: bool = True,
    schedule: EngineSchedule | None = None,
    frozen_end: bool = True,
) -> ThrowResult:
    """Simulate ``throw`` onto the table with the ``lying`` dice until everything rests.

    Args:
        world: the world of the board (set up here for this throw: its static tray is kept).
        throw: the dice released and how.
        lying: dice lying on the board from earlier throws (not among the thrown ones).
        spinner_angle: where the spinner points before the throw (rad).
        record: keep replay frames at the sample rate.
        watch: run the tunnel watch.
        schedule: if given, filled with what the engine was asked to do (see
            :class:`EngineSchedule`), so that ``benchmarks/throughput.py`` can replay the
            same engine work alone.
        frozen_end: end the stepping as soon as the world is frozen — every die asleep,
            no spinner, nothing recorded — and count the samples left to the settle
            verdict without stepping them (the same dice, time and verdict; ``steps``
            counts the steps taken). False steps them (the tests compare the two).
            MuJoCo's run always steps to the verdict.
    """
    if world.engine == "mujoco":  # the second engine (physics.engine)
        from physics.mujoco_run import run_throw as run_mujoco

        if schedule is not None:
            raise ValueError("an engine schedule is recorded and replayed for PyBullet's world only")
        return run_mujoco(world, throw, lying, spinner_angle, record=record, watch=watch)
    if not isinstance(world, World):
        raise TypeError(f"run_throw: a world of engine {world.engine!r} that is not physics.world.World")
    return _run_pybullet(world, throw, lying, spinner_angle, record, watch, schedule, frozen_end)


def _run_pybullet(
    world: World,
    throw: Throw,
    lying: Mapping[str, Pose] | None,
    spinner_angle: float,
    record: bool,
    watch: bool,
    schedule: EngineSchedule | None,
    frozen_end: bool,
) -> ThrowResult:
    """:func:`run_throw` in PyBullet's world: step a sample, read the dice, test for rest."""
    lying = lying_dice(throw, lying)
    world.reset(lying, spinner_angle, throw.releases)
    run = _PybulletRun(world, throw, lying, record, watch)
    settle, spinner, recorder = run.settle, run.spinner, run.recorder
    s = world.settings
    sample_every, sample_dt = s.sample_every, s.sample_dt
    max_samples = int(math.ceil(s.time_cap / sample_dt))
    t, steps, settled = 0.0, 0, False
    for sample in range(max_samples):
        k = run.step(sample_every)
        steps += sample_every * k
        t += sample_dt
        new, slept, awake = run.read(t)
        if schedule is not None:
            schedule.samples.append((k, tuple(slept)))
        if new:
            run.take(new)
        if spinner:
            settle.observe_spinner(world.spinner_angle(), t)
        if recorder is not None:
            _record(recorder, world, run.bodies, t)
        if settle.settled(t):
            settled = True
            break
        if not awake and not spinner and recorder is None and frozen_end:
            # every die asleep and nothing else can move: the world is frozen, so the samples
            # left would only run out the holds; count them without stepping (bit for bit
            # the same end, time and verdict)
            t, settled = settle.run_out(t, sample_dt, max_samples - sample - 1)
            break
    return run.finish(t, steps, settled)


#: The velocities PyBullet reports for a sleeping body (exactly zero).
_STILL = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))


class _PybulletRun:
    """One throw in PyBullet's world: its dice, the settle test and the steps of a sample.

    Dice are indexed as ``owners``: the thrown ones, then the lying ones.
    """

    def __init__(self, world: World, throw: Throw, lying: dict[str, Pose], record: bool, watch: bool):
        self.world, self.throw, self.lying = world, throw, lying
        self.owners = owners = (*throw.owners, *lying)
        s, cid = world.settings, world.client
        self.bodies = bodies = [world.body_of[o] for o in owners]
        self.halves = halves = [world.dice[o].half for o in owners]
        self.corner = [math.sqrt(3) * h for h in halves]  # centre-to-corner distance (m)
        self.tw = TunnelWatch(world.zones, max(world.dice[o].size for o in owners)) if watch else None
        self.spinner = world.spinner_id is not None
        poses = [world.p.getBasePositionAndOrientation(b, physicsClientId=cid) for b in bodies]
        self.pos = [pq[0] for pq in poses]  # every die's centre at the last sample
        self.settle = Settle(s, world.zones, halves, poses, world.spinner_angle() if self.spinner else None)
        self.moved = [i < len(throw.owners) for i in range(len(owners))]  # awake at a sample
        self.touched: set[str] = set()
        self.recorder = Recorder(owners) if record else None
        if self.recorder is not None:
            _record(self.recorder, world, bodies, 0.0)
        self.margin = s.gravity * s.sample_dt  # what gravity adds to a speed over one sample
        #: the fastest point of any die at the last sample (m/s): it sets the next sub-steps
        self.fastest = max(
            (
                norm(r.velocity) + norm(r.angular_velocity) * self.corner[i]
                for i, r in enumerate(throw.releases)
            ),
            default=0.0,
        )

    def step(self, sample_every: int) -> int:
        """Step one sample, cut into sub-steps by the fastest die (``settings.max_travel``); returns the sub-steps."""
        world, s = self.world, self.world.settings
        if s.max_travel > 0:
            k = math.ceil(
                (self.fastest + self.margin) * s.time_step / s.max_travel - 1e-9
            )  # SimSettings.substeps
            k = 1 if k < 1 else s.max_substeps if k > s.max_substeps else k
            if k != world.substeps:
                world.set_substeps(k)
        k = world.substeps
        step, cid = world.p.stepSimulation, world.client
        if self.spinner:  # bet G needs every contact with the card
            for _k in range(sample_every * k):
                step(cid)
                self.touched |= world.spinner_touching()
        else:
            for _k in range(sample_every * k):
                step(cid)
        return k

    def read(self, t: float) -> tuple[dict[int, PoseTuple], list[str], bool]:
        """Read the dice awake at ``t`` into the settle test and put the ones at rest to sleep.

        Returns the new poses of the dice read, the dice put to sleep, and whether any die
        was awake. A die slow for :data:`SLEEP_AFTER` seconds is put to sleep (Bullet's own
        sleeping, judged by the die's fastest point: PyBullet gives one threshold for m/s and
        rad/s, and a creeping die's spin jitters past it); so is a die lying flat slower than
        ``settle_speed``/``settle_spin`` (``sleep_still``).
        """
        world, s, owners, bodies, corner, moved = (
            self.world,
            self.world.settings,
            self.owners,
            self.bodies,
            self.corner,
            self.moved,
        )
        # positional client ids: PyBullet parses them faster than keywords (~0.1 µs a call)
        getvel, getpose, cid = world.p.getBaseVelocity, world.p.getBasePositionAndOrientation, world.client
        observe, slow = self.settle.observe, self.settle.slow
        sleep_still, speed2, spin2 = s.sleep_still, s.settle_speed**2, s.settle_spin**2
        new: dict[int, PoseTuple] = {}
        slept: list[str] = []
        fastest, awake = 0.0, False
        for i in range(len(bodies)):
            vw = getvel(bodies[i], cid)
            if vw == _STILL:
                continue  # asleep: exactly where it was
            moved[i] = awake = True
            v, w = vw
            v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
            w2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            reach = math.sqrt(v2) + math.sqrt(w2) * corner[i]  # fastest point of the die
            if reach > fastest:
                fastest = reach
            if slow(i, reach, t):
                world.sleep(owners[i])
                slept.append(owners[i])
                continue
            pq = new[i] = getpose(bodies[i], cid)
            flat = observe(i, pq, t)
            if sleep_still and flat and v2 < speed2 and w2 < spin2:
                world.sleep(owners[i])
                slept.append(owners[i])
        self.fastest = fastest
        return new, slept, awake

    def take(self, new: dict[int, PoseTuple]) -> None:
        """The dice read at this sample moved to ``new``: the tunnel watch, then the dice set aside."""
        if self.tw is not None:
            self.tw.check_sample(self.owners, self.pos, new, self.halves)
        pos, decide, insert_bottom = self.pos, self.settle.decide, self.world.zones.insert_bottom
        for i, (position, quat) in new.items():
            pos[i] = position
            if position[2] < insert_bottom:  # (Settle.decide's first test, without the call)
                decide(i, position, quat)

    def finish(self, t: float, steps: int, settled: bool) -> ThrowResult:
        """The result at ``t``: every die's outcome where it is (a die that never moved at its given pose)."""
        world, owners, lying = self.world, self.owners, self.lying
        unsettled = () if settled else tuple(owners[i] for i in self.settle.unsettled(t))
        getpose, cid = world.p.getBasePositionAndOrientation, world.client
        poses = [getpose(b, physicsClientId=cid) for b in self.bodies]
        # a die that moved, perhaps only between two samples (woken and put back to sleep), is where it is
        kept = [not self.moved[i] and _unmoved(lying[o], *poses[i]) for i, o in enumerate(owners)]
        dice = outcomes(world, owners, poses, lying, kept, self.touched)
        return finish(world, self.throw, dice, t, steps, settled, unsettled, self.tw, self.recorder)


def _unmoved(pose: Pose, position, quat) -> bool:
    """The body is still at ``pose`` (to rounding: within 1 µm and a few µrad)."""
    a, q = pose.position, pose.quaternion
    near = (position[0] - a[0]) ** 2 + (position[1] - a[1]) ** 2 + (position[2] - a[2]) ** 2 < 1e-12
    return near and abs(sum(q[k] * quat[k] for k in range(4))) > 1.0 - 1e-12  # within ~3 µrad


@dataclass
class EngineSchedule:
    """What one throw asked of the engine, to replay it alone (``run_throw(schedule=...)``).

    ``samples``: per sample, the sub-steps per step it ran with and the dice put to sleep
    at its end.
    """

    samples: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)


def _record(recorder: Recorder, world: World, bodies, t: float) -> None:
    p, cid = world.p, world.client
    ps, qs, vs = [], [], []
    for b in bodies:
        pos, q = p.getBasePositionAndOrientation(b, physicsClientId=cid)
        ps.append(pos)
        qs.append(q)
        vs.append(p.getBaseVelocity(b, physicsClientId=cid)[0])
    recorder.add(t, ps, qs, vs, world.spinner_angle())
