"""Results that stay (chips over the dice until the next throw, the income column, one marker for
the thrower and one for the bettor) and betting that never blocks (a countdown that passes, a
person who passes unless they click a card)."""

from __future__ import annotations

from doppelx.games.doppelx.play.controller import BET_SECONDS, PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from render.intents import BetIntent
from tests.helpers.play import FakeUi, flick, run_until


def setup_thrown(ctrl: PlayController, bets: str = "ask"):
    """Ann (blue) and Bo (red) with two bots, seed 55: after the setup throw Bo's die is in his
    hand and Ann throws first; Bo is asked to bet (``"ask"``) or passes unless he clicks (``"pass"``).
    Returns the chips over the dice when they had come to rest."""
    setup = GameSetup.standard(4, 2, seed=55, names=("Ann", "Bo"))
    if bets != "ask":
        setup.next_bets(1)
    ctrl.new_game(setup)
    ctrl.handle(flick(ctrl))
    ctrl.handle(flick(ctrl))
    run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
    run_until(ctrl, lambda c: c.stage is Stage.RESULT)
    at_rest = ctrl.snapshot().floating
    run_until(ctrl, lambda c: c.stage is not Stage.RESULT)
    return at_rest


def test_the_chips_stay_over_the_dice_and_the_markers_say_who_throws_and_who_bets():
    ctrl = PlayController(FakeUi())
    try:
        at_rest = setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        snap = ctrl.snapshot()
        # the labels outlast the result's pause: those of the dice still lying (red's went off the box or into a hole)
        lying = [p.position for o, p in ctrl.game.on_board.items()]
        kept = [
            f
            for f in at_rest
            if any(abs(f.position[0] - x) < 1e-9 and abs(f.position[1] - y) < 1e-9 for x, y, _ in lying)
        ]
        assert kept and snap.floating == tuple(kept)
        rows = {line.colour: line for line in snap.scoreboard}
        assert rows["blue"].active and not rows["blue"].betting  # ▶ Ann throws next ...
        assert rows["red"].betting and not rows["red"].active  # ... ◆ Bo may bet
        assert snap.bettable == tuple(c.letter for c in snap.table.cards)
        on_board = set(ctrl.game.on_board) - {"white"}
        assert {c for c, line in rows.items() if line.income is not None} == on_board
        assert "Ann" in snap.turn and "passes in 6 s" in snap.message
    finally:
        ctrl.close()


def test_a_bet_nobody_answers_passes_by_itself_after_the_countdown():
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert ctrl.time - start <= BET_SECONDS + 2 * ctrl.frame_dt
        assert "red" in ctrl.passed and "red" not in ctrl.game.bets and ctrl.stage is Stage.THROW
        assert "Bo (red): no bet this time" in ctrl.ui.said[-1]
    finally:
        ctrl.close()


def test_a_person_who_passes_is_not_asked_but_a_click_on_a_card_still_bets():
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl, "pass")
        assert ctrl.stage is Stage.THROW and ctrl.thrower == "blue"  # nobody waits for Bo
        snap = ctrl.snapshot()
        assert snap.bettable and {line.colour for line in snap.scoreboard if line.betting} == {"red"}
        ctrl.handle(BetIntent("b"))
        assert ctrl.game.bets == {"red": "B"} and ctrl.stage is Stage.THROW and ctrl.thrower == "blue"
        assert not ctrl.snapshot().bettable  # one bet a throw
        ctrl.handle(flick(ctrl))
        assert ctrl.stage is Stage.FLIGHT and ctrl.last.bets == {"red": "B"}
    finally:
        ctrl.close()
