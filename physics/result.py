"""What a throw run to rest produced, the same for every engine (:func:`physics.run.run_throw`).

Both run loops (:mod:`physics.run`, :mod:`physics.mujoco_run`) take their lying dice through
:func:`lying_dice` and build their result through :func:`finish`, so the two engines check
and report a throw the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from physics.trajectory import Trajectory
from rules.doppelx.outcome import DieOutcome, Pose, ThrowOutcome

if TYPE_CHECKING:
    from physics.status import TunnelWatch
    from physics.throw import Throw
    from physics.trajectory import Recorder


@dataclass(frozen=True)
class ThrowResult:
    """What a throw produced.

    Attributes:
        outcome: every die on the table afterwards (thrown first, then the lying ones).
        sim_time: simulated seconds until rest or the cap.
        steps: physics steps taken (a step cut into sub-steps counts each sub-step).
        settled: all dice came to rest before the cap.
        unsettled: dice still moving at the cap.
        tunnelled: dice the tunnel watch flagged (should always be empty).
        tunnel_events: what the watch saw, as ``"owner:part"`` (part ``insert``, ``wall``,
            ``floor`` or ``die:<other>``).
        spinner_angle: the spinner's angle at the end (rad), 0 without a spinner.
        trajectory: replay frames if recorded.
    """

    outcome: ThrowOutcome
    sim_time: float
    steps: int
    settled: bool
    unsettled: tuple[str, ...]
    tunnelled: tuple[str, ...]
    tunnel_events: tuple[str, ...]
    spinner_angle: float
    trajectory: Trajectory | None = None


def lying_dice(throw: Throw, lying: Mapping[str, Pose] | None) -> dict[str, Pose]:
    """The dice lying before ``throw``; a die both thrown and lying is a ``ValueError``."""
    out = dict(lying or {})
    clash = set(out) & set(throw.owners)
    if clash:
        raise ValueError(f"die {sorted(clash)[0]!r} is both thrown and lying (lift it before the throw)")
    return out


def finish(
    world,
    throw: Throw,
    dice: Sequence[DieOutcome],
    sim_time: float,
    steps: int,
    settled: bool,
    unsettled: tuple[str, ...],
    tw: TunnelWatch | None,
    recorder: Recorder | None,
    **info,
) -> ThrowResult:
    """The result of a run that ended: the final overlap check, the outcome and its ``info``.

    ``info`` adds entries to the outcome's ``info`` (the MuJoCo run names its engine).
    """
    if tw is not None:
        tw.check_final(world, dice)
    angle = world.spinner_angle()
    events = tuple(f"{o}:{what}" for o, what in tw.events) if tw else ()
    info = {
        "sim_time": sim_time,
        "steps": steps,
        "settled": settled,
        "unsettled": list(unsettled),
        "spinner_angle": angle,
        "tunnelled": list(events),
        **info,
    }
    outcome = ThrowOutcome(tuple(dice), hand_over_rim=throw.hand_over_rim(world.box), info=info)
    return ThrowResult(
        outcome,
        sim_time,
        steps,
        settled,
        unsettled,
        tw.owners() if tw else (),
        events,
        angle,
        recorder.finish() if recorder is not None else None,
    )
