"""A DoppelX match: the rules engine, the physics world and the players, throw by throw.

:class:`DoppelXMatch` is the loop every front end shares — the ``doppelx game`` command,
the desktop window and batch runs. It asks the game (:class:`rules.game.DoppelXGame`)
which throw comes next, lets the bots place their bets, builds the throw (a bot's aim
through the physics throw model, or a throw handed in from outside, e.g. a person's flick
made into a throw by :meth:`DoppelXMatch.hand_throw`; :meth:`DoppelXMatch.setup_throw` mixes
people's and bots' dice in the setup throw),
runs it to rest in the :class:`physics.world.World`, applies the outcome and keeps a log
of :class:`TurnRecord`. The spinner stays where it stopped: its angle is carried from
throw to throw. One seeded random stream drives all throws, so the same seed and players
give the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.board import BoardSide
from rules.dice import DiceSet, load_dice
from rules.errors import RulesError
from rules.game import DoppelXGame, GameOptions, ThrowRequest
from rules.rng import make_rng
from rules.scoring import ThrowScore

#: A game ends long before this many throws; the cap guards batch runs against a bug.
MAX_THROWS = 5000


@dataclass
class TurnRecord:
    """One throw of the match.

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
    throw: object
    result: object
    score: ThrowScore
    spinner_before: float = 0.0


