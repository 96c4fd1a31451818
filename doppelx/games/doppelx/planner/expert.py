"""The ``expert`` skill: a bot that thinks its throws and bets through with physics.

:class:`ThinkingThrow` plans every turn and decider throw with :func:`doppelx.games.doppelx.planner.search.search`,
scoring rollouts by its chance of winning the game (:func:`doppelx.games.doppelx.planner.value.win_value`),
and throws the chosen aim with its real noise (the match does that, as for any bot). Its
hand is the ``hard`` skill's: the expert differs from the hard bot only in what it decides.
The setup throw, where everybody throws at once onto an empty board, uses the
field-aiming aim (:class:`doppelx.games.doppelx.bots.AimAtBestField`).

:class:`RolloutBet` predicts the active player's throw with that player's own policy and
skill (a thinking thrower is predicted by its field-aiming aim; a person by a medium
bot's), runs it :attr:`RolloutBet.rollouts` times in the planner's world from the real
table, and bets on the card with the highest mean pay-out over those rollouts (the thrown
dice's faces in expectation, :func:`doppelx.games.doppelx.planner.value.expected_card_payouts`).

Both are deterministic by seed: a decision's random streams come from the match seed and
the throw number (:meth:`doppelx.games.doppelx.planner.snapshot.TableSnapshot.rng`), never from the match's stream.
``progress`` (0…1) tells a window how far the current decision is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from doppelx.games.doppelx.bots import AimAtBestField, BestCardBet
from doppelx.games.doppelx.planner.rollout import rollout
from doppelx.games.doppelx.planner.search import Budget, SearchResult, search
from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from doppelx.games.doppelx.planner.value import expected_card_payouts, win_value
from physics.throw_model import SKILLS, Aim, Skill
from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec
from rules.doppelx.dice import DieSpec

#: The most rollouts a decision may spend by default; a decision usually ends after 22
#: (0.12–0.19 CPU s of one core here, docs/bots.md "Speed"), inside the window's 1 s.
DEFAULT_ROLLOUTS = 100
#: Time limit of a decision in the window (s).
WINDOW_SECONDS = 1.0


@dataclass(eq=False)
class ThinkingThrow:
    """Plan each throw by rollouts (see the module docstring)."""

    skill: Skill = SKILLS["hard"]
    budget: Budget = field(default_factory=Budget)
    strength: float = 0.1
    progress: float = 0.0
    last: SearchResult | None = None
    value: Callable[..., float] = win_value

    def aim(self, board: BoardSide, die: DieSpec, box: BoxSpec | None = None) -> Aim:
        """The aim without a table (the setup throw): the field-aiming bot's."""
        return AimAtBestField(self.skill, self.strength).aim(board, die, box)

    def think(self, table: TableSnapshot) -> Aim:
        """The planned aim for ``table``'s throw."""
        self.progress = 0.0
        start = self.aim(table.board, table.dice[table.thrower], table.box)
        self.last = search(table, self.skill, start, self.budget, self._report, self.value)
        return self.last.aim

    def _report(self, share: float) -> None:
        self.progress = share


@dataclass(eq=False)
class RolloutBet:
    """Bet on the card with the best mean pay-out over rollouts of the active player's throw."""

    rollouts: int = 24
    progress: float = 0.0

    def choose(self, board, cards, die, dice_on_board_after) -> str:
        """Without a table (no rollouts possible): the area-based guess of :class:`~doppelx.games.doppelx.bots.BestCardBet`."""
        return BestCardBet().choose(board, cards, die, dice_on_board_after)

    def think(self, table: TableSnapshot, bettor: str) -> str:
        """The letter ``bettor`` bets on before ``table``'s throw."""
        self.progress = 0.0
        policy = table.policies.get(table.thrower)
        skill, aim = predicted_aim(policy, table)
        totals: dict[str, float] = {letter: 0.0 for letter in table.cards}
        for j in range(self.rollouts):
            res = rollout(table, aim, skill, table.rng(2, table.seat(bettor), j))
            for letter, pay in expected_card_payouts(table, res.outcome, table.cards).items():
                totals[letter] += pay
            self.progress = (j + 1) / self.rollouts
        order = list(table.cards)
        return max(order, key=lambda letter: (totals[letter], -order.index(letter)))


def predicted_aim(policy, table: TableSnapshot) -> tuple[Skill, Aim]:
    """The skill and aim a bettor expects of the thrower with ``policy`` (``None``: a person)."""
    die = table.dice[table.thrower]
    if policy is None:
        policy = AimAtBestField(SKILLS["medium"])
    skill = getattr(policy, "skill", SKILLS["medium"])
    return skill, policy.aim(table.board, die, table.box)


def make_expert_bot(rollouts: int = DEFAULT_ROLLOUTS, seconds: float | None = None):
    """A :class:`doppelx.games.doppelx.bots.DoppelXBot` of skill ``expert`` with a budget of ``rollouts`` per throw."""
    from doppelx.games.doppelx.bots import DoppelXBot

    return DoppelXBot(ThinkingThrow(budget=Budget(rollouts, seconds)), RolloutBet(max(12, rollouts // 6)))
