"""Every worked example of the seed rulebook (seeds/002_b3e56cf0cd44ac81.txt).

The sheet images are lost, so the dice of examples 1-4 are rebuilt from the text; each
test says how.
"""

from __future__ import annotations

from doppelspiel_support import ALL, SPEC, cell, fill, fill_all_but, section_refs, thrown

from rules.doppelspiel import (
    ActivateJoker,
    DoppelState,
    FieldRef,
    Place,
    Roll,
    Split,
    Swap,
    best_writes,
)
from rules.doppelspiel.fields import base_value, split_groups


def val(key: str, group) -> int | None:
    return base_value(SPEC.field(key), tuple(sorted(group)))


def best_in(key: str, dice) -> int:
    """Best score for field ``key`` from some group of five of ``dice``."""
    return max((val(key, a) or 0) for a, _ in split_groups(dice))


# --- "Beispielwurf": 1+1+6+5+5 = 18 in 1-1-6; group 2 is 4 4 4 4 6 --------------------
SEED_DICE = (1, 1, 6, 5, 5, 4, 4, 4, 4, 6)


def test_beispielwurf_116_is_18_and_19_after_regrouping():
    assert val("116", (1, 1, 6, 5, 5)) == 18
    # "wenn die 6 aus Gruppe 2 mit einer 5 aus Gruppe 1 getauscht wird (=19)"
    assert val("116", (1, 1, 6, 6, 5)) == 19
    assert best_in("116", SEED_DICE) == 19


def test_beispielwurf_fours_and_full_house():
    assert val("4s", (4, 4, 4, 4, 6)) == 16  # "4x4er in das nur 4er Feld (=16)"
    # Full House 25 in group 2 and 1-1-6-6-4 = 18 in group 1
    assert val("fh", (4, 4, 4, 5, 5)) == 25
    assert val("116", (1, 1, 6, 6, 4)) == 18
    state = thrown(SEED_DICE)
    state.apply_action(Split((4, 4, 4, 5, 5)))
    state.apply_action(Place("write", FieldRef(0, "fh")))
    state.apply_action(Place("write", FieldRef(0, "116")))
    assert cell(state, 0, "fh@1") == 25 and cell(state, 0, "116@1") == 18


def test_beispielwurf_the_solver_finds_the_full_house_split():
    # with only the example's fields open, the best split is the seed's own: FH + 1-1-6-6-4
    state = DoppelState()
    fill_all_but(state, 0, {"116@1", "4s@1", "fh@1", "1s@1"})
    thrown(SEED_DICE, state)
    plan = best_writes(state)[0]
    assert plan.points == 25 + 18
    assert {(e.group, str(e.target)) for e in plan.entries} == {
        ((4, 4, 4, 5, 5), "fh@1"),
        ((1, 1, 4, 6, 6), "116@1"),
    }


def test_beispielwurf_ones_aussetzen_and_strike():
    # "das Schreiben der beiden 1er in das nur Einser Feld möglich (=2)"
    assert val("1s", (1, 1, 4, 4, 6)) == 2
    state = thrown(SEED_DICE)
    state.apply_action(Split((1, 1, 4, 4, 6)))
    state.apply_action(Place("write", FieldRef(2, "1s")))
    # "ein Strich zu machen (Aussetzen)"
    state.apply_action(Place("skip"))
    assert cell(state, 0, "1s@3") == 2 and state.sheets[0].aussetzen == 1


def test_beispielwurf_two_strokes_when_nothing_fits():
    # "so sind 2 Striche (für jede 5er Gruppe) zu machen"
    state = thrown(SEED_DICE)
    state.apply_action(Split((1, 1, 6, 5, 5)))
    state.apply_action(Place("skip"))
    state.apply_action(Place("skip"))
    assert state.sheets[0].aussetzen == 2
    assert all(v is None for col in state.sheets[0].cells for v in col)


# --- 1. Beispiel: rebuilt as 1 1 1 1 2 6 6 6 6 6 -----------------------------------------
# (the swap 2 -> 1 gives a DOPPLER; "FullHouse (25) + 116 oder 661 = 16"; "4x 1er und
# 1x Alle 5" fix the other nine dice)
EX1 = (1, 1, 1, 1, 2, 6, 6, 6, 6, 6)


