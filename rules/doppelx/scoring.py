"""Score one throw (D15–D20, D29–D35): dice chips, Doppel X and bets, for every player.

A pure function of the outcome and the table: it does not change any state. The game
(:mod:`rules.doppelx.game`) and ``doppelx score`` both call :func:`score_throw`. Each die is read
once per throw: a caller that has read the outcome already (the game, the throw service
``doppelx.games.doppelx.throw_service``) hands its readings in.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass

from rules.common.errors import RulesError
from rules.doppelx.bets import BetCard, card_pays
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.dice import WHITE, DiceSet
from rules.doppelx.outcome import DieOutcome, Pose, Status, ThrowOutcome
from rules.doppelx.reading import DieReading, chips_for, read_dice, read_die

DOPPEL_X_CHIPS = 10
#: Dice on the board showing X that make a Doppel X (D17).
DOPPEL_X_DICE = 2


def beneficiary(die_owner: str, active: str | None, seats: Sequence[str]) -> str | None:
    """The player a die's result goes to: the white die's to the active player (D15), a
    player's die to its owner; ``None`` for a die of nobody seated (or white on the setup throw)."""
    if die_owner == WHITE:
        return active
    return die_owner if die_owner in seats else None


def makes_doppel_x(x_dice: int) -> bool:
    """``x_dice`` dice on the board showing X make a Doppel X (D17)."""
    return x_dice >= DOPPEL_X_DICE


@dataclass(frozen=True)
class DieScore:
    """What one die of a throw brings and to whom.

    Attributes:
        owner: the die.
        chips: chips it brings by itself (D11–D16): 0 in a Doppel X, which pays per player
            instead (D18), and in a void throw.
        scores_for: the player its result goes to (:func:`beneficiary`); ``None`` for a die
            off the board or in a hole, or of nobody seated.
    """

    owner: str
    chips: int
    scores_for: str | None


def die_scores(
    readings: Sequence[DieReading],
    doppel_x: bool,
    active: str | None,
    seats: Sequence[str],
    void: bool = False,
) -> tuple[DieScore, ...]:
    """Each die's :class:`DieScore`, in the order of ``readings``."""
    return tuple(
        DieScore(
            r.owner,
            0 if doppel_x or void else chips_for(r),
            beneficiary(r.owner, active, seats) if r.status is Status.BOARD else None,
        )
        for r in readings
    )


@dataclass(frozen=True)
class PlayerScore:
    """One player's result of a throw.

    Attributes:
        colour: the player.
        dice: chips won (positive) or to pay back (negative) for their dice (D11–D16).
        bets: chips won by their bet.
        doppel_x: chips for showing X in a Doppel X (D18).
        before, after: chips held before and after (never below 0, D13).
    """

    colour: str
    dice: int
    bets: int
    doppel_x: int
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class ThrowScore:
    """The scoring of one throw: per-die readings and scores, Doppel X, and per-player results.

    :attr:`dice` holds each die's :class:`DieScore` in the order of ``readings``:
    :func:`score_throw` hands in the ones it scored with; a score built otherwise (the game's
    decider and void throws, a loaded save) works them out from its readings on first use
    (:func:`die_scores`, the seats being ``players``).
    """

    readings: tuple[DieReading, ...]
    doppel_x: bool
    players: dict[str, PlayerScore]
    active: str | None
    #: The throw was void and must be repeated (cocked die under the re-throw option, D7).
    rethrow: bool = False
    scored: InitVar[tuple[DieScore, ...] | None] = None

    def __post_init__(self, scored: tuple[DieScore, ...] | None) -> None:
        if scored is not None:
            self.__dict__["dice"] = scored  # what dice (a cached property) would work out

    @functools.cached_property
    def dice(self) -> tuple[DieScore, ...]:
        """Each die's :class:`DieScore`, in the order of ``readings``."""
        return die_scores(self.readings, self.doppel_x, self.active, tuple(self.players), self.rethrow)

    def reading(self, owner: str) -> DieReading | None:
        for r in self.readings:
            if r.owner == owner:
                return r
        return None

    def die(self, owner: str) -> DieScore | None:
        """The :class:`DieScore` of die ``owner`` (``None``: not in this throw)."""
        for d in self.dice:
            if d.owner == owner:
                return d
        return None


def read_outcome(outcome: ThrowOutcome, board: BoardSide, dice: DiceSet) -> tuple[DieReading, ...]:
    """Read every die of ``outcome`` (D6–D10)."""
    return read_dice(outcome.dice, dice, board, dice.cocked_angle)


