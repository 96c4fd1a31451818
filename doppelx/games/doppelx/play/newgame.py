"""The settings of a new game and the match they make.

:class:`GameSetup` holds what the new-game dialog and the command line of ``doppelx play``
choose: the seats in order (name, die colour, person or bot with a skill), the playfield
side, the spinner, the 4 bet cards, the seed and the chips that end the game (the target:
the rulebook's 50 or 70, :func:`rulebook_target`, unless one is set). The editing methods
keep it playable (3–8 seats, colours of their own, 4 cards, a target the box can pay);
:meth:`GameSetup.check` names anything still wrong. :func:`start_match` builds the :class:`doppelx.games.doppelx.match.DoppelXMatch`
(recording trajectories for the window) and :func:`table_spec` what the window draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from doppelx.games.doppelx.policies import BOT_SKILLS
from rules.common.errors import RulesError
from rules.common.schema import DataTable
from rules.doppelx.chips import max_target, target_problem
from rules.doppelx.dice import DiceSet, load_dice
from rules.doppelx.game import MAX_PLAYERS, MIN_PLAYERS, rulebook_target

#: How a person's flick is aimed (``doppelx.games.doppelx.play.flick_throw``): forgiving first, the default.
AIMS: tuple[str, ...] = ("assisted", "direct")
#: Whether a person is asked to bet (with a countdown that passes) or passes unless they click a card.
BET_MODES: tuple[str, ...] = ("ask", "pass")
SIDES: tuple[str, ...] = ("I", "II", "III", "IV")
CARD_LETTERS = "ABCDEFGH"
#: Longest name the scoreboard shows in full.
MAX_NAME = 14
#: The new-game form's − / + change the target to the next multiple of this many chips.
TARGET_STEP = 5


@dataclass(frozen=True)
class SeatSetup:
    """One seat: the player's name, their die colour, and a person or a bot of ``skill``.

    A person's ``aim`` (one of :data:`AIMS`) says how their flick becomes a throw and
    ``bets`` (one of :data:`BET_MODES`) whether they are asked to bet before another
    player's throw; a bot ignores both.
    """

    name: str
    colour: str
    human: bool = False
    skill: str = "medium"
    aim: str = "assisted"
    bets: str = "ask"


def default_name(colour: str, human: bool, seats: Sequence[SeatSetup] = ()) -> str:
    """The name a new seat gets: ``"Player k"`` with the lowest k no seat of ``seats`` is named, the colour for a bot."""
    if human:  # the lowest number no other seat's name has
        used = {s.name for s in seats}
        k = 1
        while f"Player {k}" in used:
            k += 1
        return f"Player {k}"
    return colour.title()


@dataclass
class GameSetup:
    """Everything a new game needs (see the module docstring).

    Attributes:
        seats: in seat order (clockwise; seat 0 throws first after the setup throw).
        board: built-in side ``I``–``IV`` or a board file.
        cards: the 4 bet card letters in play.
        spinner: put the spinner on (sides with a mount only).
        seed: the match's random seed.
        target: chips that end the game; ``None`` = the rules' 50 or 70.
    """

    seats: list[SeatSetup]
    board: str = "I"
    cards: list[str] = field(default_factory=lambda: ["A", "B", "C", "D"])
    spinner: bool = True
    seed: int = 0
    target: int | None = None

    @classmethod
    def standard(
        cls,
        players: int = 4,
        humans: int = 1,
        skill: str = "medium",
        *,
        board: str = "I",
        cards: Sequence[str] = ("A", "B", "C", "D"),
        spinner: bool = True,
        seed: int = 0,
        target: int | None = None,
        names: Sequence[str] = (),
        colours: Sequence[str] = (),
        dice: DiceSet | None = None,
        skills: Sequence[str] = (),
    ) -> GameSetup:
        """``players`` seats, the first ``humans`` of them people, the rest bots of ``skill``.

        ``names``/``colours`` override the first seats' defaults (the dice file's colour order);
        ``skills`` gives every seat its own skill (one per seat; a person's seat keeps it for
        when it is switched to a bot).
        """
        dice = dice or load_dice()
        if not 0 <= humans <= players:
            raise RulesError(f"--humans must be 0–{players} for {players} players, got {humans}")
        if skills and len(skills) != players:
            raise RulesError(f"--skills names {len(skills)} skills for {players} players")
        if len(names) > players or len(colours) > players:
            raise RulesError(f"more names or colours than the {players} players")
        unknown = [c for c in colours if c not in dice.player_colours]
        if unknown:
            raise RulesError(f"no die of colour {unknown[0]!r}; colours are {', '.join(dice.player_colours)}")
        free = [c for c in dice.player_colours if c not in colours]
        palette = list(colours) + free[: players - len(colours)]
        seats: list[SeatSetup] = []
        for i in range(players):
            human = i < humans
            name = names[i] if i < len(names) else default_name(palette[i], human, seats)
            seats.append(SeatSetup(name, palette[i], human, skills[i] if skills else skill))
        setup = cls(seats, board, list(cards), spinner, seed, target)
        setup.check(dice)
        return setup

    # -- checks -----------------------------------------------------------------------------
    def check(self, dice: DiceSet | None = None) -> None:
        """Raise :class:`RulesError` naming the first thing that makes this no game."""
        dice = dice or load_dice()
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise RulesError(f"DoppelX is for {MIN_PLAYERS}–{MAX_PLAYERS} players, got {len(self.seats)}")
        colours = [s.colour for s in self.seats]
        if len(set(colours)) != len(colours):
            raise RulesError("each player needs a colour of their own")
        for s in self.seats:
            if s.colour not in dice.player_colours:
                raise RulesError(f"no die of colour {s.colour!r}")
            if not s.name.strip():
                raise RulesError(f"the {s.colour} player needs a name")
            if len(s.name) > MAX_NAME:
                raise RulesError(f"name {s.name!r} is longer than {MAX_NAME} characters")
            if s.skill not in BOT_SKILLS:
                raise RulesError(f"skill must be one of {', '.join(BOT_SKILLS)}, got {s.skill!r}")
        names = [s.name.strip().lower() for s in self.seats]
        if len(set(names)) != len(names):
            raise RulesError("two players have the same name")
        if (
            len(self.cards) != 4
            or len(set(self.cards)) != 4
            or any(c not in CARD_LETTERS for c in self.cards)
        ):
            raise RulesError("choose 4 different bet cards out of A–H")
        problem = None if self.target is None else target_problem(self.target, len(self.seats))
        if problem:
            raise RulesError(problem)

    @property
    def humans(self) -> list[str]:
        """Colours of the seats people play."""
        return [s.colour for s in self.seats if s.human]

    def seat(self, colour: str) -> SeatSetup:
        for s in self.seats:
            if s.colour == colour:
                return s
        raise KeyError(colour)

    def names(self) -> dict[str, str]:
        return {s.colour: s.name.strip() for s in self.seats}

    @property
    def game_target(self) -> int:
        """The chips that end the game: :attr:`target`, or the rulebook's for these many seats."""
        return self.target if self.target is not None else rulebook_target(len(self.seats))

    # -- editing (the dialog) -------------------------------------------------------------
    def resize(self, players: int, dice: DiceSet | None = None) -> None:
        """Add bot seats in unused colours, or drop seats from the end, to have ``players``
        (a target set above what the box can pay for them comes down to that most)."""
        dice = dice or load_dice()
        players = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
        del self.seats[players:]
        while len(self.seats) < players:
            used = {s.colour for s in self.seats}
            colour = next(c for c in dice.player_colours if c not in used)
            skill = self.seats[-1].skill if self.seats else "medium"
            self.seats.append(SeatSetup(default_name(colour, False), colour, False, skill))
        if self.target is not None:
            self._set_target(min(self.target, max_target(players)))

    def step_target(self, direction: int) -> None:
        """The target one step up (``direction`` > 0) or down: to the next multiple of
        :data:`TARGET_STEP`, within 1 and :func:`rules.doppelx.chips.max_target`. The rulebook's mark
        for the seats is kept as ``None`` (it follows a change in the number of players)."""
        t, top = self.game_target, max_target(len(self.seats))
        if direction > 0:
            t = (t // TARGET_STEP + 1) * TARGET_STEP
        else:
            t = (t - 1) // TARGET_STEP * TARGET_STEP
        self._set_target(max(1, min(top, t)))

    def _set_target(self, target: int) -> None:
        self.target = None if target == rulebook_target(len(self.seats)) else target

    def next_colour(self, i: int, dice: DiceSet | None = None) -> None:
        """Give seat ``i`` the next colour (in the dice file's order) nobody else has."""
        dice = dice or load_dice()
        palette = list(dice.player_colours)
        used = {s.colour for j, s in enumerate(self.seats) if j != i}
        s = self.seats[i]
        k = palette.index(s.colour)
        for step in range(1, len(palette) + 1):
            c = palette[(k + step) % len(palette)]
            if c not in used:
                renamed = default_name(c, False) if s.name == default_name(s.colour, False) else s.name
                self.seats[i] = replace(s, colour=c, name=renamed)
                return

    def toggle_human(self, i: int) -> None:
        """Seat ``i`` switches between a person and a bot (a default name follows)."""
        s = self.seats[i]
        others = self.seats[:i] + self.seats[i + 1 :]
        name = s.name
        if s.human and name.startswith("Player "):
            name = default_name(s.colour, False)
        elif not s.human and name == default_name(s.colour, False):
            name = default_name(s.colour, True, others)
        self.seats[i] = replace(s, human=not s.human, name=name)

    def next_skill(self, i: int) -> None:
        """Seat ``i``'s bot gets the next skill level (easy → medium → hard → expert → easy)."""
        s = self.seats[i]
        self.seats[i] = replace(s, skill=BOT_SKILLS[(BOT_SKILLS.index(s.skill) + 1) % len(BOT_SKILLS)])

    def next_aim(self, i: int) -> None:
        """Seat ``i``'s person switches between an assisted and a direct flick."""
        s = self.seats[i]
        self.seats[i] = replace(s, aim=AIMS[(AIMS.index(s.aim) + 1) % len(AIMS)])

    def next_bets(self, i: int) -> None:
        """Seat ``i``'s person switches between being asked to bet and passing unless they click a card."""
        s = self.seats[i]
        self.seats[i] = replace(s, bets=BET_MODES[(BET_MODES.index(s.bets) + 1) % len(BET_MODES)])

    def rename(self, i: int, name: str) -> None:
        self.seats[i] = replace(self.seats[i], name=name[:MAX_NAME])

    def toggle_card(self, letter: str) -> None:
        """Take card ``letter`` out of play, or into play if fewer than 4 are chosen."""
        if letter in self.cards:
            self.cards.remove(letter)
        elif len(self.cards) < 4:
            self.cards.append(letter)
            self.cards.sort(key=CARD_LETTERS.index)

    def copy(self) -> GameSetup:
        return replace(self, seats=list(self.seats), cards=list(self.cards))

    # -- files ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": [
                {
                    "name": s.name,
                    "colour": s.colour,
                    "human": s.human,
                    "skill": s.skill,
                    "aim": s.aim,
                    "bets": s.bets,
                }
                for s in self.seats
            ],
            "board": self.board,
            "cards": list(self.cards),
            "spinner": self.spinner,
            "seed": self.seed,
            "target": self.target,
        }

    @classmethod
    def from_dict(cls, data: Any, source: str = "setup", dice: DiceSet | None = None) -> GameSetup:
        """Read :meth:`to_dict` data strictly (:class:`SpecError` names the element)."""
        t = DataTable(data, source, "setup")
        t.check_keys({"seats", "board", "cards", "spinner", "seed", "target"})
        seats = []
        for s in t.tables("seats", required=True):
            s.check_keys(
                {"name", "colour", "human", "skill", "aim", "bets"}
            )  # aim, bets: optional (older saves)
            seats.append(
                SeatSetup(
                    s.string("name"),
                    s.string("colour"),
                    s.boolean("human"),
                    s.string("skill", choices=BOT_SKILLS),
                    s.string("aim", "assisted", choices=AIMS),
                    s.string("bets", "ask", choices=BET_MODES),
                )
            )
        cards = t.raw("cards")
        if not isinstance(cards, list):
            raise t.error("cards", "expected a list of 4 card letters")
        target = t.raw("target", None)
        setup = cls(
            seats,
            t.string("board"),
            [str(c) for c in cards],
            t.boolean("spinner"),
            t.integer("seed", minimum=0),
            None if target is None else t.integer("target", minimum=1),
        )
        try:
            setup.check(dice)
        except RulesError as exc:
            raise t.error(None, str(exc)) from None
        return setup


