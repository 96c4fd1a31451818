"""A game written to JSON and read back is the same game and plays on identically."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.common.errors import SpecError
from rules.common.rng import make_rng
from rules.doppelx.game import DoppelXGame, GameOptions, Phase
from rules.doppelx.game_state_io import FORMAT, game_from_dict, game_to_dict, games_equal
from rules.doppelx.outcome import ThrowOutcome
from tests.helpers.games import play, random_outcome
from tests.helpers.outcomes import flat, gone

SEATS = ("blue", "red", "yellow", "green")


def round_trip(game: DoppelXGame, dice) -> DoppelXGame:
    return game_from_dict(json.loads(json.dumps(game_to_dict(game))), game.board, dice)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    throws=st.integers(0, 30),
    target=st.integers(8, 40),
    rethrow=st.booleans(),
    players=st.integers(3, 6),
)
def test_round_trip_restores_the_game_and_it_plays_on_identically(
    side_i, dice, seed, throws, target, rethrow, players
):
    seats = dice.player_colours[:players]
    game = DoppelXGame(
        seats,
        side_i,
        dice,
        options=GameOptions(target=target, rethrow_cocked=rethrow),
        names={seats[0]: "Anna"},
    )
    rng = make_rng(seed)
    play(game, dice, rng, throws)
    if not game.is_terminal() and game.eligible_bettors():  # bets placed, throw not yet made
        game.place_bet(game.eligible_bettors()[0], list(game.cards)[1])
    copy = round_trip(game, dice)
    assert games_equal(copy, game)
    assert copy.names[seats[0]] == "Anna" and copy.summary() == game.summary()
    assert copy.on_board == game.on_board  # poses bit for bit
    assert [r.score for r in copy.log] == [r.score for r in game.log]
    # both play the same next throws to the same scores and states
    rng_a, rng_b = make_rng(seed + 1), make_rng(seed + 1)
    for _ in range(5):
        if game.is_terminal():
            assert copy.is_terminal()
            break
        a = game.apply_throw(random_outcome(game, dice, rng_a))
        b = copy.apply_throw(random_outcome(copy, dice, rng_b))
        assert a == b
    assert games_equal(copy, game)


def test_a_finished_game_and_the_decider_survive(side_i, dice):
    game = DoppelXGame(SEATS, side_i, dice, options=GameOptions(target=5))
    rng = make_rng(3)
    play(game, dice, rng, 400)
    assert game.is_terminal() and game.winner
    copy = round_trip(game, dice)
    assert copy.phase is Phase.FINISHED and copy.winner == game.winner and games_equal(copy, game)
    decider = DoppelXGame(SEATS, side_i, dice)
    decider._start_decider(("blue", "green"))
    decider.decider_points = {"blue": 6}
    copy = round_trip(decider, dice)
    assert copy.phase is Phase.DECIDER and copy.active == "green" and games_equal(copy, decider)


def test_the_format_is_plain_json_with_named_parts(side_i, dice):
    game = DoppelXGame(SEATS, side_i, dice, cards=("B", "D", "F", "H"))
    play(game, dice, make_rng(5), 3)
    data = game_to_dict(game)
    assert data["format"] == FORMAT and data["board"] == "I" and data["cards"] == ["B", "D", "F", "H"]
    assert data["seats"] == list(SEATS) and set(data["chips"]) == set(SEATS)
    assert len(data["log"]) == 3 and data["log"][0]["kind"] == "setup"
    for owner, pose in data["on_board"].items():
        assert len(pose["position"]) == 3 and len(pose["quaternion"]) == 4


@pytest.mark.parametrize(
    ("edit", "element"),
    [
        (lambda d: d.update(format="doppelx-game/9"), "format"),
        (lambda d: d.update(board="II"), "board"),
        (lambda d: d["seats"].append("white"), "seats[4]"),
        (lambda d: d["chips"].pop("red"), "chips.red"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d.update(active_seat=9), "active_seat"),
        (
            lambda d: d["on_board"].update(white={"position": [0, 0, 0.008], "quaternion": [0, 0, 0, 2]}),
            "on_board.white.quaternion",
        ),
        (lambda d: d.update(winner="red"), "winner"),
        (lambda d: d["log"][1].update(number=7), "log[1].number"),
        (lambda d: d["log"][0]["score"]["readings"][0].update(top="7"), "log[0].score.readings[0].top"),
        (lambda d: d.update(colour="pink"), "colour"),
        (lambda d: d.update(target=1000), "target"),  # could empty the box (D5)
        (lambda d: d["options"].update(target=1000), "options.target"),
    ],
)
def test_mistakes_name_their_element(side_i, dice, edit, element):
    game = DoppelXGame(SEATS, side_i, dice)
    play(game, dice, make_rng(11), 4, bet=False)
    data = json.loads(json.dumps(game_to_dict(game)))
    edit(data)
    with pytest.raises(SpecError) as err:
        game_from_dict(data, side_i, dice, "save.json")
    assert err.value.element == element and err.value.source == "save.json"


def test_a_bet_of_a_die_on_the_board_is_refused(side_i, dice):
    game = DoppelXGame(SEATS, side_i, dice)
    lying = [flat(dice, c, -60 + 40 * i, -60, "2") for i, c in enumerate(SEATS[1:])]
    game.apply_throw(ThrowOutcome((gone("blue"), *lying)))
    data = game_to_dict(game)
    assert game.active == "blue" and "red" in data["on_board"]
    data["bets"] = {"red": "A"}
    with pytest.raises(SpecError, match="lies on the board"):
        game_from_dict(data, side_i, dice)
    data["bets"] = {"blue": "A"}
    with pytest.raises(SpecError, match="only passive players"):
        game_from_dict(data, side_i, dice)
