"""The physics engines behind one world interface, and the factory that picks one.

Two engines build the same tray from the same :class:`~physics.geometry.Layout`:
PyBullet (:class:`physics.world.World`, the default) and MuJoCo
(:class:`physics.mujoco_world.MujocoWorld`). Both satisfy :class:`PhysicsWorld`, and
:func:`physics.run.run_throw` runs a throw to rest in either, returning the same
:class:`~rules.doppelx.outcome.ThrowOutcome`, so scoring, batch rows and replays do not care
which engine produced it. ``--engine pybullet|mujoco`` on the commands goes through
:func:`make_world`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from rules.common.errors import DoppelXError

if TYPE_CHECKING:
    from physics.geometry import Layout
    from physics.materials import Materials
    from physics.settings import SimSettings
    from physics.status import Zones
    from rules.doppelx.board import BoardSide
    from rules.doppelx.box import BoxSpec
    from rules.doppelx.dice import DiceSet

#: Engine names, the default first.
ENGINES: tuple[str, ...] = ("pybullet", "mujoco")
DEFAULT_ENGINE = ENGINES[0]


class PhysicsWorld(Protocol):
    """What the run loop, the benches and the commands use of a world (both engines)."""

    # read-only members, so that a world's plain attributes of these types satisfy them
    @property
    def engine(self) -> str: ...
    @property
    def board(self) -> BoardSide: ...
    @property
    def box(self) -> BoxSpec: ...
    @property
    def dice(self) -> DiceSet: ...
    @property
    def materials(self) -> Materials: ...
    @property
    def settings(self) -> SimSettings: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def zones(self) -> Zones: ...

    def reset(
        self, lying: Mapping | None = None, spinner_angle: float = 0.0, releases: Sequence = ()
    ) -> None:
        """Set the world up for a throw: the tray, the lying and the released dice (results depend only on inputs)."""

    @property
    def time_step(self) -> float:
        """The engine's own physics step (s): what :meth:`step` advances."""
        ...

    def step(self) -> None:
        """Advance one physics step (:attr:`time_step`)."""

    def pose(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
        """Position (m) and quaternion ``(x, y, z, w)`` of a die."""

    def velocity(self, owner: str) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """Linear (m/s) and angular (rad/s) velocity of a die, board frame."""

    def contact_count(self) -> int:
        """Contact points the solver carries now: a measure of its load (``doppelx bench``)."""

    def spinner_angle(self) -> float:
        """The spinner's angle about its pin (rad)."""

    def spinner_speed(self) -> float:
        """The spinner's angular speed about its pin (rad/s)."""

    def set_spinner(self, angle: float, speed: float) -> None:
        """Turn the spinner to ``angle`` (rad) with angular speed ``speed`` (rad/s)."""

    def set_gravity(self, vector: Iterable[float]) -> None:
        """Gravity (3,) m/s² until the next reset."""

    def close(self) -> None:
        """Release the engine's resources."""

    def __enter__(self) -> PhysicsWorld: ...
    def __exit__(self, *exc: object) -> None: ...


class EngineError(DoppelXError):
    """An unknown engine name."""


def check_engine(name: str) -> str:
    """``name`` if it is an engine (:data:`ENGINES`), else :class:`EngineError`."""
    if name not in ENGINES:
        raise EngineError(f"unknown physics engine {name!r}; engines are {', '.join(ENGINES)}")
    return name


def make_world(
    board, box=None, dice=None, materials=None, settings=None, *, engine: str = DEFAULT_ENGINE, **kw
) -> PhysicsWorld:
    """A world of ``board`` in ``engine`` (``pybullet`` or ``mujoco``); other arguments as :class:`World`."""
    check_engine(engine)
    if engine == "mujoco":
        from physics.mujoco_world import MujocoWorld

        return MujocoWorld(board, box=box, dice=dice, materials=materials, settings=settings, **kw)
    from physics.world import World

    return World(board, box=box, dice=dice, materials=materials, settings=settings, **kw)