def test_example1_swap_gives_a_doppler_with_two_crosses():
    state = thrown(EX1)
    state.apply_action(Swap(4, 1))  # "Die 2 gegen eine 1"
    assert state.sheets[0].swaps == {1, 2}
    state.apply_action(Split((1, 1, 1, 1, 1)))
    assert state.doublings[0] == 1
    # "1 Feld Doppeln + 1 Feld mit Maximalwert"
    state.apply_action(Place("write", FieldRef(0, "5k"), doubled=True))
    state.apply_action(Place("write", FieldRef(0, "6s")))
    assert cell(state, 0, "5k@1") == 100 and cell(state, 0, "6s@1") == 30
    assert state.sheets[0].crosses == 2  # "Im ersten Fall 2 Kreuze bei Freiwurf"


def test_example1_full_house_and_661():
    state = thrown(EX1)
    state.apply_action(Split((1, 1, 6, 6, 6)))
    state.apply_action(Place("write", FieldRef(1, "fh")))
    state.apply_action(Place("write", FieldRef(1, "661")))
    assert cell(state, 0, "fh@2") == 25 and cell(state, 0, "661@2") == 16
    assert state.sheets[0].crosses == 1  # "Im 2. ... Fall 1 Kreuz", however the sixes are used


def test_example1_four_ones_and_five_sixes_at_maximum():
    state = thrown(EX1)
    state.apply_action(Split((1, 1, 1, 1, 2)))
    state.apply_action(Place("write", FieldRef(0, "1s")))
    state.apply_action(Place("write", FieldRef(0, "ls")))  # five sixes as a large straight
    assert cell(state, 0, "1s@1") == 4 and cell(state, 0, "ls@1") == 40
    assert state.sheets[0].crosses == 1


# --- 2. Beispiel: "443 mit 22 Punkte und 116 mit 20 Punkte" fixes 1 1 3 4 4 5 6 6 6 6 ------
EX2 = (1, 1, 3, 4, 4, 5, 6, 6, 6, 6)


def test_example2_443_and_116():
    assert val("443", (4, 4, 3, 5, 6)) == 22
    assert val("116", (1, 1, 6, 6, 6)) == 20
    state = thrown(EX2)
    state.apply_action(Split((3, 4, 4, 5, 6)))
    state.apply_action(Place("write", FieldRef(0, "443")))
    state.apply_action(Place("write", FieldRef(0, "116")))
    assert cell(state, 0, "443@1") == 22 and cell(state, 0, "116@1") == 20


def test_example2_small_straight_option_holds_with_the_default_reading():
    # "Oder kleine Straße und 116 mit 18 Punkte (11664)": the other five are 3 4 5 6 6,
    # four in a row but not five different values; the default reading (five different OR
    # four in a row) makes the rulebook's option possible (issue 16)
    assert val("116", (1, 1, 6, 6, 4)) == 18
    assert val("ss", (3, 4, 5, 6, 6)) == 30
    assert any(val("ss", a) == 30 and val("116", b) == 18 for a, b in split_groups(EX2))
    # five different values still count, and so does a large straight
    assert val("ss", (1, 2, 3, 5, 6)) == 30 and val("ss", (2, 3, 4, 5, 6)) == 30
    assert val("ss", (1, 1, 2, 4, 5)) is None


def test_example2_small_straight_option_needs_the_classic_reading_when_read_as_distinct():
    # the old reading, kept as an option (--small-straight distinct): five different only
    distinct = SPEC.with_readings(small_straight="distinct")

    def val_d(key, group):
        return base_value(distinct.field(key), tuple(sorted(group)))

    assert val_d("116", (1, 1, 6, 6, 4)) == 18
    assert val_d("ss", (3, 4, 5, 6, 6)) is None
    assert not any(val_d("ss", a) and val_d("116", b) == 18 for a, b in split_groups(EX2))


# --- 3. Beispiel: rebuilt as 3 3 3 3 3 1 1 6 4 2 -----------------------------------------
# (five 3s; "116 oder 2x 1er"; "334 und FullHouse" needs a 4; the small straight needs a 2 or 5)
EX3 = (3, 3, 3, 3, 3, 1, 1, 6, 4, 2)


def test_example3_the_three_options_and_one_cross():
    # five of a kind at the maximum of a field, and 1-1-6 (or two 1s)
    assert val("661", (3, 3, 3, 3, 3)) == 25
    assert val("116", (1, 1, 6, 4, 2)) == 14 and val("1s", (1, 1, 6, 4, 2)) == 2
    # small straight and four 3s
    assert val("ss", (1, 2, 3, 4, 6)) == 30 and val("3s", (3, 3, 3, 3, 1)) == 12
    # 3-3-4 and Full House
    assert val("334", (3, 3, 4, 6, 2)) == 18 and val("fh", (3, 3, 3, 1, 1)) == 25
    state = thrown(EX3)
    state.apply_action(Split((1, 2, 3, 4, 6)))
    state.apply_action(Place("write", FieldRef(0, "ss")))
    state.apply_action(Place("write", FieldRef(0, "3s")))
    assert state.sheets[0].crosses == 1  # "1 Freiwurffeld darf angekreuzt werden"


