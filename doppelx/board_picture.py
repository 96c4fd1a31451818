"""Draw a playfield side to a PNG (matplotlib): fields, white lines, labels, holes, spinner.

Used by ``doppelx boards show`` and, with dice and heat overlays, by the reports. Drawn in
millimetres, seen from straight above, with the box rim around the playfield.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import PathPatch
from matplotlib.path import Path as MplPath
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from rules.common.atomic import save_figure
from rules.doppelx.board import BoardSide
from rules.doppelx.fieldmap import field_map
from rules.doppelx.style import load_style

MM = 1e3


def geometry_patch(geom: BaseGeometry, **kwargs) -> PathPatch:
    """A matplotlib patch of a (multi)polygon with holes, coordinates in m drawn as mm."""
    verts, codes = [], []
    polys = getattr(geom, "geoms", [geom])
    for poly in polys:
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords) * MM
            verts.extend(xy.tolist())
            codes.extend([MplPath.MOVETO] + [MplPath.LINETO] * (len(xy) - 2) + [MplPath.CLOSEPOLY])
    if not verts:
        verts, codes = [(0, 0)], [MplPath.MOVETO]
    return PathPatch(MplPath(verts, codes), **kwargs)


def draw_board(ax: plt.Axes, board: BoardSide, *, labels: bool = True, alpha: float = 1.0) -> None:
    """Draw ``board`` onto ``ax`` (mm, equal aspect)."""
    style = load_style()
    fm = field_map(board)
    minx, miny, maxx, maxy = (v * MM for v in board.bounds)
    rim = 6.0
    ax.add_patch(
        plt.Rectangle(
            (minx - rim, miny - rim),
            maxx - minx + 2 * rim,
            maxy - miny + 2 * rim,
            color=style.board["cardboard"],
            zorder=0,
        )
    )
    for f in board.fields:
        ax.add_patch(
            geometry_patch(
                f.shape, facecolor=style.kind_fill[f.kind], edgecolor="none", alpha=alpha, zorder=1
            )
        )
    ax.add_patch(geometry_patch(fm.lines, facecolor=style.board["line"], edgecolor="none", zorder=2))
    for h in board.holes:
        ax.add_patch(
            geometry_patch(
                h.shape.buffer(0.0015), facecolor=style.board["hole_rim"], edgecolor="none", zorder=3
            )
        )
        ax.add_patch(geometry_patch(h.shape, facecolor=style.board["hole"], edgecolor="none", zorder=4))
    for ob in board.obstacles:
        ax.add_patch(
            geometry_patch(
                ob.shape, facecolor=style.board["obstacle"], edgecolor="#3b2f1e", linewidth=1.2, zorder=5
            )
        )
    if board.spinner is not None:
        _draw_spinner(ax, board, style.board["spinner"])
    if labels:
        for f in board.fields:
            label_field(ax, f, board, style.kind_label[f.kind], halo=style.kind_fill[f.kind])
    ax.set_xlim(minx - rim - 2, maxx + rim + 2)
    ax.set_ylim(miny - rim - 2, maxy + rim + 2)
    ax.set_aspect("equal")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")


#: Smallest part of a field that carries a label (m²: 1.5 cm²).
MIN_LABEL_AREA = 1.5e-4
#: Label sizes (points): the smallest still readable at the default resolution, the largest.
LABEL_PT = (9.0, 26.0)
#: Drawing order: fields 1, lines 2, holes 3–4, obstacles and sweep circle 5, labels 6,
#: spinner triangle 7, pin 8; a label of a field hidden under the spinner goes above it.
SPINNER_ZORDER = 7


def spinner_triangle(board: BoardSide):
    """The spinner's triangle as drawn (resting, one tip towards +y), a shapely polygon in m; ``None`` without a spinner."""
    s = board.spinner
    if s is None:
        return None
    from shapely.geometry import Polygon

    cx, cy = s.center
    angles = np.radians([90, 210, 330])
    return Polygon(np.c_[cx + s.arm_length * np.cos(angles), cy + s.arm_length * np.sin(angles)])


def _label_parts(shape: BaseGeometry) -> list:
    """The up to three largest parts of ``shape`` big enough to carry a label."""
    parts = sorted(getattr(shape, "geoms", [shape]), key=lambda g: -g.area)
    return [p for p in parts[:3] if not p.is_empty and p.area >= MIN_LABEL_AREA]


