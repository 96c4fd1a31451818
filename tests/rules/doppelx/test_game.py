"""The game state machine (D21–D30, D36–D38): setup, turns, bets, dice going home, the end."""

from __future__ import annotations

import pytest

from rules.common.errors import RulesError
from rules.doppelx.game import DoppelXGame, GameOptions, Phase
from rules.doppelx.outcome import ThrowOutcome
from tests.helpers.outcomes import flat, gone

SEATS = ("blue", "yellow", "green", "red")


def new_game(side_i, dice, seats=SEATS, **opts):
    return DoppelXGame(seats, side_i, dice, options=GameOptions(**opts) if opts else None)


def lying(game, dice):
    """The lying dice of the current request, left exactly where they are."""
    return [flat_from_pose(o, p) for o, p in game.request().lying.items()]


def flat_from_pose(owner, pose):
    from rules.doppelx.outcome import DieOutcome, Status

    return DieOutcome(owner, Status.BOARD, pose)


def setup(game, dice, spots):
    """Setup throw: ``spots`` maps colour → (x, y, face) or a status string."""
    out = []
    for c in game.seats:
        s = spots.get(c, "hole")
        out.append(gone(c, s) if isinstance(s, str) else flat(dice, c, *s))
    return game.apply_throw(ThrowOutcome(tuple(out)))


def test_player_count_and_colours(side_i, dice):
    with pytest.raises(RulesError, match="3–8 players"):
        DoppelXGame(("blue", "red"), side_i, dice)
    with pytest.raises(RulesError, match="3–8 players"):
        DoppelXGame(dice.player_colours + ("white",), side_i, dice)
    with pytest.raises(RulesError, match="white"):
        DoppelXGame(("blue", "red", "white"), side_i, dice)
    with pytest.raises(RulesError, match="colour of their own"):
        DoppelXGame(("blue", "red", "blue"), side_i, dice)


def test_d22_setup_throw_scores_without_white_and_sends_hole_dice_home(side_i, dice):
    g = new_game(side_i, dice)
    req = g.request()
    assert req.kind == "setup" and set(req.dice) == set(SEATS) and req.thrower is None
    s = setup(g, dice, {"blue": (0, 0, "2"), "yellow": "off", "green": (-100, -20, "3")})
    assert s.players["blue"].after == 4 and s.players["green"].after == 3
    assert g.location("blue") == "board" and g.location("yellow") == "hand" and g.location("red") == "hand"
    assert g.phase is Phase.TURN and g.active == "blue"  # D23: seat 0 starts


def test_d23_d24_d28_turn_order_and_what_is_thrown(side_i, dice):
    g = new_game(side_i, dice, first_seat=2)
    setup(g, dice, {"blue": (0, 0, "2"), "red": (-100, -20, "1")})
    for expected in ("green", "red", "blue", "yellow", "green"):
        req = g.request()
        assert req.thrower == expected and req.dice == (expected, "white")
        assert expected not in req.lying and "white" not in req.lying  # D24: taken from anywhere
        g.apply_throw(ThrowOutcome((gone(expected), gone("white"), *lying(g, dice))))


def test_d26_d27_lying_dice_stay_and_hit_dice_go_home(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {"yellow": (0, 0, "2"), "green": (-100, -20, "3"), "red": (67, 40, "1")})
    before = g.request().lying
    assert set(before) == {"yellow", "green", "red"}
    # blue's throw knocks green into a hole; yellow is pushed; red untouched
    out = (
        flat(dice, "blue", 100, -50, "1"),
        flat(dice, "white", -51, 75, "3"),
        gone("green"),
        flat(dice, "yellow", 5, 3, "2"),
        flat_from_pose("red", before["red"]),
    )
    s = g.apply_throw(ThrowOutcome(out))
    assert g.location("green") == "hand" and g.location("yellow") == "board"
    assert g.on_board["yellow"].position[0] == pytest.approx(0.005)
    assert s.players["green"].dice == 0 and s.players["yellow"].dice == 4
    assert g.location("white") == "board"


def test_outcome_must_hold_thrown_and_lying_dice(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {"yellow": (0, 0, "2")})
    with pytest.raises(RulesError, match="lacks die 'yellow'"):
        g.apply_throw(ThrowOutcome((gone("blue"), gone("white"))))
    with pytest.raises(RulesError, match="neither thrown nor on the board"):
        g.apply_throw(ThrowOutcome((gone("blue"), gone("white"), gone("yellow"), gone("red"))))


def test_d29_who_may_bet(side_i, dice):
    g = new_game(side_i, dice)
    with pytest.raises(RulesError, match="no bets now"):
        g.place_bet("yellow", "A")
    setup(g, dice, {"yellow": (0, 0, "2")})
    assert g.eligible_bettors() == ["green", "red"]
    with pytest.raises(RulesError, match="active player"):
        g.place_bet("blue", "A")
    with pytest.raises(RulesError, match="lies on the playfield"):
        g.place_bet("yellow", "A")
    with pytest.raises(RulesError, match="not in play"):
        g.place_bet("green", "G")
    with pytest.raises(RulesError, match="not a player"):
        g.place_bet("pink", "A")
    g.place_bet("green", "c")
    g.place_bet("red", "C")  # several players may bet on the same card
    assert g.location("green") == "bet:C"


def test_d30_bets_pay_and_dice_return_to_hand(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {})
    g.place_bet("green", "C")
    g.place_bet("red", "D")
    s = g.apply_throw(ThrowOutcome((flat(dice, "blue", 0, 0, "1"), gone("white"))))
    assert s.players["green"].bets == 3 and s.players["red"].bets == 0
    assert g.chips["green"] == 3 and g.location("green") == "hand" and g.bets == {}
    assert g.eligible_bettors() == ["green", "red"]  # yellow is active, blue lies on the board


