"""Argument types shared by the commands: whole numbers and finite numbers in a range, seeds,
lists of names, points in millimetres, output files, PNG pictures and NumPy replays.

Each returns a function for argparse's ``type=`` that raises ``ArgumentTypeError`` with a
message naming what was expected, so a bad argument is one line and exit code 2.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence

from doppelx.games.doppelx.policies import BOT_SKILLS

#: Longest argument text quoted back in an error message.
MAX_SHOWN = 60


def shown(text: str) -> str:
    """``repr(text)``, cut short for an error message."""
    if len(text) <= MAX_SHOWN:
        return repr(text)
    return f"{text[: MAX_SHOWN - 10]!r}… ({len(text)} characters)"


_INT = re.compile(r"\s*[+-]?[0-9]+\s*")
_FLOAT = re.compile(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*")


def plain_int(text: str) -> int:
    """``int(text)`` for plain ASCII digits only: Python's ``int`` would also take ``1_0`` or ``١٠``."""
    if len(text) > 40 or not _INT.fullmatch(text):
        raise ValueError(f"not a plain whole number: {text!r}")
    return int(text)


def plain_float(text: str, special: bool = False) -> float:
    """``float(text)`` for plain decimal notation only (no ``1_0`` or other scripts' digits);
    ``inf`` and ``nan`` only with ``special`` (for a caller that names its bounds for them)."""
    if special and text.strip().lower().lstrip("+-") in ("inf", "infinity", "nan"):
        return float(text)
    if len(text) > 40 or not _FLOAT.fullmatch(text):
        raise ValueError(f"not a plain number: {text!r}")
    return float(text)


def whole(
    minimum: int | None = None, maximum: int | None = None, what: str = "a whole number"
) -> Callable[[str], int]:
    """A whole number within ``[minimum, maximum]`` (either bound optional)."""

    def parse(text: str) -> int:
        try:
            n = plain_int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {shown(text)}") from None
        if (minimum is not None and n < minimum) or (maximum is not None and n > maximum):
            if maximum is None:
                bound = f">= {minimum}"
            elif minimum is None:
                bound = f"<= {maximum}"
            else:
                bound = f"from {minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"expected {what} {bound}, got {shown(text)}")
        return n

    return parse


def number(minimum: float, maximum: float, what: str = "a number") -> Callable[[str], float]:
    """A finite number within ``[minimum, maximum]``."""

    def parse(text: str) -> float:
        try:
            v = plain_float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {shown(text)}") from None
        if not math.isfinite(v) or not minimum <= v <= maximum:
            raise argparse.ArgumentTypeError(
                f"expected {what} from {minimum:g} to {maximum:g}, got {shown(text)}"
            )
        return v

    return parse


def point_mm(text: str, limit: float = 1000.0) -> tuple[float, float]:
    """``X,Y`` in millimetres (finite, within ±``limit``) → metres."""
    try:
        if len(text) > 80:
            raise ValueError
        parts = text.split(",")
        if len(parts) == 2 and any(
            p.strip().lower().lstrip("+-") in ("nan", "inf", "infinity") for p in parts
        ):
            raise argparse.ArgumentTypeError(f"expected finite numbers X,Y in mm, got {shown(text)}")
        x, y = (plain_float(v) for v in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in mm, e.g. -60,75, got {shown(text)}") from None
    if abs(x) > limit or abs(y) > limit:
        raise argparse.ArgumentTypeError(f"X,Y in mm must lie within ±{limit:g} mm, got {shown(text)}")
    return x / 1000.0, y / 1000.0


#: Largest count any command takes unless it names a smaller bound of its own.
MAX_COUNT = 1_000_000_000
#: A count of at least 1 (at most :data:`MAX_COUNT`).
positive = whole(1, MAX_COUNT)
#: A seed: a whole number >= 0 that fits 64 bits.
seed = whole(0, 2**63 - 1)
#: DoppelX's table: 3 to 8 players.
players = whole(3, 8, "a player count")


def names(allowed: Sequence[str], count: int | None = None) -> Callable[[str], list[str]]:
    """A comma-separated list of names out of ``allowed`` (exactly ``count`` of them if given)."""

    def parse(text: str) -> list[str]:
        items = [s.strip() for s in text.split(",")]
        if "" in items and text.strip():
            raise argparse.ArgumentTypeError(
                f"an empty name in {shown(text)} (two commas together, or one at an end)"
            )
        items = [s for s in items if s]
        bad = [s for s in items if s not in allowed]
        if not items or bad or (count is not None and len(items) != count):
            n = f"{count} of " if count is not None else ""
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {n}{', '.join(allowed)}, got {shown(text)}"
            )
        return items

    return parse


def output_file(text: str) -> str:
    """A file to write: its folder exists and is writable, it is not a folder (checked before any work)."""
    from rules.common.atomic import OutputError, check_output_file

    try:
        check_output_file(text, what="")
    except OutputError as exc:
        raise argparse.ArgumentTypeError(_shorten_paths(str(exc), text)) from None
    return text


