"""The tidy tables of ``doppelx simulate``/``sweep`` (real physics, real Parquet): their schema,
determinism whatever the workers, one hive-partitioned dataset across a sweep's variants read
by DuckDB, pandas and polars (each where installed), ``--extend``, the designer's report and its
HTML page, card G within the spinner's reach, and the statistics behind the report."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from doppelx.batch.tidy import SCHEMAS
from doppelx.cli import main

ROOT = Path(__file__).resolve().parents[2]


def simulate(*args) -> int:
    return main(["simulate", *args, "--quiet"])


def table(folder: Path, name: str):
    return pq.read_table(folder / name / "part-0.parquet")


def test_throws_tables_schema_and_same_rows_for_any_workers(tmp_path):
    base = ["throws", "--board", "III", "--throws", "6", "--lying", "2", "--seed", "3"]
    assert simulate(*base, "--workers", "1", "--out", str(tmp_path / "one")) == 0
    assert simulate(*base, "--workers", "2", "--chunk", "2", "--out", str(tmp_path / "two")) == 0
    for name in ("throws", "dice", "bets"):
        one = table(tmp_path / "one", name)
        assert one.schema.names == SCHEMAS[name].names
        assert one.equals(table(tmp_path / "two", name)), name
    dice = table(tmp_path / "one", "dice").to_pylist()
    assert len(dice) == 6 * 4  # two thrown, two lying a throw
    assert {d["role"] for d in dice} == {"thrown", "lying"}
    assert all((d["face"] is None) == (d["status"] != "board") for d in dice)
    throws = table(tmp_path / "one", "throws").to_pylist()
    assert all(t["lying"] == 2 and t["lying_in_reach"] == 1 for t in throws)  # the default on side III
    bets = table(tmp_path / "one", "bets").to_pylist()
    assert len(bets) == 6 * 8 and sorted({b["card"] for b in bets}) == list("ABCDEFGH")
    wide = pq.read_table(tmp_path / "one" / "throws.parquet").to_pylist()
    for t in throws:  # the tidy rows agree with the wide table
        w = wide[t["item"]]
        assert (t["chips"], t["doppel_x"]) == (w["chips"], w["doppel_x"])
        assert [b["paid"] for b in bets if b["item"] == t["item"]] == [w[f"bet_{c}"] for c in "ABCDEFGH"]
    assert not any(n.startswith("tidy_") for n in pq.read_schema(tmp_path / "one" / "throws.parquet").names)


def test_run_file_says_no_spinner_on_a_side_without_one(tmp_path):
    assert simulate("throws", "--board", "I", "--throws", "2", "--out", str(tmp_path)) == 0
    assert json.loads((tmp_path / "run.json").read_text())["params"]["spinner"] is None
    report = (tmp_path / "report.md").read_text()
    assert "not measurable: side I has no spinner" in report
    assert "0.0 % [0.0" not in report.split("| G |")[1].splitlines()[0]
    # in the tables too: card G cannot pay and no die can touch a spinner — null, not 0 / false
    bets = table(tmp_path, "bets").to_pylist()
    assert {b["paid"] for b in bets if b["card"] == "G"} == {None}
    assert all(b["paid"] is not None for b in bets if b["card"] != "G")
    assert {d["touched"] for d in table(tmp_path, "dice").to_pylist()} == {None}


def test_sweep_is_one_hive_dataset_read_by_each_installed_reader(tmp_path):
    out = tmp_path / "sweep"
    args = ["sweep", "throws", "--board", "III", "--throws", "3", "--lying", "1", "--seed", "2"]
    assert (
        main([*args, "--vary", "hole_delta_mm=0,2", "--vary", "spinner=on,off", "--quiet", "--out", str(out)])
        == 0
    )
    assert (out / "dice" / "hole_delta_mm=2" / "spinner=off" / "part-0.parquet").is_file()
    for k in range(4):
        assert (out / f"variant-{k:02d}" / "report.html").is_file()
    dice = ds.dataset(out / "dice", format="parquet", partitioning="hive").to_table().to_pylist()
    assert len(dice) == 4 * 3 * 3
    assert {(d["hole_delta_mm"], d["spinner"]) for d in dice} == {
        (0, "on"),
        (0, "off"),
        (2, "on"),
        (2, "off"),
    }
    comparison = (out / "comparison.md").read_text()
    assert "not measurable: the spinner was left off" in comparison and "| p | r |" in comparison
    assert (out / "comparison.html").read_text().count("data:image/png;base64,") == 1
    try:
        import pandas as pd
    except ImportError:
        pass
    else:
        frame = pd.read_parquet(out / "dice")
        assert len(frame) == 36 and set(frame["spinner"].astype(str)) == {"on", "off"}
    try:
        import polars as pl
    except ImportError:
        pass
    else:
        lazy = pl.scan_parquet(out / "bets", hive_partitioning=True)
        got = lazy.group_by("hole_delta_mm").len().sort("hole_delta_mm").collect().to_dicts()
        assert got == [{"hole_delta_mm": 0, "len": 48}, {"hole_delta_mm": 2, "len": 48}]
    try:
        import duckdb
    except ImportError:
        pass
    else:
        glob = str(out / "throws" / "**" / "*.parquet")
        rows = duckdb.sql(
            f"SELECT spinner, count(*) FROM '{glob}' GROUP BY spinner ORDER BY spinner"
        ).fetchall()
        assert rows == [("off", 6), ("on", 6)]


def test_a_sweep_of_another_count_is_refused_without_an_extend_hint(tmp_path, capsys):
    sweep = [
        "sweep",
        "throws",
        "--vary",
        "hole_delta_mm=0",
        "--quiet",
        "--chunk",
        "2",
        "--out",
        str(tmp_path),
    ]
    assert main([*sweep, "--throws", "2"]) == 0
    assert main([*sweep, "--throws", "4"]) == 2
    err = capsys.readouterr().err
    assert "holds this run with 2 items, this command asks for 4" in err and "--extend" not in err


def test_vary_spinner_refused_beside_a_side_without_one(tmp_path, capsys):
    code = main(
        ["sweep", "throws", "--vary", "board=I,III", "--vary", "spinner=on,off", "--out", str(tmp_path)]
    )
    assert code == 2
    assert "side I has no spinner" in capsys.readouterr().err


def test_extend_gives_the_rows_of_the_larger_run_and_refuses_other_runs(tmp_path, capsys):
    base = ["throws", "--board", "I", "--seed", "4", "--chunk", "3"]
    assert simulate(*base, "--throws", "4", "--out", str(tmp_path / "grown")) == 0
    assert simulate(*base, "--throws", "8", "--out", str(tmp_path / "grown")) == 2
    assert "pass --extend" in capsys.readouterr().err
    assert simulate(*base, "--throws", "8", "--extend", "--out", str(tmp_path / "grown")) == 0
    assert simulate(*base, "--throws", "8", "--out", str(tmp_path / "direct")) == 0
    for name in ("dice", "bets", "throws"):
        assert table(tmp_path / "grown", name).equals(table(tmp_path / "direct", name))
    other = ["throws", "--board", "I", "--seed", "5", "--chunk", "3", "--throws", "9", "--extend"]
    assert simulate(*other, "--out", str(tmp_path / "grown")) == 2
    assert "its seed is 4, this command's 5" in capsys.readouterr().err
    assert simulate(*base, "--throws", "5", "--extend", "--out", str(tmp_path / "grown")) == 2
    assert "more than 5" in capsys.readouterr().err


def test_another_count_is_told_to_extend_whatever_the_default_chunk(tmp_path, capsys):
    """The analyst's audit (2 Dec 2026): the default chunk size follows the count, so asking a
    run of 8 throws for 16 read as "a different run (its chunk_size is 1, this command's 2)" and
    was told to --overwrite it. The folder's chunk size is kept: it is this run, another count."""
    base = ["throws", "--board", "I", "--seed", "4", "--out", str(tmp_path / "run")]
    assert simulate(*base, "--throws", "8") == 0
    assert simulate(*base, "--throws", "16") == 2
    err = capsys.readouterr().err
    assert "holds this run with 8 items, this command asks for 16; pass --extend" in err
    assert "--overwrite" not in err and "chunk_size" not in err
    assert simulate(*base, "--throws", "16", "--extend") == 0
    assert simulate(*base, "--throws", "8") == 2  # --extend never shrinks: say what will do
    assert "holds this run with 16 items, this command asks for 8; ask for 16" in capsys.readouterr().err
    assert simulate(*base, "--throws", "16") == 0  # the grown run, given again: resumed, nothing to run


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_simulate_and_sweep_never_write_into_each_others_folders(tmp_path, capsys):
    """The analyst's audit (2 Dec 2026): ``simulate --out`` a sweep's folder and ``sweep --out`` a
    run's wrote their tables beside the other's (DuckDB then failed on the sweep: a column the
    run's rows lack), and ``simulate --extend`` on a sweep's variant grew it so that the sweep
    refused to resume. Each is refused, even with --overwrite, and nothing is written."""
    sweep_dir, run_dir = tmp_path / "sweep", tmp_path / "run"
    sweep = ["sweep", "throws", "--throws", "2", "--vary", "hole_delta_mm=0,1", "--quiet"]
    assert main([*sweep[:-1], "--out", str(sweep_dir)]) == 0
    said = capsys.readouterr().err  # its progress names each variant as --vary writes it, no Python dict
    assert "variant 1/2: hole_delta_mm=0\n" in said and "variant 2/2: hole_delta_mm=1\n" in said
    assert "{" not in said
    assert simulate("throws", "--throws", "2", "--out", str(run_dir)) == 0
    before = _files(sweep_dir), _files(run_dir)
    capsys.readouterr()
    for extra in ((), ("--overwrite",)):
        assert simulate("throws", "--throws", "2", *extra, "--out", str(sweep_dir)) == 2
        assert "holds a sweep (doppelx sweep: variant-NN folders), not a run" in capsys.readouterr().err
        variant = sweep_dir / "variant-00"
        assert simulate("throws", "--throws", "4", "--extend", *extra, "--out", str(variant)) == 2
        assert f"is a variant of the sweep in {sweep_dir}" in capsys.readouterr().err
        assert main([*sweep, *extra, "--out", str(run_dir)]) == 2
        assert "holds a run (doppelx simulate), not a sweep" in capsys.readouterr().err
    assert (_files(sweep_dir), _files(run_dir)) == before
    own = tmp_path / "mine" / "variant-00"  # a run of one's own so named is no sweep's variant
    assert simulate("throws", "--throws", "2", "--out", str(own)) == 0
    assert simulate("throws", "--throws", "2", "--out", str(own)) == 0


