"""The batch machinery: determinism across workers and backends, worker death, resume."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from doppelx.batch.backends import run_plan
from doppelx.batch.plan import RunSpec
from doppelx.batch.store import read_run_metadata
from rules.common.errors import DoppelXError

KIND = "tests.doppelx.batch.batch_fake:run_chunk"


def values(path):
    t = pq.read_table(path)
    return t.column("item").to_pylist(), t.column("value").to_pylist()


def test_same_rows_whatever_the_workers_and_chunking(tmp_path):
    a = run_plan(RunSpec(KIND, 23, 7, 5), tmp_path / "a", workers=1, progress=False)
    b = run_plan(RunSpec(KIND, 23, 7, 3), tmp_path / "b", workers=2, progress=False)
    assert values(a) == values(b)
    assert values(a)[0] == list(range(23))
    meta = read_run_metadata(a)
    assert meta["spec"]["seed"] == 7 and meta["spec"]["count"] == 23


def test_a_dead_worker_has_its_chunk_rerun(tmp_path, capsys):
    spec = RunSpec(KIND, 12, 1, 3, {"die_marker": str(tmp_path / "died"), "die_in_chunk": 2})
    path = run_plan(spec, tmp_path / "run", workers=2, progress=False)
    assert (tmp_path / "died").exists()
    assert "a worker died" in capsys.readouterr().err
    clean = run_plan(RunSpec(KIND, 12, 1, 3), tmp_path / "clean", workers=1, progress=False)
    assert values(path) == values(clean)  # nothing lost, nothing twice


def test_resume_runs_only_missing_chunks(tmp_path):
    spec = RunSpec(KIND, 10, 4, 2)
    out = tmp_path / "run"
    first = run_plan(spec, out, progress=False)
    pids_before = pq.read_table(first).column("pid").to_pylist()
    (out / "chunks" / "items-00003.parquet").unlink()  # as if killed before chunk 3 landed
    second = run_plan(spec, out, progress=False)
    pids_after = pq.read_table(second).column("pid").to_pylist()
    assert values(first) == values(second)
    changed = [i for i, (p, q) in enumerate(zip(pids_before, pids_after)) if p != q]
    assert changed == [6, 7]  # only chunk 3's items were run again


def test_a_folder_of_another_run_is_refused(tmp_path):
    run_plan(RunSpec(KIND, 4, 1, 2), tmp_path / "run", progress=False)
    with pytest.raises(DoppelXError, match="different run .its seed is 1, this command.s 2."):
        run_plan(RunSpec(KIND, 4, 2, 2), tmp_path / "run", progress=False)
    run_plan(RunSpec(KIND, 4, 2, 2), tmp_path / "run", progress=False, overwrite=True)


def test_ray_backend_gives_the_same_rows(tmp_path):
    a = run_plan(RunSpec(KIND, 9, 5, 2), tmp_path / "pool", workers=2, progress=False)
    b = run_plan(RunSpec(KIND, 9, 5, 2), tmp_path / "ray", workers=2, backend="ray", progress=False)
    assert values(a) == values(b)


def test_merge_streams_chunks_and_promotes_columns(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    from doppelx.batch import store
    from doppelx.batch.plan import RunSpec
    from doppelx.batch.store import RunStore, read_run_metadata

    monkeypatch.setattr(store, "MERGE_ROWS", 2)  # several row groups from three chunks
    spec = RunSpec("throws", 5, 1, 2, {})
    st = RunStore(tmp_path / "run", spec)
    st.open()
    st.write_chunk(0, [{"item": 0, "a": None, "b": 1.0}, {"item": 1, "a": None, "b": 2.0}])
    st.write_chunk(1, [{"item": 2, "a": "x", "b": None}, {"item": 3, "a": None, "b": 3.0}])
    st.write_chunk(2, [{"item": 4, "a": "y", "b": 4.0, "c": 7}])
    path = st.merge()
    assert pq.read_table(path).to_pylist() == [
        {"item": 0, "a": None, "b": 1.0, "c": None},
        {"item": 1, "a": None, "b": 2.0, "c": None},
        {"item": 2, "a": "x", "b": None, "c": None},
        {"item": 3, "a": None, "b": 3.0, "c": None},
        {"item": 4, "a": "y", "b": 4.0, "c": 7},
    ]
    assert pq.ParquetFile(path).num_row_groups > 1
    assert read_run_metadata(path)["fingerprint"] == spec.fingerprint()


def test_progress_into_a_file_or_pipe_is_whole_lines(tmp_path, capsys):
    run_plan(RunSpec(KIND, 6, 1, 2), tmp_path / "run", progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err  # not one endless redrawn line in a log file
    lines = err.splitlines()
    assert lines[-1].startswith("100%") and "6/6" in lines[-1] and "item/s" in lines[-1]


def test_progress_lines_show_the_end_once():
    """tqdm's close draws the finished bar again with another rate; a log got two 100 % lines."""
    import io

    from doppelx.batch.backends import _ProgressLines

    out = io.StringIO()
    lines = _ProgressLines(out)
    for text in (
        "\r  0%|          | 0/40 [00:00<?, ?throws/s]",
        "\r 50%|#####     | 20/40 [00:00<00:00, 30.1throws/s]",
        "\r100%|##########| 40/40 [00:01<00:00, 33.15throws/s]",
        "\r100%|##########| 40/40 [00:01<00:00, 26.81throws/s]",
        "\n",
    ):
        lines.write(text)
    assert out.getvalue().splitlines() == [
        "0%|          | 0/40 [00:00<?, ?throws/s]",
        "50%|#####     | 20/40 [00:00<00:00, 30.1throws/s]",
        "100%|##########| 40/40 [00:01<00:00, 33.15throws/s]",
    ]


