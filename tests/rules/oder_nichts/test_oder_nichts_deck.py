"""The deck data: 138 cards in the documented composition, values, tasks, and bad files."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter

import pytest

from rules.common.errors import SpecError
from rules.oder_nichts.cards import default_deck_path, parse_deck


@pytest.fixture(scope="module")
def raw():
    return tomllib.loads(default_deck_path().read_text(encoding="utf-8"))


def test_138_cards_in_the_documented_composition(deck):
    assert len(deck.cards) == 138
    by_category = Counter(c.category for c in deck.cards)
    assert by_category == {"number": 76, "neutral": 22, "offensive": 26, "defensive": 8, "brown": 6}
    assert deck.composition() == {
        "number": 76,
        "direction": 8,
        "colour_change": 6,
        "half_hand": 4,
        "hand_swap": 4,
        "skip": 8,
        "draw3": 8,
        "draw5": 4,
        "minus20": 2,
        "afk": 2,
        "magnet": 2,
        "dodge": 2,
        "you": 2,
        "mirror": 2,
        "unlucky": 2,
        "not_me": 2,
        "hijack": 2,
        "double": 2,
    }
    assert [c.id for c in deck.cards] == list(range(138))
    assert deck.hand_size == 6 and deck.target_points == 500


def test_numbers_per_colour_and_no_card_more_than_twice(deck):
    for colour in ("magenta", "cyan", "yellow", "green"):
        numbers = Counter(c.number for c in deck.cards if c.kind == "number" and c.colours == (colour,))
        assert numbers == {0: 1, **{n: 2 for n in range(1, 10)}}
    assert max(Counter(c.identity for c in deck.cards).values()) == 2
    pairs = {c.colours for c in deck.cards if c.kind == "colour_change"}
    assert len(pairs) == 6 and all(len(p) == 2 for p in pairs)


def test_card_values(deck):
    for c in deck.cards:
        if c.category == "number":
            assert c.points == c.number
        elif c.category == "brown":
            assert c.points == 70
        else:
            assert c.points == 20
    assert {c.colours for c in deck.cards if c.category in ("defensive", "brown")} == {()}


def test_draw_and_afk_cards_carry_tasks(deck):
    for c in deck.cards:
        if c.kind in ("draw3", "draw5", "afk"):
            assert c.task in deck.tasks
        else:
            assert c.task is None
    assert {deck.card(i).task for i in range(138) if deck.card(i).kind == "draw3"} == {"spin", "wall", "rps"}
    assert deck.tasks["rps"].versus_owner and not deck.tasks["phone"].versus_owner
    assert all(0.0 <= t.success <= 1.0 for t in deck.tasks.values())


def test_offensive_amounts(deck):
    amounts = {c.kind: c.amount for c in deck.cards if c.category == "offensive"}
    assert amounts == {"skip": 1, "minus20": 20, "draw3": 3, "draw5": 5, "afk": 1, "magnet": 1}


def _broken(raw, change):
    data = copy.deepcopy(raw)
    change(data)
    return data


@pytest.mark.parametrize(
    "change, element, words",
    [
        (lambda d: d["game"].update(total_cards=137), "cards", "make 138 cards"),
        (lambda d: d["cards"][0].update(kind="joker"), "cards[0].kind", "unknown card kind"),
        (lambda d: d["cards"][0].update(colours=["red"]), "cards[0].colours", "unknown colour"),
        (lambda d: d["tasks"]["spin"].update(success=1.5), "tasks.spin.success", "probability"),
        (lambda d: d["cards"][-1].update(colours=["green"]), "colours", "no play colour"),
        (lambda d: d["cards"][7].pop("tasks"), "cards[7].tasks", "carry a task"),
        (lambda d: d["kinds"]["skip"].update(category="neutral"), "kinds.skip.category", "offensive"),
        (lambda d: d["kinds"].pop("mirror"), "kinds", "missing kinds: mirror"),
        (lambda d: d["cards"][1].update(numbers=[10]), "cards[1].numbers", "0..9"),
    ],
)
def test_malformed_deck_files_name_the_problem(raw, change, element, words):
    with pytest.raises(SpecError) as err:
        parse_deck(_broken(raw, change), "deck.toml")
    assert element in str(err.value) and words in str(err.value)
    assert err.value.source == "deck.toml"


def test_the_first_game_set_is_the_rulebooks_recommendation(deck):
    # "Für die erste Partie": numbers, direction change, colour change, skip, +3, +5,
    # magnet, dodge, "you!" and mirror
    from rules.oder_nichts.state import GameConfig, State

    state = State(GameConfig(players=3, first_game=True), deck)
    kinds = set(state.spec.composition())
    assert kinds == {
        "number", "direction", "colour_change", "skip", "draw3", "draw5", "magnet", "dodge", "you", "mirror"
    }  # fmt: skip
    assert [c.id for c in state.spec.cards] == list(range(len(state.spec.cards)))
    assert state.spec.composition()["number"] == deck.composition()["number"]
    assert len(state.spec.cards) < len(deck.cards)
    assert GameConfig.from_json(state.config.to_json()) == state.config
