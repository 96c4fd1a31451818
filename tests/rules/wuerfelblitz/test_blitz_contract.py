"""Würfelblitz keeps the shared game contract (rules.conformance)."""

import numpy as np

from rules.conformance import check_game
from rules.wuerfelblitz import BlitzState, Call, GameConfig, load_spec, replay

SPEC = load_spec()


def random_calls(state: BlitzState, rng: np.random.Generator) -> list[Call]:
    """Everybody calls a random number (the correct one half of the time) at a random time."""
    calls = []
    for p in range(state.config.players):
        if rng.random() < 0.8:
            value = state.correct() if rng.random() < 0.5 else int(rng.integers(len(state.legal_calls())))
            calls.append(Call(p, value, float(rng.uniform(0.3, 5.0))))
    return calls


def test_wuerfelblitz_conforms_to_the_contract():
    config = GameConfig.from_spec(SPEC, 3, white_dice=3)
    report = check_game(
        lambda: BlitzState(SPEC, config, 0),
        lambda data: replay(data, SPEC),
        seed=2,
        games=2,
        joint_action=random_calls,
        illegal_actions=lambda state: [],
    )
    assert min(report.steps) > 10 and len(report.returns[0]) == 3
