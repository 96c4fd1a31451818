"""The benchmark scripts' arguments and outputs: ``bots.py``, ``batch_scaling.py``,
``million_throws.py``, ``throughput.py``, ``peer_mujoco_tray.py`` and
``expert_quality.py``.

A bad argument is refused before anything runs or is written — one line naming it, exit 2,
no traceback (the work functions are replaced by ones that fail the test if reached) — and
the outputs say what was measured: no NaN in ``--json`` (invalid JSON), "not run" rather
than "nan" in the text. Only refusals and runs of a second or two: no figure is judged.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@dataclass
class Result:
    code: int
    out: str
    err: str


def script(name: str):
    """The module of ``benchmarks/<name>.py``."""
    if name in ("bots", "batch_scaling"):
        pytest.importorskip("pyarrow")
    return importlib.import_module(f"benchmarks.{name}")


def call(module, args: list[str], capsys, monkeypatch) -> Result:
    """``python benchmarks/<module>.py ARGS`` in this process (``sys.argv`` as the shell gives it)."""
    monkeypatch.setattr(sys, "argv", [f"{module.__name__.rsplit('.', 1)[-1]}.py", *args])
    capsys.readouterr()
    try:
        code = module.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return Result(int(code or 0), captured.out, captured.err)


def must_not_run(*_args, **_kwargs):
    raise AssertionError("the benchmark started instead of refusing its arguments")


def assert_refused(res: Result, name: str, word: str) -> None:
    """Exit 2, one line on stderr starting with the script's name and naming ``word``."""
    lines = res.err.strip("\n").split("\n")
    assert res.code == 2, f"exit {res.code}: {res.err[:500]}"
    assert "Traceback" not in res.err, res.err[:2000]
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {res.err[:800]}"
    assert lines[0].startswith(f"{name}.py"), lines[0]
    assert word in lines[0], f"{word!r} not in {lines[0]!r}"
    assert res.out == ""


def strict_json(text: str):
    """``json.loads`` that refuses NaN and Infinity, as every JSON reader but Python's does."""

    def refuse(constant: str):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


# --- bots.py --------------------------------------------------------------------------------

BOTS_REFUSED = [
    (["--games", "0"], "--games"),
    (["--games", "-3"], "--games"),
    (["--think", "5"], "--think"),
    (["--think", "100001"], "--think"),
    (["--workers", "0"], "--workers"),
    (["--chunk", "0"], "--chunk"),
    (["--seed", "-1"], "--seed"),
    (["--against", "foo"], "--against"),
    (["--against", "expert"], "--against"),
    (["--against", "medium,expert"], "--against"),
    (["--time-decisions", "0"], "--time-decisions"),
    (["--time-decisions", "0", "--json"], "--time-decisions"),
]


@pytest.mark.parametrize(("args", "word"), BOTS_REFUSED, ids=[" ".join(a) for a, _ in BOTS_REFUSED])
def test_bots_refuses_a_bad_argument_before_writing_anything(args, word, tmp_path, capsys, monkeypatch):
    bots = script("bots")
    monkeypatch.setattr(bots, "run", must_not_run)
    monkeypatch.setattr(bots, "decision_times", must_not_run)
    monkeypatch.chdir(tmp_path)  # the default --out, runs/bots, is relative to the working folder
    assert_refused(call(bots, args, capsys, monkeypatch), "bots", word)
    assert list(tmp_path.iterdir()) == []


def test_bots_names_an_output_folder_it_cannot_make_in_one_line(tmp_path, capsys, monkeypatch):
    bots = script("bots")
    (tmp_path / "afile").write_text("a file, not a folder")
    args = ["--games", "1", "--against", "easy", "--workers", "1", "--out", str(tmp_path / "afile" / "runs")]
    assert_refused(call(bots, args, capsys, monkeypatch), "bots", "afile")


