"""DoppelX under the game contract (:mod:`rules.contract`), checked like the siblings.

:class:`DoppelXState` is a :class:`rules.doppelx.game.DoppelXGame` in the OpenSpiel shape:

* **decisions** are the bets (D29): before an active player's throw every eligible passive
  player, in seat order, decides — an action is a card letter in play or :data:`NO_BET`;
* **chance** is the throw: :meth:`DoppelXState.apply_chance` takes the outcome of the
  requested throw (a :class:`rules.doppelx.outcome.ThrowOutcome`: every thrown and lying
  die) — from the physics tray in a match, or from :meth:`DoppelXState.sample_chance`,
  which draws one without physics (below) — and the game scores it;
* the **returns** are the players' chips (D5), in seat order.

House reading of a chance draw without physics (for the contract's checker and for tests,
never for a match): each thrown die falls into a hole with :data:`HOLE_CHANCE`, off the box
with :data:`OFF_CHANCE`, and otherwise lies flat at a uniformly drawn place of the
playfield, face drawn uniformly from its faces, turned at random — a place where it rests
apart from every other die, off the holes, the obstacles and the spinner
(:func:`rules.doppelx.placement.check_resting`; after :data:`PLACE_TRIES` refused draws
the die is off). Lying dice stay where they lie.

:func:`replay` rebuilds a state from :meth:`DoppelXState.to_json`, whose ``game`` member is
the game's save (``doppelx-game/1``, :mod:`rules.doppelx.game_state_io`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rules.common.errors import RulesError, SpecError
from rules.contract import CHANCE, TERMINAL
from rules.doppelx.board import BoardSide
from rules.doppelx.dice import DiceSet
from rules.doppelx.game import DoppelXGame, Phase
from rules.doppelx.game_state_io import game_from_dict, game_to_dict
from rules.doppelx.outcome import DieOutcome, Pose, Status, ThrowOutcome
from rules.doppelx.placement import check_resting

#: The action of a passive player who does not bet.
NO_BET = "-"
#: Chance without physics: a thrown die falls into a hole / off the box.
HOLE_CHANCE, OFF_CHANCE = 0.08, 0.02
#: Places drawn for one die before it is taken as off.
PLACE_TRIES = 40
#: ``to_json``'s format.
FORMAT = "doppelx-contract/1"


class DoppelXState:
    """A DoppelX game keeping :class:`rules.contract.GameState` (see the module docstring)."""

    def __init__(self, game: DoppelXGame, decided: tuple[str, ...] = ()):
        self.game = game
        #: Passive players who have decided on their bet before the coming throw.
        self.decided: list[str] = list(decided)

    # -- whose turn ---------------------------------------------------------------------
    def _bettor(self) -> str | None:
        return next((c for c in self.game.eligible_bettors() if c not in self.decided), None)

    def current_player(self) -> int:
        if self.game.is_terminal():
            return TERMINAL
        bettor = self._bettor()
        return CHANCE if bettor is None else self.game.seats.index(bettor)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.game.is_terminal()

    def legal_actions(self) -> list[str]:
        """At a bettor's decision: :data:`NO_BET` and the letters of the cards in play."""
        return [NO_BET, *self.game.cards] if self.current_player() >= 0 else []

    # -- moves --------------------------------------------------------------------------
    def apply_action(self, action: Any) -> None:
        """The deciding passive player bets on card ``action`` or passes (:data:`NO_BET`)."""
        bettor = self._bettor() if not self.game.is_terminal() else None
        if bettor is None:
            raise RulesError("no player decides now (the game waits for a throw, or is over)")
        if action not in self.legal_actions():
            raise RulesError(
                f"{bettor} can bet on {', '.join(self.game.cards)} or pass ({NO_BET!r}), not {action!r}"
            )
        if action != NO_BET:
            self.game.place_bet(bettor, action)
        self.decided.append(bettor)

    def sample_chance(self, rng: np.random.Generator) -> ThrowOutcome:
        """The requested throw's outcome drawn without physics (module docstring); not applied."""
        if not self.is_chance_node():
            raise RulesError("the game does not wait for a throw now")
        game = self.game
        req = game.request()
        poses: dict[str, Pose] = dict(req.lying)
        dice = []
        for owner in req.dice:
            pick = float(rng.random())
            if pick < HOLE_CHANCE:
                dice.append(DieOutcome(owner, Status.HOLE))
                continue
            pose = (
                None if pick < HOLE_CHANCE + OFF_CHANCE else _place(owner, poses, game.board, game.dice, rng)
            )
            if pose is None:
                dice.append(DieOutcome(owner, Status.OFF))
            else:
                poses[owner] = pose
                dice.append(DieOutcome(owner, Status.BOARD, pose))
        dice += [DieOutcome(o, Status.BOARD, p) for o, p in req.lying.items()]
        return ThrowOutcome(tuple(dice))

    def apply_chance(self, outcome: Any) -> None:
        """Score ``outcome`` of the requested throw (every thrown and lying die) and move on."""
        if not self.is_chance_node():
            raise RulesError("the game does not wait for a throw now")
        if not isinstance(outcome, ThrowOutcome):
            raise RulesError(f"a throw's outcome is a ThrowOutcome, not {type(outcome).__name__}")
        self.game.apply_throw(outcome)
        self.decided = []

    # -- results and record ---------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each player's chips, in seat order."""
        return [float(self.game.chips[c]) for c in self.game.seats]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": game_to_dict(self.game), "decided": list(self.decided)}


def _place(
    owner: str, poses: dict[str, Pose], board: BoardSide, dice: DiceSet, rng: np.random.Generator
) -> Pose | None:
    """A flat pose where die ``owner`` rests beside ``poses`` (``None`` after :data:`PLACE_TRIES`)."""
    die = dice[owner]
    x0, y0, x1, y1 = board.outline.bounds
    for _ in range(PLACE_TRIES):
        x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        top = die.faces[int(rng.integers(len(die.faces)))]
        pose = Pose.resting(die, x, y, float(rng.uniform(0.0, 2 * math.pi)), top)
        try:
            check_resting({**poses, owner: pose}, board, dice, "chance", {owner: owner})
        except SpecError:
            continue
        return pose
    return None


def replay(data: dict[str, Any], board: BoardSide | None = None, dice: DiceSet | None = None) -> DoppelXState:
    """The state written by :meth:`DoppelXState.to_json` (its board and dice loaded when not given)."""
    from rules.doppelx.board_file import load_board
    from rules.doppelx.dice import load_dice

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RulesError(f"not a {FORMAT} record")
    game_data = data["game"]
    board = board or load_board(game_data["board"])
    game = game_from_dict(game_data, board, dice or load_dice())
    decided = tuple(data.get("decided", ()))
    if game.phase is not Phase.TURN and decided:
        raise RulesError("bets are decided only before an active player's throw")
    return DoppelXState(game, decided)
