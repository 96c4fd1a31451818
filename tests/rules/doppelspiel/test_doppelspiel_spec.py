"""The shipped sheet spec loads with the seed's numbers; malformed spec files are SpecErrors."""

from __future__ import annotations

import pytest
from doppelspiel_support import SPEC

from rules.common.errors import SpecError
from rules.doppelspiel.spec import load_spec


def test_sheet_layout_and_constants():
    keys = [f.key for f in SPEC.fields]
    assert keys == [
        "116",
        "225",
        "334",
        "443",
        "552",
        "661",
        "ten",
        "1s",
        "2s",
        "3s",
        "4s",
        "5s",
        "6s",
        "3k",
        "4k",
        "fh",
        "ss",
        "ls",
        "5k",
        "ch",
    ]
    assert (SPEC.players, SPEC.dice, SPEC.group_size, SPEC.throws_per_turn, SPEC.columns) == (2, 10, 5, 3, 4)
    assert (SPEC.upper_threshold, SPEC.upper_bonus, SPEC.middle_threshold, SPEC.middle_bonus) == (
        120,
        20,
        63,
        35,
    )
    assert SPEC.aussetzen_boxes == 4
    assert SPEC.column_match_points == (4, 3, 2, 1)
    assert SPEC.match_points_total == 13
    assert sum(f.section == "upper" for f in SPEC.fields) + 1 == 7  # "alle 7 Felder (inkl. 10er Wurf)"
    assert sum(f.section == "lower" for f in SPEC.fields) == 7


@pytest.mark.parametrize(
    "key,best",
    [
        ("116", 20),
        ("225", 21),
        ("334", 22),
        ("443", 23),
        ("552", 24),
        ("661", 25),
        ("ten", 60),
        ("1s", 5),
        ("6s", 30),
        ("3k", 30),
        ("4k", 30),
        ("fh", 25),
        ("ss", 30),
        ("ls", 40),
        ("5k", 50),
        ("ch", 30),
    ],
)
def test_field_maxima(key, best):
    assert SPEC.field(key).max_value == best


def test_square_and_joker_fields():
    assert {f.key for f in SPEC.fields if f.has_square} == {
        "116",
        "225",
        "334",
        "443",
        "552",
        "661",
        "ten",
        "1s",
        "2s",
        "3s",
        "4s",
        "5s",
        "6s",
    }
    assert {f.key for f in SPEC.fields if f.jokerable} == {f.key for f in SPEC.fields if f.has_square} - {
        "ten"
    }


def _write(tmp_path, text: str):
    path = tmp_path / "spec.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _shipped_text() -> str:
    from rules.common.assets import asset_path

    return asset_path("games", "doppelspiel.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "change,needle",
    [
        (('format = "doppelspiel/1"', 'format = "doppelspiel/9"'), "format"),
        (("aussetzen_boxes = 4", "aussetzen_boxes = -1"), "aussetzen_boxes"),
        (("aussetzen_boxes = 4", "aussetzen_boxes = 4\nsurprise = 1"), "unknown key"),
        (('kind = "full_house"', 'kind = "fool_house"'), "fields[15].kind"),
        (("pair = 1\n", ""), "needs key 'pair'"),
        (("column_match_points = [4, 3, 2, 1]", "column_match_points = [4, 3]"), "column_match_points"),
        (("runs = [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]]", "runs = [[1, 2, 3]]"), "runs[0]"),
    ],
)
def test_malformed_spec_is_a_spec_error(tmp_path, change, needle):
    old, new = change
    text = _shipped_text()
    assert old in text
    with pytest.raises(SpecError) as err:
        load_spec(_write(tmp_path, text.replace(old, new, 1)))
    assert needle in str(err.value)


def test_missing_spec_file(tmp_path):
    with pytest.raises(SpecError, match="not found"):
        load_spec(tmp_path / "nope.toml")
