"""``doppelx score``: the referee as a command — score one throw from a table-state JSON.

    doppelx score --board I --state STATE.json [--json]

The state schema is in ``docs/score-schema.md``. Prints per die: status, top face, fields
touched, its field and chips; per player: chips for dice, bets and Doppel X, and after.
"""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score one throw from a table-state JSON file",
        description="Read a table state (seats, active player, bets, chips, dice) and "
        "print the scoring of that throw. Schema: docs/score-schema.md.",
    )
    p.add_argument(
        "--board", metavar="BOARD", help='built-in side I–IV or a board file (default: the state\'s "board")'
    )
    p.add_argument(
        "--state",
        required=True,
        metavar="STATE.json",
        help="the table state (- reads it from standard input)",
    )
    p.add_argument("--dice", metavar="DICE.toml", help="dice file (default: the shipped dice)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from doppelx.games.doppelx.throw_report import format_report, score_report
    from rules.common.errors import SpecError
    from rules.doppelx.board_file import load_board
    from rules.doppelx.dice import load_dice
    from rules.doppelx.scoring import score_throw
    from rules.doppelx.table_state import STDIN, STDIN_SOURCE, check_on_board, load_table_state

    dice = load_dice(args.dice)
    state = load_table_state(args.state, dice)
    if args.state == STDIN:
        args.state = STDIN_SOURCE  # how errors below name it; a board file is read from the working folder
    if args.board is not None:
        board = load_board(args.board)
    elif state.board is None:
        raise SpecError(args.state, "board", 'no board: pass --board or put "board" in the state')
    else:
        board = _state_board(state.board, args.state)
    board = board.with_spinner(state.spinner)  # "spinner": false — the throw was made without it
    check_on_board(state, board, dice, args.state)
    score = score_throw(
        state.outcome,
        board,
        dice,
        seats=state.seats,
        active=state.active,
        chips=state.chips,
        bets=state.bets,
        cards=state.cards,
        lying_before=state.lying_before,
    )
    report = score_report(score, board, state.bets)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
    return 0


def _state_board(name: str, state_path: str):
    """The board a state names: a built-in side, or a board file, a relative path read from the
    state's folder (or, when no such file is there, from the working folder, as before).

    Anything wrong with it is reported as an error of the state file's ``board`` entry.
    """
    from pathlib import Path

    from rules.common.errors import DoppelXError, SpecError
    from rules.doppelx.board_file import builtin_side, load_board

    where: str | Path = name
    if builtin_side(name) is None and not Path(name).is_absolute():
        beside = Path(state_path).parent / name
        if beside.is_file() or (name.lower().endswith(".toml") and not Path(name).is_file()):
            where = beside
    try:
        return load_board(where)
    except DoppelXError as exc:
        raise SpecError(state_path, "board", str(exc)) from None
