"""The actions of Das Doppel Spiel and their one-line text form (used in logs, saves and prompts).

Dice positions and columns are 0-based inside and 1-based in text. A field is written
``key@column``, e.g. ``116@1`` or ``6s@3``. Text forms::

    joker 2            activate the Joker of column 2 (before the first throw)
    roll 1 2 3 4 5 6 7 8 9 10    regular throw of these dice (the first throw is all ten)
    free 3 7           take a free throw (Freiwurf) with these dice
    repeat 2           Wiederholen: strike the 2 and re-throw every die showing 2
    swap 4 6           Tauschen: die 4 becomes a 6 (strikes its old value and the 6)
    split 11665        end the throwing: these five dice are group 1, the rest group 2
    place 116@1        write the current group into 1-1-6 of column 1 (``x2``: doubled)
    place skip         mark an Aussetzen box for the current group
    place strike fh@2  strike a field for the current group
    ten 3              write all ten dice into the 10er of column 3
    zwang 116@1 6s@3   use a Zwang box: the opponent must fill these two fields next
    pass               end the turn without a Zwang
    dice 3 5 1 ...     chance outcome: the faces of the thrown dice, in position order
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.common.schema import plain_digits
from rules.doppelspiel.spec import DoppelSpec


@dataclass(frozen=True, order=True)
class FieldRef:
    """A field on a sheet: ``column`` (0-based) and the field ``key``."""

    column: int
    key: str

    def __str__(self) -> str:
        return f"{self.key}@{self.column + 1}"


@dataclass(frozen=True)
class ActivateJoker:
    """Activate the Joker of ``column`` before the turn's first throw."""

    column: int

    def __str__(self) -> str:
        return f"joker {self.column + 1}"


@dataclass(frozen=True)
class Roll:
    """A regular throw of the dice at ``dice`` (positions, 0-based)."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(str(i + 1) for i in self.dice)


@dataclass(frozen=True)
class FreeThrow:
    """A free throw (Freiwurf) of the dice at ``dice``."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "free " + " ".join(str(i + 1) for i in self.dice)


@dataclass(frozen=True)
class Repeat:
    """Wiederholen: strike ``face`` and re-throw every die showing it."""

    face: int

    def __str__(self) -> str:
        return f"repeat {self.face}"


@dataclass(frozen=True)
class Swap:
    """Tauschen: the die at position ``die`` becomes ``face``."""

    die: int
    face: int

    def __str__(self) -> str:
        return f"swap {self.die + 1} {self.face}"


@dataclass(frozen=True)
class Split:
    """Stop throwing; ``group`` (sorted faces) is group 1 and the other five dice group 2."""

    group: tuple[int, ...]

    def __str__(self) -> str:
        return "split " + "".join(str(v) for v in self.group)


@dataclass(frozen=True)
class Place:
    """Where the current group goes.

    Attributes:
        mode: ``"write"`` (score it), ``"strike"`` (strike ``target``), ``"skip"`` (Aussetzen).
        target: the field (``None`` for ``skip``).
        doubled: the written score is doubled (Joker, DOPPLER or DOPPELDOPPLER).
    """

    mode: str
    target: FieldRef | None = None
    doubled: bool = False

    def __str__(self) -> str:
        if self.mode == "skip":
            return "place skip"
        if self.mode == "strike":
            return f"place strike {self.target}"
        return f"place {self.target}" + (" x2" if self.doubled else "")


@dataclass(frozen=True)
class WriteTen:
    """Write the sum of all ten dice into the 10er of ``column`` (both entries of the turn)."""

    column: int

    def __str__(self) -> str:
        return f"ten {self.column + 1}"


@dataclass(frozen=True)
class Zwang:
    """Use a Zwang box: ``targets`` (two fields, or one 10er) on the opponent's sheet."""

    targets: tuple[FieldRef, ...]

    def __str__(self) -> str:
        return "zwang " + " ".join(str(t) for t in self.targets)


@dataclass(frozen=True)
class Pass:
    """End the turn without using a Zwang."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Dice:
    """Chance outcome: the ``faces`` of the thrown dice, in position order."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "dice " + " ".join(str(v) for v in self.faces)


Action = ActivateJoker | Roll | FreeThrow | Repeat | Swap | Split | Place | WriteTen | Zwang | Pass | Dice


