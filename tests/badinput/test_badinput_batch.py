"""Damaged run folders, foreign chunks, errors inside workers, resuming with other ``--workers``."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from doppelx.batch.backends import run_plan
from doppelx.batch.plan import RunSpec, default_chunk_size
from doppelx.batch.store import read_run_metadata
from rules.common.errors import DoppelXError, SpecError
from tests.helpers.badinput import assert_refused, run_cli

KIND = "tests.doppelx.batch.batch_fake:run_chunk"


def values(path):
    return pq.read_table(path).column("value").to_pylist()


def test_chunk_size_does_not_depend_on_the_workers():
    assert default_chunk_size("throws", 200) == 25 and default_chunk_size("games", 20) == 2
    assert default_chunk_size("throws", 1) == 1 and default_chunk_size("throws", 10**6) == 50


def test_a_run_resumes_with_another_worker_count(tmp_path):
    """Killed with 1 worker, resumed with 2: the same rows as one clean run."""
    spec = RunSpec(KIND, 12, 4, default_chunk_size("throws", 12))
    out = tmp_path / "run"
    run_plan(spec, out, workers=1, progress=False)
    clean = values(out / "items.parquet")
    for f in sorted((out / "chunks").glob("*.parquet"))[1::2]:
        f.unlink()  # as if killed half-way
    run_plan(spec, out, workers=2, progress=False)
    assert values(out / "items.parquet") == clean


def test_overwrite_keeps_the_same_runs_chunks_and_replaces_another_run(tmp_path):
    out = tmp_path / "run"
    spec = RunSpec(KIND, 6, 1, 2)
    run_plan(spec, out, progress=False)
    stamp = {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")}
    run_plan(spec, out, progress=False, overwrite=True)  # same run: nothing thrown away
    assert {f.name: f.stat().st_mtime_ns for f in (out / "chunks").glob("*.parquet")} == stamp
    other = RunSpec(KIND, 4, 2, 2)
    with pytest.raises(DoppelXError, match="different run"):
        run_plan(other, out, progress=False)
    run_plan(other, out, progress=False, overwrite=True)
    assert len(list((out / "chunks").glob("*.parquet"))) == 2
    assert pq.read_table(out / "items.parquet").num_rows == 4


def test_a_chunk_from_another_run_is_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_plan(RunSpec(KIND, 6, 1, 2), a, progress=False)
    run_plan(RunSpec(KIND, 6, 2, 2), b, progress=False)
    (a / "chunks" / "items-00001.parquet").write_bytes((b / "chunks" / "items-00001.parquet").read_bytes())
    with pytest.raises(DoppelXError, match="items-00001.parquet: belongs to another run"):
        run_plan(RunSpec(KIND, 6, 1, 2), a, progress=False)


def test_a_chunk_without_identity_or_with_wrong_items_is_refused(tmp_path):
    out = tmp_path / "a"
    spec = RunSpec(KIND, 6, 1, 2)
    run_plan(spec, out, progress=False)
    path = out / "chunks" / "items-00002.parquet"
    pq.write_table(pa.Table.from_pylist([{"item": 4, "value": 1}, {"item": 5, "value": 2}]), path)
    with pytest.raises(DoppelXError, match="belongs to another run"):
        run_plan(spec, out, progress=False)
    t = pq.read_table(out / "chunks" / "items-00000.parquet")
    pq.write_table(t, path)  # chunk 0's file, identity and all, under chunk 2's name
    with pytest.raises(DoppelXError, match="items-00002.parquet: is chunk 0 of this run, not chunk 2"):
        run_plan(spec, out, progress=False)


def test_overwrite_removes_a_bad_chunk_of_the_same_run_and_runs_it_again(tmp_path, capsys):
    out = tmp_path / "a"
    spec = RunSpec(KIND, 6, 1, 2)
    clean = pq.read_table(run_plan(spec, out, progress=False)).column("value").to_pylist()
    (out / "chunks" / "items-00001.parquet").write_bytes(b"PAR1 truncated")
    with pytest.raises(DoppelXError, match="not a readable chunk.*or pass --overwrite"):
        run_plan(spec, out, progress=False)
    again = run_plan(spec, out, progress=False, overwrite=True)  # what the message offers
    assert pq.read_table(again).column("value").to_pylist() == clean
    err = capsys.readouterr().err
    assert (
        "--overwrite: " in err
        and "items-00001.parquet: not a readable chunk" in err
        and "removed, run again" in err
    )


def test_overwrite_removes_only_the_earlier_runs_files(tmp_path):
    out = tmp_path / "a"
    run_plan(RunSpec(KIND, 4, 1, 2), out, progress=False, stale=("heatmap.png",))
    (out / "my_analysis.parquet").write_bytes((out / "items.parquet").read_bytes())
    (out / "heatmap.png").write_bytes(b"an earlier run's picture")
    (out / "notes.txt").write_text("mine")
    (out / "chunks" / "keep.parquet").write_text("mine too")
    run_plan(RunSpec(KIND, 4, 2, 2), out, progress=False, overwrite=True, stale=("heatmap.png",))
    assert (out / "my_analysis.parquet").exists() and (out / "notes.txt").read_text() == "mine"
    assert (out / "chunks" / "keep.parquet").read_text() == "mine too"
    assert not (out / "heatmap.png").exists()  # a report of the run it replaced
    assert read_run_metadata(out / "items.parquet")["spec"]["seed"] == 2


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda out: (out / "run.json").write_text((out / "run.json").read_text()[:20]), "bad JSON"),
        (
            lambda out: (out / "run.json").write_text(
                json.dumps({**json.loads((out / "run.json").read_text()), "chunk_size": 0})
            ),
            "chunk_size must be at least 1",
        ),
        (
            lambda out: (out / "run.json").write_text(
                json.dumps({**json.loads((out / "run.json").read_text()), "count": "many"})
            ),
            "count must be a whole number",
        ),
        (lambda out: (out / "run.json").write_text("[]"), "not a run file"),
        (lambda out: (out / "chunks" / "throws-00001.parquet").write_text("garbage"), "not a readable chunk"),
        (lambda out: (out / "chunks" / "throws-00001.parquet").write_bytes(b""), "not a readable chunk"),
    ],
    ids=["truncated-run-json", "chunk-size-0", "count-text", "run-json-list", "garbage-chunk", "empty-chunk"],
)
def test_a_damaged_run_folder_is_one_clear_line(tmp_path, capsys, monkeypatch, damage, words):
    """The run folder is prepared without physics (the chunks and run.json of a tiny run)."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r"
    argv = ["simulate", "throws", "--throws", "4", "--chunk", "2", "--seed", "1", "--out", "r", "--quiet"]
    from doppelx.batch.params import pin_files
    from doppelx.batch.store import RunStore
    from doppelx.commands import simulate as sim

    args = sim_args(argv)
    spec = RunSpec("throws", 4, 1, 2, pin_files(sim.params_from_args(args, "throws")))
    store = RunStore(out, spec)
    store.open()
    for i in range(spec.n_chunks):
        store.write_chunk(i, [{"item": j, "value": j} for j in spec.chunk(i)])
    damage(out)
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    res = run_cli(argv, capsys)
    assert_refused(res, words)
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def sim_args(argv):
    from doppelx.cli import build_parser

    return build_parser().parse_args(argv)


