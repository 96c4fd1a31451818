"""The one way every output is written (:mod:`rules.common.atomic`): all or nothing, no stray temp files."""

from __future__ import annotations

import errno
import os
import pickle
import stat
from pathlib import Path

import pytest

from rules.common import atomic
from rules.common.atomic import OutputError, atomic_write, check_output_file, prepare_output_dir, write_text
from rules.common.errors import DoppelXError, RulesError, SpecError
from rules.common.optional import MissingExtraError


def test_writes_the_whole_file_and_keeps_the_mode(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    write_text(target, "new content")
    assert target.read_text() == "new content"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_failing_writer_leaves_the_target_untouched_and_no_temp_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError, match="writer failed"), atomic_write(target, "w") as f:
        f.write("half of the new")
        raise RuntimeError("writer failed")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_full_disk_is_one_clear_error_and_the_target_survives(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OutputError, match="no space left on device"):
        write_text(target, "new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_temp_file_left_by_a_killed_writer_is_removed_by_the_next_write(tmp_path):
    dead_pid = 2**22 + 12345  # above the usual pid_max, so no such process
    stale = tmp_path / f".out.txt.{dead_pid}.abcd1234.tmp"
    stale.write_text("")
    mine = tmp_path / f".out.txt.{os.getpid()}.abcd1234.tmp"  # a live writer's file stays
    mine.write_text("")
    write_text(tmp_path / "out.txt", "x")
    assert not stale.exists() and mine.exists()


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p / "nodir" / "x.txt", "does not exist"),
        (lambda p: p / "afile" / "x.txt", "is not a folder"),
        (lambda p: p, "is a folder"),
        (lambda p: "", "not a valid file name"),
        (lambda p: p / ("n" * 5000), "cannot write"),
    ],
)
def test_unwritable_targets_are_output_errors(tmp_path, make, words):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutputError, match=words):
        check_output_file(make(tmp_path))


def test_a_device_or_pipe_is_never_replaced_by_a_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        write_text(fifo, "x")
    assert fifo.is_fifo()
    with pytest.raises(OutputError, match="not a regular file"):
        check_output_file("/dev/null")
    assert Path("/dev/null").is_char_device()


def test_a_read_only_folder_is_refused(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    if os.geteuid() == 0:  # root may write anywhere: let os.access answer as for any other user
        real_access = os.access
        monkeypatch.setattr(
            "rules.common.atomic.os.access",
            lambda p, mode: real_access(p, mode) and not Path(p).resolve().is_relative_to(ro.resolve()),
        )
    try:
        with pytest.raises(OutputError, match="not writable"):
            write_text(ro / "x.txt", "x")
        with pytest.raises(OutputError, match="not writable"):
            prepare_output_dir(ro / "run")
    finally:
        ro.chmod(0o755)


def test_output_folders_are_made_but_never_over_a_file(tmp_path):
    assert prepare_output_dir(tmp_path / "a" / "b").is_dir()
    (tmp_path / "f").write_text("x")
    with pytest.raises(OutputError, match="not a folder"):
        prepare_output_dir(tmp_path / "f" / "run")
    with pytest.raises(OutputError, match="not a folder"):
        prepare_output_dir(tmp_path / "f")


@pytest.mark.parametrize(
    "error",
    [
        SpecError("b.toml", "obstacles[1]", "overlaps"),
        SpecError("s.json", "", "bad JSON"),
        RulesError("no die 'mauve'"),
        DoppelXError("plain"),
        OutputError("cannot write x"),
        MissingExtraError("ray", "cluster", "the ray backend"),
    ],
)
def test_every_project_error_crosses_a_process_boundary_intact(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    if isinstance(error, SpecError):
        assert (back.source, back.element, back.problem) == (error.source, error.element, error.problem)
