"""Shared helpers for the terminal games: colour, prompts that re-ask with a reason, saves.

Every interactive command takes its input and output streams as arguments, so tests drive
a whole game through the prompt with scripted lines.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from rules.assets import read_json
from rules.errors import SpecError

_ANSI = {
    "reset": "0",
    "bold": "1",
    "dim": "2",
    "black": "30",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "white": "37",
    "grey": "90",
    "orange": "38;5;208",
    "pink": "38;5;213",
    "purple": "35",
    "silver": "37",
}


class Terminal:
    """Input/output pair with optional ANSI colour.

    Colour is on when the output is a TTY and ``NO_COLOR`` is unset, unless forced.
    """

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None, colour: bool | None = None):
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        if colour is None:
            colour = bool(getattr(self.out, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ
        self.colour = colour

    def paint(self, text: str, *styles: str) -> str:
        """``text`` wrapped in the ANSI codes of ``styles`` (names in ``_ANSI``) if colour is on."""
        if not self.colour or not styles:
            return text
        codes = ";".join(_ANSI[s] for s in styles if s in _ANSI)
        return f"\x1b[{codes}m{text}\x1b[0m" if codes else text

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def read_line(self, prompt: str) -> str:
        """One line of input; raises ``EOFError`` when the input ends."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            raise EOFError("input ended")
        return line.strip()

    def ask(self, prompt: str, parse: Callable[[str], Any]) -> Any:
        """Ask until ``parse(answer)`` succeeds; a ``ValueError`` from it is shown as the reason."""
        while True:
            answer = self.read_line(prompt)
            try:
                return parse(answer)
            except ValueError as exc:
                self.say(self.paint(f"  not accepted: {exc}", "red"))

    def choose(self, prompt: str, options: Sequence[str], extra: Iterable[str] = ()) -> str:
        """Ask for one of ``options`` (by number 1..n or exact text) or one of ``extra`` words."""
        for i, opt in enumerate(options, 1):
            self.say(f"  {i:>2}) {opt}")
        extra = tuple(extra)

        def parse(answer: str) -> str:
            if answer in extra:
                return answer
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            if answer in options:
                return answer
            hint = f"1-{len(options)}" + (f" or {', '.join(extra)}" if extra else "")
            raise ValueError(f"{answer!r} is not a choice; type {hint}")

        return self.ask(prompt, parse)


def save_json(path: Path | str, data: dict[str, Any]) -> None:
    """Write ``data`` atomically (temp file + rename), so a crash never leaves half a save."""
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def load_json(path: Path | str) -> dict[str, Any]:
    """Read a JSON save; a missing or malformed file is a :class:`SpecError` naming it."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise SpecError(str(path), "", "expected a JSON object at the top level")
    return data
