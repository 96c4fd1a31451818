"""``doppelx bench``: what it reads and writes, and the options it takes: the speed record written atomically, read only with the speed scene and checked
value by value; a damaged record replaced by ``--record-speed``; the suite's options refused
before a sub-command that does not take them; no two files one; a baseline section of another
engine refused; a baseline metric no longer measured ``MISSING``; the bounds of the
validation scenes' options."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import textwrap

import pytest

from doppelx.bench import baseline as bl
from doppelx.bench import speedrecord as sr
from doppelx.cli import main
from rules.common.atomic import OutputError

SPEED_RUN = ["bench", "--quick", "--scene", "incline", "speed"]


def _baseline_copy(tmp_path, name="baseline.json"):
    path = tmp_path / name
    shutil.copy(bl.default_path(), path)
    return path, json.loads(path.read_text(encoding="utf-8"))


def _one_error_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("doppelx: error: "), err
    return err


# -- 1. the speed record is written atomically and read only when speed is measured ------------


def test_a_speed_record_write_cut_short_by_a_size_limit_leaves_the_old_record_whole(tmp_path):
    """As under ``ulimit -f 1``: the write fails, the record on disk is still the old one."""
    record = tmp_path / "speed.json"
    old = {"format": sr.FORMAT, "machines": {"0123456789abcdef": {"machine": {}, "profiles": {}}}}
    record.write_text(json.dumps(old), encoding="utf-8")
    script = textwrap.dedent(
        """
        import resource, signal, sys
        from doppelx.bench import speedrecord as sr
        figures = {f"speed/scene{i}.steps_ratio": 1.25 for i in range(200)}  # far more than 1 KiB
        data = {"format": sr.FORMAT, "machines": {"m": {"machine": {}, "profiles": {"quick": figures}}}}
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
        try:
            sr.save(sys.argv[1], data)
        except OSError as exc:
            print(exc)
            sys.exit(3)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(record)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 3, done.stderr
    assert "speed record" in done.stdout and str(record) in done.stdout
    assert json.loads(record.read_text(encoding="utf-8")) == old
    assert sr.load(record) == old
    assert [p.name for p in tmp_path.iterdir()] == ["speed.json"]  # no temporary file left


