"""What a rollout is worth to the thrower: the change of its standing in chips against the others.

A rollout of the thrower's turn ends with every die at rest. :func:`standing_change`
scores it by the rules (D11–D20, D29–D35: its own die and the white die, the lying dice of
everybody, -1 fields, Doppel X, the bets placed on this throw). Where a thrown die comes to
rest follows the aim; which face it shows is chaos. So the thrown dice's faces are taken
in expectation — every combination of "shows X" / "shows the mean of its other faces" of
the two thrown dice, weighted by its chance — which removes most of a rollout's noise
while Doppel X (two X on the board) stays exact. The lying dice count as they came to rest.
To that it adds what the dice left lying will still bring before their owners throw again
(D15: a lying die scores after every throw):

- a die left lying is worth its chips per coming throw (an X face lying is a Doppel X in
  waiting: :data:`X_WAITING` chips per throw), discounted by :data:`SURVIVAL` per throw for
  the chance that a later throw moves it;
- a die in hand (knocked into a hole, off the box, or removed by a Doppel X) is worth the
  best bet card's expected pay-out per coming throw instead (its owner may bet, D29);
- the thrower's own die lies through the ``n - 1`` throws of the others (that is how it is
  protected: a resting place where it survives and scores is worth more), a rival ``k``
  seats later only through ``k - 1`` throws, the white die through none (the next player
  takes it).

The standing change is the thrower's total minus the mean of the others' totals, plus
:data:`WIN_VALUE` if this throw wins the game for the thrower (minus it if it wins it for
somebody else). In a decider (D37) only the thrower's own points count.

The expert scores its throws by :func:`win_value` instead: its **chance of winning the
game** (in percent) after the throw, from the chips after it and the worth of every die
left lying, by the race model of :mod:`doppelx.games.doppelx.planner.race` — a chip counts for more
close to the end, and a rival about to win must be stopped. Bets take the thrown dice's
faces in expectation too (:func:`expected_card_payouts`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

import numpy as np

from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from rules.common.vec import dot
from rules.doppelx.bets import BetCard, card_pays
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.dice import DieSpec
from rules.doppelx.outcome import Status
from rules.doppelx.reading import chips_for, read_die
from rules.doppelx.scoring import (
    DOPPEL_X_CHIPS,
    beneficiary,
    flung_by_spinner,
    is_doppel_x,
    makes_doppel_x,
)

#: Chance that a lying die keeps its field through one more throw of another player.
#: Measured with medium bots on side I: 4530 of 4830 lying dice kept field and face (docs/bots.md).
SURVIVAL = 0.94
#: Chips an X face lying on the board brings per coming throw: a Doppel X (10 chips)
#: follows whenever a thrown die shows X, about 1 - (5/6)² ≈ 0.3 of the throws.
X_WAITING = DOPPEL_X_CHIPS * (1 - (5 / 6) ** 2)
#: Worth of winning the game with this throw, in chips of standing.
WIN_VALUE = 50.0


#: Readings :func:`read_outcome` keeps per board and dice before it starts afresh.
READINGS_KEPT = 4096
_READINGS: dict[tuple, tuple] = {}
_READINGS_LOCK = threading.Lock()


def read_outcome(outcome, board: BoardSide, dice) -> tuple:
    """:func:`rules.doppelx.scoring.read_outcome`, each die's reading kept by its exact pose.

    The dice lying before a throw and not touched by it rest exactly where they lay (asleep),
    so within a decision most of a rollout's dice were read before; a reading depends only
    on the die, its status and its pose, so the kept one is the same reading.
    """
    with _READINGS_LOCK:
        owner_dice, kept = _READINGS.get((board, id(dice)), (None, {}))
        if owner_dice is not dice or len(kept) > READINGS_KEPT:  # another set under a reused id
            kept = {}
            _READINGS[(board, id(dice))] = (dice, kept)
    out = []
    for d in outcome.dice:
        key = (d.owner, d.status, d.pose)
        r = kept.get(key)
        if r is None:
            r = kept[key] = read_die(d, dice[d.owner], board, dice.cocked_angle)
        out.append(r)
    return tuple(out)


def coming_throws(table: TableSnapshot, colour: str) -> int:
    """Throws of other players during which ``colour``'s die may lie before its owner throws again."""
    n = len(table.seats)
    k = (table.seat(colour) - table.seat(table.thrower)) % n
    return n - 1 if k == 0 else k - 1


def future_weight(throws: int, survival: float = SURVIVAL) -> float:
    """Expected number of coming throws a lying die still lies: ``Σ survivalʲ`` for j = 1…throws."""
    return sum(survival**j for j in range(1, throws + 1))


def lying_worth(reading) -> float:
    """Chips per coming throw of a die lying as ``reading`` (an X face waits for a Doppel X)."""
    return chips_for(reading) + (X_WAITING if reading.top == "X" else 0.0)