def test_an_error_inside_a_pool_worker_is_printed_once(tmp_path, capsys):
    """A board the workers cannot load: its own message, once, not "a worker died" again and again."""
    spec = RunSpec(
        "throws", 4, 1, 2, {"board": str(tmp_path / "gone.toml"), "skill": "medium", "policy": "greedy"}
    )
    with pytest.raises(SpecError, match="gone.toml: file not found"):
        run_plan(spec, tmp_path / "run", workers=2, progress=False)
    assert "worker died" not in capsys.readouterr().err


def test_an_error_inside_a_ray_task_is_printed_as_that_error(tmp_path, monkeypatch, capsys):
    """Ray wraps a task's exception in ``RayTaskError``; the run raises the project error inside."""
    import sys
    import types

    class RayTaskError(Exception):
        def __init__(self, cause):
            super().__init__(f"RayTaskError(SpecError): traceback ...\n{cause}")
            self.cause = cause

    class WorkerCrashedError(Exception):
        pass

    class Ref:
        def __init__(self, fn, args):
            self.fn, self.args = fn, args

    fake = types.ModuleType("ray")
    fake.exceptions = types.SimpleNamespace(RayTaskError=RayTaskError, WorkerCrashedError=WorkerCrashedError)
    fake.is_initialized = lambda: False
    fake.init = lambda **kw: print("2026 INFO worker.py -- Started a local Ray instance.")  # Ray's chatter
    fake.shutdown = lambda: None
    fake.cancel = lambda ref, force=False: None
    fake.wait = lambda refs, num_returns=1: (refs[:1], refs[1:])

    def get(ref):
        try:
            return ref.fn(*ref.args)
        except Exception as exc:
            raise RayTaskError(exc) from None

    fake.get = get
    fake.remote = lambda **opts: lambda fn: types.SimpleNamespace(remote=lambda *a: Ref(fn, a))
    monkeypatch.setitem(sys.modules, "ray", fake)
    spec = RunSpec(
        "throws", 4, 1, 2, {"board": str(tmp_path / "gone.toml"), "skill": "medium", "policy": "greedy"}
    )
    with pytest.raises(SpecError) as info:
        run_plan(spec, tmp_path / "run", workers=1, backend="ray", progress=False)
    assert str(info.value) == f"{tmp_path / 'gone.toml'}: file not found"
    assert "Started a local Ray instance" not in capsys.readouterr().out  # Ray's prints go to stderr


