"""One Würfelblitz throw: what every die shows, how it is sampled, checked and stored as JSON."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.common.errors import RulesError
from rules.common.schema import DataTable, describe
from rules.wuerfelblitz.spec import BlitzSpec, Face


@dataclass(frozen=True)
class BlitzThrow:
    """The faces showing after a throw.

    Attributes:
        coloured: ``(die colour, face)`` per coloured die; the face is pips (int) or the
            colour of the dot (str).
        white: the dot colour showing on each white die in play.
    """

    coloured: tuple[tuple[str, Face], ...]
    white: tuple[str, ...]

    @classmethod
    def of(cls, coloured: Mapping[str, Face], white: Sequence[str]) -> BlitzThrow:
        """A throw from ``{die colour: face}`` and the white dice's dot colours."""
        return cls(tuple(coloured.items()), tuple(white))

    def face(self, colour: str) -> Face:
        """The face showing on the coloured die of ``colour``."""
        for c, f in self.coloured:
            if c == colour:
                return f
        raise KeyError(colour)

    def dots(self) -> Counter[str]:
        """How often each colour is visible as a dot (white dice and coloured dot faces)."""
        seen = Counter(self.white)
        seen.update(f for _, f in self.coloured if isinstance(f, str))
        return seen

    def to_json(self) -> dict[str, Any]:
        return {"coloured": dict(self.coloured), "white": list(self.white)}

    @classmethod
    def from_json(cls, data: Any, source: str = "<throw>", where: str = "throw") -> BlitzThrow:
        """Inverse of :meth:`to_json`; a malformed object is a :class:`SpecError` naming the
        element (``where``: the element holding the throw, e.g. ``game.actions[4].throw``)."""
        t = DataTable(data, source, where)
        t.check_keys({"coloured", "white"})
        colours = t.table("coloured")
        coloured = {}
        for colour, face in colours.data.items():
            if isinstance(face, bool) or not isinstance(face, (int, str)):
                raise colours.error(colour, f"expected pips or a dot colour, got {describe(face)}")
            coloured[colour] = face
        return cls.of(coloured, t.strings("white", what="dot colours"))


def check_throw(spec: BlitzSpec, throw: BlitzThrow, white_dice: int) -> None:
    """Check that ``throw`` is possible with ``spec`` and ``white_dice`` white dice.

    Raises:
        RulesError: a die is missing or doubled, a face is not on its die, or the number
            of white dice is wrong.
    """
    names = [c for c, _ in throw.coloured]
    if sorted(names) != sorted(spec.colours):
        raise RulesError(f"a throw shows each coloured die once ({', '.join(spec.colours)}), got {names}")
    for colour, face in throw.coloured:
        if isinstance(face, bool) or face not in spec.die(colour).faces:
            raise RulesError(f"the {colour} die has no face {face!r} (faces: {list(spec.die(colour).faces)})")
    if len(throw.white) != white_dice:
        raise RulesError(f"expected {white_dice} white dice, got {len(throw.white)}")
    for w in throw.white:
        if w not in spec.white_faces:
            raise RulesError(f"a white die has no {w!r} dot (faces: {list(spec.white_faces)})")


def sample_throw(spec: BlitzSpec, white_dice: int, rng: np.random.Generator) -> BlitzThrow:
    """A fair throw: every die lands on each of its six faces with probability 1/6."""
    idx = rng.integers(0, 6, size=len(spec.coloured) + white_dice)
    coloured = tuple((d.colour, d.faces[int(i)]) for d, i in zip(spec.coloured, idx))
    white = tuple(spec.white_faces[int(i)] for i in idx[len(spec.coloured) :])
    return BlitzThrow(coloured, white)
