"""Doppelt oder nichts keeps the shared game contract (rules.conformance)."""

from rules.conformance import check_game
from rules.oder_nichts import Action, GameConfig, new_game, replay


def test_oder_nichts_conforms_to_the_contract(deck):
    for config in (GameConfig(3, max_rounds=1), GameConfig(2, max_rounds=1, first_game=True)):
        report = check_game(
            lambda c=config: new_game(c, deck),
            lambda data: replay(data, deck),
            seed=config.players,
            games=2,
            illegal_actions=lambda state: [Action("play", (999,)), Action("frobnicate")],
        )
        assert min(report.steps) > 10 and len(report.returns[0]) == config.players