def test_more_workers_than_cores_are_capped_with_a_word(tmp_path, monkeypatch, capsys):
    import os

    from doppelx.commands.simulate import check_run_args

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    args = sim_args(["simulate", "throws", "--throws", "4", "--workers", "64", "--out", str(tmp_path / "r")])
    assert check_run_args(args) == 2
    assert "--workers 64 is more than the 2 cores; using 2" in capsys.readouterr().err


def test_a_board_file_edited_before_a_resume_is_another_run(tmp_path, capsys):
    """The run's identity pins the board file's bytes: no resume mixes two boards."""
    from rules.doppelx.board_file import resolve_board

    board = tmp_path / "myboard.toml"
    board.write_bytes(resolve_board("I").read_bytes())
    argv = ["simulate", "throws", "--throws", "8", "--seed", "2", "--board", str(board), "--quiet"]
    out = tmp_path / "run"
    assert run_cli([*argv, "--out", str(out)], capsys).code == 0
    spec = json.loads((out / "run.json").read_text())
    assert len(spec["params"]["board_sha256"]) == 64
    assert run_cli([*argv, "--out", str(out)], capsys).code == 0  # unchanged: the same run resumes
    board.write_text(board.read_text() + "\n# edited\n")
    assert_refused(run_cli([*argv, "--out", str(out)], capsys), str(out), "different run")
    # a run made before the pins (no board_sha256 in its run.json) is named as such
    board.write_text(board.read_text().replace("\n# edited\n", ""))
    old = json.loads((out / "run.json").read_text())
    old["params"].pop("board_sha256")
    (out / "run.json").write_text(json.dumps(old))
    assert_refused(run_cli([*argv, "--out", str(out)], capsys), "made before runs pinned", "board_sha256")
    builtin = run_cli(
        ["simulate", "throws", "--throws", "8", "--out", str(tmp_path / "b"), "--quiet"], capsys
    )
    assert builtin.code == 0  # a built-in side is pinned with the code, not as a file
    pins = [
        k for k in json.loads((tmp_path / "b" / "run.json").read_text())["params"] if k.endswith("_sha256")
    ]
    assert pins == ["code_sha256"]


