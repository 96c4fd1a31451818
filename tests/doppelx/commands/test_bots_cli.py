"""Seats with their own skills on the command line: ``doppelx game`` and ``doppelx simulate games``."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from doppelx.cli import main
from rules.common.errors import DoppelXError


def test_game_seats_with_their_own_skills_and_an_expert(capsys):
    args = [
        "game",
        "--players",
        "3",
        "--board",
        "I",
        "--seed",
        "4",
        "--skills",
        "expert,easy,hard",
        "--think",
        "12",
    ]
    assert main([*args, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["skills"] == ["expert", "easy", "hard"] and first["summary"]["winner"] is not None
    assert first["skill"] is None  # no one skill for every seat (it said "medium")
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["log"] == first["log"]  # deterministic by seed


@pytest.mark.parametrize(
    "args, words",
    [
        (
            ["game", "--players", "4", "--board", "I", "--seed", "1", "--skills", "expert,hard"],
            "2 skills for 4",
        ),
        (["game", "--players", "3", "--board", "I", "--seed", "1", "--skills", "pro,hard,easy"], "expert"),
        (["game", "--players", "3", "--board", "I", "--seed", "1", "--think", "3"], "rollouts"),
        (["simulate", "throws", "--throws", "2", "--skill", "expert", "--out", "OUT"], "simulate games"),
        (["simulate", "games", "--games", "2", "--skills", "easy,hard", "--out", "OUT"], "2 skills for 4"),
        # options that would be silently ignored
        (["game", "--players", "3", "--seed", "1", "--think", "50"], "no seat is an expert"),
        (["simulate", "games", "--games", "2", "--think", "50", "--out", "OUT"], "no seat is an expert"),
        (["simulate", "games", "--games", "2", "--rotate", "--out", "OUT"], "--rotate shifts"),
    ],
)
def test_bad_seat_skills_exit_2_with_one_line(tmp_path, capsys, args, words):
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    with pytest.raises(SystemExit) as exc:
        code = main(args)
        raise SystemExit(code)
    assert exc.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]  # argparse shows the usage above its line
    assert last.startswith("doppelx") and words in last


def test_simulate_games_rotates_the_seats_and_reports_by_skill(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "games", "--players", "3", "--board", "I", "--games", "3", "--seed", "2"]
    args += ["--skills", "expert,medium,medium", "--rotate", "--think", "12", "--target", "20"]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    rows = pq.read_table(out / "games.parquet").to_pylist()
    assert [r["seat_skills"] for r in rows] == [
        ["expert", "medium", "medium"],
        ["medium", "expert", "medium"],
        ["medium", "medium", "expert"],
    ]
    for r in rows:
        own = sum(len(c) for c in r["own_changes"])
        assert own == sum(len(k) for k in r["own_knocked"]) and own >= 1
        assert all(k >= 0 for ks in r["own_knocked"] for k in ks)
    report = (out / "report.md").read_text()
    assert "## By skill" in report and "| expert | 3 |" in report and "| medium | 6 |" in report


def test_play_seats_with_their_own_skills():
    import argparse

    from doppelx.commands import play

    parser = argparse.ArgumentParser()
    play.register(parser.add_subparsers())
    args = parser.parse_args(
        ["play", "--players", "4", "--humans", "1", "--skills", "hard,expert,easy,expert"]
    )
    setup = play.setup_from_args(args)
    assert [s.skill for s in setup.seats] == ["hard", "expert", "easy", "expert"] and setup.seats[0].human
    args = parser.parse_args(["play", "--players", "3", "--skills", "hard,expert"])
    with pytest.raises(DoppelXError, match="2 skills for 3 players"):
        play.setup_from_args(args)
