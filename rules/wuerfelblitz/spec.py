"""Würfelblitz dice and disc specs as frozen dataclasses, loaded from ``assets/games/wuerfelblitz.toml``.

A coloured die face is either a number of pips (``int`` 1..6) or the colour name of its
dot (``str``); a white die face is always a colour name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.assets import asset_path, read_toml
from rules.errors import SpecError

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


def _expect(cond: bool, source: str, element: str, problem: str) -> None:
    if not cond:
        raise SpecError(source, element, problem)


def _keys(table: Any, allowed: set[str], source: str, element: str) -> dict[str, Any]:
    _expect(isinstance(table, dict), source, element or "top level", "expected a table")
    for key in table:
        where = f"{element}.{key}" if element else key
        _expect(key in allowed, source, where, f"unknown key; allowed keys are {', '.join(sorted(allowed))}")
    for key in allowed:
        where = f"{element}.{key}" if element else key
        _expect(key in table, source, where, "missing")
    return table


def _int(value: Any, source: str, element: str, lo: int, hi: int | None = None) -> int:
    ok = (
        isinstance(value, int) and not isinstance(value, bool) and value >= lo and (hi is None or value <= hi)
    )
    upper = f"..{hi}" if hi is not None else " or more"
    _expect(ok, source, element, f"expected an integer {lo}{upper}, got {value!r}")
    return value


def parse_spec(data: dict[str, Any], source: str = "<data>") -> BlitzSpec:
    """Build a :class:`BlitzSpec` from parsed TOML, checking every element.

    Raises:
        SpecError: naming the element and what was expected.
    """
    top = _keys(data, {"format", "colours", "coloured", "white", "rules", "discs", "calls"}, source, "")
    _expect(top["format"] == FORMAT, source, "format", f"expected {FORMAT!r}, got {top['format']!r}")

    colours = top["colours"]
    _expect(
        isinstance(colours, list) and len(colours) >= 2 and all(isinstance(c, str) and c for c in colours),
        source,
        "colours",
        "expected a list of at least two colour names",
    )
    _expect(len(set(colours)) == len(colours), source, "colours", "colour names must be distinct")
    colour_set = set(colours)

    raw_dice = top["coloured"]
    _expect(isinstance(raw_dice, list), source, "coloured", "expected an array of tables [[coloured]]")
    dice = []
    for i, raw in enumerate(raw_dice):
        el = f"coloured[{i}]"
        t = _keys(raw, {"colour", "faces"}, source, el)
        colour = t["colour"]
        _expect(colour in colour_set, source, f"{el}.colour", f"{colour!r} is not one of colours")
        faces = t["faces"]
        _expect(isinstance(faces, list) and len(faces) == 6, source, f"{el}.faces", "expected six faces")
        dots = [f for f in faces if isinstance(f, str)]
        pips = [f for f in faces if not isinstance(f, str)]
        _expect(len(dots) == 1, source, f"{el}.faces", f"expected exactly one dot face, got {len(dots)}")
        _expect(dots[0] in colour_set, source, f"{el}.faces", f"dot colour {dots[0]!r} is not one of colours")
        for j, p in enumerate(faces):
            if not isinstance(p, str):
                _int(p, source, f"{el}.faces[{j}]", 1, 6)
        _expect(len(set(pips)) == len(pips), source, f"{el}.faces", "numbers on a die must be distinct")
        dice.append(ColouredDie(colour, tuple(faces)))
    _expect(
        [d.colour for d in dice] == list(colours),
        source,
        "coloured",
        "expected one [[coloured]] die per colour, in the order of colours",
    )

    white = _keys(top["white"], {"in_box", "faces"}, source, "white")
    in_box = _int(white["in_box"], source, "white.in_box", 2)
    wf = white["faces"]
    _expect(
        isinstance(wf, list) and len(wf) == 6 and all(f in colour_set for f in wf) and len(set(wf)) == 6,
        source,
        "white.faces",
        "expected six distinct dot colours from colours",
    )

    r = _keys(top["rules"], {"white_dice", "variant"}, source, "rules")
    white_dice = _int(r["white_dice"], source, "rules.white_dice", 2, 3)
    _expect(white_dice <= in_box, source, "rules.white_dice", f"only {in_box} white dice in the box")
    _expect(isinstance(r["variant"], bool), source, "rules.variant", "expected true or false")

    d = _keys(
        top["discs"], {"white_per_black", "black_to_win", "white_in_box", "black_in_box"}, source, "discs"
    )
    tie = _keys(top["calls"], {"tie_window_s"}, source, "calls")["tie_window_s"]
    _expect(
        isinstance(tie, (int, float)) and not isinstance(tie, bool) and math.isfinite(tie) and tie >= 0,
        source,
        "calls.tie_window_s",
        f"expected a non-negative number of seconds, got {tie!r}",
    )

    return BlitzSpec(
        colours=tuple(colours),
        coloured=tuple(dice),
        white_faces=tuple(wf),
        white_in_box=in_box,
        white_dice=white_dice,
        variant=r["variant"],
        white_per_black=_int(d["white_per_black"], source, "discs.white_per_black", 1),
        black_to_win=_int(d["black_to_win"], source, "discs.black_to_win", 1),
        white_discs_in_box=_int(d["white_in_box"], source, "discs.white_in_box", 0),
        black_discs_in_box=_int(d["black_in_box"], source, "discs.black_in_box", 0),
        tie_window_s=float(tie),
        source=source,
    )
