"""Results that stay (chips over the dice until the next throw, the income column, one marker for
the thrower and one for the bettor) and betting that never blocks (a countdown that passes, a
person who passes unless they click a card)."""

from __future__ import annotations

import json
import math

import pytest

from doppelx.games.doppelx.play.controller import BET_SECONDS, POINT_HOLD_MAX, PlayController, Stage
from doppelx.games.doppelx.play.newgame import GameSetup
from render.intents import BetIntent, Command, CommandIntent
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
        # every label outlasts the result's pause (fifth playtest: the label of a die that went back
        # to hand went when the bet question came): red's die went into a hole, and it stays drawn
        # there with its label until the next throw starts
        assert set(snap.floating) == set(at_rest)
        assert any(f.text == "in a hole: back to hand" for f in snap.floating)
        assert "red" not in ctrl.game.on_board and "red" in snap.dice
        rows = {line.colour: line for line in snap.scoreboard}
        assert rows["blue"].active and not rows["blue"].betting  # ▶ Ann throws next ...
        assert rows["red"].betting and not rows["red"].active  # ... ◆ Bo may bet
        assert snap.bettable == tuple(c.letter for c in snap.table.cards)
        on_board = set(ctrl.game.on_board) - {"white"}
        assert {c for c, line in rows.items() if line.income is not None} == on_board
        assert "Ann" in snap.turn and f"passes in {math.ceil(ctrl.bet_time)} s" in snap.message
        ctrl.handle(BetIntent("A"))  # Bo bets: his die lies on the card, no longer in the hole
        snap = ctrl.snapshot()
        assert ctrl.stage is Stage.THROW and snap.bets == {"red": "A"} and "red" not in snap.dice
        assert not any(f.text == "in a hole: back to hand" for f in snap.floating)
        assert not set(ctrl.live.request().dice) & set(snap.dice) - set(ctrl.game.on_board)  # Ann's in hand
    finally:
        ctrl.close()


def test_a_bet_nobody_answers_passes_by_itself_after_the_countdown():
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert ctrl.time - start <= ctrl.bet_time + 2 * ctrl.frame_dt
        assert "red" in ctrl.passed and "red" not in ctrl.game.bets and ctrl.stage is Stage.THROW
        assert "Bo (red): no bet this time" in ctrl.ui.said[-1]
        # a trace that stays (issue 32 playtest: the passing left none once the message expired)
        assert ctrl.history[-1] == "Bo (red): no bet" and ctrl.snapshot().log[-1] == "Bo (red): no bet"
        run_until(ctrl, lambda c: c.time > start + ctrl.bet_time + 5.0)  # long after the message
        assert ctrl.stage is Stage.THROW and "Bo (red): no bet this time" in ctrl.snapshot().activity
        ctrl.handle(flick(ctrl))  # the next throw: the status line goes, the log keeps it
        assert ctrl.stage is Stage.FLIGHT and "no bet" not in ctrl.snapshot().activity
        assert "Bo (red): no bet" in ctrl.snapshot().log
    finally:
        ctrl.close()


def test_a_doppel_x_stays_as_it_fell_before_the_bots_bet_its_dice():
    """Seventeenth playtest: after a Doppel X the bots bet at once, their X dice (back in hand)
    jumped onto card A and the "X!" labels went — the picture was gone before it was read. A
    Doppel X's result now holds DOPPEL_X_HOLD before the next decision, even when a person's
    bet or throw comes next (1.6 s otherwise); Enter still goes on sooner."""
    import dataclasses

    from doppelx.games.doppelx.play.controller import DOPPEL_X_HOLD, RESULT_HOLD

    held = {}
    for doppel in (False, True):
        ctrl = PlayController(FakeUi())
        landed = ctrl._landed

        def as_doppel_x(ctrl=ctrl, landed=landed, doppel=doppel) -> None:
            if doppel:
                score = dataclasses.replace(ctrl.last.score, doppel_x=True)
                ctrl.last = dataclasses.replace(ctrl.last, score=score)
            landed()

        ctrl._landed = as_doppel_x
        try:
            ctrl.new_game(GameSetup.standard(4, 2, seed=55, names=("Ann", "Bo")))
            ctrl.handle(flick(ctrl))
            ctrl.handle(flick(ctrl))
            run_until(ctrl, lambda c: c.stage is Stage.RESULT)
            start = ctrl.time
            run_until(ctrl, lambda c: c.stage is not Stage.RESULT)  # the bots bet after it
            held[doppel] = ctrl.time - start
        finally:
            ctrl.close()
    assert held[False] <= RESULT_HOLD + 0.1  # Bo's bet question comes: the short hold
    assert held[True] >= DOPPEL_X_HOLD - 1e-9


