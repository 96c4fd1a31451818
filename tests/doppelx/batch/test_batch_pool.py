"""``doppelx pool``: finished runs of other seeds as one sample (small real runs, real Parquet)."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from doppelx.batch.plan import RunSpec
from doppelx.batch.report import games_report, throws_report
from doppelx.batch.store import METADATA_KEY
from doppelx.batch.tidy import SCHEMAS
from doppelx.cli import main

THROWS = ["throws", "--board", "III", "--lying", "1"]
GAMES = ["games", "--board", "I", "--players", "3"]


def simulate(*args) -> int:
    return main(["simulate", *args, "--quiet"])


def pool(*args) -> int:
    return main(["pool", *map(str, args), "--quiet"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Real runs: throws of seeds 1 and 2 (other counts), games of seeds 1 and 2, and a
    throws run of other parameters."""
    root = tmp_path_factory.mktemp("runs")
    made = {
        "t1": [*THROWS, "--throws", "12", "--seed", "1"],
        "t2": [*THROWS, "--throws", "10", "--seed", "2", "--chunk", "4"],
        "wide_holes": [*THROWS, "--throws", "2", "--seed", "3", "--hole-delta-mm", "1"],
        "g1": [*GAMES, "--games", "3", "--seed", "1"],
        "g2": [*GAMES, "--games", "2", "--seed", "2"],
    }
    for name, args in made.items():
        assert simulate(*args, "--out", str(root / name)) == 0, name
    for seed in (1, 2):  # sweeps of two variants, to pool per variant
        sweep = ["sweep", "throws", "--throws", "2", "--seed", str(seed), "--vary", "hole_delta_mm=0,1"]
        assert main([*sweep, "--quiet", "--out", str(root / f"s{seed}")]) == 0
    return {name: root / name for name in (*made, "s1", "s2")}


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def concatenated(sources: list[Path], name: str) -> pa.Table:
    """A table of the runs (in seed order) one after the other, items numbered on; ``name``:
    ``throws.parquet``-like wide file or a tidy table's folder."""
    parts, offset = [], 0
    for folder in sources:
        path = folder / name if name.endswith(".parquet") else folder / name / "part-0.parquet"
        t = pq.read_table(path).replace_schema_metadata(None)
        t = t.set_column(
            t.schema.get_field_index("item"), "item", pa.array([i + offset for i in t["item"].to_pylist()])
        )
        parts.append(t)
        offset += RunSpec.read(folder / "run.json").count
    return pa.concat_tables(parts)


def figures(report: Path) -> list[str]:
    """A report's lines but those that say which run made it (and blank lines)."""
    return [
        ln
        for ln in report.read_text().splitlines()
        if ln and not ln.startswith(("Run:", "Pool of", "Parameters:", "Made outside"))
    ]


def report_of_concatenation(sources: list[Path], kind: str, tables: tuple[str, ...], folder: Path) -> Path:
    """The run report, made by the same code, of the runs' tables concatenated by hand."""
    folder.mkdir()
    wide = folder / f"{kind}.parquet"
    pq.write_table(concatenated(sources, f"{kind}.parquet"), wide)
    paths = {}
    for t in tables:
        paths[t] = folder / f"{t}-table.parquet"
        pq.write_table(concatenated(sources, t), paths[t])
    (throws_report if kind == "throws" else games_report)(wide, folder, paths)
    return folder / "report.md"