def start_match(setup: GameSetup, dice: DiceSet | None = None):
    """The :class:`doppelx.games.doppelx.match.DoppelXMatch` of ``setup`` (recording trajectories for the window).

    Raises:
        DoppelXError: the board cannot be loaded or the setup is no game.
    """
    from doppelx.games.doppelx.match import DoppelXMatch
    from physics.world import World
    from rules.doppelx.board_file import load_board
    from rules.doppelx.game import DoppelXGame, GameOptions

    dice = dice or load_dice()
    setup.check(dice)
    board = load_board(setup.board).with_spinner(setup.spinner)  # off: the rules see none either
    game = DoppelXGame(
        [s.colour for s in setup.seats],
        board,
        dice,
        cards=setup.cards,
        options=GameOptions(target=setup.target),
        names=setup.names(),
    )
    bots = {s.colour: _bot(s.skill) for s in setup.seats if not s.human}
    world = World(board, dice=dice, spinner=setup.spinner)
    return DoppelXMatch(game, bots, setup.seed, world, record=True)


def _bot(skill: str):
    """A seat's bot; an expert thinks within the window's time limit per decision."""
    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.policies import EXPERT

    if skill == EXPERT:
        from doppelx.games.doppelx.planner.expert import DEFAULT_ROLLOUTS, WINDOW_SECONDS, make_expert_bot

        return make_expert_bot(DEFAULT_ROLLOUTS, WINDOW_SECONDS)
    return make_bot(skill)


def table_spec(match, spinner: bool):
    """The :class:`render.snapshot.TableSpec` of a match's board, dice and cards."""
    from render.snapshot import TableSpec
    from rules.doppelx.box import load_box

    game = match.game
    box = match.world.box if match.world is not None else load_box()
    return TableSpec(game.board, box, game.dice, tuple(game.cards.values()), spinner)


__all__ = [
    "GameSetup",
    "BOT_SKILLS",
    "SIDES",
    "SeatSetup",
    "TARGET_STEP",
    "default_name",
    "start_match",
    "table_spec",
]
