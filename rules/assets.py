"""Locate the shipped data files in the ``assets`` package and read TOML with good errors."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from rules.errors import SpecError


def asset_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``asset_path("boards", "side_I.toml")``."""
    return Path(str(resources.files("assets").joinpath(*parts)))


def read_toml(path: Path | str) -> dict[str, Any]:
    """Parse a TOML file; a missing file or a syntax error becomes a :class:`SpecError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(str(path), "", f"cannot read file ({exc})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "", f"bad TOML: {exc}") from None
