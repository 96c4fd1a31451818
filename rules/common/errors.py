"""Project errors: every user mistake becomes one of these, with where and what.

The CLI turns any :class:`DoppelXError` into one line on stderr and exit code 2. Every
error pickles, so one raised in a pool or Ray worker reaches the parent intact.
"""

from __future__ import annotations


class DoppelXError(Exception):
    """Base of every error a user can cause (bad file, bad argument, illegal action)."""


class SpecError(DoppelXError):
    """A data file (board, dice, bet cards, state) is malformed.

    Args:
        source: the file path or name the data came from.
        element: where in the file, e.g. ``fields[3].polygon``.
        problem: what is wrong and what was expected.
    """

    def __init__(self, source: str, element: str, problem: str):
        self.source = _cap(str(source), 200)
        self.element = _cap(element, 160)
        self.problem = _cap(problem, 320)
        where = f"{self.source}: {element}" if element else self.source
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):
        # rebuilt from its three parts, so the error crosses a process boundary intact
        return (type(self), (self.source, self.element, self.problem))


def _cap(text: str, limit: int) -> str:
    """``text`` on one line and at most about ``limit`` characters (user values can be huge)."""
    text = " ".join(str(text).split()) if "\n" in str(text) else str(text)
    return text if len(text) <= limit else f"{text[: limit - 12]}… (cut short)"


class RulesError(DoppelXError):
    """An action the rules do not allow in the current game state."""
