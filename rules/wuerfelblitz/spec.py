"""Würfelblitz dice and disc specs as frozen dataclasses, loaded from ``assets/games/wuerfelblitz.toml``.

A coloured die face is either a number of pips (``int`` 1..6) or the colour name of its
dot (``str``); a white die face is always a colour name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable

#: A face of a coloured die: pips (1..6) or the colour of its dot.
Face = int | str

FORMAT = "wuerfelblitz/1"


@dataclass(frozen=True)
class ColouredDie:
    """One coloured die.

    Attributes:
        colour: the die's own (base) colour.
        faces: its six faces; exactly one is a dot colour, the others are pips.
    """

    colour: str
    faces: tuple[Face, ...]

    @property
    def dot(self) -> str:
        """The colour of the die's dot face."""
        return next(f for f in self.faces if isinstance(f, str))

    @property
    def pips(self) -> tuple[int, ...]:
        """The numbered faces, in face order."""
        return tuple(f for f in self.faces if isinstance(f, int))


@dataclass(frozen=True)
class BlitzSpec:
    """The game material and the rule defaults.

    Attributes:
        colours: the die colours, in the order of ``coloured``.
        coloured: one coloured die per colour.
        white_faces: the six dot colours of every white die.
        white_in_box: number of white dice in the box (the rules use 2 or 3 of them).
        white_dice: default number of white dice in play (2 or 3).
        variant: whether the "Hirnverdreher" variant is on by default.
        white_per_black: default number of white discs exchanged for one black disc.
        black_to_win: black discs that win the game.
        white_discs_in_box, black_discs_in_box: discs in the box (not a limit in play).
        tie_window_s: correct calls within this many seconds of the first count as
            simultaneous (s).
        source: the file the spec was read from.
    """

    colours: tuple[str, ...]
    coloured: tuple[ColouredDie, ...]
    white_faces: tuple[str, ...]
    white_in_box: int
    white_dice: int
    variant: bool
    white_per_black: int
    black_to_win: int
    white_discs_in_box: int
    black_discs_in_box: int
    tie_window_s: float
    source: str = ""

    def die(self, colour: str) -> ColouredDie:
        """The coloured die of ``colour``; ``KeyError`` if there is none."""
        for d in self.coloured:
            if d.colour == colour:
                return d
        raise KeyError(colour)

    @property
    def max_call(self) -> int:
        """Upper bound of any correct sum: every coloured die on its highest number."""
        return sum(max(d.pips) for d in self.coloured)


def default_spec_path() -> Path:
    """Path of the shipped spec file."""
    return asset_path("games", "wuerfelblitz.toml")


@lru_cache(maxsize=1)
def _default_spec() -> BlitzSpec:
    return load_spec(default_spec_path())


def load_spec(path: Path | str | None = None) -> BlitzSpec:
    """Read and check a Würfelblitz spec file (the shipped one if ``path`` is ``None``).

    Raises:
        SpecError: the file is missing, not TOML, or any element is malformed.
    """
    if path is None:
        return _default_spec()
    return parse_spec(read_toml(path), str(path))


def _face(value: Any, source: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise SpecError(source, where, f"expected an integer 1..6, got {value!r}")
    return value


def parse_spec(data: dict[str, Any], source: str = "<data>") -> BlitzSpec:
    """Build a :class:`BlitzSpec` from parsed TOML, checking every element (through
    :class:`rules.common.schema.DataTable`).

    Raises:
        SpecError: naming the element and what was expected.
    """
    top = DataTable(data, source)
    top.check_keys({"format", "colours", "coloured", "white", "rules", "discs", "calls"})
    if top.string("format") != FORMAT:
        raise top.error("format", f"expected {FORMAT!r}, got {top.raw('format')!r}")

    colours = top.raw("colours")
    if not (
        isinstance(colours, list) and len(colours) >= 2 and all(isinstance(c, str) and c for c in colours)
    ):
        raise top.error("colours", "expected a list of at least two colour names")
    if len(set(colours)) != len(colours):
        raise top.error("colours", "colour names must be distinct")
    colour_set = set(colours)

    dice = []
    for die in top.tables("coloured", required=True):
        die.check_keys({"colour", "faces"})
        colour = die.string("colour")
        if colour not in colour_set:
            raise die.error("colour", f"{colour!r} is not one of colours")
        faces = die.raw("faces")
        if not (isinstance(faces, list) and len(faces) == 6):
            raise die.error("faces", "expected six faces")
        dots = [f for f in faces if isinstance(f, str)]
        pips = [f for f in faces if not isinstance(f, str)]
        if len(dots) != 1:
            raise die.error("faces", f"expected exactly one dot face, got {len(dots)}")
        if dots[0] not in colour_set:
            raise die.error("faces", f"dot colour {dots[0]!r} is not one of colours")
        for j, p in enumerate(faces):
            if not isinstance(p, str):
                _face(p, source, f"{die.where('faces')}[{j}]")
        if len(set(pips)) != len(pips):
            raise die.error("faces", "numbers on a die must be distinct")
        dice.append(ColouredDie(colour, tuple(faces)))
    if [d.colour for d in dice] != list(colours):
        raise top.error("coloured", "expected one [[coloured]] die per colour, in the order of colours")

    white = top.table("white")
    assert white is not None  # no default: a missing table raises
    white.check_keys({"in_box", "faces"})
    in_box = white.integer("in_box", minimum=2)
    wf = white.raw("faces")
    if not (isinstance(wf, list) and len(wf) == 6 and all(f in colour_set for f in wf) and len(set(wf)) == 6):
        raise white.error("faces", "expected six distinct dot colours from colours")

    rules = top.table("rules")
    assert rules is not None  # no default: a missing table raises
    rules.check_keys({"white_dice", "variant"})
    white_dice = rules.integer("white_dice", minimum=2)
    if white_dice > 3:
        raise rules.error("white_dice", f"expected 2 or 3 white dice, got {white_dice}")
    if white_dice > in_box:
        raise rules.error("white_dice", f"only {in_box} white dice in the box")
    variant = rules.boolean("variant")

    discs = top.table("discs")
    assert discs is not None  # no default: a missing table raises
    discs.check_keys({"white_per_black", "black_to_win", "white_in_box", "black_in_box"})
    calls = top.table("calls")
    assert calls is not None  # no default: a missing table raises
    calls.check_keys({"tie_window_s"})
    tie = calls.number("tie_window_s", minimum=0)

    return BlitzSpec(
        colours=tuple(colours),
        coloured=tuple(dice),
        white_faces=tuple(wf),
        white_in_box=in_box,
        white_dice=white_dice,
        variant=variant,
        white_per_black=discs.integer("white_per_black", minimum=1),
        black_to_win=discs.integer("black_to_win", minimum=1),
        white_discs_in_box=discs.integer("white_in_box", minimum=0),
        black_discs_in_box=discs.integer("black_in_box", minimum=0),
        tie_window_s=tie,
        source=source,
    )
