"""Doppelt oder nichts bots: they only choose legal actions, and the basic policy's choices."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from doppelx.games.oder_nichts.bots import BOT_NAMES, BasicBot, make_bot
from doppelx.games.oder_nichts.tournament import parse_lineup, play_bots_game, run_batch
from rules.common.rng import child_rng
from rules.oder_nichts import Action, GameConfig, State, load_deck
from rules.oder_nichts.deal import deal_outcome, find_cards

DECK = load_deck()


def dealt(hands, start, draw=()):
    spec = dataclasses.replace(DECK, hand_size=len(hands[0]))
    taken: set[int] = set()
    ids = [find_cards(spec, h, taken) for h in hands]
    state = State(GameConfig(len(hands)), spec)
    state.apply_action(
        deal_outcome(spec, ids, find_cards(spec, [start], taken)[0], find_cards(spec, draw, taken))
    )
    return state


def choose(state, bot=None):
    d = state.pending
    bot = bot or BasicBot()
    return bot.act(state.view(d.player), d, state.spec, np.random.default_rng(0))


def labels(state, action):
    return [state.spec.card(c).label for c in action.cards]


@pytest.mark.parametrize("lineup", [["random"] * 3, ["basic", "gambler", "cautious", "random"]])
def test_bots_play_whole_games_with_legal_actions_only(lineup):
    # apply_action checks every choice against the legal list; a full game means none was refused
    state, summary = play_bots_game(GameConfig(len(lineup), target_points=200), lineup, child_rng(3, 0))
    assert state.is_terminal() and max(summary.minus) >= 200
    assert summary.rounds == len(state.rounds) and summary.decisions > summary.rounds


def test_basic_sheds_the_most_valuable_card():
    state = dealt([["green 2", "green +3", "cyan 9"], ["yellow 1", "yellow 2", "yellow 3"]], "green 4")
    assert labels(state, choose(state)) == ["green +3"]


def test_basic_lays_identical_cards_together():
    # value of a play = its points + 5 per extra card
    state = dealt([["green 8", "green 2", "green 2"], ["yellow 1", "yellow 2", "yellow 3"]], "green 4")
    assert labels(state, choose(state)) == ["green 2", "green 2"]  # 2 + 2 + 5 > 8
    state = dealt([["green +3", "green 5", "green 5"], ["yellow 1", "yellow 2", "yellow 3"]], "green 4")
    assert labels(state, choose(state)) == ["green +3"]  # 20 > 5 + 5 + 5


def test_basic_exchanges_an_all_grey_hand():
    state = dealt([["grey mirror", "grey dodge"], ["yellow 1", "yellow 2"]], "green 4")
    assert choose(state) == Action("exchange")


def test_basic_defends_brown_before_passing_on_before_grey():
    state = dealt(
        [
            ["green +3", "green 1", "green 2"],
            ["cyan +3", "grey mirror", "brown hijack"],
            ["yellow 1", "yellow 2", "yellow 3"],
        ],
        "green 4",
    )
    state.apply_action(
        Action("play", tuple(c for c in state.table.hands[0] if state.spec.card(c).kind == "draw3"))
    )
    action = choose(state)
    assert action.kind == "brown" and labels(state, action) == ["brown hijack"]
    state = dealt(
        [
            ["green +3", "green 1", "green 2"],
            ["cyan +3", "grey mirror", "cyan 1"],
            ["yellow 1", "yellow 2", "yellow 3"],
        ],
        "green 4",
    )
    state.apply_action(
        Action("play", tuple(c for c in state.table.hands[0] if state.spec.card(c).kind == "draw3"))
    )
    assert choose(state).kind == "stack"


def test_task_thresholds_of_the_bot_kinds():
    state = dealt([["green +5", "green 1"], ["cyan 1", "cyan 2"]], "green 4")
    state.apply_action(
        Action("play", (next(c for c in state.table.hands[0] if state.spec.card(c).kind == "draw5"),))
    )
    state.apply_action(Action("accept"))
    task = state.spec.tasks[state.pending.info["tasks"][0]]
    assert choose(state, make_bot("gambler")) == Action("attempt")
    assert choose(state, make_bot("cautious")) == Action("draw")
    expected = Action("attempt") if task.success > 0.5 else Action("draw")
    assert choose(state, make_bot("basic")) == expected


def test_basic_names_the_number_with_fewest_unseen_copies():
    state = dealt(
        [
            ["magenta magnet", "green 3", "cyan 3"],
            ["yellow 3", "yellow 3", "cyan 3"],
            ["yellow 1", "yellow 2", "magenta 4"],
        ],
        "magenta 9",
    )
    state.apply_action(
        Action("play", (next(c for c in state.table.hands[0] if state.spec.card(c).kind == "magnet"),))
    )
    state.apply_action(Action("accept"))
    # P1 sees three 3s in its own hand: five unseen, fewer than any other number
    assert choose(state) == Action("name", number=3)


def test_make_bot_and_lineups():
    assert set(BOT_NAMES) == {"basic", "gambler", "cautious", "random"}
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")
    assert parse_lineup("basic", 3) == ["basic"] * 3
    assert parse_lineup("basic, random", 2) == ["basic", "random"]
    with pytest.raises(
        ValueError, match="3 bots named for 2 bot seats: give one name \\(for every seat\\) or 2"
    ):
        parse_lineup("basic,basic,basic", 2)


def test_batches_are_reproducible_and_count_every_game():
    a = run_batch(GameConfig(3, target_points=150), ["basic", "gambler", "random"], 4, 21)
    b = run_batch(GameConfig(3, target_points=150), ["basic", "gambler", "random"], 4, 21)
    assert a == b
    assert a["games"] == 4 and 4 <= sum(a["wins"].values()) <= 4 + 2 * a["shared_wins"]
    assert a["mean_rounds"] >= 1 and a["mean_turns"] > a["mean_rounds"]
