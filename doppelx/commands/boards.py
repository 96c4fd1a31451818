"""``doppelx boards``: list the built-in sides, validate a board file, draw a side to PNG.

doppelx boards list
doppelx boards check FILE [FILE ...]
doppelx boards show I --out board.png
"""

from __future__ import annotations

import argparse

from doppelx import argtypes

#: Resolutions ``boards show`` accepts: 20 dpi is a 150-pixel thumbnail (the fields' colours,
#: no readable labels); 600 dpi is a 4300-pixel picture.
MIN_DPI, MAX_DPI = 20, 600
#: Lowest resolution at which the smallest field labels (9 pt) can still be read (about 7 pixels).
READABLE_DPI = 60


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "boards",
        help="list, check and draw playfield sides",
        description="List, validate and draw playfield sides (built-in I–IV or a board file).",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    ls = verbs.add_parser("list", help="the built-in sides")
    ls.set_defaults(func=_list)
    check = verbs.add_parser("check", help="validate board files; exit 2 on the first mistake")
    check.add_argument("files", nargs="+", metavar="FILE", help="board file (or built-in name I–IV)")
    check.set_defaults(func=_check)
    show = verbs.add_parser("show", help="draw a side to a PNG")
    show.add_argument("board", metavar="BOARD", help="built-in side I–IV or a board file")
    show.add_argument(
        "--out",
        required=True,
        type=argtypes.png_file,
        metavar="FILE.png",
        help="PNG file to write (its name ends in .png; its folder must exist)",
    )
    show.add_argument(
        "--dpi",
        type=argtypes.whole(MIN_DPI, MAX_DPI, "a resolution in dots per inch"),
        default=110,
        help=f"resolution, {MIN_DPI}–{MAX_DPI} (default 110); below {READABLE_DPI} the picture is a "
        "thumbnail whose smallest labels cannot be read",
    )
    show.set_defaults(func=_show)


def _describe(board) -> str:
    from collections import Counter

    kinds = Counter(f.kind.value for f in board.fields)
    parts = ", ".join(f"{n}×{k}" for k, n in sorted(kinds.items()))
    spinner = "spinner" if board.spinner else "no spinner"
    return (
        f"{board.name:<4} {board.title:<36} fields: {parts}; holes: {len(board.holes)}; "
        f"{spinner}; obstacles: {len(board.obstacles)}"
    )


def _list(args: argparse.Namespace) -> int:
    from rules.doppelx.board_file import BUILTIN_SIDES, load_board

    for name in BUILTIN_SIDES:
        print(_describe(load_board(name)))
    return 0


def _check(args: argparse.Namespace) -> int:
    from rules.doppelx.board_file import load_board
    from rules.doppelx.box import load_box

    box = load_box()
    for f in args.files:
        board = load_board(f)
        box.check_board(board)
        print(f"ok  {board.source}: {_describe(board)}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from rules.common.atomic import check_output_file, refuse_input_as_output
    from rules.doppelx.board_file import load_board

    check_output_file(args.out, "picture")
    board = load_board(args.board)
    refuse_input_as_output(args.out, {"board file": board.source}, "picture")
    from doppelx.board_picture import save_board_png

    picture = save_board_png(board, args.out, dpi=args.dpi)
    print(f"wrote {picture.path} ({picture.size[0]}×{picture.size[1]} px)")
    return 0
