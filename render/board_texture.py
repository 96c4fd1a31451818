"""The printed playfield as an RGBA image: fields, white lines, labels, hole rims.

The image covers the box's inner rectangle (the insert top); rows run from north (max y)
to south, columns from west to east. Alpha is 0 inside the holes (the shaders use it to
keep shadows out of them) and 255 elsewhere. Near the walls the print is darkened a
little (baked contact shading).
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image
from shapely.geometry import Point
from shapely.ops import polylabel

from render.raster import fill_geometry, polygons, text_centred, text_width
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.box import BoxSpec
from rules.doppelx.fieldmap import field_map
from rules.doppelx.style import load_style

#: Smallest field part that carries a label (m²).
MIN_LABEL_AREA = 1.5e-4


@functools.lru_cache(maxsize=8)
def board_image(board: BoardSide, box: BoxSpec, size: int = 2048, supersample: int = 2) -> np.ndarray:
    """The playfield print, shape ``(rows, cols, 4)`` uint8; the longer side is ``size`` px."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    scale = size / (2 * max(hx, hy))  # px per m in the final image
    cols, rows = int(round(2 * hx * scale)), int(round(2 * hy * scale))
    s = scale * supersample

    def to_px(xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, dtype=float)[:, :2]
        return np.c_[(xy[:, 0] + hx) * s, (hy - xy[:, 1]) * s]

    style = load_style()
    fm = field_map(board)
    img = Image.new("RGB", (cols * supersample, rows * supersample), style.board["cardboard"])
    for f in board.fields:
        fill_geometry(img, f.shape, style.kind_fill[f.kind], to_px)
    if board.spinner is not None:
        sp = board.spinner
        ring = Point(sp.center).buffer(sp.arm_length + 0.003).exterior
        dots = [ring.interpolate(d) for d in np.arange(0, ring.length, 0.006)]
        for p in dots:
            fill_geometry(img, p.buffer(0.0006), style.board["spinner"], to_px)
    fill_geometry(img, fm.lines, style.board["line"], to_px)
    for h in board.holes:
        fill_geometry(img, h.shape.buffer(0.0012).difference(h.shape), style.board["hole_rim"], to_px)
        fill_geometry(img, h.shape, style.board["hole"], to_px)
    for x, y, height, text, kind, room in label_spots(board):
        px = int(height * s)
        while px > 8 and text_width(text, px) > room * s:
            px = int(px * 0.9)
        xy = to_px(np.array([[x, y]]))[0]
        text_centred(img, (xy[0], xy[1]), text, px, style.kind_label[kind])
    img = img.resize((cols, rows), Image.Resampling.LANCZOS)
    rgb = np.asarray(img, dtype=np.float32)
    rgb *= _wall_shade(cols, rows, scale)[..., None]
    rgb += _grain(rows, cols)[..., None]
    alpha = _hole_alpha(board, cols, rows, supersample, to_px)
    out = np.empty((rows, cols, 4), dtype=np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    out[..., 3] = alpha
    return out


@functools.lru_cache(maxsize=8)
def label_spots(board: BoardSide) -> tuple[tuple[float, float, float, str, FieldKind, float], ...]:
    """Where the print labels the fields: ``(x, y, text height m, text, kind, widest m)`` on each field's
    (up to 3) largest parts clear of holes and the pin (also used to keep die labels off them)."""
    out = []
    for f in board.fields:
        shape = f.shape
        for h in board.holes:
            shape = shape.difference(h.shape.buffer(0.004))
        if board.spinner is not None:
            shape = shape.difference(Point(board.spinner.center).buffer(board.spinner.pin_radius + 0.002))
        parts = sorted(polygons(shape), key=lambda g: -g.area)
        for part in parts[:3]:
            if part.area < MIN_LABEL_AREA:
                continue
            p = polylabel(part, tolerance=1e-4)
            clear = part.exterior.distance(p) - board.line_width / 2  # free radius around p (m)
            height = float(np.clip(np.sqrt(part.area) * 0.30, 0.005, 0.024))
            out.append((float(p.x), float(p.y), min(height, 1.1 * clear), f.kind.value, f.kind, 1.7 * clear))
    return tuple(out)


def _wall_shade(cols: int, rows: int, scale: float) -> np.ndarray:
    """Multiplier (rows, cols): a soft darkening within ~10 mm of the walls."""
    x = np.minimum(np.arange(cols) + 0.5, cols - np.arange(cols) - 0.5) / scale
    y = np.minimum(np.arange(rows) + 0.5, rows - np.arange(rows) - 0.5) / scale
    d = np.minimum(x[None, :], y[:, None])
    return (1.0 - 0.28 * np.exp(-d / 0.006)).astype(np.float32)


def _grain(rows: int, cols: int) -> np.ndarray:
    """A faint fixed paper grain (±3 levels) so large fields do not look like plastic."""
    rng = np.random.default_rng(7)
    g = rng.normal(0.0, 1.0, (rows // 4 + 1, cols // 4 + 1)).astype(np.float32)
    g = np.kron(g, np.ones((4, 4), dtype=np.float32))[:rows, :cols]
    fine = rng.normal(0.0, 1.0, (rows, cols)).astype(np.float32)
    return 1.6 * g + 1.2 * fine


def _hole_alpha(board: BoardSide, cols: int, rows: int, supersample: int, to_px) -> np.ndarray:
    mask = Image.new("L", (cols * supersample, rows * supersample), 255)
    for h in board.holes:
        fill_geometry(mask, h.shape, 0, to_px)
    return np.asarray(mask.resize((cols, rows), Image.Resampling.BILINEAR), dtype=np.uint8)