def test_a_doppel_x_stays_announced_while_a_bet_is_asked():
    """Issue 32 playtest: a Doppel X went unseen while the player was betting — the banner went
    when the bet prompt came. It stays while the bet is asked; on the person's own throw the
    banner goes (it hid their dice: second playtest) and the summary's first line says it."""
    import dataclasses

    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.snapshot().banner == ""  # no Doppel X: no banner
        ctrl.last = dataclasses.replace(ctrl.last, score=dataclasses.replace(ctrl.last.score, doppel_x=True))
        snap = ctrl.snapshot()
        assert snap.banner == "Doppel X!" and "passes in" in snap.message  # over the bet prompt
        marker = f"Throw {ctrl.last.number} was a Doppel X"
        assert marker in snap.activity  # and at the top until the next throw (third playtest)
        ctrl.handle(BetIntent("b"))  # Bo bets; Ann's throw is next
        snap = ctrl.snapshot()
        assert ctrl.stage is Stage.THROW and snap.banner == ""  # nothing over the dice on one's own throw
        assert marker in snap.activity
        from doppelx.games.doppelx.play.view import result_lines

        shown = ctrl.last  # the summary's first line says it, and why the other dice show nothing
        game = ctrl.live.game
        lines = result_lines(shown.score, shown.bets, game.names, shown.kind, game.cards)
        in_play = sorted(k for k, c in game.cards.items() if c.condition == "doppel_x")
        named = "Doppel X! No other die pays; of the bets only " + " and ".join(in_play)
        # (the setup throw has no bets: its line names no cards, fourth playtest)
        assert lines[0] == (named if shown.kind != "setup" else "Doppel X! No other die pays")
        turn = result_lines(shown.score, shown.bets, game.names, "turn", game.cards)
        assert turn[0] == named
        from doppelx.games.doppelx.play.view import doppel_x_line
        from rules.doppelx.bets import load_bet_cards

        every = load_bet_cards()
        assert doppel_x_line(every).endswith("only A and H")
        four = {k: every[k] for k in "ABCD"}  # A–D in play: H is not named (third playtest)
        assert doppel_x_line(four) == "Doppel X! No other die pays; of the bets only A"
        assert doppel_x_line({k: every[k] for k in "BC"}) == "Doppel X! No other die pays, nor any bet"
        ctrl.handle(flick(ctrl))
        assert ctrl.stage is Stage.FLIGHT and ctrl.snapshot().banner == ""
        assert "Doppel X" not in ctrl.snapshot().activity  # the next throw has started
    finally:
        ctrl.close()


def test_the_help_the_log_and_the_menu_hold_the_game_while_they_are_open():
    """Third playtest: reading the help for 10 s, a player came back seven bot throws and seven
    bets passed by themselves later. While an overlay covers the table nothing moves on: no bet
    passes, no hold runs out, no bot throws; closed, the game goes on where it stood."""
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        ctrl.ui.overlay_open = True  # H, L or Esc
        start, log = ctrl.time, len(ctrl.game.log)
        for _ in range(int(3 * ctrl.bet_time / ctrl.frame_dt)):
            ctrl.step()
        assert ctrl.stage is Stage.BET and ctrl.time == start and len(ctrl.game.log) == log
        assert "red" not in ctrl.passed
        ctrl.ui.overlay_open = False
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert "red" in ctrl.passed and ctrl.time - start <= ctrl.bet_time + 2 * ctrl.frame_dt
    finally:
        ctrl.close()


