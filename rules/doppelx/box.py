"""The box spec: inner size, walls and rim, the insert and the cavity under it, bet card corners;
and the room the box stands in (the table and the floor under it).

Lengths in metres in the board frame (z = 0 is the playfield surface, so the box floor is
at ``-insert_top`` and the rim at ``wall_height - insert_top``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from rules.common.assets import asset_path, read_toml
from rules.common.errors import SpecError
from rules.common.schema import DataTable
from rules.doppelx.board import BoardSide

FORMAT = "doppelx-box/1"
MM = 1e-3
CORNERS = ("SW", "SE", "NE", "NW")

# The room, the same for every box: the physics builds it (``physics.geometry``) and the window
# draws it (``render.box_mesh``) from these, so a die rests on wood exactly where wood is drawn.
#: Table top extent around the box (m, half the side): dice that leave the box land here and are off.
TABLE_HALF = 1.5
TABLE_THICKNESS = 0.05
#: The room's floor: this far below the table top (m), this wide each way from the box (m).
#: A die that slides off the table's edge comes to rest there (status ``off``); a die
#: hurled at 5 m/s can skitter across it for more than 8 m.
GROUND_DROP = 0.75
GROUND_HALF = 50.0


@dataclass(frozen=True)
class BoxSpec:
    """The box bottom (m).

    Attributes:
        inner_size: (x, y) inside the walls.
        wall_height: box floor to rim; wall_thickness, rim_width: the wall's top edge.
        insert_top: playfield surface above the box floor (depth of the cavity beneath).
        insert_thickness: board + insert thickness the holes cut through.
        bet_card_leg, bet_card_thickness: the triangular bet cards over the top corners.
        corner_order: corners (``SW``, ``SE``, ``NE``, ``NW``) of bet cards 1–4.
    """

    inner_size: tuple[float, float]
    wall_height: float
    wall_thickness: float
    rim_width: float
    insert_top: float
    insert_thickness: float
    bet_card_leg: float
    bet_card_thickness: float
    corner_order: tuple[str, ...]
    source: str

    @property
    def card_reach(self) -> float:
        """A bet card lies over the corner (right angle on the walls' outer corner, legs along
        them): it covers the points with ``|x| + |y| ≥`` this (m), seen from above."""
        return self.inner_size[0] / 2 + self.inner_size[1] / 2 + 2 * self.wall_thickness - self.bet_card_leg

    @property
    def floor_z(self) -> float:
        """Box floor height in the board frame (m, negative)."""
        return -self.insert_top

    @property
    def rim_z(self) -> float:
        """Rim height above the playfield (m)."""
        return self.wall_height - self.insert_top

    def corner_xy(self, corner: str) -> tuple[float, float]:
        """Inner corner ``SW``/``SE``/``NE``/``NW`` of the box, (x, y) m."""
        hx, hy = self.inner_size[0] / 2, self.inner_size[1] / 2
        sx = -1 if corner[1] == "W" else 1
        sy = -1 if corner[0] == "S" else 1
        return sx * hx, sy * hy

    def check_board(self, board: BoardSide) -> None:
        """The board's outline must fit inside the box, and what stands on it below the rim."""
        minx, miny, maxx, maxy = board.bounds
        hx, hy = self.inner_size[0] / 2 + 1e-9, self.inner_size[1] / 2 + 1e-9
        if minx < -hx or maxx > hx or miny < -hy or maxy > hy:
            raise SpecError(
                board.source,
                "outline",
                f"the playfield does not fit into the box "
                f"({self.inner_size[0] * 1e3:.0f} × {self.inner_size[1] * 1e3:.0f} mm)",
            )
        for i, ob in enumerate(board.obstacles):  # in file order, so obstacles[i] is the file's
            if ob.height > self.rim_z:
                raise SpecError(
                    board.source,
                    f"obstacles[{i}].height",
                    f"obstacle {ob.id!r} stands {ob.height * 1e3:g} mm high, above the box's rim "
                    f"({self.rim_z * 1e3:g} mm over the playfield)",
                )
        if board.spinner is not None and board.spinner.height > self.rim_z:
            raise SpecError(
                board.source,
                "spinner.height",
                f"{board.spinner.height * 1e3:g} mm stands above the box's rim "
                f"({self.rim_z * 1e3:g} mm over the playfield)",
            )


def load_box(path: str | Path | None = None) -> BoxSpec:
    """Load the box file (default: the shipped ``assets/box.toml``)."""
    return _load(str(path if path is not None else asset_path("box.toml")))


@functools.lru_cache(maxsize=8)
def _load(path: str) -> BoxSpec:
    top = DataTable(read_toml(path), path)
    top.check_keys(
        {
            "format",
            "units",
            "inner_size",
            "wall_height",
            "wall_thickness",
            "rim_width",
            "insert_top",
            "insert_thickness",
            "bet_card_leg",
            "bet_card_thickness",
            "corner_order",
        }
    )
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    top.string("units", "mm", choices=("mm",))
    sx, sy = top.vector("inner_size", 2)
    if sx <= 0 or sy <= 0:
        raise top.error("inner_size", "both sides must be positive")
    wall_height = top.number("wall_height", positive=True)
    insert_top = top.number("insert_top", positive=True)
    insert_thickness = top.number("insert_thickness", positive=True)
    if insert_top >= wall_height:
        raise top.error("insert_top", "the playfield must lie below the rim")
    if insert_thickness >= insert_top:
        raise top.error("insert_thickness", "must be less than insert_top (the cavity needs room)")
    order = top.raw("corner_order", list(CORNERS))
    if not isinstance(order, list) or sorted(order) != sorted(CORNERS):
        raise top.error("corner_order", f"expected the four corners {', '.join(CORNERS)} in some order")
    return BoxSpec(
        (sx * MM, sy * MM),
        wall_height * MM,
        top.number("wall_thickness", positive=True) * MM,
        top.number("rim_width", positive=True) * MM,
        insert_top * MM,
        insert_thickness * MM,
        top.number("bet_card_leg", positive=True) * MM,
        top.number("bet_card_thickness", positive=True) * MM,
        tuple(order),
        path,
    )
