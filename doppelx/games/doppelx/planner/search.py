"""The search for a throw: candidates scored by noisy rollouts, refined by the cross-entropy method.

A candidate is an :class:`~physics.throw_model.Aim` with everything a player chooses: the
wall (``wall``), the hand's place along it (``along``), the first impact (``target``), the
``strength`` and the ``spin``. Its score is the mean value of several rollouts, each with the
thrower's own skill noise (the expert's: :func:`~doppelx.games.doppelx.planner.value.win_value`, its chance of
winning; by default :func:`~doppelx.games.doppelx.planner.value.standing_change`). Rollout ``j`` of every
candidate draws its noise from the same stream ``j`` (common random numbers), so two
candidates are compared on the same luck.

A decision with a budget of at most ``B`` rollouts (:class:`Budget`):

1. **Spread**: the incumbent — the field-aiming bot's aim — and its variations (half and
   double the strength, backspin), throws at the rival dice worth most from the wall
   behind each as seen from its nearest hole (it is knocked towards that hole), and random
   throws from random walls: one candidate per :data:`SPREAD_SHARE` rollouts of the budget
   (at least 4, at most :data:`MAX_FIRST`), screened by successive halving (:func:`screen`):
   one rollout each, then the better half and the incumbent :data:`FIRST_ROLLOUTS`.
2. **Cross-entropy step**: a Gaussian fitted to the elites (the best quarter) on the best
   one's wall — target, strength, place along the wall, spin — gives new candidates (one
   per eight), which join with :data:`FIRST_ROLLOUTS` rollouts.
3. **Race**: the :data:`RACE_CHALLENGERS` best challengers with :data:`FIRST_ROLLOUTS`
   rollouts run against the incumbent, :data:`ROUND_ROLLOUTS` more rollouts each per round.
   A challenger leaves as soon as its paired gain over the incumbent is below ``-DROP_Z``
   standard errors; the race ends early when one is above ``STOP_Z`` standard errors, when
   none is left, or at :data:`RACE_ROLLOUTS` rollouts each (``B / RACE_SHARE`` if that is
   more).
4. **Decision**: a challenger replaces the incumbent only if its paired gain (the mean
   difference over the same rollouts) exceeds :data:`SWITCH_Z` standard errors — small
   samples otherwise pick lucky throws that are worse than the field aim (docs/bots.md).
   The race and the decision judge a challenger only on the rollouts after the spread:
   the spread's rollouts chose it, and on them a lucky candidate looks better than it is.

So a decision usually ends well before ``B`` (22 rollouts in the median at the default 100;
docs/bots.md, "Speed"); ``B`` is the most it may spend.

An optional time limit stops the search early (the decision then depends on the machine's
speed; with the rollout budget alone it is deterministic by seed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from doppelx.games.doppelx.planner.rollout import rollout
from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from doppelx.games.doppelx.planner.value import coming_throws, hand_value_of, lying_worth, standing_change
from physics.throw import RELEASE_OUT, WALLS, wall_axes
from physics.throw_model import Aim, Skill, plan
from rules.common.vec import dot, norm
from rules.doppelx.outcome import DieOutcome, Status
from rules.doppelx.reading import read_die

#: Rollouts of the spread's better half (and the incumbent; the others get one), and at most
#: this many candidates: one per ``SPREAD_SHARE`` rollouts of the budget (8 at the default 100).
FIRST_ROLLOUTS, MAX_FIRST, SPREAD_SHARE = 2, 16, 12
#: The race: this many challengers (the best means of the spread) run against the incumbent,
#: ``ROUND_ROLLOUTS`` more each per round, until a challenger's paired gain is below
#: ``-DROP_Z`` standard errors (it leaves), above ``STOP_Z`` standard errors (the race ends)
#: or every one has ``RACE_ROLLOUTS`` — or one per ``RACE_SHARE`` of the budget, if more
#: (a larger budget buys a longer race; 6 at the default 100).
RACE_CHALLENGERS, ROUND_ROLLOUTS, RACE_ROLLOUTS, RACE_SHARE = 1, 2, 6, 16
DROP_Z, STOP_Z = 1.0, 2.0
#: A candidate replaces the incumbent only if its paired gain exceeds this many standard errors.
SWITCH_Z = 1.0
#: Floors (× 1/2) of the cross-entropy Gaussian's spread.
SD_TARGET, SD_ALONG, SD_STRENGTH, SD_SPIN = 0.02, 0.02, 0.08, 5.0
#: Largest chosen spin (rad/s) and the strength range of the spread round.
MAX_SPIN = 30.0
STRENGTH_RANGE = (0.05, 0.7)


@dataclass(frozen=True)
class Budget:
    """How much a decision may think: at most ``rollouts``, optionally stopped after ``seconds``."""

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
class SearchResult:
    """The search's result: the chosen aim, its mean value, and what was tried."""

    aim: Aim
    value: float
    rollouts: int
    candidates: list[Candidate]


