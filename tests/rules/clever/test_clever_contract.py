"""Doppelt so clever keeps the shared game contract (rules.conformance)."""

from rules.clever import CleverGame, replay
from rules.clever.actions import Action
from rules.conformance import check_game


def test_clever_conforms_to_the_contract():
    for players in (1, 3):
        report = check_game(
            lambda p=players: CleverGame(p).new_initial_state(),
            replay,
            seed=players,
            games=1,
            illegal_actions=lambda state: [Action("no such kind")],
        )
        assert report.steps[0] > 50 and len(report.returns[0]) == players