def test_a_board_file_named_another_way_is_the_same_run(tmp_path, capsys, monkeypatch):
    """The batch audit of session 10: a run started with ``--board myboard.toml`` and resumed
    from another folder (``../myboard.toml``) or with the absolute path was "a different
    run"; the run names the file by its absolute path now."""
    import pyarrow.parquet as pq

    from rules.doppelx.board_file import resolve_board

    (tmp_path / "sub").mkdir()
    (tmp_path / "myboard.toml").write_bytes(resolve_board("I").read_bytes())
    argv = ["simulate", "throws", "--throws", "8", "--chunk", "4", "--seed", "2", "--quiet"]
    monkeypatch.chdir(tmp_path)
    assert run_cli([*argv, "--board", "myboard.toml", "--out", "run"], capsys).code == 0
    (tmp_path / "run" / "chunks" / "throws-00001.parquet").unlink()  # as if killed before the last chunk
    first = json.loads((tmp_path / "run" / "run.json").read_text())
    assert first["params"]["board"] == str(tmp_path / "myboard.toml")
    monkeypatch.chdir(tmp_path / "sub")
    assert run_cli([*argv, "--board", "../myboard.toml", "--out", "../run"], capsys).code == 0
    assert json.loads((tmp_path / "run" / "run.json").read_text()) == first
    rows = pq.read_table(tmp_path / "run" / "throws.parquet")
    assert rows.num_rows == 8 and set(rows.column("board").to_pylist()) == {str(tmp_path / "myboard.toml")}


def test_a_run_made_by_other_code_does_not_resume(tmp_path, capsys):
    """The run pins its code version: a resume by another version of the simulator, or of a
    run made before the pin, is refused and named as such; the folder is left as it was."""
    from doppelx.batch.code_version import code_version

    argv = ["simulate", "throws", "--throws", "4", "--seed", "3", "--quiet", "--out", str(tmp_path / "run")]
    assert run_cli(argv, capsys).code == 0
    run_json = tmp_path / "run" / "run.json"
    assert json.loads(run_json.read_text())["params"]["code_sha256"] == code_version()
    assert run_cli(argv, capsys).code == 0  # the same code resumes (nothing left to run)
    for change, words in (
        (
            lambda d: d["params"].update(code_sha256="0" * 64),
            ("another version", "000000000000", code_version()[:12]),
        ),
        (lambda d: d["params"].pop("code_sha256"), ("earlier version", "code_sha256")),
    ):
        data = json.loads(run_json.read_text())
        change(data)
        run_json.write_text(json.dumps(data))
        before = {p: p.read_bytes() for p in (tmp_path / "run").rglob("*") if p.is_file()}
        assert_refused(run_cli(argv, capsys), "different run", *words)
        assert {p: p.read_bytes() for p in (tmp_path / "run").rglob("*") if p.is_file()} == before
    assert run_cli([*argv, "--overwrite"], capsys).code == 0  # --overwrite starts it again
    assert json.loads(run_json.read_text())["params"]["code_sha256"] == code_version()


def test_a_worker_with_other_code_refuses_its_chunk():
    """``execute_chunk`` (every worker's entry point) runs nothing for a run pinned to other code."""
    from doppelx.batch.code_version import code_version
    from doppelx.batch.plan import RunSpec, execute_chunk
    from rules.common.errors import DoppelXError

    params = {"board": "I", "code_sha256": "f" * 64}
    with pytest.raises(DoppelXError, match="other code than the run was made with"):
        execute_chunk(RunSpec("throws", 2, 1, 1, params).to_json(), 0)
    index, rows = execute_chunk(RunSpec("throws", 2, 1, 1, {"code_sha256": code_version()}).to_json(), 1)
    assert index == 1 and len(rows) == 1  # the run's own code runs


