"""``doppelx boards``: list, check and show (PNG with field colours where the file puts them)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.image import imread

from doppelx.board_picture import save_board_png
from doppelx.cli import main
from rules.board import FieldKind
from rules.board_file import load_board
from rules.style import hex_to_rgb, load_style


def test_list(capsys):
    assert main(["boards", "list"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == ["I", "II", "III", "IV"]


def test_check_good_and_bad(tmp_path, capsys):
    assert main(["boards", "check", "I", "III"]) == 0
    assert capsys.readouterr().out.count("ok") == 2
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'format = "doppelx-board/1"\nline_width = 3\n[outline]\npolygon = [[0,0],[1,0],[1,1],[0,1]]\n'
        '[[fields]]\nid = "a"\nkind = "5x"\npolygon = [[0,0],[1,0],[1,1],[0,1]]\n'
    )
    assert main(["boards", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "fields[0].kind" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "side, point_mm, kind",
    [
        ("I", (0, 0), "2x"),
        ("I", (-51, 75), "3x"),
        ("I", (-100, -20), "1x"),
        ("II", (112, 128), "-1"),
        ("III", (120, 0), "-1"),
        ("IV", (-128, -80), "X"),
    ],
)
def test_show_draws_field_colours_where_the_file_puts_them(tmp_path, capsys, side, point_mm, kind):
    out = tmp_path / "b.png"
    assert main(["boards", "show", side, "--out", str(out), "--dpi", "80"]) == 0
    assert "wrote" in capsys.readouterr().out
    picture = save_board_png(load_board(side), tmp_path / "again.png", dpi=80)
    img = imread(out)[..., :3]
    assert img.shape[1::-1] == picture.size
    col, row = picture.pixel(*point_mm)
    want = np.array(hex_to_rgb(load_style().kind_fill[FieldKind(kind)]))
    assert np.abs(img[row, col] - want).max() < 0.08


def test_show_draws_holes_dark(tmp_path):
    board = load_board("I")
    picture = save_board_png(board, tmp_path / "b.png", dpi=80)
    img = imread(picture.path)[..., :3]
    cx, cy, _ = board.holes[0].circle
    col, row = picture.pixel(cx * 1e3, cy * 1e3)
    assert img[row, col].max() < 0.1