def test_a_damaged_record_stops_only_speed_runs_and_record_speed_replaces_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the default record, in a new folder
    record = sr.default_path()
    assert not record.parent.exists()
    assert main([*SPEED_RUN, "--record-speed"]) == 0  # the program's own folder is made
    out = capsys.readouterr().out
    assert "speed recorded as this machine's" in out and "no record of this machine" not in out
    whole = record.read_text(encoding="utf-8")
    record.write_text(whole[: len(whole) // 3], encoding="utf-8")  # cut short, as a full disk once did
    # a run without the speed scene does not read the record
    assert main(["bench", "--quick", "--scene", "drop"]) == 0
    capsys.readouterr()
    # a run with it names the file and how to recover, before anything runs
    assert main(SPEED_RUN) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert str(record) in err and "damaged speed record" in err
    assert "delete it" in err and "--record-speed" in err
    assert captured.out == ""
    # --record-speed replaces it with this run's figures
    assert main([*SPEED_RUN, "--record-speed"]) == 0
    captured = capsys.readouterr()
    assert "damaged speed record" in captured.err and "replaces it" in captured.err
    assert "speed recorded as this machine's" in captured.out
    data = sr.load(record)
    assert sr.section(data, "quick") is not None
    # ... and later runs are judged against it; the result names the speed scene among its scenes
    assert main([*SPEED_RUN, "--json"]) in (0, 1)  # speed may be judged WORSE on a loaded machine
    result = json.loads(capsys.readouterr().out)
    assert result["scenes"] == ["incline", "speed"]
    assert result["speed_record"] == str(record)


def test_another_file_given_as_the_record_is_never_replaced(tmp_path, capsys):
    other = tmp_path / "notes.json"
    other.write_text('{"format": "something-else", "machines": {}}', encoding="utf-8")
    assert main([*SPEED_RUN, "--speed-record", str(other), "--record-speed"]) == 2
    err = _one_error_line(capsys.readouterr().err)
    assert str(other) in err and "not a 'doppelx-bench-speed/1' speed record" in err
    assert other.read_text(encoding="utf-8") == '{"format": "something-else", "machines": {}}'


# -- 2. the record is checked value by value --------------------------------------------------


def _record(entry) -> dict:
    return {"format": sr.FORMAT, "machines": {"0123456789abcdef": entry}}


@pytest.mark.parametrize(
    "text, where, problem",
    [
        (json.dumps(_record([])), "machines.0123456789abcdef", "expected an object"),
        (
            json.dumps(_record({"profiles": []})),
            "machines.0123456789abcdef.profiles",
            "expected an object of profiles",
        ),
        (
            json.dumps(_record({"profiles": {"quick": 3}})),
            "machines.0123456789abcdef.profiles.quick",
            "expected an object of speed figures",
        ),
        (
            json.dumps(_record({"profiles": {"quick": {"speed/tray.steps_ratio": [1]}}})),
            "profiles.quick.speed/tray.steps_ratio",
            "expected a number, got [1]",
        ),
        (
            json.dumps(_record({"profiles": {"quick": {"speed/tray.steps_ratio": "fast"}}})),
            "profiles.quick.speed/tray.steps_ratio",
            "expected a number, got 'fast'",
        ),
        (
            json.dumps(_record({"profiles": {"quick": {"speed/tray.steps_ratio": True}}})),
            "profiles.quick.speed/tray.steps_ratio",
            "expected a number, got True",
        ),
        (
            '{"format": "doppelx-bench-speed/1", "machines": {"m": {"profiles": {"quick": '
            '{"speed/tray.steps_ratio": NaN}}}}}',
            "",
            "NaN is not a number JSON allows",
        ),
        ('{"format": "doppelx-bench-speed/1", "machines": []}', "machines", "expected an object of machines"),
        ('{"format": "doppelx-bench-speed/1", "mach', "", "bad JSON"),
        ("", "", "an empty file"),
    ],
)
def test_a_bad_value_in_the_speed_record_is_one_line_and_exit_2(tmp_path, capsys, text, where, problem):
    record = tmp_path / "speed.json"
    record.write_text(text, encoding="utf-8")
    assert main([*SPEED_RUN, "--speed-record", str(record)]) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert str(record) in err and where in err and problem in err
    assert "delete it, or run `doppelx bench --record-speed`" in err
    assert captured.out == ""  # refused before any scene ran
    with pytest.raises(sr.DamagedRecord):
        sr.load(record)


# -- 3. the suite's options and the sub-commands ------------------------------------------------


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--out", "nodir/r.json", "restitution"], ["--out is an option of the suite", "bench restitution"]),
        (["--update-baseline", "--baseline", "X", "holes"], ["--baseline", "bench holes does not take"]),
        (["--out", "r.json", "sweep"], ["--out before 'sweep'", "doppelx bench sweep --out"]),
        (["--quick", "cuboid"], ["--quick is an option of the suite", "doppelx bench cuboid --help"]),
        (["--scene=drop", "holes"], ["--scene"]),
        (["--record-speed", "restitution"], ["--record-speed"]),
        (["--speed-record", "s.json", "cuboid"], ["--speed-record"]),
        (["--out", "r.json", "engines"], ["--out before 'engines'", "doppelx bench engines --out"]),
        (["--engine", "mujoco", "engines"], ["--engine", "PyBullet and MuJoCo"]),
        (["--engine", "mujoco", "cuboid", "--engine", "pybullet"], ["disagree"]),
        (["--engine", "mujoco", "restitution"], ["restitution runs PyBullet's world"]),
        (["--engine", "mujoco", "sweep"], ["PyBullet's solver settings"]),
    ],
)
def test_a_suite_option_before_a_sub_command_that_does_not_take_it_is_refused(
    tmp_path, monkeypatch, capsys, argv, says
):
    monkeypatch.chdir(tmp_path)
    assert main(["bench", *argv]) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert all(s in err for s in says), err
    assert captured.out == "" and list(tmp_path.iterdir()) == []  # nothing ran, nothing written


def test_json_before_a_sub_command_means_what_it_means_after(capsys):
    assert main(["bench", "--json", "restitution", "--speeds", "3"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["pair"], r["speed"]) for r in rows] == [("die-cardboard", 3.0), ("die-die", 3.0)]


# -- 6. no two files one; the sweep's data before its plot --------------------------------------


