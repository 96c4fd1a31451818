"""Argument types shared by the commands: whole numbers in a range, seeds, lists of names.

Each returns a function for argparse's ``type=`` that raises ``ArgumentTypeError`` with a
message naming what was expected, so a bad argument is one line and exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence


def whole(
    minimum: int | None = None, maximum: int | None = None, what: str = "a whole number"
) -> Callable[[str], int]:
    """A whole number within ``[minimum, maximum]`` (either bound optional)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if (minimum is not None and n < minimum) or (maximum is not None and n > maximum):
            if maximum is None:
                bound = f">= {minimum}"
            elif minimum is None:
                bound = f"<= {maximum}"
            else:
                bound = f"from {minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"expected {what} {bound}, got {text!r}")
        return n

    return parse


#: A count of at least 1.
positive = whole(1)
#: A seed: a whole number >= 0.
seed = whole(0)


def names(allowed: Sequence[str], count: int | None = None) -> Callable[[str], list[str]]:
    """A comma-separated list of names out of ``allowed`` (exactly ``count`` of them if given)."""

    def parse(text: str) -> list[str]:
        items = [s.strip() for s in text.split(",") if s.strip()]
        bad = [s for s in items if s not in allowed]
        if not items or bad or (count is not None and len(items) != count):
            n = f"{count} of " if count is not None else ""
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {n}{', '.join(allowed)}, got {text!r}"
            )
        return items

    return parse
