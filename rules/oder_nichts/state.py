"""The OpenSpiel-style state of a Doppelt oder nichts game, its action log and replay.

``State`` keeps the contract of :mod:`rules.contract`: it answers whose decision it is (a
player, :data:`~rules.contract.CHANCE` or :data:`~rules.contract.TERMINAL`), lists the
legal actions, applies an action after checking it (an illegal one raises
:class:`~rules.common.errors.RulesError` with the reason and changes nothing), samples chance
outcomes from a seeded generator (:meth:`State.sample_chance`) or accepts them from outside
(:meth:`State.apply_chance`), and keeps a log from which :func:`replay` (from
:meth:`State.to_json`) or :func:`replay_log` rebuilds the identical game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.common import schema
from rules.common.errors import RulesError
from rules.contract import CHANCE, TERMINAL
from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.cards import DeckSpec, load_deck
from rules.oder_nichts.flow import Flow, RoundResult
from rules.oder_nichts.table import Table
from rules.oder_nichts.table_ops import Event

MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True)
class GameConfig:
    """How a game is set up.

    Attributes:
        players: number of players (2..8).
        target_points: minus points that end the game (``None``: the deck file's 500).
        max_rounds: end after this many rounds instead (``None``: no limit).
        first_game: play with the rulebook's reduced card set for first games
            (:meth:`~rules.oder_nichts.cards.DeckSpec.first_game`).
    """

    players: int = 4
    target_points: int | None = None
    max_rounds: int | None = None
    first_game: bool = False

    def check(self) -> None:
        """Raise :class:`RulesError` for a set-up the rules do not allow."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(
                f"Doppelt oder nichts is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}"
            )
        if self.target_points is not None and self.target_points < 1:
            raise RulesError(f"the points that end the game must be at least 1, not {self.target_points}")
        if self.max_rounds is not None and self.max_rounds < 1:
            raise RulesError(f"the number of rounds must be at least 1, not {self.max_rounds}")

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target_points": self.target_points,
            "max_rounds": self.max_rounds,
            "first_game": self.first_game,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameConfig:
        return GameConfig.from_table(schema.DataTable(data, "config"))

    @staticmethod
    def from_table(t: schema.DataTable) -> GameConfig:
        """The set-up written by :meth:`to_json`, read from ``t`` (a :class:`SpecError` names the field)."""
        t.check_keys({"players", "target_points", "max_rounds", "first_game"})
        return GameConfig(
            t.integer("players", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
            t.optional_integer("target_points", minimum=1, maximum=100_000),
            t.optional_integer("max_rounds", minimum=1, maximum=100_000),
            t.boolean("first_game", False),
        )


@dataclass(frozen=True)
class PlayerView:
    """What one player may know: their own hand and everything public.

    Attributes mirror :class:`~rules.oder_nichts.table.Table`; ``hand`` is the own hand,
    ``hand_sizes`` the sizes of all hands, ``attack`` a plain copy of the attack (or None).
    """

    player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    top: int | None
    allowed: tuple[str, ...]
    direction: int
    seats: tuple[int, ...]
    minus: tuple[int, ...]
    draw_count: int
    discard: tuple[int, ...]
    attack: dict[str, Any] | None
    named: tuple[int | str, ...]
    skips: tuple[int, ...]
    away: tuple[int, ...]
    round_no: int


class State:
    """A game in progress. Use :func:`new_game` or :func:`replay` to make one."""

    def __init__(self, config: GameConfig, spec: DeckSpec | None = None):
        config.check()
        self.config = config
        self.deck = spec if spec is not None else load_deck()
        self.spec = self.deck.first_game() if config.first_game else self.deck
        target = config.target_points if config.target_points is not None else self.spec.target_points
        self.table = Table.new(self.spec, config.players)
        self.table.draw_pile = list(range(len(self.spec.cards)))
        self.flow = Flow(self.table, target, config.max_rounds)
        self.log: list[Action] = []
        self._gen = self.flow.game()
        self._pending: Decision | ChanceRequest | None = next(self._gen)

    # ---- whose decision ----------------------------------------------------------------
    @property
    def pending(self) -> Decision | ChanceRequest | None:
        """The open decision or chance request; ``None`` when the game is over."""
        return self._pending

    def current_player(self) -> int:
        """The deciding player, :data:`~rules.contract.CHANCE`, or :data:`~rules.contract.TERMINAL`."""
        if self._pending is None:
            return TERMINAL
        if isinstance(self._pending, ChanceRequest):
            return CHANCE
        return self._pending.player

    def is_terminal(self) -> bool:
        return self._pending is None

    def is_chance_node(self) -> bool:
        return isinstance(self._pending, ChanceRequest)

    def legal_actions(self) -> list[Action]:
        """Legal actions of the deciding player (empty at chance nodes and at the end)."""
        if isinstance(self._pending, Decision):
            return list(self._pending.legal)
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        """Outcomes with probabilities where they are few (tasks); ``None`` for shuffles/picks."""
        if not isinstance(self._pending, ChanceRequest):
            raise RulesError("this is not a chance node")
        return self._pending.outcomes()

    def sample_chance(self, rng: np.random.Generator) -> Action:
        """A chance outcome drawn from ``rng`` (not applied)."""
        if not isinstance(self._pending, ChanceRequest):
            raise RulesError("this is not a chance node")
        return self._pending.sample(rng)

    # ---- acting ------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Check ``action`` against the open decision or chance request, then carry it out."""
        if self._pending is None:
            raise RulesError("the game is over")
        self._pending.check(action)
        self.log.append(action)
        try:
            self._pending = self._gen.send(action)
        except StopIteration:
            self._pending = None

    def apply_chance(self, outcome: Action) -> None:
        """Check a chance outcome (drawn by :meth:`sample_chance` or chosen outside) and apply it."""
        if not isinstance(self._pending, ChanceRequest):
            raise RulesError("this is not a chance node" if self._pending is not None else "the game is over")
        self.apply_action(outcome)

    def to_json(self) -> dict[str, Any]:
        """The game as data: its set-up and the action log (see :func:`replay`)."""
        return {
            "game": "oder_nichts",
            "config": self.config.to_json(),
            "log": [a.to_json() for a in self.log],
        }

    # ---- results -----------------------------------------------------------------------
    @property
    def minus(self) -> list[int]:
        """Minus points of every player so far."""
        return list(self.table.minus)

    def returns(self) -> list[float]:
        """Minus points as negative returns (higher is better)."""
        return [-float(m) for m in self.table.minus]

    def winners(self) -> list[int]:
        """Players with the fewest minus points (at the end: the winners; ties share)."""
        low = min(self.table.minus)
        return [p for p, m in enumerate(self.table.minus) if m == low]

    @property
    def rounds(self) -> list[RoundResult]:
        return list(self.flow.results)

    @property
    def events(self) -> list[Event]:
        return self.flow.events

    def attack_text(self) -> str:
        """The attack in progress in words ("" if none)."""
        att = self.table.attack
        return self.flow.describe(att) if att is not None else ""

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see."""
        t = self.table
        return PlayerView(
            player=player,
            hand=tuple(sorted(t.hands[player])),
            hand_sizes=tuple(len(h) for h in t.hands),
            top=t.discard[-1] if t.discard else None,
            allowed=t.allowed,
            direction=t.direction,
            seats=tuple(t.seats),
            minus=tuple(t.minus),
            draw_count=len(t.draw_pile),
            discard=tuple(t.discard),
            attack=t.attack.to_json() if t.attack is not None else None,
            named=tuple(t.named),
            skips=tuple(t.skips),
            away=tuple(t.away),
            round_no=t.round_no,
        )

    def clone(self) -> State:
        """An independent copy (rebuilt from the log)."""
        return replay_log(self.config, self.log, self.deck)


def new_game(config: GameConfig | None = None, spec: DeckSpec | None = None) -> State:
    """A new game at its first chance node (the shuffle)."""
    return State(config if config is not None else GameConfig(), spec)


def replay(data: Any, spec: DeckSpec | None = None, *, source: str = "<game>") -> State:
    """Rebuild a game from :meth:`State.to_json` data.

    Raises:
        SpecError: the data is malformed or its log is not a legal game (the element is named).
    """
    top = schema.DataTable(data, source)
    if top.raw("game", None) != "oder_nichts":
        raise top.error("game", "expected a Doppelt oder nichts game ('game': 'oder_nichts')")
    top.check_keys({"game", "config", "log"})
    return replay_table(top, spec)


def replay_table(top: schema.DataTable, spec: DeckSpec | None = None) -> State:
    """Rebuild the game whose ``config`` and ``log`` the table ``top`` holds (a save file's top
    level, or :meth:`State.to_json` data); the caller checks the table's other keys.

    Raises:
        SpecError: naming the element: ``config.players``, ``log[3].kind``, or ``log[7]``
            with the reason its action is not legal there.
    """
    state = State(GameConfig.from_table(top.table("config")), spec)
    for t in top.tables("log", required=True):
        action = Action.from_table(t)
        try:
            state.apply_action(action)
        except RulesError as exc:
            raise t.error(None, str(exc)) from None
    return state


def replay_log(config: GameConfig, log: list[Action], spec: DeckSpec | None = None) -> State:
    """Rebuild a game from its set-up and log; raises :class:`RulesError` if the log is not a legal game."""
    state = State(config, spec)
    for i, action in enumerate(log):
        try:
            state.apply_action(action)
        except RulesError as exc:
            raise RulesError(f"log entry {i}: {exc}") from None
    return state