def test_every_chunk_is_logged_at_debug_level(tmp_path, caplog):
    """``-vv`` ("every detail") follows a run chunk by chunk (the batch audit of session 10
    found it printed only which assets were read)."""
    import logging

    with caplog.at_level(logging.DEBUG, logger="doppelx.batch.backends"):
        run_plan(RunSpec(KIND, 6, 1, 2), tmp_path / "run", progress=False)
    written = [r.getMessage() for r in caplog.records if "written" in r.getMessage()]
    assert len(written) == 3 and written[-1].endswith("s since the start")
    assert "(2 rows), 0 to go" in written[-1]


def test_on_a_running_cluster_workers_caps_the_chunks_at_once(tmp_path, monkeypatch):
    """``--workers N --address …``: at most N chunks on the cluster at once, without
    ``--workers`` all of them; a stand-in for Ray counts what ``ray.wait`` is handed."""
    from doppelx.batch import backends
    from rules.common import optional

    class FakeRay:
        class exceptions:
            RayTaskError = WorkerCrashedError = type("Never", (Exception,), {})

        def __init__(self):
            self.at_once = []

        def is_initialized(self):
            return False

        def init(self, **kw):
            pass

        def shutdown(self):
            pass

        def remote(self, **kw):
            return lambda fn: type("Task", (), {"remote": staticmethod(lambda *args: (fn, args))})()

        def wait(self, refs, num_returns):
            self.at_once.append(len(refs))
            return refs[:1], refs[1:]

        def get(self, ref):
            fn, args = ref
            return fn(*args)

    for workers, most in ((2, 2), (None, 6)):
        fake = FakeRay()
        monkeypatch.setattr(optional, "import_optional", lambda *a, fake=fake: fake)
        monkeypatch.setattr(backends, "check_address", lambda address: None)
        out = run_plan(
            RunSpec(KIND, 12, 3, 2),
            tmp_path / f"w{workers}",
            workers=workers,
            backend="ray",
            address="10.0.0.5:6379",
            progress=False,
        )
        assert max(fake.at_once) == most and len(fake.at_once) == 6
        assert values(out) == values(
            run_plan(RunSpec(KIND, 12, 3, 2), tmp_path / f"p{workers}", progress=False)
        )


