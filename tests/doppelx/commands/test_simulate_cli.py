"""``doppelx simulate`` and ``doppelx sweep`` with real physics: determinism across workers
and backends, resume after a killed run, the report and its figures, bad arguments."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from matplotlib.image import imread

from doppelx.cli import main

ROOT = Path(__file__).resolve().parents[3]


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
    # the report names the run that made it: seed, fingerprint and code version
    spec = json.loads((tmp_path / "run.json").read_text())
    code = spec["params"]["code_sha256"][:12]
    assert "Run: seed 1, run fingerprint `" in report and f"code `{code}`" in report


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
    report = (tmp_path / "report.md").read_text()
    assert "## Seats" in report and "Run: seed 2, run fingerprint `" in report
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
    first, other = out["variants"][0], out["variants"][3]
    itself = first["difference_from_first"]["chips_per_throw"]
    assert (itself["value"], itself["low"], itself["high"], itself["p_value"]) == (0.0, None, None, 1.0)
    assert out["labels"]["chips_per_throw"] == "chips per throw"  # snake_case keys, labels for display
    low, high = other["intervals"]["chips_per_throw"]
    assert low <= other["values"]["chips_per_throw"] <= high and other["n"] == 10
    diff = other["difference_from_first"]["chips_per_throw"]
    d, d_low, d_high = diff["value"], diff["low"], diff["high"]
    assert 0 <= diff["p_value"] <= 1 and -1 <= diff["correlation"] <= 1
    assert d == pytest.approx(other["values"]["chips_per_throw"] - first["values"]["chips_per_throw"])
    assert d_low is None or d_low <= d <= d_high
    # paired: the interval is the one of the item-by-item differences of the two tables
    from doppelx.batch.stats import mean

    def chips(k):
        t = pq.read_table(tmp_path / f"variant-0{k}" / "throws.parquet").to_pydict()
        return [c for _, c in sorted(zip(t["item"], t["chips"]))]

    paired = mean([b - a for a, b in zip(chips(0), chips(3))])
    assert d == pytest.approx(paired.value)
    if math.isfinite(paired.low):
        assert (d_low, d_high) == pytest.approx((paired.low, paired.high))
    else:
        assert d_low is None and d_high is None
    comparison = (tmp_path / "comparison.md").read_text()
    assert "| chips per throw (`chips_per_throw`) | " in comparison  # a row per figure
    assert "3: hole_delta_mm=3, white_faces=1-2-3-X-X-2" in comparison
    assert "## Difference from variant 0 (hole_delta_mm=0, white_faces=default)" in comparison
    assert " pp [" in comparison and "| 3 − 0 | p | r |" in comparison
    assert imread(tmp_path / "comparison.png").shape[0] > 100


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "throws", "--throws", "0", "--out", "x"], "from 1 to 10000000"),
        (["simulate", "throws", "--throws", "5", "--board", "VII", "--out", "x"], "not a built-in side"),
        (["simulate", "throws", "--throws", "5", "--policy", "field:9x", "--out", "x"], "--policy"),
        (["simulate", "games", "--games", "1", "--players", "2", "--out", "x"], "player count from 3 to 8"),
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


def exit_code(args) -> int:
    try:
        return main(args)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize(
    "args, name",
    [
        (["simulate", "throws", "--throws", "5"], "report.md"),
        (["simulate", "throws", "--throws", "5"], "throws.parquet"),
        (["simulate", "games", "--games", "2"], "games.png"),
        (["sweep", "throws", "--throws", "5", "--vary", "hole_delta_mm=0,1"], "comparison.md"),
    ],
)
def test_a_folder_holding_a_users_file_of_an_output_name_is_refused(tmp_path, capsys, args, name):
    out = tmp_path / "mine"
    out.mkdir()
    (out / name).write_text("my own notes\n")
    assert exit_code([*args, "--workers", "1", "--quiet", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(out) in err[0] and name in err[0] and "--overwrite" in err[0]
    assert [p.name for p in out.iterdir()] == [name]  # nothing written, the file untouched
    assert (out / name).read_text() == "my own notes\n"


def test_an_empty_folder_then_the_same_run_again_resumes(tmp_path, capsys):
    from doppelx.batch.report import REPORT_FILES
    from doppelx.batch.sweep import COMPARISON_FILES

    run = ["simulate", "throws", "--throws", "5", "--seed", "2", "--workers", "1", "--quiet"]
    (tmp_path / "run").mkdir()
    for _ in range(2):  # an empty existing folder, then the same (finished) run: it resumes
        assert main([*run, "--out", str(tmp_path / "run")]) == 0
    written = {p.name for p in (tmp_path / "run").iterdir()}
    assert written == {
        "run.json",
        "chunks",
        "throws.parquet",
        *REPORT_FILES["throws"],
        "throws",
        "dice",
        "bets",
    }
    sweep = ["sweep", "throws", "--throws", "2", "--vary", "hole_delta_mm=0", "--quiet"]
    for _ in range(2):  # a sweep given again finds its comparison.md and variant-00/run.json
        assert main([*sweep, "--out", str(tmp_path / "sweep")]) == 0
    assert {p.name for p in (tmp_path / "sweep").iterdir()} == {
        "variant-00",
        *COMPARISON_FILES,
        "throws",
        "dice",
        "bets",
    }
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.md").write_text("my own notes\n")
    assert main([*run, "--overwrite", "--out", str(mine)]) == 0  # asked for: replaced
    assert (mine / "report.md").read_text().startswith("# Throws on side I: 5 throws")


@pytest.mark.parametrize(
    "value, words",
    [
        (
            "hole_delta_mm=0,20",
            "--vary 'hole_delta_mm=0,20': expected a change of the holes' radius in mm from -10",
        ),
        ("hole_delta_mm=-14", "from -10 to 10, got '-14'"),
        ("policy=point:9999,0", "'point:9999,0': X,Y in mm must lie within ±1000 mm"),
        ("policy=greedy,point:10", "policy 'point:10': write point:X,Y in mm"),
        ("policy=point:10,x", "'point:10,x': expected X,Y in mm"),
    ],
)
def test_vary_values_are_checked_like_their_option(tmp_path, capsys, value, words):
    args = ["sweep", "throws", "--throws", "2", "--quiet", "--vary", value, "--out", str(tmp_path / "s")]
    assert exit_code(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    assert not (tmp_path / "s").exists()


def test_vary_policy_point_keeps_its_comma(tmp_path, capsys):
    args = ["sweep", "throws", "--throws", "2", "--quiet", "--json", "--out", str(tmp_path)]
    assert main([*args, "--vary", "policy=greedy,point:-60.0,+75"]) == 0  # named in one spelling
    out = json.loads(capsys.readouterr().out)
    assert [v["variant"] for v in out["variants"]] == [{"policy": "greedy"}, {"policy": "point:-60,75"}]


def _option_helps(*prog: str) -> dict[str, str]:
    """``{option: help as printed}`` of ``doppelx PROG --help``."""
    from doppelx.cli import build_parser

    parser = build_parser()
    for name in prog:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    helps = {}
    for action in parser._actions:
        if action.option_strings and action.help:
            helps[action.option_strings[-1]] = parser._get_formatter()._expand_help(action)
    return helps


def test_helps_name_defaults_and_describe_every_option():
    throws, games, sweep = (
        _option_helps("simulate", "throws"),
        _option_helps("simulate", "games"),
        _option_helps("sweep"),
    )
    assert "(default: I)" in throws["--board"] and "(default: III)" in games["--board"]
    assert "I for throws, III for games" in sweep["--board"]
    for helps in (throws, games, sweep):
        for option, default in (
            ("--seed", "0"),
            ("--workers", "1"),
            ("--backend", "pool"),
            ("--policy", "greedy"),
        ):
            assert f"default: {default}" in helps[option], option
    assert "default: 4" in games["--players"] and "default: A,B,C,D" in games["--cards"]
    assert "at least 12" in games["--think"]
    for option in ("--players", "--lying", "--cards", "--bet", "--target", "--seed", "--backend"):
        assert option in sweep, option
    assert "point:-60,75" in sweep["--vary"]


def test_a_single_game_has_no_nan_intervals(tmp_path, capsys):
    game = ["--games", "1", "--players", "3", "--target", "10", "--quiet"]
    assert main(["simulate", "games", *game, "--out", str(tmp_path / "one")]) == 0
    report = (tmp_path / "one" / "report.md").read_text()
    assert report.startswith("# 1 game, 3 players") and "nan" not in report
    assert re.search(r"\| throws a game \| \d+\.\d+ \[n/a\] \|", report)
    from doppelx.batch.report import REPORT_FILES

    written = {p.name for p in (tmp_path / "one").iterdir()}
    tables = {"games", "seats", "turns", "dice", "bets"}
    assert written == {"run.json", "chunks", "games.parquet", *REPORT_FILES["games"], *tables}
    capsys.readouterr()
    assert (
        main(["sweep", "games", *game, "--json", "--vary", "hole_delta_mm=0", "--out", str(tmp_path / "s")])
        == 0
    )
    summary = json.loads(capsys.readouterr().out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    comparison = (tmp_path / "s" / "comparison.md").read_text()
    assert comparison.startswith("# Sweep of 1 variant, 1 game each") and "nan" not in comparison
    # what a skill is worth shows in a games sweep (the win rate of equal seats cannot show it)
    own = summary["variants"][0]["values"]["chips_per_own_throw"]
    assert isinstance(own, float) and "chips per own throw" in comparison


def test_a_smaller_sweep_in_a_larger_ones_folder_is_refused_or_replaces_it(tmp_path, capsys):
    out = tmp_path / "sweep"
    sweep = ["sweep", "throws", "--throws", "2", "--quiet", "--out", str(out)]
    assert main([*sweep, "--vary", "hole_delta_mm=0,1,2,3"]) == 0
    (out / "variant-03" / "mine.txt").write_text("keep")
    capsys.readouterr()
    assert main([*sweep, "--vary", "hole_delta_mm=0,1"]) == 2
    assert "variant-02: a variant of an earlier sweep (this one has 2 variants)" in capsys.readouterr().err
    assert main([*sweep, "--vary", "hole_delta_mm=0,1", "--overwrite"]) == 0  # the first two resume
    assert not (out / "variant-02").exists()  # only the run's own files were there: the folder goes
    assert [p.name for p in (out / "variant-03").iterdir()] == ["mine.txt"]  # a user's file stays
    assert "Variants: 0: hole_delta_mm=0; 1: hole_delta_mm=1\n" in (out / "comparison.md").read_text()
    # the dataset holds this sweep's variants only: the replaced ones' partitions are gone
    assert sorted(p.name for p in (out / "dice").iterdir()) == ["hole_delta_mm=0", "hole_delta_mm=1"]


def test_a_games_sweep_takes_think_for_its_expert_variants():
    """The audit of session 9: ``sweep games --vary skill=…,expert`` always thought 100 rollouts."""
    from doppelx.batch.sweep import plan_variants
    from doppelx.cli import build_parser
    from doppelx.commands.simulate import params_from_args

    args = build_parser().parse_args(
        ["sweep", "games", "--games", "1", "--vary", "skill=medium,expert", "--think", "24", "--out", "x"]
    )
    planned = plan_variants(tuple(args.vary), params_from_args(args, "games"), "games")
    assert [(v["skill"], p["skill"], p["think"]) for v, p in planned] == [
        ("medium", "medium", 24),
        ("expert", "expert", 24),
    ]


@pytest.mark.parametrize(
    "metadata, says",
    [
        (None, "Made outside `doppelx simulate`"),
        (b"[1, 2]", "Made outside `doppelx simulate`"),
        (b'{"fingerprint": "f"}', "Made outside `doppelx simulate`"),
        (b'{"spec": {"seed": 3, "params": {}}, "fingerprint": "abc"}', "its code version was not recorded"),
        (
            b'{"spec": {"seed": 3, "params": {"code_sha256": "0123456789abcdef"}}, "fingerprint": "abc"}',
            "Run: seed 3, run fingerprint `abc`, code `0123456789ab`",
        ),
    ],
)
def test_the_reports_provenance_line_for_any_table(tmp_path, metadata, says):
    """A table without the run's metadata, with damaged metadata or from before the code pin
    gets a line that claims nothing it cannot back."""
    import pyarrow as pa

    from doppelx.batch.report import _provenance, _run_spec
    from doppelx.batch.store import METADATA_KEY

    table = pa.table({"item": [0]})
    if metadata is not None:
        table = table.replace_schema_metadata({METADATA_KEY: metadata})
    pq.write_table(table, tmp_path / "t.parquet")
    from rules.doppelx.board_file import load_board

    line, *rest = _provenance(_run_spec(tmp_path / "t.parquet"), load_board("I"))
    assert says in line
    assert ("same rows" in line) is ("code `" in line)
    assert bool(rest) is line.startswith("Run:")  # the parameters follow a run's line only


def test_the_report_names_the_runs_parameters_and_what_cannot_pay(tmp_path, capsys):
    """The batch audit of session 10: a MuJoCo report looked like a PyBullet one, and card G
    showed a measured 0.0 % [0.0, 1.9] on side I, which has no spinner."""
    args = ["simulate", "throws", "--throws", "3", "--quiet", "--skill", "hard", "--engine", "mujoco"]
    pytest.importorskip("mujoco")
    assert main([*args, "--out", str(tmp_path / "m")]) == 0
    report = (tmp_path / "m" / "report.md").read_text()
    assert (
        "Parameters: engine mujoco," in report
        and "skill hard" in report
        and "spinner none on side I" in report
    )
    assert "| G |" in report and "not measurable: side I has no spinner" in report
    assert (
        main(
            ["simulate", "throws", "--throws", "3", "--quiet", "--board", "III", "--out", str(tmp_path / "z")]
        )
        == 0
    )
    assert "not measurable: no die lay on the board" in (tmp_path / "z" / "report.md").read_text()


def test_simulate_json_gives_the_runs_figures_as_a_sweep_gives_a_variants(tmp_path, capsys):
    """The analyst's audit (2 Dec 2026): ``simulate --json`` gave file paths only, ``sweep --json``
    the figures. The run's own now: values, intervals, what cannot be measured, labels — the
    same as a one-variant sweep of the same throws."""
    run = ["throws", "--throws", "6", "--seed", "3", "--quiet", "--json"]
    assert main(["simulate", *run, "--out", str(tmp_path / "run")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert main(["sweep", *run, "--vary", "hole_delta_mm=0", "--out", str(tmp_path / "sweep")]) == 0
    (variant,) = json.loads(capsys.readouterr().out)["variants"]
    for key in ("values", "intervals", "not_measurable"):
        assert out[key] == variant[key]
    assert (
        out["values"]["chips_per_throw"] is not None and out["labels"]["chips_per_throw"] == "chips per throw"
    )
    assert out["not_measurable"]["bet_G_per_throw"] == "side I has no spinner"
