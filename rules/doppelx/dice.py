"""Dice specs (D4): size, rounded edges, mass and the face on each die axis.

A die's faces are labelled ``"1"``, ``"2"``, ``"3"`` or ``"X"`` and attached to the six
axis directions of the die's own frame, in the order of :data:`AXES`. Lengths in metres,
mass in kilograms. Loaded from ``assets/dice.toml`` or a file of the same format.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable

FORMAT = "doppelx-dice/1"
WHITE = "white"
#: Die-frame axis names, in the order of :data:`AXIS_VECTORS`.
AXES: tuple[str, ...] = ("+x", "-x", "+y", "-y", "+z", "-z")
#: Unit outward normals of the six faces in the die frame, shape (6, 3).
AXIS_VECTORS = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=float)
FACE_LABELS = ("1", "2", "3", "X")
#: Smallest die edge (mm): the smallest dice sold are 5 mm; smaller ones are beads, hardly
#: wider than a 3 mm white line, and easy prey for tunnelling through walls at 240 Hz.
MIN_SIZE_MM = 5.0
#: Largest rounding of the edges, as a share of the edge: beyond a quarter the flat part of a
#: face is less than half the edge and the die rolls like a ball rather than coming to rest on
#: a face.
MAX_EDGE_RADIUS_SHARE = 0.25
#: Lightest and heaviest die material (g/cm³): foam or balsa (0.2) to tungsten (19.3); the
#: shipped acrylic die is 1.1. Bounds the mass by the size: a 16 mm die weighs 0.8 to 82 g.
MIN_DENSITY, MAX_DENSITY = 0.2, 20.0
#: Characters that may not appear in an owner: the command line names dice in comma lists
#: (``--dice blue,white``) and as ``OWNER=`` (``--faces blue=1,1,2,2,3,X``).
OWNER_SEPARATORS = ",="


@dataclass(frozen=True)
class DieSpec:
    """One die.

    Attributes:
        owner: the player colour, or ``"white"`` for the neutral die.
        colour, pips: hex colours for drawing.
        size: edge length (m); edge_radius: rounding radius (m); mass: kg.
        faces: face label per axis, in :data:`AXES` order.
    """

    owner: str
    colour: str
    pips: str
    size: float
    edge_radius: float
    mass: float
    faces: tuple[str, ...]

    @property
    def half(self) -> float:
        """Half the edge length (m)."""
        return self.size / 2

    def axis_of(self, face: str) -> int:
        """Index (into :data:`AXES`) of the first axis showing ``face``."""
        try:
            return self.faces.index(face)
        except ValueError:
            raise SpecError(
                self.owner, "faces", f"die has no face {face!r} (faces: {', '.join(self.faces)})"
            ) from None

    @property
    def inertia(self) -> float:
        """Principal moment of inertia (kg m²) of a uniform cube of this size."""
        return self.mass * self.size**2 / 6


@dataclass(frozen=True)
class DiceSet:
    """The nine dice by owner, and the tilt beyond which a resting die is cocked (rad)."""

    dice: dict[str, DieSpec]
    cocked_angle: float
    source: str

    @property
    def player_colours(self) -> tuple[str, ...]:
        """The eight player colours, in file order (white excluded)."""
        return tuple(o for o in self.dice if o != WHITE)

    def __getitem__(self, owner: str) -> DieSpec:
        try:
            return self.dice[owner]
        except KeyError:
            raise SpecError(
                self.source, "dice", f"no die for owner {owner!r}; owners are {', '.join(self.dice)}"
            ) from None


def load_dice(path: str | Path | None = None) -> DiceSet:
    """Load the dice file (default: the shipped ``assets/dice.toml``), cached per path."""
    return _load(str(path if path is not None else asset_path("dice.toml")))


@functools.lru_cache(maxsize=16)
def _load(path: str) -> DiceSet:
    return parse_dice(read_toml(path), path)


def parse_dice(data: dict, source: str) -> DiceSet:
    """Build a :class:`DiceSet` from a parsed dice file (mm, g → m, kg), validating it."""
    top = DataTable(data, source)
    top.check_keys(
        {"format", "units", "size", "edge_radius", "mass_g", "cocked_angle_deg", "default_faces", "dice"}
    )
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    top.string("units", "mm", choices=("mm",))
    size = _size(top)
    radius = top.number("edge_radius", minimum=0.0)
    if radius > MAX_EDGE_RADIUS_SHARE * size:
        raise top.error(
            "edge_radius",
            f"{radius:g} mm rounds a {size:g} mm die into a ball; at most a quarter of the size "
            f"({MAX_EDGE_RADIUS_SHARE * size:g} mm)",
        )
    mass = top.number("mass_g", positive=True)
    volume_cm3 = (size / 10) ** 3
    lightest, heaviest = MIN_DENSITY * volume_cm3, MAX_DENSITY * volume_cm3
    if not lightest <= mass <= heaviest:
        raise top.error(
            "mass_g",
            f"{mass:g} g for a {size:g} mm die is a density of {mass / volume_cm3:.3g} g/cm³; "
            f"give {lightest:.3g} to {heaviest:.3g} g ({MIN_DENSITY:g} to {MAX_DENSITY:g} g/cm³, "
            f"foam to tungsten)",
        )
    cocked = top.number("cocked_angle_deg", minimum=0.0, maximum=90.0)
    default_faces = _faces(top.table("default_faces"))
    dice: dict[str, DieSpec] = {}
    for t in top.tables("dice", required=True):
        t.check_keys({"owner", "colour", "pips", "faces"})
        owner = _owner(t)
        if owner in dice:
            raise t.error("owner", f"duplicate die owner {owner!r}")
        faces = _faces(t.table("faces")) if t.has("faces") else default_faces
        dice[owner] = DieSpec(
            owner, _colour(t, "colour"), _colour(t, "pips"), size * 1e-3, radius * 1e-3, mass * 1e-3, faces
        )
    if WHITE not in dice:
        raise top.error("dice", 'the neutral white die (owner = "white") is missing')
    if len(dice) < 4:
        raise top.error("dice", "need the white die and at least 3 player colours")
    return DiceSet(dice, math.radians(cocked), source)


def _size(top: DataTable) -> float:
    """The edge (mm): a die, and one that fits the box's cavity when it falls through a hole."""
    from rules.doppelx.box import load_box

    size = top.number("size", positive=True)
    box = load_box()
    cavity = (box.insert_top - box.insert_thickness) * 1e3
    if size < MIN_SIZE_MM or size > cavity:
        raise top.error(
            "size",
            f"a die's edge is {MIN_SIZE_MM:g} to {cavity:g} mm (a die that falls through a hole "
            f"must fit into the {cavity:g} mm high cavity under the insert), got {size:g}",
        )
    return size


def _owner(t: DataTable) -> str:
    """An owner: one line of 1–80 characters like a board's ids, no comma or ``=``, no
    space at either end (the command line names dice in ``--dice blue,white``)."""
    owner = t.text("owner")
    bad = next((ch for ch in owner if ch in OWNER_SEPARATORS), None)
    if bad is not None or owner != owner.strip():
        what = f"a {bad!r}" if bad is not None else "a space at an end"
        raise t.error(
            "owner",
            f"{what} in {owner[:40]!r}; an owner is named on the command line in lists like "
            f"--dice blue,white",
        )
    return owner


def _faces(t: DataTable | None) -> tuple[str, ...]:
    assert t is not None  # read without a default: a missing table raises
    t.check_keys(set(AXES))
    return tuple(t.string(axis, choices=FACE_LABELS) for axis in AXES)


def _colour(t: DataTable, key: str) -> str:
    value = t.string(key)
    if len(value) != 7 or value[0] != "#" or any(c not in "0123456789abcdefABCDEF" for c in value[1:]):
        raise t.error(key, f'expected a colour like "#1d4ed8", got {value!r}')
    return value