def _shorten_paths(message: str, text: str) -> str:
    """``message`` with the path ``text`` and its folders cut short where they are long (a
    path of thousands of characters would otherwise fill the screen, once or twice)."""
    from pathlib import Path

    from rules.common.assets import MAX_NAME_SHOWN, shown_name

    spelled = {text, str(Path(text)), *(str(p) for p in Path(text).parents)}
    shortened = False
    # the longest first: a shortened name keeps only 60 characters of its start, so no other
    # long spelling is found inside it afterwards
    for long in sorted(spelled, key=len, reverse=True):
        if len(long) > MAX_NAME_SHOWN and long in message:
            message = message.replace(long, shown_name(long))
            shortened = True
    if not shortened and len(text) > 200 and text[:200] in message:
        message = message.replace(text[:200], shown_name(text), 1)  # rules.common.atomic's cut to the start
    return message


def _suffixed(text: str, suffix: str, what: str) -> str:
    """:func:`output_file` whose name must end in ``suffix`` (any case), else one line naming ``what``."""
    from rules.common.assets import shown_name  # a long path keeps its end, where the suffix is

    output_file(text)  # a folder or a missing folder is named as such first
    if not text.lower().endswith(suffix):
        raise argparse.ArgumentTypeError(
            f"{what}: expected a file name ending in {suffix}, got {shown_name(text)!r}"
        )
    return text


def png_file(text: str) -> str:
    """:func:`output_file` for a picture: the pictures are PNG, so the name must end in ``.png``."""
    return _suffixed(text, ".png", "the picture is a PNG")


def npz_file(text: str) -> str:
    """:func:`output_file` for a replay: a NumPy archive, so the name must end in ``.npz``
    (and a board or state file given by mistake is not overwritten with one)."""
    return _suffixed(text, ".npz", "the replay is a NumPy archive")


def input_path(text: str):
    """A file to read, as a :class:`pathlib.Path` (``Path("")`` would quietly be the current
    folder): an empty name is refused here; a missing or unreadable file where it is read."""
    from pathlib import Path

    if not text.strip():
        raise argparse.ArgumentTypeError("an empty file name: give a file")
    return Path(text)


def output_path(text: str):
    """:func:`output_file` as a :class:`pathlib.Path`."""
    from pathlib import Path

    return Path(output_file(text))


#: Most rollouts an expert may think a decision: about 10 minutes on one core of the
#: development machine (docs/bots.md), so a typo cannot start a game of days.
MAX_THINK = 100_000


def add_seat_skills(p: argparse.ArgumentParser, *, think: bool = False) -> None:
    """``--skills S1,S2,...`` (one bot skill per seat) and, with ``think``, ``--think N``."""
    p.add_argument(
        "--skills",
        type=names(BOT_SKILLS),
        default=None,
        metavar="S1,S2,...",
        help=f"one skill per seat ({', '.join(BOT_SKILLS)}), instead of --skill",
    )
    if think:
        add_think(p)


def add_think(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--think N``: an expert's rollouts per decision (``prefix``: "games: " in a sweep)."""
    p.add_argument(
        "--think",
        type=whole(12, MAX_THINK, "a number of rollouts"),
        default=None,
        metavar="N",
        help=f"{prefix}an expert's rollouts per decision, at least 12 and at most {MAX_THINK} (default 100)",
    )


def cards(text: str) -> list[str]:
    """The 4 bet cards in play: four different letters A–H, comma-separated (``A,B,C,D``)."""
    letters = [s.strip().upper() for s in text.split(",")]
    if "" in letters and text.strip():
        raise argparse.ArgumentTypeError(
            f"an empty card in {shown(text)} (two commas together, or one at an end)"
        )
    letters = [x for x in letters if x]
    unknown = [x for x in letters if len(x) != 1 or x not in "ABCDEFGH"]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown card {shown(unknown[0])}: the cards are A–H, e.g. A,B,C,D (got {shown(text)})"
        )
    if len(letters) != 4 or len(set(letters)) != 4:
        raise argparse.ArgumentTypeError(
            f"expected 4 different card letters A–H, e.g. A,B,C,D, got {shown(text)}"
        )
    return letters


def check_no_spinner(board, spinner: bool) -> None:
    """Refuse ``--no-spinner`` on a side without a spinner mount (sides I and II): it would do
    nothing, and a user who gives it expects a side where it does something."""
    if not spinner and board.spinner is None:
        from rules.common.errors import RulesError

        raise RulesError(
            f"--no-spinner: side {board.name} has no spinner to leave off (sides III and IV have one)"
        )


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """``--engine pybullet|mujoco`` (default pybullet) on a command's parser."""
    from physics.engine import DEFAULT_ENGINE, ENGINES

    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default=DEFAULT_ENGINE,
        help=f"physics engine (default {DEFAULT_ENGINE}; see docs/physics.md, 'Second engine: MuJoCo')",
    )