def flung_by_spinner(
    outcome: ThrowOutcome,
    readings: Sequence[DieReading],
    lying_before: Mapping[str, Pose | None],
    board: BoardSide,
    dice: DiceSet,
) -> list[DieReading]:
    """The dice bet G is about (D31): lying on the board before the throw, then flung by the
    spinner into a hole or onto an X or -1 field.

    A die counts when it touched the spinner during the throw and left its place for the card's
    kind of place: it fell into a hole, or it lies on X or -1 and either lay on another kind of
    field before or moved at least its own size. A die that already lay on X or -1 and was only
    brushed by the turning spinner (side IV's inner -1 band lies within the spinner's arms) was
    not flung there.

    Args:
        outcome, readings: the throw's dice and their readings, in the same order.
        lying_before: the pose before the throw of every die that lay on the board; ``None``
            where it is not known (a state file holds only the dice after the throw): such a
            die counts when it touched the spinner and lies in a hole or on X or -1.
        board, dice: the playfield side and the dice specs.
    """
    flung = []
    for d, r in zip(outcome.dice, readings, strict=True):
        if r.owner not in lying_before or not d.touched_spinner:
            continue
        pose = lying_before[r.owner]
        if r.status is Status.HOLE:
            flung.append(r)
        elif r.status is Status.BOARD and r.field in (FieldKind.X, FieldKind.MINUS_ONE):
            if pose is None:
                flung.append(r)
                continue
            die = dice[r.owner]
            assert d.pose is not None  # a die on the board has its pose
            moved = math.dist(pose.position[:2], d.pose.position[:2]) >= die.size
            came = read_die(DieOutcome(r.owner, Status.BOARD, pose), die, board, dice.cocked_angle)
            if moved or came.field != r.field:
                flung.append(r)
    return flung


def is_doppel_x(readings: Sequence[DieReading]) -> bool:
    """At least two dice on the board show X (D17)."""
    return makes_doppel_x(sum(r.status is Status.BOARD and r.top == "X" for r in readings))


def score_throw(
    outcome: ThrowOutcome,
    board: BoardSide,
    dice: DiceSet,
    *,
    seats: Sequence[str],
    active: str | None,
    chips: Mapping[str, int],
    bets: Mapping[str, str] | None = None,
    cards: Mapping[str, BetCard] | None = None,
    lying_before: Mapping[str, Pose | None] | None = None,
    readings: Sequence[DieReading] | None = None,
) -> ThrowScore:
    """Score a throw for every seated player.

    Args:
        outcome: all dice on the table after the throw.
        board, dice: the playfield side and the dice specs.
        seats: player colours in seat order.
        active: the active player's colour, or ``None`` for the setup throw (D22).
        chips: each player's chips before the throw.
        bets: ``{colour: card letter}`` of passive players betting (D29).
        cards: the bet cards in play by letter.
        lying_before: the poses before this throw of the dice that lay on the board (bet G,
            :func:`flung_by_spinner`).
        readings: the dice of ``outcome`` already read (:func:`read_outcome`), in its order;
            read here if not given.

    Returns:
        The :class:`ThrowScore`; chips after = max(0, before + dice + bets + Doppel X).
    """
    bets = dict(bets or {})
    cards = dict(cards or {})
    readings = read_outcome(outcome, board, dice) if readings is None else tuple(readings)
    by_owner = {r.owner: r for r in readings}
    doppel_x = is_doppel_x(readings)
    scores = die_scores(readings, doppel_x, active, seats)

    dice_chips = {c: 0 for c in seats}
    doppel_chips = {c: 0 for c in seats}
    for r, d in zip(readings, scores, strict=True):
        if d.scores_for is None:
            continue
        if doppel_x and r.top == "X":  # D18: 10 per player showing X, once per player
            doppel_chips[d.scores_for] = DOPPEL_X_CHIPS
        else:  # D15, D16 (every die's chips are 0 in a Doppel X)
            dice_chips[d.scores_for] += d.chips

    bet_chips = {c: 0 for c in seats}
    if bets:
        if active is None:
            raise RulesError(
                "no bets are possible on the setup throw (D29: bets are on an active player's throw)"
            )
        active_dice = [by_owner[o] for o in (active, WHITE) if o in by_owner]
        flung = flung_by_spinner(outcome, readings, lying_before or {}, board, dice)
        for colour, letter in bets.items():
            bet_chips[colour] = card_pays(
                cards[letter], doppel_x=doppel_x, active_dice=active_dice, flung_by_spinner=flung
            )

    players = {}
    for c in seats:
        before = int(chips.get(c, 0))
        after = max(0, before + dice_chips[c] + bet_chips[c] + doppel_chips[c])
        players[c] = PlayerScore(c, dice_chips[c], bet_chips[c], doppel_chips[c], before, after)
    return ThrowScore(readings, doppel_x, players, active, scored=scores)
