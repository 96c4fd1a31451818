"""Hypothesis-generated mutations of valid boards, table states and saves.

Each valid file is changed at random places — a value replaced by one of the wrong kind, a
huge or non-finite number, a length scaled by 1000 (millimetres given as metres), a key
deleted or added, the text truncated or spliced — and loaded the way the commands load it.
A mutation may still be valid; what may never happen is any error other than the project's
one-line :class:`rules.common.errors.DoppelXError` (no ``KeyError``, ``TypeError``, ``RecursionError``,
``OverflowError``…), or, through the command line, anything but exit 0 or exit 2 with one
line on stderr. Anything accepted is checked to make physical sense.
"""

from __future__ import annotations

import copy
import io
import json
import math
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.common.errors import DoppelXError
from rules.common.rng import make_rng
from rules.doppelx.board_file import load_board, parse_board
from rules.doppelx.box import load_box
from rules.doppelx.dice import load_dice
from rules.doppelx.game import DoppelXGame, GameOptions
from rules.doppelx.game_state_io import game_from_dict, game_to_dict
from rules.doppelx.outcome import Status
from rules.doppelx.scoring import score_throw
from rules.doppelx.table_state import check_on_board, parse_table_state
from tests.helpers.badinput import REPO, STATES, assert_refused, run_cli
from tests.helpers.mutations import EXAMPLES, mutated

SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
DICE = load_dice()


def _only_project_errors(fn, *args):
    """Run ``fn``; return its result, or ``None`` if it refused with a project error."""
    try:
        return fn(*args)
    except DoppelXError as exc:
        assert "\n" not in str(exc), str(exc)
        return None


# -- boards ---------------------------------------------------------------------------------------
BOARDS = [tomllib.loads((REPO / "assets" / "boards" / f"side_{n}.toml").read_text()) for n in ("I", "III")]


def _load_board_data(data):
    board = parse_board(data, "mutated.toml")
    load_box().check_board(board)
    return board


@SETTINGS
@given(data=st.sampled_from(BOARDS).flatmap(mutated))
def test_mutated_boards_load_or_are_refused(data):
    board = _only_project_errors(_load_board_data, data)
    if board is not None:  # accepted: it is a board one can play on
        assert board.outline.is_valid and board.outline.area > 0
        assert all(0 < o.height <= load_box().rim_z for o in board.obstacles)
        assert sum(o.shape.area for o in board.obstacles) <= 0.25 * board.outline.area + 1e-12


# -- table states ---------------------------------------------------------------------------------
STATE_FILES = [json.loads((STATES / f"E{i}.json").read_text()) for i in range(1, 7)]
FULL_POSE_STATE = {
    "format": "doppelx-state/1",
    "board": "III",
    "seats": ["blue", "red", "green"],
    "active": "red",
    "chips": {"blue": 1, "red": 2, "green": 3},
    "dice": [
        {"owner": "red", "position": [0.06, -0.05, 0.008], "quaternion": [0, 0, 0.3826834, 0.9238795]},
        {
            "owner": "white",
            "position": [-0.03, 0.1, 0.008],
            "quaternion": [0, 0, 0, 1],
            "touched_spinner": True,
        },
        {"owner": "blue", "status": "hole"},
    ],
}


def _score_state(data):
    state = parse_table_state(data, "mutated.json", DICE)
    board = load_board(state.board or "I")
    check_on_board(state, board, DICE, "mutated.json")
    score_throw(
        state.outcome,
        board,
        DICE,
        seats=state.seats,
        active=state.active,
        chips=state.chips,
        bets=state.bets,
        cards=state.cards,
        lying_before=state.lying_before,
    )
    return state, board


@SETTINGS
@given(data=st.sampled_from([*STATE_FILES, FULL_POSE_STATE]).flatmap(mutated))
def test_mutated_states_score_or_are_refused(data):
    result = _only_project_errors(_score_state, data)
    if result is not None:  # accepted: every die on the board lies on the playfield, none doubled
        state, board = result
        on_board = [d for d in state.outcome.dice if d.status is Status.BOARD]
        for d in on_board:
            x, y, z = d.pose.position
            assert all(math.isfinite(v) for v in (x, y, z))
            assert board.outline.buffer(0.0011).contains(__import__("shapely").geometry.Point(x, y))
            assert 0 <= z < 0.1
        assert len({d.owner for d in state.outcome.dice}) == len(state.outcome.dice)