def wall_of(box, pos) -> str:
    """The wall a release point lies beyond."""
    x, y = pos[0] / (box.inner_size[0] / 2), pos[1] / (box.inner_size[1] / 2)
    if abs(x) >= abs(y):
        return "E" if x > 0 else "W"
    return "N" if y > 0 else "S"


def along_limit(box, wall: str) -> float:
    return (box.inner_size[0] if wall in ("S", "N") else box.inner_size[1]) / 2


def explicit(table: TableSnapshot, aim: Aim, skill: Skill) -> Aim:
    """``aim`` with its wall and place along it filled in (as the throw model would choose them)."""
    if aim.wall is not None and aim.along is not None:
        return aim
    half = table.dice[table.thrown[0]].half
    pos, _ = plan(table.box, aim, skill.height, half)
    wall = aim.wall or wall_of(table.box, pos)
    _, right = wall_axes(wall)
    along = dot(right, pos[:2])
    return Aim(aim.target, aim.strength, wall, along, aim.spin)


def knock_aim(table: TableSnapshot, pos, strength: float, spin: float) -> Aim:
    """A throw at a die lying at ``pos`` from the wall behind it as seen from its nearest hole."""
    box = table.box
    p = np.asarray(pos[:2], dtype=float)
    holes = [np.asarray(h.shape.centroid.coords[0]) for h in table.board.holes]
    if holes:
        hole = min(holes, key=lambda h: norm(h - p))
        d = hole - p
    else:  # no holes: push it towards the nearest wall (off the playfield)
        d = p.copy()
    d = d / (norm(d) or 1.0)
    wall = max(WALLS, key=lambda s: -dot(wall_axes(s)[0], d))
    n, right = wall_axes(wall)
    half_n = (box.inner_size[0] if wall in ("E", "W") else box.inner_size[1]) / 2 + box.wall_thickness
    denom = -dot(n, d)
    t = (half_n + RELEASE_OUT - dot(n, p)) / denom if denom > 1e-6 else 0.0
    along = dot(right, p - d * t)
    lim = along_limit(box, wall)
    return Aim((float(p[0]), float(p[1])), strength, wall, float(np.clip(along, -lim, lim)), spin)


def random_aim(table: TableSnapshot, rng: np.random.Generator) -> Aim:
    x0, y0, x1, y1 = table.board.bounds
    m = table.dice[table.thrown[0]].size
    wall = WALLS[int(rng.integers(4))]
    lim = along_limit(table.box, wall)
    return Aim(
        (float(rng.uniform(x0 + m, x1 - m)), float(rng.uniform(y0 + m, y1 - m))),
        float(rng.uniform(*STRENGTH_RANGE)),
        wall,
        float(rng.uniform(-lim, lim) * 0.9),
        float(rng.uniform(-MAX_SPIN, MAX_SPIN)),
    )


def paired_gain(c: Candidate, base: Candidate, skip: int = 0) -> tuple[float, float]:
    """Mean and standard error of ``c``'s advantage over ``base`` on their common rollouts (same
    noise), leaving out the first ``skip`` (those that chose ``c``: judged on them, a lucky
    candidate looks better than it is)."""
    n = min(len(c.values), len(base.values))
    if n - skip < 2:
        return -math.inf, math.inf
    d = np.array(c.values[skip:n]) - np.array(base.values[skip:n])
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(n - skip))


def first_candidates(
    table: TableSnapshot, skill: Skill, start: Aim, rng: np.random.Generator, n: int
) -> list[Aim]:
    """The spread round: the incumbent, its variations, knocks at the most valuable rival dice, random throws."""
    inc = explicit(table, start, skill)
    out = [inc]
    for strength, spin in ((inc.strength / 2, None), (inc.strength * 2, None), (inc.strength, -MAX_SPIN / 2)):
        out.append(Aim(inc.target, float(np.clip(strength, 0.0, 1.0)), inc.wall, inc.along, spin))
    worth = {}
    for owner, pose in table.lying.items():
        if owner == table.thrower or owner not in table.seats:
            continue
        r = read_die(
            DieOutcome(owner, Status.BOARD, pose), table.dice[owner], table.board, table.dice.cocked_angle
        )
        worth[owner] = lying_worth(r) * (1 + coming_throws(table, owner))
    for owner in sorted(worth, key=lambda o: -worth[o]):
        for strength in (0.35, 0.6):
            out.append(
                knock_aim(table, table.lying[owner].position, strength, float(rng.uniform(0, MAX_SPIN)))
            )
    out = out[: max(1, n - 2)]
    while len(out) < n:
        out.append(random_aim(table, rng))
    return out