def standing_change(table: TableSnapshot, outcome, hand_value: float) -> float:
    """The thrower's expected change of standing after ``outcome`` (see the module docstring)."""
    readings = read_outcome(outcome, table.board, table.dice)
    faces = {o: face_chances(table.dice[o]) for o in table.thrown}
    if table.kind == "decider":
        return sum(p * decider_points(table, readings, xs) for p, xs in face_cases(readings, faces))
    flung = flung_by_spinner(outcome, readings, table.lying, table.board, table.dice)
    return sum(p * _standing(table, readings, xs, flung, hand_value) for p, xs in face_cases(readings, faces))


def face_chances(die: DieSpec) -> tuple[float, float]:
    """A die's chance of showing X and its mean pips when it does not."""
    xs = die.faces.count("X")
    pips = [int(f) for f in die.faces if f != "X"]
    return xs / len(die.faces), (sum(pips) / len(pips) if pips else 0.0)


def face_cases(readings, faces: Mapping[str, tuple[float, float]]):
    """``(chance, thrown dice showing X)`` for every combination of X / not X of the thrown dice on the board."""
    on = [r.owner for r in readings if r.owner in faces and r.status is Status.BOARD]
    for mask in range(1 << len(on)):
        xs = frozenset(o for k, o in enumerate(on) if mask >> k & 1)
        p = 1.0
        for o in on:
            p *= faces[o][0] if o in xs else 1.0 - faces[o][0]
        if p > 0:
            yield p, xs


def expected_die_chips(reading, x_face: bool, mean_pips: float | None) -> float:
    """Chips of a die outside a Doppel X (D11–D14), the face either as read or (thrown dice) X / mean pips."""
    if mean_pips is None:
        return float(chips_for(reading))
    if reading.status is not Status.BOARD or reading.field is None:
        return 0.0
    if reading.field is FieldKind.MINUS_ONE:
        return -1.0
    if x_face or reading.field is FieldKind.X:
        return 0.0
    return reading.field.multiplier * mean_pips


def chip_changes(table: TableSnapshot, readings, xs: frozenset, flung) -> tuple[dict[str, float], bool]:
    """Every player's chip change by this throw (D11–D20, D29–D35) and whether it is a Doppel X,
    with the thrown dice showing X exactly on ``xs`` and their other faces at their mean pips."""
    me = table.thrower
    thrown = set(table.thrown)

    def owner(r) -> str | None:
        return beneficiary(r.owner, me, table.seats)

    x_dice = [r for r in readings if shows_x(r, xs, thrown)]
    doppel = makes_doppel_x(len(x_dice))
    total = {c: 0.0 for c in table.seats}
    if doppel:
        for who in {o for r in x_dice if (o := owner(r)) is not None}:
            total[who] += DOPPEL_X_CHIPS
    else:
        for r in readings:
            c = owner(r)
            if c is not None:
                pips = face_chances(table.dice[r.owner])[1] if r.owner in thrown else None
                total[c] += expected_die_chips(r, r.owner in xs, pips)
    if table.bets:
        active = [r for r in readings if r.owner in thrown]
        for c, letter in table.bets.items():
            total[c] += card_pays(
                table.cards[letter], doppel_x=doppel, active_dice=active, flung_by_spinner=flung
            )
    return {c: max(0.0, table.chips[c] + total[c]) - table.chips[c] for c in table.seats}, doppel


def shows_x(reading, xs: frozenset, thrown) -> bool:
    """The die shows X on the board: a thrown die if it is in ``xs``, a lying one as read."""
    if reading.status is not Status.BOARD:
        return False
    return reading.owner in xs if reading.owner in thrown else reading.top == "X"


def _after(table: TableSnapshot, readings, xs: frozenset, flung, hand_value: float):
    """One case of the thrown dice's faces (X on the dice ``xs``): every player's chip change by
    the throw, whether it is a Doppel X, and the chips per coming throw each player's die brings
    (its worth as it lies, or ``hand_value`` in hand; ``None`` for a player who throws next)."""
    thrown = set(table.thrown)
    total, doppel = chip_changes(table, readings, xs, flung)
    worths: dict[str, float | None] = {}
    for c in table.seats:
        if coming_throws(table, c) == 0:
            worths[c] = None
            continue
        r = next((r for r in readings if r.owner == c), None)
        if r is None or r.status is not Status.BOARD or (doppel and shows_x(r, xs, thrown)):
            worths[c] = hand_value
        elif r.owner in thrown:
            x_face = r.owner in xs
            worths[c] = expected_die_chips(r, x_face, face_chances(table.dice[c])[1]) + (
                X_WAITING if x_face else 0.0
            )
        else:
            worths[c] = lying_worth(r)
    return total, doppel, worths