def test_d20_doppel_x_removes_x_dice(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {"yellow": (67, 40, "X"), "green": (-100, -20, "3")})
    s = g.apply_throw(
        ThrowOutcome((flat(dice, "blue", 0, 0, "X"), flat(dice, "white", -51, 75, "2"), *lying(g, dice)))
    )
    assert s.doppel_x
    assert g.chips == {"blue": 10, "yellow": 10, "green": 3, "red": 0}
    assert g.location("yellow") == "hand" and g.location("blue") == "hand"
    assert g.location("green") == "board" and g.location("white") == "board"


def run_to_target(g, dice, per_throw_face="3"):
    """Blue keeps throwing gold 3s (9), others throw into holes, until the game ends."""
    while g.phase is Phase.TURN:
        a = g.active
        die = flat(dice, a, -51, 75, per_throw_face) if a == "blue" else gone(a)
        g.apply_throw(ThrowOutcome((die, gone("white"), *lying(g, dice))))


def test_d36_game_ends_at_50_for_3_to_5_players(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {})
    run_to_target(g, dice)
    assert g.is_terminal() and g.winner == "blue" and g.chips["blue"] >= 50
    assert g.target == 50
    with pytest.raises(RulesError, match="over"):
        g.request()


def test_d36_target_is_70_for_6_to_8_players(side_i, dice):
    assert DoppelXGame(dice.player_colours[:6], side_i, dice).target == 70
    assert DoppelXGame(dice.player_colours[:5], side_i, dice).target == 50


def test_d37_highest_wins_when_several_pass_the_mark(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {})
    g.chips.update({"blue": 45, "yellow": 47})
    g.on_board["yellow"] = flat(dice, "yellow", 0, 0, "3").pose  # yellow's lying 3 on 2x brings 6
    g.apply_throw(ThrowOutcome((flat(dice, "blue", -51, 75, "3"), gone("white"), *lying(g, dice))))
    assert g.chips["blue"] == 54 and g.chips["yellow"] == 53
    assert g.winner == "blue"


def test_d37_tie_plays_a_decider(side_i, dice):
    g = new_game(side_i, dice)
    setup(g, dice, {})
    g.chips.update({"blue": 45, "yellow": 48})
    g.on_board["yellow"] = flat(dice, "yellow", -100, -20, "3").pose  # +3 → 51
    g.apply_throw(ThrowOutcome((flat(dice, "blue", 0, 0, "3"), gone("white"), *lying(g, dice))))  # +6 → 51
    assert g.phase is Phase.DECIDER and g.decider_players == ("blue", "yellow") and g.winner is None
    assert g.on_board == {}
    # round 1: both score 6 → another round
    for c in ("blue", "yellow"):
        req = g.request()
        assert req.kind == "decider" and req.thrower == c and req.lying == {}
        g.apply_throw(ThrowOutcome((flat(dice, c, 0, 0, "3"), gone("white"))))
    assert g.phase is Phase.DECIDER and g.decider_round == 2
    g.apply_throw(ThrowOutcome((flat(dice, "blue", -100, -20, "1"), gone("white"))))
    g.apply_throw(ThrowOutcome((flat(dice, "yellow", -100, -20, "2"), gone("white"))))
    assert g.winner == "yellow" and g.is_terminal()
    assert g.decider_history == [{"blue": 6, "yellow": 6}, {"blue": 1, "yellow": 2}]


def test_d7_option_rethrows_cocked_active_dice(side_i, dice):
    import math

    from rules.doppelx.outcome import DieOutcome, Pose, Status

    g = new_game(side_i, dice, rethrow_cocked=True)
    setup(g, dice, {})
    a = math.radians(35) / 2
    cocked = DieOutcome("blue", Status.BOARD, Pose((0.0, 0.0, 0.01), (math.sin(a), 0.0, 0.0, math.cos(a))))
    s = g.apply_throw(ThrowOutcome((cocked, gone("white"))))
    assert s.rethrow and g.active == "blue" and g.chips["blue"] == 0
    s = g.apply_throw(ThrowOutcome((flat(dice, "blue", 0, 0, "3"), gone("white"))))
    assert not s.rethrow and g.chips["blue"] == 6 and g.active == "yellow"


def test_d38_rim_penalty_option(side_i, dice):
    for penalty, expected in ((False, 6), (True, 5)):
        g = new_game(side_i, dice, rim_penalty=penalty)
        setup(g, dice, {})
        g.apply_throw(ThrowOutcome((flat(dice, "blue", 0, 0, "3"), gone("white")), hand_over_rim=True))
        assert g.chips["blue"] == expected


def test_d36_the_setup_throws_scoring_can_end_the_game(side_i, dice):
    """With a low target (a house option) the setup throw's scoring may already reach it."""
    g = new_game(side_i, dice, target=4)
    setup(g, dice, {"blue": (0, 0, "2"), "green": (-100, -20, "3")})  # blue 4 (2 on 2x), green 3
    assert g.phase is Phase.FINISHED and g.winner == "blue"
    tie = new_game(side_i, dice, target=3)
    setup(tie, dice, {"blue": (-100, -20, "3"), "green": (-100, 20, "3")})
    assert tie.chips["blue"] == tie.chips["green"] == 3  # both 3 on 1x: a tie at the mark (D37)
    assert tie.phase is Phase.DECIDER and set(tie.decider_players) == {"blue", "green"}
    below = new_game(side_i, dice, target=50)
    setup(below, dice, {"blue": (0, 0, "2")})
    assert below.phase is Phase.TURN and below.active == "blue"  # D23: seat 0 starts
