"""What a thinking bot sees before a throw: a frozen snapshot of the whole table.

:class:`TableSnapshot` holds everything a rollout needs to replay the coming throw in another
physics world — the board, dice and box, every lying die's pose, the spinner's angle, the
chips, the bets already placed on this throw, the cards, the seats and who throws — plus
the other seats' throw policies (a bettor predicts the active player's throw with them)
and the seed of the decision's own random stream. :func:`table_of` takes it from a
:class:`doppelx.games.doppelx.match.DoppelXMatch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from rules.doppelx.bets import BetCard
from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec
from rules.doppelx.dice import DiceSet
from rules.doppelx.outcome import Pose


@dataclass(frozen=True)
class TableSnapshot:
    """The table before one throw (see the module docstring).

    Attributes:
        board, dice, box: the specs.
        spinner: the world has a spinner (the board has a mount and it is in play).
        seats: player colours in seat order.
        kind: the request's kind (``turn`` or ``decider``).
        thrower: the active player; ``dice`` the dice thrown now.
        lying: dice lying on the board, by owner.
        spinner_angle: where the spinner points (rad).
        chips: every player's chips before the throw; ``target`` ends the game.
        bets: bets already on the cards for this throw; ``cards`` the cards in play.
        policies: each bot seat's throw policy (people have none).
        seed: the decision's seed sequence entropy (match seed, throw number).
        engine: the physics engine of the match (rollouts use the same).
    """

    board: BoardSide
    dice: DiceSet
    box: BoxSpec
    spinner: bool
    seats: tuple[str, ...]
    kind: str
    thrower: str
    thrown: tuple[str, ...]
    lying: Mapping[str, Pose]
    spinner_angle: float
    chips: Mapping[str, int]
    target: int
    bets: Mapping[str, str]
    cards: Mapping[str, BetCard]
    policies: Mapping[str, object]
    seed: tuple[int, ...]
    engine: str = "pybullet"

    def rng(self, *key: int) -> np.random.Generator:
        """A random stream of this decision, independent for every ``key``."""
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence(list(self.seed), spawn_key=key)))

    def seat(self, colour: str) -> int:
        return self.seats.index(colour)


def table_of(match, request) -> TableSnapshot:
    """The :class:`TableSnapshot` of ``match`` before the throw it waits for (``request``)."""

    game = match.game
    world = match.physics_world()
    return TableSnapshot(
        board=game.board,
        dice=game.dice,
        box=world.box,
        spinner=world.layout.spinner is not None,
        seats=tuple(game.seats),
        kind=request.kind,
        thrower=request.thrower,
        thrown=tuple(request.dice),
        lying=dict(request.lying),
        spinner_angle=float(match.spinner_angle),
        chips=dict(game.chips),
        target=int(game.target),
        bets=dict(game.bets),
        cards=dict(game.cards),
        policies={c: b.throw for c, b in match.bots.items()},
        seed=(int(match.seed), len(match.log)),
        engine=world.engine,
    )
