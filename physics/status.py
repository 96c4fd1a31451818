"""Where a die is (board / hole / off) and a watch for dice passing through solid parts.

Statuses from a resting pose (D6), by the die's centre in the board frame:

* ``off``: the centre is outside the inside of the walls (on the rim, on the table), or
  above the rim (lying on a bet card or on the rim's top); or (the final reading,
  :meth:`Zones.final`) it came to rest in the box but not over the playfield — beside a board
  smaller than the box, the centre more than 1 mm outside its outline
  (``rules.doppelx.placement.on_playfield``, the test the rules' placement check makes);
* ``hole``: the centre is below the playfield surface (z < 0): the die sank more than
  half into a hole, or lies in the cavity beneath; or (the final reading, with the die's
  size) its centre is over the middle of a hole, more than half an edge inside the rim, and
  its bottom not above the surface: it sits in the hole on a die that fell in first; or
  (:meth:`Zones.final`) its centre is over a hole's middle higher up and nothing on the board
  holds it there — no die on the board, obstacle or spinner (``rules.doppelx.placement.held_over_hole``):
  it rests on dice in the hole;
* ``board``: otherwise (on the playfield, leaning, on another die or on an obstacle).

During a throw a die is *decided* early when nothing can change its status any more:
fully below the insert (it can only be in the cavity), or more than 1 m below the room's
floor (it went over the floor's edge). Decided dice no longer hold up the settle test. A die that leaves the box is not decided: it falls onto the table and must
come to rest there like any other (its resting pose on the table is part of the outcome
and of the replay); one that slides off the table's edge rests on the room's floor.

The :class:`TunnelWatch` compares consecutive samples of each die's centre and flags a die
that crossed the insert's mid-plane away from every hole opening, a wall's mid-plane below
the rim, the box floor, the table top or the room's floor, or another die's centre closer
than half an edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import shapely

from physics.geometry import Layout
from rules.doppelx.board import BoardSide
from rules.doppelx.box import GROUND_DROP, GROUND_HALF, TABLE_HALF, BoxSpec
from rules.doppelx.dice import DiceSet
from rules.doppelx.outcome import DieOutcome, Status

# the rules' tests of a die in a hole and on the playfield: one reading for physics and rules
from rules.doppelx.placement import (
    HOLE_TOP,
    die_body,
    fills_box,
    held_over_hole,
    hole_middle,
    hole_under_centre,
    in_hole_middle,
    on_playfield,
)

#: How far from an opening's edge a centre may cross the insert level and still count as
#: falling through the hole (m): the opening as the physics cuts it, plus this.
HOLE_CROSSING_TOL = 0.003


class Zones:
    """The box's regions for statuses and the tunnel watch."""

    def __init__(self, box: BoxSpec, layout: Layout, holes: tuple = ()):
        self.box = box
        self.hx = box.inner_size[0] / 2
        self.hy = box.inner_size[1] / 2
        self.t = box.wall_thickness
        self.rim_z = box.rim_z
        self.floor_z = box.floor_z
        self.insert_bottom = -box.insert_thickness
        self.table_z = box.floor_z - box.wall_thickness
        self.ground_z = self.table_z - GROUND_DROP
        #: The board's holes (the rules' shapes, m), for :meth:`status` with ``half``.
        self.holes = tuple(h.shape for h in holes)
        self._middles: dict[float, object] = {}
        #: board id -> (the board, whether its outline covers the box's floor): the sides I-IV do
        self._fills: dict[int, tuple[BoardSide, bool]] = {}
        openings = list(layout.openings.values())
        self.openings = shapely.union_all(openings).buffer(HOLE_CROSSING_TOL) if openings else None
        if self.openings is not None:
            shapely.prepare(self.openings)

    def status(self, position, half: float | None = None) -> Status:
        """Status of a die resting with its centre at ``position`` (D6).

        With the die's ``half`` edge (the final reading of a throw), a die whose centre lies
        over the middle of a hole — more than half an edge inside its rim, where the
        playfield cannot hold it — and less than :data:`HOLE_TOP` above the playfield is in
        the hole: it sits on a die that fell in before it (``rules.doppelx.placement`` refuses such
        a die on the board).
        """
        x, y, z = position
        if abs(x) > self.hx or abs(y) > self.hy or z > self.rim_z:
            return Status.OFF
        if z < 0.0:
            return Status.HOLE
        if half is not None and z < half + HOLE_TOP and self.holes:  # (cheap test first)
            middles = self._middles.get(half)
            if middles is None:
                middles = self._middles[half] = shapely.union_all([hole_middle(h, half) for h in self.holes])
                shapely.prepare(middles)
            if in_hole_middle(middles, position, half):
                return Status.HOLE
        return Status.BOARD

    def final(self, dice: Sequence[DieOutcome], board: BoardSide, specs: DiceSet) -> list[DieOutcome]:
        """The final reading of a throw's dice, each read by :meth:`status` with its size:
        a die on the board whose centre is not over the playfield is ``off`` (it lies in the
        box beside a smaller board), and one whose centre is over a hole's middle, up above
        the playfield, that no die on the board, obstacle or spinner holds is in the ``hole``
        (it rests on dice in the hole) — read again until no die changes, as a die may have
        held another. ``rules.doppelx.placement.check_resting`` makes the same tests of a state.
        """
        out = list(dice)
        if not self._fills_box(board):
            for i, d in enumerate(out):
                if d.status is Status.BOARD and d.pose is not None:
                    x, y, _ = d.pose.position
                    if not on_playfield(board, x, y):
                        out[i] = replace(d, status=Status.OFF)
        # only a die up off the playfield can be held over a hole's middle: :meth:`status`
        # read one lower there as in the hole (the cheap height test first: most dice lie flat)
        high = [
            i
            for i, d in enumerate(out)
            if d.status is Status.BOARD
            and d.pose is not None
            and board.holes
            and d.pose.position[2] >= specs[d.owner].half + HOLE_TOP
            and hole_under_centre(board, d.pose.position[0], d.pose.position[1], specs[d.owner].half)
            is not None
        ]
        if not high:
            return out
        bodies = {
            i: die_body(d.pose, specs[d.owner])
            for i, d in enumerate(out)
            if d.status is Status.BOARD and d.pose is not None
        }
        changed = True
        while changed:
            changed = False
            for i in high:
                if out[i].status is not Status.BOARD:
                    continue
                others = (b for j, b in bodies.items() if j != i and out[j].status is Status.BOARD)
                if not held_over_hole(bodies[i], others, board):
                    out[i] = replace(out[i], status=Status.HOLE)
                    changed = True
        return out

    def _fills_box(self, board: BoardSide) -> bool:
        """``board``'s outline covers the box's floor, so no die in the box lies beside it."""
        hit = self._fills.get(id(board))
        if hit is None or hit[0] is not board:
            hit = self._fills[id(board)] = (board, fills_box(board, self.box))
        return hit[1]

    def decided(self, position, quaternion, half: float) -> Status | None:
        """``hole`` or ``off`` if that status can no longer change, else ``None``."""
        x, y, z = position
        if z < self.ground_z - 1.0:
            return Status.OFF  # fell off the edge of the room's floor: nothing below
        if abs(x) <= self.hx and abs(y) <= self.hy:
            qx, qy, qz, qw = quaternion
            r20 = 2 * (qx * qz - qy * qw)
            r21 = 2 * (qy * qz + qx * qw)
            r22 = 1 - 2 * (qx * qx + qy * qy)
            if z + half * (abs(r20) + abs(r21) + abs(r22)) < self.insert_bottom:
                return Status.HOLE
        return None


