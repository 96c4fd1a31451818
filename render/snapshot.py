"""What the window draws: the table (static specs) and one frame's snapshot of it.

The match builds a :class:`TableSpec` once per game and a :class:`Snapshot` per physics
step (die poses, spinner angle, bets, HUD data) and hands both to the window; the window
never reads the physics world or decides a rule. :func:`interpolate` blends two snapshots
of a fixed-step simulation for smooth display (positions linearly, rotations by slerp).

Frame: the board frame of :mod:`rules.doppelx.board` (m; origin at the playfield centre, z up,
playfield top at z = 0, box floor at ``box.floor_z``, rim at ``box.rim_z``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from render.transforms import lerp_angle, slerp
from rules.doppelx.bets import BetCard, choose_cards
from rules.doppelx.board import BoardSide
from rules.doppelx.board_file import load_board
from rules.doppelx.box import BoxSpec, load_box
from rules.doppelx.dice import DiceSet, load_dice
from rules.doppelx.outcome import Pose


@dataclass(frozen=True, eq=False)
class TableSpec:
    """The table for one game: what stays the same from frame to frame.

    Compared by identity: the window rebuilds its meshes and textures when it is handed a
    snapshot of a different table.

    Attributes:
        board: the playfield side in play.
        box: the box (walls, rim, cavity, bet card size).
        dice: the dice set (sizes, colours, faces).
        cards: the 4 bet cards in play, in the order of ``box.corner_order`` (cards 1–4).
        spinner_on: draw the spinner (boards with a spinner mount only, D39).
    """

    board: BoardSide
    box: BoxSpec
    dice: DiceSet
    cards: tuple[BetCard, ...]
    spinner_on: bool = True

    @classmethod
    def standard(
        cls, side: str = "I", cards: Iterable[str] = ("A", "B", "C", "D"), spinner_on: bool = True
    ) -> TableSpec:
        """The shipped box and dice with built-in side ``side`` and the given bet cards."""
        chosen = choose_cards(list(cards))
        return cls(load_board(side), load_box(), load_dice(), tuple(chosen.values()), spinner_on)

    @property
    def has_spinner(self) -> bool:
        """Whether a spinner is drawn."""
        return self.spinner_on and self.board.spinner is not None

    def card(self, letter: str) -> BetCard:
        """The card in play with ``letter`` (``KeyError`` if it is not in play)."""
        for c in self.cards:
            if c.letter == letter:
                return c
        raise KeyError(letter)


class InputMode(enum.StrEnum):
    """What the match is waiting for, so the window knows which input becomes an intent."""

    NONE = "none"  # watching: dice rolling, bots playing
    THROW = "throw"  # the active (human) player may walk and flick
    BET = "bet"  # a passive (human) player may click a bet card or pass


@dataclass(frozen=True)
class ScoreLine:
    """One scoreboard row: player name, die colour (an owner such as ``"blue"``), chips.

    ``active``: this player throws (or threw the throw shown; marked ▶); ``betting``: this
    player may bet now (marked ◆, its own marker); ``note``: a bet card or the last change;
    ``income``: the chips the player's die lying on the board brings after every throw
    (``None``: the die is in hand), shown as ``+9/throw``.
    """

    name: str
    colour: str
    chips: int
    active: bool = False
    note: str = ""
    income: int | None = None
    betting: bool = False


@dataclass(frozen=True)
class FloatingText:
    """A short text hovering over a board point, e.g. ``"+9"`` over a die.

    Attributes:
        text: what to show.
        position: (x, y, z) m in the board frame.
        colour: ``"#rrggbb"``.
    """

    text: str
    position: tuple[float, float, float]
    colour: str = "#ffffff"


@dataclass(frozen=True)
class Snapshot:
    """One frame of the table.

    Attributes:
        table: the :class:`TableSpec` (same object for a whole game).
        dice: pose of every die on the table by owner (dice in hand are left out;
            dice in holes lie in the cavity, off-board dice wherever physics left them).
        spinner_angle: rotation of the spinner about its pin (rad, counter-clockwise from
            a tip pointing along +y).
        bets: die owner → letter of the bet card that die lies on (drawn on the card).
        scoreboard: rows of the scoreboard, in seat order.
        turn: whose turn, e.g. ``"Anna (blue) throws"``.
        message: a status line (what to do next, what happened).
        banner: a big centred announcement, e.g. ``"Doppel X!"``; empty for none.
        floating: texts anchored at board points.
        input: which input the match accepts now (:class:`InputMode`).
        thrower: owner colour of the player who throws now (colours the hand marker).
        impacts: impact speeds (m/s) since the previous snapshot; each makes a clatter.
        time: simulation time (s) of this snapshot.
        summary: the last throw's result, one line each (shown until the next throw).
        summary_title: the summary panel's title, e.g. ``"Last throw: Anna (blue)"`` (``""``: "Last throw").
        hand_walls: the walls the game's people throw from (their stances): the referee view
            fits the hands at all of them at once, so it does not move when the thrower changes.
        log: the last throws, one line each, oldest first (the throw log, L).
        activity: what is going on while nobody can act, e.g. ``"Rolling…"``; empty for nothing.
        target: the chips that end this game (D36; 0: not known — the rules card names the rulebook's).
        bettable: letters of the bet cards a click bets on now (outlined on the table); a click
            on one is taken while watching too (:class:`InputMode` ``NONE``), for a person who
            passes unless they click a card.
        countdown: seconds left to bet before the bet passes by itself (0: no countdown).
        saved_to: where quitting now saves the game (named in the Esc menu; ``""``: nothing to save).
        power_mark: the power (0…1) from which the thrower's throw is a hard one — marked on the
            power bar, whose part beyond it says "hard" (0: no mark, e.g. a direct aim).
        card_note: why a click on a bet card bets nothing now, said when one is clicked that
            ``bettable`` leaves out (``""``: nothing to say).
    """

    table: TableSpec
    dice: Mapping[str, Pose] = field(default_factory=dict)
    spinner_angle: float = 0.0
    bets: Mapping[str, str] = field(default_factory=dict)
    scoreboard: tuple[ScoreLine, ...] = ()
    turn: str = ""
    message: str = ""
    banner: str = ""
    floating: tuple[FloatingText, ...] = ()
    input: InputMode = InputMode.NONE
    thrower: str | None = None
    impacts: tuple[float, ...] = ()
    time: float = 0.0
    summary: tuple[str, ...] = ()
    summary_title: str = ""
    hand_walls: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    activity: str = ""
    target: int = 0
    bettable: tuple[str, ...] = ()
    countdown: float = 0.0
    saved_to: str = ""
    power_mark: float = 0.0
    card_note: str = ""


def interpolate(previous: Snapshot, current: Snapshot, alpha: float) -> Snapshot:
    """The table ``alpha`` of the way from ``previous`` to ``current`` (0 → previous, 1 → current).

    Dice present in both are blended (position linearly, rotation by slerp); dice only in
    ``current`` appear at their current pose. The spinner turns the shorter way round.
    Everything else (HUD, bets, input mode, impacts) is taken from ``current``.
    """
    a = min(1.0, max(0.0, float(alpha)))
    if a >= 1.0 or previous.table is not current.table:
        return current
    dice: dict[str, Pose] = {}
    for owner, pose in current.dice.items():
        old = previous.dice.get(owner)
        if old is None:
            dice[owner] = pose
            continue
        pos = tuple(p0 + a * (p1 - p0) for p0, p1 in zip(old.position, pose.position))
        dice[owner] = Pose(pos, slerp(old.quaternion, pose.quaternion, a))  # type: ignore[arg-type]
    return replace(
        current,
        dice=dice,
        spinner_angle=lerp_angle(previous.spinner_angle, current.spinner_angle, a),
        time=previous.time + a * (current.time - previous.time),
    )


__all__ = ["FloatingText", "InputMode", "ScoreLine", "Snapshot", "TableSpec", "interpolate"]
