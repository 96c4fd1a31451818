"""``doppelx bench``: the quick suite against the committed baseline, injected regressions,
``--update-baseline``, bad arguments, the settings sweep, the verdict rules and the impulse model."""

from __future__ import annotations

import contextlib
import io
import json
import math
import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doppelx.bench import baseline as bl
from doppelx.bench.common import PROFILES
from doppelx.bench.impulse import Free, Hinged, Static, collide
from doppelx.bench.metrics import Check, Metric, judge
from doppelx.bench.suite import ALL, SCENES, UNTIMED, run_suite
from doppelx.cli import main
from physics.settings import SimSettings

ROW_KEYS = {"scene", "metric", "value", "unit", "expected", "baseline", "change", "verdict", "tolerance"}


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """One ``doppelx bench --quick --json --out FILE`` run against the committed baseline."""
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        code = main(["bench", "--quick", "--json", "--out", str(out)])
    return code, json.loads(printed.getvalue()), json.loads(out.read_text(encoding="utf-8"))


def test_quick_json_has_every_scene_and_the_table_columns(quick):
    code, printed, written = quick
    assert printed == written
    assert printed["format"] == "doppelx-bench-result/1" and printed["profile"] == "quick"
    assert printed["scenes"] == [*SCENES, "speed"]  # every scene whose rows are shown
    assert list(printed["seconds"]) == list(SCENES)
    rows = printed["rows"]
    assert all(set(r) >= ROW_KEYS for r in rows)
    assert {r["scene"] for r in rows} == set(ALL)
    keys = [f"{r['scene']}/{r['metric']}" for r in rows]
    assert len(keys) == len(set(keys))
    speed = {r["metric"] for r in rows if r["scene"] == "speed"}
    for scene in SCENES:  # steps/s and throws/s of every timed scene, absolute and against the reference
        if scene in UNTIMED:  # run once, not timed
            assert not any(m.startswith(f"{scene}.") for m in speed)
            continue
        assert {
            f"{scene}.steps_per_s",
            f"{scene}.throws_per_s",
            f"{scene}.steps_ratio",
            f"{scene}.throws_ratio",
        } <= speed


def test_quick_run_passes_against_the_committed_baseline(quick):
    code, out, _ = quick
    rows = out["rows"]
    assert all(r["verdict"] != "new" for r in rows), "every metric has a committed baseline value"
    # speed is judged by the command but not asserted here (no timing assertions in unit tests)
    physics = [r for r in rows if r["scene"] != "speed"]
    assert [r for r in physics if r["verdict"] not in ("ok", "better", "info")] == []
    by_key = {f"{r['scene']}/{r['metric']}": r for r in rows}
    assert by_key["tray/tunnelled"]["value"] == 0
    assert by_key["tray/determinism_mismatches"]["value"] == 0
    assert by_key["tray/pose_hash"]["value"] == by_key["tray/pose_hash"]["baseline"]
    assert code == (1 if any(r["verdict"] in ("WORSE", "CHANGED", "FAIL") for r in rows) else 0)
    assert out["passed"] is (code == 0)


def test_the_analytic_expectations_hold_where_the_solver_is_good(quick):
    rows = {f"{r['scene']}/{r['metric']}": r for r in quick[1]["rows"]}
    assert rows["drop/e.flat.50mm"]["value"] == pytest.approx(0.40, abs=0.03)
    assert rows["incline/accel.+2deg"]["value"] == pytest.approx(
        rows["incline/accel.+2deg"]["expected"], rel=0.02
    )
    assert rows["incline/friction_angle"]["value"] == pytest.approx(math.degrees(math.atan(0.35)), abs=0.1)
    assert rows["incline/creep.-2deg"]["value"] < 0.1
    assert rows["impact/head_on.1mps.momentum_error"]["value"] < 1e-9
    assert rows["pile/fallen"]["value"] == 0
    assert rows["tray/faces.chi2"]["value"] < 20.515