class TunnelWatch:
    """Flags dice that passed through solid parts between two samples of their centres."""

    def __init__(self, zones: Zones, size: float):
        self.z = zones
        self.size = size
        self.events: list[tuple[str, str]] = []  # (owner, what)

    def check(self, owner: str, a, b) -> None:
        """Centre moved from ``a`` to ``b`` (m) since the last sample."""
        z = self.z
        ax, ay, az = a
        bx, by, bz = b
        mid = z.insert_bottom / 2
        if (az - mid) * (bz - mid) < 0:
            f = (az - mid) / (az - bz)
            x, y = ax + f * (bx - ax), ay + f * (by - ay)
            if (
                abs(x) < z.hx
                and abs(y) < z.hy
                and not (z.openings is not None and shapely.contains_xy(z.openings, x, y))
            ):
                self.events.append((owner, "insert"))
        for k, half in ((0, z.hx + z.t / 2), (1, z.hy + z.t / 2)):
            pa, pb = (ax, bx) if k == 0 else (ay, by)
            for plane in (half, -half):
                if (pa - plane) * (pb - plane) < 0:
                    f = (pa - plane) / (pa - pb)
                    other = (ay + f * (by - ay)) if k == 0 else (ax + f * (bx - ax))
                    zc = az + f * (bz - az)
                    span = (z.hy if k == 0 else z.hx) + z.t
                    if abs(other) <= span and zc < z.rim_z:
                        self.events.append((owner, "wall"))
        inside = abs(bx) < z.hx + z.t and abs(by) < z.hy + z.t
        on_table = abs(bx) < TABLE_HALF and abs(by) < TABLE_HALF
        on_ground = abs(bx) < GROUND_HALF and abs(by) < GROUND_HALF
        if (
            (inside and az >= z.floor_z > bz)  # down through the box floor
            or (on_table and az >= z.table_z > bz)  # down through the table top
            or (on_ground and bz < z.ground_z)  # below the room's floor
        ):
            self.events.append((owner, "floor"))

    def check_pair(self, owner: str, other: str, a0, a1, b0, b1) -> None:
        """Die ``owner`` moved a0→a1 while ``other`` moved b0→b1: flag a pass through it.

        Both are taken to move straight between the samples; their centres closer than
        half an edge at any instant means one went through the other.
        """
        r = 0.5 * self.size
        for k in range(3):  # quick reject: the two swept boxes do not come near
            if min(a0[k], a1[k]) - r > max(b0[k], b1[k]) or min(b0[k], b1[k]) - r > max(a0[k], a1[k]):
                return
        d0x, d0y, d0z = a0[0] - b0[0], a0[1] - b0[1], a0[2] - b0[2]
        ddx = (a1[0] - b1[0]) - d0x
        ddy = (a1[1] - b1[1]) - d0y
        ddz = (a1[2] - b1[2]) - d0z
        den = ddx * ddx + ddy * ddy + ddz * ddz
        t = 0.0 if den < 1e-18 else max(0.0, min(1.0, -(d0x * ddx + d0y * ddy + d0z * ddz) / den))
        cx, cy, cz = d0x + t * ddx, d0y + t * ddy, d0z + t * ddz
        if cx * cx + cy * cy + cz * cz < r * r:
            self.events.append((owner, f"die:{other}"))

    def check_sample(self, owners, pos, new, halves) -> None:
        """One sample of the run loops: ``new`` maps the index of each die that moved to its
        new pose; ``pos`` holds every die's centre at the last sample (indexed as ``owners``).

        A die wholly above the rim, or above the insert's middle and inside the walls, crosses
        nothing :meth:`check` looks for, so it is passed over; then :func:`check_pairs`.
        """
        z = self.z
        rim_z, hx, hy, mid = z.rim_z, z.hx, z.hy, z.insert_bottom / 2
        for i, pq in new.items():
            a, b = pos[i], pq[0]
            if a[2] > rim_z and b[2] > rim_z:
                continue  # wholly above the rim it crosses nothing
            if (
                a[2] > mid
                and b[2] > mid
                and abs(a[0]) < hx
                and abs(b[0]) < hx
                and abs(a[1]) < hy
                and abs(b[1]) < hy
            ):
                continue  # above the insert, inside the walls: nothing to cross
            self.check(owners[i], a, b)
        if len(owners) > 1:
            check_pairs(self, owners, pos, new, halves)

    def check_final(self, world, dice) -> None:
        """Dice ending inside each other by more than 2 mm count as tunnelled (``world.penetration``)."""
        for i, a in enumerate(dice):
            for b in dice[i + 1 :]:
                pa, pb = a.pose.position, b.pose.position
                if sum((pa[k] - pb[k]) ** 2 for k in range(3)) < (1.8 * self.size) ** 2:
                    if world.penetration(a.owner, b.owner) < -0.002:
                        self.events.append((a.owner, f"die:{b.owner}"))

    def owners(self) -> tuple[str, ...]:
        """Dice flagged at least once, in the order first flagged."""
        seen: dict[str, None] = {}
        for owner, _ in self.events:
            seen.setdefault(owner, None)
        return tuple(seen)