def label_field(
    ax: plt.Axes, f, board: BoardSide, colour: str, zorder: int = 6, halo: str | None = None
) -> None:
    """Write field ``f``'s kind (``3x``, ``-1`` …) into its largest visible parts, sized to fit.

    Holes and obstacles are left out of the label's area, and so is the spinner's triangle;
    a field that lies (nearly) all under the triangle is labelled on top of it, beside the
    pin (below it where there is room), outlined in ``halo`` (the field's colour) so it reads on the light triangle.
    """
    shape = f.shape
    for cover in [h.shape for h in board.holes] + [ob.shape for ob in board.obstacles]:
        shape = shape.difference(cover)
    on_top = False
    triangle = spinner_triangle(board)
    parts = _label_parts(shape if triangle is None else shape.difference(triangle.buffer(0.0015)))
    if triangle is not None and not parts:
        from shapely.geometry import Point, box

        s = board.spinner
        assert s is not None
        hidden = shape.intersection(triangle)
        below = box(-1.0, -1.0, 1.0, s.center[1] - s.pin_radius - 0.002)  # under the pin reads best
        pin = Point(s.center).buffer(s.pin_radius + 0.004)
        parts = _label_parts(hidden.intersection(below))[:1] or _label_parts(hidden.difference(pin))[:1]
        on_top = True
    for part in parts:
        p = polylabel(part, tolerance=1e-4)
        room = part.exterior.distance(p) if part.geom_type == "Polygon" else 0.0
        room = min([room, *(ring.distance(p) for ring in part.interiors)]) - board.line_width / 2
        # by the area (of the whole hidden field for one on the spinner), and no larger than
        # the circle clear of lines around the label's point holds: "3x" in bold is about
        # 1.4 × 0.75 em, half its diagonal 0.8 em, and 1 mm is about 1.6 pt on the picture
        area = hidden.area if on_top else part.area
        size = float(np.clip(min(np.sqrt(area) * MM / 2.6, 2.0 * room * MM), *LABEL_PT))
        text = ax.text(
            p.x * MM,
            p.y * MM,
            f.kind.value,
            ha="center",
            va="center",
            color=colour,
            fontsize=size,
            fontweight="bold",
            zorder=max(zorder, SPINNER_ZORDER + 2) if on_top else zorder,
        )
        if on_top and halo is not None:
            from matplotlib import patheffects

            text.set_path_effects([patheffects.withStroke(linewidth=3, foreground=halo)])


def _draw_spinner(ax: plt.Axes, board: BoardSide, colour: str) -> None:
    s = board.spinner
    assert s is not None
    cx, cy = s.center
    triangle = spinner_triangle(board)
    assert triangle is not None
    tri = np.asarray(triangle.exterior.coords)[:-1] * MM
    ax.add_patch(
        plt.Circle(
            (cx * MM, cy * MM),
            s.arm_length * MM,
            fill=False,
            linestyle=":",
            edgecolor=colour,
            linewidth=1.0,
            zorder=5,
        )
    )
    ax.add_patch(
        plt.Polygon(
            tri, closed=True, facecolor=colour, edgecolor="#555555", alpha=0.85, zorder=SPINNER_ZORDER
        )
    )
    ax.add_patch(
        plt.Circle((cx * MM, cy * MM), s.pin_radius * MM, color="#444444", zorder=SPINNER_ZORDER + 1)
    )


#: Title size (points); a long title is wrapped onto more lines rather than made smaller.
TITLE_PT = 13


def _fit_title(fig, ax: plt.Axes, text: str) -> None:
    """Set ``text`` as the title and lay the figure out, wrapped onto as many lines as it
    takes to lie wholly inside the picture (a title may be 80 characters, wider than a line)."""
    import textwrap

    renderer = fig.canvas.get_renderer()
    width = len(text)
    while True:
        lines = textwrap.wrap(text, width, break_on_hyphens=False) or [text]
        shown = ax.set_title("\n".join(lines), fontsize=TITLE_PT)
        fig.tight_layout()
        box = shown.get_window_extent(renderer)
        margin = 0.02 * fig.bbox.width  # a little air between the title and the picture's edge
        over = max(0.0, margin - box.x0, box.x1 - (fig.bbox.width - margin))
        if over <= 0 or width <= 8:
            return
        # narrower in proportion to how far it sticks out on its worse side, at least by one
        width = min(width - 1, int(width * (box.width - 2 * over) / box.width))
        width = max(width, 8)


@dataclass(frozen=True)
class BoardPicture:
    """A written board PNG and the pixel (column, row) of each board point (mm)."""

    path: Path
    size: tuple[int, int]
    _to_pixel: np.ndarray  # 3×3 affine: (x_mm, y_mm, 1) → (col, row, 1)

    def pixel(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        col, row, _ = self._to_pixel @ np.array([x_mm, y_mm, 1.0])
        return int(round(col)), int(round(row))


def save_board_png(
    board: BoardSide, out: Path | str, *, dpi: int = 110, overlays: Iterable = (), title: str | None = None
) -> BoardPicture:
    """Draw ``board`` to the PNG ``out``; each overlay is called as ``overlay(ax)`` on top."""
    out = Path(out)
    fig, ax = plt.subplots(figsize=(7.2, 7.6))
    draw_board(ax, board)
    for overlay in overlays:
        overlay(ax)
    _fit_title(fig, ax, title or f"DoppelX — {board.title}")
    save_figure(fig, out, dpi=dpi)
    fig.canvas.draw()
    width, height = fig.canvas.get_width_height()
    scale = dpi / fig.dpi
    (c0, r0), (c1, r1) = ax.transData.transform([(0.0, 0.0), (1.0, 1.0)])
    to_pixel = np.array(
        [[(c1 - c0) * scale, 0, c0 * scale], [0, -(r1 - r0) * scale, (height - r0) * scale], [0, 0, 1]]
    )
    plt.close(fig)
    return BoardPicture(out, (int(width * scale), int(height * scale)), to_pixel)


__all__ = ["BoardPicture", "draw_board", "geometry_patch", "save_board_png"]