def test_a_countdown_nearly_out_gets_a_few_seconds_back_when_an_overlay_closes():
    """Eleventh playtest: with the question's last second left the player opened the throw log;
    closing it moved the picture, their click landed where a card had been, and the bet passed
    by itself. Closing the help, the log or the menu leaves a question at least RESUME_GRACE."""
    from doppelx.games.doppelx.play.controller import RESUME_GRACE

    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        while ctrl.snapshot().countdown > 0.5:
            ctrl.step()
        ctrl.ui.overlay_open = True  # L
        for _ in range(10):
            ctrl.step()
        ctrl.ui.overlay_open = False
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert "red" in ctrl.passed
        assert ctrl.time - start == pytest.approx(RESUME_GRACE, abs=2 * ctrl.frame_dt)
    finally:
        ctrl.close()


def test_the_countdown_stands_while_the_person_points_at_a_card():
    """Seventh to ninth playtests: bets passed by themselves while the player read a card. While
    the pointer rests on a card in play the question waits (and says so); off the cards, or on
    no card in play, it runs on from where it stood."""
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        letter = ctrl.table.cards[0].letter
        ctrl.ui.pointer_card = "Z"  # no card in play: the countdown runs
        ctrl.step()
        left = ctrl.snapshot().countdown
        assert left < ctrl.bet_time and "passes in" in ctrl.snapshot().message
        ctrl.ui.pointer_card = letter
        for _ in range(int((POINT_HOLD_MAX - 1.0) / ctrl.frame_dt)):
            ctrl.step()
        snap = ctrl.snapshot()
        assert ctrl.stage is Stage.BET and "red" not in ctrl.passed
        assert snap.countdown == pytest.approx(left) and "waits while you point at a card" in snap.message
        ctrl.ui.pointer_card = None
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert "red" in ctrl.passed and ctrl.time - start == pytest.approx(left, abs=2 * ctrl.frame_dt)
    finally:
        ctrl.close()


def test_a_pointer_left_on_a_card_holds_a_countdown_for_a_while_not_for_good():
    """Tenth playtest: a pointer resting on a card's edge after a flick held a bot's throw for
    15 s and more, and the table looked hung. A countdown stands at most POINT_HOLD_MAX while the
    pointer rests on a card, then runs on (and the line says so again)."""
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        ctrl.ui.pointer_card = ctrl.table.cards[0].letter
        start, left = ctrl.time, ctrl._until - ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert "red" in ctrl.passed
        assert ctrl.time - start == pytest.approx(POINT_HOLD_MAX + left, abs=3 * ctrl.frame_dt)
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


def test_a_person_who_bets_by_clicking_sees_the_throws_countdown_and_holds_it_on_a_card():
    """Ninth playtest: with "pass" a bot's throw gave 2 s to click a card, with no countdown;
    the bet came in only by clicking again and again. The line counts down, and while the
    pointer rests on a card in play the throw waits; off the cards it comes."""
    ctrl = PlayController(FakeUi())
    try:
        setup = GameSetup.standard(3, 1, seed=0)
        setup.next_bets(0)  # the person bets by clicking a card

        def may_click(c):
            if c.stage is Stage.THROW:
                c.handle(flick(c))
            return c.stage is Stage.WAIT and bool(c._clickers()) and c._then is not None

        ctrl.new_game(setup)
        run_until(ctrl, may_click)
        assert "click a bet card to bet on this throw · the throw comes in 2 s" in ctrl.snapshot().message
        shown, left = ctrl.throws_shown, ctrl._until - ctrl.time
        ctrl.ui.pointer_card = ctrl.table.cards[2].letter
        for _ in range(int(min(3 * left, POINT_HOLD_MAX - 1.0) / ctrl.frame_dt)):
            ctrl.step()
        assert ctrl.stage is Stage.WAIT and ctrl.throws_shown == shown
        assert ctrl.snapshot().message.endswith("· waits while you point at a card")
        ctrl.ui.pointer_card = None
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.WAIT)
        assert ctrl.time - start == pytest.approx(left, abs=2 * ctrl.frame_dt)
    finally:
        ctrl.close()


