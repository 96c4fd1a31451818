"""``doppelx simulate`` and ``doppelx sweep`` with real physics: determinism across workers
and backends, resume after a killed run, the report and its figures, bad arguments."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from matplotlib.image import imread

from doppelx.cli import main

ROOT = Path(__file__).resolve().parents[2]


def rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def simulate(*args) -> int:
    return main(["simulate", *args, "--quiet"])


def test_throws_same_rows_for_any_workers_and_backend(tmp_path):
    base = ["throws", "--board", "I", "--throws", "16", "--seed", "5", "--chunk", "3"]
    assert simulate(*base, "--workers", "1", "--out", str(tmp_path / "one")) == 0
    assert simulate(*base, "--workers", "2", "--out", str(tmp_path / "two")) == 0
    assert simulate(*base, "--workers", "2", "--backend", "ray", "--out", str(tmp_path / "ray")) == 0
    one = rows(tmp_path / "one" / "throws.parquet")
    assert one == rows(tmp_path / "two" / "throws.parquet") == rows(tmp_path / "ray" / "throws.parquet")
    assert [r["item"] for r in one] == list(range(16))
    assert all(r["tunnelled"] == 0 for r in one)
    meta = json.loads(pq.read_schema(tmp_path / "one" / "throws.parquet").metadata[b"doppelx"])
    assert meta["spec"]["seed"] == 5 and meta["spec"]["params"]["board"] == "I"


def test_report_and_figures(tmp_path):
    assert simulate("throws", "--board", "II", "--throws", "12", "--seed", "1", "--out", str(tmp_path)) == 0
    report = (tmp_path / "report.md").read_text()
    for fig in ("heatmap.png", "fields.png"):
        assert f"({fig})" in report
        assert imread(tmp_path / fig).shape[0] > 200
    for section in ("Where dice end", "Chips per throw", "Bet cards", "Doppel X"):
        assert section in report


def test_games_run_and_report(tmp_path):
    assert (
        simulate(
            "games",
            "--players",
            "3",
            "--board",
            "III",
            "--games",
            "2",
            "--seed",
            "2",
            "--target",
            "15",
            "--workers",
            "2",
            "--out",
            str(tmp_path),
        )
        == 0
    )
    games = rows(tmp_path / "games.parquet")
    assert len(games) == 2 and all(g["players"] == 3 and max(g["chips"]) >= 15 for g in games)
    assert "Win rate by seat" in (tmp_path / "report.md").read_text()
    assert imread(tmp_path / "games.png").shape[0] > 100


def test_resume_after_a_killed_run(tmp_path):
    out = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-m",
        "doppelx",
        "simulate",
        "throws",
        "--board",
        "I",
        "--throws",
        "300",
        "--seed",
        "9",
        "--chunk",
        "10",
        "--quiet",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "chunks").glob("*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(list((out / "chunks").glob("*.parquet")))
    assert 3 <= done_before < 30, "the run should have been killed part-way"
    assert (
        simulate(
            "throws", "--board", "I", "--throws", "300", "--seed", "9", "--chunk", "10", "--out", str(out)
        )
        == 0
    )
    assert (
        simulate(
            "throws",
            "--board",
            "I",
            "--throws",
            "300",
            "--seed",
            "9",
            "--chunk",
            "10",
            "--out",
            str(tmp_path / "clean"),
        )
        == 0
    )
    assert rows(out / "throws.parquet") == rows(tmp_path / "clean" / "throws.parquet")


def test_sweep_compares_variants(tmp_path, capsys):
    assert (
        main(
            [
                "sweep",
                "throws",
                "--board",
                "I",
                "--throws",
                "10",
                "--seed",
                "1",
                "--quiet",
                "--json",
                "--vary",
                "hole_delta_mm=0,3",
                "--vary",
                "white_faces=default,1-2-3-X-X-2",
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert len(out["variants"]) == 4
    assert (tmp_path / "comparison.md").read_text().count("\n| hole_delta_mm=") == 4
    assert imread(tmp_path / "comparison.png").shape[0] > 100


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "throws", "--throws", "0", "--out", "x"], "from 1 to 10000000"),
        (["simulate", "throws", "--throws", "5", "--board", "VII", "--out", "x"], "not a built-in side"),
        (["simulate", "throws", "--throws", "5", "--policy", "field:9x", "--out", "x"], "--policy"),
        (["simulate", "games", "--games", "1", "--players", "2", "--out", "x"], "3 to 8 players"),
        (["simulate", "games", "--games", "1", "--cards", "A,B,C,Z", "--out", "x"], "unknown card"),
        (["simulate", "throws", "--throws", "5", "--faces", "white=1,2,3", "--out", "x"], "faces"),
        (["sweep", "throws", "--vary", "colour=red", "--out", "x"], "--vary"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys, args, words):
    args = [a if a != "x" else str(tmp_path / "x") for a in args]
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert words in err[-1]
