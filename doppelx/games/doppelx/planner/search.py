"""The search for a throw: candidates scored by noisy rollouts, refined by the cross-entropy method.

A candidate is an :class:`~physics.throw_model.Aim` with everything a player chooses: the
wall (``side``), the hand's place along it (``along``), the first impact (``target``), the
``strength`` and the ``spin``. Its score is the mean value of several rollouts, each with the
thrower's own skill noise (the expert's: :func:`~doppelx.games.doppelx.planner.value.win_value`, its chance of
winning; by default :func:`~doppelx.games.doppelx.planner.value.standing_change`). Rollout ``j`` of every
candidate draws its noise from the same stream ``j`` (common random numbers), so two
candidates are compared on the same luck.

A decision with a budget of ``B`` rollouts (:class:`Budget`):

1. **Spread**: the incumbent — the field-aiming bot's aim — and its variations (half and
   double the strength, backspin), throws at the rival dice worth most from the wall
   behind each as seen from its nearest hole (it is knocked towards that hole), and random
   throws from random walls: at most :data:`MAX_FIRST` candidates, :data:`FIRST_ROLLOUTS`
   rollouts each.
2. **Cross-entropy step**: a Gaussian fitted to the elites (the best quarter) on the best
   one's wall — target, strength, place along the wall, spin — gives new candidates, which
   join with the same number of rollouts.
3. **Successive halving**: the better half (the incumbent always stays) gets more
   rollouts, round by round, until two or three are left; they get the rest of the budget.
4. **Decision**: a challenger replaces the incumbent only if its paired gain (the mean
   difference over the same rollouts) exceeds :data:`SWITCH_Z` standard errors — small
   samples otherwise pick lucky throws that are worse than the field aim (docs/bots.md).

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
from physics.throw import RELEASE_OUT, SIDES, side_axes
from physics.throw_model import Aim, Skill, plan
from rules.doppelx.outcome import DieOutcome, Status
from rules.doppelx.reading import read_die

#: Rollouts of every candidate in the spread round, and at most this many candidates.
FIRST_ROLLOUTS, MAX_FIRST = 4, 16
#: A candidate replaces the incumbent only if its paired gain exceeds this many standard errors.
SWITCH_Z = 1.0
#: Floors (× 1/2) of the cross-entropy Gaussian's spread.
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
class SearchResult:
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


def explicit(table: TableSnapshot, aim: Aim, skill: Skill) -> Aim:
    """``aim`` with its wall and place along it filled in (as the throw model would choose them)."""
    if aim.side is not None and aim.along is not None:
        return aim
    half = table.dice[table.thrown[0]].half
    pos, _ = plan(table.box, aim, skill.height, half)
    side = aim.side or side_of(table.box, pos)
    _, right = side_axes(side)
    along = float(right @ np.asarray(pos[:2]))
    return Aim(aim.target, aim.strength, side, along, aim.spin)


def knock_aim(table: TableSnapshot, pos, strength: float, spin: float) -> Aim:
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


def random_aim(table: TableSnapshot, rng: np.random.Generator) -> Aim:
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


def paired_gain(c: Candidate, base: Candidate) -> tuple[float, float]:
    """Mean and standard error of ``c``'s advantage over ``base`` on their common rollouts (same noise)."""
    n = min(len(c.values), len(base.values))
    if n < 2:
        return -math.inf, math.inf
    d = np.array(c.values[:n]) - np.array(base.values[:n])
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(n))


def first_candidates(
    table: TableSnapshot, skill: Skill, start: Aim, rng: np.random.Generator, n: int
) -> list[Aim]:
    """The spread round: the incumbent, its variations, knocks at the most valuable rival dice, random throws."""
    inc = explicit(table, start, skill)
    out = [inc]
    for strength, spin in ((inc.strength / 2, None), (inc.strength * 2, None), (inc.strength, -MAX_SPIN / 2)):
        out.append(Aim(inc.target, float(np.clip(strength, 0.0, 1.0)), inc.side, inc.along, spin))
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
    side = elites[0].aim.side
    assert side is not None  # the search's aims always name their wall
    same = [c.aim for c in elites if c.aim.side == side]
    x = np.array([[*a.target, a.strength, a.along, a.spin or 0.0] for a in same])
    mu = x.mean(axis=0)
    floor = np.array([SD_TARGET / 2, SD_TARGET / 2, SD_STRENGTH / 2, SD_ALONG / 2, SD_SPIN / 2])
    sd = np.maximum(x.std(axis=0), floor) if len(same) > 1 else 2 * floor
    x0, y0, x1, y1 = table.board.bounds
    lim = along_limit(table.box, side)
    kids = []
    for _ in range(n):
        v = mu + sd * rng.standard_normal(5)
        kids.append(
            Aim(
                (float(np.clip(v[0], x0, x1)), float(np.clip(v[1], y0, y1))),
                float(np.clip(v[2], 0.0, 1.0)),
                side,
                float(np.clip(v[3], -lim, lim)),
                float(np.clip(v[4], -MAX_SPIN, MAX_SPIN)),
            )
        )
    return kids


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

    n0 = max(4, min(MAX_FIRST, b // FIRST_ROLLOUTS // 3))
    pool = [Candidate(a) for a in first_candidates(table, skill, start, rng, n0)]
    incumbent = pool[0]
    alive = list(pool)
    r = FIRST_ROLLOUTS
    rounds = max(1, math.ceil(math.log2(n0)))
    share = b / (rounds + 1)
    for k in range(rounds + 1):
        for c in alive:
            if not evaluate(c, r):
                break
        if used >= b or out_of_time():
            break
        ranked = sorted(alive, key=lambda c: -c.mean)
        if k == 0:  # the cross-entropy step: children of the elites join with the same rollouts
            elites = ranked[: max(2, len(ranked) // 4)]
            kids = [Candidate(a) for a in cem_children(table, elites, rng, max(1, len(ranked) // 4))]
            for c in kids:
                evaluate(c, r)
            pool += kids
            ranked = sorted(alive + kids, key=lambda c: -c.mean)
        keep = ranked[: max(1, len(ranked) // 2)]
        if incumbent not in keep:
            keep.append(incumbent)
        alive = keep
        if len(alive) <= 2 and k > 0:
            break
        left = b - used
        r = len(alive[0].values) + max(1, int(min(share, left) // len(alive)))
    # spend what is left on the last two, then switch from the incumbent only on clear evidence
    if used < b and not out_of_time():
        per = max(len(c.values) for c in alive) + (b - used) // len(alive)
        for c in alive:
            evaluate(c, per)
    best = incumbent
    for c in alive:
        if c is incumbent:
            continue
        gain, se = paired_gain(c, incumbent)
        if gain > SWITCH_Z * se and gain > paired_gain(best, incumbent)[0]:
            best = c
    if progress is not None:
        progress(1.0)
    return SearchResult(best.aim, best.mean, used, pool)
