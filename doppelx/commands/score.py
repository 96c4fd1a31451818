"""``doppelx score``: the referee as a command — score one throw from a table-state JSON.

    doppelx score --board I --state STATE.json [--json]

The state schema is in ``docs/score-schema.md``. Prints per die: status, top face, fields
touched, its field and chips; per player: chips for dice, bets and Doppel X, and after.
"""

from __future__ import annotations

import argparse
import json
import math


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
    p.add_argument("--state", required=True, metavar="STATE.json", help="the table state")
    p.add_argument("--dice", metavar="DICE.toml", help="dice file (default: the shipped dice)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rules.board_file import load_board
    from rules.dice import load_dice
    from rules.errors import SpecError
    from rules.scoring import score_throw
    from rules.table_state import check_on_board, load_table_state

    dice = load_dice(args.dice)
    state = load_table_state(args.state, dice)
    board_name = args.board or state.board
    if board_name is None:
        raise SpecError(args.state, "board", 'no board: pass --board or put "board" in the state')
    board = load_board(board_name)
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


def score_report(score, board, bets) -> dict:
    """The JSON-ready scoring of one throw (public schema, see docs/score-schema.md)."""
    from rules.reading import chips_for

    kinds = {f.id: f.kind.value for f in board.fields}
    dice = []
    for r in score.readings:
        dice.append(
            {
                "owner": r.owner,
                "status": r.status.value,
                "top": r.top,
                "tilt_deg": None if r.tilt is None else round(math.degrees(r.tilt), 3),
                "cocked": r.cocked,
                "touched": [{"id": fid, "kind": kinds[fid]} for fid in r.touched],
                "field": None if r.field is None else r.field.value,
                "field_id": r.field_id,
                "chips": 0 if score.doppel_x else chips_for(r),
                "scores_for": score.active
                if r.owner == "white"
                else (r.owner if r.owner in score.players else None),
            }
        )
    players = {
        c: {
            "dice": p.dice,
            "bets": p.bets,
            "doppel_x": p.doppel_x,
            "before": p.before,
            "after": p.after,
            "change": p.change,
            "bet": bets.get(c),
        }
        for c, p in score.players.items()
    }
    return {
        "board": board.name,
        "active": score.active,
        "doppel_x": score.doppel_x,
        "dice": dice,
        "players": players,
    }


def format_report(report: dict) -> str:
    """A plain-text table of :func:`score_report`."""
    lines = [
        f"board {report['board']}   active: {report['active'] or '(setup throw)'}"
        f"   {'DOPPEL X!' if report['doppel_x'] else ''}".rstrip(),
        "",
        f"{'die':<8} {'status':<6} {'top':<4} {'field':<6} {'chips':>5}  touched",
    ]
    for d in report["dice"]:
        touched = ", ".join(f"{t['kind']} ({t['id']})" for t in d["touched"])
        cocked = " cocked" if d["cocked"] else ""
        lines.append(
            f"{d['owner']:<8} {d['status']:<6} {d['top'] or '-':<4} {d['field'] or '-':<6} "
            f"{d['chips']:>5}  {touched}{cocked}"
        )
    lines += ["", f"{'player':<8} {'dice':>5} {'bets':>5} {'dblX':>5} {'before':>7} {'after':>6}"]
    for c, p in report["players"].items():
        bet = f"  (bet on {p['bet']})" if p["bet"] else ""
        lines.append(
            f"{c:<8} {p['dice']:>5} {p['bets']:>5} {p['doppel_x']:>5} {p['before']:>7} {p['after']:>6}{bet}"
        )
    return "\n".join(lines)