def _edited_baseline(tmp_path, **values):
    path = tmp_path / "baseline.json"
    shutil.copy(bl.default_path(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["profiles"]["quick"]["metrics"].update(values)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_edited_baseline_makes_the_run_fail(tmp_path, capsys):
    # the edge drop's time to rest has no analytic expectation: judged against the baseline
    path = _edited_baseline(tmp_path, **{"drop/rest.edge.50mm": 0.1})
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(path)]) == 1
    captured = capsys.readouterr()
    line = next(ln for ln in captured.out.splitlines() if "rest.edge.50mm" in ln)
    assert line.split()[-1] == "CHANGED"
    assert "drop/rest.edge.50mm CHANGED" in captured.err
    # the untouched metrics of the scene still pass
    assert all(
        ln.split()[-1] in ("ok", "info")
        for ln in captured.out.splitlines()
        if ln.startswith("drop ") and "rest.edge.50mm" not in ln
    )


def test_a_baseline_farther_from_the_expectation_makes_the_row_better_not_failed(tmp_path, capsys):
    """e.flat.50mm expects 0.4; a baseline of 0.2 is farther from it than today's 0.38: moving
    towards the physics is never a failure (issue 34: MuJoCo's pyramidal cone at +1°)."""
    path = _edited_baseline(tmp_path, **{"drop/e.flat.50mm": 0.2})
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(path)]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "e.flat.50mm" in ln)
    assert line.split()[-1] == "better"


def test_a_changed_pose_hash_alone_passes_the_tray(tmp_path, capsys):
    """The pose hash moves with the last bit of any pose (a refactor reordering a sum): it is
    information; determinism is judged by determinism_mismatches."""
    path = _edited_baseline(tmp_path, **{"tray/pose_hash": "0123456789abcdef"})
    assert main(["bench", "--quick", "--scene", "tray", "--baseline", str(path), "--json"]) == 0
    rows = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["pose_hash"]["verdict"] == "info"
    assert rows["determinism_mismatches"]["tolerance"] == "must be == 0"
    assert rows["false_settles"]["verdict"] == "ok"


def test_a_bad_solver_setting_is_caught():
    """Bullet's CCD instead of sub-steps kills the 400 mm drop's bounce: the drop metrics leave their tolerance."""
    result = run_suite(PROFILES["quick"], ["drop"], settings=SimSettings(ccd=True, max_travel=0.0))
    rows = bl.compare(result.metrics, bl.load(bl.default_path()), "quick")
    failing = {r.metric.name for r in rows if r.verdict in ("WORSE", "CHANGED", "FAIL")}
    assert "e.flat.400mm" in failing or "rest.flat.400mm" in failing


def test_update_baseline_writes_a_baseline_that_then_passes(tmp_path, capsys):
    path = tmp_path / "baseline.json"
    shutil.copy(bl.default_path(), path)
    before = json.loads(path.read_text(encoding="utf-8"))
    path_new = tmp_path / "fresh.json"
    args = ["bench", "--quick", "--scene", "drop", "incline"]
    assert main([*args, "--baseline", str(path_new), "--update-baseline"]) == 0
    written = json.loads(path_new.read_text(encoding="utf-8"))
    keys = set(written["profiles"]["quick"]["metrics"])
    assert keys and all(k.split("/")[0] in ("drop", "incline") for k in keys)
    assert written["profiles"]["quick"]["measured"]["pybullet"]
    capsys.readouterr()
    assert main([*args, "--baseline", str(path_new), "--json"]) == 0
    assert {r["verdict"] for r in json.loads(capsys.readouterr().out)["rows"]} == {"ok"}
    # updating one profile's scenes keeps everything else in the file
    assert main([*args, "--baseline", str(path), "--update-baseline"]) == 0
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["profiles"]["full"] == before["profiles"]["full"]
    assert set(after["profiles"]["quick"]["metrics"]) == set(before["profiles"]["quick"]["metrics"])