def test_throws_rows_are_the_same_whatever_the_workers_and_chunking(tmp_path):
    """Real throws (six dice lying, every die read at once by ``read_dice``): one worker in
    chunks of 3 and two workers in chunks of 2 give the same wide rows and tidy tables."""
    from doppelx.batch.code_version import code_version
    from doppelx.batch.store import RunStore

    params = {"lying": 6, "code_sha256": code_version()}
    runs = []
    for name, chunk, workers in (("a", 3, 1), ("b", 2, 2)):
        spec = RunSpec("throws", 6, 11, chunk, params)
        path = run_plan(spec, tmp_path / name, workers=workers, progress=False)
        tidy = RunStore(tmp_path / name, spec).write_tables()
        runs.append(
            (pq.read_table(path).to_pylist(), {k: pq.read_table(p).to_pylist() for k, p in tidy.items()})
        )
    (wide_a, tidy_a), (wide_b, tidy_b) = runs
    assert wide_a == wide_b and tidy_a == tidy_b
    assert [r["item"] for r in wide_a] == list(range(6))
    assert len(tidy_a["dice"]) == 6 * 8  # two thrown and six lying dice read every throw


def test_meanwhile_is_called_once_after_the_first_chunk_is_stored(tmp_path):
    """``run_plan(meanwhile=...)``: once, with one chunk on disk (the others still to run);
    on a finished run (nothing to run) once after it."""
    calls = []
    spec = RunSpec(KIND, 9, 3, 3)

    def seen():
        calls.append(len(list((tmp_path / "run" / "chunks").glob("*.parquet"))))

    run_plan(spec, tmp_path / "run", workers=1, progress=False, meanwhile=seen)
    assert calls == [1]
    run_plan(spec, tmp_path / "run", workers=1, progress=False, meanwhile=seen)
    assert calls == [1, 3]


def test_a_stop_while_the_report_modules_load_waits_for_them_then_says_how_to_resume(tmp_path):
    """A Ctrl-C or SIGTERM that came while ``meanwhile`` imported the report's modules was raised
    inside matplotlib's import ("ImportError: initialization failed", a traceback, no resume
    hint: a test stopping a run after its first chunk met it under load). The signal is held
    until ``meanwhile`` returns, then stops the run as anywhere else."""
    import os
    import signal
    import time

    done = []

    def meanwhile():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)  # without the hold the interrupt is raised here
        done.append(True)

    with pytest.raises(KeyboardInterrupt) as stop:
        run_plan(RunSpec(KIND, 12, 1, 2), tmp_path / "r", workers=1, progress=False, meanwhile=meanwhile)
    assert done == [True]
    assert "run the same command again to resume" in stop.value.args[0]


def test_item_throw_is_the_throw_a_runs_row_was_made_from():
    """``item_throw`` (the benchmarks' way to replay a run's throws through the engine alone)
    draws item ``i``'s lying dice, aim and throw exactly as the run did: run to rest and
    read, each gives its row's aim and resting places bit for bit."""
    from doppelx.batch.throw_items import item_throw, run_chunk, throw_table

    spec = RunSpec("throws", 4, 5, 2, {"lying": 3})
    rows = [row for index in range(spec.n_chunks) for row in run_chunk(spec, index)]
    table = throw_table(spec)
    for row in rows:
        lying, aim, throw = item_throw(table, spec.seed, row["item"])
        assert len(lying) == row["lying"] == 3
        assert (aim.target[0], aim.target[1], aim.strength) == (row["aim_x"], row["aim_y"], row["strength"])
        readings = {r.owner: r for r in table.service.read(table.service.run(throw, lying).outcome)}
        assert (readings[table.colour].x, readings[table.colour].y) == (row["c_x"], row["c_y"])
        assert (readings["white"].x, readings["white"].y) == (row["w_x"], row["w_y"])
    # another seed draws other lying dice and another throw (the greedy aim is the same)
    lying, _aim, throw = item_throw(table, spec.seed, 0)
    lying2, _aim2, throw2 = item_throw(table, spec.seed + 1, 0)
    assert lying2 != lying and throw2.releases[0].velocity != throw.releases[0].velocity
