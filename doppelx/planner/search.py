"""The search for a throw: candidates scored by noisy rollouts, refined by the cross-entropy method.

A candidate is an :class:`~physics.throw_model.Aim` with everything a player chooses: the
wall (``side``), the hand's place along it (``along``), the first impact (``target``), the
``strength`` and the ``spin``. Its score is the mean :func:`~doppelx.planner.value.standing_change`
of several rollouts, each with the thrower's own skill noise. Rollout ``j`` of every
candidate draws its noise from the same stream ``j`` (common random numbers), so two
candidates are compared on the same luck.

A decision with a budget of ``B`` rollouts (:class:`Budget`) runs three rounds:

1. **Spread** (40 % of ``B``): the field-aiming bot's aim, throws at every rival die lying
   on the board from the wall behind it as seen from its nearest hole (it is knocked
   towards that hole), and random throws from random walls.
2. **Refine** (35 %): the cross-entropy step — the best quarter (the elites) are the centres
   of Gaussians (target ±2 cm, along ±2 cm, strength ±0.08, spin ±5 rad/s); new candidates
   are drawn from them, with one more rollout each.
3. **Decide** (25 %): the three best candidates so far get the rest of the rollouts; the
   best mean over all its rollouts is thrown.

An optional time limit stops the search early (the decision then depends on the machine's
speed; with the rollout budget alone it is deterministic by seed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from doppelx.planner.rollout import rollout
from doppelx.planner.table import Table
from doppelx.planner.value import hand_value_of, standing_change
from physics.throw import RELEASE_OUT, SIDES, side_axes
from physics.throw_model import Aim, Skill, plan

#: Shares of the budget spent on the three rounds.
SPREAD, REFINE = 0.40, 0.35
#: Spread of the Gaussians around an elite in the refine round.
SD_TARGET, SD_ALONG, SD_STRENGTH, SD_SPIN = 0.02, 0.02, 0.08, 5.0
#: Largest chosen spin (rad/s) and the strength range of the spread round.
MAX_SPIN = 30.0
STRENGTH_RANGE = (0.05, 0.7)


@dataclass(frozen=True)
class Budget:
    """How much a decision may think: ``rollouts`` in all, optionally stopped after ``seconds``."""

    rollouts: int = 150
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.rollouts < 12:
            raise ValueError(f"a thinking bot needs at least 12 rollouts per decision, got {self.rollouts}")


@dataclass
class Candidate:
    aim: Aim
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf


@dataclass
class Decision:
    """The search's result: the chosen aim, its mean value, and what was tried."""

    aim: Aim
    value: float
    rollouts: int
    candidates: list[Candidate]


def side_of(box, pos) -> str:
    """The wall a release point lies beyond."""
    x, y = pos[0] / (box.inner_size[0] / 2), pos[1] / (box.inner_size[1] / 2)
    if abs(x) >= abs(y):
        return "E" if x > 0 else "W"
    return "N" if y > 0 else "S"


def along_limit(box, side: str) -> float:
    return (box.inner_size[0] if side in ("S", "N") else box.inner_size[1]) / 2


def explicit(table: Table, aim: Aim, skill: Skill) -> Aim:
    """``aim`` with its wall and place along it filled in (as the throw model would choose them)."""
    if aim.side is not None and aim.along is not None:
        return aim
    half = table.dice[table.thrown[0]].half
    pos, _ = plan(table.box, aim, skill.height, half)
    side = aim.side or side_of(table.box, pos)
    _, right = side_axes(side)
    along = float(right @ np.asarray(pos[:2]))
    return Aim(aim.target, aim.strength, side, along, aim.spin)


def knock_aim(table: Table, pos, strength: float, spin: float) -> Aim:
    """A throw at a die lying at ``pos`` from the wall behind it as seen from its nearest hole."""
    box = table.box
    p = np.asarray(pos[:2], dtype=float)
    holes = [np.asarray(h.shape.centroid.coords[0]) for h in table.board.holes]
    if holes:
        hole = min(holes, key=lambda h: float(np.linalg.norm(h - p)))
        d = hole - p
    else:  # no holes: push it towards the nearest wall (off the playfield)
        d = p.copy()
    d = d / (np.linalg.norm(d) or 1.0)
    side = max(SIDES, key=lambda s: float(-side_axes(s)[0] @ d))
    n, right = side_axes(side)
    half_n = (box.inner_size[0] if side in ("E", "W") else box.inner_size[1]) / 2 + box.wall_thickness
    denom = float(-n @ d)
    t = (half_n + RELEASE_OUT - float(n @ p)) / denom if denom > 1e-6 else 0.0
    along = float(right @ (p - d * t))
    lim = along_limit(box, side)
    return Aim((float(p[0]), float(p[1])), strength, side, float(np.clip(along, -lim, lim)), spin)


