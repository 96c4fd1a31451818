"""The planner's rollouts: its lighter world, and ``exact`` rollouts that are the game's very throw."""

from __future__ import annotations

import dataclasses

from doppelx.games.doppelx.match import DoppelXMatch
from doppelx.games.doppelx.planner.rollout import GAME, PLANNING, rollout, world_of
from doppelx.games.doppelx.planner.snapshot import table_of
from physics.engine import make_world
from physics.run import run_throw
from physics.settings import SimSettings
from physics.throw_model import SKILLS, Aim, aimed_throw
from rules.doppelx.game import GameOptions
from tests.helpers.planner import BOARD


def test_the_planners_world_is_the_games_with_coarser_sub_steps_and_still_no_tunnelling():
    assert SimSettings() == GAME
    assert dataclasses.replace(GAME, max_travel=0.006) == PLANNING
    # a 16 mm die meeting a 3 mm wall is pushed out the right way while it overlaps less than
    # half the two thicknesses (docs/physics.md, "Stepping"): one sub-step's travel must stay under
    assert PLANNING.max_travel < (0.016 + 0.003) / 2


def test_an_exact_rollout_is_the_games_throw_and_a_planned_one_is_its_own_and_repeatable():
    m = DoppelXMatch.with_bots(4, BOARD, 3, skill=["medium"] * 4, options=GameOptions(target=100))
    try:
        for _ in range(5):
            m.play_throw()
        t = table_of(m, m.request())
    finally:
        m.close()
    aim, skill = Aim((0.02, 0.01), 0.5), SKILLS["hard"]
    exact = rollout(t, aim, skill, t.rng(4, 1), exact=True)
    game_world = make_world(t.board, box=t.box, dice=t.dice, spinner=t.spinner)
    try:
        throw = aimed_throw(t.box, aim, list(t.thrown), skill, t.rng(4, 1), t.dice[t.thrower].size)
        direct = run_throw(game_world, throw, dict(t.lying), t.spinner_angle, watch=False)
    finally:
        game_world.close()
    assert exact.outcome == direct.outcome and exact.steps == direct.steps
    planned = rollout(t, aim, skill, t.rng(4, 1))
    assert world_of(t) is not world_of(t, GAME) and world_of(t).settings == PLANNING
    assert planned.steps < exact.steps  # the same release in fewer, longer sub-steps
    assert rollout(t, aim, skill, t.rng(4, 1)).outcome == planned.outcome
