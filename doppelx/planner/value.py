"""What a rollout is worth to the thrower: the change of its standing in chips against the others.

A rollout of the thrower's turn ends with every die at rest. :func:`standing_change`
scores it by the rules (:func:`rules.scoring.score_throw`: its own die and the white die,
the lying dice of everybody, -1 fields, Doppel X, the bets placed on this throw) and adds
what the dice left lying will still bring before their owners throw again (D15: a lying
die scores after every throw):

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
"""

from __future__ import annotations

from collections.abc import Mapping

from doppelx.planner.table import Table
from rules.bets import BetCard, card_pays
from rules.board import BoardSide
from rules.dice import WHITE, DieSpec
from rules.outcome import Status
from rules.reading import chips_for
from rules.scoring import DOPPEL_X_CHIPS, read_outcome, score_throw

#: Chance that a lying die keeps its field through one more throw of another player.
#: Measured with medium bots on side I: 4530 of 4830 lying dice kept field and face (docs/bots.md).
SURVIVAL = 0.94
#: Chips an X face lying on the board brings per coming throw: a Doppel X (10 chips)
#: follows whenever a thrown die shows X, about 1 - (5/6)² ≈ 0.3 of the throws.
X_WAITING = DOPPEL_X_CHIPS * (1 - (5 / 6) ** 2)
#: Worth of winning the game with this throw, in chips of standing.
WIN_VALUE = 50.0


def coming_throws(table: Table, colour: str) -> int:
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


def standing_change(table: Table, outcome, hand_value: float) -> float:
    """The thrower's expected change of standing after ``outcome`` (see the module docstring)."""
    if table.kind == "decider":
        return decider_points(table, outcome)
    score = score_throw(
        outcome,
        table.board,
        table.dice,
        seats=table.seats,
        active=table.thrower,
        chips=table.chips,
        bets=table.bets,
        cards=table.cards,
        lying_before=set(table.lying),
    )
    total = {c: float(p.change) for c, p in score.players.items()}
    lies = {}
    for r in score.readings:
        if r.owner == WHITE or r.status is not Status.BOARD:
            continue
        if score.doppel_x and r.top == "X":
            continue  # D20: back to the owner
        lies[r.owner] = r
    for c in table.seats:
        throws = coming_throws(table, c)
        if throws == 0:
            continue
        r = lies.get(c)
        if r is None:
            total[c] += hand_value * throws
        else:
            w = future_weight(throws)
            total[c] += lying_worth(r) * w + hand_value * (throws - w)
    me = table.thrower
    others = [c for c in table.seats if c != me]
    value = total[me] - sum(total[c] for c in others) / len(others)
    after = {c: p.after for c, p in score.players.items()}
    top = max(after.values())
    if top >= table.target:
        leaders = [c for c in table.seats if after[c] == top]
        if len(leaders) == 1:
            value += WIN_VALUE if leaders[0] == me else -WIN_VALUE
    return value


def decider_points(table: Table, outcome) -> float:
    """The thrower's points of a decider throw (D37): its two dice, a Doppel X 10."""
    readings = read_outcome(outcome, table.board, table.dice)
    if sum(r.status is Status.BOARD and r.top == "X" for r in readings) >= 2:
        return float(DOPPEL_X_CHIPS)
    return float(sum(chips_for(r) for r in readings if r.owner in table.thrown))


def card_payouts(table: Table, outcome, cards: Mapping[str, BetCard]) -> dict[str, int]:
    """What each card would pay a bettor after ``outcome`` of the active player's throw (D30–D35)."""
    readings = read_outcome(outcome, table.board, table.dice)
    by_owner = {r.owner: r for r in readings}
    doppel = sum(r.status is Status.BOARD and r.top == "X" for r in readings) >= 2
    active = [by_owner[o] for o in table.thrown if o in by_owner]
    flung = [r for r in readings if r.owner in table.lying and outcome.get(r.owner).touched_spinner]
    return {
        letter: card_pays(card, doppel_x=doppel, active_dice=active, flung_by_spinner=flung)
        for letter, card in cards.items()
    }


def hand_value_of(board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, lying: int) -> float:
    """The best card's expected pay-out by the rough area-based chances of :class:`doppelx.bots.BestCardBet`."""
    from doppelx.bots import expected_payouts

    return max(expected_payouts(board, cards, die, lying).values())
