"""The table-state JSON that ``doppelx score`` reads (format ``doppelx-state/1``).

One throw's situation: the seats, the active player, the bet cards in play and the bets,
each player's chips before the throw, and every die on the table after the throw. The
schema is documented in ``docs/score-schema.md``; parsing is strict and every mistake names
the element (``dice[2].yaw_deg``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from rules.common.assets import parse_json, read_json, read_stdin
from rules.common.errors import RulesError, SpecError
from rules.common.schema import DataTable, describe
from rules.doppelx.bets import DEFAULT_CARDS, BetCard, check_bets, choose_cards
from rules.doppelx.board import BoardSide
from rules.doppelx.chips import supply_after
from rules.doppelx.dice import WHITE, DiceSet
from rules.doppelx.outcome import DieOutcome, Pose, Status, ThrowOutcome
from rules.doppelx.placement import check_resting

FORMAT = "doppelx-state/1"


@dataclass(frozen=True)
class TableState:
    """A parsed state file: everything :func:`rules.doppelx.scoring.score_throw` needs."""

    seats: tuple[str, ...]
    active: str | None
    cards: dict[str, BetCard]
    bets: dict[str, str]
    chips: dict[str, int]
    outcome: ThrowOutcome
    #: Board side named in the file (``doppelx score`` uses it when ``--board`` is not given).
    board: str | None = None
    #: Dice whose pose the file gives in the short form (``x``, ``y``, ``yaw_deg``, ``top``):
    #: errors about where they lie name those keys.
    short_form: frozenset[str] = frozenset()
    #: False: the side's spinner was left off for this throw (D39), so nothing is judged
    #: against it (``BoardSide.with_spinner``); true (the default): as the side has it.
    spinner: bool = True

    @property
    def lying_before(self) -> dict[str, None]:
        """Dice that were not thrown: every passive player's die on the table (bet G), with
        their poses before the throw unknown (the file holds the dice after it).

        In a turn only the active player's die and the white die are thrown (D24), so any
        other die in the outcome lay there before; in the setup throw every die was thrown.
        """
        if self.active is None:
            return {}
        return {d.owner: None for d in self.outcome.dice if d.owner not in (self.active, WHITE)}


#: The state file name that means standard input (``doppelx throw --json | … | doppelx score --state -``).
STDIN = "-"
#: How errors name a state read from standard input.
STDIN_SOURCE = "standard input"


def load_table_state(path: str | Path, dice: DiceSet) -> TableState:
    """Read and validate a state file (:data:`STDIN`: standard input)."""
    if str(path) == STDIN:
        return parse_table_state(parse_json(read_stdin(STDIN_SOURCE), STDIN_SOURCE), STDIN_SOURCE, dice)
    data = read_json(path)
    return parse_table_state(data, str(path), dice)


def parse_table_state(data: object, source: str, dice: DiceSet) -> TableState:
    """Validate a parsed state (see the module docstring) against the dice set."""
    top = DataTable(data, source)
    top.check_keys(
        {
            "format",
            "seats",
            "active",
            "bet_cards",
            "bets",
            "chips",
            "dice",
            "hand_over_rim",
            "board",
            "spinner",
        }
    )
    if top.has("format") and top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    seats = _seats(top, dice)
    active = top.raw("active", None)
    if active is not None and active not in seats:
        raise top.error("active", f"{active!r} is not one of the seats ({', '.join(seats)})")
    letters = top.raw("bet_cards", list(DEFAULT_CARDS))
    if not isinstance(letters, list):
        raise top.error("bet_cards", "expected a list of 4 card letters")
    cards = choose_cards(letters, source)
    chips = _chips(top, seats)
    outcome, short_form = _outcome(top, dice, seats)
    bets = _bets(top, seats, active, outcome)
    check_bets(bets, cards, source)
    listed = {d.owner for d in outcome.dice}
    if active is None and WHITE in listed:
        raise top.error(
            "dice", 'a setup throw ("active": null) has no white die (D22); name the active player'
        )
    if active is not None:
        for needed in (active, WHITE):
            if needed not in listed:
                raise top.error(
                    "dice",
                    f"in a turn the active player's die ({active}) and the white die are thrown (D24); "
                    f"the {needed} die is missing (give it with status hole or off if it left the board)",
                )
    board = top.string("board") if top.has("board") else None
    spinner = top.boolean("spinner", True)
    return TableState(seats, active, cards, bets, chips, outcome, board, short_form, spinner)


def check_on_board(state: TableState, board: BoardSide, dice: DiceSet, source: str) -> None:
    """Check the state against the board it is scored on: dice rest where a die can rest
    (:func:`rules.doppelx.placement.check_resting`), and only a side with a spinner has dice that
    touched it."""
    where = {d.owner: f"dice[{i}]" for i, d in enumerate(state.outcome.dice)}
    poses = {d.owner: d.pose for d in state.outcome.dice if d.status is Status.BOARD and d.pose is not None}
    # an outcome: all just came to rest
    check_resting(poses, board, dice, source, where, lean=True, short=state.short_form)
    if board.spinner is None:
        for d in state.outcome.dice:
            if d.touched_spinner:
                raise SpecError(
                    source,
                    f"{where[d.owner]}.touched_spinner",
                    f"side {board.name} has no spinner, so no die can have touched it",
                )


def _seats(top: DataTable, dice: DiceSet) -> tuple[str, ...]:
    seats = top.raw("seats")
    if not isinstance(seats, list) or not 3 <= len(seats) <= 8:
        raise top.error("seats", "expected a list of 3–8 player colours in seat order")
    for i, c in enumerate(seats):
        if not isinstance(c, str) or c not in dice.player_colours:
            raise SpecError(
                top.source,
                f"seats[{i}]",
                f"expected a player colour ({', '.join(dice.player_colours)}), got {describe(c)}",
            )
    if len(set(seats)) != len(seats):
        raise top.error("seats", "a colour appears twice")
    return tuple(seats)


def _chips(top: DataTable, seats: tuple[str, ...]) -> dict[str, int]:
    t = top.table("chips", {})
    t.check_keys(set(seats))
    chips = {c: t.integer(c, 0, minimum=0) for c in seats}
    try:
        supply_after(chips)  # D5: the box holds 665 in all
    except RulesError as exc:
        raise top.error("chips", f"{exc} (D5)") from None
    return chips


def _bets(
    top: DataTable, seats: tuple[str, ...], active: str | None, outcome: ThrowOutcome
) -> dict[str, str]:
    t = top.table("bets", {})
    t.check_keys(set(seats))
    bets = {}
    for colour in t.data:
        letter = t.string(colour).upper()
        if active is None:
            raise t.error(colour, "no bets on the setup throw (there is no active player)")
        if colour == active:
            raise t.error(colour, "the active player cannot bet on their own throw (D29)")
        die = outcome.get(colour)
        if die is not None:
            raise t.error(
                colour,
                f"{colour} bets, so their die lies on a bet card (D29), yet it is among this "
                f"throw's dice (status {die.status.value}); leave it out of dice",
            )
        bets[colour] = letter
    return bets


def _outcome(top: DataTable, dice: DiceSet, seats: tuple[str, ...]) -> tuple[ThrowOutcome, frozenset[str]]:
    """The dice after the throw, and the owners of those given in the short form."""
    entries = list(top.tables("dice", required=True))
    allowed_owners = (*seats, WHITE)
    result = []
    short: set[str] = set()
    seen: set[str] = set()
    for t in entries:
        t.check_keys(
            {"owner", "status", "position", "quaternion", "x", "y", "yaw_deg", "top", "touched_spinner"}
        )
        owner = t.string("owner")
        if owner not in allowed_owners:
            raise t.error("owner", f'{owner!r} is neither a seat nor "white"')
        if owner in seen:
            raise t.error("owner", f"die {owner!r} is listed twice")
        seen.add(owner)
        status = Status(t.string("status", "board", choices=tuple(s.value for s in Status)))
        touched = t.boolean("touched_spinner", False)
        if status is not Status.BOARD:
            given = [k for k in POSE_KEYS if t.has(k)]
            if given:
                raise t.error(
                    given[0],
                    f"a die with status {status.value} has no pose to read; leave out {', '.join(given)}",
                )
        pose = _pose(t, dice[owner]) if status is Status.BOARD else None
        if pose is not None and not t.has("position"):
            short.add(owner)
        result.append(DieOutcome(owner, status, pose, touched))
    return ThrowOutcome(tuple(result), hand_over_rim=top.boolean("hand_over_rim", False)), frozenset(short)


#: The keys of a die's pose in a state (on the board only).
POSE_KEYS = ("position", "quaternion", "x", "y", "yaw_deg", "top")


def _pose(t: DataTable, die) -> Pose:
    full = t.has("position") or t.has("quaternion")
    short = any(t.has(k) for k in ("x", "y", "yaw_deg", "top"))
    if full and short:
        raise t.error(None, "give either position + quaternion or x, y, yaw_deg, top — not both")
    if full:
        position = t.vector("position", 3)
        q = t.vector("quaternion", 4)
        if abs(math.sqrt(sum(v * v for v in q)) - 1.0) > 1e-3:
            raise t.error("quaternion", "must be a unit quaternion [x, y, z, w]")
        return Pose(position, q)  # type: ignore[arg-type]
    if not short:
        raise t.error(None, "a die on the board needs a pose: position + quaternion, or x, y, yaw_deg, top")
    top = t.string("top", choices=tuple(sorted(set(die.faces))))
    return Pose.resting(die, t.number("x"), t.number("y"), math.radians(t.number("yaw_deg", 0.0)), top)