@pytest.mark.parametrize(
    "argv, says",
    [
        (["sweep", "--out", "same.png", "--data", "same.png"], "--data same.png: the same file as --out"),
        (["sweep", "--data", "./solver_sweep.png"], "the same file as --out"),  # the default plot
        (
            ["--quick", "--baseline", "X", "--update-baseline", "--speed-record", "X", "--record-speed"],
            "--speed-record X: the same file as --baseline",
        ),
        (
            ["--quick", "--scene", "incline", "speed", "--speed-record", "r.json", "--out", "sub/../r.json"],
            "the same file as --speed-record",
        ),
        (
            ["--quick", "--scene", "drop", "--out", "link.json", "--baseline", "b.json"],
            "the same file as --baseline",
        ),
    ],
)
def test_two_files_that_are_one_are_refused(tmp_path, monkeypatch, capsys, argv, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    shutil.copy(bl.default_path(), tmp_path / "b.json")
    (tmp_path / "link.json").symlink_to(tmp_path / "b.json")
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["bench", *argv]) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert says in err, err
    assert captured.out == "" and sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_sweep_writes_its_points_before_the_plot(tmp_path, monkeypatch, capsys):
    from doppelx.bench import sweep

    point = sweep.Point(sweep.Config("project", "project"), 3, 100.0, 30000.0, 0, 0.02, 0.03, 0.4, 1.0)
    monkeypatch.setattr(sweep, "run_sweep", lambda quick, progress: [point])

    def failing_plot(points, out):
        raise OutputError(f"cannot write picture {out}: no space left on device")

    monkeypatch.setattr(sweep, "plot", failing_plot)
    data = tmp_path / "points.json"
    assert main(["bench", "sweep", "--quick", "--out", str(tmp_path / "s.png"), "--data", str(data)]) == 2
    assert "no space left" in capsys.readouterr().err
    assert [p["label"] for p in json.loads(data.read_text(encoding="utf-8"))["points"]] == ["project"]


# -- 7. the speed record's location is checked before anything runs ----------------------------


def test_a_speed_record_in_a_missing_folder_is_refused_before_the_run(tmp_path, capsys):
    where = tmp_path / "nodir2" / "deep" / "sp.json"
    assert main([*SPEED_RUN, "--record-speed", "--speed-record", str(where)]) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert "speed record" in err and "does not exist" in err
    assert captured.out == "" and not (tmp_path / "nodir2").exists()


