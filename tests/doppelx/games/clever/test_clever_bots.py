"""Doppelt so clever bots: always legal, reproducible from the seed, and the strong one is strong."""

import numpy as np
import pytest

from doppelx.games.clever.bots import RandomBot, StrongBot, make_bot, remaining_entries
from doppelx.games.clever.tournament import batch_stats, play_game
from rules.clever.game import CleverGame
from rules.common.errors import RulesError
from rules.contract import chance_step


def _play(bots, players, seed):
    state = CleverGame(players).new_initial_state()
    dice = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, dice)
        else:
            seat = state.current_player()
            action = bots[seat].choose(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("players", [1, 3])
def test_random_bot_plays_legal_games_to_the_end(players):
    state = _play([RandomBot(i) for i in range(players)], players, 10 + players)
    assert state.is_terminal()


def test_strong_bot_plays_legal_moves_in_a_four_player_game():
    state = _play([StrongBot(rng=i) for i in range(4)], 4, 3)
    assert state.is_terminal() and min(state.scores()) > 0


def test_games_are_reproducible_from_the_seed():
    a = play_game(["strong", "random"], seed=7, index=2)
    b = play_game(["strong", "random"], seed=7, index=2)
    c = play_game(["strong", "random"], seed=7, index=3)
    assert a.log == b.log and a.scores() == b.scores()
    assert c.log != a.log


def test_strong_bot_beats_the_random_bot():
    stats = batch_stats(["strong", "random"], games=3, seed=1)
    strong, rand = stats["bots"]
    assert strong["mean"] > rand["mean"] + 60
    assert strong["wins"] == 3


def test_batch_statistics_per_seat():
    stats = batch_stats(["random", "random"], games=4, seed=2)
    assert stats["games"] == 4 and stats["players"] == 2 and stats["seed"] == 2
    for row in stats["bots"]:
        assert row["min"] <= row["mean"] <= row["max"]
    assert sum(row["wins"] for row in stats["bots"]) == pytest.approx(4)


def test_unknown_bot_kind():
    with pytest.raises(RulesError, match="unknown bot"):
        make_bot("genius", np.random.default_rng(0))


def test_remaining_entries_shrink_over_a_solo_game():
    state = CleverGame(1).new_initial_state()
    assert remaining_entries(state, 0) == 21  # 5 later rounds x 4 + this round's passive pick
    state.apply_chance((1, 2, 3, 4, 5, 6))
    state.apply_action(state.legal_actions()[-1])  # forfeit
    assert remaining_entries(state, 0) == 21
