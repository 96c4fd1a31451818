"""The sum rule, the Hirnverdreher variant and the rulebook's three worked examples.

The rulebook's pictures are not in the seed text, so each example is rebuilt with the
shipped dice so that it says exactly what the text says.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.errors import RulesError
from rules.wuerfelblitz import (
    BlitzThrow,
    breakdown,
    check_throw,
    correct_sum,
    load_spec,
    sample_throw,
    variant_applies,
)

SPEC = load_spec()

# Example 1: black and green are not counted, they are visible as dots: 3 + 4 + 1 = 8.
# (The yellow die lies on its green dot, so it shows no number.)
EXAMPLE_1 = BlitzThrow.of(
    {"orange": 3, "blue": 4, "black": 6, "yellow": "green", "green": 2, "red": 1}, ["black", "green"]
)
# Example 2: every die showing pips is excluded by a dot: the sum is zero.
EXAMPLE_2 = BlitzThrow.of(
    {"orange": 6, "blue": 3, "black": "yellow", "yellow": "green", "green": "red", "red": 5},
    ["orange", "blue"],
)
# Example 3 (variant): green is visible twice, so only the normally excluded dice green
# and black count: 4 + 4 = 8.
EXAMPLE_3 = BlitzThrow.of(
    {"orange": 5, "blue": "black", "black": 4, "yellow": 6, "green": 4, "red": 2}, ["green", "green"]
)


@pytest.mark.parametrize("throw", [EXAMPLE_1, EXAMPLE_2, EXAMPLE_3])
def test_examples_are_possible_throws(throw):
    check_throw(SPEC, throw, 2)


def test_example_1_excluded_black_and_green_sum_8():
    bd = breakdown(EXAMPLE_1)
    assert set(bd.excluded) == {"black", "green"}
    assert [p for _, p in bd.counted] == [3, 4, 1]
    assert bd.total == 8 == correct_sum(EXAMPLE_1)


def test_example_2_everything_excluded_sum_zero():
    bd = breakdown(EXAMPLE_2)
    assert {c for c, f in EXAMPLE_2.coloured if isinstance(f, int)} <= set(bd.excluded)
    assert bd.counted == ()
    assert correct_sum(EXAMPLE_2) == 0
    # no dot shows twice here, so the variant gives the same answer
    assert not variant_applies(EXAMPLE_2)
    assert correct_sum(EXAMPLE_2, variant=True) == 0


def test_example_3_variant_sums_the_excluded_dice():
    assert EXAMPLE_3.dots()["green"] == 2
    assert variant_applies(EXAMPLE_3)
    bd = breakdown(EXAMPLE_3, variant=True)
    assert bd.reversed
    assert dict(bd.counted) == {"black": 4, "green": 4}
    assert bd.total == 8
    # the standard rule counts the other dice: orange 5 + yellow 6 + red 2
    assert correct_sum(EXAMPLE_3) == 13


def test_variant_without_a_double_dot_is_the_standard_rule():
    throw = BlitzThrow.of(
        {"orange": 2, "blue": 3, "black": 4, "yellow": 5, "green": 6, "red": 1}, ["red", "blue"]
    )
    assert not variant_applies(throw)
    assert correct_sum(throw, variant=True) == correct_sum(throw) == 2 + 4 + 5 + 6


def test_double_dot_from_a_coloured_die_triggers_the_variant():
    # white shows black once; the blue die lies on its black dot: black is visible twice
    throw = BlitzThrow.of(
        {"orange": 2, "blue": "black", "black": 5, "yellow": 1, "green": 3, "red": 4}, ["black", "red"]
    )
    assert variant_applies(throw)
    # excluded: black (5) and red (4); blue shows no pips
    assert correct_sum(throw) == 2 + 1 + 3
    assert correct_sum(throw, variant=True) == 5 + 4


def test_die_on_its_dot_face_adds_nothing():
    throw = BlitzThrow.of(
        {"orange": "blue", "blue": 6, "black": 1, "yellow": 1, "green": 1, "red": 1}, ["yellow", "red"]
    )
    # blue is excluded by the orange die's dot; orange shows no number
    assert correct_sum(throw) == 1 + 1


@pytest.mark.parametrize(
    "throw, problem",
    [
        (
            BlitzThrow.of({"orange": 2, "blue": 1, "black": 1, "yellow": 1, "green": 1}, ["red", "red"]),
            "each coloured die once",
        ),
        (
            BlitzThrow.of(
                {"orange": 2, "blue": 2, "black": 1, "yellow": 1, "green": 1, "red": 1}, ["red", "red"]
            ),
            "no face 2",
        ),
        (
            BlitzThrow.of(
                {"orange": 2, "blue": 1, "black": 1, "yellow": 1, "green": 1, "red": "red"}, ["red", "red"]
            ),
            "no face 'red'",
        ),
        (
            BlitzThrow.of({"orange": 2, "blue": 1, "black": 1, "yellow": 1, "green": 1, "red": 1}, ["red"]),
            "expected 2 white",
        ),
        (
            BlitzThrow.of(
                {"orange": 2, "blue": 1, "black": 1, "yellow": 1, "green": 1, "red": 1}, ["red", "pink"]
            ),
            "no 'pink'",
        ),
        (
            BlitzThrow.of(
                {"orange": 2, "blue": True, "black": 1, "yellow": 1, "green": 1, "red": 1}, ["red", "red"]
            ),
            "no face",
        ),
    ],
)
def test_impossible_throws_are_rejected(throw, problem):
    with pytest.raises(RulesError, match=problem):
        check_throw(SPEC, throw, 2)


def test_throw_json_round_trip():
    assert BlitzThrow.from_json(EXAMPLE_1.to_json()) == EXAMPLE_1


throws = st.builds(
    lambda faces, whites: BlitzThrow(
        tuple((d.colour, d.faces[i]) for d, i in zip(SPEC.coloured, faces)),
        tuple(SPEC.white_faces[i] for i in whites),
    ),
    st.lists(st.integers(0, 5), min_size=6, max_size=6),
    st.lists(st.integers(0, 5), min_size=2, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(throws)
def test_standard_and_reversed_sums_split_the_pips(throw):
    """Counted + excluded pips = all pips showing; a sum is within 0..max_call."""
    pips = sum(f for _, f in throw.coloured if isinstance(f, int))
    excluded = sum(f for c, f in throw.coloured if isinstance(f, int) and c in breakdown(throw).excluded)
    assert correct_sum(throw) == pips - excluded
    if variant_applies(throw):
        assert correct_sum(throw, variant=True) == excluded
    else:
        assert correct_sum(throw, variant=True) == correct_sum(throw)
    assert 0 <= correct_sum(throw, variant=True) <= SPEC.max_call
    # a die's colour visible as a dot is exactly what excludes it
    seen = throw.dots()
    assert set(breakdown(throw).excluded) == {c for c, _ in throw.coloured if seen[c]}


def test_sampled_throws_are_possible_and_reproducible():
    first = sample_throw(SPEC, 3, np.random.default_rng(7))
    rng1, rng2 = np.random.default_rng(11), np.random.default_rng(11)
    for _ in range(200):
        t1, t2 = sample_throw(SPEC, 3, rng1), sample_throw(SPEC, 3, rng2)
        assert t1 == t2
        check_throw(SPEC, t1, 3)
    assert first == sample_throw(SPEC, 3, np.random.default_rng(7))
