"""Without an optional extra, the command that needs it names the extra in one line."""

from __future__ import annotations

import sys

import pytest

from doppelx.cli import main


@pytest.mark.parametrize(
    "argv, module, extra",
    [
        (["play", "--players", "3", "--humans", "0", "--seed", "1"], "pyglet", "window"),
        (
            ["simulate", "throws", "--board", "I", "--throws", "2", "--out", "{tmp}/run"],
            "pyarrow",
            "analysis",
        ),
        (
            ["sweep", "throws", "--throws", "2", "--vary", "hole_delta_mm=0,1", "--out", "{tmp}/s"],
            "pyarrow",
            "analysis",
        ),
    ],
    ids=["play", "simulate", "sweep"],
)
def test_a_missing_extra_is_one_line_naming_it(argv, module, extra, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, module, None)  # import of it now fails as if not installed
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert f"pip install 'doppelx[{extra}]'" in err
    assert not any(tmp_path.iterdir())
