"""``doppelx boards``: list, check and show (PNG with field colours where the file puts them)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.image import imread

from doppelx.board_picture import save_board_png
from doppelx.cli import main
from rules.doppelx.board import FieldKind
from rules.doppelx.board_file import load_board
from rules.doppelx.style import hex_to_rgb, load_style


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


@pytest.mark.parametrize("name", ["b2.xyz", "b.jpg", "b.svg", "board"])
def test_show_refuses_a_picture_name_that_is_not_png_before_drawing(tmp_path, capsys, name):
    with pytest.raises(SystemExit) as exc:
        main(["boards", "show", "I", "--out", str(tmp_path / name)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--out" in err and "ending in .png" in err and name in err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []


def test_show_takes_an_upper_case_png_suffix(tmp_path, capsys):
    out = tmp_path / "B.PNG"
    assert main(["boards", "show", "I", "--out", str(out), "--dpi", "20"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_obstacle_of_height_zero_is_refused_as_the_format_doc_says(tmp_path, capsys):
    """docs/board-format.md: an obstacle's height is above 0 (a zero-height obstacle is nothing)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "board-format.md").read_text(encoding="utf-8")
    assert "height from 0" not in doc and "height above 0 and at most 100 mm" in " ".join(doc.split())
    side = (Path(__file__).resolve().parents[3] / "assets" / "boards" / "side_I.toml").read_text()
    side = side.replace('name = "I"', 'name = "towered"')  # a changed side I is not side I
    for height, code in (("0", 2), ("0.5", 0)):
        board = tmp_path / f"h{height}.toml"
        board.write_text(
            side + f'\n[[obstacles]]\nid = "tower"\npolygon = [[0, 0], [10, 0], [10, 10], [0, 10]]\n'
            f"height = {height}\n"
        )
        assert main(["boards", "check", str(board)]) == code
    assert "height: must be positive, got 0" in capsys.readouterr().err
