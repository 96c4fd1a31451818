"""The table of bad inputs: every command, every file format, each refused in one clear line.

Each case runs ``doppelx`` in-process in a fresh folder holding valid inputs
(:func:`workdir`) plus the case's own files; it must exit 2 with one line on stderr naming
what is wrong, print no traceback, and leave the folder exactly as it was (nothing
written, nothing destroyed). The cases include every example of issue 15.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.badinput import REPO, STATES, assert_refused, run_cli, tree

E4 = json.loads((STATES / "E4.json").read_text())
SIDE_I = (REPO / "assets" / "boards" / "side_I.toml").read_text()
SIDE_III = (REPO / "assets" / "boards" / "side_III.toml").read_text()
LONG = "x" * 5000


def state(change) -> str:
    """E4 (a turn of blue on side I) changed by ``change(d)``."""
    d = json.loads(json.dumps(E4))
    change(d)
    return json.dumps(d)


def die(i: int, **values):
    return lambda d: d["dice"][i].update(values)


def replace_die(i: int, entry: dict):
    return lambda d: d["dice"].__setitem__(i, entry)


def obstacle(oid: str, poly, height: float = 10) -> str:
    return f'\n[[obstacles]]\nid = "{oid}"\npolygon = {json.dumps(poly)}\nheight = {height}\n'


def square(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


SMALL_BOARD = """format = "doppelx-board/1"
name = "small"
units = "mm"
line_width = 3
[outline]
polygon = [[-50, -50], [50, -50], [50, 50], [-50, 50]]
[[fields]]
id = "all"
kind = "1x"
fill = "rest"
"""

# (id, argv, files {name: text}, words the one line must contain)
CASES = [
    # ---- boards check: board files -------------------------------------------------------
    ("check-missing", ["boards", "check", "nope.toml"], {}, ["nope.toml", "file not found"]),
    ("check-folder", ["boards", "check", "empty.toml"], {"empty.toml/": ""}, ["is a folder"]),
    ("check-devzero", ["boards", "check", "/dev/zero"], {}, ["/dev/zero", "not a data file"]),
    ("check-bad-toml", ["boards", "check", "b.toml"], {"b.toml": "format = = 1"}, ["b.toml", "bad TOML"]),
    ("check-not-utf8", ["boards", "check", "b.toml"], {"b.toml": b"\xff\xfe\x00garbage"}, ["not UTF-8"]),
    (
        "check-huge-int",
        ["boards", "check", "b.toml"],
        {"b.toml": "x = " + "9" * 5000},
        ["b.toml", "bad TOML"],
    ),
    (
        "check-deep-toml",
        ["boards", "check", "b.toml"],
        {"b.toml": "x = " + "[" * 5000 + "]" * 5000},
        ["b.toml"],
    ),
    (
        "check-401-digits",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace("line_width = 3.0", "line_width = 1" + "0" * 400)},
        ["line_width", "out of range"],
    ),
    (
        "check-nan",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace("line_width = 3.0", "line_width = nan")},
        ["line_width", "finite"],
    ),
    (
        "check-unknown-key",
        ["boards", "check", "b.toml"],
        {"b.toml": "colour = 1\n" + SIDE_I},
        ["colour", "unknown key"],
    ),
    (
        "check-obstacles-overlap",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I + obstacle("a", square(0, 0, 20, 20)) + obstacle("b", square(10, 10, 30, 30))},
        ["obstacles[1]", "overlaps obstacle 'a'"],
    ),
    (
        "check-obstacle-whole-board",
        ["boards", "check", "b.toml"],
        {"b.toml": SMALL_BOARD + obstacle("slab", square(-50, -50, 50, 50))},
        ["obstacles", "% of the playfield"],
    ),
    (
        "check-obstacle-over-hole",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I + obstacle("a", square(-100, 60, -70, 90))},
        ["obstacles[0].polygon", "hole"],
    ),
    (
        "check-obstacle-in-sweep",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_III + obstacle("a", square(10, 10, 20, 20))},
        ["obstacles[0].polygon", "spinner's sweep"],
    ),
    (
        "check-obstacle-above-rim",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I + obstacle("tower", square(0, 0, 10, 10), height=60)},
        ["obstacles[0].height", "'tower'", "rim"],
    ),
    (
        "check-km-spinner",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_III.replace("arm_length = 42", "arm_length = 1000000")},
        ["spinner.arm_length", "at most"],
    ),
    (
        "check-tall-spinner",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_III.replace("height = 14", "height = 1000000")},
        ["spinner.height"],
    ),
    (
        "check-board-too-big-for-box",
        ["boards", "check", "b.toml"],
        {"b.toml": SMALL_BOARD.replace("50", "500")},
        ["outline", "does not fit into the box"],
    ),
    ("check-long-name", ["boards", "check", LONG], {}, ["not a built-in side", "5000 characters"]),
    (
        "check-name-newline",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace('name = "I"', 'name = "I\\nII"')},
        ["b.toml", "name", "control character"],
    ),
    (
        "check-title-escape",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace('title = "Side I (first game)"', 'title = "\\u001b[31mred"')},
        ["b.toml", "title", "control character"],
    ),
    (
        "check-hole-tiny",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace("radius = 15", "radius = 1e-6", 1)},
        ["b.toml", "radius", "at least 1"],
    ),
    (
        "check-line-width-tiny",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace("line_width = 3.0", "line_width = 1e-300")},
        ["b.toml", "line_width", "at least 0.1"],
    ),
    (
        "check-hole-id-of-a-field",
        ["boards", "check", "b.toml"],
        {"b.toml": SIDE_I.replace('id = "h-northwest"', 'id = "gold-by-hole"')},
        ["b.toml", "duplicate id 'gold-by-hole'"],
    ),
    # ---- boards show: outputs and --dpi ---------------------------------------------------
    ("show-missing-folder", ["boards", "show", "I", "--out", "nodir/b.png"], {}, ["nodir", "does not exist"]),
    ("show-folder-is-file", ["boards", "show", "I", "--out", "afile/b.png"], {}, ["afile", "not a folder"]),
    ("show-out-is-folder", ["boards", "show", "I", "--out", "empty"], {}, ["empty", "is a folder"]),
    ("show-ro-proc", ["boards", "show", "I", "--out", "/proc/doppelx/b.png"], {}, ["/proc/doppelx"]),
    (
        "show-dpi-0",
        ["boards", "show", "I", "--out", "existing.png", "--dpi", "0"],
        {},
        ["--dpi", "20 to 600"],
    ),
    ("show-dpi-neg", ["boards", "show", "I", "--out", "existing.png", "--dpi", "-5"], {}, ["--dpi"]),
    ("show-dpi-1", ["boards", "show", "I", "--out", "existing.png", "--dpi", "1"], {}, ["--dpi"]),
    ("show-dpi-huge", ["boards", "show", "I", "--out", "existing.png", "--dpi", "100000"], {}, ["--dpi"]),
    ("show-dpi-text", ["boards", "show", "I", "--out", "existing.png", "--dpi", "high"], {}, ["--dpi"]),
    (
        "show-bad-board",
        ["boards", "show", "VII", "--out", "existing.png"],
        {},
        ["VII", "not a built-in side"],
    ),
    ("show-long-board", ["boards", "show", LONG, "--out", "existing.png"], {}, ["not a built-in side"]),
    ("show-no-verb", ["boards"], {}, ["VERB"]),
    # ---- score: table states --------------------------------------------------------------
    ("score-missing", ["score", "--state", "nope.json"], {}, ["nope.json", "file not found"]),
    ("score-folder", ["score", "--state", "empty"], {}, ["is a folder"]),
    ("score-devzero", ["score", "--state", "/dev/zero", "--board", "I"], {}, ["not a data file"]),
    ("score-not-json", ["score", "--state", "s.json"], {"s.json": "{ nope"}, ["s.json", "bad JSON"]),
    ("score-deep", ["score", "--state", "s.json"], {"s.json": "[" * 100000 + "]" * 100000}, ["nested"]),
    (
        "score-4300-digits",
        ["score", "--state", "s.json"],
        {"s.json": '{"a": ' + "1" * 5000 + "}"},
        ["5000 characters"],
    ),
    (
        "score-401-digits",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["chips"].update(blue=10**400))},
        ["bad JSON", "401 characters"],
    ),
    (
        "score-nan-literal",
        ["score", "--state", "s.json"],
        {"s.json": state(die(0, x=0.0)).replace("0.0", "NaN", 1)},
        ["NaN"],
    ),
    (
        "score-1e999",
        ["score", "--state", "s.json"],
        {"s.json": state(die(0, x=0.0)).replace("0.0", "1e999", 1)},
        ["1e999"],
    ),
    ("score-list-top", ["score", "--state", "s.json"], {"s.json": "[1, 2]"}, ["top level"]),
    (
        "score-die-5m-away",
        ["score", "--state", "s.json"],
        {"s.json": state(die(0, x=5.0))},
        ["dice[0] (x, y)", "not on the playfield"],  # named by the keys the file gives (short form)
    ),
    (
        "score-die-1m-below",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "position": [0, 0, -1], "quaternion": [0, 0, 0, 1]})
            )
        },
        ["dice[0].position", "below the playfield"],
    ),
    (
        "score-die-half-sunk",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "position": [0, 0, 0.0], "quaternion": [0, 0, 0, 1]})
            )
        },
        ["dice[0].position", "sunk 8.0 mm"],
    ),
    (
        "score-die-floating",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "position": [0, 0, 0.5], "quaternion": [0, 0, 0, 1]})
            )
        },
        ["dice[0].position", "floats"],
    ),
    (
        "score-two-dice-one-spot",
        ["score", "--state", "s.json"],
        {"s.json": state(die(1, x=0.0, y=0.0))},
        ["dice[1]", "overlaps the blue die"],
    ),
    (
        "score-die-over-hole",
        ["score", "--state", "s.json"],
        {"s.json": state(die(0, x=-0.086, y=0.075))},
        ["hole 'h-northwest'"],
    ),
    (
        "score-mm-coordinates",
        ["score", "--state", "s.json"],
        {"s.json": state(die(0, x=10.0, y=20.0))},
        ["metres", "millimetres"],
    ),
    (
        "score-no-white",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["dice"].pop(1))},
        ["white die is missing"],
    ),
    (
        "score-no-active-die",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["dice"].pop(0))},
        ["blue die is missing"],
    ),
    (
        "score-spinner-on-side-I",
        ["score", "--state", "s.json"],
        {"s.json": state(die(3, touched_spinner=True))},
        ["dice[3].touched_spinner", "no spinner"],
    ),
    (
        "score-bad-quaternion",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "position": [0, 0, 0.008], "quaternion": [0, 0, 0, 2]})
            )
        },
        ["unit quaternion"],
    ),
    (
        "score-unknown-colour",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["seats"].__setitem__(1, "mauve"))},
        ["mauve"],
    ),
    ("score-bad-top", ["score", "--state", "s.json"], {"s.json": state(die(0, top="7"))}, ["dice[0].top"]),
    (
        "score-two-seats",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d.update(seats=["blue", "yellow"]))},
        ["seats"],
    ),
    (
        "score-negative-chips",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["chips"].update(blue=-3))},
        ["chips.blue"],
    ),
    (
        "score-float-chips",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["chips"].update(blue=1.5))},
        ["chips.blue", "whole number"],
    ),
    ("score-x-string", ["score", "--state", "s.json"], {"s.json": state(die(0, x="0"))}, ["dice[0].x"]),
    (
        "score-no-board",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d.pop("board"))},
        ["no board"],
    ),
    ("score-long-board", ["score", "--state", "state.json", "--board", LONG], {}, ["not a built-in side"]),
    ("score-dice-missing", ["score", "--state", "state.json", "--dice", "nope.toml"], {}, ["nope.toml"]),
    ("score-no-state", ["score", "--board", "I"], {}, ["--state"]),
    # ---- throw ---------------------------------------------------------------------------
    ("throw-target-1km", ["throw", "--board", "I", "--seed", "1", "--target=1e6,1e6"], {}, ["--target"]),
    (
        "throw-target-off",
        ["throw", "--board", "I", "--seed", "1", "--target=200,0"],
        {},
        ["--target", "not on the playfield"],
    ),
    (
        "throw-target-nan",
        ["throw", "--board", "I", "--seed", "1", "--target=nan,0"],
        {},
        ["--target", "finite"],
    ),
    ("throw-target-text", ["throw", "--board", "I", "--seed", "1", "--target", "here"], {}, ["--target"]),
    ("throw-seed-neg", ["throw", "--board", "I", "--seed", "-1"], {}, ["--seed"]),
    ("throw-seed-huge", ["throw", "--board", "I", "--seed", "9" * 40], {}, ["--seed"]),
    ("throw-lying-9", ["throw", "--board", "I", "--seed", "1", "--lying", "9"], {}, ["--lying"]),
    (
        "throw-dice-twice",
        ["throw", "--board", "I", "--seed", "1", "--dice", "blue,blue"],
        {},
        ["named twice"],
    ),
    ("throw-dice-unknown", ["throw", "--board", "I", "--seed", "1", "--dice", "mauve,white"], {}, ["mauve"]),
    ("throw-strength", ["throw", "--board", "I", "--seed", "1", "--strength", "2"], {}, ["--strength"]),
    (
        "throw-replay-missing-folder",
        ["throw", "--board", "I", "--seed", "1", "--replay", "nodir/r.npz"],
        {},
        ["nodir", "does not exist"],
    ),
    (
        "throw-replay-in-file",
        ["throw", "--board", "I", "--seed", "1", "--replay", "afile/r.npz"],
        {},
        ["not a folder"],
    ),
    (
        "throw-replay-folder",
        ["throw", "--board", "I", "--seed", "1", "--replay", "empty"],
        {},
        ["is a folder"],
    ),
    ("throw-board-missing", ["throw", "--board", "VII", "--seed", "1"], {}, ["VII"]),
    (
        "throw-board-bad",
        ["throw", "--board", "b.toml", "--seed", "1"],
        {"b.toml": SIDE_I + obstacle("a", square(0, 0, 20, 20)) + obstacle("b", square(10, 10, 30, 30))},
        ["overlaps"],
    ),
    # ---- game ----------------------------------------------------------------------------
    ("game-players-2", ["game", "--players", "2", "--board", "I", "--seed", "1"], {}, ["--players"]),
    ("game-players-99", ["game", "--players", "99", "--board", "I", "--seed", "1"], {}, ["--players"]),
    ("game-seed-text", ["game", "--players", "4", "--board", "I", "--seed", "one"], {}, ["--seed"]),
    (
        "game-board-missing",
        ["game", "--players", "4", "--board", "nope.toml", "--seed", "1"],
        {},
        ["nope.toml"],
    ),
    (
        "game-cards-bad",
        ["game", "--players", "4", "--board", "I", "--seed", "1", "--cards", "A,B,C,Z"],
        {},
        ["--cards"],
    ),
    (
        "game-max-throws-0",
        ["game", "--players", "4", "--board", "I", "--seed", "1", "--max-throws", "0"],
        {},
        ["--max-throws"],
    ),
    # ---- simulate -------------------------------------------------------------------------
    ("sim-throws-0", ["simulate", "throws", "--throws", "0", "--out", "r"], {}, ["--throws"]),
    (
        "sim-throws-huge",
        ["simulate", "throws", "--throws", "1000000000000000", "--out", "r"],
        {},
        ["--throws", "10000000"],
    ),
    (
        "sim-games-huge",
        ["simulate", "games", "--games", "1000000000000000", "--out", "r"],
        {},
        ["--games", "1000000"],
    ),
    (
        "sim-policy-nan",
        ["simulate", "throws", "--throws", "5", "--policy", "point:nan,0", "--out", "r"],
        {},
        ["--policy", "finite"],
    ),
    (
        "sim-policy-far",
        ["simulate", "throws", "--throws", "5", "--policy", "point:1000,0", "--out", "r"],
        {},
        ["--policy", "not on the playfield"],
    ),
    (
        "sim-policy-text",
        ["simulate", "throws", "--throws", "5", "--policy", "point:a,b", "--out", "r"],
        {},
        ["--policy"],
    ),
    (
        "sim-policy-field",
        ["simulate", "throws", "--throws", "5", "--policy", "field:9x", "--out", "r"],
        {},
        ["--policy"],
    ),
    (
        "sim-policy-unknown",
        ["simulate", "throws", "--throws", "5", "--policy", "genius", "--out", "r"],
        {},
        ["--policy"],
    ),
    (
        "sim-hole-nan",
        ["simulate", "throws", "--throws", "5", "--hole-delta-mm", "nan", "--out", "r"],
        {},
        ["--hole-delta-mm"],
    ),
    (
        "sim-hole-minus-100",
        ["simulate", "throws", "--throws", "5", "--hole-delta-mm=-100", "--out", "r"],
        {},
        ["--hole-delta-mm"],
    ),
    (
        "sim-hole-inf",
        ["simulate", "throws", "--throws", "5", "--hole-delta-mm", "inf", "--out", "r"],
        {},
        ["--hole-delta-mm"],
    ),
    (
        "sim-faces-digits",
        ["simulate", "throws", "--throws", "5", "--faces", "white=1,2,3,4,5,6", "--out", "r"],
        {},
        ["--faces white=1,2,3,4,5,6"],
    ),
    (
        "sim-faces-owner",
        ["simulate", "throws", "--throws", "5", "--faces", "mauve=1,2,3,X,X,2", "--out", "r"],
        {},
        ["--faces", "mauve"],
    ),
    (
        "sim-faces-form",
        ["simulate", "throws", "--throws", "5", "--faces", "white", "--out", "r"],
        {},
        ["--faces", "OWNER="],
    ),
    ("sim-lying-8", ["simulate", "throws", "--throws", "5", "--lying", "8", "--out", "r"], {}, ["--lying"]),
    (
        "sim-players-2",
        ["simulate", "games", "--games", "1", "--players", "2", "--out", "r"],
        {},
        ["--players"],
    ),
    ("sim-cards", ["simulate", "games", "--games", "1", "--cards", "A,B,C,Z", "--out", "r"], {}, ["Z"]),
    (
        "sim-workers-0",
        ["simulate", "throws", "--throws", "5", "--workers", "0", "--out", "r"],
        {},
        ["--workers"],
    ),
    ("sim-chunk-0", ["simulate", "throws", "--throws", "5", "--chunk", "0", "--out", "r"], {}, ["--chunk"]),
    (
        "sim-out-file",
        ["simulate", "throws", "--throws", "5", "--out", "afile"],
        {},
        ["afile", "not a folder"],
    ),
    (
        "sim-out-under-file",
        ["simulate", "throws", "--throws", "5", "--out", "afile/r"],
        {},
        ["afile", "not a folder"],
    ),
    (
        "sim-address-garbage",
        [
            "simulate",
            "throws",
            "--throws",
            "5",
            "--backend",
            "ray",
            "--address",
            "not an address",
            "--out",
            "r",
        ],
        {},
        ["--address", "HOST:PORT"],
    ),
    (
        "sim-address-dead",
        ["simulate", "throws", "--throws", "5", "--backend", "ray", "--address", "127.0.0.1:1", "--out", "r"],
        {},
        ["--address", "cannot reach"],
    ),
    (
        "sim-address-pool",
        ["simulate", "throws", "--throws", "5", "--address", "127.0.0.1:6379", "--out", "r"],
        {},
        ["--address", "ray"],
    ),
    (
        "sim-board-too-big",
        ["simulate", "throws", "--throws", "5", "--board", "b.toml", "--out", "r"],
        {"b.toml": SMALL_BOARD.replace("50", "500")},
        ["does not fit into the box"],
    ),
    (
        "sim-board-long",
        ["simulate", "throws", "--throws", "5", "--board", LONG, "--out", "r"],
        {},
        ["not a built-in side"],
    ),
    (
        "sim-dice-missing",
        ["simulate", "throws", "--throws", "5", "--dice", "nope.toml", "--out", "r"],
        {},
        ["nope.toml"],
    ),
    ("sim-skill", ["simulate", "throws", "--throws", "5", "--skill", "god", "--out", "r"], {}, ["--skill"]),
    # ---- sweep ----------------------------------------------------------------------------
    ("sweep-skill-god", ["sweep", "throws", "--vary", "skill=god", "--out", "r"], {}, ["skill 'god'"]),
    ("sweep-cocked-nan", ["sweep", "throws", "--vary", "cocked_deg=nan", "--out", "r"], {}, ["cocked_deg"]),
    ("sweep-cocked-neg", ["sweep", "throws", "--vary", "cocked_deg=-10", "--out", "r"], {}, ["cocked_deg"]),
    ("sweep-cocked-1000", ["sweep", "throws", "--vary", "cocked_deg=1000", "--out", "r"], {}, ["cocked_deg"]),
    (
        "sweep-hole-nan",
        ["sweep", "throws", "--vary", "hole_delta_mm=nan", "--out", "r"],
        {},
        ["hole_delta_mm"],
    ),
    (
        "sweep-hole-minus-100",
        ["sweep", "throws", "--vary", "hole_delta_mm=0,-100", "--out", "r"],
        {},
        ["hole_delta_mm", "from -10 to 10"],
    ),
    (
        "sweep-hole-text",
        ["sweep", "throws", "--vary", "hole_delta_mm=wide", "--out", "r"],
        {},
        ["hole_delta_mm", "radius in mm"],
    ),
    ("sweep-board", ["sweep", "throws", "--vary", "board=I,VII", "--out", "r"], {}, ["VII"]),
    ("sweep-faces", ["sweep", "throws", "--vary", "white_faces=1-2-3", "--out", "r"], {}, ["1-2-3"]),
    ("sweep-policy", ["sweep", "throws", "--vary", "policy=point:nan,0", "--out", "r"], {}, ["--policy"]),
    (
        "sweep-unknown",
        ["sweep", "throws", "--vary", "colour=red", "--out", "r"],
        {},
        ["--vary", "NAME=V1,V2"],
    ),
    ("sweep-none", ["sweep", "throws", "--out", "r"], {}, ["--vary"]),
    (
        "sweep-twice",
        ["sweep", "throws", "--vary", "skill=easy", "--vary", "skill=hard", "--out", "r"],
        {},
        ["twice"],
    ),
    (
        "sweep-too-many",
        ["sweep", "throws", "--vary", "hole_delta_mm=" + ",".join(["1"] * 30), "--out", "r"],
        {},
        ["at most 20"],
    ),
    ("sweep-kind", ["sweep", "dice", "--vary", "skill=easy", "--out", "r"], {}, ["kind"]),
    # options the sweep would ignore
    (
        "sweep-throws-game-options",
        ["sweep", "throws", "--vary", "skill=easy,hard", "--games", "50", "--bet", "never", "--out", "r"],
        {},
        ["--games/--bet", "games sweep"],
    ),
    (
        "sweep-games-throw-options",
        ["sweep", "games", "--vary", "skill=easy,hard", "--throws", "500", "--lying", "3", "--out", "r"],
        {},
        ["--throws/--lying", "throws sweep"],
    ),
    (
        "sweep-board-and-vary-board",
        ["sweep", "throws", "--board", "II", "--vary", "board=I,III", "--out", "r"],
        {},
        ["--board and --vary board"],
    ),
    (
        "sweep-skill-and-vary-skill",
        ["sweep", "throws", "--skill", "hard", "--vary", "skill=easy,medium", "--out", "r"],
        {},
        ["--skill and --vary skill"],
    ),
    (
        "sweep-faces-and-vary-faces",
        [
            "sweep",
            "throws",
            "--faces",
            "white=X,X,X,X,X,X",
            "--vary",
            "white_faces=default,1-2-3-X-X-2",
            "--out",
            "r",
        ],
        {},
        ["--faces white", "--vary white_faces"],
    ),
    # ---- bench ----------------------------------------------------------------------------
    (
        "bench-baseline-typo",
        ["bench", "--quick", "--baseline", "basline.json"],
        {},
        ["basline.json", "no such baseline"],
    ),
    (
        "bench-baseline-bad",
        ["bench", "--quick", "--baseline", "b.json"],
        {"b.json": "{ nope"},
        ["b.json", "bad JSON"],
    ),
    (
        "bench-baseline-format",
        ["bench", "--quick", "--baseline", "existing.json"],
        {},
        ["existing.json", "format"],
    ),
    ("bench-out-missing", ["bench", "--quick", "--out", "nodir/r.json"], {}, ["nodir", "does not exist"]),
    (
        "bench-baseline-empty-update",  # an unset $BASELINE must not rewrite the shipped baseline
        ["bench", "--quick", "--scene", "drop", "--baseline", "", "--update-baseline"],
        {},
        ["--baseline ''", "not a valid file name"],
    ),
    ("bench-out-empty", ["bench", "--quick", "--out", ""], {}, ["--out ''", "not a valid file name"]),
    ("bench-speed-record-empty", ["bench", "--quick", "--speed-record", " "], {}, ["--speed-record"]),
    (
        "bench-out-is-baseline",
        ["bench", "--quick", "--scene", "drop", "--baseline", "b.json", "--out", "b.json"],
        {"b.json": '{"format": "doppelx-bench-baseline/1", "profiles": {}}'},
        ["--out b.json", "the same file as --baseline"],
    ),
    ("bench-sweep-out", ["bench", "sweep", "--quick", "--out", "plot.txt"], {}, ["PNG"]),
    ("bench-sweep-data", ["bench", "sweep", "--quick", "--data", "nodir/d.json"], {}, ["nodir"]),
    # ---- play (all refused before a window opens) -----------------------------------------
    ("play-players-2", ["play", "--players", "2"], {}, ["--players"]),
    ("play-size", ["play", "--size", "10x10"], {}, ["--size"]),
    (
        "play-target-empties-the-box",
        ["play", "--players", "8", "--target", "75"],
        {},
        ["target of 75 chips could empty the box", "at most 74"],
    ),
    (
        "simulate-target-empties-the-box",
        ["simulate", "games", "--players", "3", "--target", "211", "--games", "1", "--out", "run"],
        {},
        ["--target", "at most 210"],
    ),
    ("play-size-huge", ["play", "--size", "100000x100000"], {}, ["--size"]),
    ("play-speed", ["play", "--speed", "0"], {}, ["--speed"]),
    (
        "play-screenshot-folder",
        ["play", "--autoplay", "--quit-after-throws", "1", "--screenshot", "nodir/p.png"],
        {},
        ["nodir", "does not exist"],
    ),
    ("play-screenshot-alone", ["play", "--screenshot", "p.png"], {}, ["--quit-after-throws"]),
    ("play-load-missing", ["play", "--load", "nope.json"], {}, ["nope.json", "no saved game"]),
    ("play-load-not-json", ["play", "--load", "s.json"], {"s.json": "{"}, ["s.json", "bad JSON"]),
    ("play-load-deep", ["play", "--load", "s.json"], {"s.json": "[" * 10000 + "]" * 10000}, ["nested"]),
    ("play-load-state-file", ["play", "--load", "state.json"], {}, ["state.json"]),
    (
        "play-load-with-players",
        ["play", "--load", "state.json", "--players", "5"],
        {},
        ["--load", "--players"],
    ),
    ("play-board", ["play", "--board", "VII", "--autoplay"], {}, ["VII"]),
    # ---- the terminal games --------------------------------------------------------------
    (
        "clever-save-folder",
        ["clever", "--seed", "1", "--save", "nodir/c.json"],
        {},
        ["nodir", "does not exist"],
    ),
    (
        "clever-save-exists",
        ["clever", "--seed", "1", "--save", "existing.json"],
        {},
        ["existing.json", "already exists"],
    ),
    ("clever-resume-missing", ["clever", "--resume", "nope.json"], {}, ["nope.json"]),
    ("clever-resume-other", ["clever", "--resume", "state.json"], {}, ["state.json", "format"]),
    ("clever-players", ["clever", "--players", "human,wizard"], {}, ["wizard"]),
    ("clever-seed", ["clever", "--seed", "-3"], {}, ["--seed"]),
    ("doppel-save-folder", ["doppel", "--seed", "1", "--save", "afile/d.json"], {}, ["not a folder"]),
    ("doppel-save-exists", ["doppel", "--seed", "1", "--save", "existing.json"], {}, ["already exists"]),
    ("doppel-resume-bad", ["doppel", "--resume", "s.json"], {"s.json": "[]"}, ["s.json"]),
    ("doppel-opponent", ["doppel", "--opponent", "god"], {}, ["--opponent"]),
    ("blitz-games-0", ["blitz", "--bots-only", "--games", "0"], {}, ["--games"]),
    ("blitz-white", ["blitz", "--white", "5"], {}, ["--white"]),
    ("blitz-games-huge", ["blitz", "--bots-only", "--games", "1" + "0" * 20], {}, ["--games"]),
    ("blitz-save-folder", ["blitz", "--save", "nodir/b.json"], {}, ["nodir", "does not exist"]),
    ("blitz-save-exists", ["blitz", "--save", "existing.json"], {}, ["already exists"]),
    ("blitz-resume-other", ["blitz", "--resume", "state.json"], {}, ["state.json", "format"]),
    ("oder-players", ["oder-nichts", "--players", "99"], {}, ["players"]),
    ("oder-save-folder", ["oder-nichts", "--save", "nodir/o.json"], {}, ["nodir"]),
    ("oder-save-exists", ["oder-nichts", "--save", "existing.json"], {}, ["already exists"]),
    ("oder-resume-other", ["oder-nichts", "--resume", "state.json"], {}, ["not a Doppelt oder nichts save"]),
    # ---- a resumed game keeps its set-up: set-up flags are refused, not ignored -------------
    (
        "oder-resume-setup-flags",
        ["oder-nichts", "--resume", "state.json", "--players", "6", "--target", "100"]
        + ["--bots", "random", "--first-game", "--seed", "9"],
        {},
        ["--players, --bots, --seed, --target and --first-game do not go with --resume"],
    ),
    (
        "doppel-resume-small-straight",
        ["doppel", "--resume", "state.json", "--small-straight", "distinct"],
        {},
        ["--small-straight does not go with --resume"],
    ),
    (
        "doppel-resume-highest-single",
        ["doppel", "--resume", "state.json", "--highest-single", "entry"],
        {},
        ["--highest-single does not go with --resume"],
    ),
    ("doppel-resume-seed-0", ["doppel", "--resume", "state.json", "--seed", "0"], {}, ["--seed", "--resume"]),
    ("clever-resume-seed", ["clever", "--resume", "state.json", "--seed", "99"], {}, ["--seed", "--resume"]),
    (
        "blitz-resume-no-variant",
        ["blitz", "--resume", "state.json", "--no-variant"],
        {},
        ["--no-variant does not go"],
    ),
    (
        "blitz-whites-per-black-count",
        ["blitz", "--whites-per-black", "1,3"],
        {},
        ["--whites-per-black needs one number per player (3), got 2"],
    ),
    (
        "blitz-whites-per-black-beyond-the-rule",
        ["blitz", "--whites-per-black", "99999999999999999999,3,3"],
        {},
        ["--whites-per-black", "whole numbers 1-3"],
    ),
    # ---- session 8's audit: loose numbers and lists, duplicate keys, white alone ----------
    ("seed-underscore", ["game", "--players", "3", "--seed", "1_0"], {}, ["--seed", "1_0"]),
    ("players-other-digits", ["game", "--players", "\u0664", "--seed", "1"], {}, ["--players"]),
    (
        "cards-trailing-comma",
        ["game", "--players", "3", "--seed", "1", "--cards", "A,B,C,D,"],
        {},
        ["empty card"],
    ),
    (
        "skills-empty-entry",
        ["game", "--players", "3", "--seed", "1", "--skills", "hard,,hard"],
        {},
        ["empty name"],
    ),
    ("throw-dice-trailing-comma", ["throw", "--seed", "1", "--dice", "blue,"], {}, ["empty die name"]),
    ("throw-white-alone", ["throw", "--seed", "1", "--dice", "white"], {}, ["white", "exactly one"]),
    ("throw-white-two-colours", ["throw", "--seed", "1", "--dice", "white,pink,blue"], {}, ["exactly one"]),
    ("throw-strength-underscore", ["throw", "--seed", "1", "--strength", "0_5"], {}, ["--strength"]),
    ("game-board-empty", ["game", "--players", "3", "--seed", "1", "--board", " "], {}, ["empty name"]),
    (
        "score-duplicate-key",
        ["score", "--state", "s.json"],
        {"s.json": '{"format": "doppelx-state/1",\n "format": "doppelx-state/1"}'},
        ["s.json", "line 2 column 2", "'format' appears twice"],
    ),
    (
        "score-yaw-huge",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "x": 0.0, "y": 0.0, "yaw_deg": 1e308, "top": "3"})
            )
        },
        ["s.json", "yaw_deg", "out of range"],
    ),
    (
        "score-hole-with-pose",
        ["score", "--state", "s.json"],
        {
            "s.json": state(
                replace_die(0, {"owner": "blue", "status": "hole", "x": 0.0, "y": 0.0, "top": "3"})
            )
        },
        ["s.json", "dice[0]", "status hole", "leave out x, y, top"],
    ),
    (
        "score-chips-beyond-the-box",
        ["score", "--state", "s.json"],
        {"s.json": state(lambda d: d["chips"].update({c: 300 for c in d["seats"]}))},
        ["s.json", "chips", "665"],
    ),
    ("game-think-huge", ["game", "--players", "3", "--seed", "1", "--think", "10000000"], {}, ["--think"]),
    # ---- session 9: options that would do nothing ------------------------------------------
    (
        "game-no-spinner-side-I",
        ["game", "--players", "3", "--seed", "1", "--no-spinner"],
        {},
        ["--no-spinner", "side I"],
    ),
    (
        "throw-no-spinner-side-II",
        ["throw", "--seed", "1", "--board", "II", "--no-spinner"],
        {},
        ["--no-spinner", "side II"],
    ),
    (
        "simulate-no-spinner-side-I",
        ["simulate", "throws", "--throws", "4", "--no-spinner", "--out", "run"],
        {},
        ["--no-spinner", "side I"],
    ),
    (
        "sweep-no-spinner-no-side-has-one",
        ["sweep", "throws", "--throws", "4", "--no-spinner", "--vary", "board=I,II", "--out", "run"],
        {},
        ["--no-spinner", "I, II"],
    ),
    ("play-no-spinner-side-II", ["play", "--board", "II", "--no-spinner"], {}, ["--no-spinner", "side II"]),
    (
        "game-skill-and-skills",
        ["game", "--players", "3", "--seed", "1", "--skill", "hard", "--skills", "easy,hard,hard"],
        {},
        ["--skill hard", "--skills", "one of them"],
    ),
    (
        "simulate-skill-and-skills",
        [
            "simulate",
            "games",
            "--games",
            "2",
            "--players",
            "3",
            "--skill",
            "easy",
            "--skills",
            "easy,hard,hard",
            "--out",
            "run",
        ],
        {},
        ["--skill easy", "--skills"],
    ),
    ("score-state-empty-name", ["score", "--state", ""], {}, ["an empty file name"]),
    ("play-load-empty-name", ["play", "--load", ""], {}, ["--load", "an empty file name"]),
    ("doppel-resume-empty-name", ["doppel", "--resume", ""], {}, ["--resume", "an empty file name"]),
    ("oder-resume-empty-name", ["oder-nichts", "--resume", ""], {}, ["--resume", "an empty file name"]),
    ("blitz-resume-empty-name", ["blitz", "--resume", ""], {}, ["--resume", "an empty file name"]),
    ("clever-resume-empty-name", ["clever", "--resume", ""], {}, ["--resume", "an empty file name"]),
    (
        "simulate-dice-empty-name",
        ["simulate", "throws", "--throws", "2", "--dice", "", "--out", "run"],
        {},
        ["an empty file name"],
    ),
    (
        "sweep-vary-the-same-value-twice",
        ["sweep", "throws", "--throws", "4", "--vary", "hole_delta_mm=0,0.0", "--out", "run"],
        {},
        ["--vary", "twice"],
    ),
    (
        "sweep-vary-one-point-spelt-two-ways",
        ["sweep", "throws", "--throws", "4", "--vary", "policy=point:0,-60,point:0.0,-6e1", "--out", "run"],
        {},
        ["--vary", "'point:0,-60' twice"],
    ),
    (
        "sweep-think-without-an-expert",
        ["sweep", "games", "--games", "1", "--vary", "skill=easy,hard", "--think", "50", "--out", "run"],
        {},
        ["--think", "no variant seats an expert"],
    ),
    (
        "unrecognized-argument-names-the-subcommand-help",
        ["simulate", "throws", "--throws", "2", "--bet", "never", "--out", "run"],
        {},
        ["unrecognized arguments: --bet never", "doppelx simulate throws --help"],
    ),
    (
        "play-skill-and-skills",
        ["play", "--skill", "hard", "--skills", "easy,hard,hard,easy"],
        {},
        ["--skill hard", "--skills"],
    ),
    # ---- the command line itself ---------------------------------------------------------
    ("no-command", [], {}, ["COMMAND"]),
    ("unknown-command", ["fly"], {}, ["fly"]),
]


def _write(root: Path, files: dict) -> None:
    for name, content in files.items():
        if name.endswith("/"):
            (root / name.rstrip("/")).mkdir()
        elif isinstance(content, bytes):
            (root / name).write_bytes(content)
        else:
            (root / name).write_text(content)


@pytest.mark.parametrize("argv, files, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused_in_one_line_and_nothing_written(workdir, capsys, argv, files, words):
    _write(workdir, files)
    before = tree(workdir)
    res = run_cli(argv, capsys)
    assert_refused(res, *words)
    assert tree(workdir) == before, "the folder changed"


def test_case_ids_are_unique():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))
