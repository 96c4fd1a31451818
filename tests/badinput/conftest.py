"""Helpers of the bad-input suite: run ``doppelx`` in-process and judge a refusal.

A refusal is judged the same way everywhere: exit code 2, exactly one line on stderr that
starts with ``doppelx`` and names what is wrong, no traceback, nothing on stdout, and the
working folder exactly as it was (no file written, none changed or removed, no stray
temporary file).
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.badinput import REPO, STATES


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A fresh current folder holding valid inputs: ``state.json`` (E4), ``board.toml`` (side III),
    ``existing.png``/``existing.json`` (outputs that must survive), ``afile``, ``empty/``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "state.json").write_text((STATES / "E4.json").read_text())
    (tmp_path / "board.toml").write_text((REPO / "assets" / "boards" / "side_III.toml").read_text())
    (tmp_path / "existing.png").write_bytes(b"old picture")
    (tmp_path / "existing.json").write_text(json.dumps({"old": True}))
    (tmp_path / "afile").write_text("a regular file")
    (tmp_path / "empty").mkdir()
    return tmp_path
