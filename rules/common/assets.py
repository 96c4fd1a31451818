"""Locate the shipped data files in the ``assets`` package; read TOML and JSON files with good errors.

Every input file is read through :func:`read_text`, which bounds what it reads: a file over
:data:`MAX_FILE_BYTES` is refused before it is read; anything but a regular file (a named
pipe, which would wait forever for a writer, ``/dev/zero``, a socket) is refused before a
byte is read (standard input is read by :func:`read_stdin`, where a command takes ``-``); a
folder is named as one; a UTF-8 byte-order mark is skipped. :func:`read_json` also bounds
the nesting depth (:data:`MAX_JSON_DEPTH`) and the length of a number
(:data:`MAX_NUMBER_CHARS`) and refuses ``NaN``/``Infinity``, so no malformed file reaches
Python's recursion or integer-size limits.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import stat
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from rules.common.errors import SpecError

log = logging.getLogger(__name__)


def asset_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``asset_path("boards", "side_I.toml")``."""
    return Path(str(resources.files("assets").joinpath(*parts)))


#: Largest input file read (bytes): boards and states are a few kB, a long save a few MB.
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Deepest nesting of arrays and objects accepted in a JSON file (the formats need 6).
MAX_JSON_DEPTH = 64
#: Longest number accepted in a JSON file (characters; a float needs ~25, a 128-bit generator state 39).
MAX_NUMBER_CHARS = 50
#: Longest file name shown in an error message.
MAX_NAME_SHOWN = 120


def shown_name(path: Path | str) -> str:
    """``path`` as text, shortened for an error message if it is very long."""
    text = str(path)
    if len(text) <= MAX_NAME_SHOWN:
        return text
    return f"{text[: MAX_NAME_SHOWN // 2]}…{text[-MAX_NAME_SHOWN // 2 :]} ({len(text)} characters)"


def same_file(a: Path | str, b: Path | str) -> bool:
    """``a`` and ``b`` name one file: the same resolved path (links followed), or the same
    file on disk (a hard link)."""
    try:
        if os.path.samefile(a, b):
            return True
    except (OSError, ValueError):
        pass
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, ValueError, RuntimeError):
        return False