def test_a_bet_stands_on_its_card_while_the_dice_roll_and_goes_back_once_they_rest():
    """Ninth playtest: after the result said "Player 1 bet C 0" the die still lay on card C and
    the scoreboard still said "bet C", as if the bet stood. Settled when the dice rest, the bet
    dice go back to their owners (D30); the summary says what each bet paid."""
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)
        assert ctrl.stage is Stage.BET and ctrl.bettor == "red"
        ctrl.handle(BetIntent("b"))
        ctrl.handle(flick(ctrl))
        rolling = ctrl.snapshot()
        assert ctrl.stage is Stage.FLIGHT and rolling.bets == {"red": "B"}
        assert [line.note for line in rolling.scoreboard if line.colour == "red"] == ["bet B"]
        run_until(ctrl, lambda c: c.stage is Stage.RESULT)
        rest = ctrl.snapshot()
        assert rest.bets == {} and not any(line.note.startswith("bet") for line in rest.scoreboard)
        assert "Bo bet B" in " ".join(ctrl.summary)
    finally:
        ctrl.close()


def _result_hold(ctrl):
    """Seconds the next result stands before the game goes on, and its summary."""
    run_until(ctrl, lambda c: c.stage is Stage.RESULT)
    start, summary = ctrl.time, ctrl.summary
    run_until(ctrl, lambda c: c.stage is not Stage.RESULT)
    return ctrl.time - start, summary


def test_a_bots_result_stays_long_enough_to_read_but_never_keeps_a_person_waiting():
    """Issue 32: bot results flashed by (1.6 s for eight dice's worth of summary). Before a bot's
    throw the result holds for the time its words take to read; before a person's, as before."""
    from doppelx.games.doppelx.play.controller import (
        BOT_PAUSE,
        READ_WORDS_PER_S,
        RESULT_HOLD,
        reading_hold,
    )

    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(8, 0, seed=3))
        held, summary = _result_hold(ctrl)  # the setup throw: eight dice to read about
        words = sum(1 for line in summary for w in line.split() if w not in ("·", "="))
        assert words / READ_WORDS_PER_S - BOT_PAUSE > RESULT_HOLD + 1.0  # a long read ...
        assert held >= reading_hold(summary) - 1e-9 > RESULT_HOLD + 1.0  # ... and the time to read it
        assert ctrl.summary == summary and ctrl.stage is Stage.WAIT  # still shown until the bot throws
    finally:
        ctrl.close()
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(8, 1, seed=3, names=("Ann",)))
        ctrl.handle(flick(ctrl))  # Ann's setup die; she throws first after the setup
        held, summary = _result_hold(ctrl)
        assert reading_hold(summary) > RESULT_HOLD + 1.0
        assert held <= RESULT_HOLD + 2 * ctrl.frame_dt and ctrl.stage is Stage.THROW
    finally:
        ctrl.close()


def test_a_persons_own_result_stays_before_a_bot_throws(monkeypatch):
    """Fourteenth playtest: 4.4 s after the person's release a bot's throw was already on screen.
    A person's own result, with a bot next, stays at least OWN_RESULT_HOLD, and as long as its new
    items take to read (read whole, an 8-player summary held the full 8 s: fifteenth playtest)."""
    from doppelx.games.doppelx.play import controller
    from doppelx.games.doppelx.play.controller import reading_hold

    monkeypatch.setattr(controller, "OWN_RESULT_HOLD", 6.0)  # longer than this result's reading
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(3, 1, seed=3, names=("Ann",)))
        ctrl.handle(flick(ctrl))  # Ann's setup die
        run_until(ctrl, lambda c: c.stage is Stage.THROW and c.thrower == "blue")
        ctrl.handle(flick(ctrl))
        read = ctrl._read_summary  # the summary shown before Ann's throw, read by now
        held, summary = _result_hold(ctrl)
        assert ctrl.stage is not Stage.THROW  # a bot is next
        assert reading_hold(summary, read) < 6.0
        want = max(6.0, reading_hold(summary, read))
        assert want - 1e-9 <= held <= want + 2 * ctrl.frame_dt
    finally:
        ctrl.close()