@pytest.mark.parametrize(
    "argv", [["bench", "--scene", "nope"], ["bench", "--quick", "extra"], ["bench", "sweep", "--bogus"]]
)
def test_bad_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_a_malformed_baseline_or_output_path_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["bench", "--quick", "--scene", "incline", "--baseline", str(bad)]) == 2
    assert "format" in capsys.readouterr().err
    bad.write_text("{not json", encoding="utf-8")
    assert main(["bench", "--quick", "--scene", "incline", "--baseline", str(bad)]) == 2
    assert main(["bench", "--quick", "--scene", "incline", "--out", str(tmp_path / "no" / "x.json")]) == 2


@pytest.mark.parametrize(
    "key, value, problem",
    [
        ("drop/e.flat.50mm", "abc", "expected a number, got 'abc'"),
        ("drop/e.flat.50mm", None, "expected a number, got None"),
        ("drop/e.flat.50mm", [0.5], "expected a number, got [0.5]"),
        ("tray/pose_hash", 12345, "expected a string (a hash), got 12345"),
    ],
)
def test_a_baseline_metric_of_the_wrong_type_is_refused_on_load(tmp_path, capsys, key, value, problem):
    path = _edited_baseline(tmp_path, **{key: value})
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"doppelx: error: {path}: profiles.quick.metrics.{key}: {problem}\n"
    assert captured.out == ""  # refused before any scene ran


def test_a_baseline_folder_is_named_a_folder(tmp_path, capsys):
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"doppelx: error: {tmp_path}: is a folder, not a baseline file\n"


