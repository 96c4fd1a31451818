"""A thinking bot's table made by hand: side I, four seats, dice resting on a field of a kind."""

from __future__ import annotations

import shapely

from doppelx.games.doppelx.planner.snapshot import TableSnapshot
from rules.doppelx.bets import choose_cards
from rules.doppelx.board import FieldKind
from rules.doppelx.board_file import load_board
from rules.doppelx.box import load_box
from rules.doppelx.dice import load_dice
from rules.doppelx.outcome import DieOutcome, Pose, Status

BOARD = load_board("I")


DICE = load_dice()


SEATS = ("blue", "red", "yellow", "green")


def spot(kind: FieldKind, k: int = 0) -> tuple[float, float]:
    """A point where a flat die lies wholly inside a field of ``kind`` (the k-th such field)."""
    holes = shapely.union_all([h.shape.buffer(0.013) for h in BOARD.holes])
    inner = [f.shape.buffer(-0.013).difference(holes) for f in BOARD.fields if f.kind is kind]
    inner = sorted((g for g in inner if not g.is_empty), key=lambda g: -g.area)
    p = inner[k % len(inner)].representative_point()
    return p.x, p.y


def table(dice=DICE, lying=None, chips=None, bets=None, thrower="blue", kind="turn") -> TableSnapshot:
    return TableSnapshot(
        board=BOARD,
        dice=dice,
        box=load_box(),
        spinner=False,
        seats=SEATS,
        kind=kind,
        thrower=thrower,
        thrown=(thrower, "white"),
        lying=lying or {},
        spinner_angle=0.0,
        chips=chips or {c: 0 for c in SEATS},
        target=50,
        bets=bets or {},
        cards=choose_cards("ABCD"),
        policies={},
        seed=(1, 5),
    )


def resting(owner, kind, top, dice=DICE, k=0):
    x, y = spot(kind, k)
    return DieOutcome(owner, Status.BOARD, Pose.resting(dice[owner], x, y, 0.3, top))
