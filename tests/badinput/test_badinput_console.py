"""The real console: a handful of refusals through the installed command in a subprocess,
no orphans after ``kill -9``, Ray refused promptly, ``--json`` stays valid JSON."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.badinput import REPO, STATES
from tests.helpers.cli import run_doppelx

EXE = [sys.executable, "-m", "doppelx"]


def run(args, cwd, timeout=60, stdin=None):
    return run_doppelx(list(args), cwd=cwd, timeout=timeout, stdin=stdin)


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def one_line(proc) -> str:
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (["score", "--state", "/dev/zero", "--board", "I"], "not a data file"),
        (["boards", "show", "I", "--out", "nodir/b.png"], "does not exist"),
        (["simulate", "throws", "--throws", "1000000000000000", "--out", "r"], "10000000"),
        (["throw", "--board", "I", "--seed", "1", "--target=1e6,1e6"], "--target"),
    ],
)
def test_the_console_prints_one_line_and_exits_2(tmp_path, args, words):
    assert words in one_line(run(args, tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_a_game_with_an_unwritable_save_is_refused_before_it_starts(tmp_path):
    proc = run(["clever", "--seed", "1", "--save", "nodir/c.json"], tmp_path, stdin="quit\n")
    assert "does not exist" in one_line(proc)
    assert proc.stdout == ""  # refused before the first prompt: no game to lose


def test_ray_with_a_dead_address_is_refused_before_ray_is_asked(tmp_path, monkeypatch, capsys):
    # Ray itself retries an address that does not answer for minutes: the address is tried
    # with one TCP connection first, and the refusal comes before Ray is imported at all.
    import types

    from doppelx.cli import main

    def no_ray(*args, **kwargs):
        raise AssertionError("ray.init was called for an address that does not answer")

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(init=no_ray, is_initialized=lambda: False))
    monkeypatch.chdir(tmp_path)
    code = main(
        ["simulate", "throws", "--throws", "2", "--backend", "ray", "--address", "127.0.0.1:1", "--out", "r"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "cannot reach a Ray cluster" in err
    assert not (tmp_path / "r").exists()


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the processes")
def test_no_orphans_after_kill_9_of_simulate(tmp_path):
    """Both pool workers and the resource tracker end when their parent is killed outright."""
    proc = subprocess.Popen(
        [*EXE, "simulate", "throws", "--throws", "4000", "--workers", "2", "--out", "r", "--quiet"],
        cwd=tmp_path,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        kids = _children(proc.pid)
        assert len(kids) >= 3, "expected 2 workers and the resource tracker"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 15
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [k for k in kids if _alive(k)], "processes outlived their parent"


def test_json_output_stays_valid_with_ray(tmp_path):
    pytest.importorskip("ray")
    proc = run(
        [
            "simulate",
            "throws",
            "--throws",
            "2",
            "--backend",
            "ray",
            "--workers",
            "1",
            "--json",
            "--quiet",
            "--out",
            "r",
        ],
        tmp_path,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["count"] == 2


def test_an_accepted_state_with_a_byte_order_mark_scores(tmp_path):
    (tmp_path / "s.json").write_text((STATES / "E4.json").read_text(), encoding="utf-8-sig")
    proc = run(["score", "--state", "s.json", "--json"], tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["players"]["blue"]["after"] == 18