def test_bots_reports_the_expert_runs_time_measured_when_it_was_made(tmp_path, capsys, monkeypatch):
    """``--finished`` reports the wall clock of the call that played the expert games (null
    before any did), not the time it takes to read the folder."""
    bots = script("bots")
    tiny = ["--games", "1", "--against", "easy", "--think", "12", "--workers", "1", "--chunk", "1"]
    tiny += ["--out", str(tmp_path / "runs"), "--json"]
    res = call(bots, [*tiny, "--finished"], capsys, monkeypatch)  # nothing played yet: null
    assert res.code == 0, res.err[-2000:]
    assert strict_json(res.out)["easy"]["seconds_expert_run"] is None
    res = call(bots, tiny, capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    played = strict_json(res.out)["easy"]
    assert played["seconds_expert_run"] > 0.01 and played["expert_games_timed"] == 1
    res = call(bots, [*tiny, "--finished"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    again = strict_json(res.out)["easy"]
    assert again["seconds_expert_run"] == played["seconds_expert_run"]
    assert again["expert"]["games"] == 1


# --- batch_scaling.py -----------------------------------------------------------------------

SCALING_REFUSED = [
    (["--throws", "0"], "--throws"),
    (["--throws", "-1"], "--throws"),
    (["--chunk", "0"], "--chunk"),
    (["--lying", "9"], "--lying"),
    (["--lying", "-1"], "--lying"),
    (["--repeat", "0"], "--repeat"),
    (["--seed", "x"], "--seed"),
]


@pytest.mark.parametrize(("args", "word"), SCALING_REFUSED, ids=[" ".join(a) for a, _ in SCALING_REFUSED])
def test_batch_scaling_refuses_a_bad_argument(args, word, capsys, monkeypatch):
    scaling = script("batch_scaling")
    for name in ("timed", "cold_start", "Cluster"):
        monkeypatch.setattr(scaling, name, must_not_run)
    assert_refused(call(scaling, args, capsys, monkeypatch), "batch_scaling", word)


def test_batch_scaling_help_shows_the_whole_description(capsys, monkeypatch):
    res = call(script("batch_scaling"), ["--help"], capsys, monkeypatch)
    assert res.code == 0
    for words in ("ray_overhead_running_cluster", "ray_cold_start_s", "--repeat 2"):
        assert words in res.out, res.out


def fake_timings(scaling, monkeypatch) -> None:
    """Every pool and Ray job takes 1 s (no process is started)."""
    monkeypatch.setattr(scaling, "timed", lambda spec, workers, backend, address=None: 1.0)


def test_batch_scaling_without_ray_prints_null_and_not_run(capsys, monkeypatch):
    scaling = script("batch_scaling")
    fake_timings(scaling, monkeypatch)
    monkeypatch.setattr(scaling, "Cluster", must_not_run)
    monkeypatch.setattr(scaling, "cold_start", must_not_run)
    res = call(scaling, ["--throws", "10", "--no-ray", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err
    r = strict_json(res.out)
    assert r["ray_throws_per_s_2_workers"] is None
    assert r["ray_overhead_running_cluster"] is None and r["ray_cold_start_s"] is None
    assert r["throws_per_s_2_workers"] == 10.0
    res = call(scaling, ["--throws", "10", "--no-ray"], capsys, monkeypatch)
    assert res.code == 0, res.err
    assert "nan" not in res.out.lower(), res.out
    assert "running cluster: not run (--no-ray)" in res.out, res.out
    assert "ray cold start (local cluster inside the job): not run (--no-ray)" in res.out, res.out


def test_batch_scaling_says_why_ray_was_not_run(capsys, monkeypatch):
    scaling = script("batch_scaling")
    fake_timings(scaling, monkeypatch)

    def no_cluster(*_args, **_kwargs):
        raise RuntimeError("ray start failed here")

    def no_cold_start():
        raise subprocess.CalledProcessError(1, "python", "", "ModuleNotFoundError: No module named 'ray'\n")

    monkeypatch.setattr(scaling, "Cluster", no_cluster)
    monkeypatch.setattr(scaling, "cold_start", no_cold_start)
    res = call(scaling, ["--throws", "10"], capsys, monkeypatch)
    assert res.code == 0, res.err
    assert "nan" not in res.out.lower(), res.out
    assert "not run (ray backend failed: RuntimeError: ray start failed here)" in res.out, res.out
    assert "not run (failed: ModuleNotFoundError: No module named 'ray')" in res.out, res.out
    res = call(scaling, ["--throws", "10", "--json"], capsys, monkeypatch)
    r = strict_json(res.out)
    assert r["ray_cold_start_s"] is None and r["ray_throws_per_s_2_workers"] is None
    assert r["ray_error"] == "RuntimeError: ray start failed here"
    assert r["ray_cold_start_error"] == "ModuleNotFoundError: No module named 'ray'"


def test_batch_scaling_tiny_run_without_ray_is_valid_json(tmp_path):
    """The script as a user runs it: two throws, real pool workers (about a second)."""
    pytest.importorskip("pyarrow")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "batch_scaling.py"), "--throws", "2", "--chunk", "1"]
        + ["--no-ray", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    r = strict_json(out.stdout)
    assert r["ray_cold_start_s"] is None and r["throws_per_s_1_worker"] > 0


# --- million_throws.py ----------------------------------------------------------------------

MILLION_REFUSED = [
    (["--seconds", "0"], "--seconds"),
    (["--seconds", "-5"], "--seconds"),
    (["--seconds", "nan"], "--seconds"),
    (["--resume-seconds", "0"], "--resume-seconds"),
    (["--workers", "0"], "--workers"),
    (["--throws", "0"], "--throws"),
    (["--lying", "9"], "--lying"),
    (["--seed", "-1"], "--seed"),
]


@pytest.mark.parametrize(("args", "word"), MILLION_REFUSED, ids=[" ".join(a) for a, _ in MILLION_REFUSED])
def test_million_throws_refuses_a_bad_argument_before_starting_the_command(args, word, capsys, monkeypatch):
    million = script("million_throws")
    monkeypatch.setattr(million, "run_for", must_not_run)
    assert_refused(call(million, args, capsys, monkeypatch), "million_throws", word)


def test_million_throws_shows_the_commands_own_error_line(tmp_path, capsys, monkeypatch):
    """The command fails at once (here a stand-in that refuses as ``doppelx`` does): its line is
    shown, exit 2 — not a missing run.json."""
    million = script("million_throws")
    said = "doppelx simulate throws: error: argument --throws: the stand-in refuses"
    fake = tmp_path / "python"
    fake.write_text(
        f"#!/bin/sh\necho 'usage: doppelx simulate throws ...' >&2\necho \"{said}\" >&2\nexit 2\n"
    )
    fake.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    res = call(million, ["--seconds", "5", "--resume-seconds", "1"], capsys, monkeypatch)
    assert res.code == 2, res.err[-2000:]
    assert "Traceback" not in res.err, res.err[-2000:]
    lines = res.err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("million_throws.py") and said in lines[0], res.err


def fake_stretch(samples: list[float], chunk_times: list[float]):
    """A ``run_for`` that starts nothing: the run folder, chunks seen at ``chunk_times`` and one
    worker's RSS ``samples`` (MiB), as the real one returns them."""

    def run_for(cmd, seconds, out, log):
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        (out / "run.json").write_text(json.dumps({"chunk_size": 5}))
        names = [f"throws-{i:05d}.parquet" for i in range(len(chunk_times))]
        for n in names:
            (out / "chunks" / n).write_bytes(b"")
        log.write_text("40/1000 [00:08<03:12, 5.00throws/s]\n")
        return {
            "workers": {4242: list(samples)},
            "cpu": {4242: 2.0},
            "main_rss": [100.0],
            "chunks": dict(zip(names, chunk_times, strict=True)),
            "elapsed": float(seconds),
            "returncode": None,
        }

    return run_for


def test_million_throws_text_shows_whether_memory_is_flat(tmp_path, capsys, monkeypatch):
    million = script("million_throws")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    samples = [37.5, 119.0, 119.2, 119.1, 119.0, 119.3, 119.0, 119.0]  # imports first, then flat
    monkeypatch.setattr(million, "run_for", fake_stretch(samples, [1.0, 3.0, 5.0, 7.0]))
    res = call(million, ["--seconds", "8", "--resume-seconds", "1", "--workers", "1"], capsys, monkeypatch)
    assert res.code == 0, res.err
    assert "RSS after a quarter of the run 119.2 MiB → at the end 119.0 MiB, largest 119.3" in res.out, (
        res.out
    )
    assert "37.5 → " not in res.out, res.out
    assert "10.0 throws per worker CPU second" in res.out, res.out  # 4 chunks of 5 over 2 CPU seconds


def test_million_throws_json_has_null_for_a_rate_not_measured(tmp_path, capsys, monkeypatch):
    million = script("million_throws")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(million, "run_for", fake_stretch([50.0], [1.0]))  # one chunk: no steady rate
    res = call(million, ["--seconds", "2", "--resume-seconds", "1", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err
    r = strict_json(res.out)
    assert r["throws_per_s"] is None and r["hours_for_a_million"] is None
    res = call(million, ["--seconds", "2", "--resume-seconds", "1"], capsys, monkeypatch)
    assert res.code == 0, res.err
    assert "steady rate not measured" in res.out and "nan" not in res.out.lower(), res.out


# --- throughput.py --------------------------------------------------------------------------


def test_throughput_json_has_the_load_after_the_run(capsys, monkeypatch):
    throughput = script("throughput")
    monkeypatch.setattr(throughput, "measure", lambda n, naive_n, rounds, seed: {"throws": n})
    res = call(throughput, ["--throws", "3", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err
    machine = strict_json(res.out)["machine"]
    assert isinstance(machine["load_avg_1min_after"], float)
    assert "load_avg_1min_before" in machine and "load_avg_1min" in machine  # kept as they were


def test_throughput_refuses_a_bad_argument_in_one_line(capsys, monkeypatch):
    throughput = script("throughput")
    monkeypatch.setattr(throughput, "measure", must_not_run)
    assert_refused(call(throughput, ["--throws", "0"], capsys, monkeypatch), "throughput", "--throws")


# --- peer_mujoco_tray.py and expert_quality.py (issue 33) ------------------------------------

PEER_REFUSED = [
    (["--throws", "0"], "--throws"),
    (["--beside", "0"], "--beside"),
    (["--rounds", "0"], "--rounds"),
    (["--seed", "-1"], "--seed"),
]


@pytest.mark.parametrize(("args", "word"), PEER_REFUSED, ids=[" ".join(a) for a, _ in PEER_REFUSED])
def test_the_peer_tray_refuses_a_bad_argument_before_running(args, word, capsys, monkeypatch):
    peer = script("peer_mujoco_tray")
    monkeypatch.setattr(peer, "run_tray", must_not_run)
    monkeypatch.setattr(peer, "beside", must_not_run)
    assert_refused(call(peer, args, capsys, monkeypatch), "peer_mujoco_tray", word)


def test_the_peer_tray_settles_its_dice_in_the_tray_and_says_so_in_json(capsys, monkeypatch):
    pytest.importorskip("mujoco")
    peer = script("peer_mujoco_tray")
    res = call(peer, ["--throws", "3", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    r = strict_json(res.out)
    assert r["throws"] == 3 and r["unsettled"] == 0 and 0.1 < r["sim_s_per_throw"] < peer.TIME_CAP
    assert r["machine"]["load_avg_1min_before"] >= 0


def test_the_peer_tray_beside_the_command_takes_the_commands_run_apart(capsys, monkeypatch):
    """``--beside``: the whole command against the tray, and the command's own run taken
    apart — its chunks as the worker runs them, and the same throws through ``run_throw``
    alone (what the command could reach at most)."""
    pytest.importorskip("mujoco")
    peer = script("peer_mujoco_tray")
    res = call(peer, ["--beside", "3", "--rounds", "1", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    r = strict_json(res.out)
    assert r["peer_tray"]["unsettled"] == 0 and r["ratio"] == r["wall_ratio"] > 0 and r["cpu_ratio"] > 0
    chunks, engine = r["worker_chunks"], r["engine_path"]
    assert chunks["cpu_throws_per_s"] > 0 and engine["cpu_throws_per_s"] > 0
    tray = r["peer_tray"]["cpu_throws_per_s"]
    assert chunks["cpu_ratio"] == pytest.approx(chunks["cpu_throws_per_s"] / tray)
    assert engine["cpu_ratio"] == pytest.approx(engine["cpu_throws_per_s"] / tray)


def test_the_peer_trays_scenes_lie_flat_apart_and_are_the_same_for_a_seed():
    peer = script("peer_mujoco_tray")
    a, b = peer.scenes(4, 7), peer.scenes(4, 7)
    assert all((x[0] == y[0]).all() and (x[1] == y[1]).all() for x, y in zip(a, b))
    for qpos, qvel in a:
        q = qpos.reshape(-1, 7)
        lying = q[: peer.LYING]
        assert (lying[:, 2] == peer.DIE / 2).all() and (qvel.reshape(-1, 6)[: peer.LYING] == 0).all()
        gaps = [((p - r) ** 2).sum() ** 0.5 for i, p in enumerate(lying[:, :2]) for r in lying[i + 1 :, :2]]
        assert min(gaps) > peer.DIE and (abs(q[:, :2]) < peer.TRAY / 2).all()


QUALITY_REFUSED = [
    (["--positions", "1"], "--positions"),
    (["--fresh", "x"], "--fresh"),
    (["--time-turns", "0"], "--time-turns"),
    (["--think", "5"], "--think"),
    (["--worlds", "1"], "--worlds"),
]


@pytest.mark.parametrize(("args", "word"), QUALITY_REFUSED, ids=[" ".join(a) for a, _ in QUALITY_REFUSED])
def test_expert_quality_refuses_a_bad_argument_before_running(args, word, capsys, monkeypatch):
    quality = script("expert_quality")
    monkeypatch.setattr(quality, "quality", must_not_run)
    monkeypatch.setattr(quality, "turn_times", must_not_run)
    monkeypatch.setattr(quality, "worlds", must_not_run)
    assert_refused(call(quality, args, capsys, monkeypatch), "expert_quality", word)


@pytest.mark.parametrize("args", [["--positions", "2", "--fresh", "2"], ["--time-turns", "1"]])
def test_expert_quality_runs_both_modes_and_says_so_in_json(args, capsys, monkeypatch):
    # both modes had rotted unseen: a bot maker renamed, a finished game asked for its next throw
    quality = script("expert_quality")
    res = call(quality, [*args, "--think", "12", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    r = strict_json(res.out)
    assert r["think"] == 12 and r["median_cpu_s"] > 0


def test_expert_qualitys_positions_skip_a_game_over_before_its_position():
    # seed 13 + 194 (target 50) is over before its 4 + 194 mod 7 throws: --positions 240 crashed
    quality = script("expert_quality")
    tables = quality.positions(2, first=193)
    assert [t.seed[0] for t in tables] == [13 + 193, 13 + 195]


def test_expert_quality_compares_the_planners_world_with_the_games_on_the_same_rollouts(capsys, monkeypatch):
    quality = script("expert_quality")
    res = call(quality, ["--worlds", "2", "--positions", "2", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    r = strict_json(res.out)
    assert r["rollouts_per_world"] == 2 * r["candidates"] * 2 and r["tunnelled_throws_planner"] == 0
    # the planner's 6 mm sub-steps take fewer of them than the game's 3 mm on the same throws
    assert 0 < r["substeps_per_rollout"]["planner"] < r["substeps_per_rollout"]["game"]
    assert r["thrown_dice"] == r["rollouts_per_world"] * 2


# --- throw_feel.py (issue 32) ----------------------------------------------------------------


def test_throw_feel_counts_the_time_in_play_from_the_first_impact(capsys, monkeypatch):
    feel = script("throw_feel")
    res = call(feel, ["--seeds", "2", "--mappings", "assisted", "--json"], capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    rows = strict_json(res.out)["results"]["assisted"]
    for r in rows.values():
        # the dice fly before they first touch the board or a wall: in play is shorter than
        # release to rest, by at least the fall from the release height over the rim
        assert 0.0 < r["in_play_s"] < r["rest_s"] - 0.05
    text = call(feel, ["--seeds", "2", "--mappings", "assisted"], capsys, monkeypatch).out
    assert "in play" in text.splitlines()[1]


# --- tosses_inertia.py (issue 29) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--factors", "1,x"], "--factors"),
        (["--factors", "2.5"], "at most 2"),
        (["--tosses", "0"], "--tosses"),
    ],
)
def test_tosses_inertia_refuses_bad_arguments_before_running(args, word, capsys, monkeypatch):
    inertia = script("tosses_inertia")
    monkeypatch.setattr(inertia, "scan", must_not_run)
    assert_refused(call(inertia, args, capsys, monkeypatch), "tosses_inertia", word)


def test_tosses_inertia_scans_the_cubes_moment_on_both_halves(capsys, monkeypatch, tmp_path):
    inertia = script("tosses_inertia")
    out = tmp_path / "scan.json"
    args = ["--engine", "pybullet", "--factors", "1,1.5", "--tosses", "2", "--out", str(out)]
    res = call(inertia, args, capsys, monkeypatch)
    assert res.code == 0, res.err[-2000:]
    rows = strict_json(out.read_text())["pybullet sharp"]
    assert [(r["factor"], r["half"]) for r in rows] == [
        (1.0, "fit"),
        (1.0, "eval"),
        (1.5, "fit"),
        (1.5, "eval"),
    ]
    assert rows[2]["inertia_kgm2"] == pytest.approx(1.5 * rows[0]["inertia_kgm2"], rel=1e-4)
    assert rows[0]["objective"] != rows[2]["objective"]  # the moment reaches the motion
    assert "0.0006773" in res.out and "0.0010159" in res.out


# --- contactnets_tosses.py (issue 29) --------------------------------------------------------


def _legacy_pt(rows: np.ndarray, monkeypatch) -> bytes:
    """``rows`` (frames, 19) as ``torch.save`` wrote a tensor before PyTorch 1.6 (the format of
    ContactNets' toss files), made without PyTorch: stand-ins for its two globals."""
    import collections
    import pickle
    import struct
    import types

    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch._utils")

    def _rebuild_tensor_v2(*args):  # pragma: no cover - only pickled by reference
        raise AssertionError

    class DoubleStorage:
        pass

    _rebuild_tensor_v2.__module__, DoubleStorage.__module__ = "torch._utils", "torch"
    _rebuild_tensor_v2.__qualname__ = "_rebuild_tensor_v2"
    DoubleStorage.__qualname__ = "DoubleStorage"
    utils._rebuild_tensor_v2, torch.DoubleStorage, torch._utils = _rebuild_tensor_v2, DoubleStorage, utils
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch._utils", utils)
    storage = object()

    class Tensor:
        def __reduce__(self):
            size, stride = (1, *rows.shape), (rows.size, rows.shape[1], 1)
            return (_rebuild_tensor_v2, (storage, 0, size, stride, False, collections.OrderedDict()))

    class Saver(pickle.Pickler):
        def persistent_id(self, obj):
            return ("storage", DoubleStorage, "0", "cpu", rows.size) if obj is storage else None

    out = io.BytesIO()
    for header in (0x1950A86A20F9469CFC6C, 1001, {"protocol_version": 1001, "little_endian": True}):
        pickle.dump(header, out, protocol=2)
    Saver(out, protocol=2).dump(Tensor())
    pickle.dump(["0"], out, protocol=2)
    out.write(struct.pack("<q", rows.size) + np.ascontiguousarray(rows, dtype="<f8").tobytes())
    return out.getvalue()


def test_contactnets_tosses_converts_legacy_toss_files_and_leaves_out_the_shipped_ones(
    tmp_path, capsys, monkeypatch
):
    conv = script("contactnets_tosses")
    folder = tmp_path / "pt"
    folder.mkdir()
    rng = np.random.default_rng(3)
    made = {}
    for i, n in ((4, 12), (7, 15), (9, 11)):
        rows = np.zeros((n, 19))
        rows[:, 0:3] = rng.normal(size=(n, 3))
        rows[:, 3] = 1.0  # w first
        rows[:, 7:13] = rng.normal(size=(n, 6))
        (folder / f"{i}.pt").write_bytes(_legacy_pt(rows, monkeypatch))
        made[i] = rows
    monkeypatch.delitem(sys.modules, "torch")
    monkeypatch.delitem(sys.modules, "torch._utils")
    (folder / "notes.txt").write_text("not a toss")
    shipped = tmp_path / "shipped.npz"
    np.savez(shipped, toss_id=np.array([7]))
    out = tmp_path / "kept.npz"
    res = call(conv, [str(folder), str(out), "--exclude-ids-of", str(shipped), "--inertia", "0.00081"],
               capsys, monkeypatch)  # fmt: skip
    assert res.code == 0, res.err
    with np.load(out) as z:
        assert list(z["toss_id"]) == [4, 9] and list(z["offsets"]) == [0, 12, 23]
        first = z["states"][:12]
        np.testing.assert_array_equal(first[:, 0:3], made[4][:, 0:3] * 0.0524)  # half widths -> m
        np.testing.assert_array_equal(first[:, 7:10], made[4][:, 7:10] * 0.0524)
        np.testing.assert_array_equal(first[:, 3:7], made[4][:, 3:7])
        np.testing.assert_array_equal(first[:, 10:13], made[4][:, 10:13])  # rad/s as they are
        assert float(z["inertia_kgm2"]) == 0.00081 and float(z["dt"]) == 1 / 148
    (folder / "5.pt").write_bytes(b"\x80\x02K\x01.")  # one pickle, then nothing: not a toss file
    before = out.read_bytes()
    assert_refused(call(conv, [str(folder), str(out)], capsys, monkeypatch), "contactnets_tosses", "5.pt")
    assert out.read_bytes() == before  # the existing output is left as it was