def test_a_decider_says_why_it_is_thrown_and_that_a_tie_throws_again():
    """Issue 32: the decider (D37) was barely explained. The throw that ties the game at the mark,
    and every decider throw, say on screen that there is a tie, who throws and that the most
    points win; a tied round says they throw again."""
    from doppelx.games.doppelx.play import view

    ctrl = PlayController(FakeUi())
    try:
        # seed 4, target 5, 8 easy bots: the setup throw's Doppel X ties Yellow, Purple and Pink at 10
        ctrl.new_game(GameSetup.standard(8, 0, "easy", seed=4, target=5))
        run_until(ctrl, lambda c: c.stage is Stage.RESULT)
        game = ctrl.game
        assert str(game.phase) == "decider" and game.decider_players == ("yellow", "purple", "pink")
        note = ctrl.snapshot().message
        assert note == (
            "Tie at 10 chips: Yellow, Purple and Pink throw a decider — each throws their die and the "
            "white die, the board cleared first, most points wins"
        )
        run_until(ctrl, lambda c: c.stage is Stage.WAIT)
        assert ctrl.snapshot().message == note and "Decider: Yellow" in ctrl.snapshot().turn
        run_until(ctrl, lambda c: c.stage is Stage.RESULT)  # Yellow's decider throw rests
        points = game.decider_points["yellow"]
        assert ctrl.snapshot().message == f"{note} · so far Yellow {points}"
        # the labels say what counts in a decider (points), not chips it does not pay (issue 32)
        labels = [f.text for f in ctrl.snapshot().floating]
        assert labels and not any(t.startswith("+") for t in labels), labels
        counted = [t for t in labels if t.endswith(("point", "points"))]
        assert counted and sum(int(t.split()[0]) for t in counted) == points, labels
        # a round with equal best points: they throw again
        game.decider_history.append({"yellow": 4, "purple": 4, "pink": 1})
        game.decider_round, game.decider_points, game.decider_players = 2, {}, ("yellow", "purple")
        assert view.decider_note(game) == (
            "Decider round 1 tied (Yellow 4, Purple 4, Pink 1): Yellow and Purple throw again, most points wins"
        )
        game.decider_history.pop()
    finally:
        ctrl.close()


def test_enter_ends_a_bots_reading_hold_and_the_next_bot_throws_after_its_pause():
    """Issue 33 goal 1 with issue 32's reading hold: a reader who has read a bot's result presses
    Enter ("Enter: go on" is shown) and the game goes on at once — from the rest to the next
    bot's release is then the pause before a bot's throw, not the time to read eight dice."""
    from doppelx.games.doppelx.play.controller import BOT_PAUSE, RESULT_HOLD, reading_hold
    from render.intents import Command, CommandIntent

    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(8, 0, seed=3))
        run_until(ctrl, lambda c: c.stage is Stage.RESULT)
        start = ctrl.time
        assert reading_hold(ctrl.summary) > RESULT_HOLD + 1.0  # a long read is coming
        assert ctrl.snapshot().message == "Enter: go on"
        ctrl.handle(CommandIntent(Command.GO_ON))
        run_until(ctrl, lambda c: c.stage is not Stage.RESULT)
        assert ctrl.time - start <= 2 * ctrl.frame_dt  # the hold ended at once ...
        assert ctrl.stage is Stage.WAIT and ctrl.summary  # ... the summary still shown
        run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
        assert ctrl.time - start <= BOT_PAUSE + 3 * ctrl.frame_dt  # the bot threw after its pause
        assert not ctrl.go_on()  # in flight there is no hold to end
    finally:
        ctrl.close()


