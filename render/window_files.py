"""Writing a file whole or not at all, for the window: screenshots and saved games.

The writing itself is the project's one atomic writer, :mod:`rules.common.atomic` (a temporary
file beside the target, fsync, rename; the target untouched on failure). The window's
files add one thing: a missing folder for them is made first (``--save-file saves/g.json``).
Failures are :class:`FileWriteError` (the same class as :class:`rules.common.atomic.OutputError`)
naming the path and the reason, for the window to show.
"""

from __future__ import annotations

from pathlib import Path

from rules.common.atomic import OutputError, write_bytes

#: A file could not be written (the message names it and says why).
FileWriteError = OutputError


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (its folder made if missing); returns the path.

    Raises:
        FileWriteError: the folder cannot be made, ``path`` is a folder, or writing failed.
    """
    path = Path(path)
    if "\0" not in str(path) and path.is_dir():
        raise FileWriteError(f"cannot write {path}: it is a folder")
    try:
        if "\0" not in str(path) and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileWriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    return write_bytes(path, data, what="")


__all__ = ["FileWriteError", "write_atomic"]
