"""Run a throw to rest: step, test for rest, read every die's outcome.

:func:`run_throw` sets the world up (:meth:`physics.world.World.reset`) with the lying
dice and the spinner's angle, releases the thrown dice and steps. Each step is cut into
sub-steps while dice move fast (``settings.max_travel``: the fastest point of any die moves
at most that far per sub-step; the speed is read at every sample). Every
``settings.sample_every`` steps it takes a *sample*: dice still moving are read, dice whose
status can no longer change (fully in the cavity) are set aside, the tunnel watch compares
centres, and, when asked, a replay frame is recorded. Dice that leave the box fall onto
the table (or off its edge onto the room's floor) and must come to rest there too.

The settle test looks at poses, not velocities: a die is still once it has stayed within
``settle_distance`` and ``settle_angle`` of one pose (a die whose status is ``off`` — on
the rim, a bet card, the table — or ``hole`` by its centre alone: the rules read no face of it, and
on the single-point contact of a card's hull a die can rock in place for ever) for
``settle_hold`` seconds if it lies
flat (on the playfield, the table or the floor), ``settle_hold_leaning`` otherwise (a die
leaning on a wall or another die can creep for a while before it slides or topples; on
the board such a die must also keep the tighter ``settle_distance_leaning`` and
``settle_angle_leaning``, so a creep toward a tipping point is not read as rest);
Bullet reports velocities of a few mm/s for dice resting on hulls or leaning in the
cavity that never move them. The throw has come to rest when every die not set aside —
and the spinner — is still; it ends at ``time_cap`` otherwise, with ``settled = False``
and the dice still moving named, and every die still gets a status from where it is then.
A die found lying flat slower than ``settle_speed``/``settle_spin`` is put to sleep at
once (it wakes when touched). Once a sample finds every die asleep on a side without a
spinner, the world is frozen: the samples left to the verdict are counted, not stepped. Contacts with the spinner card are checked every sub-step
(bet G needs them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from physics.die_shape import lies_flat
from physics.result import ThrowResult, finish, lying_dice
from physics.status import TunnelWatch, check_pairs
from physics.throw import Throw
from physics.trajectory import Recorder
from physics.world import World

if TYPE_CHECKING:
    from physics.engine import PhysicsWorld
from rules.doppelx.outcome import DieOutcome, Pose, Status


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


def _run_pybullet(  # noqa: C901, PLR0915  (split into named steps by issue 31 point 1)
    world: World,
    throw: Throw,
    lying: Mapping[str, Pose] | None,
    spinner_angle: float,
    record: bool,
    watch: bool,
    schedule: EngineSchedule | None,
    frozen_end: bool,
) -> ThrowResult:
    """:func:`run_throw` in PyBullet's world."""
    lying = lying_dice(throw, lying)
    world.reset(lying, spinner_angle, throw.releases)
    owners = (*throw.owners, *lying)
    thrown = len(throw.owners)
    s = world.settings
    p, cid = world.p, world.client
    bodies = [world.body_of[o] for o in owners]
    halves = [world.dice[o].half for o in owners]
    zones = world.zones
    tw = TunnelWatch(zones, max(world.dice[o].size for o in owners)) if watch else None
    # positional client ids: PyBullet parses them faster than keywords (~0.1 µs a call)
    getpose, getvel, step = p.getBasePositionAndOrientation, p.getBaseVelocity, p.stepSimulation
    spinner = world.spinner_id is not None
    speed2, spin2 = s.settle_speed**2, s.settle_spin**2
    d2 = s.settle_distance**2
    cos_half = math.cos(s.settle_angle / 2)
    d2_leaning = s.settle_distance_leaning**2
    cos_half_leaning = math.cos(s.settle_angle_leaning / 2)
    sleep_still, sample_every, sample_dt = s.sleep_still, s.sample_every, s.sample_dt
    sleep_speed = s.sleep_threshold
    n = len(owners)
    index = range(n)
    poses = [getpose(b, physicsClientId=cid) for b in bodies]
    pos = [pq[0] for pq in poses]
    anchor = list(poses)  # pose each die has stayed near ...
    since = [0.0] * n  # ... since this time
    slow_since = [0.0] * n  # every point of the die slower than settings.sleep_threshold since
    hold = [s.settle_hold] * n  # ... and must stay for this long (longer unless lying flat)
    spin_anchor, spin_since = world.spinner_angle(), 0.0
    moved = [i < thrown for i in index]
    undecided = list(index)
    touched: set[str] = set()
    recorder = Recorder(owners) if record else None
    if recorder is not None:
        _record(recorder, world, bodies, 0.0)
    still = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    rim_z, hx, hy, mid_insert = zones.rim_z, zones.hx, zones.hy, zones.insert_bottom / 2
    pairs = tw is not None and n > 1
    t, steps, settled = 0.0, 0, False
    max_samples = int(math.ceil(s.time_cap / sample_dt))
    adaptive, max_substeps = s.max_travel > 0, s.max_substeps
    margin = s.gravity * sample_dt  # what gravity adds to a speed over one sample
    corner = [math.sqrt(3) * h for h in halves]  # centre-to-corner distance (m)
    fastest = max(
        (
            math.sqrt(sum(x * x for x in r.velocity))
            + math.sqrt(sum(x * x for x in r.angular_velocity)) * corner[i]
            for i, r in enumerate(throw.releases)
        ),
        default=0.0,
    )
    table_z, ground_z = zones.table_z, zones.ground_z
    insert_bottom = zones.insert_bottom
    for sample in range(max_samples):
        if adaptive:
            k = math.ceil((fastest + margin) * s.time_step / s.max_travel - 1e-9)  # SimSettings.substeps
            k = 1 if k < 1 else max_substeps if k > max_substeps else k
            if k != world.substeps:
                world.set_substeps(k)
        k = world.substeps
        if spinner:
            for _k in range(sample_every * k):
                step(cid)
                touched |= world.spinner_touching()
        else:
            for _k in range(sample_every * k):
                step(cid)
        steps += sample_every * k
        t += sample_dt
        new = {}
        fastest = 0.0
        slept: list[str] = []
        awake = False
        for i in index:
            vw = getvel(bodies[i], cid)
            if vw == still:
                continue  # asleep: exactly where it was
            moved[i] = awake = True
            v, w = vw
            v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
            w2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
            reach = math.sqrt(v2) + math.sqrt(w2) * corner[i]  # fastest point of the die
            if reach > fastest:
                fastest = reach
            if reach > sleep_speed:
                slow_since[i] = t
            elif t - slow_since[i] >= SLEEP_AFTER - 1e-9:
                # Bullet's own sleeping, judged by the die's fastest point: PyBullet gives one
                # threshold for m/s and rad/s, and a creeping die's spin jitters past it
                world.sleep(owners[i])
                slept.append(owners[i])
                continue
            position, quat = pq = getpose(bodies[i], cid)
            new[i] = pq
            a_pos, a_q = anchor[i]
            dx, dy, dz = position[0] - a_pos[0], position[1] - a_pos[1], position[2] - a_pos[2]
            dist2 = dx * dx + dy * dy + dz * dz
            dot = abs(quat[0] * a_q[0] + quat[1] * a_q[1] + quat[2] * a_q[2] + quat[3] * a_q[3])
            flat = lies_flat(position, quat, halves[i], table_z, ground_z)
            if dist2 > d2:
                left = True
            elif flat:  # a turn counts on the board only (off on the table or floor: where it lies counts)
                left = dot < cos_half and zones.status(position) is Status.BOARD
            elif zones.status(position) is Status.BOARD:  # leaning on the board: a creep is a move
                left = dist2 > d2_leaning or dot < cos_half_leaning
            else:
                left = False  # off (rim, card) or in a hole: only where it lies counts
            if left:
                anchor[i] = pq
                since[i] = t
            hold[i] = s.settle_hold if flat else s.settle_hold_leaning
            if sleep_still and flat and v2 < speed2 and w2 < spin2:
                world.sleep(owners[i])
                slept.append(owners[i])
        if schedule is not None:
            schedule.samples.append((k, tuple(slept)))
        if new:
            if tw is not None:
                for i, pq in new.items():
                    a, b = pos[i], pq[0]
                    if a[2] > rim_z and b[2] > rim_z:
                        continue  # wholly above the rim it crosses nothing
                    if (
                        a[2] > mid_insert
                        and b[2] > mid_insert
                        and abs(a[0]) < hx
                        and abs(b[0]) < hx
                        and abs(a[1]) < hy
                        and abs(b[1]) < hy
                    ):
                        continue  # above the insert, inside the walls: nothing to cross (TunnelWatch.check)
                    tw.check(owners[i], a, b)
                if pairs:
                    check_pairs(tw, owners, pos, new, halves)
            for i, pq in new.items():
                position = pos[i] = pq[0]
                # Zones.decided says yes only below the insert (in the cavity, or off the room's floor)
                if position[2] < insert_bottom and i in undecided:
                    if zones.decided(position, pq[1], halves[i]) is not None:
                        undecided.remove(i)
        if spinner:
            angle = world.spinner_angle()
            if abs(angle - spin_anchor) > s.settle_angle:
                spin_anchor, spin_since = angle, t
        if recorder is not None:
            _record(recorder, world, bodies, t)
        now = t + 1e-9
        for i in undecided:
            if since[i] + hold[i] > now:
                break
        else:
            if not spinner or spin_since + s.settle_hold <= now:
                settled = True
                break
        if not awake and not spinner and recorder is None and frozen_end:
            # every die asleep and nothing else can move: the world is frozen, so the samples
            # left would only run out the holds; count them without stepping (bit for bit
            # the same end, time and verdict)
            t, settled = _run_out(t, sample_dt, max_samples - sample - 1, undecided, since, hold)
            break
    unsettled = () if settled else tuple(owners[i] for i in undecided if since[i] + hold[i] > t + 1e-9)
    dice = []
    for i, owner in enumerate(owners):
        position, quat = getpose(bodies[i], physicsClientId=cid)
        if not moved[i] and _unmoved(lying[owner], position, quat):
            pose = lying[owner]  # the very pose it was given, not its float echo
        else:  # moved, perhaps only between two samples (woken and put back to sleep)
            pose = Pose(tuple(position), tuple(quat))
        dice.append(DieOutcome(owner, zones.status(pose.position, halves[i]), pose, owner in touched))
    dice = zones.final(dice, world.board, world.dice)  # off the playfield, held up over a hole
    return finish(world, throw, dice, t, steps, settled, unsettled, tw, recorder)


def _run_out(t: float, sample_dt: float, samples: int, undecided, since, hold) -> tuple[float, bool]:
    """The end of a frozen throw: the time its last hold runs out (at a sample), or the cap.

    The samples a frozen world would still take change nothing but the clock, so this
    advances the clock the same way (``t += sample_dt``, the same sums) through at most
    ``samples`` more samples and applies the same settle test. Returns ``(t, settled)``.
    """
    for _ in range(samples):
        t += sample_dt
        now = t + 1e-9
        if all(since[i] + hold[i] <= now for i in undecided):
            return t, True
    return t, False


#: Bullet's time to sleep (its ``gDeactivationTime``): a die slower than the sleep threshold
#: at its fastest point for this long (s) is put to sleep.
SLEEP_AFTER = 2.0


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
