"""The settle test of a throw, one for both engines' run loops (:mod:`physics.run`, :mod:`physics.mujoco_run`).

A run loop takes a *sample* every ``settings.sample_dt`` seconds and hands each die's pose
(position m, quaternion ``(x, y, z, w)``) to :attr:`Settle.observe`. The test looks at
poses, not velocities: a die is still once it has stayed within ``settle_distance`` and
``settle_angle`` of one pose (a die whose status is ``off`` — on the rim, a bet card, the
table — or ``hole`` by its centre alone: the rules read no face of it) for ``settle_hold``
seconds if it lies flat (on the playfield, the table or the floor), ``settle_hold_leaning``
otherwise. A die on the board that does not lie flat (leaning on a wall or another die,
or cocked) must also keep the tighter ``settle_distance_leaning`` and
``settle_angle_leaning``: such a die can creep toward a tipping point before it slides or
topples, and a creep is not rest.

A die that does not lie flat may rest only once it has been slow at its fastest point
(under ``sleep_threshold``) for :data:`SLEEP_AFTER` seconds (:attr:`Settle.slow`): the
PyBullet loop then puts it to sleep (a creeping die would otherwise never hold the leaning
tolerance), and the MuJoCo loop keeps MuJoCo's island sleeping from freezing it before
that (:meth:`Settle.restless`) — a die stopped for an instant at the top of a rock onto its
edge was frozen there, balanced, and read as resting (docs/score-schema.md).

Dice whose status can no longer change (:meth:`physics.status.Zones.decided`: in the
cavity, or off the room's floor) are set aside (:meth:`Settle.decide`); the spinner must
be still too (:meth:`Settle.observe_spinner`). The throw has come to rest when every die
not set aside and the spinner have held still (:meth:`Settle.settled`); at the time cap
the dice still holding are named (:meth:`Settle.unsettled`). :func:`outcomes` reads every
die's outcome at the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from physics.die_shape import lies_flat
from rules.doppelx.outcome import DieOutcome, Pose, Status

if TYPE_CHECKING:
    from physics.engine import PhysicsWorld
    from physics.settings import SimSettings
    from physics.status import Zones

#: Bullet's time to sleep (its ``gDeactivationTime``): a die slower than the sleep threshold
#: at its fastest point for this long (s) may be put to sleep.
SLEEP_AFTER = 2.0

#: A die's pose: position (x, y, z) m and quaternion (x, y, z, w).
PoseTuple = tuple[Sequence[float], Sequence[float]]


class Settle:
    """The settle state of one throw's dice (indexed as the run loop's ``owners``) and its spinner.

    Args:
        settings: the settle tolerances and holds.
        zones: the box's zones (status of a position, dice set aside).
        halves: each die's half edge (m).
        poses: each die's pose at the start (its first anchor).
        spinner_angle: the spinner's angle at the start (rad), None without a spinner.

    Attributes:
        anchor: the pose each die has stayed near ...
        since: ... since this time (s; 0 until it first left its anchor) ...
        hold: ... and must stay near for this long (s; longer unless it lies flat).
        slow_since: the last sample (s) at which the die's fastest point was faster than
            ``sleep_threshold``.
        undecided: the dice not yet set aside, in index order.
    """

    def __init__(
        self,
        settings: SimSettings,
        zones: Zones,
        halves: Sequence[float],
        poses: Iterable[PoseTuple],
        spinner_angle: float | None,
    ):
        n = len(halves)
        self.settings, self.zones, self.halves = settings, zones, halves
        self.anchor: list[PoseTuple] = list(poses)
        self.since = [0.0] * n
        self.hold = [settings.settle_hold] * n
        self.slow_since = [0.0] * n
        self.undecided = list(range(n))
        self.spinner = spinner_angle is not None
        self.spin_anchor, self.spin_since = spinner_angle or 0.0, 0.0
        #: ``observe(i, pose, t) -> flat``: die ``i`` is at ``pose`` at time ``t``; moves its
        #: anchor if it left it, sets its hold and says whether it lies flat (a closure:
        #: the PyBullet loop calls it for every awake die at every sample)
        self.observe: Callable[[int, PoseTuple, float], bool] = _observer(
            settings, zones, halves, self.anchor, self.since, self.hold
        )
        #: ``slow(i, reach, t) -> bool``: die ``i``'s fastest point moves at ``reach`` (m/s)
        #: at ``t``; True once it has been slower than ``sleep_threshold`` for
        #: :data:`SLEEP_AFTER` seconds (it may sleep; a closure, as :attr:`observe`)
        self.slow: Callable[[int, float, float], bool] = _sleeper(settings.sleep_threshold, self.slow_since)

    def restless(self, i: int, flat: bool, position: Sequence[float], may_sleep: bool) -> bool:
        """Die ``i`` must not be frozen by an engine's sleeping: it is on the board, does not
        lie flat, and has not been slow for :data:`SLEEP_AFTER` seconds (``may_sleep``)."""
        return not (flat or may_sleep) and self.zones.status(position) is Status.BOARD

    def decide(self, i: int, position: Sequence[float], quaternion: Sequence[float]) -> None:
        """Set die ``i`` aside if its status can no longer change (in the cavity, off the room's floor).

        :meth:`physics.status.Zones.decided` says yes only below the insert's bottom, so a
        die above it costs one comparison.
        """
        if position[2] < self.zones.insert_bottom and i in self.undecided:
            if self.zones.decided(position, quaternion, self.halves[i]) is not None:
                self.undecided.remove(i)

    def observe_spinner(self, angle: float, t: float) -> None:
        """The spinner is at ``angle`` (rad) at ``t``: it holds still within ``settle_angle``."""
        if abs(angle - self.spin_anchor) > self.settings.settle_angle:
            self.spin_anchor, self.spin_since = angle, t

    def settled(self, t: float) -> bool:
        """Every die not set aside, and the spinner, has held still up to ``t``."""
        now = t + 1e-9
        since, hold = self.since, self.hold
        for i in self.undecided:
            if since[i] + hold[i] > now:
                return False
        return not self.spinner or self.spin_since + self.settings.settle_hold <= now

    def unsettled(self, t: float) -> list[int]:
        """The dice not set aside that have not held still up to ``t`` (the time cap)."""
        return [i for i in self.undecided if self.since[i] + self.hold[i] > t + 1e-9]

    def run_out(self, t: float, sample_dt: float, samples: int) -> tuple[float, bool]:
        """The end of a frozen throw: the time its last hold runs out (at a sample), or the cap.

        The samples a frozen world would still take change nothing but the clock, so this
        advances the clock the same way (``t += sample_dt``, the same sums) through at most
        ``samples`` more samples and applies the same test. Returns ``(t, settled)``.
        """
        for _ in range(samples):
            t += sample_dt
            now = t + 1e-9
            if all(self.since[i] + self.hold[i] <= now for i in self.undecided):
                return t, True
        return t, False


def _sleeper(sleep_speed: float, slow_since: list[float]) -> Callable[[int, float, float], bool]:
    """:attr:`Settle.slow` over the given state list."""

    def slow(i: int, reach: float, t: float) -> bool:
        if reach > sleep_speed:
            slow_since[i] = t
            return False
        return t - slow_since[i] >= SLEEP_AFTER - 1e-9

    return slow


def _observer(
    s: SimSettings,
    zones: Zones,
    halves: Sequence[float],
    anchor: list[PoseTuple],
    since: list[float],
    hold: list[float],
) -> Callable[[int, PoseTuple, float], bool]:
    """:attr:`Settle.observe` over the given state lists (the tolerances read once)."""
    d2 = s.settle_distance**2
    cos_half = math.cos(s.settle_angle / 2)
    d2_leaning = s.settle_distance_leaning**2
    cos_half_leaning = math.cos(s.settle_angle_leaning / 2)
    hold_flat, hold_leaning = s.settle_hold, s.settle_hold_leaning
    table_z, ground_z, status, board = zones.table_z, zones.ground_z, zones.status, Status.BOARD

    def observe(i: int, pq: PoseTuple, t: float) -> bool:
        position, quat = pq
        a_pos, a_q = anchor[i]
        dx, dy, dz = position[0] - a_pos[0], position[1] - a_pos[1], position[2] - a_pos[2]
        dist2 = dx * dx + dy * dy + dz * dz
        dot = abs(quat[0] * a_q[0] + quat[1] * a_q[1] + quat[2] * a_q[2] + quat[3] * a_q[3])
        flat = lies_flat(position, quat, halves[i], table_z, ground_z)
        if dist2 > d2:
            left = True
        elif flat:  # a turn counts on the board only (off on the table or floor: where it lies counts)
            left = dot < cos_half and status(position) is board
        elif status(position) is board:  # leaning on the board: a creep is a move
            left = dist2 > d2_leaning or dot < cos_half_leaning
        else:
            left = False  # off (rim, card) or in a hole: only where it lies counts
        if left:
            anchor[i] = pq
            since[i] = t
        hold[i] = hold_flat if flat else hold_leaning
        return flat

    return observe


def outcomes(
    world: PhysicsWorld,
    owners: Sequence[str],
    poses: Iterable[PoseTuple],
    lying: Mapping[str, Pose],
    kept: Sequence[bool],
    touched: set[str],
) -> list[DieOutcome]:
    """Every die's outcome at the end of a run, read by :meth:`physics.status.Zones.final`.

    Args:
        world: the world run (its zones, board and dice).
        owners: the dice, in the run loop's order.
        poses: each die's final pose.
        lying: the dice lying before the throw, at their given poses.
        kept: per die, it never moved: it is reported at the very pose it was given
            (not the engine's float echo of it).
        touched: the dice that touched the spinner card during the run.
    """
    zones, dice = world.zones, []
    for owner, (position, quat), same in zip(owners, poses, kept):
        x, y, z = position
        qx, qy, qz, qw = quat
        pose = lying[owner] if same else Pose((x, y, z), (qx, qy, qz, qw))
        half = world.dice[owner].half
        dice.append(DieOutcome(owner, zones.status(pose.position, half), pose, owner in touched))
    return zones.final(dice, world.board, world.dice)  # off the playfield, held up over a hole
