"""Every field of every terminal game's save, damaged every way that matters, is refused in one line.

A real save of each game is made by playing a few turns through the real command. Then
each place in it — every key of every table, and in every list the first, second and last
entry and the first entry of each shape (each kind of log entry) — is damaged: removed, set
to ``null``, to a value of each other type, to a number out of range, a list cut short or
made longer, an unknown key added. ``doppelx GAME --resume`` must then either play on (the
damage left a valid save) or refuse with exit code 2 and one line that

- names the element: the damaged place itself or a table or list holding it (a value of
  the right type but another game, e.g. another die rolled, may be refused at the log
  entry where it stops making sense), in the form ``game.log[3].action.kind``;
- says it in words, never with Python's own messages ("zip() argument 2 is shorter",
  "can only join an iterable", "'NoneType' object …");

and writes nothing. A hypothesis search then combines random damage in random places.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.badinput import run_cli, tree
from tests.helpers.mutations import EXAMPLES, mutated

Path_ = tuple[str | int, ...]

#: How each game is played for its save: command line and the person's answers.
ODER_WORDS = ["1", "2", "3", "4", "5", "6", "7", "1 2", "d", "p", "a", "n", "y", "t", "u", "r"]
_PERSON = random.Random(2)  # a person answering at random (refused answers are asked again)
PLAYS: dict[str, tuple[list[str], list[str]]] = {
    "clever": (["clever", "--seed", "1", "--players", "human,strong"], ["1"] * 14),
    "doppel": (["doppel", "--seed", "1"], ["1", "pass"] * 14),
    "oder-nichts": (["oder-nichts", "--seed", "1"], [_PERSON.choice(ODER_WORDS) for _ in range(300)]),
    "blitz": (["blitz", "--seed", "1"], ["", "7", "", "p", "", "11"] * 3),
}

#: Python's own words, which a refusal must never show.
INTERNAL = re.compile(
    r"argument \d|iterable|NoneType|\bNone\b|object is not|not subscriptable|has no attribute|unhashable|"
    r"unexpected keyword|positional|not supported between|invalid literal|list index|"
    r"KeyError|TypeError|ValueError|AttributeError|IndexError|<class|Traceback|\bdict\b|\btuple\b|"
    r"indices must be|too many values|not enough values|expected \d+, got \d+ \(|must be real number|str\(\)|int\(\)"
)
LINE = re.compile(r"^doppelx: error: s\.json: (?P<element>[^:]+): (?P<problem>.+)$")


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """A real save of each game, a few turns in."""
    from doppelx.cli import main

    out = {}
    mp = pytest.MonkeyPatch()
    try:
        for game, (argv, answers) in PLAYS.items():
            path = tmp_path_factory.mktemp(game.replace("-", "")) / "save.json"
            mp.setattr(sys, "stdin", io.StringIO("\n".join([*answers, "quit"]) + "\n"))
            mp.setattr(sys, "stdout", io.StringIO())
            assert main([*argv, "--save", str(path), "--no-colour"]) == 0
            out[game] = json.loads(path.read_text())
    finally:
        mp.undo()
    return out


def test_the_saves_are_games_a_few_turns_in(saves):
    assert len(saves["clever"]["game"]["log"]) >= 10
    assert len(saves["doppel"]["game"]["log"]) >= 10
    assert len(saves["oder-nichts"]["log"]) >= 10
    assert len(saves["blitz"]["game"]["actions"]) >= 6


def dotted(path: Path_) -> str:
    """``("game", "log", 3, "kind")`` -> ``game.log[3].kind`` (how the errors name elements)."""
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def places(node: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Every key of every table; in lists the first, second and last entry and the first of each shape."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from places(value, (*prefix, key))
    elif isinstance(node, list):
        picked: dict[Any, int] = {}
        for i, value in enumerate(node):
            shape = _shape(value)
            if i in (0, 1, len(node) - 1) or shape not in picked:
                picked.setdefault(shape, i)
                yield (*prefix, i)
                yield from places(value, (*prefix, i))


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return ("table", tuple(sorted(value)), value.get("kind"), _shape(value.get("action")))
    if isinstance(value, list):
        return ("list", len(value), tuple(type(v).__name__ for v in value[:3]))
    if isinstance(value, str):
        return ("text", value.split()[0] if value.split() else "")
    return type(value).__name__


#: Values of every type a JSON file can hold, and numbers out of every range.
ODD = [None, "x", "", 7, 1.5, True, [1, 2], {"x": 1}]


def damages(data: dict, path: Path_) -> Iterator[tuple[str, dict, Path_]]:
    """``(what, damaged copy, the element the refusal may name at most as deep)``."""
    parent_path, key = path[:-1], path[-1]

    def at(d):
        node = d
        for k in parent_path:
            node = node[k]
        return node

    value = at(data)[key]
    copy_ = copy.deepcopy(data)
    del at(copy_)[key]
    # a list entry removed moves the later ones up: blamed anywhere in the list
    yield "removed", copy_, parent_path if isinstance(key, int) else path
    for odd in ODD:
        if odd == value and type(odd) is type(value):
            continue
        copy_ = copy.deepcopy(data)
        at(copy_)[key] = copy.deepcopy(odd)
        # a value of the right type (another number, true for false, a number for null) may be
        # legal where it stands and only make no sense later: blamed anywhere
        other_number = (_whole(value) or value is None) and _whole(odd) or {type(value), type(odd)} == {bool}
        yield f"set to {odd!r}", copy_, None if other_number else path
    if isinstance(value, list) and value:
        copy_ = copy.deepcopy(data)
        at(copy_)[key] = value[:-1]
        yield "cut short", copy_, path
        copy_ = copy.deepcopy(data)
        at(copy_)[key] = [*value, copy.deepcopy(value[-1])]
        yield "made longer", copy_, path
    if isinstance(value, dict):
        copy_ = copy.deepcopy(data)
        at(copy_)[key] = {**value, "extra": 1}
        yield "unknown key", copy_, (*path, "extra")
    if isinstance(value, int) and not isinstance(value, bool):
        for other in (value + 1, -value - 1, value * 1000 + 999, 10**30):
            copy_ = copy.deepcopy(data)
            at(copy_)[key] = other
            yield f"number {other}", copy_, None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def resume(game: str, data: Any, folder, monkeypatch, capsys):
    """``doppelx GAME --resume s.json --save out.json`` with no input: refused, or played on and saved."""
    (folder / "s.json").write_text(json.dumps(data))
    before = tree(folder)
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    res = run_cli([game, "--resume", "s.json", "--save", "out.json", "--no-colour"], capsys)
    if res.code == 2:
        assert tree(folder) == before, "a refused save wrote or changed a file"
    else:
        (folder / "out.json").unlink(missing_ok=True)
    return res


def judge(res, blame: Path_ | None) -> str | None:
    """Why the refusal ``res`` is wrong (``None`` when it is right, or the save was taken).

    ``blame``: the damaged place; the element named must lie on its branch (be it, hold it,
    or lie inside it). ``None``: any element may be named.
    """
    if res.code == 0:
        return None
    lines = res.err.strip("\n").split("\n")
    if res.code != 2 or len(lines) != 1 or res.out:
        return f"exit {res.code}, {len(lines)} lines: {res.err[-300:]!r}"
    line = lines[0]
    if INTERNAL.search(line):
        return f"Python's words: {line}"
    m = LINE.match(line)
    if not m:
        return f"no element named: {line}"
    if blame is not None:
        want, element = dotted(blame), m["element"]
        if not (_within(want, element) or _within(element, want)):
            return f"names {element!r}, not {want!r}, a place in it or one holding it: {line}"
    return None


def _within(inner: str, outer: str) -> bool:
    """``inner`` is ``outer`` or lies inside it (``a.b[2].c`` inside ``a.b``)."""
    return inner == outer or inner.startswith(outer + ".") or inner.startswith(outer + "[")


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_every_field_damaged_every_way_is_refused_naming_it(game, saves, tmp_path, monkeypatch, capsys):
    data = saves[game]
    problems = []
    count = 0
    for path in places(data):
        for what, damaged_data, blame in damages(data, path):
            count += 1
            res = resume(game, damaged_data, tmp_path, monkeypatch, capsys)
            why = judge(res, blame)
            if why:
                problems.append(f"{dotted(path)} {what}: {why}")
    assert count > 200
    assert not problems, f"{len(problems)} of {count}:\n" + "\n".join(problems[:60])


#: ``DOPPELX_BADINPUT_EXAMPLES=2000`` searches deeper, as in the bad-input suite.
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(game=st.sampled_from(sorted(PLAYS)), data=st.data())
def test_random_damage_anywhere_is_refused_in_words(saves, tmp_path, monkeypatch, capsys, game, data):
    res = resume(game, data.draw(mutated(saves[game])), tmp_path, monkeypatch, capsys)
    why = judge(res, None)
    assert why is None, why


@pytest.mark.parametrize("game, other", [(g, o) for g in sorted(PLAYS) for o in sorted(PLAYS) if g != o])
def test_another_games_save_is_said_to_be_one(game, other, saves, tmp_path, monkeypatch, capsys):
    """Another game's save is refused as that, at its format key, not for its first odd key."""
    res = resume(game, saves[other], tmp_path, monkeypatch, capsys)
    assert res.code == 2 and judge(res, None) is None, res.err
    element = LINE.match(res.err.strip())["element"]  # type: ignore[index]
    assert element == ("game" if game == "oder-nichts" else "format"), res.err
