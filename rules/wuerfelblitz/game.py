"""Würfelblitz game state in the style of OpenSpiel's Python games (the contract of :mod:`rules.contract`).

A round has two steps: a chance step (the throw, drawn by :meth:`BlitzState.sample_chance`
from a seeded RNG or supplied from outside, applied by :meth:`BlitzState.apply_chance`)
and a simultaneous step (every player's call: a number and the time after the dice were
uncovered, or no call; :meth:`BlitzState.apply_action` with everybody's calls). The state
keeps an action log from which :func:`replay` rebuilds the same state, discs and history
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from rules.common.errors import RulesError, SpecError
from rules.common.schema import DataTable, check_integer, check_number, describe
from rules.contract import CHANCE, SIMULTANEOUS, TERMINAL
from rules.wuerfelblitz.scoring import correct_sum
from rules.wuerfelblitz.spec import BlitzSpec, load_spec
from rules.wuerfelblitz.throw import BlitzThrow, check_throw, sample_throw

MIN_PLAYERS, MAX_PLAYERS = 2, 7

#: Tolerance for "at most tie_window_s after the first correct call" with float times (s).
_TIE_EPS = 1e-9


#: White discs that become one black disc (the rule); a handicap lowers it per player, to 1.
WHITES_PER_BLACK = 3


@dataclass(frozen=True)
class GameConfig:
    """The choices made before a game.

    Attributes:
        players: 2..7.
        white_dice: 2 or 3 white dice in play.
        variant: whether the "Hirnverdreher" variant is played.
        whites_per_black: per player, the white discs exchanged for one black disc
            (3 normally; the handicap lowers it for weaker players).
        black_to_win: black discs that win.
        tie_window_s: correct calls within this many seconds of the first count as
            simultaneous (s).
    """

    players: int
    white_dice: int = 2
    variant: bool = False
    whites_per_black: tuple[int, ...] = ()
    black_to_win: int = 3
    tie_window_s: float = 0.1

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"Würfelblitz is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {self.players}")
        if self.white_dice not in (2, 3):
            raise RulesError(f"play with 2 or 3 white dice, got {self.white_dice}")
        if not self.whites_per_black:
            object.__setattr__(self, "whites_per_black", (WHITES_PER_BLACK,) * self.players)
        wpb = tuple(self.whites_per_black)
        object.__setattr__(self, "whites_per_black", wpb)
        if len(wpb) != self.players:
            raise RulesError(f"whites_per_black needs one number per player ({self.players}), got {len(wpb)}")
        if not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= WHITES_PER_BLACK for n in wpb
        ):
            raise RulesError(
                f"white discs per black disc must be whole numbers 1-{WHITES_PER_BLACK} (the handicap lowers "
                f"the rule's {WHITES_PER_BLACK}), got {list(wpb)}"
            )
        if not isinstance(self.black_to_win, int) or self.black_to_win < 1:
            raise RulesError(f"black_to_win must be >= 1, got {self.black_to_win}")
        if not (
            isinstance(self.tie_window_s, (int, float))
            and math.isfinite(self.tie_window_s)
            and self.tie_window_s >= 0
        ):
            raise RulesError(f"tie window must be a non-negative number of seconds, got {self.tie_window_s}")

    @classmethod
    def from_spec(
        cls,
        spec: BlitzSpec,
        players: int,
        *,
        white_dice: int | None = None,
        variant: bool | None = None,
        whites_per_black: Sequence[int] | None = None,
        tie_window_s: float | None = None,
    ) -> GameConfig:
        """A config with the spec's defaults for everything not given."""
        if white_dice is not None and white_dice > spec.white_in_box:
            raise RulesError(f"only {spec.white_in_box} white dice in the box, asked for {white_dice}")
        return cls(
            players=players,
            white_dice=spec.white_dice if white_dice is None else white_dice,
            variant=spec.variant if variant is None else variant,
            whites_per_black=tuple(whites_per_black)
            if whites_per_black
            else (spec.white_per_black,) * players,
            black_to_win=spec.black_to_win,
            tie_window_s=spec.tie_window_s if tie_window_s is None else tie_window_s,
        )

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["whites_per_black"] = list(self.whites_per_black)
        return d


@dataclass(frozen=True)
class Call:
    """A player's call in one round.

    Attributes:
        player: seat index 0..players-1.
        value: the sum called.
        time: seconds after the dice were uncovered (s).
    """

    player: int
    value: int
    time: float


@dataclass(frozen=True)
class RoundResult:
    """What one round did.

    Attributes:
        number: 1-based round number.
        thrower: who threw.
        throw: the faces showing.
        correct: the correct sum.
        calls: the calls made before the round ended, in time order.
        late: calls that came after the round had ended (no effect).
        winners: correct callers, each of whom got a white disc.
        wrong: callers of a wrong number.
        lost_white: wrong callers who had a white disc and gave it back.
        exchanged: players who exchanged white discs for a black disc this round.
    """

    number: int
    thrower: int
    throw: BlitzThrow
    correct: int
    calls: tuple[Call, ...]
    late: tuple[Call, ...]
    winners: tuple[int, ...]
    wrong: tuple[int, ...]
    lost_white: tuple[int, ...]
    exchanged: tuple[int, ...]