def test_a_reading_hold_reads_only_what_the_last_summary_did_not_say():
    """A die still lying where it lay is summed up in the same words throw after throw; the time
    to read a summary counts only the items (the pieces between " · ") the one before it did not
    show — with several dice lying every bot's result held the full 8 s (fifth playtest)."""
    from doppelx.games.doppelx.play.controller import BOT_PAUSE, READ_WORDS_PER_S, reading_hold, summary_items

    before = ("blue 1 on 1x = 1 · green 3 on 3x = 9 · red 2 on 2x = 4", "= Blue +1 · Green +9 · Red +4")
    after = ("blue 1 on 1x = 1 · green 3 on 3x = 9 · white X = 0", "= Blue +1 · Green +9")
    assert summary_items(after) == [
        "blue 1 on 1x = 1",
        "green 3 on 3x = 9",
        "white X = 0",
        "Blue +1",
        "Green +9",
    ]
    assert reading_hold(after, before) == pytest.approx(
        max(1.6, 3 / READ_WORDS_PER_S - BOT_PAUSE)
    )  # "white X 0"
    words = sum(1 for line in after for w in line.split() if w not in ("·", "="))
    assert reading_hold(after) == pytest.approx(words / READ_WORDS_PER_S - BOT_PAUSE)  # nothing read before
    assert reading_hold(after, after) == pytest.approx(1.6)  # all read: the shortest hold


def test_a_bots_result_holds_for_what_is_new_in_it():
    """Through the game: each bot's result holds for the words its summary adds to the last one;
    over an 8-bot game that is shorter than re-reading every summary whole (and never longer)."""
    from doppelx.games.doppelx.play.controller import reading_hold

    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(8, 0, seed=3))
        shorter, previous = 0, ()
        for _ in range(8):
            held, summary = _result_hold(ctrl)
            assert held == pytest.approx(reading_hold(summary, previous), abs=2 * ctrl.frame_dt)
            assert reading_hold(summary, previous) <= reading_hold(summary)
            shorter += reading_hold(summary, previous) < reading_hold(summary) - 0.5
            previous = summary
        assert shorter >= 3, shorter
    finally:
        ctrl.close()


def test_a_card_clicked_when_nobody_may_bet_is_told_why():
    """Seventh playtest: a click on a card when the player could not bet said nothing about
    betting. The snapshot says why a click on a card bets nothing now, person by person —
    setup throw, the thrower, a bet passed, a die lying on the playfield, a throw rolling."""
    from doppelx.games.doppelx.play import view
    from render.intents import Command, CommandIntent

    ctrl = PlayController(FakeUi())
    try:
        setup = GameSetup.standard(4, 2, seed=55, names=("Ann", "Bo"))
        ctrl.new_game(setup)
        assert ctrl.stage is Stage.THROW
        assert ctrl.snapshot().card_note.startswith("No bets on the setup throw")
        ctrl.handle(flick(ctrl))
        ctrl.handle(flick(ctrl))
        run_until(ctrl, lambda c: c.stage is Stage.FLIGHT)
        assert ctrl.snapshot().card_note.startswith("Bets come before a throw")
        run_until(ctrl, lambda c: c.stage is Stage.BET)  # Bo is asked before Ann's throw
        assert ctrl.bettor == "red" and ctrl.snapshot().bettable
        ctrl.handle(CommandIntent(Command.PASS))
        snap = ctrl.snapshot()
        assert ctrl.stage is Stage.THROW and not snap.bettable
        assert snap.card_note == (
            "No bet now: Ann (blue) throws this time: the thrower does not bet · Bo (red) passed on this throw"
        )
        game = ctrl.game
        game.on_board["red"] = game.on_board.get("blue") or next(iter(game.on_board.values()))
        assert (
            "Bo (red)'s die lies on the playfield — only a die in hand may bet" in ctrl.snapshot().card_note
        )
        # while a throw rolls or its result holds, what keeps a person from the next throw's bets
        # is said too (eighth playtest: its die on the board, it read only "bets come before a throw")
        ctrl.stage = Stage.RESULT
        assert ctrl.snapshot().card_note == (
            "Bets come before a throw: the cards you may bet on light up green · Ann (blue) throws next: "
            "the thrower does not bet · Bo (red)'s die lies on the playfield — only a die in hand may bet"
        )
        assert view.no_bet_note(game, (), "turn", True) == ""  # bots only: nobody to tell
    finally:
        ctrl.close()


