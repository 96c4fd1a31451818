"""Where the window puts things the snapshot names but does not place: bet cards and the
dice lying on them, which card a board point falls on (for clicking a card), and the flat
parts a label must not cover.

Card ``i`` of :attr:`render.snapshot.TableSpec.cards` lies over corner
``box.corner_order[i]``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

from shapely.geometry import Point, Polygon

from render.parts_mesh import card_corner, card_polygon
from render.snapshot import TableSpec
from rules.doppelx.outcome import Pose

#: Where dice lie on a card, as fractions of the legs (u, v), side by side, each die wholly on the
#: card with its edges along the legs and a 0.8 mm gap to the next (centres 0.24 of a 70 mm leg
#: apart): first in its two acute corners and beside them along the legs, clear of the letter,
#: the pay-out chip and the caption (sixth playtest: dice at the old slots hung over the box's
#: outer wall or past the card's long edge and covered the letter and the value); a fifth and
#: sixth bettor's dice then lie over the letter's upper half and the chip. (A third and fourth
#: die used to lie on the first two: one bettor's die hid another's.)
CARD_SLOTS = ((0.61, 0.13), (0.13, 0.61), (0.37, 0.13), (0.13, 0.37), (0.37, 0.37), (0.13, 0.13))
#: Where a die lies once the card's :data:`CARD_SLOTS` are taken (a seventh bettor with 8 players):
#: one die higher, across the two dice along a leg, so it hides neither.
CARD_BRIDGES = ((0.49, 0.13), (0.13, 0.49))
#: A bet die's turn off the card's legs (rad), alternating -, 0, +: laid by hand, yet clear of
#: its neighbours (a 16 mm die turned 0.04 rad spans 16.6 mm of the 16.8 mm between centres).
CARD_TWIST = 0.04


def card_corners(table: TableSpec) -> dict[str, str]:
    """Bet card letter → box corner it lies over."""
    return {c.letter: corner for c, corner in zip(table.cards, table.box.corner_order)}


@functools.lru_cache(maxsize=8)
def label_free_boxes(table: TableSpec) -> tuple[tuple[tuple[float, float, float, float], float], ...]:
    """The holes and the bet cards as ``((x0, y0, x1, y1), z)`` boxes in the board frame (m),
    worked out once per table: die and referee labels keep clear of them."""
    holes = [(hole.shape.bounds, 0.0) for hole in table.board.holes]
    cards = [(card_polygon(table.box, c).bounds, table.box.rim_z) for c in table.box.corner_order]
    return tuple(holes + cards)


@functools.lru_cache(maxsize=8)
def card_outlines(table: TableSpec) -> tuple[tuple[str, Polygon], ...]:
    """Each bet card's letter and outline seen from above (m), worked out once per table: the
    window asks which card a die lies under every frame."""
    return tuple((letter, card_polygon(table.box, corner)) for letter, corner in card_corners(table).items())


def card_at(table: TableSpec, x: float, y: float) -> str | None:
    """Letter of the bet card covering the point ``(x, y)`` m seen from above, or ``None``."""
    p = Point(x, y)
    for letter, outline in card_outlines(table):
        if outline.buffer(0.002).covers(p):
            return letter
    return None


def card_near(table: TableSpec, x: float, y: float, reach: float) -> str | None:
    """Letter of the bet card within ``reach`` m of the point ``(x, y)`` seen from above (a die
    whose centre lies beside a card may still be half under it), or ``None``."""
    p = Point(x, y)
    for letter, outline in card_outlines(table):
        if outline.distance(p) <= reach:
            return letter
    return None


def bet_die_poses(
    table: TableSpec, bets: Mapping[str, str], lying: Mapping[str, Pose] | None = None
) -> dict[str, Pose]:
    """Poses of the dice lying on bet cards (owner → pose), lying flat with X up.

    ``lying``: the dice on the table (a die among them is not on a card); while one lies under a
    card, its slots farthest from that die are taken first (:func:`_slot_order`), so a die bet on
    the card does not cover the one under it (eighth playtest: Purple's bet die hid the orange die
    under card A)."""
    corners = card_corners(table)
    box = table.box
    lying = lying or {}
    count: dict[str, int] = {}
    orders: dict[str, list[int]] = {}
    poses: dict[str, Pose] = {}
    for owner, letter in bets.items():
        if letter not in corners or owner not in table.dice.dice or owner in lying:
            continue
        die = table.dice[owner]
        k = count.get(letter, 0)
        count[letter] = k + 1
        a, u, v = card_corner(box, corners[letter])
        if letter not in orders:
            orders[letter] = _slot_order(table, letter, (a, u, v), lying, die.size)
        fu, fv, layer = _card_spot(orders[letter], k)
        xy = a + (u * fu + v * fv) * box.bet_card_leg
        z = box.rim_z + box.bet_card_thickness + die.half + die.size * layer
        yaw = math.atan2(u[1] + v[1], u[0] + v[0]) + math.pi / 4 + CARD_TWIST * (k % 3 - 1)
        rest = Pose.resting(die, float(xy[0]), float(xy[1]), yaw, "X" if "X" in die.faces else die.faces[0])
        poses[owner] = Pose((rest.position[0], rest.position[1], float(z)), rest.quaternion)
    return poses


def _card_spot(order: list[int], k: int) -> tuple[float, float, int]:
    """Where the ``k``-th die bet on a card lies: ``(u, v)`` as fractions of the legs and its
    layer (0 on the card). The first :data:`CARD_SLOTS` in ``order`` side by side on the card,
    then across two of them (:data:`CARD_BRIDGES`), one die higher; any further die (more than
    7 bettors: none in a game) on an earlier one."""
    if k < len(order):
        return (*CARD_SLOTS[order[k]], 0)
    extra = k - len(order)
    return (*CARD_BRIDGES[extra % len(CARD_BRIDGES)], 1 + extra // len(CARD_BRIDGES))


def _slot_order(table: TableSpec, letter: str, frame, lying: Mapping[str, Pose], size: float) -> list[int]:
    """The order card ``letter``'s slots are taken in: in :data:`CARD_SLOTS` order, or, while a die
    lies under the card or beside it, the slots farthest from it first (seen from above). A bet die stands a
    rim's height above a die under the card, so from the side it hides it even one slot away
    (thirteenth playtest: the die bet on the neighbouring slot covered it, and both faded)."""
    a, u, v = frame
    slots = [a + (u * fu + v * fv) * table.box.bet_card_leg for fu, fv in CARD_SLOTS]
    # a die under the card, or beside it within a rim's height: seen from 45° or lower, a die on
    # the card hides it (fifteenth playtest: bet dice on card A hid a die on the 1x field beside it)
    reach = max(size * math.sqrt(2) / 2, table.box.rim_z)
    under = [
        (float(p.position[0]), float(p.position[1]))
        for p in lying.values()
        if card_near(table, float(p.position[0]), float(p.position[1]), reach) == letter
    ]
    if not under:
        return list(range(len(slots)))
    # (rounded to a tenth of a millimetre: slots as far from the die keep their order)
    far = [round(min(math.dist((float(s[0]), float(s[1])), d) for d in under), 4) for s in slots]
    return sorted(range(len(slots)), key=lambda i: (-far[i], i))


__all__ = [
    "CARD_BRIDGES",
    "CARD_SLOTS",
    "CARD_TWIST",
    "bet_die_poses",
    "card_at",
    "card_corners",
    "card_near",
    "card_outlines",
]
