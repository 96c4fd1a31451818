"""The ``doppelx`` command: one sub-command per registered command module.

DoppelX's own commands live in :mod:`doppelx.commands`; each sibling game is a package
under :mod:`doppelx.games` whose ``command`` module registers its sub-command, so adding a
game is one folder plus one line in :data:`COMMAND_MODULES`.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a callable ``(args) -> int``. Command modules keep their heavy imports inside
the function that runs, so ``doppelx --help`` and the rules-only commands start fast and
need no physics or GL stack.

Errors a user can cause (:class:`rules.common.errors.DoppelXError`) are printed as one line on
stderr and exit with code 2; a bad argument too (:class:`OneLineParser` prints argparse's
error without the usage block, pointing to ``--help``).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence

from doppelx import logs
from rules.common.errors import DoppelXError

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "doppelx.commands.play",
    "doppelx.commands.boards",
    "doppelx.commands.score",
    "doppelx.commands.throw",
    "doppelx.commands.game",
    "doppelx.commands.simulate",
    "doppelx.commands.pool",
    "doppelx.commands.bench",
    "doppelx.games.clever.command",
    "doppelx.games.doppelspiel.command",
    "doppelx.games.wuerfelblitz.command",
    "doppelx.games.oder_nichts.command",
)

EXIT_USAGE = 2
#: Longest error message printed (user values quoted in it can be huge).
MAX_MESSAGE = 500


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``doppelx throw: error: … (see --help)``.

    Sub-command parsers are made by the same class (argparse's default ``parser_class``).
    """

    def error(self, message: str):
        message = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but words left over are blamed on the sub-command they followed
        (argparse reports them from the top parser, whose help lists no sub-options)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            _deepest(self, parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


def _deepest(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The innermost sub-command parser ``parsed`` went through (``parser`` itself if none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
            if chosen is not None:
                return _deepest(chosen, parsed)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered sub-command."""
    from doppelx import __version__

    parser = OneLineParser(
        prog="doppelx",
        description="DoppelX dice-tray simulator: boards, referee, physics, games.",
    )
    parser.add_argument("--version", action="version", version=f"doppelx {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log what the program does on stderr (-vv: every detail)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    for command in command_parsers(parser):  # -v also after the command's name: doppelx throw -v ...
        command.add_argument(
            "-v",
            "--verbose",
            action="count",
            default=argparse.SUPPRESS,
            help="as doppelx -v (-vv: every detail)",
        )
    return parser


def command_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every sub-command parser below ``parser``, nested ones included."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases share a parser
                found.append(child)
                found.extend(command_parsers(child))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logs.configure(args.verbose)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return code
    except DoppelXError as exc:
        message = " ".join(str(exc).split())  # one line, whatever the error holds
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 12] + "… (cut short)"
        print(f"doppelx: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # a batch's says what is on disk (doppelx.batch.backends)
        print(exc.args[0] if exc.args else "doppelx: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        sys.stderr.close()
        return 0
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            raise
        _drop_stdout()  # what is left in its buffer cannot be written either
        print(f"doppelx: error: cannot write the output: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the exit does not fail on it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover - exercised through the console script
    sys.exit(main())
