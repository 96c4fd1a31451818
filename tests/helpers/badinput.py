"""The bad-input suite's judge: run doppelx in-process and check a refusal (exit 2, one line, nothing written)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from doppelx.cli import main

STATES = Path(__file__).parent.parent / "data" / "states"


REPO = Path(__file__).parent.parent.parent


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(argv: list[str], capsys) -> Result:
    """``doppelx ARGV`` in this process; argparse's ``SystemExit`` becomes the exit code."""
    capsys.readouterr()  # nothing left over from an earlier call
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        captured = capsys.readouterr()
    return Result(int(code), captured.out, captured.err)


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` with a hash of its content (the folder's fingerprint)."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            try:
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
            except OSError:
                out[str(p.relative_to(root))] = "unreadable"
    return out


def assert_refused(res: Result, *words: str) -> None:
    """Exit 2, one line on stderr naming ``words``, no traceback, nothing on stdout."""
    lines = res.err.strip("\n").split("\n")
    assert res.code == 2, f"exit {res.code}, stderr: {res.err[:500]}"
    assert "Traceback" not in res.err, res.err[:2000]
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {res.err[:800]}"
    assert lines[0].startswith("doppelx"), lines[0]
    assert len(lines[0]) < 600, f"a {len(lines[0])}-character line"
    for w in words:
        assert w in lines[0], f"{w!r} not in {lines[0]!r}"
    assert res.out == "", f"stdout: {res.out[:300]}"
