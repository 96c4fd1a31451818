"""The bet card prints: an atlas of the 4 cards in play, one square tile each.

A card is a right triangle over a box corner. In its tile the right angle is at the
bottom-left (u = v = 0) and the legs run along u and v; the print fills the triangle
``u + v ≤ 1``: card colour, an accent border, the big letter, the pay-out on a chip and a
short caption, all upright for a player standing at that corner looking into the box.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from render.raster import bold_font, text_centred, to_array
from rules.doppelx.bets import BetCard

#: Short captions by card condition (the full text is in the HUD help).
CAPTIONS = {
    "doppel_x": "Doppel X",
    "hole_or_off": "hole / off",
    "spinner_fling": "spinner",
    "field_3x": "3x field",
    "field_2x": "2x field",
    "field_1x": "1x field",
    "field_X": "X field",
}


def card_atlas(cards: tuple[BetCard, ...], tile: int = 512) -> np.ndarray:
    """Atlas of ``cards`` side by side, shape ``(tile, len(cards) * tile, 4)``, rows bottom-up."""
    tiles = [_card(c, tile) for c in cards]
    return np.flipud(np.concatenate(tiles, axis=1)).copy()


def _card(card: BetCard, t: int) -> np.ndarray:
    img = Image.new("RGBA", (t, t), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # image rows run top-down: (u, v) = (col / t, 1 - row / t)
    tri = [(0, t), (t, t), (0, 0)]
    d.polygon(tri, fill=card.accent)
    b = int(t * 0.045)
    inner = [(b, t - b), (t - int(2.4 * b), t - b), (b, int(2.4 * b))]
    d.polygon(inner, fill=card.colour)
    # text axis: "up" points from the corner into the box, i.e. towards (u, v) = (1, 1)
    angle = -45.0
    cx, cy = 0.27 * t, t - 0.27 * t  # near the centroid
    text_centred(img, (cx, cy), card.letter, int(t * 0.24), card.accent, angle)
    # pay-out on a chip, towards the corner
    chip_c = np.array([0.125 * t, t - 0.125 * t])
    r = 0.075 * t
    d.ellipse(
        [chip_c[0] - r, chip_c[1] - r, chip_c[0] + r, chip_c[1] + r],
        fill="#f5f1e6",
        outline="#9a1b1b",
        width=max(2, int(t * 0.012)),
    )
    text_centred(img, (chip_c[0], chip_c[1]), str(card.payout), int(t * 0.09), "#9a1b1b", angle)
    caption = CAPTIONS.get(card.condition, card.text[:12])
    size = int(t * 0.075)
    font = bold_font(size)
    while size > 10 and font.getlength(caption) > 0.55 * t:
        size -= 2
        font = bold_font(size)
    # parallel to the hypotenuse, inside the border
    text_centred(img, (0.405 * t, t - 0.405 * t), caption, size, card.accent, angle)
    return to_array(img)