def random_aim(table: Table, rng: np.random.Generator) -> Aim:
    x0, y0, x1, y1 = table.board.bounds
    m = table.dice[table.thrown[0]].size
    side = SIDES[int(rng.integers(4))]
    lim = along_limit(table.box, side)
    return Aim(
        (float(rng.uniform(x0 + m, x1 - m)), float(rng.uniform(y0 + m, y1 - m))),
        float(rng.uniform(*STRENGTH_RANGE)),
        side,
        float(rng.uniform(-lim, lim) * 0.9),
        float(rng.uniform(-MAX_SPIN, MAX_SPIN)),
    )


def perturb(table: Table, aim: Aim, rng: np.random.Generator) -> Aim:
    """A child of an elite: its Gaussian of the refine round, clipped to the box and the ranges."""
    x0, y0, x1, y1 = table.board.bounds
    t = np.asarray(aim.target) + SD_TARGET * rng.standard_normal(2)
    lim = along_limit(table.box, aim.side)
    return Aim(
        (float(np.clip(t[0], x0, x1)), float(np.clip(t[1], y0, y1))),
        float(np.clip(aim.strength + SD_STRENGTH * rng.standard_normal(), 0.0, 1.0)),
        aim.side,
        float(np.clip(aim.along + SD_ALONG * rng.standard_normal(), -lim, lim)),
        float(np.clip((aim.spin or 0.0) + SD_SPIN * rng.standard_normal(), -MAX_SPIN, MAX_SPIN)),
    )


def search(
    table: Table,
    skill: Skill,
    start: Aim,
    budget: Budget,
    progress: Callable[[float], None] | None = None,
) -> Decision:
    """The best throw for ``table``'s thrower of ``skill`` (see the module docstring).

    Args:
        start: the field-aiming bot's aim (always among the candidates).
        progress: called with the share of the budget used, after every rollout.
    """
    rng = table.rng(0)
    die = table.dice[table.thrower]
    hand = hand_value_of(table.board, table.cards, die, len(table.lying) + 1)
    b = budget.rollouts
    t0 = time.perf_counter()
    used = 0

    def out_of_time() -> bool:
        return budget.seconds is not None and time.perf_counter() - t0 > budget.seconds

    def evaluate(c: Candidate, upto: int) -> bool:
        nonlocal used
        while len(c.values) < upto:
            if used >= b or out_of_time():
                return False
            j = len(c.values)
            res = rollout(table, c.aim, skill, table.rng(1, j))
            c.values.append(standing_change(table, res.outcome, hand))
            used += 1
            if progress is not None:
                progress(min(1.0, used / b))
        return True

    # 1. spread
    r0 = max(2, b // 100)
    n0 = max(4, int(b * SPREAD) // r0)
    first = [explicit(table, start, skill)]
    spin = float(rng.uniform(-MAX_SPIN, MAX_SPIN))
    for owner, pose in table.lying.items():
        if owner != table.thrower:
            for strength in (0.35, 0.6):
                first.append(knock_aim(table, pose.position, strength, spin))
    first = first[: max(1, n0 // 2)]
    while len(first) < n0:
        first.append(random_aim(table, rng))
    pool = [Candidate(a) for a in first]
    for c in pool:
        if not evaluate(c, r0):
            break
    # 2. refine around the elites
    r1 = r0 + 1
    done = [c for c in pool if len(c.values) >= r0]
    if done and used < b and not out_of_time():
        elites = sorted(done, key=lambda c: -c.mean)[: max(2, len(done) // 4)]
        n1 = max(2, int(b * REFINE) // r1)
        children = [Candidate(perturb(table, elites[i % len(elites)].aim, rng)) for i in range(n1)]
        for c in [*elites, *children]:
            if not evaluate(c, r1):
                break
        pool += children
    # 3. decide among the best three
    ranked = sorted((c for c in pool if c.values), key=lambda c: -c.mean)
    finalists = ranked[:3]
    if finalists and used < b and not out_of_time():
        per = len(finalists[0].values) + max(1, (b - used) // len(finalists))
        for c in finalists:
            evaluate(c, per)
        # only finalists with the full count compete (an unfinished one is not favoured by luck)
        full = [c for c in finalists if len(c.values) == max(len(f.values) for f in finalists)]
        finalists = full
    best = max(finalists, key=lambda c: c.mean) if finalists else Candidate(first[0], [0.0])
    if progress is not None:
        progress(1.0)
    return Decision(best.aim, best.mean, used, pool)
