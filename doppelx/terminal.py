"""The terminal games' shared driver: colour, prompts, history, status bar, help, save and quit.

:class:`Terminal` is the input/output pair (ANSI colour when wanted; arrow-key history
through :mod:`readline` when the person types at a real terminal). :class:`TerminalMatch` is
the one base class of the four terminal games: its :meth:`~TerminalMatch.prompt` shows a
one-line status bar, reads an answer, handles the words every game knows (``help``,
``save``, ``quit``) and the game's own extra words, and re-asks with the reason when the
game's parser refuses the answer; its :meth:`~TerminalMatch.run` turns ``quit``, Ctrl-C and
the end of the input into a clean stop that saves when a save file is known.

A save that fails (a full disk, a folder gone, a read-only folder) never stops the game:
the reason is shown and the game goes on. If the game then stops with its last save
failed and none made since, the command ends with one line naming the file and exit
code 2 (:class:`GameNotSaved`), so a script or shell sees that the game was lost.

Every interactive command takes its input and output streams as arguments, so tests drive
a whole game through the prompt with scripted lines.
"""

from __future__ import annotations

import abc
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from rules.common.assets import read_json
from rules.common.atomic import write_text
from rules.common.errors import DoppelXError, SpecError

_ANSI = {
    "reset": "0",
    "bold": "1",
    "dim": "2",
    "black": "30",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "white": "37",
    "grey": "90",
    "orange": "38;5;208",
    "pink": "38;5;213",
    "purple": "35",
    "silver": "37",
    "reverse": "7",
}

#: Words that stop a game at any prompt.
QUIT_WORDS = ("quit", "q", "exit")


class Quit(Exception):
    """The person asked to stop the game (``quit`` at a prompt)."""


class GameNotSaved(DoppelXError):
    """The game stopped while its last save had failed (the message names the file and why)."""


