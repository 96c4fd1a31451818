"""rules.common.assets.parse_json: a key given twice in one object is refused, named with its place."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.assets import parse_json
from rules.common.errors import SpecError

KEYS = st.text(alphabet='abcé"\\ :{}[],\n', min_size=1, max_size=6)
LEAVES = st.one_of(st.integers(-5, 5), st.text(alphabet='ab:{}"', max_size=4), st.booleans(), st.none())
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=8,
)


def _line_column(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    return f"line {line} column {index - text.rfind(chr(10), 0, index)}"


@settings(max_examples=200, deadline=None)
@given(
    before=st.dictionaries(KEYS, VALUES, max_size=3),
    key=KEYS,
    first=VALUES,
    second=VALUES,
    indent=st.sampled_from([None, 1, 2]),
)
def test_a_repeated_key_is_named_where_it_comes_the_second_time(before, key, first, second, indent):
    """Any JSON (nested objects, keys with quotes, colons, braces, escapes) with one key
    repeated at the top: the error names that key and the place of its second appearance."""
    before.pop(key, None)
    head = json.dumps({**before, key: first}, indent=indent, ensure_ascii=False)
    # the same key once more at the end of the top object
    start = head[:-1].rstrip() + ",\n "
    text = start + json.dumps(key, ensure_ascii=False) + ": " + json.dumps(second) + "\n}"
    second_at = len(start)  # where the repeated key's string begins
    with pytest.raises(SpecError) as exc:
        parse_json(text, "f.json")
    assert exc.value.element == _line_column(text, second_at)
    assert f"the key {key[:40]!r} appears twice in one object" in exc.value.problem


def test_the_same_key_in_two_objects_is_no_repeat():
    assert parse_json('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}', "f.json") == {
        "a": {"a": 1},
        "b": [{"a": 2}, {"a": 3}],
    }


def test_an_inner_repeat_is_named_at_its_place():
    text = '{"a": 1,\n "b": {"c": 1,\n       "c": 2}}'
    with pytest.raises(SpecError) as exc:
        parse_json(text, "f.json")
    assert exc.value.element == "line 3 column 8"


def test_a_cut_short_file_is_named_with_its_place_and_whole_words():
    """Tenth playtest: a save cut short read "bad JSON: Unterminated string starting at"."""
    import pytest

    from rules.common.assets import parse_json
    from rules.common.errors import SpecError

    with pytest.raises(SpecError) as refused:
        parse_json('{"players": ["Ann', "s.json")
    text = str(refused.value)
    assert "line 1 column 14" in text and text.endswith("bad JSON: Unterminated string starting here")