def _ints(words: list[str], what: str) -> tuple[int, ...]:
    try:
        return tuple(int(w) for w in words)
    except ValueError:
        raise ValueError(f"{what} must be whole numbers, got {' '.join(words)!r}") from None


def parse_ref(text: str, spec: DoppelSpec) -> FieldRef:
    """Parse ``key@column`` (column 1-based)."""
    key, sep, col = text.partition("@")
    if not sep:
        raise ValueError(f"a field is written key@column, e.g. 116@1, got {text!r}")
    keys = [f.key for f in spec.fields]
    if key not in keys:
        raise ValueError(f"unknown field {key!r}; fields: {' '.join(keys)}")
    if not plain_digits(col) or not 1 <= int(col) <= spec.columns:
        raise ValueError(f"column must be 1..{spec.columns}, got {col!r}")
    return FieldRef(int(col) - 1, key)


def _positions(words: list[str], spec: DoppelSpec) -> tuple[int, ...]:
    if words == ["all"]:
        return tuple(range(spec.dice))
    pos = _ints(words, "dice positions")
    if not pos:
        raise ValueError("name at least one die position")
    for p in pos:
        if not 1 <= p <= spec.dice:
            raise ValueError(f"die positions are 1..{spec.dice}, got {p}")
    if len(set(pos)) != len(pos):
        raise ValueError("a die position is named twice")
    return tuple(sorted(p - 1 for p in pos))


def parse_action(text: str, spec: DoppelSpec) -> Action:
    """Parse the text form of an action (see the module docstring).

    Raises:
        ValueError: the text is not an action; the message says what is wrong.
    """
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb, rest = words[0].lower(), words[1:]

    def one_int(lo: int, hi: int, what: str) -> int:
        if len(rest) != 1:
            raise ValueError(f"{verb} takes one {what}")
        (v,) = _ints(rest, what)
        if not lo <= v <= hi:
            raise ValueError(f"{what} must be {lo}..{hi}, got {v}")
        return v

    if verb == "joker":
        return ActivateJoker(one_int(1, spec.columns, "column") - 1)
    if verb == "roll":
        return Roll(_positions(rest, spec))
    if verb == "free":
        return FreeThrow(_positions(rest, spec))
    if verb == "repeat":
        return Repeat(one_int(1, spec.faces, "face"))
    if verb == "swap":
        if len(rest) != 2:
            raise ValueError("swap takes a die position and a new face, e.g. swap 4 6")
        die, face = _ints(rest, "swap arguments")
        if not 1 <= die <= spec.dice:
            raise ValueError(f"die positions are 1..{spec.dice}, got {die}")
        if not 1 <= face <= spec.faces:
            raise ValueError(f"faces are 1..{spec.faces}, got {face}")
        return Swap(die - 1, face)
    if verb == "split":
        digits = "".join(rest)
        if len(digits) != spec.group_size or not plain_digits(digits):
            raise ValueError(f"split takes the {spec.group_size} faces of group 1, e.g. split 11665")
        faces = tuple(sorted(int(c) for c in digits))
        if not all(1 <= v <= spec.faces for v in faces):
            raise ValueError(f"faces are 1..{spec.faces}")
        return Split(faces)
    if verb == "place":
        if rest == ["skip"]:
            return Place("skip")
        if len(rest) == 2 and rest[0] == "strike":
            return Place("strike", parse_ref(rest[1], spec))
        if len(rest) in (1, 2):
            doubled = len(rest) == 2
            if doubled and rest[1] != "x2":
                raise ValueError(f"expected 'x2' after the field, got {rest[1]!r}")
            return Place("write", parse_ref(rest[0], spec), doubled)
        raise ValueError("place takes key@column [x2], 'skip' or 'strike key@column'")
    if verb == "ten":
        return WriteTen(one_int(1, spec.columns, "column") - 1)
    if verb == "zwang":
        if len(rest) not in (1, 2):
            raise ValueError("zwang takes two fields or one 10er, e.g. zwang 116@1 6s@3")
        return Zwang(tuple(parse_ref(w, spec) for w in rest))
    if verb == "pass":
        if rest:
            raise ValueError("pass takes nothing")
        return Pass()
    if verb == "dice":
        faces = _ints(rest, "faces")
        if not faces or not all(1 <= v <= spec.faces for v in faces):
            raise ValueError(f"dice takes faces 1..{spec.faces}")
        return Dice(faces)
    raise ValueError(f"unknown action {verb!r}")
