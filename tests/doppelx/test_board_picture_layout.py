"""Board pictures: a title of the longest allowed length fits the picture; field labels stay
off holes, obstacles and the spinner's triangle, and a field hidden under the triangle is
labelled on top of it; the ``--dpi`` help tells when labels can no longer be read."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
import shapely
from matplotlib.image import imread

from doppelx.board_picture import (
    SPINNER_ZORDER,
    _fit_title,
    draw_board,
    save_board_png,
    spinner_triangle,
)
from rules.common.schema import MAX_TEXT_CHARS
from rules.doppelx.board_file import builtin_board_path, load_board, parse_board

OBSTACLE_BOARD = {
    "format": "doppelx-board/1",
    "name": "ob",
    "units": "mm",
    "line_width": 3,
    "outline": {"polygon": [[-135, -135], [135, -135], [135, 135], [-135, 135]]},
    "fields": [
        {"id": "red", "kind": "2x", "polygon": [[-30, -30], [30, -30], [30, 30], [-30, 30]]},
        {"id": "blue", "kind": "1x", "fill": "rest"},
    ],
    "obstacles": [{"id": "block", "polygon": [[-10, -10], [10, -10], [10, 10], [-10, 10]], "height": 20}],
}


def labels(board):
    """(text, point in m, zorder) of every field label drawn for ``board``."""
    fig, ax = plt.subplots(figsize=(7.2, 7.6))
    try:
        draw_board(ax, board)
        return [
            (t.get_text(), shapely.Point(np.array(t.get_position()) / 1e3), t.get_zorder()) for t in ax.texts
        ]
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    "title", ["An eighty character title, to see how the picture copes with it, ok..", "W" * 80]
)
def test_a_title_of_the_longest_allowed_length_lies_inside_the_picture(tmp_path, title):
    title = (title * 2)[:MAX_TEXT_CHARS]
    board = load_board("I")
    fig, ax = plt.subplots(figsize=(7.2, 7.6))
    try:
        draw_board(ax, board)
        _fit_title(fig, ax, f"DoppelX — {title}")
        fig.canvas.draw()
        box = ax.title.get_window_extent(fig.canvas.get_renderer())
        assert box.x0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height
        assert "".join(ax.title.get_text().split()) == "".join(f"DoppelX — {title}".split())  # all of it
    finally:
        plt.close(fig)
    # and in the written picture, the title's band leaves the outer columns blank
    text = builtin_board_path("I").read_text()
    custom = tmp_path / "long.toml"
    custom.write_text(
        text.replace('name = "I"', 'name = "long"').replace(
            'title = "Side I (first game)"', f'title = "{title}"'
        )
    )
    picture = save_board_png(load_board(custom), tmp_path / "long.png", dpi=60)
    img = imread(picture.path)[..., :3]
    _, top = picture.pixel(0, 150)  # above the board's rim: the title's rows
    band = img[:top]
    edge = max(2, band.shape[1] // 100)
    assert band[:, :edge].min() > 0.9 and band[:, -edge:].min() > 0.9


def test_labels_avoid_obstacles():
    board = parse_board(OBSTACLE_BOARD, "ob.toml")
    found = labels(board)
    assert {t for t, _, _ in found} == {"2x", "1x"}
    for _, p, _ in found:
        assert not board.obstacles[0].shape.buffer(0.002).contains(p)


@pytest.mark.parametrize("side", ["I", "II", "III", "IV"])
def test_labels_lie_off_holes_and_the_spinner_unless_the_field_hides_under_it(side):
    board = load_board(side)
    triangle = spinner_triangle(board)
    for text, p, z in labels(board):
        assert not any(h.shape.contains(p) for h in board.holes), (text, p)
        if triangle is not None and triangle.contains(p):
            assert z > SPINNER_ZORDER, f"{text} at {p} is drawn under the spinner"
            f = next(f for f in board.fields if f.kind.value == text and f.shape.contains(p))
            assert f.shape.difference(triangle.buffer(0.0015)).area < 1.5e-4  # wholly hidden


def test_side_iii_centre_and_side_iv_bands_are_labelled_where_they_can_be_read():
    hub = load_board("III").field("gold-hub")
    on_hub = [(p, z) for t, p, z in labels(load_board("III")) if t == "3x" and hub.shape.contains(p)]
    assert len(on_hub) == 1 and on_hub[0][1] > SPINNER_ZORDER and on_hub[0][0].y < 0  # below the pin
    board = load_board("IV")
    triangle = spinner_triangle(board)
    assert not any(triangle.contains(p) for _, p, _ in labels(board))


def test_the_dpi_help_says_where_labels_become_unreadable(capsys):
    from doppelx.cli import main

    with pytest.raises(SystemExit):
        main(["boards", "show", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "20–600" in out and "below 60" in out and "cannot be read" in out