# --- 4. Beispiel ------------------------------------------------------------------------
def test_example4_four_sixes_and_a_one_in_661():
    assert val("661", (6, 6, 6, 6, 1)) == 25


# --- 5. Beispiel: the DOPPLER ------------------------------------------------------------
def test_example5_doppler_doubles_one_field_and_fills_another_at_maximum():
    state = thrown((2, 2, 2, 2, 2, 5, 5, 5, 5, 5))
    state.apply_action(Split((2, 2, 2, 2, 2)))
    state.apply_action(Place("write", FieldRef(0, "661"), doubled=True))  # any field, doubled maximum
    # the second group: its field's maximum, not doubled (one doubling only)
    assert Place("write", FieldRef(0, "5k"), doubled=True) not in state.legal_actions()
    state.apply_action(Place("write", FieldRef(0, "5k")))
    assert cell(state, 0, "661@1") == 50 and cell(state, 0, "5k@1") == 50
    assert state.sheets[0].crosses == 2


def test_example5_doppler_in_five_of_a_kind_is_100():
    # Tip: "bei einem Doppler auf das Feld 5 Gleiche zu schreiben. Dies bringt dann 100 Punkte."
    state = thrown((2, 2, 2, 2, 2, 5, 5, 5, 5, 5))
    state.apply_action(Split((5, 5, 5, 5, 5)))
    state.apply_action(Place("write", FieldRef(0, "5k"), doubled=True))
    assert cell(state, 0, "5k@1") == 100


def test_example5_doppler_with_a_joker_doubles_a_second_upper_or_middle_field():
    state = DoppelState()
    fill(state, 0, section_refs("lower", 1))
    state.apply_action(ActivateJoker(0))
    state.apply_action(Roll(ALL))
    state.apply_chance((2, 2, 2, 2, 2, 6, 6, 6, 6, 6))
    state.apply_action(Split((6, 6, 6, 6, 6)))
    assert state.doublings == (1, 1)
    state.apply_action(Place("write", FieldRef(1, "5k"), doubled=True))  # DOPPLER: any field
    state.apply_action(Place("write", FieldRef(1, "6s"), doubled=True))  # Joker: upper/middle
    assert cell(state, 0, "5k@2") == 100 and cell(state, 0, "6s@2") == 60


def test_example5_the_joker_cannot_double_a_lower_field():
    state = DoppelState()
    fill(state, 0, section_refs("lower", 1))
    state.apply_action(ActivateJoker(0))
    state.apply_action(Roll(ALL))
    state.apply_chance((2, 2, 2, 2, 2, 6, 6, 6, 6, 6))
    state.apply_action(Split((6, 6, 6, 6, 6)))
    state.apply_action(Place("write", FieldRef(1, "5k"), doubled=True))  # uses the DOPPLER doubling
    assert Place("write", FieldRef(1, "ls"), doubled=True) not in state.legal_actions()
    assert Place("write", FieldRef(1, "552"), doubled=True) in state.legal_actions()


# --- 6. Beispiel: the DOPPELDOPPLER -----------------------------------------------------
def test_example6_doppeldoppler_by_swapping_doubles_two_fields_at_maximum():
    state = DoppelState()
    fill(state, 0, section_refs("lower", 3))
    state.apply_action(ActivateJoker(2))  # "Wurde zuvor ein Joker gesetzt ist dieser wirkungslos"
    state.apply_action(Roll(ALL))
    state.apply_chance((4, 4, 4, 4, 4, 4, 4, 4, 4, 3))
    state.apply_action(Swap(9, 4))  # "auch mit tauschen möglich"
    state.apply_action(Split((4, 4, 4, 4, 4)))
    assert state.doublings == (2, 0)
    state.apply_action(Place("write", FieldRef(0, "5k"), doubled=True))
    state.apply_action(Place("write", FieldRef(0, "ls"), doubled=True))
    assert cell(state, 0, "5k@1") == 100 and cell(state, 0, "ls@1") == 80
    assert state.sheets[0].crosses == 2


def test_doppeldoppler_does_not_apply_to_the_ten():
    state = thrown((5,) * 10)
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "ten 1"))
    assert cell(state, 0, "ten@1") == 50
