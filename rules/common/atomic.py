"""Write output files atomically: a temporary file in the target's folder, fsync, rename.

Every file the project writes (pictures, replays, saves, reports, Parquet chunks) goes
through :func:`atomic_write`, so the target is either the old file, untouched, or the
complete new one — never a truncated file after a full disk, a crash or ``kill -9``.

The temporary file is hidden, ``.NAME.PID.RANDOM.tmp``, and is removed on every failure
Python sees; one left by a process that was killed outright (``kill -9``, power loss) is
removed by the next write of the same file once its process is gone. Problems a user can
cause (a missing or read-only folder, a path that is a folder, a full disk) raise
:class:`OutputError`: one line naming the file.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from rules.common.errors import DoppelXError
from rules.common.schema import plain_digits


class OutputError(DoppelXError, OSError):
    """An output file or folder cannot be written (the message names it and why).

    Also an :class:`OSError`, so code that already handles failed writes that way keeps
    working; ``strerror`` holds the reason (the message after the file's name).
    """

    def __init__(self, message: str):
        super().__init__(message)
        self.strerror = message.split(": ", 1)[-1]  # the reason, as an OSError's strerror


def _label(what: str, path) -> str:
    """``"picture board.png"``, or just the path when ``what`` is empty."""
    return f"{what} {path}" if what else str(path)


def _reason(exc: OSError) -> str:
    return exc.strerror.lower() if exc.strerror else str(exc)


def check_output_file(path: Path | str, what: str = "output file") -> Path:
    """``path`` as a :class:`Path` whose folder exists and is writable; else :class:`OutputError`.

    Checks what can be checked before a long run starts; :func:`atomic_write` still
    handles everything that goes wrong later (a full disk).
    """
    text = str(path)
    if not text or "\0" in text:
        raise OutputError(f"cannot write {_label(what, text)}: not a valid file name")
    path = Path(text)
    try:
        if path.is_dir():
            raise OutputError(
                f"cannot write {_label(what, path)}: it is a folder; give a file name inside it"
            )
        if path.exists() and not path.is_file():  # a device, a pipe, a socket: never replaced by a file
            raise OutputError(
                f"cannot write {_label(what, path)}: it is not a regular file (a device or a pipe); "
                "give a file name"
            )
        folder = path.parent
        if not folder.exists():
            raise OutputError(f"cannot write {_label(what, path)}: folder {folder} does not exist")
        if not folder.is_dir():
            raise OutputError(f"cannot write {_label(what, path)}: {folder} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write {_label(what, path)}: folder {folder} is not writable")
    except OutputError:
        raise
    except OSError as exc:  # name too long, loops of links, …
        raise OutputError(f"cannot write {_label(what, text[:200])}: {_reason(exc)}") from None
    return path


def prepare_output_dir(path: Path | str, what: str = "output folder") -> Path:
    """Create the folder ``path`` (and its parents) if needed; any failure is an :class:`OutputError`."""
    text = str(path)
    if not text or "\0" in text:
        raise OutputError(f"{what} {text!r}: not a valid folder name")
    path = Path(text)
    try:
        if path.exists() and not path.is_dir():
            raise OutputError(f"cannot use {what} {path}: it is a file, not a folder")
        for parent in path.parents:
            if parent.exists() and not parent.is_dir():
                raise OutputError(f"cannot use {what} {path}: {parent} is a file, not a folder")
            if parent.exists():
                break
        path.mkdir(parents=True, exist_ok=True)
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputError(f"cannot use {what} {path}: it is not writable")
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot create {what} {text[:200]}: {_reason(exc)}") from None
    return path


@contextlib.contextmanager
def atomic_write(
    path: Path | str, mode: str = "wb", *, encoding: str | None = None, what: str = "output file"
) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on a clean exit it replaces ``path`` atomically.

    Args:
        path: the target; its folder must exist (:func:`check_output_file`).
        mode: ``"wb"`` or ``"w"`` (text, UTF-8 unless ``encoding`` is given).
        what: how the file is named in an error (``"save file"``, ``"picture"``).

    If the body raises, or writing fails, the target is untouched and the temporary file
    is gone. A failing write (a full disk) raises :class:`OutputError`.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', got {mode!r}")
    path = check_output_file(path, what)
    folder = path.parent
    try:
        mode_bits = os.stat(path).st_mode & 0o777
    except OSError:
        mode_bits = None
    _remove_stale_temps(folder, path.name)
    try:
        fd, named = tempfile.mkstemp(prefix=f".{path.name[:100]}.{os.getpid()}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write {_label(what, path)}: {_reason(exc)}") from None
    committed = False
    try:
        if mode_bits is None:  # mkstemp makes 0600; give a new file the usual mode
            umask = os.umask(0)
            os.umask(umask)
            mode_bits = 0o666 & ~umask
        os.fchmod(fd, mode_bits)
        with os.fdopen(fd, mode, encoding=(encoding or "utf-8") if mode == "w" else None, closefd=False) as f:
            yield f
            f.flush()
        os.fsync(fd)
        os.replace(named, path)
        committed = True
        _fsync_dir(folder)
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {_label(what, path)}: {_reason(exc)}") from None
    finally:
        os.close(fd)
        if not committed:
            with contextlib.suppress(OSError):
                os.unlink(named)


def write_bytes(path: Path | str, data: bytes, what: str = "output file") -> Path:
    """Write ``data`` to ``path`` atomically; returns the path."""
    with atomic_write(path, "wb", what=what) as f:
        f.write(data)
    return Path(path)


def write_text(path: Path | str, text: str, what: str = "output file") -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns the path."""
    return write_bytes(path, text.encode("utf-8"), what)


def _remove_stale_temps(folder: Path, name: str) -> None:
    """Remove temporary files of ``name`` left by writers that no longer run (killed outright)."""
    try:
        leftovers = list(folder.glob(f".{glob.escape(name[:100])}.*.tmp"))
    except OSError:
        return
    for tmp in leftovers:
        parts = tmp.name[len(name[:100]) + 2 :].split(".")
        if len(parts) != 3 or not plain_digits(parts[0]):
            continue
        pid = int(parts[0])
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                tmp.unlink()
        except OSError:
            pass


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (best effort: not every platform can open a folder)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def save_figure(fig: Any, path: Path | str, *, dpi: float, what: str = "picture") -> Path:
    """Save a matplotlib figure to ``path`` atomically, in the format its suffix names (PNG by default)."""
    fmt = Path(str(path)).suffix.lstrip(".").lower() or "png"
    with atomic_write(path, "wb", what=what) as f:
        fig.savefig(f, format=fmt, dpi=dpi)
    return Path(path)


def refuse_input_as_output(out: Path | str, inputs: dict[str, Path | str], what: str = "output file") -> None:
    """Refuse to write ``out`` when it is one of the files the command reads (``inputs``:
    how each is named → its path): writing it would destroy the input. Else nothing."""
    from rules.common.assets import same_file, shown_name

    for name, path in inputs.items():
        if same_file(out, path):
            raise OutputError(
                f"cannot write {what} {shown_name(out)}: it is the {name} this command reads; "
                "give another file name"
            )
