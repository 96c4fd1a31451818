"""DoppelX keeps the shared game contract (rules.conformance), as the four siblings do."""

import numpy as np
import pytest

from rules.common.errors import RulesError
from rules.conformance import check_game
from rules.contract import CHANCE
from rules.doppelx.board_file import load_board
from rules.doppelx.dice import load_dice
from rules.doppelx.game import DoppelXGame
from rules.doppelx.outcome import ThrowOutcome
from rules.doppelx.state import NO_BET, DoppelXState, replay

DICE = load_dice()


def new_state(side: str = "I", players: int = 4) -> DoppelXState:
    return DoppelXState(DoppelXGame(list(DICE.player_colours[:players]), load_board(side), DICE))


@pytest.mark.parametrize("side", ["I", "III"])
def test_doppelx_conforms_to_the_contract(side):
    board = load_board(side)
    report = check_game(
        lambda: new_state(side),
        lambda data: replay(data, board, DICE),
        seed=3,
        games=2,
        illegal_actions=lambda state: ["Z", None, "a die"],
        replay_every=5,
    )
    assert min(report.steps) > 10 and len(report.returns[0]) == 4


def test_the_chance_node_takes_an_outcome_from_outside():
    """apply_chance scores an outcome it did not draw (the physics tray's, in a match)."""
    state = new_state()
    assert state.current_player() == CHANCE  # the setup throw
    drawn = state.sample_chance(np.random.default_rng(5))
    outside = ThrowOutcome(tuple(drawn.dice))
    state.apply_chance(outside)
    assert state.game.log and state.game.log[-1].kind == "setup"
    while state.current_player() >= 0:
        assert state.legal_actions()[0] == NO_BET
        state.apply_action(NO_BET)
    assert state.current_player() == CHANCE
    with pytest.raises(RulesError):
        state.apply_chance({"dice": []})