@settings(
    max_examples=max(10, EXAMPLES * 2 // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    base=st.sampled_from([*STATE_FILES, FULL_POSE_STATE]),
    cut=st.floats(0, 1),
    junk=st.sampled_from(["", "\ufeff", "}", "[[[", "\x00", "NaN", "1e999", "9" * 500, '"\\ud800"']),
    where=st.floats(0, 1),
)
def test_damaged_state_text_through_the_command(tmp_path, monkeypatch, capsys, base, cut, junk, where):
    """Truncated and spliced state files given to ``doppelx score``: exit 0, or 2 with one line."""
    monkeypatch.chdir(tmp_path)
    text = json.dumps(base)
    text = text[: int(len(text) * (0.5 + cut / 2))] if cut < 0.3 else text
    at = int(len(text) * where)
    text = text[:at] + junk + text[at:]
    (tmp_path / "s.json").write_text(text, encoding="utf-8", errors="surrogatepass")
    res = run_cli(["score", "--state", "s.json", "--board", str(base.get("board", "I"))], capsys)
    if res.code != 0:
        assert_refused(res, "s.json")


@settings(
    max_examples=max(10, EXAMPLES // 2),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    base=st.sampled_from(
        [  # renamed: a changed copy of a side may not keep the side's name, and is refused for it
            (REPO / "assets" / "boards" / f"side_{n}.toml")
            .read_text()
            .replace(f'name = "{n}"', 'name = "copy"')
            for n in ("I", "III")
        ]
    ),
    at=st.floats(0, 1),
    junk=st.sampled_from(["", "\ufeff", "]", "[[", "= =", "\x00", "nan", "9" * 400, "\n[x]\n"]),
)
def test_damaged_board_text_through_the_command(tmp_path, monkeypatch, capsys, base, at, junk):
    monkeypatch.chdir(tmp_path)
    i = int(len(base) * at)
    (tmp_path / "b.toml").write_text(base[:i] + junk + base[i:])
    res = run_cli(["boards", "check", "b.toml"], capsys)
    if res.code != 0:
        assert_refused(res, "b.toml")


# -- saved games ----------------------------------------------------------------------------------
SEATS = ("blue", "red", "yellow", "green")


def _played_game() -> DoppelXGame:
    """A rules-level game a few throws in, with dice lying on the board (sensible poses)."""
    from tests.helpers.games import play

    board = load_board("I")
    game = DoppelXGame(SEATS, board, DICE, options=GameOptions(first_seat=1))
    play(game, DICE, make_rng(3), throws=6)
    return game


GAME = _played_game()
GAME_DATA = game_to_dict(GAME)


@SETTINGS
@given(data=mutated(GAME_DATA))
def test_mutated_game_states_restore_or_are_refused(data):
    game = _only_project_errors(game_from_dict, data, GAME.board, DICE, "mutated.json")
    if game is not None:
        assert game.target >= 1 and all(0 <= c <= 10**6 for c in game.chips.values())
        for pose in game.on_board.values():
            assert all(math.isfinite(v) for v in pose.position)


@pytest.fixture(scope="module")
def play_save(tmp_path_factory):
    """A ``doppelx play`` save with dice on the board, a log and a last throw to replay."""
    from doppelx.games.doppelx.play.newgame import GameSetup, start_match
    from doppelx.games.doppelx.play.savegame import save_game

    setup = GameSetup.standard(4, 0, "medium", board="I", seed=1)
    match = start_match(setup)
    path = tmp_path_factory.mktemp("save") / "save.json"
    save_game(path, setup, match)
    match.close()
    data = json.loads(path.read_text())
    data["game"] = GAME_DATA
    last = GAME_DATA["log"][-1]
    data["last_throw"] = {
        "number": last["number"],
        "kind": last["kind"],
        "thrower": last["thrower"],
        "bets": last["bets"],
        "score": last["score"],
        "throw": {
            "releases": [
                {
                    "owner": "blue",
                    "position": [0.2, 0.0, 0.1],
                    "quaternion": [0.0, 0.0, 0.0, 1.0],
                    "velocity": [-1.5, 0.0, 0.5],
                    "angular_velocity": [3.0, 0.0, 1.0],
                }
            ]
        },
        "lying": {},
        "spinner_before": 0.0,
    }
    return data


def _load_save(data, folder):
    from doppelx.games.doppelx.play.savegame import load_game

    path = folder / "m.json"
    path.write_text(json.dumps(data))
    match = load_game(path).match
    match.close()
    return True


def test_the_play_save_fixture_is_valid(play_save, tmp_path):
    assert _load_save(play_save, tmp_path)


@settings(
    max_examples=max(10, EXAMPLES * 5 // 6),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_mutated_play_saves_load_or_are_refused(play_save, tmp_path, data):
    _only_project_errors(_load_save, data.draw(mutated(play_save)), tmp_path)


def test_play_load_refuses_a_die_7_m_outside_the_box(play_save, tmp_path, monkeypatch, capsys):
    save = copy.deepcopy(play_save)
    owner = next(iter(save["game"]["on_board"]))
    save["game"]["on_board"][owner]["position"][0] = 7.0
    (tmp_path / "s.json").write_text(json.dumps(save))
    monkeypatch.chdir(tmp_path)
    assert_refused(
        run_cli(["play", "--load", "s.json"], capsys), f"on_board.{owner}.position", "not on the playfield"
    )


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["setup"].update(seed=1.5), "seed"),
        (lambda d: d["setup"].update(target=float("nan")), "NaN"),
        (lambda d: d.update(colour="red"), "unknown key"),
        (lambda d: d["last_throw"]["throw"]["releases"][0].update(position=[0.2, 0.0]), "position"),
        (lambda d: d["last_throw"]["throw"]["releases"][0].update(velocity=[1e9, 0, 0]), "velocity"),
        (lambda d: d["last_throw"].update(thrower="mauve"), "thrower"),
        (lambda d: d["game"].update(target=10**12), "target"),
    ],
    ids=["seed-1.5", "target-nan", "unknown-key", "short-vector", "fast-release", "thrower", "target-huge"],
)
def test_bad_play_saves_are_one_line(play_save, tmp_path, monkeypatch, capsys, change, words):
    save = copy.deepcopy(play_save)
    change(save)
    (tmp_path / "s.json").write_text(json.dumps(save))
    monkeypatch.chdir(tmp_path)
    assert_refused(run_cli(["play", "--load", "s.json"], capsys), words)


