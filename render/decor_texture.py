"""Textures of the surroundings: the wooden table top and the printed outside of the box."""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw

from render.raster import bold_font, to_array

BOX_PRINT = "#1d2b53"  # the outside of the box
BOX_LOGO = "#f4c21b"


@functools.lru_cache(maxsize=1)
def wood_image(size: int = 1024) -> np.ndarray:
    """Table top: planks of warm wood with grain, ``(size, size, 4)`` uint8, rows along x."""
    rng = np.random.default_rng(11)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    planks = 4
    plank = np.floor(y * planks).astype(int)
    warp = _smooth_noise(rng, size, 6) * 0.05 + _smooth_noise(rng, size, 24) * 0.006
    grain_y = y * planks - plank + warp + rng.uniform(0, 1, planks)[plank]
    rings = np.sin(grain_y * 2 * np.pi * (9 + 5 * rng.uniform(size=planks)[plank])) * 0.5 + 0.5
    rings = rings**2.2
    fibre = _smooth_noise(rng, size, 160) * 0.5 + 0.5
    base = np.array([160, 108, 66], dtype=np.float32)
    dark = np.array([100, 60, 32], dtype=np.float32)
    t = (0.6 * rings + 0.25 * fibre)[..., None]
    shade = (1 - t) * base + t * dark
    shade *= (0.9 + 0.18 * rng.uniform(size=planks)[plank])[..., None]
    seam = np.abs(y * planks - np.round(y * planks)) * size / planks < 1.2
    shade[seam] *= 0.5
    out = np.empty((size, size, 4), dtype=np.uint8)
    out[..., :3] = np.clip(shade, 0, 255)
    out[..., 3] = 255
    return out


def _smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Smooth value noise in [-1, 1] with ``cells`` random values per side, stretched along x."""
    grid = rng.uniform(-1, 1, (cells, max(2, cells // 6))).astype(np.float32)
    img = Image.fromarray(grid, mode="F").resize((size, size), Image.Resampling.BICUBIC)
    return np.asarray(img, dtype=np.float32)


@functools.lru_cache(maxsize=1)
def box_side_image(width: int = 1024, height: int = 256) -> np.ndarray:
    """The outside of a box wall: dark blue print with the yellow logo, rows bottom-up."""
    img = Image.new("RGB", (width, height), BOX_PRINT)
    d = ImageDraw.Draw(img)
    d.rectangle([0, int(height * 0.08), width, int(height * 0.12)], fill="#d7263d")
    d.rectangle([0, int(height * 0.88), width, int(height * 0.92)], fill="#d7263d")
    font = bold_font(int(height * 0.46))
    text = "DoppelX"
    w = font.getlength(text)
    d.text(((width - w) / 2, height * 0.22), text, font=font, fill=BOX_LOGO)
    return np.flipud(to_array(img)).copy()