@dataclass
class BlitzState:
    """A Würfelblitz game in progress.

    Create with :func:`new_game` (first thrower by lot) or directly with a first thrower.
    """

    spec: BlitzSpec
    config: GameConfig
    first_thrower: int
    white: list[int] = field(init=False)
    black: list[int] = field(init=False)
    thrower: int = field(init=False)
    throw: BlitzThrow | None = field(init=False, default=None)
    history: list[RoundResult] = field(init=False, default_factory=list)
    log: list[dict[str, Any]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        if not 0 <= self.first_thrower < self.config.players:
            raise RulesError(
                f"first thrower must be a seat 0..{self.config.players - 1}, got {self.first_thrower}"
            )
        self.white = [0] * self.config.players
        self.black = [0] * self.config.players
        self.thrower = self.first_thrower

    # -- whose decision ------------------------------------------------------------------
    def current_player(self) -> int:
        """``CHANCE`` before a throw, ``SIMULTANEOUS`` while calling, ``TERMINAL`` at the end."""
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.throw is None else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return any(b >= self.config.black_to_win for b in self.black)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @property
    def round_number(self) -> int:
        """Number of the round being played (1-based)."""
        return len(self.history) + 1

    # -- chance step ---------------------------------------------------------------------
    def sample_chance(self, rng: np.random.Generator) -> BlitzThrow:
        """A fair throw of the dice in play (does not apply it)."""
        if self.current_player() != CHANCE:
            raise RulesError("the dice are already on the table" if self.throw else "the game is over")
        return sample_throw(self.spec, self.config.white_dice, rng)

    def apply_chance(self, throw: BlitzThrow) -> None:
        """Uncover ``throw`` (sampled or supplied from outside, e.g. a physics run)."""
        if self.current_player() != CHANCE:
            raise RulesError("the dice are already on the table" if self.throw else "the game is over")
        check_throw(self.spec, throw, self.config.white_dice)
        self.throw = throw
        self.log.append({"throw": throw.to_json()})

    # -- calls ---------------------------------------------------------------------------
    def legal_actions(self) -> list:
        """Empty: the calls are made by everybody at once (see :meth:`legal_calls`, :meth:`apply_action`)."""
        return []

    def apply_action(self, calls: Iterable[Call]) -> RoundResult:
        """The simultaneous step of the contract: everybody's calls (see :meth:`apply_calls`)."""
        if isinstance(calls, Call) or not isinstance(calls, Iterable):
            raise RulesError(f"expected the round's calls (a list of Call), got {calls!r}")
        return self.apply_calls(calls)

    def legal_calls(self) -> range:
        """The numbers a player may call: 0 up to the largest sum the dice can show."""
        if self.current_player() != SIMULTANEOUS:
            return range(0)
        return range(0, self.spec.max_call + 1)

    def correct(self) -> int:
        """The correct sum of the throw on the table."""
        if self.throw is None:
            raise RulesError("no throw on the table")
        return correct_sum(self.throw, self.config.variant)

    def apply_calls(self, calls: Iterable[Call]) -> RoundResult:
        """Resolve the round from everybody's calls (players who did not call are left out).

        The first correct call ends the round; correct calls at most ``tie_window_s`` later
        count as simultaneous and each gets a white disc. Every wrong call made up to then
        costs a white disc if the caller has one. Calls after that are late and ignored.

        Raises:
            RulesError: not in the calling step, an unknown or repeated player, a number
                outside :meth:`legal_calls`, or a negative or non-finite time.
        """
        if self.current_player() != SIMULTANEOUS:
            raise RulesError("no throw to call on" if not self.is_terminal() else "the game is over")
        calls = list(calls)
        legal = self.legal_calls()
        seen: set[int] = set()
        for c in calls:
            if not isinstance(c.player, int) or not 0 <= c.player < self.config.players:
                raise RulesError(f"no player {c.player!r} (seats 0..{self.config.players - 1})")
            if c.player in seen:
                raise RulesError(f"player {c.player} called twice in one round")
            seen.add(c.player)
            if not isinstance(c.value, int) or isinstance(c.value, bool) or c.value not in legal:
                raise RulesError(f"a call is a number {legal.start}..{legal.stop - 1}, got {c.value!r}")
            if not isinstance(c.time, (int, float)) or not math.isfinite(c.time) or c.time < 0:
                raise RulesError(f"call time must be a finite number of seconds >= 0, got {c.time!r}")
        ordered = sorted(calls, key=lambda c: (c.time, c.player))
        correct = self.correct()
        right_times = [c.time for c in ordered if c.value == correct]
        end = right_times[0] + self.config.tie_window_s + _TIE_EPS if right_times else math.inf
        made = tuple(c for c in ordered if c.time <= end)
        late = tuple(c for c in ordered if c.time > end)
        winners = tuple(c.player for c in made if c.value == correct)
        wrong = tuple(c.player for c in made if c.value != correct)

        lost = tuple(p for p in wrong if self.white[p] > 0)
        for p in lost:
            self.white[p] -= 1
        exchanged = []
        for p in winners:
            self.white[p] += 1
            if self.white[p] >= self.config.whites_per_black[p]:
                self.white[p] -= self.config.whites_per_black[p]
                self.black[p] += 1
                exchanged.append(p)

        assert self.throw is not None  # the calling step only follows a throw
        result = RoundResult(
            self.round_number,
            self.thrower,
            self.throw,
            correct,
            made,
            late,
            winners,
            wrong,
            lost,
            tuple(exchanged),
        )
        self.history.append(result)
        self.log.append({"calls": [[c.player, c.value, float(c.time)] for c in calls]})
        if winners:
            self.thrower = winners[0]
        self.throw = None
        return result

    # -- end -----------------------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        """Players with enough black discs (several if they reached it in the same round)."""
        return tuple(p for p, b in enumerate(self.black) if b >= self.config.black_to_win)

    def returns(self) -> list[float]:
        """1.0 for each winner, 0.0 for everybody else (all 0.0 while the game runs)."""
        win = set(self.winners())
        return [1.0 if p in win else 0.0 for p in range(self.config.players)]

    def discs(self) -> list[tuple[int, int]]:
        """``(white, black)`` discs per player."""
        return list(zip(self.white, self.black))

    def to_json(self) -> dict[str, Any]:
        """The game as JSON: config, first thrower and the action log."""
        return {
            "game": "wuerfelblitz",
            "config": self.config.to_json(),
            "first_thrower": self.first_thrower,
            "actions": list(self.log),
        }


def new_game(spec: BlitzSpec, config: GameConfig, rng: np.random.Generator) -> BlitzState:
    """A fresh game whose first thrower is drawn by lot from ``rng``."""
    return BlitzState(spec, config, int(rng.integers(config.players)))


def replay(
    data: Any, spec: BlitzSpec | None = None, source: str = "<game>", *, where: str = ""
) -> BlitzState:
    """Rebuild a game from :meth:`BlitzState.to_json` output by applying its log again
    (``spec``: the dice, default the shipped ones; ``source``, ``where``: the file and the
    element holding ``data``, for the errors).

    Raises:
        SpecError: the JSON is malformed or an action in the log is not legal where it
            stands; the element is named (``game.actions[3].calls[1][2]``).
    """
    spec = spec if spec is not None else load_spec()
    top = DataTable(data, source, where)
    if top.raw("game", None) != "wuerfelblitz":
        raise top.error("game", "expected a Würfelblitz game ('game': 'wuerfelblitz')")
    top.check_keys({"game", "config", "actions", "first_thrower"})
    config = _config(top.table("config"))
    state = BlitzState(spec, config, top.integer("first_thrower", minimum=0, maximum=config.players - 1))
    for t in top.tables("actions", required=True):
        if t.has("throw"):
            t.check_keys({"throw"})
            throw = BlitzThrow.from_json(t.raw("throw"), source, t.where("throw"))
            try:
                state.apply_chance(throw)
            except RulesError as exc:
                raise t.error("throw", str(exc)) from None
        elif t.has("calls"):
            t.check_keys({"calls"})
            calls = [_call(t, i, c) for i, c in enumerate(t.array("calls", what="calls"))]
            try:
                state.apply_calls(calls)
            except RulesError as exc:
                raise t.error("calls", str(exc)) from None
        else:
            raise t.error(None, "expected {'throw': {...}} or {'calls': [[player, value, time], ...]}")
    return state


def _config(t: DataTable) -> GameConfig:
    """The :class:`GameConfig` written by its ``to_json``, read from ``t``."""
    t.check_keys({"players", "white_dice", "variant", "whites_per_black", "black_to_win", "tie_window_s"})
    players = t.integer("players", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    try:
        return GameConfig(
            players=players,
            white_dice=t.integer("white_dice", minimum=2, maximum=3),
            variant=t.boolean("variant"),
            whites_per_black=tuple(
                t.integers(
                    "whites_per_black",
                    minimum=1,
                    maximum=WHITES_PER_BLACK,
                    length=players,
                    what="numbers (one per player)",
                )
            ),
            black_to_win=t.integer("black_to_win", minimum=1, maximum=1000),
            tie_window_s=t.number("tie_window_s", minimum=0, maximum=60),
        )
    except RulesError as exc:
        raise t.error(None, str(exc)) from None


def _call(t: DataTable, i: int, call: Any) -> Call:
    """Call ``i`` of the log entry ``t``: ``[player, value, time]``."""
    where = f"{t.item('calls', i)}"
    if not isinstance(call, list) or len(call) != 3:
        raise SpecError(t.source, where, f"expected [player, value, time], got {describe(call)}")
    return Call(
        check_integer(call[0], t.source, f"{where}[0]", minimum=0, maximum=MAX_PLAYERS - 1),
        check_integer(call[1], t.source, f"{where}[1]", minimum=0, maximum=1000),
        check_number(call[2], t.source, f"{where}[2]", minimum=0),
    )
