"""Das Doppel Spiel keeps the shared game contract (rules.conformance)."""

from rules.conformance import check_game
from rules.doppelspiel import DoppelState, Roll, Split, replay


def test_doppelspiel_conforms_to_the_contract():
    report = check_game(
        DoppelState,
        replay,
        seed=5,
        games=1,
        illegal_actions=lambda state: [Roll(()), Split((0, 0, 0, 0, 0))],
    )
    assert report.steps[0] > 100 and len(report.returns[0]) == 2