@pytest.mark.parametrize(
    "argv, flag, says",
    [
        (["cuboid", "--ratios", "1", "--throws", "2", "--seed", "-1"], "--seed", "from 0 to"),
        (["cuboid", "--seed", "2.5"], "--seed", "whole number"),
        (["cuboid", "--throws", "0"], "--throws", "from 1 to"),
        (["restitution", "--speeds", "inf"], "--speeds", "from 0.25 to 20 m/s"),
        (["restitution", "--speeds", "1,21"], "--speeds", "from 0.25 to 20 m/s"),
        (["holes", "--speeds", "inf"], "--speeds", "at most 20 m/s"),
        (["holes", "--speeds=-inf"], "--speeds", "above 0"),
        (["cuboid", "--ratios", "inf"], "--ratios", "from 0.1 to 10"),
        (["cuboid", "--ratios", "1e9", "--throws", "3"], "--ratios", "from 0.1 to 10"),
        (["cuboid", "--ratios", "0.05"], "--ratios", "160 mm rod"),
        (["cuboid", "--ratios", "nan"], "--ratios", "from 0.1 to 10"),
        (["cuboid", "--plot", "cuboid.jpg"], "--plot", "ending in .png"),
        (["sweep", "--quick", "--out", "sweep.xyz"], "--out", "ending in .png"),
        (["engines", "--out", "engines.svg"], "--out", "ending in .png"),
    ],
)
def test_bad_validation_scene_arguments_are_one_line_and_exit_2(capsys, argv, flag, says):
    with pytest.raises(SystemExit) as exc:
        main(["bench", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {flag}:" in err and says in err, err


def test_the_bounds_of_the_validation_scenes_run(capsys):
    """The largest speed and the extreme ratios the options take build scenes that run."""
    assert main(["bench", "restitution", "--speeds", "20", "--json"]) == 0
    assert [r["speed"] for r in json.loads(capsys.readouterr().out)["rows"]] == [20.0, 20.0]
    assert main(["bench", "cuboid", "--ratios", "0.1,10", "--throws", "4", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["ratios"]
    assert [r["x_over_y"] for r in rows] == [0.1, 10.0] and all(0 < r["throws"] <= 4 for r in rows)
    assert rows[0]["p_square"] > rows[1]["p_square"]  # a slab lands flat, a rod on its side


def test_quick_sweep_writes_the_plot_and_the_points(tmp_path, capsys):
    png, data = tmp_path / "sweep.png", tmp_path / "sweep.json"
    assert main(["bench", "sweep", "--quick", "--out", str(png), "--data", str(data)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    points = json.loads(data.read_text(encoding="utf-8"))["points"]
    assert len(points) == 3 and sum(p["chosen"] for p in points) == 1
    assert all(p["throws_per_s"] > 0 and p["restitution_error"] >= 0 for p in points)
    assert any("all" in p["pareto"] for p in points)
    # the project's settings let nothing through
    assert next(p for p in points if p["chosen"])["tunnelled"] == 0
    assert "project" in capsys.readouterr().out


def test_a_missing_baseline_file_is_an_error_not_a_silent_pass(tmp_path, capsys):
    missing = tmp_path / "basline.json"
    assert main(["bench", "--quick", "--scene", "incline", "--baseline", str(missing)]) == 2
    assert "basline.json" in capsys.readouterr().err
    assert not missing.exists()


def test_speed_is_information_without_a_record_of_this_machine_and_judged_with_one(
    tmp_path, capsys, monkeypatch
):
    record = tmp_path / "speed.json"
    argv = ["bench", "--quick", "--scene", "incline", "speed", "--json", "--speed-record", str(record)]
    assert main(argv) == 0  # no record: speed never fails
    rows = [r for r in json.loads(capsys.readouterr().out)["rows"] if r["scene"] == "speed"]
    assert rows and {r["verdict"] for r in rows} == {"info"}
    assert not record.exists()
    assert main([*argv, "--record-speed"]) == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    (entry,) = data["machines"].values()
    assert entry["machine"]["cores"] and "speed/incline.steps_ratio" in entry["profiles"]["quick"]
    capsys.readouterr()
    # judged against the record (on a machine other jobs do not load) ...
    import doppelx.bench.speedrecord as sr

    monkeypatch.setattr(sr, "others_load", lambda: 0.0)
    # ... halve the recorded ratios and the same run is "better" ...
    for key in list(entry["profiles"]["quick"]):
        if key.endswith("_ratio"):
            entry["profiles"]["quick"][key] /= 1000.0
    record.write_text(json.dumps(data), encoding="utf-8")
    main(argv)
    verdicts = {r["metric"]: r["verdict"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert verdicts["incline.steps_ratio"] == "better" and verdicts["incline.steps_per_s"] == "info"
    # ... multiply them and it is WORSE: the run fails on speed, on this machine only
    for key in list(entry["profiles"]["quick"]):
        if key.endswith("_ratio"):
            entry["profiles"]["quick"][key] *= 1e6
    record.write_text(json.dumps(data), encoding="utf-8")
    assert main(argv) == 1
    verdicts = {r["metric"]: r["verdict"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert verdicts["incline.steps_ratio"] == "WORSE"
    # ... but not while other jobs load the machine: ratios then move as much as a regression
    monkeypatch.setattr(sr, "others_load", lambda: 1.5)
    assert main(argv) == 0
    out = capsys.readouterr()
    verdicts = {r["metric"]: r["verdict"] for r in json.loads(out.out)["rows"]}
    assert verdicts["incline.steps_ratio"] == "info"
    monkeypatch.setattr(sr, "others_load", lambda: 0.0)
    # another machine's record is not this machine's
    data["machines"] = {"0000000000000000": entry}
    record.write_text(json.dumps(data), encoding="utf-8")
    assert main(argv) == 0


def test_record_speed_needs_the_speed_scene(tmp_path):
    argv = [
        "bench",
        "--quick",
        "--scene",
        "incline",
        "--record-speed",
        "--speed-record",
        str(tmp_path / "s.json"),
    ]
    assert main(argv) == 2


def test_the_committed_baseline_holds_no_speed_figures():
    data = bl.load(bl.default_path())
    assert all(not k.startswith("speed/") for sec in data["profiles"].values() for k in sec["metrics"])


# -- the validation scenes --------------------------------------------------------------------


def test_restitution_json_rows_and_the_aim_at_every_speed(capsys):
    assert main(["bench", "restitution", "--speeds", "0.5,3,5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["rows"]
    rows = out["rows"]
    assert [(r["pair"], r["speed"]) for r in rows] == [
        (pair, v) for pair in ("die-cardboard", "die-die") for v in (0.5, 3.0, 5.0)
    ]
    # the keys, plus the range of the releases averaged (an extension)
    assert all(set(r) == {"pair", "speed", "e_measured", "e_material", "e_range"} for r in rows)
    assert all(r["e_range"][0] <= r["e_measured"] <= r["e_range"][1] for r in rows)
    assert {r["pair"]: r["e_material"] for r in rows} == {"die-cardboard": 0.4, "die-die": 0.6}
    assert all(abs(r["e_measured"] - r["e_material"]) <= 0.05 for r in rows)


def test_restitution_misses_the_aim_with_bullets_ccd():
    from doppelx.bench import restitution as rs

    rows = rs.run((3.0,), settings=SimSettings(ccd=True, max_travel=0.0))
    assert all(rs.verdict(r, 0.2) in ("MISS", "TUNNELLED") for r in rows)


def test_cuboid_json_shape_and_intervals(capsys, tmp_path):
    png = tmp_path / "cuboid.png"
    argv = [
        "bench",
        "cuboid",
        "--ratios",
        "0.6,1.6",
        "--throws",
        "40",
        "--seed",
        "3",
        "--json",
        "--plot",
        str(png),
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["ratios"]
    rows = out["ratios"]
    assert [r["x_over_y"] for r in rows] == [0.6, 1.6]
    for r in rows:
        assert set(r) == {"x_over_y", "p_square", "lo", "hi", "throws"}
        assert 0 < r["throws"] <= 40 and r["lo"] <= r["p_square"] <= r["hi"]
    assert rows[0]["p_square"] > rows[1]["p_square"]  # flat dice land on a square face, long ones not
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(argv) == 0 and json.loads(capsys.readouterr().out)["ratios"] == rows  # same seed, same result


def test_cuboid_plot_takes_a_ratio_that_never_came_up_square(tmp_path):
    from doppelx.bench import cuboid as cb

    png = tmp_path / "zero.png"
    cb.plot([cb.Result(2.65, 0, 1000, 0), cb.Result(0.47, 1000, 1000, 0)], str(png), engine="mujoco")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cuboid_models_and_intervals():
    from doppelx.bench import cuboid as cb

    assert cb.solid_angle_model(1.0) == pytest.approx(1 / 3)
    ps = [cb.solid_angle_model(r) for r in (0.5, 0.8, 1.0, 1.5, 2.5)]
    assert ps == sorted(ps, reverse=True)
    lo, hi = cb.wilson(30, 100)
    assert lo == pytest.approx(0.2189, abs=1e-3) and hi == pytest.approx(0.3958, abs=1e-3)
    assert cb.wilson(0, 50)[0] == 0.0 and cb.wilson(50, 50)[1] == pytest.approx(1.0)
    assert len(cb.BUDDEN) == 15 and cb.experiment(1.44) == (0.052, 654)
    res = [cb.Result(r, round(p * 1000), 1000, 0) for r, p, _ in cb.BUDDEN]
    c = cb.compare(res)
    assert c["inside"] == 15 and c["mae"] < 0.001


def test_cuboid_scene_throws_within_its_ranges():
    from doppelx.bench import cuboid as cb

    scene = cb.SCENE.with_(height=(0.3, 0.31), speed=(2.0, 2.1), spin=(40.0, 41.0))
    rng = np.random.default_rng(5)
    for _ in range(50):
        position, q, v, w = cb.throw_of(rng, scene)
        assert 0.3 <= position[2] <= 0.31 and v[2] == 0.0
        assert 2.0 <= math.hypot(v[0], v[1]) <= 2.1 and 40.0 <= math.hypot(*w) <= 41.0
        assert sum(c * c for c in q) == pytest.approx(1.0)
    assert cb.face_up(np.array([0.0, 0.0, 1.0])) == 1 and cb.face_up(np.array([0.0, -1.0, 0.0])) == 0
    assert cb.face_up(np.array([math.sin(0.7), 0.0, math.cos(0.7)])) is None  # 40° from every face
    h, mass, inertia = cb.cuboid_body(2.0, cb.SCENE)
    assert h[2] == pytest.approx(2 * h[0]) and inertia[0] == inertia[1] > inertia[2]


def test_cuboid_project_scene_is_the_shipped_die_table_pair():
    from doppelx.bench import cuboid as cb
    from physics.materials import load_materials

    pair, scene = load_materials().pair("table"), cb.project_scene()
    assert (scene.friction, scene.restitution) == (pair.friction, pair.restitution)
    assert (scene.rolling_friction, scene.spinning_friction) == (
        pair.rolling_friction,
        pair.spinning_friction,
    )
    assert scene.edge == cb.SCENE.edge == cb.EDGE


def test_cuboid_scene_material_reaches_both_engines():
    from doppelx.bench import cuboid as cb
    from physics.mujoco_materials import damping_ratio

    scene = cb.SCENE.with_(friction=0.123, restitution=0.35)
    xml = cb.MujocoCuboidTable(scene=scene).mjcf(1.5) if _has_mujoco() else ""
    if xml:
        assert 'friction="0.123' in xml and f"{damping_ratio(0.35):.6g}"[:6] in xml
    with cb.CuboidTable(scene=scene.with_(height=(0.0, 0.0), speed=(0.0, 0.0), spin=(0.0, 0.0))) as table:
        face, t = table.throw(0.5, np.random.default_rng(1))
        info = table.p.getDynamicsInfo(1, -1, physicsClientId=table.client)  # the die (the table is 0)
    assert face in (0, 1) and 0 < t < 10
    assert info[1] == pytest.approx(0.123) and info[5] == pytest.approx(0.35)  # friction, restitution


def _has_mujoco() -> bool:
    try:
        import mujoco  # noqa: F401
    except ImportError:
        return False
    return True


def test_cuboid_engine_mujoco_json_is_deterministic(capsys):
    pytest.importorskip("mujoco")
    argv = [
        "bench",
        "cuboid",
        "--ratios",
        "0.5,2.5",
        "--throws",
        "12",
        "--seed",
        "4",
        "--engine",
        "mujoco",
        "--json",
    ]
    assert main(argv) == 0
    rows = json.loads(capsys.readouterr().out)["ratios"]
    assert [set(r) for r in rows] == [{"x_over_y", "p_square", "lo", "hi", "throws"}] * 2
    assert rows[0]["p_square"] > rows[1]["p_square"]
    assert main(["bench", "--engine", "mujoco", *argv[1:-3], "--json"]) == 0  # the bench-wide flag works too
    assert json.loads(capsys.readouterr().out)["ratios"] == rows


# -- the verdict rules ------------------------------------------------------------------------


def _m(value, **check):
    return Metric("s", "m", value, check=Check(**check))


def test_verdicts():
    assert judge(_m(1.0, tol=0.1), 1.05).verdict == "ok"
    assert judge(_m(1.0, tol=0.1), 1.2).verdict == "CHANGED"
    assert judge(_m(1.0, rel=0.5, better="higher"), 3.0).verdict == "WORSE"
    assert judge(_m(3.0, rel=0.5, better="higher"), 1.0).verdict == "better"
    assert judge(_m(0.5, tol=0.1, better="lower"), 1.0).verdict == "better"
    assert judge(_m(1, limit=("==", 0)), 1).verdict == "FAIL"  # a limit ignores the baseline
    assert judge(_m(0, limit=("==", 0)), None).verdict == "new"
    assert judge(_m(0, limit=("==", 0)), 0).verdict == "ok"
    assert judge(_m("abc", exact=True), "abd").verdict == "CHANGED"
    assert judge(_m(5.0, info=True), 1.0).verdict == "info"
    assert judge(_m(float("nan"), tol=1.0), 1.0).verdict == "CHANGED"


def test_a_count_is_judged_against_the_baselines_spread_not_its_own():
    """Issue 34: 8 throws at the time cap against a baseline of 0 read ok, because the band
    was 4√n of the run's own count."""
    check = {"tol": 2.0, "poisson": 4.0, "better": "lower"}
    assert judge(_m(8, **check), 0).verdict == "WORSE"
    assert judge(_m(2, **check), 0).verdict == "ok"
    assert judge(_m(30, **check), 25).verdict == "ok"  # 4√25 = 20
    assert judge(_m(46, **check), 25).verdict == "WORSE"


def test_a_signed_row_fails_when_its_sign_flips():
    """Issue 34: the spinner hit through the pin went from 6.5 to −2.2 rad/s and read better."""
    flip = Metric("s", "m", -2.2, expected=0.0, check=Check(tol=1.0, signed=True))
    assert judge(flip, 6.5).verdict == "CHANGED"
    smaller = Metric("s", "m", 3.0, expected=0.0, check=Check(tol=1.0, signed=True))
    assert judge(smaller, 6.5).verdict == "better"  # towards the expectation, same sign
    larger = Metric("s", "m", 9.0, expected=0.0, check=Check(tol=1.0, signed=True))
    assert judge(larger, 6.5).verdict == "WORSE"
    noise = Metric("s", "m", -0.5, expected=0.0, check=Check(tol=1.0, signed=True))
    assert judge(noise, 0.4).verdict == "ok"  # both within the band of 0: no sign to keep


def test_a_row_with_an_expectation_is_judged_by_its_distance_to_it():
    """Moving towards the analytic value is never a failure; away from it beyond the band is."""
    towards = Metric("s", "m", 0.20, expected=0.18, check=Check(tol=0.002, rel=0.02))
    assert judge(towards, 0.2225).verdict == "better"  # MuJoCo's pyramidal cone at +1°
    away = Metric("s", "m", 0.25, expected=0.18, check=Check(tol=0.002, rel=0.02))
    assert judge(away, 0.2225).verdict == "WORSE"
    across = Metric("s", "m", 0.16, expected=0.18, check=Check(tol=0.002, rel=0.02))
    assert judge(across, 0.2225).verdict == "better"  # past it, but nearer


def test_a_row_whose_expectation_moved_is_changed_even_on_its_expectation():
    """Halved friction moves the friction angle and its expectation together: the model's
    inputs changed, which the baseline (that keeps the expectation) must flag."""
    halved = Metric("s", "m", 9.93, expected=9.93, check=Check(tol=0.1))
    row = judge(halved, 19.293, expected_then=19.29)
    assert row.verdict == "CHANGED" and "expectation moved" in row.why
    assert judge(halved, 9.95, expected_then=9.93).verdict == "ok"


def test_a_row_with_expect_must_hold_its_physics_whatever_the_baseline_says():
    """The physics audit of session 10: expectations were shown, never judged, so an error
    recorded in the baseline passed for ever."""
    row = Metric("s", "m", 0.60, expected=0.371, check=Check(tol=0.01, rel=0.05, expect=0.05))
    assert judge(row, 0.60).verdict == "FAIL"  # equal to its baseline, 62 % off the model
    near = Metric("s", "m", 0.375, expected=0.371, check=Check(tol=0.01, rel=0.05, expect=0.05))
    assert judge(near, 0.375).verdict == "ok"
    assert "within 5% of expected" in near.check.describe()
    unchecked = Metric("s", "m", 0.60, expected=0.371, check=Check(tol=0.01))
    assert judge(unchecked, 0.60).verdict == "ok"  # shown only


# -- the impulse model ------------------------------------------------------------------------


def _die(centre, v, w=(0.0, 0.0, 0.0)):
    return Free(
        0.0045,
        np.eye(3) * 0.0045 * 0.016**2 / 6,
        np.asarray(centre, float),
        np.asarray(v, float),
        np.asarray(w, float),
    )


def test_a_flat_drop_rebounds_with_e():
    col = collide(_die((0, 0, 0.008), (0, 0, -1.0)), Static(), (0, 0, 0), (0, 0, 1), 0.4, 0.35)
    assert col.a.velocity == pytest.approx([0, 0, 0.4]) and not col.sliding


def test_a_hinged_card_turns_by_impulse_times_lever_over_inertia():
    card = Hinged(np.zeros(3), np.array([0.0, 0.0, 1.0]), 2e-6, 0.0)
    col = collide(card, _die((0.02, -0.03, 0), (0, 1.0, 0)), (0.02, -0.021, 0), (0, 1, 0), 0.35, 0.0)
    j = col.impulse
    assert col.a.omega == pytest.approx(float(np.cross([0.02, -0.021, 0], j)[2]) / 2e-6)
    assert col.b.velocity[1] - 0.0 == pytest.approx(1.0 - j[1] / 0.0045)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-0.008, 0.008), min_size=2, max_size=2),
    st.floats(0.1, 3.0),
    st.floats(0.0, 1.4),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
)
def test_die_die_impacts_conserve_momentum_and_obey_the_contact_laws(offset, speed, angle, e, mu):
    y, z = offset
    v = speed * np.array([math.cos(angle), math.sin(angle), 0.0])
    a, b = _die((-0.008, y, z), v), _die((0.008, 0, 0), (0, 0, 0))
    point = np.array([0.0, y / 2, z / 2])
    col = collide(b, a, point, (1, 0, 0), e, mu)
    b1, a1 = col.a, col.b
    assert a1.velocity * 0.0045 + b1.velocity * 0.0045 == pytest.approx(v * 0.0045, abs=1e-12)
    l0 = np.cross(a.centre, 0.0045 * v)
    l1 = (
        np.cross(a.centre, 0.0045 * a1.velocity)
        + np.cross(b.centre, 0.0045 * b1.velocity)
        + a.inertia @ a1.angular_velocity
        + b.inertia @ b1.angular_velocity
    )
    assert l1 == pytest.approx(l0, abs=1e-12)
    un0 = (a.point_velocity(point) - b.point_velocity(point))[0]
    un1 = (a1.point_velocity(point) - b1.point_velocity(point))[0]
    assert un1 == pytest.approx(-e * un0, abs=1e-9)
    pn, pt = col.impulse[0], np.linalg.norm(col.impulse[1:])  # on the die at +x, along +x
    assert pn > 0 and pt <= mu * pn + 1e-12


def test_a_baseline_without_the_profiles_section_says_nothing_was_compared(tmp_path, capsys):
    path = tmp_path / "empty.json"
    path.write_text('{"format": "doppelx-bench-baseline/1", "profiles": {}}')
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{path} has no 'quick' section: nothing was compared" in err


def test_cuboid_summary_sets_the_model_against_the_same_ratios():
    from doppelx.bench.cuboid import BUDDEN, Result, compare, solid_angle_model

    some = BUDDEN[:3]
    c = compare([Result(r, round(p * 1000), 1000, 0) for r, p, _ in some])
    assert c["compared"] == 3
    assert c["model_mae"] == pytest.approx(sum(abs(solid_angle_model(r) - p) for r, p, _ in some) / 3)
