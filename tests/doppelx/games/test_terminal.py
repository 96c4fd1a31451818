"""The shared terminal driver (doppelx.terminal.TerminalMatch): at a real terminal (a
pseudo-terminal) arrow-key history through readline and the status bar; with scripted
streams the shared words, refusals, status bars and saving."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time

import pytest

from doppelx.terminal import PromptCommand, Terminal, TerminalMatch

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


# --- the driver base class with scripted streams ------------------------------------------


class CounterMatch(TerminalMatch):
    """A tiny game for the driver: type numbers until they add up to 10."""

    command = "counter"

    def __init__(self, lines: str, save_path=None):
        super().__init__(Terminal(io.StringIO(lines), io.StringIO(), colour=False), save_path)
        self.total, self.peeks = 0, 0

    def play(self):
        while self.total < 10:
            self.total += self.prompt("number > ", self.parse)

    def parse(self, answer):
        if not answer.isdigit():
            raise ValueError(f"{answer!r} is not a number")
        return int(answer)

    def finished(self):
        self.term.say(f"done at {self.total}")

    def status_line(self):
        return f"total {self.total}"

    def commands(self):
        return [PromptCommand("4", "add 4"), PromptCommand("peek", "count a peek")]

    def words(self):
        return {"peek": self.peek}

    def peek(self):
        self.peeks += 1

    def to_save(self):
        return {"total": self.total}

    def stopped(self, why):
        self.term.say(f"stopped at {self.total} ({why})")


def test_the_driver_answers_help_words_and_refusals_and_finishes():
    game = CounterMatch("help\npeek\nx\n4\n6\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert game.total == 10 and game.peeks == 1 and "done at 10" in text
    assert "Commands (with an example each):" in text and "  peek  count a peek" in text
    assert text.count("not accepted") == 1 and "'x' is not a number" in text
    assert text.count("[total ") == 2  # one status bar per question asked, not per re-ask


def test_quit_and_end_of_input_save_when_a_file_is_known(tmp_path):
    game = CounterMatch("4\nquit\n", tmp_path / "c.json")
    assert game.run() == 0
    assert json.loads((tmp_path / "c.json").read_text()) == {"total": 4}
    text = game.term.out.getvalue()
    assert "stopped at 4 (you quit)" in text
    assert f"you quit: game saved to {tmp_path / 'c.json'} (resume with: doppelx counter --resume" in text
    game = CounterMatch("4\n")
    assert game.run() == 0
    assert "input ended: game not saved" in game.term.out.getvalue()


def test_the_save_word_asks_for_a_file_and_reports_a_failure(tmp_path):
    target = tmp_path / "asked.json"
    game = CounterMatch(f"save\n{target}\n9\nsave\n\n1\n")
    assert game.run() == 0
    assert game.save_path == target and f"game saved to {target}" in game.term.out.getvalue()
    game = CounterMatch(f"save\n{tmp_path / 'missing' / 'x.json'}\n\n10\n")
    assert game.run() == 0
    assert "no such folder" in game.term.out.getvalue() and game.save_path is None
    game = CounterMatch("save\n\n10\n")
    assert game.run() == 0 and "not saved" in game.term.out.getvalue() and game.save_path is None


def test_the_save_word_never_overwrites_a_file_that_is_there(tmp_path):
    other = tmp_path / "other.json"
    other.write_text("KEEP")
    target = tmp_path / "new.json"
    game = CounterMatch(f"save\n{other}\n{target}\n9\n")
    assert game.run() == 0
    assert other.read_text() == "KEEP"
    assert f"{other} already exists: not overwritten" in game.term.out.getvalue()
    assert game.save_path == target and json.loads(target.read_text()) == {"total": 9}
    game = CounterMatch(f"save\n{other}\n\n9\n")  # or gives up: nothing written
    assert game.run() == 0 and other.read_text() == "KEEP" and game.save_path is None


@pytest.mark.parametrize(
    "bad, says",
    [
        ("y" * 5000, "not a usable file name"),  # the system's limit: a traceback ended the game
        (".", "is a folder; give a file name inside it"),
        ("nodir/x.json", "no such folder"),
    ],
)
def test_a_save_that_cannot_be_made_asks_again_and_loses_nothing(tmp_path, monkeypatch, bad, says):
    """The sibling-games audit of session 10: after a failed save the next line went to the
    game as a move, so a player who then quit lost the game; a 5000-character name crashed."""
    monkeypatch.chdir(tmp_path)
    game = CounterMatch(f"4\nsave\n{bad}\nkept.json\nquit\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert says in text and "not accepted" not in text  # 'kept.json' was taken as the file
    assert json.loads((tmp_path / "kept.json").read_text()) == {"total": 4}
    assert "you quit: game saved to kept.json" in text
    assert max(len(line) for line in text.splitlines()) < 300  # the long name is not echoed whole


def test_a_move_typed_at_the_save_prompt_is_no_save_file(tmp_path, monkeypatch):
    """Thirteenth playtest: after a failed save the game asked for a file, the player typed a
    move ("1") and got "game saved to 1". A name without an ending is asked about instead."""
    monkeypatch.chdir(tmp_path)
    game = CounterMatch("4\nsave\n1\nkept.json\nquit\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert "'1' has no ending such as .json: is it a move?" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]
    assert "you quit: game saved to kept.json" in text


def test_save_takes_a_file_at_once_and_a_tilde_is_the_home_folder(tmp_path, monkeypatch):
    """Fourteenth playtest: "save /tmp/…/s.json" was "not accepted: … is not a number", and
    "~/mysave.json" at the save prompt was "~: no such folder"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    game = CounterMatch("help\n4\nsave first.json\n3\nsave ~/second.json\nquit\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert "not accepted" not in text and "save FILE.json: to that file" in text  # (help shows it)
    assert json.loads((tmp_path / "first.json").read_text()) == {"total": 4}
    assert json.loads((tmp_path / "home" / "second.json").read_text()) == {"total": 7}
    assert game.save_path == tmp_path / "home" / "second.json"
    game = CounterMatch("4\nsave\n~/third.json\nquit\n")  # the prompt's answer too
    assert game.run() == 0
    assert json.loads((tmp_path / "home" / "third.json").read_text()) == {"total": 4}


@pytest.mark.parametrize("word", ["quit", "Q", "help", "save"])
def test_a_command_word_is_no_save_file_name(tmp_path, monkeypatch, word):
    """'save' then 'quit' made a save file named "quit" (the newcomer audit, Das Doppel Spiel)."""
    monkeypatch.chdir(tmp_path)
    game = CounterMatch(f"4\nsave\n{word}\nkept.json\nquit\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert f"{word.lower()!r} is a command, not a file name" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]
    assert "you quit: game saved to kept.json" in text


def test_a_known_save_file_that_fails_asks_for_another(tmp_path):
    game = CounterMatch(f"4\nsave\n{tmp_path / 'b.json'}\n6\n", tmp_path / "gone" / "a.json")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert "could not save to" in text and f"game saved to {tmp_path / 'b.json'}" in text
    assert game.save_path == tmp_path / "b.json"


def test_a_pasted_line_is_refused_without_being_echoed():
    game = CounterMatch("x" * 100_000 + "\n10\n")
    assert game.run() == 0
    text = game.term.out.getvalue()
    assert "not accepted: a line of 100000 characters" in text and max(map(len, text.splitlines())) < 200


def test_numbers_are_ascii_digits_only():
    """``str.isdecimal`` took ٣ and the fullwidth ３ as 3 (every sibling game's prompts)."""
    from rules.common.schema import plain_digits

    assert plain_digits("3") and plain_digits("012") and plain_digits("9" * 18)
    for text in ("٣", "３", "", "1_0", " 3", "-1", "9" * 19, "²"):
        assert not plain_digits(text), text


@pytest.mark.parametrize(
    "state",
    [
        "abc",
        {"bit_generator": "PCG64", "state": {"state": "abc", "inc": 1}, "has_uint32": 0, "uinteger": 0},
        {"bit_generator": "MT19937", "state": {"key": [1], "pos": 0}},
        {"bit_generator": "PCG64", "state": {"state": -1, "inc": 1}, "has_uint32": 0, "uinteger": 0},
    ],
)
def test_a_damaged_generator_state_names_its_key(state):
    """A clever save with a string in its generator state said "unsupported operand type(s)
    for //: 'str' and 'int'" (sibling-games audit)."""
    import numpy as np

    from doppelx.terminal import set_rng_state
    from rules.common.errors import SpecError

    with pytest.raises(SpecError) as err:
        set_rng_state(np.random.default_rng(1), state, "s.json", "dice_rng")
    assert err.value.element == "dice_rng" and "not a saved random generator" in str(err.value)
    good = np.random.default_rng(7)
    twin = np.random.default_rng(0)
    set_rng_state(twin, good.bit_generator.state, "s.json", "dice_rng")
    assert twin.integers(1 << 60) == good.integers(1 << 60)


@pytest.mark.parametrize(
    "game",
    [
        ["doppel", "--seed", "1"],
        ["clever", "--seed", "1", "--save", "{tmp}/c.json"],
        ["oder-nichts", "--seed", "1"],
        ["blitz", "--seed", "1", "--bots", "easy"],
    ],
)
def test_every_game_refuses_other_scripts_digits(tmp_path, game):
    """``٣`` took suggestion 3 in doppel, choice 3 in clever, played card 3 in oder-nichts and
    was called as 3 in blitz (the sibling-games audit of session 10)."""
    args = [a.replace("{tmp}", str(tmp_path)) for a in game]
    first = "\n" if game[0] == "blitz" else ""  # blitz: Enter lifts the box first
    proc = subprocess.run(
        [sys.executable, "-m", "doppelx", *args, "--no-colour"],
        input=first + "٣\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, NO_COLOR="1"),
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not accepted" in proc.stdout, proc.stdout[-2000:]
    assert "Traceback" not in proc.stderr
