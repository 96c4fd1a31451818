"""DoppelX bots: the aim at the best field and the bet on the best card."""

from __future__ import annotations

import math

import pytest
import shapely

from doppelx.games.doppelx.bot_factory import make_bot
from doppelx.games.doppelx.bots import (
    BOUNCE_SD,
    AimAtBestField,
    BestCardBet,
    _gauss_matrix,
    best_spot,
    field_shares,
    value_map,
)
from physics.throw_model import SKILLS
from rules.doppelx.bets import choose_cards
from rules.doppelx.board import FieldKind
from rules.doppelx.board_file import BUILTIN_SIDES, load_board
from rules.doppelx.dice import load_dice

DIE = load_dice()["blue"]


@pytest.mark.parametrize("side", BUILTIN_SIDES)
def test_best_spot_maximises_the_smoothed_value(side):
    board = load_board(side)
    xs, ys, value = value_map(board, DIE)
    sd = math.hypot(SKILLS["hard"].aim_sd, BOUNCE_SD)
    smooth = _gauss_matrix(ys, sd) @ value @ _gauss_matrix(xs, sd).T
    x, y = best_spot(board, DIE, SKILLS["hard"].aim_sd)
    i, j = int(round((x - xs[0]) / (xs[1] - xs[0]))), int(round((y - ys[0]) / (ys[1] - ys[0])))
    assert smooth[j, i] == pytest.approx(smooth.max())
    assert smooth[j, i] > smooth.mean() + 0.2
    assert not any(h.shape.contains(shapely.Point(x, y)) for h in board.holes)


def test_value_map_prices_fields_holes_and_the_spinner():
    board = load_board("III")
    xs, ys, value = value_map(board, DIE)
    assert value.max() == pytest.approx(3 * 1.5)  # 3x field, mean pips 1.5
    assert value.min() == -1.0  # a -1 field
    centre = value[len(ys) // 2, len(xs) // 2]
    assert centre == 0.0  # under the spinner's card


def test_aim_is_short_of_the_spot_and_inside_the_box():
    board = load_board("I")
    aim = AimAtBestField(SKILLS["medium"]).aim(board, DIE)
    spot = best_spot(board, DIE, SKILLS["medium"].aim_sd)
    assert 0.03 < math.dist(aim.target, spot) < 0.06
    assert max(abs(aim.target[0]), abs(aim.target[1])) < 0.135


def test_field_shares_sum_to_one():
    shares = field_shares(load_board("I"))
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares[FieldKind.ONE] > 0.5


def test_bet_picks_the_best_expected_card():
    board = load_board("I")
    bet = BestCardBet()
    # with many dice on the board a Doppel X is likely: card A
    assert bet.choose(board, choose_cards("ABCD"), DIE, 8) == "A"
    # with few dice, blue 1x fields are the safe pay-out: card F among E–H
    assert bet.choose(board, choose_cards("EFGH"), DIE, 2) == "F"
    # G, E, B, D with two dice on the board (Doppel X 1/36 with one X face per die), by hand:
    # B (a die in a hole or off) 2 x 2 dice x 0.08 x 35/36 = 0.31 beats D (3x) 4 x 2 x 0.92 x
    # 3.7 % x 35/36 = 0.26, G (the spinner flings a die) 5 x 0.05 x 35/36 = 0.24 and E (X
    # field) 2 x 2 x 0.92 x 5.0 % x 35/36 = 0.18 on side III
    assert bet.choose(load_board("III"), choose_cards(["G", "E", "B", "D"]), DIE, 2) == "B"
    # G, E, A, H: with the spinner (side III) G's 0.24 beats E's 0.18 and A's Doppel X 5/36 =
    # 0.14; without it (side I) G pays nothing and A (before H, which pays the same) beats E's 0.13
    assert bet.choose(load_board("III"), choose_cards(["G", "E", "A", "H"]), DIE, 2) == "G"
    assert bet.choose(load_board("I"), choose_cards(["G", "E", "A", "H"]), DIE, 2) == "A"


def test_skill_names():
    assert make_bot("hard").throw.skill is SKILLS["hard"]
    with pytest.raises(ValueError):
        make_bot("pro")


def test_the_command_line_offers_exactly_the_bot_skills():
    """One skill list: physics' throwing skills, then the expert, in every command."""
    from doppelx.cli import build_parser
    from doppelx.games.doppelx.policies import BOT_SKILLS

    assert (*SKILLS, "expert") == BOT_SKILLS
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices
    for command in ("game", "play", "simulate"):
        parser = (
            sub[command]
            if command != "simulate"
            else sub[command]._subparsers._group_actions[0].choices["games"]
        )
        assert next(a for a in parser._actions if a.dest == "skill").choices == BOT_SKILLS, command
    assert tuple(next(a for a in sub["throw"]._actions if a.dest == "skill").choices) == tuple(SKILLS)