def cem_children(
    table: TableSnapshot, elites: list[Candidate], rng: np.random.Generator, n: int
) -> list[Aim]:
    """The cross-entropy step: ``n`` aims drawn from a Gaussian fitted to the elites of the best one's wall."""
    wall = elites[0].aim.wall
    assert wall is not None  # the search's aims always name their wall
    same = [c.aim for c in elites if c.aim.wall == wall]
    x = np.array([[*a.target, a.strength, a.along, a.spin or 0.0] for a in same])
    mu = x.mean(axis=0)
    floor = np.array([SD_TARGET / 2, SD_TARGET / 2, SD_STRENGTH / 2, SD_ALONG / 2, SD_SPIN / 2])
    sd = np.maximum(x.std(axis=0), floor) if len(same) > 1 else 2 * floor
    x0, y0, x1, y1 = table.board.bounds
    lim = along_limit(table.box, wall)
    kids = []
    for _ in range(n):
        v = mu + sd * rng.standard_normal(5)
        kids.append(
            Aim(
                (float(np.clip(v[0], x0, x1)), float(np.clip(v[1], y0, y1))),
                float(np.clip(v[2], 0.0, 1.0)),
                wall,
                float(np.clip(v[3], -lim, lim)),
                float(np.clip(v[4], -MAX_SPIN, MAX_SPIN)),
            )
        )
    return kids


def screen(pool: list[Candidate], incumbent: Candidate, evaluate: Callable[[Candidate, int], bool]) -> None:
    """The spread round as successive halving: every candidate one rollout (the same stream 0,
    so they are compared on the same luck), then the better half by it — and the incumbent —
    a second (:data:`FIRST_ROLLOUTS`), on stream 1."""
    for c in pool:
        evaluate(c, 1)
    better = sorted(pool, key=lambda c: -c.mean)[: max(1, len(pool) // 2)]
    for c in [incumbent, *(c for c in better if c is not incumbent)]:
        evaluate(c, FIRST_ROLLOUTS)


def search(
    table: TableSnapshot,
    skill: Skill,
    start: Aim,
    budget: Budget,
    progress: Callable[[float], None] | None = None,
    value: Callable[..., float] = standing_change,
) -> SearchResult:
    """The best throw for ``table``'s thrower of ``skill`` (see the module docstring).

    Args:
        start: the incumbent, the field-aiming bot's aim (always among the candidates).
        progress: called with the share of the budget used, after every rollout.
        value: what a rollout is worth, ``value(table, outcome, hand_value)``
            (:func:`~doppelx.games.doppelx.planner.value.standing_change` or :func:`~doppelx.games.doppelx.planner.value.win_value`).
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
            c.values.append(value(table, res.outcome, hand))
            used += 1
            if progress is not None:
                progress(min(1.0, used / b))
        return True

    n0 = max(4, min(MAX_FIRST, b // SPREAD_SHARE))
    pool = [Candidate(a) for a in first_candidates(table, skill, start, rng, n0)]
    incumbent = pool[0]
    screen(pool, incumbent, evaluate)
    ranked = sorted(pool, key=lambda c: -c.mean)
    if used < b and not out_of_time():  # the cross-entropy step: the elites' children join
        elites = ranked[: max(2, len(ranked) // 4)]
        kids = [Candidate(a) for a in cem_children(table, elites, rng, max(1, len(ranked) // 8))]
        for c in kids:
            evaluate(c, FIRST_ROLLOUTS)
        pool += kids
        ranked = sorted(pool, key=lambda c: -c.mean)
    # the race: the best challengers against the incumbent, on the same rollouts, until each
    # is clearly worse (dropped), one is clearly better (early stop) or RACE_ROLLOUTS are reached
    alive = [c for c in ranked if c is not incumbent and len(c.values) >= FIRST_ROLLOUTS][:RACE_CHALLENGERS]
    r, longest = FIRST_ROLLOUTS, max(RACE_ROLLOUTS, b // RACE_SHARE)
    while alive and r < longest and used < b and not out_of_time():
        r = min(longest, r + ROUND_ROLLOUTS)
        for c in (incumbent, *alive):
            evaluate(c, r)
        gains = {id(c): paired_gain(c, incumbent, FIRST_ROLLOUTS) for c in alive}
        alive = [c for c in alive if (g := gains[id(c)])[0] + DROP_Z * g[1] >= 0]
        if any((g := gains[id(c)])[0] > STOP_Z * g[1] for c in alive):
            break
    best, best_gain = incumbent, 0.0
    for c in alive:
        gain, se = paired_gain(c, incumbent, FIRST_ROLLOUTS)
        if gain > SWITCH_Z * se and gain > best_gain:
            best, best_gain = c, gain
    if progress is not None:
        progress(1.0)
    return SearchResult(best.aim, best.mean, used, pool)
