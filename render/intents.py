"""What a person's input means, handed to the match through one callback.

The window turns a flick into a :class:`ThrowIntent`, a click on a bet card into a
:class:`BetIntent` and keys into :class:`CommandIntent`; the match decides whether an
intent is allowed now. Vectors are in the board frame (m, m/s, rad/s).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

#: The four walls a player can stand at: south (near the default camera), east, north, west.
WALLS: tuple[str, ...] = ("S", "E", "N", "W")


@dataclass(frozen=True)
class ThrowIntent:
    """A throw from outside the box (D25).

    Attributes:
        wall: the wall the thrower stands at, one of :data:`WALLS`.
        along: where along that wall (m from its middle, + to the thrower's right).
        height: release height of the dice centres above the rim (m).
        release: release point (x, y, z) m; horizontally outside the rim's vertical plane.
        velocity: initial velocity (vx, vy, vz) m/s of the dice.
        spin: initial angular velocity (wx, wy, wz) rad/s; positive ``spin`` scalars of the
            aim become a forward roll about ``z × direction``.
        target: the playfield point (x, y) m the flick aims at (the match plans the arc
            that lands there, see :mod:`render.aim`); ``None``: no aim point (the intent of a
            caller that gives none), throw with ``velocity`` as it is — as the direct aim
            always does.
        power: the flick's power 0…1 (the throw's strength).
    """

    wall: str
    along: float
    height: float
    release: tuple[float, float, float]
    velocity: tuple[float, float, float]
    spin: tuple[float, float, float]
    target: tuple[float, float] | None = None
    power: float = 0.5

    @property
    def speed(self) -> float:
        """Length of ``velocity`` (m/s)."""
        return sum(v * v for v in self.velocity) ** 0.5


@dataclass(frozen=True)
class BetIntent:
    """Place the betting player's die on the bet card with ``letter`` (D29)."""

    letter: str


class Command(enum.StrEnum):
    """Keyboard commands for the match."""

    PASS = "pass"  # do not bet this time
    GO_ON = "go_on"  # end the hold on a bot's result: the game goes on now
    REPLAY = "replay"  # replay the last throw
    SAVE = "save"  # save the game
    LOAD = "load"  # load a saved game
    NEW_GAME = "new_game"  # start a new game
    HELP = "help"  # the help overlay was toggled
    QUIT = "quit"  # the window is closing


@dataclass(frozen=True)
class CommandIntent:
    """A key command (:class:`Command`)."""

    command: Command


Intent = ThrowIntent | BetIntent | CommandIntent
IntentHandler = Callable[[Intent], None]

__all__ = ["BetIntent", "Command", "CommandIntent", "Intent", "IntentHandler", "WALLS", "ThrowIntent"]
