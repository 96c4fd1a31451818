"""Run a terminal game through ``doppelx.cli.main`` with a scripted input that also breaks the disk.

The input is a list of lines; a line starting with ``!`` is not typed but done when the game
reads it:

- ``!gone DIR``: remove the folder ``DIR`` with everything in it;
- ``!fill DIR`` / ``!free DIR``: fill the file system of ``DIR`` up to the last byte with
  a file ``DIR/filler`` / remove that file again;
- ``!ro DIR`` / ``!rw DIR``: remount the file system mounted at ``DIR`` read-only / writable
  (needs the mount to be one the process may remount: see ``__main__``).

Run as a script (``python save_faults.py MOUNT -- ARGV... <<< 'lines'``) it mounts a small
tmpfs at ``MOUNT`` first — meant to run under ``unshare -rm`` (a user and mount namespace,
no privileges needed) — then runs ``doppelx ARGV`` with the lines of its standard input
as the script, and exits with the command's exit code.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path


class ScriptedInput(io.TextIOBase):
    """Standard input made of ``lines``; the ``!`` lines are done, not typed (module docstring)."""

    def __init__(self, lines: list[str]):
        self.lines = list(lines)

    def readline(self, size: int = -1) -> str:
        while self.lines:
            line = self.lines.pop(0)
            if not line.startswith("!"):
                return line + "\n"
            do(line)
        return ""


def do(line: str) -> None:
    """Carry out one ``!`` line."""
    word, folder = line[1:].split(" ", 1)
    path = Path(folder)
    if word == "gone":
        shutil.rmtree(path)
    elif word == "fill":
        with open(path / "filler", "ab", buffering=0) as f:
            for block in (65536, 4096, 1):  # big blocks first, then up to the last byte
                with contextlib.suppress(OSError):
                    while True:
                        f.write(b"\0" * block)
    elif word == "free":
        (path / "filler").unlink()
    elif word in ("ro", "rw"):
        subprocess.run(["mount", "-o", f"remount,{word}", str(path)], check=True)
    else:
        raise ValueError(f"unknown scripted action {line!r}")


def main() -> int:
    mount, argv = sys.argv[1], sys.argv[3:]
    os.makedirs(mount, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mount], check=True)
    sys.stdin = ScriptedInput(sys.stdin.read().splitlines())
    from doppelx.cli import main as doppelx_main

    return doppelx_main(argv)


if __name__ == "__main__":
    sys.exit(main())