class Terminal:
    """Input/output pair with optional ANSI colour.

    Colour is on when the output is a TTY and ``NO_COLOR`` is unset, unless forced.
    """

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None, colour: bool | None = None):
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        if colour is None:
            colour = bool(getattr(self.out, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ
        self.colour = colour

    def paint(self, text: str, *styles: str) -> str:
        """``text`` wrapped in the ANSI codes of ``styles`` (names in ``_ANSI``) if colour is on."""
        if not self.colour or not styles:
            return text
        codes = ";".join(_ANSI[s] for s in styles if s in _ANSI)
        return f"\x1b[{codes}m{text}\x1b[0m" if codes else text

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    @property
    def interactive(self) -> bool:
        """True when a person types at a real terminal (standard input and output are TTYs)."""
        return (
            self.inp is sys.stdin
            and self.out is sys.stdout
            and bool(getattr(self.inp, "isatty", lambda: False)())
            and bool(getattr(self.out, "isatty", lambda: False)())
        )

    def read_line(self, prompt: str) -> str:
        """One line of input; raises ``EOFError`` when the input ends.

        At a real terminal the line is read through :mod:`readline`: the arrow keys edit the
        line and recall earlier answers (history), as in a shell.
        """
        if self.interactive:
            _enable_history()
            return input(prompt).strip()
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            raise EOFError("input ended")
        return line.strip()

    def status(self, text: str) -> None:
        """Show ``text`` as a one-line status bar (cut to the terminal's width)."""
        width = shutil.get_terminal_size((80, 24)).columns if self.interactive else 110
        line = text if len(text) <= width - 2 else text[: width - 3] + "…"
        if self.colour:
            self.say(self.paint(" " + line.ljust(width - 2), "reverse"))
        else:
            self.say("[" + line + "]")


_history_ready = False


def _enable_history() -> None:
    """Load :mod:`readline` once, so :func:`input` keeps a history for the arrow keys."""
    global _history_ready
    if not _history_ready:
        try:
            import readline  # noqa: F401  (importing it turns line editing and history on)
        except ImportError:  # some platforms have no readline; input() still works
            pass
        _history_ready = True


@dataclass(frozen=True)
class PromptCommand:
    """A word a person may type at a prompt, shown by ``help`` with one example.

    Attributes:
        example: what to type, e.g. ``"roll 1 1 4"``.
        text: what it does.
    """

    example: str
    text: str


class TerminalMatch(abc.ABC):
    """Base of the terminal games: the prompt loop, status bar, help, save and quit.

    A game subclasses it and provides :meth:`play` (the game until its end),
    :meth:`status_line`, :meth:`commands`, :meth:`to_save` and optionally :meth:`stopped`,
    :meth:`words` (extra words such as ``sheet``) and :attr:`default_save`.

    Args:
        term: the terminal.
        save_path: where ``save``, ``quit`` and the end of the input save (``None``: ``save``
            asks for a file; ``quit`` and the end of input do not save).
    """

    #: the ``doppelx`` sub-command, for the "resume with" hint
    command = ""
    #: a save file used when none was given (``None``: ask on ``save``, none on quit)
    default_save: Path | None = None

    def __init__(self, term: Terminal, save_path: Path | None = None):
        self.term = term
        self.save_path = save_path
        #: the file and the reason of the last save that failed, while no save has succeeded since
        self.failed_save: tuple[Path, str] | None = None

    # -- what a game provides -------------------------------------------------------------
    @abc.abstractmethod
    def play(self) -> None:
        """Play until the game is over (raises :class:`Quit` or ``EOFError`` to stop early)."""

    def finished(self) -> None:
        """Show the result once the game is over (an optional hook: nothing by default)."""
        return None

    def status_line(self) -> str:
        """The one-line status shown above every prompt."""
        return ""

    def commands(self) -> Sequence[PromptCommand]:
        """The game's own commands (``help`` lists them, then the shared ones)."""
        return ()

    def words(self) -> dict[str, Callable[[], None]]:
        """Extra words answered at every prompt (e.g. ``sheet``): word -> what to do."""
        return {}

    @abc.abstractmethod
    def to_save(self) -> dict[str, Any]:
        """The game as JSON-able save data."""

    def stopped(self, why: str) -> None:
        """Say what the game looked like when it was stopped early (``why``: "you quit", …).

        An optional hook: nothing by default.
        """
        return None

    # -- the prompt -----------------------------------------------------------------------
    def shared_commands(self) -> list[PromptCommand]:
        return [
            PromptCommand("help", "list the commands"),
            PromptCommand(
                "save",
                "save the game and go on"
                + ("" if self.save_file() else " (asks for a file)")
                + "; save FILE.json: to that file",
            ),
            PromptCommand("quit", "stop" + (" (the game is saved)" if self.save_file() else "")),
        ]

    def show_help(self) -> None:
        """Every command with one example."""
        rows = list(self.commands()) + self.shared_commands()
        width = max(len(c.example) for c in rows) + 2
        self.term.say(self.term.paint("Commands (with an example each):", "bold"))
        for c in rows:
            self.term.say(f"  {c.example:<{width}}{c.text}")

    def prompt(self, prompt: str, parse: Callable[[str], Any]) -> Any:
        """Ask until ``parse(answer)`` succeeds; a ``ValueError`` from it is shown as the reason.

        The status bar is shown first; ``help``, ``save``, ``quit`` and the game's
        :meth:`words` are answered here and the question is asked again.
        """
        status = self.status_line()
        if status:
            self.term.status(status)
        extra = self.words()
        while True:
            answer = self.term.read_line(prompt)
            if len(answer) > MAX_ANSWER:  # never echoed back whole (a pasted file, say)
                self.term.say(self.term.paint(f"  not accepted: a line of {len(answer)} characters", "red"))
                continue
            word = answer.strip().lower()
            if word in QUIT_WORDS:
                raise Quit("you quit")
            if word in ("help", "?"):
                self.show_help()
                continue
            if word == "save":
                self.save()
                continue
            if word.startswith("save "):  # a file named at once (fourteenth playtest: "not a number")
                self.save(answer.strip()[5:].strip())
                continue
            if word in extra:
                extra[word]()
                continue
            try:
                return parse(answer)
            except ValueError as exc:
                self.term.say(self.term.paint(f"  not accepted: {exc}", "red"))

    # -- saving ---------------------------------------------------------------------------
    def save_file(self) -> Path | None:
        return self.save_path or self.default_save

    def write_save(self, path: Path) -> bool:
        """Write the save to ``path``; says why not and returns False when it cannot."""
        try:
            save_json(path, self.to_save())
        except (OSError, DoppelXError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.term.say(self.term.paint(f"could not save to {shown_path(path)}: {why}", "red"))
            self.failed_save = (path, why)
            return False
        self.failed_save = None
        return True

    def resume_hint(self, path: Path) -> str:
        return f"resume with: doppelx {self.command} --resume {path}"

    def save(self, name: str = "") -> None:
        """The ``save`` word: save now and go on (``save FILE``: to ``name``, a new file). Without
        a known file, or when the file cannot be written, it asks for one until a save succeeds or
        the answer is empty: a failed save never hands the next line to the game as a move. A
        leading ``~`` is the home folder."""
        name = os.path.expanduser(name.strip()) if name.strip() else ""
        known = self.save_file()
        path = known if not name or Path(name) == known else None
        while True:
            if path is None:
                answer = name or self.term.read_line(
                    f"save to file, e.g. {self.command}-save.json (Enter: do not save): "
                )
                name = ""  # (a name given with the word is tried once)
                answer = os.path.expanduser(answer.strip()) if answer.strip() else ""
                if not answer:
                    lost = (
                        " (the last save failed: type 'save' again before you quit)"
                        if self.failed_save
                        else ""
                    )
                    self.term.say(f"not saved{lost}")
                    return
                word = answer.strip().lower()
                if word in (*QUIT_WORDS, "help", "?", "save", *self.words()):
                    # 'save' then 'quit' typed on: a file named "quit" is not what was meant
                    self.term.say(
                        self.term.paint(
                            f"  {word!r} is a command, not a file name: give a file to save to "
                            f"(e.g. {self.command}-save.json), or press Enter not to save",
                            "red",
                        )
                    )
                    continue
                problem = new_save_problem(answer)
                if not problem and not Path(answer).suffix:
                    # a move typed at this prompt ("1") became a save file named "1" (thirteenth playtest)
                    problem = (
                        f"'{shown_path(answer)}' has no ending such as .json: is it a move? Give a file to "
                        f"save to (e.g. {self.command}-save.json), or press Enter not to save"
                    )
                if problem:
                    self.term.say(self.term.paint(f"  {problem}", "red"))
                    continue
                path = Path(answer)
            if self.write_save(path):
                self.save_path = path
                self.term.say(f"game saved to {path} ({self.resume_hint(path)})")
                return
            path = None

    # -- running --------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end, or stop cleanly on ``quit``, Ctrl-C or the end of input; returns 0.

        Raises:
            GameNotSaved: the game stopped (or, for a game that saves at its end, ended)
                while its last save had failed and no save succeeded after it.
        """
        try:
            self.play()
        except (Quit, EOFError, KeyboardInterrupt) as exc:
            reasons: dict[type[BaseException], str] = {Quit: "you quit", EOFError: "input ended"}
            why = reasons.get(type(exc), "interrupted")
            self.term.say("")
            self.stopped(why)
            path = self.save_file()
            if path is None:
                if self.failed_save is None:
                    self.term.say(f"{why}: game not saved (type 'save' first, or start with --save FILE)")
            elif self.write_save(path):
                self.term.say(f"{why}: game saved to {path} ({self.resume_hint(path)})")
            self._check_saved(why)
            return 0
        self.failed_save = None  # a save that failed during the game is no loss once it is over
        self.finished()
        self._check_saved("the game ended")
        return 0

    def _check_saved(self, why: str) -> None:
        """Raise :class:`GameNotSaved` when the last save failed and none succeeded since."""
        if self.failed_save is not None:
            path, reason = self.failed_save
            raise GameNotSaved(
                f"{why} but the game is not saved: could not write {shown_path(path)} ({reason})"
            )


#: Longest answer a prompt reads; a longer line (a paste) is refused without being echoed.
MAX_ANSWER = 200


def shown_path(path: Path | str) -> str:
    """A file name as an error message shows it: whole up to 100 characters, else cut."""
    text = str(path)
    return text if len(text) <= 100 else f"{text[:90]}… ({len(text)} characters)"


def new_save_problem(answer: str) -> str:
    """Why ``answer`` cannot name a new save file (``""`` if it can): an existing file is never
    overwritten (another game's save, or any file), a folder is no file, and a name the system
    cannot take (too long, say) is said so instead of failing."""
    path = Path(answer)
    try:
        if path.is_file():
            return f"{shown_path(answer)} already exists: not overwritten; give a new file"
        if path.is_dir():
            return f"{shown_path(answer)} is a folder; give a file name inside it"
        if not path.parent.is_dir():
            return f"{shown_path(path.parent)}: no such folder; give a file in a folder that exists"
    except OSError as exc:
        return f"{shown_path(answer)}: not a usable file name ({exc.strerror or exc})"
    return ""


def set_rng_state(rng, state: object, source: Path | str, key: str) -> None:
    """Restore a saved NumPy random generator (PCG64) from its ``state`` dict; anything else
    is a :class:`SpecError` naming ``key`` (a damaged save, not an internal error)."""
    inner = state.get("state") if isinstance(state, dict) else None
    fields = [inner.get("state"), inner.get("inc")] if isinstance(inner, dict) else []
    fields += [state.get("has_uint32"), state.get("uinteger")] if isinstance(state, dict) else []
    if (
        not isinstance(state, dict)
        or state.get("bit_generator") != "PCG64"
        or len(fields) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**128 for v in fields)
    ):
        raise SpecError(str(source), key, "not a saved random generator (damaged save)")
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise SpecError(str(source), key, f"not a saved random generator ({exc})") from None


def save_json(path: Path | str, data: dict[str, Any]) -> None:
    """Write ``data`` atomically (temp file + rename), so a crash never leaves half a save."""
    write_text(path, json.dumps(data, indent=1, sort_keys=True), what="save file")


@contextlib.contextmanager
def naming_save(path: Path | str):
    """Around loading a save: any project error is reported as one about ``path`` (the save)."""
    try:
        yield
    except SpecError as exc:
        if exc.source == str(path):
            raise
        raise SpecError(str(path), "", str(exc)) from None
    except DoppelXError as exc:
        raise SpecError(str(path), "", str(exc)) from None


def check_new_save(path: Path | str | None, resumed: Path | str | None = None) -> None:
    """A game must not silently replace a file that is already there (a save of another game).

    ``resumed``: the file a resumed game was loaded from; saving over that one is what
    ``--resume`` does anyway, any other existing ``--save`` file is refused as for a new game.
    """
    if path is None or (resumed is not None and Path(path).resolve() == Path(resumed).resolve()):
        return
    if Path(path).exists():
        fix = (
            f"continue that game with --resume {shown_path(path)}, or choose another --save file"
            if resumed is None
            else f"choose another --save file, or leave --save out to save over {resumed}"
        )
        raise SpecError(str(path), "", f"already exists; {fix}")


def load_json(path: Path | str) -> dict[str, Any]:
    """Read a JSON save; a missing or malformed file is a :class:`SpecError` naming it."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise SpecError(str(path), "", "expected a JSON object at the top level")
    return data
