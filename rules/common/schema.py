"""Typed access to parsed TOML/JSON tables, raising :class:`SpecError` with the element path.

Every loader reads through a :class:`DataTable`, so every mistake in any data file is reported
the same way: the file, the element (``fields[3].polygon``) and what was expected.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from typing import Any, overload

from rules.common.errors import SpecError

#: Longest name, title, id or die owner (characters): shown in lists and windows.
MAX_TEXT_CHARS = 80

_MISSING = object()
#: Largest magnitude of any number in a data file (ints beyond it cannot become floats sanely).
MAX_MAGNITUDE = 1e15


def plain_digits(text: str, most: int = 18) -> bool:
    """``text`` is 1 to ``most`` ASCII digits: a whole number a player or a file may write.

    ``str.isdecimal`` alone also takes other scripts' digits (``٣``, the fullwidth ``３``),
    which ``int`` then reads as numbers; and a number of thousands of digits is no answer.
    """
    return 0 < len(text) <= most and text.isascii() and text.isdecimal()


class DataTable:
    """A mapping from a data file, with its source name and element path for errors."""

    def __init__(self, data: Any, source: str, path: str = ""):
        if not isinstance(data, dict):
            raise SpecError(source, path or "top level", f"expected a table/object, got {_type(data)}")
        self.data = data
        self.source = source
        self.path = path

    # -- errors ---------------------------------------------------------------------------
    def where(self, key: str | int | None = None) -> str:
        """The element path of ``key`` inside this table."""
        if key is None:
            return self.path or "top level"
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        key = _short(key)
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str | None, problem: str) -> SpecError:
        return SpecError(self.source, self.where(key), problem)

    def check_keys(self, allowed: set[str]) -> None:
        """Reject unknown keys (typos must not pass silently)."""
        unknown = sorted(set(self.data) - allowed)
        if unknown:
            raise self.error(unknown[0], f"unknown key; allowed keys are {', '.join(sorted(allowed))}")

    # -- getters --------------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.data:
            if default is _MISSING:
                raise self.error(key, "missing")
            return default
        return self.data[key]

    @overload
    def table(self, key: str) -> DataTable: ...
    @overload
    def table(self, key: str, default: None) -> DataTable | None: ...
    @overload
    def table(self, key: str, default: dict[str, Any]) -> DataTable: ...
    def table(self, key: str, default: Any = _MISSING) -> DataTable | None:
        """The sub-table ``key``; ``None`` only when absent and the default is ``None``."""
        value = self.raw(key, default)
        if value is None and default is None:
            return None
        return DataTable(value, self.source, self.where(key))

    def tables(self, key: str, required: bool = False) -> Iterator[DataTable]:
        """Each element of an array of tables ``key`` (empty if absent and not required)."""
        value = self.raw(key, _MISSING if required else [])
        if not isinstance(value, list):
            raise self.error(key, f"expected an array of tables, got {_type(value)}")
        for i, item in enumerate(value):
            yield DataTable(item, self.source, f"{self.where(key)}[{i}]")

    def string(self, key: str, default: Any = _MISSING, choices: tuple[str, ...] | None = None) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise self.error(key, f"expected a non-empty string, got {_type(value)}")
        if choices is not None and value not in choices:
            raise self.error(key, f"unknown value {_short(value)!r}; expected one of {', '.join(choices)}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        """A name, title, id or die owner: shown in lists and windows, so one line of 1 to
        :data:`MAX_TEXT_CHARS` characters without control characters.

        Only a value the file gives is checked; a ``default`` (from a file's name, say) is
        taken as it is.
        """
        if default is not _MISSING and not self.has(key):
            return default
        text = self.string(key)
        bad = next((ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")), None)
        if bad is not None:
            raise self.error(
                key, f"a control character ({ascii(bad)}) in {text[:40]!r}; give one line of text"
            )
        if not text.strip() or len(text) > MAX_TEXT_CHARS:
            raise self.error(key, f"must be 1 to {MAX_TEXT_CHARS} characters of text")
        return text

    def boolean(self, key: str, default: Any = _MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_type(value)}")
        return value

    def number(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        positive: bool = False,
        minimum: float | None = None,
        maximum: float | None = None,
    ) -> float:
        value = self.raw(key, default)
        return check_number(
            value, self.source, self.where(key), positive=positive, minimum=minimum, maximum=maximum
        )

    def integer(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int:
        value = self.raw(key, default)
        return check_integer(value, self.source, self.where(key), minimum=minimum, maximum=maximum)

    def optional_integer(
        self, key: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        """A whole number, or ``None`` when ``key`` is absent or ``null``."""
        if self.raw(key, None) is None:
            return None
        return self.integer(key, minimum=minimum, maximum=maximum)

    def optional_string(self, key: str, choices: tuple[str, ...] | None = None) -> str | None:
        """A non-empty string, or ``None`` when ``key`` is absent or ``null``."""
        if self.raw(key, None) is None:
            return None
        return self.string(key, choices=choices)

    def array(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        length: int | None = None,
        shortest: int = 0,
        longest: int | None = None,
        what: str = "entries",
    ) -> list[Any]:
        """The list ``key`` (its entries unchecked), of ``length`` entries, or ``shortest`` to
        ``longest``; ``what`` names the entries in the error (``"bots"``)."""
        value = self.raw(key, default)
        if length is not None:
            shortest = longest = length
        if not isinstance(value, list):
            raise self.error(
                key, f"expected a list of {_count(shortest, longest)} {what}, got {_type(value)}"
            )
        if len(value) < shortest or (longest is not None and len(value) > longest):
            raise self.error(key, f"expected {_count(shortest, longest)} {what}, got {len(value)}")
        return value

    def item(self, key: str, index: int) -> str:
        """The element path of entry ``index`` of the list ``key`` (``log[3]``)."""
        return f"{self.where(key)}[{index}]"

    def integers(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        length: int | None = None,
        shortest: int = 0,
        longest: int | None = None,
        what: str = "whole numbers",
    ) -> list[int]:
        """A list of whole numbers, each from ``minimum`` to ``maximum``; the length as :meth:`array`'s."""
        values = self.array(key, default, length=length, shortest=shortest, longest=longest, what=what)
        return [
            check_integer(v, self.source, self.item(key, i), minimum=minimum, maximum=maximum)
            for i, v in enumerate(values)
        ]

    def strings(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        choices: tuple[str, ...] | None = None,
        length: int | None = None,
        shortest: int = 0,
        longest: int | None = None,
        what: str = "strings",
    ) -> list[str]:
        """A list of non-empty strings (each one of ``choices`` if given); the length as :meth:`array`'s."""
        values = self.array(key, default, length=length, shortest=shortest, longest=longest, what=what)
        for i, v in enumerate(values):
            where = self.item(key, i)
            if not isinstance(v, str) or not v:
                raise SpecError(self.source, where, f"expected a non-empty string, got {_type(v)}")
            if choices is not None and v not in choices:
                raise SpecError(
                    self.source, where, f"unknown value {_short(v)!r}; expected one of {', '.join(choices)}"
                )
        return values

    def vector(self, key: str, length: int, default: Any = _MISSING) -> tuple[float, ...]:
        value = self.raw(key, default)
        return check_vector(value, length, self.source, self.where(key))

    def points(self, key: str, default: Any = _MISSING) -> list[tuple[float, float]]:
        """A list of at least 3 ``[x, y]`` pairs (a polygon ring)."""
        value = self.raw(key, default)
        where = self.where(key)
        if not isinstance(value, list) or len(value) < 3:
            raise SpecError(self.source, where, "expected a list of at least 3 [x, y] points")
        return [check_vector(p, 2, self.source, f"{where}[{i}]") for i, p in enumerate(value)]  # type: ignore[misc]


def check_number(
    value: Any,
    source: str,
    where: str,
    *,
    positive: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> float:
    """``value`` as a finite float, or a :class:`SpecError` saying why not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SpecError(source, where, f"expected a number, got {_type(value)}")
    if isinstance(value, int) and abs(value) > MAX_MAGNITUDE:
        raise SpecError(source, where, f"number out of range (more than {MAX_MAGNITUDE:.0e} in size)")
    if not math.isfinite(value):
        raise SpecError(source, where, f"expected a finite number, got {value}")
    if abs(value) > MAX_MAGNITUDE:
        raise SpecError(
            source, where, f"number out of range (more than {MAX_MAGNITUDE:.0e} in size), got {value:g}"
        )
    if positive and value <= 0:
        raise SpecError(source, where, f"must be positive, got {value}")
    if minimum is not None and value < minimum:
        raise SpecError(source, where, f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise SpecError(source, where, f"must be at most {maximum}, got {value}")
    return float(value)


def check_integer(
    value: Any, source: str, where: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum``, or a :class:`SpecError` saying why not."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and abs(value) < MAX_MAGNITUDE:
            raise SpecError(source, where, f"expected a whole number written without a point, got {value}")
        raise SpecError(source, where, f"expected a whole number, got {_type(value)}")
    # an explicit range decides (a seed may pass 1e15); without one, a size no count has is refused
    if (maximum is None or minimum is None) and abs(value) > MAX_MAGNITUDE:
        if (maximum is None and value > 0) or (minimum is None and value < 0):
            raise SpecError(source, where, f"number out of range (more than {MAX_MAGNITUDE:.0e} in size)")
    if minimum is not None and value < minimum:
        raise SpecError(source, where, f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise SpecError(source, where, f"must be at most {maximum}, got {value}")
    return value


def check_vector(value: Any, length: int, source: str, where: str) -> tuple[float, ...]:
    """``value`` as a tuple of ``length`` finite floats."""
    if not isinstance(value, list) or len(value) != length:
        raise SpecError(source, where, f"expected a list of {length} numbers, got {_type(value)}")
    return tuple(check_number(v, source, f"{where}[{i}]") for i, v in enumerate(value))


def describe(value: Any) -> str:
    """A value named for an error message in the file's own words: ``null``, ``number 1``,
    ``string 'x'``, ``a list of 2``, ``a table`` (long strings cut short)."""
    return _type(value)


def _count(shortest: int, longest: int | None) -> str:
    """How many entries a list needs, in words: ``2``, ``1 to 4``, ``at least 1``, ``any number of``."""
    if longest is None:
        return f"at least {shortest}" if shortest else "any number of"
    return str(shortest) if shortest == longest else f"{shortest} to {longest}"


def _short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for an error message (its length named)."""
    text = str(text)
    return text if len(text) <= limit else f"{text[: limit - 10]}…({len(text)} chars)"


def _type(value: Any) -> str:
    """How an error names a value of the wrong type, in the file's own words (JSON ``null``)."""
    if value is _MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"string {_short(value)!r}"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int) and abs(value) > MAX_MAGNITUDE:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__
