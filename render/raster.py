"""Drawing helpers for the textures: a bold font, shapely geometry filled into a PIL image.

Pillow comes with matplotlib (a project dependency); the font is matplotlib's bundled
DejaVu Sans Bold, so textures look the same on every machine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry.base import BaseGeometry

#: Maps world (x, y) in m to image (col, row) in px.
ToPixel = Callable[[np.ndarray], np.ndarray]


@functools.lru_cache(maxsize=32)
def bold_font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans Bold at ``size_px`` pixels (matplotlib's copy; Pillow's default otherwise)."""
    import matplotlib

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
    if path.exists():
        return ImageFont.truetype(str(path), max(1, int(size_px)))
    return ImageFont.load_default(size=max(1, int(size_px)))


def polygons(geom: BaseGeometry):
    """The polygons of a (multi)polygon or geometry collection, empty ones skipped."""
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    return [p for g in getattr(geom, "geoms", []) for p in polygons(g)]


def fill_geometry(img: Image.Image, geom: BaseGeometry, colour, to_px: ToPixel) -> None:
    """Fill the polygons of ``geom`` (with their interiors left open) into ``img``.

    Args:
        img: an RGB or RGBA image, changed in place.
        geom: shapely (multi)polygon in world units.
        colour: a PIL colour (``"#rrggbb"`` or a tuple).
        to_px: world → pixel mapping.
    """
    for poly in polygons(geom):
        ext = to_px(np.asarray(poly.exterior.coords))
        x0, y0 = np.floor(ext.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(ext.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, img.width), min(y1, img.height)
        if x1 <= x0 or y1 <= y0:
            continue
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(mask)
        off = np.array([x0, y0])
        draw.polygon([tuple(p) for p in (ext - off)], fill=255)
        for ring in poly.interiors:
            draw.polygon([tuple(p) for p in (to_px(np.asarray(ring.coords)) - off)], fill=0)
        img.paste(Image.new(img.mode, mask.size, colour), (int(x0), int(y0)), mask)


def text_centred(
    img: Image.Image, xy: tuple[float, float], text: str, size_px: int, colour, angle_deg: float = 0.0
) -> None:
    """Draw ``text`` centred on pixel ``xy``, turned counter-clockwise by ``angle_deg``."""
    font = bold_font(size_px)
    # whole pixels (Pillow's stubs type a FreeType box as floats; its values are integers)
    left, top, right, bottom = (int(v) for v in font.getbbox(text))
    w, h = right - left, bottom - top
    pad = 4
    tile = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(tile).text((pad - left, pad - top), text, font=font, fill=255)
    if angle_deg:
        tile = tile.rotate(angle_deg, resample=Image.Resampling.BICUBIC, expand=True)
    x = int(round(xy[0] - tile.width / 2))
    y = int(round(xy[1] - tile.height / 2))
    img.paste(Image.new(img.mode, tile.size, colour), (x, y), tile)


def text_width(text: str, size_px: int) -> int:
    """Width in px of ``text`` at ``size_px``."""
    left, _, right, _ = bold_font(size_px).getbbox(text)
    return int(right - left)


def to_array(img: Image.Image) -> np.ndarray:
    """RGBA uint8 array (rows top to bottom) of ``img``."""
    return np.asarray(img.convert("RGBA"), dtype=np.uint8).copy()