def _standing(table: TableSnapshot, readings, xs: frozenset, flung, hand_value: float) -> float:
    """Standing change of one case of the thrown dice's faces (X on the dice ``xs``)."""
    me = table.thrower
    total, _, worths = _after(table, readings, xs, flung, hand_value)
    after = {c: table.chips[c] + total[c] for c in table.seats}
    for c in table.seats:
        worth = worths[c]
        if worth is None:
            continue
        throws = coming_throws(table, c)
        w = future_weight(throws)
        total[c] += worth * w + hand_value * (throws - w)
    others = [c for c in table.seats if c != me]
    value = total[me] - sum(total[c] for c in others) / len(others)
    top = max(after.values())
    if top >= table.target:
        leaders = [c for c in table.seats if after[c] == top]
        if len(leaders) == 1:
            value += WIN_VALUE if leaders[0] == me else -WIN_VALUE
    return value


def win_value(table: TableSnapshot, outcome, hand_value: float) -> float:
    """The thrower's chance of winning the game after ``outcome``, in percent (docs/bots.md).

    The faces of the thrown dice are taken in expectation as in :func:`standing_change`; for
    each case the game ends now if somebody reached the target, else the race goes on
    (:func:`doppelx.games.doppelx.planner.race.win_chances`) from the chips after the throw and the worth
    of every player's lying die. A decider scores as in :func:`standing_change`.
    """
    from doppelx.games.doppelx.planner.race import win_chances_memo

    if table.kind == "decider":
        return standing_change(table, outcome, hand_value)
    readings = read_outcome(outcome, table.board, table.dice)
    faces = {o: face_chances(table.dice[o]) for o in table.thrown}
    flung = flung_by_spinner(outcome, readings, table.lying, table.board, table.dice)
    me = table.seat(table.thrower)
    value, rows, chances = 0.0, [], []
    for p, xs in face_cases(readings, faces):
        total, _, worths = _after(table, readings, xs, flung, hand_value)
        after = [table.chips[c] + total[c] for c in table.seats]
        top = max(after)
        if top >= table.target:  # the game ends with this throw
            leaders = [k for k, a in enumerate(after) if a == top]
            value += p * (1.0 / len(leaders) if me in leaders else 0.0)
            continue
        rows.append((after, [w or 0.0 for w in worths.values()]))
        chances.append(p)
    if rows:
        chips = np.array([r[0] for r in rows], dtype=float)
        worth = np.array([r[1] for r in rows], dtype=float)
        n = len(table.seats)
        won = win_chances_memo(chips, worth, me, (me + 1) % n, table.target, table.seed, SURVIVAL)
        value += dot(chances, won)
    return 100.0 * value


def decider_points(table: TableSnapshot, readings, xs: frozenset) -> float:
    """The thrower's points of a decider throw (D37) with X on the thrown dice ``xs``: a Doppel X 10."""
    if makes_doppel_x(len(xs)):
        return float(DOPPEL_X_CHIPS)
    return sum(
        expected_die_chips(r, r.owner in xs, face_chances(table.dice[r.owner])[1])
        for r in readings
        if r.owner in table.thrown
    )


def card_payouts(table: TableSnapshot, outcome, cards: Mapping[str, BetCard]) -> dict[str, int]:
    """What each card would pay a bettor after ``outcome`` of the active player's throw (D30–D35)."""
    readings = read_outcome(outcome, table.board, table.dice)
    by_owner = {r.owner: r for r in readings}
    doppel = is_doppel_x(readings)
    active = [by_owner[o] for o in table.thrown if o in by_owner]
    flung = flung_by_spinner(outcome, readings, table.lying, table.board, table.dice)
    return {
        letter: card_pays(card, doppel_x=doppel, active_dice=active, flung_by_spinner=flung)
        for letter, card in cards.items()
    }


def expected_card_payouts(table: TableSnapshot, outcome, cards: Mapping[str, BetCard]) -> dict[str, float]:
    """What each card pays a bettor after ``outcome``, the thrown dice's faces taken in expectation.

    Where the active player's dice come to rest follows the throw; which faces they show is
    chaos. So, as for the throw's value, every case of "shows X" / "does not" of the thrown
    dice on the board is weighted by its chance: Doppel X (A, H) follows from the X faces of
    the thrown dice and of the lying dice as they lie; B–G do not depend on the faces (D35)
    but pay nothing in a Doppel X (D34).
    """
    readings = read_outcome(outcome, table.board, table.dice)
    thrown = set(table.thrown)
    faces = {o: face_chances(table.dice[o]) for o in table.thrown}
    active = [r for r in readings if r.owner in thrown]
    flung = flung_by_spinner(outcome, readings, table.lying, table.board, table.dice)
    pays = {letter: 0.0 for letter in cards}
    for p, xs in face_cases(readings, faces):
        doppel = makes_doppel_x(sum(shows_x(r, xs, thrown) for r in readings))
        for letter, card in cards.items():
            pays[letter] += p * card_pays(card, doppel_x=doppel, active_dice=active, flung_by_spinner=flung)
    return pays


def hand_value_of(board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, lying: int) -> float:
    """The best card's expected pay-out by the rough area-based chances of :class:`doppelx.games.doppelx.bots.BestCardBet`."""
    from doppelx.games.doppelx.bots import expected_payouts

    return max(expected_payouts(board, cards, die, lying).values())
