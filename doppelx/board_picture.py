"""Draw a playfield side to a PNG (matplotlib): fields, white lines, labels, holes, spinner.

Used by ``doppelx boards show`` and, with dice and heat overlays, by the reports. Drawn in
millimetres, seen from straight above, with the box rim around the playfield.
"""

# ruff: noqa: I001  (imports are ordered on purpose: a backend is configured before it loads)

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from shapely.ops import polylabel  # noqa: E402
from shapely.geometry.base import BaseGeometry  # noqa: E402

from rules.atomic import save_figure  # noqa: E402
from rules.board import BoardSide  # noqa: E402
from rules.fieldmap import field_map  # noqa: E402
from rules.style import load_style  # noqa: E402

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
            label_field(ax, f, board, style.kind_label[f.kind])
    ax.set_xlim(minx - rim - 2, maxx + rim + 2)
    ax.set_ylim(miny - rim - 2, maxy + rim + 2)
    ax.set_aspect("equal")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")


def label_field(ax: plt.Axes, f, board: BoardSide, colour: str, zorder: int = 6) -> None:
    """Write field ``f``'s kind (``3x``, ``-1`` …) into its largest parts, sized to fit."""
    shape = f.shape
    for h in board.holes:
        shape = shape.difference(h.shape)
    if board.spinner is not None:
        from shapely.geometry import Point

        shape = shape.difference(Point(board.spinner.center).buffer(board.spinner.arm_length * 0.35))
    parts = sorted(getattr(shape, "geoms", [shape]), key=lambda g: -g.area)
    for part in parts[:3]:
        if part.is_empty or part.area < 1.5e-4:  # too small to carry a label (< 1.5 cm²)
            continue
        p = polylabel(part, tolerance=1e-4)
        size = float(np.clip(np.sqrt(part.area) * MM / 2.6, 9, 26))
        ax.text(
            p.x * MM,
            p.y * MM,
            f.kind.value,
            ha="center",
            va="center",
            color=colour,
            fontsize=size,
            fontweight="bold",
            zorder=zorder,
        )


def _draw_spinner(ax: plt.Axes, board: BoardSide, colour: str) -> None:
    s = board.spinner
    assert s is not None
    cx, cy = s.center
    angles = np.radians([90, 210, 330])
    tri = np.c_[cx + s.arm_length * np.cos(angles), cy + s.arm_length * np.sin(angles)] * MM
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
    ax.add_patch(plt.Polygon(tri, closed=True, facecolor=colour, edgecolor="#555555", alpha=0.85, zorder=7))
    ax.add_patch(plt.Circle((cx * MM, cy * MM), s.pin_radius * MM, color="#444444", zorder=8))


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
    ax.set_title(title or f"DoppelX — {board.title}", fontsize=13)
    fig.tight_layout()
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
