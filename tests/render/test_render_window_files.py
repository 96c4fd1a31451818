"""Files written whole or not at all: render.window_files.write_atomic."""

from __future__ import annotations

import os

import pytest

from render.window_files import FileWriteError, write_atomic


def test_writes_whole_files_with_ordinary_permissions(tmp_path):
    path = write_atomic(tmp_path / "a" / "b.json", b"{}")
    assert path.read_bytes() == b"{}"
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    path.chmod(0o600)
    write_atomic(path, b"[]")  # an existing file keeps its permissions
    assert path.read_bytes() == b"[]" and path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["b.json"]  # no temporary file left


@pytest.mark.parametrize("how", ["folder", "below a file", "nul"])
def test_failures_name_the_path_and_leave_nothing_behind(tmp_path, how):
    if how == "folder":
        target, why = tmp_path, "it is a folder"
    elif how == "below a file":
        (tmp_path / "f").write_text("x")
        target, why = tmp_path / "f" / "g.png", "cannot write"
    else:
        target, why = tmp_path / "a\0b", "cannot write"
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(FileWriteError, match=why) as exc:
        write_atomic(target, b"x")
    assert str(exc.value).startswith(f"cannot write {target}")
    assert sorted(tmp_path.rglob("*")) == before
