"""What every engine's world of one board in the box builds alike: specs, materials, layout, zones.

:class:`TrayWorld` is the base of :class:`physics.world.World` (PyBullet) and
:class:`physics.mujoco_world.MujocoWorld` (MuJoCo): both read the same specs, hand the
engine its restitution inputs (:func:`physics.restitution_calibration.engine_materials`),
lay the tray out from the same :class:`~physics.geometry.Layout` and read statuses through
the same :class:`~physics.status.Zones`. Each engine builds its bodies from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Self, TypedDict

from physics.geometry import Layout, build_layout
from physics.materials import Materials, load_materials
from physics.restitution_calibration import engine_materials
from physics.settings import SimSettings
from physics.throw import DieRelease
from rules.doppelx.board import BoardSide
from rules.doppelx.box import BoxSpec, load_box
from rules.doppelx.dice import DiceSet, load_dice
from rules.doppelx.outcome import Pose

#: A die put into a world: owner, position (m), quaternion (x, y, z, w), velocity (m/s),
#: angular velocity (rad/s, board frame).
DieEntry = tuple[str, Sequence[float], Sequence[float], Sequence[float], Sequence[float]]


class TraySpecs(TypedDict, total=False):
    """What every engine's world is built from, besides the board (keywords of the worlds).

    Attributes:
        box, dice, materials, settings: specs (default: the shipped files, tuned settings).
        spinner: put the spinner on boards that have a mount (default True; optional on III/IV, D39).
    """

    box: BoxSpec | None
    dice: DiceSet | None
    materials: Materials | None
    settings: SimSettings | None
    spinner: bool


class TrayWorld:
    """The engine-neutral part of a world of ``board`` in the box.

    Args:
        board: the playfield side.
        box, dice, materials, settings, spinner: as :class:`TraySpecs`.
    """

    #: the engine's name (:data:`physics.engine.ENGINES`)
    engine: str

    def __init__(
        self,
        board: BoardSide,
        box: BoxSpec | None = None,
        dice: DiceSet | None = None,
        materials: Materials | None = None,
        settings: SimSettings | None = None,
        *,
        spinner: bool = True,
    ):
        board = board.with_spinner(spinner)  # the spinner left off: nothing sees it (D39)
        self.board = board
        self.box = box or load_box()
        self.dice = dice or load_dice()
        self.materials = materials or load_materials()
        self.settings = settings or SimSettings()
        #: the materials as handed to the engine: each restitution the input that realises it
        self.engine_materials = engine_materials(
            self.materials, self.engine, self.settings.restitution_calibration
        )
        self.layout: Layout = build_layout(
            board,
            self.box,
            hole_segments=self.settings.hole_segments,
            hole_margin=self.settings.hole_margin,
            spinner_density=self.materials.spinner_density,
            spinner=spinner,
        )
        from physics.status import Zones

        self.zones = Zones(self.box, self.layout, self.board.holes)
        self.spinner_id: int | None = None

    def reset(
        self,
        lying: Mapping[str, Pose] | None = None,
        spinner_angle: float = 0.0,
        releases: Sequence[DieRelease] = (),
    ) -> None:
        """Set the world up for a throw: the spinner, the ``lying`` dice and the thrown ones.

        Args:
            lying: dice lying from earlier throws, by owner, at their resting poses.
            spinner_angle: the spinner's angle about its pin (rad, 0 = a tip along +y).
            releases: dice leaving the hand now (pose and velocities at release).
        """
        lying = dict(lying or {})
        self._set_up(lying, spinner_angle, die_entries(lying, releases))

    def _set_up(self, lying: dict[str, Pose], spinner_angle: float, entries: list[DieEntry]) -> None:
        """:meth:`reset` in the engine: ``entries`` are :func:`die_entries` of the lying and thrown dice."""
        raise NotImplementedError

    def add_die(
        self,
        owner: str,
        position: Iterable[float],
        quaternion: Iterable[float],
        velocity: Iterable[float] = (0.0, 0.0, 0.0),
        angular_velocity: Iterable[float] = (0.0, 0.0, 0.0),
    ) -> int:
        """Put ``owner``'s die into the world at a pose with a velocity; returns the engine's id of it."""
        fields = ("owner", "position", "quaternion", "velocity", "angular_velocity")
        return self._add_die(
            DieRelease.from_dict(dict(zip(fields, (owner, position, quaternion, velocity, angular_velocity))))
        )

    def _add_die(self, release: DieRelease) -> int:
        """:meth:`add_die` in the engine."""
        raise NotImplementedError

    def close(self) -> None:
        """Free the engine's resources (the world is unusable afterwards)."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def die_entries(lying: Mapping[str, Pose], releases: Sequence[DieRelease]) -> list[DieEntry]:
    """The dice a reset puts into the world: the ``lying`` ones at rest, then the ``releases``."""
    still = (0.0, 0.0, 0.0)
    entries: list[DieEntry] = [(o, p.position, p.quaternion, still, still) for o, p in lying.items()]
    entries += [(r.owner, r.position, r.quaternion, r.velocity, r.angular_velocity) for r in releases]
    return entries
