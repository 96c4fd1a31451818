"""What a DoppelX bot is made of: its skill, the throw and bet policies, the bot, the thinking ones.

A leaf module of protocols only, so that the bots (:mod:`doppelx.games.doppelx.bots`), the
match (:mod:`doppelx.games.doppelx.match`), the throw service and the planner
(:mod:`doppelx.games.doppelx.planner`) can all name them without importing one another.

A *thinking* policy plans with rollouts in the physics world from a snapshot of the whole
table (:class:`doppelx.games.doppelx.planner.snapshot.TableSnapshot`): :class:`ThinkingThrowPolicy`
and :class:`ThinkingBetPolicy` add ``think`` to the plain policies, and :func:`thinking`
says whether a bot has one (a window runs such decisions off its frame loop).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from physics.throw_model import SKILLS

if TYPE_CHECKING:
    from doppelx.games.doppelx.planner.snapshot import TableSnapshot
    from physics.throw_model import Aim, Skill
    from rules.doppelx.bets import BetCard
    from rules.doppelx.board import BoardSide
    from rules.doppelx.box import BoxSpec
    from rules.doppelx.dice import DieSpec

#: The throwing skills, weakest first (:data:`physics.throw_model.SKILLS` holds each one's precision).
THROW_SKILLS: tuple[str, ...] = tuple(SKILLS)
#: The skill of the bot that plans with physics (it throws with the ``hard`` hand).
EXPERT = "expert"
#: Every bot skill by name, weakest first: the one list the commands, the window and the seats use.
BOT_SKILLS: tuple[str, ...] = (*THROW_SKILLS, EXPERT)


@runtime_checkable
class ThrowPolicy(Protocol):
    """Where a bot throws: an aim for a die on a board, and the thrower's skill."""

    @property
    def skill(self) -> Skill: ...

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim: ...


@runtime_checkable
class BetPolicy(Protocol):
    """Which card a passive bot bets on (``None``: no bet)."""

    def choose(
        self, board: BoardSide, cards: Mapping[str, BetCard], die: DieSpec, dice_on_board_after: int
    ) -> str | None: ...


@runtime_checkable
class ThinkingThrowPolicy(ThrowPolicy, Protocol):
    """A throw policy that plans the aim of a turn or decider throw from the whole table."""

    def think(self, table: TableSnapshot) -> Aim: ...


@runtime_checkable
class ThinkingBetPolicy(BetPolicy, Protocol):
    """A bet policy that chooses ``bettor``'s card from the whole table."""

    def think(self, table: TableSnapshot, bettor: str) -> str | None: ...


class Bot(Protocol):
    """A computer player: where it throws and how it bets (:class:`doppelx.games.doppelx.bots.DoppelXBot`)."""

    @property
    def throw(self) -> ThrowPolicy: ...

    @property
    def bet(self) -> BetPolicy: ...


def thinking(bot: Bot | None) -> bool:
    """The bot plans its throw or its bets with rollouts (``None``: a person, who does not)."""
    return bot is not None and (
        isinstance(bot.throw, ThinkingThrowPolicy) or isinstance(bot.bet, ThinkingBetPolicy)
    )