def read_text(path: Path | str, missing: str = "file not found") -> str:
    """A UTF-8 file's text (a byte-order mark skipped); any failure becomes a :class:`SpecError`."""
    source = shown_name(path)
    if not isinstance(path, (str, os.PathLike)):  # open(0) would read standard input
        raise SpecError(source, "", "not a file name")
    if not os.fspath(path).strip():
        raise SpecError("''", "", "an empty file name: give a file")
    try:
        # O_NONBLOCK: opening a named pipe with no writer would otherwise wait forever; the
        # kind of file is then checked on the open descriptor (no race with a swapped file)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with open(fd, "rb", closefd=True) as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(info.st_mode):
                raise SpecError(
                    source, "", f"is {_file_kind(info.st_mode)}, not a regular file; not a data file"
                )
            if info.st_size > MAX_FILE_BYTES:
                raise SpecError(
                    source, "", f"file too large ({info.st_size} bytes; at most {MAX_FILE_BYTES})"
                )
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SpecError(source, "", missing) from None
    except IsADirectoryError:
        raise SpecError(source, "", "is a folder, not a file") from None
    except OSError as exc:
        raise SpecError(source, "", f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SpecError(source, "", f"more than {MAX_FILE_BYTES} bytes; not a data file")
    log.debug("read %s (%d bytes)", source, len(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(source, f"byte {exc.start}", "not UTF-8 text") from None


def _file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for an error message."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def read_stdin(source: str = "standard input") -> str:
    """Standard input as UTF-8 text, at most :data:`MAX_FILE_BYTES`; any failure a :class:`SpecError`."""
    import sys

    try:
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError, AttributeError) as exc:
        raise SpecError(source, "", f"cannot read it ({exc})") from None
    if len(data) > MAX_FILE_BYTES:
        raise SpecError(source, "", f"more than {MAX_FILE_BYTES} bytes; not a data file")
    if not data.strip():
        raise SpecError(source, "", "empty: nothing was piped in")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(source, f"byte {exc.start}", "not UTF-8 text") from None


def read_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a missing file or a syntax error becomes a :class:`SpecError`."""
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(shown_name(path), "", f"bad TOML: {exc}") from None
    except RecursionError:
        raise SpecError(shown_name(path), "", "bad TOML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        problem = "a number with thousands of digits" if "digits" in str(exc) else str(exc)
        raise SpecError(shown_name(path), "", f"bad TOML: {problem}") from None


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_KEY_COLON = re.compile(r"[ \t\r\n]*:")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    for m in _JSON_TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif tok in "]}":
            depth -= 1
    return deepest


def _repeated_key_place(text: str, key: str) -> str:
    """``"line L column C"`` of the second ``key`` in one object of JSON ``text`` ("" if not found).

    ``json`` hands an object's pairs over without their places, so a duplicate found there is
    looked up again here: the objects are followed through the text (strings skipped) to
    where ``key`` comes a second time in one of them.
    """
    objects: list[set[str] | None] = []  # per open bracket: the keys of an object, None for an array
    for m in _JSON_TOKENS.finditer(text):
        tok = m.group()
        if tok in "[{":
            objects.append(set() if tok == "{" else None)
        elif tok in "]}":
            if objects:
                objects.pop()
        elif objects and objects[-1] is not None and _KEY_COLON.match(text, m.end()):
            try:
                name = json.loads(tok)
            except ValueError:
                continue
            if name == key and name in objects[-1]:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - text.rfind("\n", 0, m.start())
                return f"line {line} column {column}"
            objects[-1].add(name)
    return ""


def parse_json(text: str, source: str) -> Any:
    """Parse JSON ``text`` from ``source`` strictly (depth, number length, no NaN, no key twice in an object), or :class:`SpecError`."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise SpecError(source, "", f"bad JSON: nested more than {MAX_JSON_DEPTH} levels deep")

    def number(kind):
        def parse(s: str):
            if len(s) > MAX_NUMBER_CHARS:
                raise SpecError(
                    source, "", f"bad JSON: a number of {len(s)} characters (at most {MAX_NUMBER_CHARS})"
                )
            value = kind(s)
            if kind is float and not math.isfinite(value):
                raise SpecError(source, "", f"bad JSON: {s} is out of range for a number")
            return value

        return parse

    def constant(s: str):
        raise SpecError(source, "", f"bad JSON: {s} is not a number JSON allows")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:  # json.loads would keep the last silently
                raise SpecError(
                    source,
                    _repeated_key_place(text, key),
                    f"bad JSON: the key {key[:40]!r} appears twice in one object",
                )
            seen[key] = value
        return seen

    try:
        return json.loads(
            text,
            parse_int=number(int),
            parse_float=number(float),
            parse_constant=constant,
            object_pairs_hook=unique,
        )
    except json.JSONDecodeError as exc:
        # the decoder's words end in "... starting at" for the place it names: the place is the
        # message's element, so "at" is said as "here" (a cut-short save read "bad JSON:
        # Unterminated string starting at" — the tenth playtest)
        what = exc.msg[: -len(" at")] + " here" if exc.msg.endswith(" at") else exc.msg
        raise SpecError(source, f"line {exc.lineno} column {exc.colno}", f"bad JSON: {what}") from None
    except RecursionError:
        raise SpecError(source, "", "bad JSON: nested too deeply") from None


def read_json(path: Path | str, missing: str = "file not found") -> Any:
    """Parse a JSON file; a missing file or a syntax error becomes a :class:`SpecError` with the line."""
    return parse_json(read_text(path, missing), shown_name(path))
