"""Writing a file whole or not at all: a temporary file beside it, fsync, then rename.

Used for screenshots and saved games, so a full disk, a folder in the way or a crash
mid-write never leaves a half-written file or a stray temporary one behind. Failures
become :class:`FileWriteError` naming the path and the reason, for the window to show.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from rules.errors import DoppelXError


class FileWriteError(DoppelXError):
    """A file could not be written (the message names it and says why)."""


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path.

    Raises:
        FileWriteError: the folder cannot be made, ``path`` is a folder, or writing failed.
    """
    path = Path(path)
    if "\0" not in str(path) and path.is_dir():
        raise FileWriteError(f"cannot write {path}: it is a folder")
    parent = path.parent if str(path.parent) else Path(".")
    tmp: str | None = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode(path))  # as an ordinary new file (mkstemp makes it private)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise FileWriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. a NUL character in the name
        raise FileWriteError(f"cannot write {path}: {exc}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def _mode(path: Path) -> int:
    """The permissions the file keeps (if it exists) or a new file gets under the umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


__all__ = ["FileWriteError", "write_atomic"]
