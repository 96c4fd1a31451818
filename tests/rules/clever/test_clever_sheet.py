"""Every area of the Doppelt so clever sheet: what it accepts, the bonuses it pays, its points."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clever.sheet import Sheet
from rules.clever.spec import default_spec
from rules.common.errors import RulesError

SPEC = default_spec()


def sheet() -> Sheet:
    return Sheet(SPEC)


# ------------------------------------------------------------------ silver
def test_silver_marks_a_value_in_any_row_once():
    s = sheet()
    assert s.slots("silver", 4) == [0, 1, 2, 3]
    s.enter("silver", 4, 2)
    assert s.slots("silver", 4) == [0, 1, 3]
    with pytest.raises(RulesError, match="already marked in the green row"):
        s.enter("silver", 4, 2)


@pytest.mark.parametrize("value, bonus", list(zip(range(1, 7), SPEC.silver_column_bonuses)))
def test_silver_column_bonus_when_all_four_rows_marked(value, bonus):
    s = sheet()
    earned = [s.enter("silver", value, r) for r in range(4)]
    free = [b for b in earned[-1]]
    assert earned[:3] == [[], [], []]
    if bonus.startswith("?"):
        assert free == [bonus]
    else:
        assert free == []
        counters = {"plus1": s.plus_ones, "fox": s.foxes}
        assert counters[bonus] == 1


@pytest.mark.parametrize("marks, points", [(0, 0), (1, 2), (2, 4), (3, 7), (4, 11), (5, 16), (6, 22)])
def test_silver_row_points(marks, points):
    s = sheet()
    for v in range(1, marks + 1):
        s.enter("silver", v, 1)
    assert s.area_scores()["silver"] == points


def test_silver_area_sums_rows():
    s = sheet()
    for v in (1, 2, 3):
        s.enter("silver", v, 0)
    s.enter("silver", 5, 3)
    assert s.area_scores()["silver"] == 7 + 2


# ------------------------------------------------------------------ yellow
def test_yellow_circle_before_cross_and_nothing_after():
    s = sheet()
    assert s.slots("yellow", 1) == [2]
    s.enter("yellow", 1, 2)
    assert s.yellow[2] == 1 and s.area_scores()["yellow"] == 0
    s.enter("yellow", 1, 2)
    assert s.yellow[2] == 2 and s.area_scores()["yellow"] == 3
    assert s.slots("yellow", 1) == []
    with pytest.raises(RulesError, match="already crossed"):
        s.enter("yellow", 1, 2)


def test_yellow_number_must_match_the_field():
    s = sheet()
    with pytest.raises(RulesError, match="shows 3"):
        s.enter("yellow", 4, 0)
    assert s.slots("yellow", 5) == [7, 8]


@pytest.mark.parametrize("row", range(5))
def test_yellow_row_bonus_when_row_completely_circled(row):
    s = sheet()
    cells = SPEC.yellow_rows[row]
    results = [s.enter("yellow", SPEC.yellow_cells[i].number, i) for i in cells]
    bonus = SPEC.yellow_row_bonuses[row]
    assert results[0] == [] or len(cells) == 1
    if bonus.startswith("?"):
        assert bonus in results[-1]
    else:
        assert {"return": s.returns}[bonus] == 1
    # crossing the circled numbers pays nothing new
    again = [s.enter("yellow", SPEC.yellow_cells[i].number, i) for i in cells]
    assert again == [[] for _ in cells]


@pytest.mark.parametrize("col", range(4))
def test_yellow_column_bonus_when_column_completely_circled(col):
    s = sheet()
    cells = SPEC.yellow_columns[col]
    for i in cells[:-1]:
        s.enter("yellow", SPEC.yellow_cells[i].number, i)
    before = (s.rerolls, s.plus_ones, s.foxes)
    last = s.enter("yellow", SPEC.yellow_cells[cells[-1]].number, cells[-1])
    bonus = SPEC.yellow_column_bonuses[col]
    if bonus.startswith("?"):
        assert bonus in last
    else:
        after = (s.rerolls, s.plus_ones, s.foxes)
        index = {"reroll": 0, "plus1": 1, "fox": 2}[bonus]
        assert after[index] == before[index] + 1


@pytest.mark.parametrize("crosses", range(11))
def test_yellow_points_by_crosses(crosses):
    s = sheet()
    for i in range(crosses):
        n = SPEC.yellow_cells[i].number
        s.enter("yellow", n, i)
        s.enter("yellow", n, i)
    assert s.area_scores()["yellow"] == SPEC.yellow_points[crosses]


# ------------------------------------------------------------------ blue
def test_blue_first_box_any_sum_then_never_higher():
    s = sheet()
    assert s.slots("blue", 12) == [None] and s.slots("blue", 1) == [] and s.slots("blue", 13) == []
    s.enter("blue", 9, None)
    assert s.slots("blue", 10) == []
    assert s.slots("blue", 9) == [None]
    with pytest.raises(RulesError, match="must not increase"):
        s.enter("blue", 10, None)
    s.enter("blue", 9, None)
    s.enter("blue", 4, None)
    assert s.blue == [9, 9, 4]


@pytest.mark.parametrize("box", range(1, 13))
def test_blue_box_bonus_and_points(box):
    s = sheet()
    free = []
    for _ in range(box):
        free = s.enter("blue", 12, None)
    bonus = SPEC.blue_bonuses[box - 1]
    if bonus.startswith("?"):
        assert free == [bonus]
    else:
        assert free == []
    assert s.area_scores()["blue"] == box * (box + 1) // 2


def test_blue_is_full_after_twelve_boxes():
    s = sheet()
    for _ in range(12):
        s.enter("blue", 2, None)
    assert s.slots("blue", 2) == [] and s.is_full("blue")
    with pytest.raises(RulesError, match="blue is full"):
        s.enter("blue", 2, None)


# ------------------------------------------------------------------ green
def test_green_pairs_score_first_minus_second_times_multipliers():
    s = sheet()
    s.enter("green", 6, None)  # 6 x2 = 12
    assert s.area_scores()["green"] == 0  # a pair with an empty second box scores 0
    s.enter("green", 1, None)  # 1 x2 = 2
    assert s.area_scores()["green"] == 10
    s.enter("green", 2, None)  # 2 x2 = 4
    s.enter("green", 6, None)  # 6 x1 = 6 -> pair -2
    assert s.area_scores()["green"] == 8
    s.enter("green", 5, None)  # 5 x3 = 15
    s.enter("green", 2, None)  # 2 x3 = 6 -> 9
    assert s.area_scores()["green"] == 17


@pytest.mark.parametrize("box", range(1, 13))
def test_green_box_bonuses(box):
    s = sheet()
    free = []
    for _ in range(box):
        free = s.enter("green", 3, None)
    bonus = SPEC.green_bonuses[box - 1]
    assert free == ([bonus] if bonus.startswith("?") else [])


def test_green_takes_die_values_only():
    s = sheet()
    assert s.slots("green", 7) == [] and s.slots("green", 0) == []


# ------------------------------------------------------------------ pink
@pytest.mark.parametrize("box", range(1, 13))
def test_pink_bonus_only_at_or_above_threshold(box):
    threshold = SPEC.pink_thresholds[box - 1]
    bonus = SPEC.pink_bonuses[box - 1]
    for value, pays in ((max(threshold, 1), bool(bonus)), (threshold - 1, False)):
        if value < 1:
            continue
        s = sheet()
        for _ in range(box - 1):
            s.enter("pink", 1, None)
        counters = (s.rerolls, s.returns, s.plus_ones, s.foxes)
        free = s.enter("pink", value, None)
        changed = free or (s.rerolls, s.returns, s.plus_ones, s.foxes) != counters
        assert bool(changed) == pays, (box, value)


def test_pink_scores_the_sum():
    s = sheet()
    for v in (6, 1, 4, 5):
        s.enter("pink", v, None)
    assert s.area_scores()["pink"] == 16


# ------------------------------------------------------------------ free entries and foxes
def test_free_entries_per_area():
    s = sheet()
    assert len(s.free_entries("silver")) == 24
    assert len(s.free_entries("yellow")) == 10
    assert [v for v, _ in s.free_entries("blue")] == list(range(2, 13))
    assert [v for v, _ in s.free_entries("green")] == list(range(1, 7))
    s.enter("blue", 5, None)
    assert [v for v, _ in s.free_entries("blue")] == [2, 3, 4, 5]
    s.enter("yellow", 3, 0)
    s.enter("yellow", 3, 0)
    assert len(s.free_entries("yellow")) == 9


def test_fox_is_worth_the_lowest_area():
    s = sheet()
    for v in (6, 6, 6):
        s.enter("pink", v, None)  # pink 18
    for v in (1, 2, 3):
        s.enter("silver", v, 0)  # silver 7
    s.enter("blue", 12, None)  # blue 1
    s.enter("yellow", 3, 0)
    s.enter("yellow", 3, 0)  # yellow 3
    s.enter("green", 4, None)
    s.enter("green", 1, None)  # green 6
    s.foxes = 2
    assert min(s.area_scores().values()) == 1
    assert s.fox_points() == 2
    assert s.total() == 18 + 7 + 1 + 3 + 6 + 2


def test_negative_green_makes_foxes_negative():
    s = sheet()
    s.enter("green", 1, None)
    s.enter("green", 6, None)  # 2 - 12 = -10
    s.foxes = 1
    assert s.area_scores()["green"] == -10 and s.fox_points() == -10


# ------------------------------------------------------------------ property: no illegal entry is accepted
ENTRY = st.tuples(
    st.sampled_from(SPEC.areas + ("orange",)), st.integers(-1, 14), st.one_of(st.none(), st.integers(-1, 10))
)


@settings(max_examples=150, deadline=None)
@given(st.lists(ENTRY, max_size=80))
def test_sheet_never_accepts_an_illegal_entry(entries):
    s = sheet()
    for area, value, slot in entries:
        legal = area in SPEC.areas and s.can_enter(area, value, slot)
        before = s.to_dict()
        if legal:
            s.enter(area, value, slot)
        else:
            with pytest.raises(RulesError):
                s.enter(area, value, slot)
            assert s.to_dict() == before
        assert all(a >= b for a, b in zip(s.blue, s.blue[1:]))
        assert all(2 <= v <= 12 for v in s.blue)
        assert all(1 <= v <= 6 for v in s.green + s.pink)
        assert max(len(s.blue), len(s.green), len(s.pink)) <= 12
        assert all(0 <= y <= 2 for y in s.yellow)
        assert all(0 <= row < 64 for row in s.silver)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_legal_slots_are_exactly_the_accepted_entries(data):
    s = sheet()
    for _ in range(data.draw(st.integers(0, 40))):
        area = data.draw(st.sampled_from(SPEC.areas))
        options = s.free_entries(area)
        if options:
            value, slot = data.draw(st.sampled_from(options))
            s.enter(area, value, slot)
    for area in SPEC.areas:
        for value in range(0, 14):
            for slot in [None] + list(range(10)):
                assert s.can_enter(area, value, slot) == (
                    slot in s.slots(area, value)
                    and (area != "yellow" or SPEC.yellow_cells[slot].number == value)
                )