def test_games_tables_and_the_designers_report(tmp_path):
    assert (
        simulate(
            "games", "--board", "I", "--players", "3", "--games", "2", "--seed", "1", "--out", str(tmp_path)
        )
        == 0
    )
    games = table(tmp_path, "games").to_pylist()
    seats = table(tmp_path, "seats").to_pylist()
    turns = table(tmp_path, "turns").to_pylist()
    wide = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert [g["winner_seat"] for g in games] == [w["winner_seat"] for w in wide]
    assert [g["throws"] for g in games] == [sum(t["item"] == g["item"] for t in turns) for g in games]
    for s in seats:  # a seat's turns and chips agree with the wide table's per-seat lists
        changes = wide[s["item"]]["own_changes"][s["seat"]]
        assert (s["turns"], s["own_chips"]) == (len(changes), sum(changes))
        assert s["final_chips"] == wide[s["item"]]["chips"][s["seat"]]
    last = [t for t in turns if t["item"] == 0][-1]
    assert last["chips_after"] == wide[0]["chips"]
    report = (tmp_path / "report.md").read_text()
    for text in (
        "## Seats",
        "χ² test of equal seats",
        "minus fair share",
        "turns a game",
        "## Game length",
        "90th percentile",
        "Bet cards in the games",
        "Hit rate × pay-out is not",
        "Dice lost, per die",
    ):
        assert text in report, text
    page = (tmp_path / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 1 and "<table>" in page and 'src="games.png"' not in page


def test_card_g_measurable_lying_dice_within_the_spinners_reach():
    from shapely.geometry import Point, Polygon

    from doppelx.batch.world_cache import service_for, table_specs
    from physics.scene import scatter_lying
    from rules.common.rng import make_rng

    board, dice = table_specs({"board": "III"})
    box = service_for({"board": "III", "spinner": True}).box
    s = board.spinner
    tips = [
        (s.arm_length * math.cos(math.radians(a)), s.arm_length * math.sin(math.radians(a)))
        for a in (90, 210, 330)
    ]
    triangle = Polygon(tips)
    for seed in range(30):
        poses = scatter_lying(board, box, dice, ["red", "green", "yellow"], make_rng(seed), in_reach=1)
        near, *others = (Point(p.position[:2]) for p in poses.values())
        half = dice["red"].half
        assert near.distance(Point(s.center)) < s.arm_length + half  # its footprint reaches into the sweep
        assert near.distance(triangle) > half  # clear of the resting triangle
        assert near.distance(Point(s.center)) > s.arm_length / 2 + half  # and of the card over the pin
        assert all(o.distance(Point(s.center)) > s.arm_length for o in others)


def test_statistics_of_the_report():
    from doppelx.batch.stats import chi2_sf, paired, t_two_sided_p

    for df, t in ((1, 12.706), (3, 3.182), (10, 2.228), (30, 2.042), (1000, 1.962)):
        assert t_two_sided_p(t, df) == pytest.approx(0.05, abs=2e-4 if df <= 200 else 5e-4)
    for df, x in ((1, 3.841), (2, 5.991), (3, 7.815), (7, 14.067)):
        assert chi2_sf(x, df) == pytest.approx(0.05, abs=2e-4)
    assert chi2_sf(35.9, 3) == pytest.approx(7.9e-8, rel=0.05)  # the seats: p ≈ 1e-7
    rng = np.random.default_rng(0)
    a = rng.normal(size=400)
    c = paired(a, a + 0.1 + 0.05 * rng.normal(size=400))
    assert c.correlation > 0.99 and c.p_value < 1e-6 and c.difference.low < 0.1 < c.difference.high
    assert paired(a, rng.normal(size=400)).p_value > 0.001


def test_markdown_page_embeds_images_and_escapes(tmp_path):
    import matplotlib.pyplot as plt

    from doppelx.batch.html_report import write_html
    from rules.common.atomic import save_figure

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    save_figure(fig, tmp_path / "p.png", dpi=30)
    plt.close(fig)
    md = tmp_path / "r.md"
    md.write_text(
        "# T <1>\n\ntext `code` **bold**\n\n![p](p.png)\n\n| a | b |\n|---|---|\n| 1 | not measurable: x |\n"
    )
    page = write_html(md, tmp_path / "r.html").read_text()
    assert "<h1>T &lt;1&gt;</h1>" in page and "<code>code</code>" in page and "<strong>bold</strong>" in page
    assert "data:image/png;base64," in page and "<td>1</td>" in page and 'class="na"' in page


def test_sigterm_prints_the_resume_hint_and_no_semaphore_warning(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [
        sys.executable,
        "-m",
        "doppelx",
        "simulate",
        "throws",
        "--throws",
        "400",
        "--chunk",
        "2",
        "--workers",
        "2",
        "--quiet",
        "--out",
        str(tmp_path),
    ]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list((tmp_path / "chunks").glob("*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode != 0
    assert "run the same command again to resume" in err
    assert err.count("interrupted") == 1  # said once (the analyst's audit: a bare second line)
    assert "leaked semaphore" not in err
