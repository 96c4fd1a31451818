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
    """
    gain, lying, alive = rand
    cases, n = chips.shape
    s = gain.shape[0]
    c = np.repeat(chips[:, None, :], s, axis=1).astype(float)  # cases × samples × players
    w = np.repeat(worth[:, None, :], s, axis=1).astype(float)
    won = np.zeros((cases, s))
    open_ = np.ones((cases, s), dtype=bool)
    for t in range(gain.shape[1]):
        a = (first + t) % n
        w *= alive[:, t, :]
        w[:, :, a] = gain[:, t]
        c += w
        w[:, :, a] = lying[:, t]
        top = c.max(axis=2)
        done = top >= target
        done &= open_
        if done.any():
            lead = c[done] == top[done][:, None]
            won[done] = lead[:, me] / lead.sum(axis=1)
            open_ &= ~done
            if not open_.any():
                return won.mean(axis=1)
    top = c.max(axis=2)  # beyond the horizon: the leader's
    lead = c[open_] == top[open_][:, None]
    won[open_] = lead[:, me] / lead.sum(axis=1)
    return won.mean(axis=1)


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
