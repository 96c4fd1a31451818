"""A DoppelX match: the rules engine, the physics world and the players, throw by throw.

:class:`DoppelXMatch` is the loop every front end shares — the ``doppelx game`` command,
the desktop window and batch runs. It asks the game (:class:`rules.doppelx.game.DoppelXGame`)
which throw comes next, lets the bots place their bets, builds the throw (a bot's aim
through the physics throw model, or a throw handed in from outside, e.g. a person's flick
made into a throw by :meth:`DoppelXMatch.hand_throw`; :meth:`DoppelXMatch.setup_throw` mixes
people's and bots' dice in the setup throw),
runs it to rest in the physics world (:mod:`physics.engine`: PyBullet or MuJoCo), applies the outcome and keeps a log
of :class:`MatchLogEntry`. Every step of a throw — aim, release, run to rest, read, score — goes
through :class:`doppelx.games.doppelx.throw_service.ThrowService`, the score by the game
(:meth:`~doppelx.games.doppelx.throw_service.ThrowService.play_in`). The spinner stays where it stopped: its angle is carried from
throw to throw. One seeded random stream drives all throws, so the same seed and players
give the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from doppelx.games.doppelx.policies import Bot, ThinkingBetPolicy, ThinkingThrowPolicy
from doppelx.games.doppelx.throw_service import MatchLogEntry, ThrowService
from rules.common.errors import RulesError
from rules.common.rng import make_rng
from rules.doppelx.board import BoardSide
from rules.doppelx.dice import DiceSet, load_dice
from rules.doppelx.game import DoppelXGame, GameOptions, ThrowRequest

if TYPE_CHECKING:
    from physics.engine import PhysicsWorld
    from physics.result import ThrowResult
    from physics.throw import Throw
    from rules.doppelx.outcome import Pose

#: A game ends long before this many throws; the cap guards batch runs against a bug.
MAX_THROWS = 5000


@dataclass
class DoppelXMatch:
    """Rules + physics + players for one game.

    Args:
        game: the game state machine (players, board, cards, options).
        bots: a bot per colour that the match plays itself (:class:`doppelx.games.doppelx.bots.DoppelXBot`);
            colours without a bot throw with :meth:`play_throw` ``(throw=...)`` and bet with
            :meth:`place_bet`.
        seed: the seed of the match's random stream (throw errors, tumbling).
        world: the physics world of ``game.board`` (made on first use if not given).
        record: keep replay trajectories of every throw.
    """

    game: DoppelXGame
    bots: Mapping[str, Bot] = field(default_factory=dict)
    seed: int = 0
    world: PhysicsWorld | None = None
    record: bool = False
    log: list[MatchLogEntry] = field(default_factory=list)
    spinner_angle: float = 0.0
    _service: ThrowService | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.rng = make_rng(self.seed)

    @classmethod
    def with_bots(
        cls,
        players: int | Sequence[str],
        board: BoardSide,
        seed: int,
        *,
        skill: str | Sequence[str] = "medium",
        think: int | None = None,
        cards: Sequence[str] = ("A", "B", "C", "D"),
        options: GameOptions | None = None,
        dice: DiceSet | None = None,
        spinner: bool = True,
        record: bool = False,
        engine: str = "pybullet",
    ) -> DoppelXMatch:
        """A match of bots only: ``players`` is a count (first colours of the dice file) or colours.

        ``skill`` is one skill for all seats or one per seat; ``think`` is an expert's rollouts per decision.
        """
        from doppelx.games.doppelx.bot_factory import make_bots
        from physics.engine import make_world

        dice = dice or load_dice()
        colours = list(dice.player_colours[:players]) if isinstance(players, int) else list(players)
        game = DoppelXGame(colours, board, dice, cards=cards, options=options)
        world = make_world(board, dice=dice, spinner=spinner, engine=engine)
        return cls(game, make_bots(colours, skill, think), seed, world, record)

    # -- state --------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.is_terminal()

    def request(self) -> ThrowRequest:
        """The throw the game waits for."""
        return self.game.request()

    def close(self) -> None:
        """Release the physics client."""
        if self.world is not None:
            self.world.close()

    def physics_world(self) -> PhysicsWorld:
        """The physics world of the match's board (made on first use)."""
        return self.service.world

    @property
    def service(self) -> ThrowService:
        """The throw service on the match's world (the world is made on first use)."""
        if self.world is None:
            from physics.engine import make_world

            self.world = make_world(self.game.board, dice=self.game.dice)
        if self._service is None or self._service.world is not self.world:
            self._service = ThrowService(self.world)
        return self._service

    # -- bets ---------------------------------------------------------------------------
    def place_bet(self, colour: str, letter: str) -> None:
        """A (human) passive player bets before the coming throw."""
        self.game.place_bet(colour, letter)

    def place_bot_bets(self) -> dict[str, str]:
        """Every eligible passive bot bets (D29); returns the bets now on the cards."""
        game = self.game
        for colour in game.eligible_bettors():
            bot = self.bots.get(colour)
            if bot is None or colour in game.bets:
                continue
            if isinstance(bot.bet, ThinkingBetPolicy):  # a thinking bettor simulates the coming throw
                from doppelx.games.doppelx.planner.snapshot import table_of

                letter = bot.bet.think(table_of(self, self.request()), colour)
            else:
                after = len(game.on_board) + 2
                letter = bot.bet.choose(game.board, game.cards, game.dice[colour], after)
            if letter is not None:  # a policy may pass
                game.place_bet(colour, letter)
        return dict(game.bets)

    # -- throws -------------------------------------------------------------------------
    def bot_throw(self, request: ThrowRequest | None = None) -> Throw:
        """The throw the bots make for ``request`` (a setup throw: every player from their seat)."""
        req = request or self.request()
        game, service = self.game, self.service
        if req.kind == "setup":
            aims, skills = {}, {}
            for colour in req.dice:
                bot = self._bot(colour)
                aims[colour] = service.aim(bot.throw, colour)
                skills[colour] = bot.throw.skill
            return service.setup(req.dice, aims, skills, self.rng, game.dice[req.dice[0]].size)
        assert req.thrower is not None
        bot = self._bot(req.thrower)
        if isinstance(bot.throw, ThinkingThrowPolicy):  # a thinking bot plans the throw with rollouts
            from doppelx.games.doppelx.planner.snapshot import table_of

            aim = bot.throw.think(table_of(self, req))
        else:
            aim = service.aim(bot.throw, req.thrower)
        return service.release(aim, req.dice, bot.throw.skill, self.rng, game.dice[req.thrower].size)

    def hand_throw(
        self,
        owners: Sequence[str],
        release: Sequence[float],
        velocity: Sequence[float],
        spin: Sequence[float],
    ) -> Throw:
        """A person's throw (e.g. a flick in the window): the dice ``owners`` leave one hand.

        Args:
            owners: the dice thrown together.
            release: the hand's release point (3,) m, board frame.
            velocity: the dice's common initial velocity (3,) m/s.
            spin: their common angular velocity (3,) rad/s.

        Returns:
            The :class:`physics.throw.Throw` (each die turned at random from the match's stream).
        """
        return self.service.hand(owners, release, velocity, spin, self.rng)

    def setup_throw(self, hands: Mapping[str, Throw] | None = None) -> Throw:
        """The setup throw (D22): the dice in ``hands`` as their people threw them, the others by their bots.

        Args:
            hands: a :class:`physics.throw.Throw` of one die by colour, for the players who
                throw themselves; every other player's bot throws from its seat. Without
                ``hands`` this is exactly :meth:`bot_throw` of the setup request.
        """
        req = self.request()
        if req.kind != "setup":
            raise RulesError(f"the setup throw is over (the game waits for a {req.kind} throw)")
        hands = dict(hands or {})
        if not hands:
            return self.bot_throw(req)
        unknown = set(hands) - set(req.dice)
        if unknown:
            raise RulesError(f"{sorted(unknown)[0]} is not a player of this game")
        from physics.throw_model import Aim

        game, service = self.game, self.service
        total: Throw | None = None
        for colour in req.dice:
            one = hands.get(colour)
            if one is None:
                bot = self._bot(colour)
                aim = service.aim(bot.throw, colour)
                wall, along = service.seat(req.dice, colour)
                one = service.release(
                    Aim(aim.target, aim.strength, wall, along),
                    [colour],
                    bot.throw.skill,
                    self.rng,
                    game.dice[colour].size,
                )
            elif tuple(one.owners) != (colour,):
                raise RulesError(f"{colour}'s hand must throw exactly the {colour} die")
            total = one if total is None else total + one
        assert total is not None
        return total

    def rerun(self, throw: Throw, lying: Mapping[str, Pose], spinner_angle: float) -> ThrowResult:
        """Simulate an earlier throw again with its trajectory (a replay): it ends exactly as before,
        because the world is rebuilt from scratch for every throw. Returns the
        :class:`physics.run.ThrowResult`; the game is not touched."""
        return self.service.run(throw, lying, spinner_angle, record=True)

    def _bot(self, colour: str) -> Bot:
        bot = self.bots.get(colour)
        if bot is None:
            raise RulesError(f"{colour} is not a bot: hand in their throw")
        return bot

    def play_throw(self, throw: Throw | None = None) -> MatchLogEntry:
        """Bets by the bots, then one throw (``throw`` or the bots' own) to rest, read once, scored.

        Args:
            throw: release parameters for the requested dice; ``None`` lets the bots throw.
        """
        if self.finished:
            raise RulesError("the game is over; no more throws")
        req = self.request()
        if req.kind == "turn":
            self.place_bot_bets()
        bets = dict(self.game.bets)
        if throw is None:
            throw = self.bot_throw(req)
        if sorted(throw.owners) != sorted(req.dice):
            raise RulesError(
                f"this throw needs the dice {', '.join(req.dice)}, got {', '.join(throw.owners)}"
            )
        before = self.spinner_angle
        turn = self.service.play_in(self.game, throw, spinner_angle=before, record=self.record)
        self.spinner_angle = turn.result.spinner_angle
        record = MatchLogEntry(len(self.log) + 1, req, bets, throw, turn.result, turn.score, before)
        self.log.append(record)
        return record

    def play(self, max_throws: int = MAX_THROWS) -> dict:
        """Play (bots only) until the game ends; returns :meth:`rules.doppelx.game.DoppelXGame.summary`.

        Raises:
            RulesError: the game did not end within ``max_throws`` throws.
        """
        while not self.finished:
            if len(self.log) >= max_throws:
                raise RulesError(
                    f"the game did not end within {max_throws} throw{'' if max_throws == 1 else 's'}"
                )
            self.play_throw()
        return self.game.summary()
