"""The other side of strictness: valid inputs still pass, and what a command reports is what it wrote."""

from __future__ import annotations

import json

import pytest

from tests.helpers.badinput import REPO, run_cli


def test_a_board_file_with_a_byte_order_mark_is_accepted(workdir, capsys):
    (workdir / "bom.toml").write_text(
        (REPO / "assets" / "boards" / "side_II.toml").read_text(), encoding="utf-8-sig"
    )
    res = run_cli(["boards", "check", "bom.toml"], capsys)
    assert res.code == 0 and res.out.startswith("ok  bom.toml"), res.err


def test_boards_show_writes_exactly_the_file_it_reports(workdir, capsys):
    res = run_cli(["boards", "show", "I", "--out", "existing.png", "--dpi", "30"], capsys)
    assert res.code == 0, res.err
    assert res.out.startswith("wrote existing.png (")
    assert (workdir / "existing.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in workdir.iterdir()) == sorted(
        ["state.json", "board.toml", "existing.png", "existing.json", "afile", "empty"]
    )
    # a name that does not end in .png is refused before drawing (no "noext.png" beside it either)
    res = run_cli(["boards", "show", "I", "--out", "noext", "--dpi", "30"], capsys)
    assert res.code == 2 and "ending in .png" in res.err and not (workdir / "noext").exists()
    assert not (workdir / "noext.png").exists()


@pytest.mark.parametrize("seed, lying", [(3, 4), (8, 6)])
def test_real_throws_pass_the_referees_physical_checks(workdir, capsys, seed, lying):
    """Every die the physics leaves on the board rests where the referee's checks allow."""
    res = run_cli(["throw", "--board", "III", "--seed", str(seed), "--lying", str(lying), "--json"], capsys)
    assert res.code == 0, res.err
    (workdir / "s.json").write_text(json.dumps(json.loads(res.out)["state"]))
    res = run_cli(["score", "--state", "s.json", "--json"], capsys)
    assert res.code == 0, res.err