def test_pooled_throws_sum_the_runs_and_report_the_concatenated_figures(runs, tmp_path, capsys):
    out = tmp_path / "pooled"
    assert main(["pool", str(out), str(runs["t2"]), str(runs["t1"]), "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert "pooling 2 runs" in captured.err  # the progress bar
    assert summary["count"] == 22 and summary["seeds"] == [1, 2]
    assert out.stat().st_mode & 0o777 == runs["t1"].stat().st_mode & 0o777  # not mkdtemp's 0700
    assert [r["count"] for r in summary["runs"]] == [12, 10]
    wide = pq.read_table(out / "throws.parquet").to_pydict()
    assert wide["item"] == list(range(22))
    assert wide["seed"] == [1] * 12 + [2] * 10 and wide["run_item"] == [*range(12), *range(10)]
    for name in ("dice", "bets", "throws"):  # every row of each run, seed from the hive folder
        got = pq.read_table(out / name).to_pydict()
        want = concatenated([runs["t1"], runs["t2"]], name).to_pydict()
        for column in SCHEMAS[name].names:
            assert got[column] == want[column], (name, column)
        assert [int(s) for s in got["seed"]] == [1 if i < 12 else 2 for i in got["item"]]
    run_file = json.loads((out / "run.json").read_text())
    assert [(r["seed"], r["count"], r["path"]) for r in run_file["pool"]] == [
        (1, 12, str(runs["t1"].resolve())),
        (2, 10, str(runs["t2"].resolve())),
    ]
    assert run_file["params"]["hole_delta_mm"] == 0.0 and run_file["code_sha256"]
    by_hand = report_of_concatenation(
        [runs["t1"], runs["t2"]], "throws", ("dice", "bets"), tmp_path / "by-hand"
    )
    assert figures(out / "report.md") == figures(by_hand)
    report = (out / "report.md").read_text()
    assert "# Throws on side III: 22 throws" in report and "Pool of 2 runs" in report
    assert (out / "report.html").read_text().count("data:image/png;base64,") == 2


def test_pooled_games_report_the_concatenated_figures_and_load_in_one_line(runs, tmp_path):
    out = tmp_path / "pooled"
    assert pool(out, runs["g1"], runs["g2"]) == 0
    games = pq.read_table(out / "games").to_pydict()
    assert len(games["item"]) == 5 and sorted(games["item"]) == list(range(5))
    tables = ("games", "seats", "turns", "bets", "dice")
    by_hand = report_of_concatenation([runs["g1"], runs["g2"]], "games", tables, tmp_path / "by-hand")
    assert figures(out / "report.md") == figures(by_hand)
    assert "## Seats" in (out / "report.md").read_text()
    # each one-line reader that is installed (the `query` extra) reads the pooled dataset
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        assert len(pd.read_parquet(out / "seats")) == 5 * 3
    try:
        import duckdb
    except ImportError:
        return
    rows = duckdb.sql(
        f"SELECT seed, count(*) FROM '{out}/games/**/*.parquet' GROUP BY seed ORDER BY seed"
    ).fetchall()
    assert rows == [(1, 3), (2, 2)]


def test_the_same_runs_in_any_order_give_the_same_bytes(runs, tmp_path):
    assert pool(tmp_path / "a", runs["t1"], runs["t2"]) == 0
    assert pool(tmp_path / "b", runs["t2"], runs["t1"]) == 0
    a, b = files(tmp_path / "a"), files(tmp_path / "b")
    assert a.keys() == b.keys() and "dice/seed=2/part-0.parquet" in a
    assert a == b


def _recoded(run: Path, folder: Path) -> Path:
    """A copy of ``run`` that says another code version made it (run file and chunks agree)."""
    shutil.copytree(run, folder)
    spec = RunSpec.read(folder / "run.json")
    spec = RunSpec(
        spec.kind, spec.count, spec.seed + 10, spec.chunk_size, {**spec.params, "code_sha256": "0" * 64}
    )
    (folder / "run.json").write_text(spec.to_json())
    for chunk in sorted((folder / "chunks").glob("*.parquet")):
        t = pq.read_table(chunk)
        meta = json.loads(t.schema.metadata[METADATA_KEY])
        meta["fingerprint"] = spec.fingerprint()
        pq.write_table(t.replace_schema_metadata({METADATA_KEY: json.dumps(meta).encode()}), chunk)
    return folder


def _unfinished(run: Path, folder: Path) -> Path:
    shutil.copytree(run, folder)
    (folder / "chunks" / "throws-00001.parquet").unlink()
    return folder


REFUSALS = {
    "one run": (lambda r, t: [r["t1"]], "give at least 2 runs"),
    "missing": (lambda r, t: [r["t1"], t / "nowhere"], "no such folder"),
    "not a run": (lambda r, t: [r["t1"], _mkdir(t / "empty")], "not a run folder (no run.json)"),
    "unfinished": (
        lambda r, t: [r["t1"], _unfinished(r["t2"], t / "half")],
        "an unfinished run (2 of 3 chunks on disk); the same doppelx simulate command resumes it",
    ),
    "other kind": (lambda r, t: [r["t1"], r["g2"]], "a games run"),
    "other parameter": (lambda r, t: [r["t1"], r["wide_holes"]], "its hole_delta_mm is 1.0"),
    "other code": (
        lambda r, t: [r["t1"], _recoded(r["t2"], t / "recoded")],
        "made by another version of the simulator (code 000000000000",
    ),
    "same seed": (lambda r, t: [r["t1"], _copy(r["t1"], t / "again")], "has seed 1, as"),
    "given twice": (lambda r, t: [r["t1"], r["t1"]], "is given twice"),
    "sweep": (lambda r, t: [r["s1"], r["s2"]], "is a sweep folder"),
    "other variant": (lambda r, t: [r["s1"] / "variant-00", r["s2"] / "variant-01"], "its hole_delta_mm is"),
}


def _mkdir(folder: Path) -> Path:
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    return folder


def _copy(run: Path, folder: Path) -> Path:
    shutil.copytree(run, folder)
    return folder


@pytest.mark.parametrize("case", REFUSALS)
def test_refusals_are_one_line_and_write_nothing(runs, tmp_path, capsys, case):
    make, text = REFUSALS[case]
    sources = make(runs, tmp_path)
    before = files(tmp_path)
    assert pool(tmp_path / "out", *sources) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()
    assert files(tmp_path) == before  # no build folder left either


def test_refused_outputs_and_an_earlier_pool_kept_when_pooling_fails(runs, tmp_path, capsys, monkeypatch):
    mine = _mkdir(tmp_path / "mine")
    assert pool(mine, runs["t1"], runs["t2"]) == 2
    assert "exists and is not empty" in capsys.readouterr().err
    assert pool(mine, runs["t1"], runs["t2"], "--overwrite") == 2
    assert "is not a pool folder" in capsys.readouterr().err
    assert files(mine) == {"notes.txt": b"mine"}
    assert pool(runs["t1"], runs["t1"], runs["t2"]) == 2
    assert "is one of the runs to pool" in capsys.readouterr().err
    assert pool(runs["t1"].parent, runs["t1"], runs["t2"], "--overwrite") == 2
    assert "holds the run" in capsys.readouterr().err
    assert pool(runs["t1"] / "pool", runs["t1"], runs["t2"]) == 2
    assert "lies inside the run" in capsys.readouterr().err

    out = tmp_path / "pooled"
    gone = subprocess.Popen(["true"])
    gone.wait()
    killed = tmp_path / f".pooled.pool-{gone.pid}-x1y2"  # the build folder of a pool killed outright
    (killed / "dice").mkdir(parents=True)
    assert pool(out, runs["t1"], runs["t2"]) == 0
    assert not killed.exists()
    earlier = files(out)
    import doppelx.batch.report as report

    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report, "throws_report", broken)  # fails after the tables are written
    assert pool(out, runs["t1"], runs["t2"], "--overwrite") == 2
    assert "No space left on device" in capsys.readouterr().err
    assert files(out) == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "pooled"]  # no build folder left
    monkeypatch.undo()
    assert pool(out, runs["t1"], runs["t2"], "--overwrite") == 0  # replaces the earlier pool
    assert files(out) == earlier


def test_a_variant_of_two_sweeps_pools_and_a_pool_is_no_run_or_sweep_folder(runs, tmp_path, capsys):
    out = tmp_path / "pooled"
    assert pool(out, runs["s2"] / "variant-01", runs["s1"] / "variant-01") == 0
    throws = pq.read_table(out / "throws").to_pydict()
    assert sorted(throws["item"]) == [0, 1, 2, 3] and sorted(int(s) for s in throws["seed"]) == [1, 1, 2, 2]
    assert json.loads((out / "run.json").read_text())["params"]["hole_delta_mm"] == 1.0
    before = files(out)
    assert simulate(*THROWS, "--throws", "2", "--overwrite", "--out", str(out)) == 2
    assert "holds a pool of runs (doppelx pool), not a run" in capsys.readouterr().err
    sweep = ["sweep", "throws", "--throws", "2", "--vary", "hole_delta_mm=0,1", "--quiet", "--overwrite"]
    assert main([*sweep, "--out", str(out)]) == 2
    assert "holds a pool of runs (doppelx pool), not a sweep" in capsys.readouterr().err
    assert pool(tmp_path / "again", out, runs["t1"]) == 2
    assert "is a pool, not a run" in capsys.readouterr().err
    assert files(out) == before
