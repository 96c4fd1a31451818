"""The race to the target: a thrower's chance of winning the game from the chips after a throw.

DoppelX is a race (D36): the first to reach the target after a throw's scoring wins. A
chip is worth more to a player close to the end, and a rival about to win must be stopped
whatever it costs. :func:`win_chances` plays the rest of the game forward many times with
a cheap model instead of physics, from every player's chips after the throw and what their
die left lying brings per throw:

- the players throw in seat order after the thrower; the active player gains the chips of
  an own throw drawn from :data:`OWN_GAIN` and leaves a die worth one of :data:`LYING_WORTH`
  per throw (its chips as it lies);
- every passive player's lying die scores its worth after each throw while it survives,
  with the chance :data:`~doppelx.games.doppelx.planner.value.SURVIVAL` per throw (a die hit or knocked
  scores nothing more until its owner throws again);
- the game ends after the first throw that brings somebody to the target; the highest
  total wins (a tie counts half to each tied player, the decider's even chance).

Both tables were measured with hard bots on side I (docs/bots.md): 4007 turn throws of 300
games. Other sides and skills use them too: the race only has to rank the candidate throws. The draws of a decision come from its own stream and are the same for every
rollout of the decision (common random numbers), so candidates are compared on the same
luck here too. Because of that, a row of chips and worths always has the same chance within a
decision, and most rollouts of a decision end in a few such rows: :func:`win_chances_memo`
plays each distinct row forward once (docs/bots.md, "Speed").
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict

import numpy as np

#: Chips an active player gains by an own throw (dice, white die, Doppel X, bets on it),
#: as (chips, count) over 4007 turn throws of hard bots on side I.
OWN_GAIN = (
    (-2, 1), (-1, 2), (0, 71), (1, 248), (2, 541), (3, 646), (4, 658), (5, 464), (6, 366), (7, 217),
    (8, 204), (9, 83), (10, 430), (11, 32), (12, 25), (13, 13), (15, 6),
)  # fmt: skip
#: Chips per throw of the thrower's die as it lies after an own throw (0: in hand, on X, or
#: removed by a Doppel X), as (chips, count) over the same throws.
LYING_WORTH = ((-1, 16), (0, 853), (1, 773), (2, 1147), (3, 537), (4, 329), (6, 290), (9, 62))
#: Games played forward per evaluation, and the most throws each is followed.
SAMPLES, HORIZON = 128, 30


def _values(table) -> tuple[np.ndarray, np.ndarray]:
    v = np.array([c for c, _ in table], dtype=float)
    p = np.array([k for _, k in table], dtype=float)
    return v, p / p.sum()


@functools.lru_cache(maxsize=8)
def draws(seed: tuple[int, ...], players: int, survival: float) -> tuple[np.ndarray, ...]:
    """The random draws of one decision: own gains, lying worths (``SAMPLES × HORIZON``) and
    survival of every player's die (``SAMPLES × HORIZON × players``), from ``seed``'s own stream."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(list(seed), spawn_key=(7,))))
    gv, gp = _values(OWN_GAIN)
    wv, wp = _values(LYING_WORTH)
    gain = rng.choice(gv, size=(SAMPLES, HORIZON), p=gp)
    worth = rng.choice(wv, size=(SAMPLES, HORIZON), p=wp)
    alive = rng.random((SAMPLES, HORIZON, players)) < survival
    for a in (gain, worth, alive):
        a.flags.writeable = False
    return gain, worth, alive