def test_an_unusable_default_record_location_is_refused_before_the_run(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    assert main([*SPEED_RUN, "--record-speed"]) == 2
    captured = capsys.readouterr()
    assert "speed record folder" in _one_error_line(captured.err) and captured.out == ""


# -- 4. a section recorded on another engine --------------------------------------------------


def test_the_committed_sections_name_their_engines():
    data = bl.load(bl.default_path())
    assert {name: bl.recorded_engine(data, name) for name in data["profiles"]} == {
        "quick": "pybullet",
        "full": "pybullet",
        "quick@mujoco": "mujoco",
        "full@mujoco": "mujoco",
    }


def test_a_section_recorded_on_another_engine_is_refused_and_update_baseline_replaces_it(tmp_path, capsys):
    path, data = _baseline_copy(tmp_path)
    data["profiles"]["quick"]["measured"] = data["profiles"]["quick@mujoco"]["measured"]
    path.write_text(json.dumps(data), encoding="utf-8")
    argv = ["bench", "--quick", "--scene", "drop", "--baseline", str(path)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = _one_error_line(captured.err)
    assert str(path) in err and "profiles.quick.measured" in err
    assert "recorded with mujoco, the run uses pybullet" in err and captured.out == ""
    assert main([*argv, "--update-baseline"]) == 0
    assert "replaces the whole section" in capsys.readouterr().err
    section = json.loads(path.read_text(encoding="utf-8"))["profiles"]["quick"]
    assert section["measured"]["engine"] == "pybullet" and "mujoco" not in section["measured"]
    assert section["metrics"] and all(k.startswith("drop/") for k in section["metrics"])
    assert main(argv) == 0


@pytest.mark.parametrize("measured, where", [([], "measured"), ({"engine": "ode"}, "measured.engine")])
def test_a_malformed_measured_block_is_refused_on_load(tmp_path, capsys, measured, where):
    path, data = _baseline_copy(tmp_path)
    data["profiles"]["quick"]["measured"] = measured
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["bench", "--quick", "--scene", "drop", "--baseline", str(path)]) == 2
    assert f"profiles.quick.{where}" in _one_error_line(capsys.readouterr().err)


# -- 5. a metric in the baseline that the run did not measure ---------------------------------


def test_a_baseline_metric_a_scene_no_longer_measures_is_missing_and_fails(tmp_path, capsys):
    path, data = _baseline_copy(tmp_path)
    data["profiles"]["quick"]["metrics"]["drop/e.flat.999mm"] = 0.5
    data["profiles"]["quick"]["metrics"]["pile/not_run"] = 1.0  # pile does not run: not judged
    path.write_text(json.dumps(data), encoding="utf-8")
    argv = ["bench", "--quick", "--scene", "drop", "incline", "--baseline", str(path)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    line = next(ln for ln in captured.out.splitlines() if "e.flat.999mm" in ln)
    assert line.split()[0] == "drop" and line.split()[-1] == "MISSING"
    assert "1 MISSING" in captured.out and "not_run" not in captured.out
    assert "bench: 1 metric(s) failed:" in captured.err
    assert "drop/e.flat.999mm MISSING: in the baseline (0.5) but not measured" in captured.err
    assert main([*argv, "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    scenes = [r["scene"] for r in result["rows"]]
    missing = [r for r in result["rows"] if r["verdict"] == "MISSING"]
    assert [(r["metric"], r["value"], r["baseline"]) for r in missing] == [("e.flat.999mm", None, 0.5)]
    assert scenes == sorted(scenes, key=["drop", "incline"].index)  # listed with its scene
    assert result["passed"] is False
    # --update-baseline drops it (and keeps the metric of the scene that did not run)
    assert main([*argv, "--update-baseline"]) == 0
    metrics = json.loads(path.read_text(encoding="utf-8"))["profiles"]["quick"]["metrics"]
    assert "drop/e.flat.999mm" not in metrics and metrics["pile/not_run"] == 1.0
    capsys.readouterr()
    assert main(argv) == 0


# -- nitpicks: the fingerprint, the bounds of the validation scenes, the sweep table -----------


def test_the_mujoco_fingerprint_holds_mujocos_version_and_the_pybullet_one_is_unchanged():
    import hashlib

    info = sr.machine()
    assert set(info) == {"host", "cpu", "cores", "arch", "python", "pybullet"}
    old = hashlib.sha256(json.dumps(info, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    assert sr.fingerprint() == old  # records written before keep matching
    assert "mujoco" in sr.machine("mujoco") and sr.fingerprint(engine="mujoco") != old
    data = {"format": sr.FORMAT, "machines": {old: {"machine": info, "profiles": {"quick": {"x": 1.0}}}}}
    assert sr.section(data, "quick") == {"x": 1.0} and sr.section(data, "quick@mujoco") is None


@pytest.mark.parametrize(
    "argv, flag, says",
    [
        (["restitution", "--speeds", "0.000001"], "--speeds", "from 0.25 to 20 m/s"),
        (["restitution", "--speeds", "0.2,1"], "--speeds", "2.75 mm gap"),
        (["cuboid", "--throws", "1000000000"], "--throws", "from 1 to 20000"),
        (["engines", "--throws", "1000000"], "--throws", "from 1 to 10000"),
    ],
)
def test_the_validation_scenes_options_have_sane_bounds(capsys, argv, flag, says):
    with pytest.raises(SystemExit) as exc:
        main(["bench", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {flag}:" in err and says in err, err


def test_the_slowest_drop_speed_is_one_the_drops_can_make():
    from doppelx.bench.restitution import GAPS
    from doppelx.commands.bench import MIN_DROP_SPEED

    assert math.sqrt(2 * 9.81 * max(GAPS)) <= MIN_DROP_SPEED  # from the highest gap it hits faster


def test_the_sweep_table_fits_its_longest_label():
    from doppelx.bench import sweep

    project = sweep.grid(quick=True)[0]
    assert len(project.label) > 33  # "project (240 Hz, 50 it, sub-steps 3 mm)"
    points = [
        sweep.Point(c, 3, 100.0 + k, 30000.0, 0, 0.02, 0.03, 0.4, 1.0)
        for k, c in enumerate(sweep.grid(quick=True))
    ]
    head, rule, *rows = sweep.format_points(points).splitlines()
    end = head.index("throws/s") + len("throws/s")
    assert len(rule) == len(head)
    for p, row in zip(sorted(points, key=lambda p: -p.throws_per_s), rows):
        assert row[1:].startswith(p.config.label)
        assert float(row[end - 9 : end]) == pytest.approx(p.throws_per_s)  # under its heading