# -- the terminal games' saves -----------------------------------------------------------------
def _terminal_save(tmp_path_factory, monkeypatch_module, argv, name):
    folder = tmp_path_factory.mktemp(name)
    path = folder / f"{name}.json"
    monkeypatch_module.setattr("sys.stdin", io.StringIO("quit\n"))
    from doppelx.cli import main

    main([*argv, "--save", str(path)])
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def terminal_saves(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    try:
        return {
            "clever": _terminal_save(tmp_path_factory, mp, ["clever", "--seed", "1"], "clever"),
            "doppel": _terminal_save(tmp_path_factory, mp, ["doppel", "--seed", "1"], "doppel"),
            "oder-nichts": _terminal_save(tmp_path_factory, mp, ["oder-nichts", "--seed", "1"], "oder"),
            "blitz": _terminal_save(tmp_path_factory, mp, ["blitz", "--seed", "1"], "blitz"),
        }
    finally:
        mp.undo()


@settings(
    max_examples=max(10, EXAMPLES * 2 // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(game=st.sampled_from(["clever", "doppel", "oder-nichts", "blitz"]), data=st.data())
def test_mutated_terminal_saves_resume_or_are_refused(
    terminal_saves, tmp_path, monkeypatch, capsys, game, data
):
    save = data.draw(mutated(terminal_saves[game]))
    (tmp_path / "s.json").write_text(json.dumps(save))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    res = run_cli([game, "--resume", "s.json", "--save", "out.json"], capsys)
    if res.code != 0:
        assert_refused(res, "s.json")


@pytest.mark.parametrize(
    "game, change, words",
    [
        ("clever", lambda d: d.update(seed=1.5), "seed"),
        ("clever", lambda d: d.update(extra=1), "unknown key"),
        ("doppel", lambda d: d.update(seed="7"), "seed"),
        ("oder-nichts", lambda d: d["config"].update(target_points=1.5), "target_points"),
        ("oder-nichts", lambda d: d["config"].update(target_points=-5), "target_points"),
        ("blitz", lambda d: d.update(seed=2.5), "seed"),
    ],
    ids=["clever-seed", "clever-key", "doppel-seed", "oder-target-float", "oder-target-neg", "blitz-seed"],
)
def test_bad_terminal_saves_are_one_line(terminal_saves, tmp_path, monkeypatch, capsys, game, change, words):
    save = copy.deepcopy(terminal_saves[game])
    change(save)
    (tmp_path / "s.json").write_text(json.dumps(save))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert_refused(run_cli([game, "--resume", "s.json"], capsys), words)
