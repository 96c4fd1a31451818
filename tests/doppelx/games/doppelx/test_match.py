"""The match loop: rules + physics + players, bets, handed-in throws, the spinner carried over."""

from __future__ import annotations

import pytest

from doppelx.games.doppelx.match import DoppelXMatch
from physics.throw import Throw
from physics.throw_model import SKILLS, Aim, aimed_throw
from rules.common.errors import RulesError
from rules.common.rng import make_rng
from rules.doppelx.board_file import load_board


@pytest.fixture
def match():
    m = DoppelXMatch.with_bots(4, load_board("III"), seed=21)
    yield m
    m.close()


def test_setup_then_turns_with_bets(match):
    first = match.play_throw()
    assert first.request.kind == "setup" and first.bets == {}
    assert set(first.throw.owners) == {"blue", "red", "yellow", "green"}
    second = match.play_throw()
    assert second.request.kind == "turn" and second.request.thrower == "blue"
    assert set(second.throw.owners) == {"blue", "white"}
    hand = (
        set(match.game.seats)
        - {"blue"}
        - set(first.request.lying)
        - {d.owner for d in first.result.outcome.dice if d.status.value == "board"}
    )
    assert set(second.bets) == hand  # every passive bot with its die in hand bets
    assert set(second.request.lying) == {
        d.owner for d in first.result.outcome.dice if d.status.value == "board" and d.owner != "blue"
    }


def test_the_spinner_stays_where_it_stopped(match):
    """Each throw's physics starts with the spinner where the last one left it: the throw run
    again from its recorded start angle ends exactly as recorded (the spinner's end angle
    included), and the start angles are not all the same (the spinner did turn)."""
    for _ in range(4):
        match.play_throw()
    starts = [rec.spinner_before for rec in match.log]
    assert starts[1:] == [rec.result.spinner_angle for rec in match.log[:-1]]
    assert len(set(starts)) > 1
    for rec in match.log[1:]:
        again = match.rerun(rec.throw, rec.request.lying, rec.spinner_before)
        assert again.spinner_angle == rec.result.spinner_angle
        assert again.outcome == rec.result.outcome


def test_a_throw_handed_in_from_outside(match):
    match.play_throw()  # setup by the bots
    req = match.request()
    box = match.world.box
    throw = aimed_throw(box, Aim((0.05, -0.05), 0.3, "S"), list(req.dice), SKILLS["hard"], make_rng(0), 0.016)
    rec = match.play_throw(throw)
    assert rec.throw is throw and rec.request.thrower == req.thrower
    wrong = Throw(throw.releases[:1])
    with pytest.raises(RulesError, match="needs the dice"):
        match.play_throw(wrong)


def test_a_whole_game_ends_and_the_log_matches(match):
    summary = match.play()
    assert match.finished and summary["winner"] is not None
    assert len(match.log) == summary["throws"] == len(match.game.log)
    with pytest.raises(RulesError):
        match.play_throw()


def test_without_a_bot_the_throw_must_be_handed_in():
    from rules.doppelx.game import DoppelXGame

    board = load_board("I")
    game = DoppelXGame(["blue", "red", "green"], board)
    m = DoppelXMatch(game, bots={}, seed=1)
    with pytest.raises(RulesError, match="not a bot"):
        m.play_throw()
    m.close()
