"""What the referee view outlines: each die's footprint and the field it counts for.

Uses the rules' own reading (:func:`rules.doppelx.reading.footprint`, :func:`rules.doppelx.reading.read_die`)
so the picture shows exactly what the referee decides; nothing here decides anything.
Outlines are returned as flat ribbon meshes (m) with colours, plus label anchors.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Point
from shapely.ops import unary_union

from render.mesh import Mesh, flat_mesh
from render.parts_mesh import card_corner, card_polygon
from render.snapshot import TableSpec
from rules.doppelx.fieldmap import field_map
from rules.doppelx.outcome import DieOutcome, Pose, Status
from rules.doppelx.reading import DieReading, footprint, read_die
from rules.doppelx.style import hex_to_rgb, load_style

#: Ribbon widths (m): footprint line and its dark halo, field outline and its halo.
FOOT_W, FOOT_HALO = 0.0010, 0.0020
FIELD_W, FIELD_HALO = 0.0016, 0.0028
#: How far inside the counted field's region its outline runs (m).
FIELD_INSET = 0.0022
#: Height of the outlines above the playfield (m).
LIFT = 0.0004


@dataclass(frozen=True)
class Outline:
    """One flat ribbon to draw: mesh (m, in the board frame) and RGBA colour."""

    mesh: Mesh
    rgba: tuple[float, float, float, float]


@dataclass(frozen=True)
class RefereeLabel:
    """A label for one die: text, anchor point (m) and colour."""

    text: str
    position: tuple[float, float, float]
    colour: str


def on_playfield(table: TableSpec, pose: Pose) -> bool:
    """Whether a die's centre lies over the playfield and above its surface."""
    x, y, z = pose.position
    return z > 0.0 and table.board.outline.covers(Point(x, y))


def ribbon(geom, width: float, z: float) -> Mesh:
    """A flat band of ``width`` m along the boundary of ``geom`` at height ``z``."""
    return flat_mesh(geom.boundary.buffer(width / 2, quad_segs=4), z)


def outlines(table: TableSpec, dice: dict[str, Pose]) -> tuple[list[Outline], list[RefereeLabel]]:
    """Ribbons and labels for every die lying over the playfield, read by the rules."""
    fm = field_map(table.board)
    index = {f.id: i for i, f in enumerate(table.board.fields)}
    out: list[Outline] = []
    labels: list[RefereeLabel] = []
    for owner, pose in dice.items():
        if owner not in table.dice.dice or not on_playfield(table, pose):
            continue
        spec = table.dice[owner]
        rgb = hex_to_rgb(spec.colour)
        reading: DieReading = read_die(
            DieOutcome(owner, Status.BOARD, pose), spec, table.board, table.dice.cocked_angle
        )
        if reading.field_id is not None:
            # drawn just inside the region, so neighbouring fields' outlines never coincide
            region = fm.regions[index[reading.field_id]].buffer(-FIELD_INSET, join_style="mitre")
            out.append(Outline(ribbon(region, FIELD_HALO, LIFT), (0.0, 0.0, 0.0, 0.85)))
            out.append(Outline(ribbon(region, FIELD_W, LIFT * 1.5), (*rgb, 1.0)))
        foot = footprint(pose, spec)
        out.append(Outline(ribbon(foot, FOOT_HALO, LIFT * 2), (0.0, 0.0, 0.0, 0.9)))
        out.append(Outline(ribbon(foot, FOOT_W, LIFT * 2.5), (1.0, 1.0, 1.0, 1.0)))
        field = reading.field.value if reading.field is not None else "no field"
        text = f"{reading.top} on {field}" + (" (cocked)" if reading.cocked else "")
        x0, y0, x1, y1 = foot.bounds
        # the window shows it white on a dark plate, with a swatch of the die's colour
        labels.append(RefereeLabel(text, (float((x0 + x1) / 2), float(y0) - 0.004, 0.0), spec.colour))
    return out, labels


#: A field under a bet card shown on the card's top: its fill's opacity, its outline's width (m).
UNDER_CARD_FILL, UNDER_CARD_LINE = 0.3, 0.0012
#: Parts of fields under a card smaller than this (m²) are left out (a sliver along an edge).
UNDER_CARD_MIN_AREA = 20e-6


def fields_under_cards(table: TableSpec) -> tuple[list[Outline], list[Outline]]:
    """The printed fields a bet card covers (side III's and IV's 3x corners), drawn on the
    card's top where they lie below it: a faint fill in the field's colour and its border lines
    (white, as the print's own lines, on a dark halo), so the corner is read through the card. Returns the
    fills and the lines apart (a see-through card shows the field itself: only its lines then)."""
    box = table.box
    style = load_style()
    z = box.rim_z + box.bet_card_thickness + 0.0002
    fills: list[Outline] = []
    out: list[Outline] = []
    for corner in box.corner_order[: len(table.cards)]:
        card = card_polygon(box, corner)
        a, u, v = card_corner(box, corner)
        leg = box.bet_card_leg
        # the card's letter and its pay-out chip (render.card_texture) stay clear: a line across
        # the letter made a "B" read as a "D"
        marks = unary_union(
            [
                Point(a + (u + v) * 0.27 * leg).buffer(0.16 * leg),
                Point(a + (u + v) * 0.125 * leg).buffer(0.09 * leg),
            ]
        )
        for field in table.board.fields:
            part = field.shape.intersection(card).difference(marks)
            if part.is_empty or part.area < UNDER_CARD_MIN_AREA:
                continue
            rgb = hex_to_rgb(style.kind_fill[field.kind])
            fills.append(Outline(flat_mesh(part, z), (*rgb, UNDER_CARD_FILL)))
            edge = field.shape.boundary.intersection(card.buffer(-UNDER_CARD_LINE)).difference(marks)
            if edge.is_empty:
                continue
            out.append(
                Outline(
                    flat_mesh(edge.buffer(UNDER_CARD_LINE, cap_style="flat"), z + 0.0001),
                    (0.0, 0.0, 0.0, 0.8),
                )
            )
            out.append(
                Outline(
                    flat_mesh(edge.buffer(UNDER_CARD_LINE / 2, cap_style="flat"), z + 0.0002),
                    (1.0, 1.0, 1.0, 0.95),
                )
            )
    return fills, out


__all__ = ["Outline", "RefereeLabel", "fields_under_cards", "on_playfield", "outlines", "ribbon"]
