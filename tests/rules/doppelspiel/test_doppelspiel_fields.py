"""Requirements and scores of every field for one group of five dice."""

from __future__ import annotations

import pytest
from doppelspiel_support import SPEC

from rules.doppelspiel.fields import base_value, doppler_kind, fives_in, split_groups


def v(key: str, dice: str):
    return base_value(SPEC.field(key), tuple(sorted(int(c) for c in dice)))


@pytest.mark.parametrize(
    "key,dice,score",
    [
        # upper: the pair and the single must be there, the score is the sum of all five
        ("116", "11655", 18),
        ("116", "11666", 20),
        ("116", "16666", None),
        ("116", "11555", None),
        ("225", "22543", 16),
        ("334", "33412", 13),
        ("443", "44356", 22),
        ("552", "55266", 24),
        ("661", "66111", 15),
        ("661", "66612", 21),
        ("661", "66222", None),
        # middle: the sum of the dice of that face ("drei 5er = 15"); at least one such die
        ("5s", "55512", 15),
        ("1s", "11234", 2),
        ("6s", "12345", None),
        ("4s", "44446", 16),
        # 3er Pasch: sum, at least three equal ("3x5er 1x6er 1x4er = 25"), a 4er Pasch fits too
        ("3k", "55564", 25),
        ("3k", "55556", 26),
        ("3k", "55664", None),
        ("4k", "22224", 12),
        ("4k", "22244", None),
        # Full House: three plus two, 25 whatever the faces
        ("fh", "22333", 25),
        ("fh", "11666", 25),
        ("fh", "22334", None),
        ("fh", "33334", None),
        # Kleine Straße: five different values or four in a row (a large straight counts)
        ("ss", "12346", 30),
        ("ss", "13456", 30),
        ("ss", "12345", 30),
        ("ss", "34566", 30),
        ("ss", "11234", 30),
        ("ss", "12245", None),
        ("ss", "11356", None),
        # Große Straße: 1-5 or 2-6
        ("ls", "12345", 40),
        ("ls", "23456", 40),
        ("ls", "12346", None),
        ("5k", "44444", 50),
        ("5k", "44443", None),
        ("ch", "12345", 15),
        ("ch", "66665", 29),
    ],
)
def test_field_requirements_and_scores(key, dice, score):
    assert v(key, dice) == score


def test_five_of_a_kind_goes_anywhere_at_the_maximum():
    # "5 Einser können auch mit 30 Punkten in das nur 6er Feld eingetragen oder als große
    # Straße mit 40 Punkte oder in das 5-5-2 Feld mit 24 Punkte ... verwendet werden"
    assert v("6s", "11111") == 30
    assert v("ls", "11111") == 40
    assert v("552", "11111") == 24
    for f in SPEC.fields:
        if not f.is_ten:
            assert base_value(f, (3, 3, 3, 3, 3)) == f.max_value


def test_the_ten_is_the_sum_of_all_ten_dice():
    assert base_value(SPEC.field("ten"), (1, 2, 3, 4, 5, 6, 6, 6, 1, 1)) == 35
    # five of a kind gives no maximum in the 10er
    assert base_value(SPEC.field("ten"), (1,) * 10) == 10


def test_fives_and_dopplers():
    assert fives_in((1, 1, 1, 1, 2, 6, 6, 6, 6, 6)) == 1
    assert fives_in((1, 1, 1, 1, 1, 6, 6, 6, 6, 6)) == 2
    assert fives_in((4,) * 10) == 2
    assert fives_in((4,) * 9 + (5,)) == 1
    assert fives_in((1, 2, 3, 4, 5, 6, 1, 2, 3, 4)) == 0
    assert doppler_kind((2,) * 5, (4,) * 5) == "doppler"
    assert doppler_kind((2,) * 5, (2,) * 5) == "doppeldoppler"
    assert doppler_kind((2,) * 5, (2, 2, 2, 2, 4)) is None


def test_splits_cover_every_group_once():
    splits = split_groups((1, 1, 6, 5, 5, 4, 4, 4, 4, 6))
    assert len(splits) == len(set(splits))
    for a, b in splits:
        assert sorted(a + b) == sorted((1, 1, 6, 5, 5, 4, 4, 4, 4, 6))
        assert len(a) == len(b) == 5
    assert ((1, 1, 5, 6, 6), (4, 4, 4, 4, 5)) in splits