def test_a_bet_asked_right_after_a_result_has_the_time_to_read_it_too():
    """Seventh playtest: the bet question comes 1.6 s after the dice rest, while the result is
    being read, and passed 6 s later — missed twice. The first question after a result has
    :data:`BET_SECONDS` plus the reading the hold left undone (the summary's new words at 3/s,
    up to 8 s in all); a question that follows another has :data:`BET_SECONDS`."""
    from doppelx.games.doppelx.play.controller import RESULT_HOLD, bet_seconds, reading_time

    assert bet_seconds(["white X = 0"]) == BET_SECONDS  # read within the hold
    long = ["blue 3 on 1x = 3 · red 2 on 2x = 4 · white X = 0", "green 1 on 3x = 3 · yellow 2 on 1x = 2"]
    assert bet_seconds(long) == pytest.approx(BET_SECONDS + reading_time(long) - RESULT_HOLD)
    assert bet_seconds(long, read=long) == BET_SECONDS  # nothing new to read
    assert bet_seconds(long * 10) == pytest.approx(BET_SECONDS + 8.0 - RESULT_HOLD)
    ctrl = PlayController(FakeUi())
    try:
        setup_thrown(ctrl)  # the setup throw's result of four dice, then Bo is asked
        assert ctrl.stage is Stage.BET and ctrl.bet_time > BET_SECONDS
        assert ctrl.bet_time == pytest.approx(bet_seconds(ctrl.summary, ctrl._read_summary))
        start = ctrl.time
        run_until(ctrl, lambda c: c.stage is not Stage.BET)
        assert ctrl.time - start == pytest.approx(ctrl.bet_time, abs=2 * ctrl.frame_dt)
    finally:
        ctrl.close()


def test_a_setup_die_flicked_is_said_to_wait_in_hand_while_the_next_person_throws():
    """Seventh playtest (hot seat): while Bo threw his setup die, Ann's, flicked before him, was
    nowhere. The activity line says whose setup dice are thrown and wait in hand."""
    ctrl = PlayController(FakeUi())
    try:
        ctrl.new_game(GameSetup.standard(4, 2, seed=55, names=("Ann", "Bo")))
        assert ctrl.stage is Stage.THROW and "in hand" not in ctrl.snapshot().activity
        ctrl.handle(flick(ctrl))  # Ann's setup die
        snap = ctrl.snapshot()
        assert ctrl.stage is Stage.THROW and ctrl.thrower == "red"
        assert snap.activity == "Ann (blue): thrown, in hand — all dice leave together"
        ctrl.handle(flick(ctrl))
        assert "in hand" not in ctrl.snapshot().activity
    finally:
        ctrl.close()


def test_a_loaded_game_does_not_ask_again_who_passed_and_a_question_waits_for_the_table(tmp_path):
    """Twelfth playtest: Bo had passed ("no bet this time"), the game was saved and loaded, and Bo
    was asked again — with 1–2 s of the countdown left, the rest gone while the table was
    prepared. The save keeps who passed on the coming throw (and the line that said so); a
    question still open at the save is asked again after the load's look at the table."""
    from doppelx.games.doppelx.play.controller import LOAD_HOLD

    path = tmp_path / "game.json"
    a = PlayController(FakeUi(), save_path=path)
    b = PlayController(FakeUi(), save_path=path)
    try:
        setup_thrown(a)
        assert a.stage is Stage.BET and a.bettor == "red"
        a.handle(CommandIntent(Command.SAVE))  # saved while Bo's question is open
        b.handle(CommandIntent(Command.LOAD))
        assert b.stage is Stage.BET and b.bettor == "red"
        assert b.snapshot().countdown == pytest.approx(b.bet_time + LOAD_HOLD)
        a.handle(CommandIntent(Command.PASS))  # N: Bo passes
        assert "red" in a.passed and a.stage is not Stage.BET
        said = list(a.passes_said)
        a.handle(CommandIntent(Command.SAVE))
        assert json.loads(path.read_text())["passes"] == {"passed": ["red"], "said": said}
        b.handle(CommandIntent(Command.LOAD))
        run_until(b, lambda c: c.stage is Stage.THROW)
        assert b.thrower == "blue" and "red" in b.passed and b.passes_said == said
        assert b.bettor is None  # Bo is not asked again
    finally:
        a.close()
        b.close()
