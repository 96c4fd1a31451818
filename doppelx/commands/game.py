"""``doppelx game``: a whole DoppelX game of bots through the physics world.

    doppelx game --players 4 [--board I] --seed N [--skill medium | --skills S1,S2,...] [--think N]
                 [--cards A,B,C,D] [--no-spinner] [--max-throws N] [--json] [--engine pybullet|mujoco]

Prints the log (every throw: who threw, the bets, each die's status, face and field, each
player's change and total) and the result. The same seed gives the same game.
"""

from __future__ import annotations

import argparse
import json

from doppelx import argtypes
from doppelx.argtypes import add_engine_argument
from doppelx.games.doppelx.policies import BOT_SKILLS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "game",
        help="play a whole DoppelX game with bots through physics",
        description="Bots play a whole game of DoppelX: every throw runs in the physics "
        "world; prints the log and the result.",
    )
    p.add_argument(
        "--players",
        type=argtypes.players,
        required=True,
        metavar="N",
        help="3–8 players",
    )
    p.add_argument(
        "--board",
        default="I",
        metavar="BOARD",
        help="built-in side I–IV or a board file (default I, the first game's side)",
    )
    p.add_argument(
        "--seed", type=argtypes.seed, required=True, metavar="N", help="random seed (whole number >= 0)"
    )
    p.add_argument("--skill", choices=BOT_SKILLS, help="every bot's skill (default medium)")
    argtypes.add_seat_skills(p, think=True)
    p.add_argument(
        "--cards",
        type=argtypes.cards,
        default=["A", "B", "C", "D"],
        metavar="A,B,C,D",
        help="the 4 bet cards in play (default A,B,C,D)",
    )
    p.add_argument("--no-spinner", action="store_true", help="leave the spinner off (sides III/IV)")
    p.add_argument(
        "--max-throws",
        type=argtypes.positive,
        default=2000,
        metavar="N",
        help="stop after N throws if the game has not ended: the throws are printed, then an error "
        "(exit 2) (default 2000)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_engine_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from doppelx.games.doppelx.bot_factory import check_seat_options
    from doppelx.games.doppelx.match import DoppelXMatch
    from doppelx.games.doppelx.throw_report import turn_summary
    from rules.common.errors import RulesError
    from rules.doppelx.board_file import load_board

    if args.skills is not None and len(args.skills) != args.players:
        raise RulesError(f"--skills names {len(args.skills)} skills for {args.players} players")
    check_seat_options(args.skill, args.skills, args.think)
    board = load_board(args.board)
    argtypes.check_no_spinner(board, not args.no_spinner)
    board = board.with_spinner(not args.no_spinner)  # the rules see no spinner either
    skill = args.skills or args.skill or "medium"
    match = DoppelXMatch.with_bots(
        args.players,
        board,
        args.seed,
        skill=skill,
        think=args.think,
        cards=args.cards,
        spinner=not args.no_spinner,
        engine=args.engine,
    )
    cut_short: RulesError | None = None
    try:
        summary = match.play(args.max_throws)
    except RulesError as exc:  # --max-throws reached: the game so far is printed, then the error
        if len(match.log) < args.max_throws:
            raise
        cut_short, summary = exc, match.game.summary()
    finally:
        match.close()
    log = [turn_summary(rec) for rec in match.log]
    _print_game(args, board, summary, log)
    if cut_short is not None:
        played = "the throw played is" if len(log) == 1 else f"the {len(log)} throws played are"
        raise RulesError(f"{cut_short} ({played} printed above)")
    return 0


def _print_game(args: argparse.Namespace, board, summary: dict, log: list[dict]) -> None:
    if args.json:
        print(
            json.dumps(
                {
                    "board": board.name,
                    "seed": args.seed,
                    # every seat's skill; null when --skills gave each seat its own
                    "skill": None if args.skills else args.skill or "medium",
                    "skills": list(args.skills or [args.skill or "medium"] * args.players),
                    "summary": summary,
                    "log": log,
                },
                indent=2,
            )
        )
    else:
        print(format_game(board.name, args.seed, summary, log))


def format_game(board: str, seed: int, summary: dict, log: list[dict]) -> str:
    """Plain text of a finished game: one block per throw, then the result."""
    seats = summary["seats"]
    lines = [
        f"DoppelX on side {board}, seed {seed}: {', '.join(seats)} (target {summary['target']} chips, "
        f"cards {', '.join(summary['cards'])})",
        "",
    ]
    for t in log:
        who = "setup throw" if t["kind"] == "setup" else f"{t['kind']} {t['thrower']}"
        bets = ", ".join(f"{c}→{x}" for c, x in t["bets"].items())
        head = f"#{t['number']:<3} {who}" + (f"   bets: {bets}" if bets else "")
        if t["doppel_x"]:
            head += "   DOPPEL X!"
        if t["rethrow"]:
            head += "   (cocked die: throw again)"
        lines.append(head)
        dice = []
        for d in t["dice"]:
            if d["status"] == "board":
                dice.append(f"{d['owner']} {d['top']} on {d['field'] or 'no field'}")
            else:
                dice.append(f"{d['owner']} {d['status']}")
        lines.append("     " + "; ".join(dice))
        if t["touched_spinner"]:
            lines.append("     spinner touched by " + ", ".join(t["touched_spinner"]))
        changes = "  ".join(
            f"{c} {p['after']}" + (f" ({p['change']:+d})" if p["change"] else "")
            for c, p in t["players"].items()
        )
        lines.append("     chips: " + changes)
    lines.append("")
    chips = summary["chips"]
    ranking = sorted(seats, key=lambda c: -chips[c])
    if summary["winner"] is None:  # stopped by --max-throws
        lines.append(f"{summary['throws']} throws, and the game has not ended.")
        lines.append("Chips so far: " + ", ".join(f"{c} {chips[c]}" for c in ranking))
    else:
        lines.append(f"{summary['throws']} throws. Winner: {summary['winner']}")
        lines.append("Final: " + ", ".join(f"{c} {chips[c]}" for c in ranking))
    if summary.get("decider_rounds"):
        lines.append(
            f"Decided in {len(summary['decider_rounds'])} sudden-death round(s): {summary['decider_rounds']}"
        )
    return "\n".join(lines)