def win_chances(
    chips: np.ndarray, worth: np.ndarray, me: int, first: int, target: int, rand: tuple[np.ndarray, ...]
) -> np.ndarray:
    """Player ``me``'s chance of winning, for every row of ``chips``/``worth`` (cases × players).

    Args:
        chips: every player's chips after the throw (no one at the target yet).
        worth: chips per throw each player's lying die (or die in hand) brings.
        me: the seat whose chance is wanted.
        first: the seat that throws next.
        target: chips that end the game.
        rand: :func:`draws` of the decision.

    Every throw's chips depend on the rows only through the passive players' starting worth
    (a die lying since before the throw, while it survives), so the throws are laid out once
    per decision (:func:`_schedule`) and every sample's whole game is one running sum over the
    throws — the same additions in the same order as throw by throw.
    """
    fixed, carried = _schedule(rand, first)
    cases, n = chips.shape
    s, horizon = fixed.shape[1], fixed.shape[2]
    # players × samples × throws, time last: the running sum and the max over players run
    # along contiguous memory (a max over a last axis of 3-8 players was most of the time)
    path = np.empty((cases, n, s, horizon + 1))
    path[..., 0] = chips[:, :, None]
    np.multiply(carried[None], worth[:, :, None, None], out=path[..., 1:])
    path[..., 1:] += fixed[None]
    np.cumsum(path, axis=3, out=path)
    c = path[..., 1:]  # every player's chips after each throw: cases × players × samples × throws
    top = c.max(axis=1)
    done = top >= target
    ends = np.where(done.any(axis=2), done.argmax(axis=2), horizon - 1)  # beyond the horizon: the leader's
    at = np.take_along_axis(c, ends[:, None, :, None], axis=3)[..., 0]  # cases × players × samples
    lead = at == np.take_along_axis(top, ends[:, :, None], axis=2)[:, None, :, 0]
    won = np.ascontiguousarray(lead[:, me, :] / lead.sum(axis=1))
    return won.mean(axis=1)


_SCHEDULES: OrderedDict[tuple, tuple] = OrderedDict()


def _schedule(rand: tuple[np.ndarray, ...], first: int) -> tuple[np.ndarray, np.ndarray]:
    """The throws of :func:`draws` ``rand`` with seat ``first`` throwing next, as two arrays of
    players × samples × throws: ``fixed`` chips every throw brings whatever the rows (the active
    player's gain, a die left lying by an own throw while it survives) and ``carried``, 1 where a
    player's die from before the throw still lies and scores its row's worth, else 0."""
    key = (id(rand), first)
    with _MEMO_LOCK:
        hit = _SCHEDULES.get(key)
        if hit is not None and hit[0] is rand:
            return hit[1]
    gain, lying, alive = rand
    s, horizon, n = alive.shape
    fixed = np.zeros((n, s, horizon))
    carried = np.zeros((n, s, horizon))
    scores = np.ones((s, n), dtype=bool)  # the die still lies since its last placing
    since = [-1] * n  # the throw that placed each player's die (-1: before this throw)
    for t in range(horizon):
        a = (first + t) % n
        scores &= alive[:, t, :]
        for p in range(n):
            if p == a:
                fixed[p, :, t] = gain[:, t]
            elif since[p] < 0:
                carried[p, :, t] = scores[:, p]
            else:
                fixed[p, :, t] = np.where(scores[:, p], lying[:, since[p]], 0.0)
        since[a] = t
        scores[:, a] = True
    for x in (fixed, carried):
        x.flags.writeable = False
    with _MEMO_LOCK:
        _SCHEDULES[key] = (rand, (fixed, carried))
        while len(_SCHEDULES) > 2 * MEMO_DECISIONS:
            _SCHEDULES.popitem(last=False)
    return fixed, carried


#: Decisions whose rows :func:`win_chances_memo` keeps (a window thinks a bet and a throw at once).
MEMO_DECISIONS = 4
_MEMO: OrderedDict[tuple, dict[tuple, float]] = OrderedDict()
_MEMO_LOCK = threading.Lock()


def win_chances_memo(
    chips: np.ndarray,
    worth: np.ndarray,
    me: int,
    first: int,
    target: int,
    seed: tuple[int, ...],
    survival: float,
) -> np.ndarray:
    """:func:`win_chances` with :func:`draws` of ``seed``, each distinct row played forward once per decision.

    The same figures as :func:`win_chances` bit for bit (its rows are independent of each
    other); rows seen before in the decision ``seed`` are looked up instead of played again.
    """
    n = chips.shape[1]
    key = (seed, n, me, first, target, survival)
    with _MEMO_LOCK:
        memo = _MEMO.get(key)
        if memo is None:
            memo = _MEMO[key] = {}
            while len(_MEMO) > MEMO_DECISIONS:
                _MEMO.popitem(last=False)
        else:
            _MEMO.move_to_end(key)
    rows = [(*map(float, c), *map(float, w)) for c, w in zip(chips, worth)]
    missing = list(dict.fromkeys(r for r in rows if r not in memo))
    if missing:
        m = np.array(missing, dtype=float)
        won = win_chances(m[:, :n], m[:, n:], me, first, target, draws(seed, n, survival))
        memo.update(zip(missing, won.tolist()))
    return np.array([memo[r] for r in rows], dtype=float)