def check_pairs(tw: TunnelWatch, owners, pos, new, halves) -> None:
    """Pass-through test for dice that moved more than half an edge since the last sample."""
    reach = 0.5 * tw.size
    n = len(owners)
    for i, pq in new.items():
        position = pq[0]
        a0 = pos[i]
        x1, y1, z1 = position
        x0, y0, z0 = a0
        if (x1 - x0) ** 2 + (y1 - y0) ** 2 + (z1 - z0) ** 2 < halves[i] ** 2:
            continue
        lox, hix = (x0, x1) if x0 < x1 else (x1, x0)
        loy, hiy = (y0, y1) if y0 < y1 else (y1, y0)
        loz, hiz = (z0, z1) if z0 < z1 else (z1, z0)
        lox, loy, loz, hix, hiy, hiz = (
            lox - reach,
            loy - reach,
            loz - reach,
            hix + reach,
            hiy + reach,
            hiz + reach,
        )
        for j in range(n):
            if j == i:
                continue
            b0 = pos[j]
            b1 = new[j][0] if j in new else b0
            if (
                max(b0[0], b1[0]) < lox
                or min(b0[0], b1[0]) > hix
                or max(b0[1], b1[1]) < loy
                or min(b0[1], b1[1]) > hiy
                or max(b0[2], b1[2]) < loz
                or min(b0[2], b1[2]) > hiz
            ):
                continue
            tw.check_pair(owners[i], owners[j], a0, position, b0, b1)