@dataclass
class DoppelXMatch:
    """Rules + physics + players for one game.

    Args:
        game: the game state machine (players, board, cards, options).
        bots: a bot per colour that the match plays itself (:class:`doppelx.bots.DoppelXBot`);
            colours without a bot throw with :meth:`play_throw` ``(throw=...)`` and bet with
            :meth:`place_bet`.
        seed: the seed of the match's random stream (throw errors, tumbling).
        world: the physics world of ``game.board`` (made on first use if not given).
        record: keep replay trajectories of every throw.
    """

    game: DoppelXGame
    bots: Mapping[str, object] = field(default_factory=dict)
    seed: int = 0
    world: object | None = None
    record: bool = False
    log: list[TurnRecord] = field(default_factory=list)
    spinner_angle: float = 0.0

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
        from doppelx.bots import bots_for
        from physics.engine import make_world

        dice = dice or load_dice()
        colours = list(dice.player_colours[:players]) if isinstance(players, int) else list(players)
        game = DoppelXGame(colours, board, dice, cards=cards, options=options)
        world = make_world(board, dice=dice, spinner=spinner, engine=engine)
        return cls(game, bots_for(colours, skill, think), seed, world, record)

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
            self.world.close()  # type: ignore[attr-defined]

    def _world(self):
        if self.world is None:
            from physics.world import World

            self.world = World(self.game.board, dice=self.game.dice)  # type: ignore[assignment]
        return self.world

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
            if hasattr(bot.bet, "think"):  # a thinking bettor simulates the coming throw
                from doppelx.planner.table import table_of

                letter = bot.bet.think(table_of(self, self.request()), colour)  # type: ignore[attr-defined]
            else:
                after = len(game.on_board) + 2
                letter = bot.bet.choose(game.board, game.cards, game.dice[colour], after)  # type: ignore[attr-defined]
            if letter is not None:  # a policy may pass
                game.place_bet(colour, letter)
        return dict(game.bets)

    # -- throws -------------------------------------------------------------------------
    def bot_throw(self, request: ThrowRequest | None = None):
        """The throw the bots make for ``request`` (a setup throw: every player from their seat)."""
        from physics.throw_model import setup_throw

        req = request or self.request()
        game, box = self.game, self._world().box
        if req.kind == "setup":
            aims, skills = {}, {}
            for colour in req.dice:
                bot = self._bot(colour)
                aims[colour] = bot.throw.aim(game.board, game.dice[colour], box)
                skills[colour] = bot.throw.skill
            return setup_throw(box, req.dice, aims, skills, self.rng, game.dice[req.dice[0]].size)
        from physics.throw_model import aimed_throw

        assert req.thrower is not None
        bot = self._bot(req.thrower)
        if hasattr(bot.throw, "think"):  # a thinking bot plans the throw with rollouts
            from doppelx.planner.table import table_of

            aim = bot.throw.think(table_of(self, req))
        else:
            aim = bot.throw.aim(game.board, game.dice[req.thrower], box)
        return aimed_throw(box, aim, list(req.dice), bot.throw.skill, self.rng, game.dice[req.thrower].size)

    def hand_throw(
        self,
        owners: Sequence[str],
        release: Sequence[float],
        velocity: Sequence[float],
        spin: Sequence[float],
    ):
        """A person's throw (e.g. a flick in the window): the dice ``owners`` leave one hand.

        Args:
            owners: the dice thrown together.
            release: the hand's release point (3,) m, board frame.
            velocity: the dice's common initial velocity (3,) m/s.
            spin: their common angular velocity (3,) rad/s.

        Returns:
            The :class:`physics.throw.Throw` (each die turned at random from the match's stream).
        """
        from physics.throw import hand_throw

        return hand_throw(list(owners), release, velocity, spin, self.rng)

    def setup_throw(self, hands: Mapping[str, object] | None = None):
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
        from physics.throw import seat_places
        from physics.throw_model import Aim, aimed_throw

        game, box = self.game, self._world().box
        total = None
        for colour, (side, along) in zip(req.dice, seat_places(len(req.dice), box)):
            one = hands.get(colour)
            if one is None:
                bot = self._bot(colour)
                aim = bot.throw.aim(game.board, game.dice[colour], box)
                one = aimed_throw(
                    box,
                    Aim(aim.target, aim.strength, side, along),
                    [colour],
                    bot.throw.skill,
                    self.rng,
                    game.dice[colour].size,
                )
            elif tuple(one.owners) != (colour,):  # type: ignore[attr-defined]
                raise RulesError(f"{colour}'s hand must throw exactly the {colour} die")
            total = one if total is None else total + one
        return total

    def rerun(self, throw, lying: Mapping[str, object], spinner_angle: float):
        """Simulate an earlier throw again with its trajectory (a replay): it ends exactly as before,
        because the world is rebuilt from scratch for every throw. Returns the
        :class:`physics.run.ThrowResult`; the game is not touched."""
        from physics.run import run_throw

        return run_throw(self._world(), throw, dict(lying), spinner_angle, record=True)

    def _bot(self, colour: str):
        bot = self.bots.get(colour)
        if bot is None:
            raise RulesError(f"{colour} is not a bot: hand in their throw")
        return bot

    def play_throw(self, throw=None) -> TurnRecord:
        """Bets by the bots, then one throw (``throw`` or the bots' own) to rest, scored.

        Args:
            throw: release parameters for the requested dice; ``None`` lets the bots throw.
        """
        from physics.run import run_throw

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
        result = run_throw(self._world(), throw, req.lying, before, record=self.record)
        self.spinner_angle = result.spinner_angle
        score = self.game.apply_throw(result.outcome)
        record = TurnRecord(len(self.log) + 1, req, bets, throw, result, score, before)
        self.log.append(record)
        return record

    def play(self, max_throws: int = MAX_THROWS) -> dict:
        """Play (bots only) until the game ends; returns :meth:`rules.game.DoppelXGame.summary`.

        Raises:
            RulesError: the game did not end within ``max_throws`` throws.
        """
        while not self.finished:
            if len(self.log) >= max_throws:
                raise RulesError(f"the game did not end within {max_throws} throws")
            self.play_throw()
        return self.game.summary()


def turn_summary(rec: TurnRecord) -> dict:
    """A JSON-ready summary of one throw: dice, scoring per player, bets, physics figures."""
    score = rec.score
    dice = []
    for r in score.readings:
        dice.append(
            {
                "owner": r.owner,
                "status": r.status.value,
                "top": r.top,
                "field": None if r.field is None else r.field.value,
                "field_id": r.field_id,
                "cocked": r.cocked,
            }
        )
    players = {
        c: {"dice": p.dice, "bets": p.bets, "doppel_x": p.doppel_x, "after": p.after, "change": p.change}
        for c, p in score.players.items()
    }
    res = rec.result
    return {
        "number": rec.number,
        "kind": rec.request.kind,
        "thrower": rec.request.thrower,
        "thrown": list(rec.request.dice),
        "bets": rec.bets,
        "doppel_x": score.doppel_x,
        "rethrow": score.rethrow,
        "dice": dice,
        "players": players,
        "touched_spinner": [d.owner for d in res.outcome.dice if d.touched_spinner],  # type: ignore[attr-defined]
        "sim_time": round(res.sim_time, 4),
        "settled": res.settled,
    }  # type: ignore[attr-defined]
