"""``--engine mujoco`` on throw, game and simulate; a bad engine name exits 2; two-sample tests."""

from __future__ import annotations

import json

import numpy as np
import pytest

from doppelx.bench.twosample import chi2_homogeneity, chi2_sf, ks_2samp
from doppelx.cli import main


def test_throw_json_in_mujoco_is_deterministic(capsys):
    pytest.importorskip("mujoco")
    args = ["throw", "--board", "III", "--seed", "3", "--lying", "2", "--engine", "mujoco", "--json"]
    assert main(args) == 0
    a = json.loads(capsys.readouterr().out)
    assert a["sim"]["engine"] == "mujoco" and a["sim"]["settled"] and a["sim"]["tunnelled"] == []
    assert all(d["status"] in ("board", "hole", "off") for d in a["outcome"])
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == a


def test_game_in_mujoco(capsys):
    pytest.importorskip("mujoco")
    args = ["game", "--players", "3", "--board", "I", "--seed", "2", "--engine", "mujoco", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["winner"] in out["summary"]["seats"]
    assert all(d["status"] in ("board", "hole", "off") for t in out["log"] for d in t["dice"])


def test_simulate_throws_in_mujoco(tmp_path, capsys):
    pytest.importorskip("mujoco")
    import pyarrow.parquet as pq

    out = tmp_path / "run"
    args = ["simulate", "throws", "--board", "I", "--throws", "3", "--seed", "1", "--quiet"]
    assert main([*args, "--engine", "mujoco", "--out", str(out)]) == 0
    table = pq.read_table(out / "throws.parquet")
    assert table.num_rows == 3
    assert set(table.column("c_status").to_pylist()) <= {"board", "hole", "off"}
    from doppelx.batch.store import read_run_metadata

    assert read_run_metadata(out / "throws.parquet")["spec"]["params"]["engine"] == "mujoco"


@pytest.mark.parametrize(
    "command",
    [
        ["throw", "--board", "I", "--seed", "1"],
        ["game", "--players", "3", "--board", "I", "--seed", "1"],
        ["simulate", "throws", "--throws", "1", "--out", "x"],
        ["sweep", "throws", "--out", "x"],
        ["bench", "--quick"],
    ],
)
def test_bad_engine_exits_2(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*command, "--engine", "ode"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--engine" in err and "ode" in err and "mujoco" in err


def test_chi_square_and_ks_p_values():
    assert chi2_sf(20.515, 5) == pytest.approx(0.001, rel=1e-3)
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, rel=1e-3)
    assert chi2_homogeneity([50, 50], [50, 50])[2] == pytest.approx(1.0)
    assert chi2_homogeneity([90, 10], [10, 90])[2] < 1e-10
    rng = np.random.default_rng(0)
    same = [ks_2samp(rng.normal(size=300), rng.normal(size=300))[1] for _ in range(200)]
    assert 0.02 < np.mean(np.array(same) < 0.05) < 0.09  # about 5 % false alarms
    assert ks_2samp(rng.normal(size=300), rng.normal(0.5, size=300))[1] < 1e-4


def test_bench_engines_json_and_plot(tmp_path, capsys):
    pytest.importorskip("mujoco")
    png = tmp_path / "engines.png"
    assert main(["bench", "engines", "--throws", "2", "--json", "--out", str(png)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "doppelx-bench-engines/1" and out["throws"] == 2
    assert set(out["engines"]) == {"pybullet", "mujoco"}
    for e in out["engines"].values():
        assert sum(e["kinds"].values()) == 4 and e["throws_per_s"] > 0
        assert len(e["travel_mm"]["values"]) == 4 and len(e["validation"]["drop"]) == 5
    mj = out["engines"]["mujoco"]["validation"]
    assert all(abs(r["e_measured"] - r["e_material"]) < 0.05 for r in mj["drop"])
    assert {t["metric"] for t in out["tests"]} == {"kinds", "faces", "hole", "off", "settle_s", "travel_mm"}
    assert all(0.0 <= t["p"] <= 1.0 for t in out["tests"])
    assert png.stat().st_size > 10_000


def test_bench_suite_in_mujoco(capsys):
    pytest.importorskip("mujoco")
    assert main(["bench", "--quick", "--engine", "mujoco", "--scene", "drop", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "mujoco" and out["scenes"] == ["drop"]
    assert {r["verdict"] for r in out["rows"]} == {"ok"}  # judged against the quick@mujoco section
    assert main(["bench", "--quick", "--engine", "mujoco", "--scene", "pile"]) == 2
    assert "runs only drop, incline, rim, converge, tray, speed" in capsys.readouterr().err


def test_missing_mujoco_is_one_line_naming_the_extra(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "mujoco", None)  # as if not installed
    assert main(["throw", "--board", "I", "--seed", "1", "--engine", "mujoco"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "doppelx[mujoco]" in err
