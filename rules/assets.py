"""Locate the shipped data files in the ``assets`` package; read TOML and JSON files with good errors."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from rules.errors import SpecError


def asset_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``asset_path("boards", "side_I.toml")``."""
    return Path(str(resources.files("assets").joinpath(*parts)))


def read_text(path: Path | str, missing: str = "file not found") -> str:
    """A UTF-8 file's text; a missing or unreadable file becomes a :class:`SpecError`."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(str(path), "", missing) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(str(path), "", f"cannot read file ({exc})") from None


def read_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a missing file or a syntax error becomes a :class:`SpecError`."""
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "", f"bad TOML: {exc}") from None


def read_json(path: Path | str, missing: str = "file not found") -> Any:
    """Parse a JSON file; a missing file or a syntax error becomes a :class:`SpecError` with the line."""
    text = read_text(path, missing)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(str(path), f"line {exc.lineno} column {exc.colno}", f"bad JSON: {exc.msg}") from None
