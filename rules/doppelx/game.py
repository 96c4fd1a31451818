"""The DoppelX game as a state machine (D15–D38): everything a table of players knows.

The game never simulates a throw. It says which throw comes next (:meth:`request`): who
throws which dice and which dice lie on the board; the caller produces the outcome —
the physics world, a test fixture or a JSON file — and hands it to :meth:`apply_throw`.
Chance is thus an explicit step, as in OpenSpiel's games.

Phases: ``setup`` (all players throw their coloured dice at once, D22) → ``turn`` (the
active player throws their die and the white die; passive players with a die in hand may
bet first, D29) → ``finished``, or ``decider`` first when the end is a tie (D37).

Readings taken where the rulebook is silent:
- Decider (D37): the tied players throw in seat order, each their coloured and the white
  die onto an empty board; a throw scores its dice by D11–D14 (a Doppel X of the two dice
  scores 10); the highest in a round wins, a tie among the highest plays another round.
- Cocked dice (D7): by default read by their most-up face; with ``rethrow_cocked`` a throw
  in which a die of the active player is cocked is void: lying dice stay where the throw
  left them (holes and off still send dice home) and the active player throws again.
- Hand over the rim (D38): with ``rim_penalty`` the thrower returns a 1-chip, if they have one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.common.errors import RulesError
from rules.doppelx.bets import DEFAULT_CARDS, BetCard, choose_cards
from rules.doppelx.board import BoardSide
from rules.doppelx.chips import breakdowns, supply_after, target_problem
from rules.doppelx.dice import WHITE, DiceSet, load_dice
from rules.doppelx.outcome import Pose, Status, ThrowOutcome
from rules.doppelx.reading import DieReading, chips_for
from rules.doppelx.scoring import (
    DOPPEL_X_CHIPS,
    PlayerScore,
    ThrowScore,
    is_doppel_x,
    read_outcome,
    score_throw,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 8


class Phase(StrEnum):
    SETUP = "setup"
    TURN = "turn"
    DECIDER = "decider"
    FINISHED = "finished"


def rulebook_target(players: int) -> int:
    """The chips that end a game by the rulebook (D36): 50 with 3–5 players, 70 with 6–8."""
    return 50 if players <= 5 else 70


def seats_for_throw(
    thrown: Sequence[str], lying: Sequence[str], player_colours: Sequence[str]
) -> tuple[tuple[str, ...], str | None]:
    """Who sits at the table to score one throw outside a game (``doppelx throw``).

    The thrown colours and the lying dice's owners, padded to :data:`MIN_PLAYERS` with the
    first unused colours of ``player_colours``. With the white die among ``thrown`` the one
    thrown colour is the active player (a turn: white goes with exactly one player's die,
    D24); without it the throw is scored like a setup throw (no active player).

    Returns:
        ``(seats, active)``.

    Raises:
        RulesError: white is thrown with no or with several players' dice.
    """
    coloured = [o for o in thrown if o != WHITE]
    if WHITE in thrown and len(coloured) != 1:
        raise RulesError(
            f"--dice {','.join(thrown)}: the white die is thrown with exactly one player's die, "
            f"the active player's (D24), e.g. --dice blue,white; without white the dice are thrown "
            f"as in the setup throw"
        )
    seats = list(dict.fromkeys([*coloured, *lying]))
    seats += [c for c in player_colours if c not in seats][: max(0, MIN_PLAYERS - len(seats))]
    active = (coloured[0] if coloured else seats[0]) if WHITE in thrown else None
    return tuple(seats), active


@dataclass(frozen=True)
class GameOptions:
    """House rules and variants.

    Attributes:
        target: chips that end the game; ``None`` = 50 for 3–5 players, 70 for 6–8 (D36).
        rethrow_cocked: a cocked die of the active player voids the throw (D7).
        rim_penalty: a throw with the hand over the rim costs a 1-chip (D38).
        first_seat: the seat of the youngest player, who starts (D23).
    """

    target: int | None = None
    rethrow_cocked: bool = False
    rim_penalty: bool = False
    first_seat: int = 0


@dataclass(frozen=True)
class ThrowRequest:
    """The next throw the game expects.

    Attributes:
        kind: ``"setup"``, ``"turn"`` or ``"decider"``.
        thrower: colour of the active player (``None`` for the setup throw).
        dice: owners of the dice to throw now.
        lying: dice lying on the board, by owner, with their poses (they stay and may be hit).
    """

    kind: str
    thrower: str | None
    dice: tuple[str, ...]
    lying: dict[str, Pose]


@dataclass
class GameLogEntry:
    """One entry of the rules' game log: the throw's number, kind, thrower, bets, score and
    penalties; no physics (the match's :class:`~doppelx.games.doppelx.throw_service.MatchLogEntry`
    adds the release and the physics result)."""

    number: int
    kind: str
    thrower: str | None
    bets: dict[str, str]
    score: ThrowScore
    penalty: dict[str, int] = field(default_factory=dict)


class DoppelXGame:
    """A whole game of DoppelX for 3–8 players.

    Args:
        players: player colours in seat order (clockwise, D21/D23); white is not allowed.
        board: the playfield side.
        dice: the dice specs (default: the shipped set).
        cards: the 4 bet card letters in play (D3).
        options: :class:`GameOptions`.
        names: optional display names by colour.
    """

    def __init__(
        self,
        players: Sequence[str],
        board: BoardSide,
        dice: DiceSet | None = None,
        cards: Sequence[str] = DEFAULT_CARDS,
        options: GameOptions | None = None,
        names: Mapping[str, str] | None = None,
    ):
        self.dice = dice or load_dice()
        players = list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RulesError(f"DoppelX is for {MIN_PLAYERS}–{MAX_PLAYERS} players, got {len(players)}")
        if WHITE in players:
            raise RulesError("nobody may take the white die (D21)")
        unknown = [c for c in players if c not in self.dice.player_colours]
        if unknown:
            raise RulesError(
                f"no die of colour {unknown[0]!r}; colours are {', '.join(self.dice.player_colours)}"
            )
        if len(set(players)) != len(players):
            raise RulesError("each player needs a colour of their own")
        self.options = options or GameOptions()
        if not 0 <= self.options.first_seat < len(players):
            raise RulesError(f"first_seat must be a seat 0–{len(players) - 1}")
        self.board = board
        self.seats: tuple[str, ...] = tuple(players)
        self.names = {c: (names or {}).get(c, c) for c in self.seats}
        self.cards: dict[str, BetCard] = choose_cards(cards)
        target = self.options.target
        problem = None if target is None else target_problem(target, len(players))
        if problem:
            raise RulesError(problem)
        self.target = target or rulebook_target(len(players))
        self.chips: dict[str, int] = {c: 0 for c in self.seats}
        self.phase = Phase.SETUP
        self.active_seat = self.options.first_seat
        self.on_board: dict[str, Pose] = {}
        self.bets: dict[str, str] = {}
        self.log: list[GameLogEntry] = []
        self.winner: str | None = None
        self.decider_players: tuple[str, ...] = ()
        self.decider_round = 0
        self.decider_points: dict[str, int] = {}
        self.decider_history: list[dict[str, int]] = []

    # -- what the table knows ---------------------------------------------------------------
    @property
    def active(self) -> str | None:
        """Colour of the player to throw next (``None`` before the setup throw and at the end)."""
        if self.phase is Phase.TURN:
            return self.seats[self.active_seat]
        if self.phase is Phase.DECIDER:
            return self.decider_players[len(self.decider_points)]
        return None

    def location(self, owner: str) -> str:
        """``"board"``, ``"hand"`` or ``"bet:<letter>"`` for a die."""
        if owner in self.on_board:
            return "board"
        if owner in self.bets:
            return f"bet:{self.bets[owner]}"
        return "hand"

    @property
    def supply(self) -> int:
        """Chip value left in the supply (D5: 665 in all)."""
        return supply_after(self.chips)

    def chips_held(self, colour: str) -> dict[int, int]:
        """``colour``'s chips by denomination, all players' taken from the one box (D5,
        :func:`rules.doppelx.chips.breakdowns`)."""
        return breakdowns(self.chips)[colour]

    def is_terminal(self) -> bool:
        return self.phase is Phase.FINISHED

    def returns(self) -> dict[str, int]:
        """Chips per player (a player's score, D5)."""
        return dict(self.chips)

    def request(self) -> ThrowRequest:
        """The throw the game waits for."""
        if self.phase is Phase.FINISHED:
            raise RulesError("the game is over; no more throws")
        if self.phase is Phase.SETUP:
            return ThrowRequest("setup", None, self.seats, {})
        thrower = self.active
        assert thrower is not None
        if self.phase is Phase.DECIDER:
            return ThrowRequest("decider", thrower, (thrower, WHITE), {})
        lying = {o: p for o, p in self.on_board.items() if o not in (thrower, WHITE)}
        return ThrowRequest("turn", thrower, (thrower, WHITE), lying)

    # -- bets ---------------------------------------------------------------------------------
    def eligible_bettors(self) -> list[str]:
        """Passive players whose die is not on the playfield (D29), in seat order."""
        if self.phase is not Phase.TURN:
            return []
        return [c for c in self.seats if c != self.active and c not in self.on_board]

    def place_bet(self, colour: str, letter: str) -> None:
        """Put ``colour``'s die on bet card ``letter`` before the active player's throw."""
        letter = str(letter).upper()
        if colour not in self.seats:
            raise RulesError(f"{colour!r} is not a player in this game")
        if self.phase is not Phase.TURN:
            raise RulesError(
                f"no bets now: bets are placed before an active player's throw (phase is {self.phase})"
            )
        if colour == self.active:
            raise RulesError(f"{colour} is the active player and cannot bet on their own throw (D29)")
        if colour in self.on_board:
            raise RulesError(f"{colour}'s die lies on the playfield; only a die in hand can bet (D29)")
        if letter not in self.cards:
            raise RulesError(f"card {letter!r} is not in play (cards: {', '.join(self.cards)})")
        self.bets[colour] = letter

    # -- a throw ------------------------------------------------------------------------------
    def apply_throw(self, outcome: ThrowOutcome, readings: Sequence[DieReading] | None = None) -> ThrowScore:
        """Score ``outcome`` for the current request and move the game on.

        ``readings`` are the dice of ``outcome`` already read (:func:`rules.doppelx.scoring.read_outcome`,
        in its order); without them the outcome is read here — once, either way.

        Raises:
            RulesError: the outcome does not hold exactly the thrown and the lying dice.
        """
        req = self.request()
        self._check_outcome(outcome, req)
        readings = read_outcome(outcome, self.board, self.dice) if readings is None else tuple(readings)
        if self.phase is Phase.DECIDER:
            return self._apply_decider(readings, req)

        if (
            self.phase is Phase.TURN
            and self.options.rethrow_cocked
            and any(r.cocked for r in readings if r.owner in req.dice)
        ):
            self._place_dice(outcome, set(req.dice), set())
            return ThrowScore(readings, False, {}, req.thrower, rethrow=True)

        score = score_throw(
            outcome,
            self.board,
            self.dice,
            seats=self.seats,
            active=req.thrower,
            chips=self.chips,
            bets=self.bets,
            cards=self.cards,
            lying_before=req.lying,
            readings=readings,
        )
        after = {c: p.after for c, p in score.players.items()}
        penalty = {}
        if outcome.hand_over_rim and self.options.rim_penalty and req.thrower and after[req.thrower] > 0:
            after[req.thrower] -= 1
            penalty[req.thrower] = 1
        supply_after(after)
        self.chips = after
        x_dice = {
            r.owner for r in score.readings if score.doppel_x and r.status is Status.BOARD and r.top == "X"
        }
        self._place_dice(outcome, set(), x_dice)
        self.log.append(
            GameLogEntry(len(self.log) + 1, req.kind, req.thrower, dict(self.bets), score, penalty)
        )
        self.bets = {}  # D30: bet dice go back to their owners
        self._after_scoring()
        return score

    def _check_outcome(self, outcome: ThrowOutcome, req: ThrowRequest) -> None:
        owners = outcome.owners()
        dupes = {o for o in owners if owners.count(o) > 1}
        if dupes:
            raise RulesError(f"the outcome lists die {sorted(dupes)[0]!r} more than once")
        expected = set(req.dice) | set(req.lying)
        missing, extra = expected - set(owners), set(owners) - expected
        if missing:
            raise RulesError(f"the outcome lacks die {sorted(missing)[0]!r} (thrown or lying on the board)")
        if extra:
            raise RulesError(
                f"the outcome has die {sorted(extra)[0]!r}, which was neither thrown nor on the board"
            )

    def _place_dice(self, outcome: ThrowOutcome, to_hand: set[str], x_dice: set[str]) -> None:
        """Dice in holes/off, ``to_hand`` and removed X dice go home (D20, D27); the rest lie."""
        for d in outcome.dice:
            if d.status is Status.BOARD and d.owner not in to_hand and d.owner not in x_dice:
                self.on_board[d.owner] = d.pose  # type: ignore[assignment]
            else:
                self.on_board.pop(d.owner, None)

    def _after_scoring(self) -> None:
        setup = self.phase is Phase.SETUP
        if setup:  # the youngest starts (D23); the setup throw's scoring can end the game too (D36)
            self.phase = Phase.TURN
        top = max(self.chips.values())
        if top >= self.target:
            leaders = tuple(c for c in self.seats if self.chips[c] == top)
            if len(leaders) == 1:
                self.winner = leaders[0]
                self.phase = Phase.FINISHED
            else:
                self._start_decider(leaders)
            return
        if not setup:
            self.active_seat = (self.active_seat + 1) % len(self.seats)

    # -- the decider (D37) ----------------------------------------------------------------
    def _start_decider(self, players: tuple[str, ...]) -> None:
        self.phase = Phase.DECIDER
        self.decider_players = players
        self.decider_round += 1
        self.decider_points = {}
        self.on_board = {}
        self.bets = {}

    def _apply_decider(self, readings: tuple[DieReading, ...], req: ThrowRequest) -> ThrowScore:
        doppel = is_doppel_x(readings)
        points = DOPPEL_X_CHIPS if doppel else sum(chips_for(r) for r in readings)
        thrower = req.thrower
        assert thrower is not None
        self.decider_points[thrower] = points
        score = ThrowScore(
            readings,
            doppel,
            {
                thrower: PlayerScore(
                    thrower,
                    0 if doppel else points,
                    0,
                    DOPPEL_X_CHIPS if doppel else 0,
                    self.chips[thrower],
                    self.chips[thrower],
                )
            },
            thrower,
        )
        self.log.append(GameLogEntry(len(self.log) + 1, "decider", thrower, {}, score))
        if len(self.decider_points) == len(self.decider_players):
            self.decider_history.append(dict(self.decider_points))
            best = max(self.decider_points.values())
            leaders = tuple(c for c in self.decider_players if self.decider_points[c] == best)
            if len(leaders) == 1:
                self.winner = leaders[0]
                self.phase = Phase.FINISHED
            else:
                self._start_decider(leaders)
        return score

    # -- summaries ------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary of the game so far."""
        return {
            "phase": str(self.phase),
            "seats": list(self.seats),
            "target": self.target,
            "cards": list(self.cards),
            "throws": len(self.log),
            "chips": dict(self.chips),
            "chips_held": {c: {str(k): v for k, v in self.chips_held(c).items()} for c in self.seats},
            "supply": self.supply,
            "winner": self.winner,
            "decider_rounds": self.decider_history,
        }
