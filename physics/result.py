"""What a throw run to rest produced, the same for every engine (:func:`physics.run.run_throw`)."""

from __future__ import annotations

from dataclasses import dataclass

from physics.trajectory import Trajectory
from rules.outcome import ThrowOutcome


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
