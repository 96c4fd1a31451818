"""The shared terminal driver at a real terminal (a pseudo-terminal): arrow-key history
through readline, and the status bar."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


class Pty:
    """``python -m doppelx ARGS`` with a pseudo-terminal as its standard streams."""

    def __init__(self, *args: str):
        self.master, slave = pty.openpty()
        env = dict(os.environ, TERM="xterm", NO_COLOR="1", COLUMNS="100", LINES="40")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "doppelx", *args], stdin=slave, stdout=slave, stderr=slave, env=env
        )
        os.close(slave)
        self.text = ""

    def read_until(self, needle: str, timeout: float = 60.0, count: int = 1) -> str:
        """Read until ``needle`` has appeared ``count`` times."""
        end = time.monotonic() + timeout
        while self.text.count(needle) < count:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {needle!r} in:\n{self.text}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended without {needle!r}:\n{self.text}")
                self.text += chunk.decode("utf-8", "replace")
        return self.text

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_arrow_up_recalls_the_last_answer_and_a_status_bar_shows():
    term = Pty("blitz", "--seed", "3", "--bots", "easy", "--no-colour")
    try:
        term.read_until("Press Enter to lift the box")
        term.send("help\r")
        term.read_until("Commands (with an example each):")
        term.read_until("Press Enter to lift the box (q = quit): ", 30, count=2)
        term.send("\x1b[A\r")  # arrow up: 'help' again
        term.read_until("Commands (with an example each):", 30, count=2)
        assert "not accepted" not in term.text
        assert "[Würfelblitz · round 1 · You 0/3w 0/3b" in term.text
        term.send("q\r")
        term.read_until("Game stopped.")
    finally:
        assert term.close() == 0
