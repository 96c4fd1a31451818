"""The flow of one throw, written once: aim → release → run to rest → read → score.

:class:`ThrowService` holds the physics world of one board and walks a throw down the
layers in order, each step once:

1. **aim** — a bot's throw policy picks where to throw (:meth:`ThrowService.aim`);
2. **release** — the aim through the physics throw model with the thrower's skill noise
   (:meth:`~ThrowService.release`), every seat's die in the setup throw
   (:meth:`~ThrowService.setup`), or a person's flick (:meth:`~ThrowService.hand`);
3. **run to rest** — :func:`physics.run.run_throw` in the service's world (rebuilt for the
   throw: the result depends only on its inputs);
4. **read** — every die read from above once (:func:`rules.doppelx.scoring.read_outcome`);
5. **score** — :func:`rules.doppelx.scoring.score_throw` with those readings, for a :class:`Seating`
   (:meth:`ThrowService.play`), or by a game, which scores the same readings through the same
   :func:`~rules.doppelx.scoring.score_throw` for its phase and moves on
   (:meth:`ThrowService.play_in`, what a match does).

``doppelx throw``, the match (:mod:`doppelx.games.doppelx.match`, and through it the desktop window) and
the batch items (:mod:`doppelx.batch.throw_items`, :mod:`doppelx.batch.game_items`) all
throw through it; :mod:`doppelx.games.doppelx.throw_report` writes what comes out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from rules.doppelx.scoring import ThrowScore, read_outcome, score_throw

if TYPE_CHECKING:
    import numpy as np

    from doppelx.games.doppelx.policies import ThrowPolicy
    from physics.engine import PhysicsWorld
    from physics.result import ThrowResult
    from physics.throw import Throw
    from physics.throw_model import Aim, Skill
    from physics.world import World
    from rules.doppelx.bets import BetCard
    from rules.doppelx.board import BoardSide
    from rules.doppelx.box import BoxSpec
    from rules.doppelx.dice import DiceSet
    from rules.doppelx.game import DoppelXGame, ThrowRequest
    from rules.doppelx.outcome import Pose, ThrowOutcome
    from rules.doppelx.reading import DieReading


@dataclass(frozen=True)
class Seating:
    """Who is at the table for scoring a throw (the arguments of :func:`rules.doppelx.scoring.score_throw`).

    Attributes:
        seats: player colours in seat order.
        active: the active player, or ``None`` for a setup throw.
        chips: each player's chips before the throw.
        bets: ``{colour: card letter}`` of passive players betting.
        cards: the bet cards in play by letter.
        lying_before: the poses of the dice that lay on the board before the throw (bet G).
    """

    seats: tuple[str, ...]
    active: str | None
    chips: Mapping[str, int]
    bets: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[str, BetCard] = field(default_factory=dict)
    lying_before: Mapping[str, Pose] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredThrow:
    """One throw through the service: what left the hand, what physics made of it, read and scored
    (no game context; a match logs each throw as a :class:`MatchLogEntry`)."""

    throw: Throw
    result: ThrowResult
    readings: tuple[DieReading, ...]
    score: ThrowScore


@dataclass
class MatchLogEntry:
    """One throw of the match's log: the request, bets, release, physics result, score and spinner
    (the rules' own log entry is :class:`rules.doppelx.game.GameLogEntry`, without physics).

    Attributes:
        number: 1-based throw number.
        request: what the game asked for (kind, thrower, dice, lying dice).
        bets: passive players' bets placed before the throw.
        throw: the release parameters (:class:`physics.throw.Throw`).
        result: the physics result (:class:`physics.run.ThrowResult`), with the trajectory
            when recording.
        score: the scoring by the rules engine.
        spinner_before: the spinner's angle before the throw (rad).
    """

    number: int
    request: ThrowRequest
    bets: dict[str, str]
    throw: Throw
    result: ThrowResult
    score: ThrowScore
    spinner_before: float = 0.0


class ThrowService:
    """The flow of one throw on the physics world of one board (see the module docstring)."""

    def __init__(self, world: PhysicsWorld):
        self.world = world

    @property
    def board(self) -> BoardSide:
        return self.world.board

    @property
    def dice(self) -> DiceSet:
        return self.world.dice

    @property
    def box(self) -> BoxSpec:
        return self.world.box

    # -- aim and release -----------------------------------------------------------------
    def aim(self, policy: ThrowPolicy, colour: str) -> Aim:
        """Where ``policy`` throws ``colour``'s die on this board."""
        return policy.aim(self.board, self.dice[colour], self.box)

    def release(
        self, aim: Aim, owners: Sequence[str], skill: Skill, rng: np.random.Generator, size: float
    ) -> Throw:
        """The dice ``owners`` thrown together at ``aim`` with ``skill``'s noise (dice of edge ``size`` m)."""
        from physics.throw_model import aimed_throw

        return aimed_throw(self.box, aim, list(owners), skill, rng, size)

    def setup(
        self,
        seats: Sequence[str],
        aims: Mapping[str, Aim],
        skills: Mapping[str, Skill],
        rng: np.random.Generator,
        size: float,
    ) -> Throw:
        """The setup throw: every seat's die from the seat's place around the box."""
        from physics.throw_model import setup_throw

        return setup_throw(self.box, seats, aims, skills, rng, size)

    def hand(
        self,
        owners: Sequence[str],
        release: Sequence[float],
        velocity: Sequence[float],
        spin: Sequence[float],
        rng: np.random.Generator,
    ) -> Throw:
        """A person's throw: the dice ``owners`` leave one hand at ``release`` (m) with ``velocity``, ``spin``."""
        from physics.throw import hand_throw

        return hand_throw(list(owners), release, velocity, spin, rng)

    def seat(self, seats: Sequence[str], colour: str) -> tuple[str, float]:
        """``(wall, along)``: where ``colour`` sits around the box among ``seats``."""
        from physics.throw import seat_places

        return seat_places(len(seats), self.box)[list(seats).index(colour)]

    # -- run, read, score ----------------------------------------------------------------
    def run(
        self,
        throw: Throw,
        lying: Mapping[str, Pose] | None = None,
        spinner_angle: float = 0.0,
        *,
        record: bool = False,
        watch: bool = True,
    ) -> ThrowResult:
        """Run ``throw`` onto the table with the ``lying`` dice until everything rests."""
        from physics.run import run_throw

        world = cast("World", self.world)  # either engine: run_throw hands a MuJoCo world on
        return run_throw(world, throw, dict(lying or {}), spinner_angle, record=record, watch=watch)

    def read(self, outcome: ThrowOutcome) -> tuple[DieReading, ...]:
        """Every die of ``outcome`` read from above (once per throw)."""
        return read_outcome(outcome, self.board, self.dice)

    def score(self, outcome: ThrowOutcome, readings: Sequence[DieReading], seating: Seating) -> ThrowScore:
        """The scoring of a read outcome for ``seating``."""
        return score_throw(
            outcome,
            self.board,
            self.dice,
            seats=seating.seats,
            active=seating.active,
            chips=seating.chips,
            bets=seating.bets,
            cards=seating.cards,
            lying_before=seating.lying_before,
            readings=readings,
        )

    def play(
        self,
        throw: Throw,
        lying: Mapping[str, Pose] | None,
        seating: Seating,
        *,
        spinner_angle: float = 0.0,
        record: bool = False,
        watch: bool = True,
    ) -> ScoredThrow:
        """Run to rest, read and score ``throw``."""
        result = self.run(throw, lying, spinner_angle, record=record, watch=watch)
        readings = self.read(result.outcome)
        return ScoredThrow(throw, result, readings, self.score(result.outcome, readings, seating))

    def play_in(
        self, game: DoppelXGame, throw: Throw, *, spinner_angle: float = 0.0, record: bool = False
    ) -> ScoredThrow:
        """Run ``throw`` to rest onto ``game``'s table, read it and let the game score it and
        move on (:meth:`rules.doppelx.game.DoppelXGame.apply_throw`)."""
        result = self.run(throw, game.request().lying, spinner_angle, record=record)
        readings = self.read(result.outcome)
        return ScoredThrow(throw, result, readings, game.apply_throw(result.outcome, readings))
