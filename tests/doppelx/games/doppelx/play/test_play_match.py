"""The match extensions the window needs: a person's throw, a mixed setup throw, a re-run for replays."""

from __future__ import annotations

import numpy as np
import pytest

from doppelx.games.doppelx.bot_factory import make_bots
from doppelx.games.doppelx.match import DoppelXMatch
from physics.throw import release_point, seat_places
from rules.common.errors import RulesError
from rules.doppelx.board_file import load_board
from rules.doppelx.game import DoppelXGame

SEATS = ("blue", "red", "yellow", "green")


def make(seed: int, people: tuple[str, ...] = ()) -> DoppelXMatch:
    game = DoppelXGame(SEATS, load_board("I"))
    bots = {c: b for c, b in make_bots(SEATS).items() if c not in people}
    return DoppelXMatch(game, bots, seed, record=True)


def test_the_setup_throw_of_bots_is_the_bot_throw():
    a, b = make(4), make(4)
    try:
        assert a.setup_throw().to_dict() == b.bot_throw().to_dict()
    finally:
        a.close()
        b.close()


def test_a_persons_die_joins_the_bots_in_the_setup_throw():
    m = make(6, people=("red",))
    try:
        with pytest.raises(RulesError, match="not a bot"):
            m.setup_throw()
        box = m.physics_world().box
        wall, along = seat_places(4, box)[1]
        rel = release_point(box, wall, along, 0.05)
        hand = m.hand_throw(["red"], rel, (0.8, 0.0, 0.3), (0.0, 0.0, 0.0))
        assert np.allclose(hand.releases[0].position, rel)
        with pytest.raises(RulesError, match="exactly the red die"):
            m.setup_throw({"red": m.hand_throw(["blue"], rel, (0.8, 0, 0.3), (0, 0, 0))})
        throw = m.setup_throw({"red": hand})
        assert throw.owners == SEATS and throw.releases[1] == hand.releases[0]
        assert not throw.hand_over_rim(box)
        rec = m.play_throw(throw)
        assert rec.request.kind == "setup" and len(rec.result.outcome.dice) == 4
        with pytest.raises(RulesError, match="setup throw is over"):
            m.setup_throw({"red": hand})
    finally:
        m.close()


def test_a_persons_turn_throw_and_its_replay_end_the_same():
    m = make(8, people=("blue",))
    try:
        m.play_throw(
            m.setup_throw({"blue": m.hand_throw(["blue"], (0.0, -0.2, 0.09), (0.0, 0.9, 0.3), (0, 0, 0))})
        )
        req = m.request()
        assert req.thrower == "blue"
        throw = m.hand_throw(req.dice, (0.02, -0.2, 0.09), (0.0, 1.0, 0.3), (3.0, 0.0, 0.0))
        v = np.array([r.velocity for r in throw.releases])
        assert np.allclose(v.mean(axis=0), (0.0, 1.0, 0.3), atol=0.15)  # the flick, give or take the fingers
        rec = m.play_throw(throw)
        again = m.rerun(rec.throw, req.lying, rec.spinner_before)
        assert again.outcome.dice == rec.result.outcome.dice
        assert len(again.trajectory) == len(rec.result.trajectory)
    finally:
        m.close()