def test_the_code_version_covers_what_makes_the_rows(tmp_path):
    """A change to a worker's source, an asset or a library version is another code version;
    the window, the sibling games, the command line and an editor's stray file are not part
    of it."""
    from doppelx.batch import code_version as cv

    files = {
        "rules/doppelx/scoring.py": "A = 1\n",
        "physics/run.py": "B = 2\n",
        "doppelx/games/doppelx/bots.py": "C = 3\n",
        "doppelx/games/doppelx/play/window.py": "D = 4\n",
        "doppelx/commands/game.py": "E = 5\n",
        "doppelx/cli.py": "G = 7\n",
        "doppelx/terminal.py": "H = 8\n",
        "doppelx/batch/store.py": "I = 9\n",
        "rules/clever/sheet.py": "F = 6\n",
        "assets/boards/.side_I.toml.swp": "swap",
        "assets/boards/side_I.toml": "name = 'I'\n",
        "assets/style.toml": "colour = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = cv.compute_code_version(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in cv.source_files(tmp_path)] == [
        "assets/boards/side_I.toml",
        "doppelx/games/doppelx/bots.py",
        "physics/run.py",
        "rules/doppelx/scoring.py",
    ]
    for name in (
        "doppelx/games/doppelx/play/window.py",
        "doppelx/commands/game.py",
        "doppelx/cli.py",
        "doppelx/terminal.py",
        "doppelx/batch/store.py",
        "rules/clever/sheet.py",
        "assets/style.toml",
        "assets/boards/.side_I.toml.swp",
    ):
        (tmp_path / name).write_text("changed = True\n")
        assert cv.compute_code_version(tmp_path) == first, name
    for name in (
        "rules/doppelx/scoring.py",
        "physics/run.py",
        "doppelx/games/doppelx/bots.py",
        "assets/boards/side_I.toml",
    ):
        old = (tmp_path / name).read_text()
        (tmp_path / name).write_text(old + "# a comment\n")
        assert cv.compute_code_version(tmp_path) != first, name
        (tmp_path / name).write_text(old)
    assert cv.compute_code_version(tmp_path) == first
    (tmp_path / "physics" / "status.py").write_text("")  # a new module is another code too
    assert cv.compute_code_version(tmp_path) != first


def test_every_module_a_worker_loads_is_in_the_code_version(tmp_path):
    """The other half of the check above (hashing too little would resume rows of other
    code): chunks of throws, of games with an expert seat and of MuJoCo throws run in a fresh
    process; every file of this checkout they load must be among the hashed ones."""
    import subprocess
    import sys

    from doppelx.batch import code_version as cv

    script = (
        "import json, sys\n"
        "from doppelx.batch.plan import RunSpec, execute_chunk\n"
        "specs = [RunSpec('throws', 2, 1, 1, {'lying': 2}),\n"
        "         RunSpec('games', 1, 1, 1, {'players': 3, 'board': 'III', 'target': 8,\n"
        "                 'skills': ['expert', 'easy', 'easy'], 'think': 12})]\n"
        "try:\n"
        "    import mujoco  # noqa: F401\n"
        "    specs.append(RunSpec('throws', 1, 1, 1, {'engine': 'mujoco'}))\n"
        "except ImportError:\n"
        "    pass\n"
        "for spec in specs:\n"
        "    execute_chunk(spec.to_json(), 0)\n"
        "print(json.dumps([getattr(m, '__file__', None) for m in list(sys.modules.values())]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True, timeout=600
    ).stdout
    root = cv.ROOT.resolve()
    loaded = {Path(f).resolve() for f in json.loads(out) if f}
    ours = {f for f in loaded if f.is_relative_to(root) and ".venv" not in f.parts}
    hashed = {f.resolve() for f in cv.source_files()}
    assert any("planner" in f.parts for f in ours)  # the expert's modules were loaded
    assert sorted(str(f.relative_to(root)) for f in ours - hashed) == []


def test_the_code_version_names_the_libraries(monkeypatch, tmp_path):
    from doppelx.batch import code_version as cv

    (tmp_path / "rules").mkdir()
    first = cv.compute_code_version(tmp_path)
    assert "mujoco" not in cv.library_versions() and "mujoco" in cv.library_versions("mujoco")
    assert cv.compute_code_version(tmp_path, "mujoco") != first  # MuJoCo's version counts there
    versions = cv.library_versions()
    monkeypatch.setattr(cv, "library_versions", lambda engine="pybullet": {**versions, "pybullet": "0.0.1"})
    assert cv.compute_code_version(tmp_path) != first
