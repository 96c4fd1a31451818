"""Batch item ``games``: one whole game of bots through physics, one row per game.

Columns (``docs/batch.md``): players, board, winner and the winner's seat, throws, decider
rounds, Doppel X count, each seat's final chips.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from doppelx.batch.plan import RunSpec
from doppelx.batch.world_cache import table_specs, world_for
from rules.rng import child_rng

DEFAULTS: dict[str, Any] = {
    "board": "III",
    "players": 4,
    "skill": "medium",
    "policy": "greedy",
    "bet": "best",
    "cards": ["A", "B", "C", "D"],
    "spinner": True,
    "target": None,
}


def run_chunk(spec: RunSpec, index: int) -> list[dict[str, Any]]:
    """The rows of chunk ``index`` of a games run."""
    from doppelx.bots import DoppelXBot, bet_policy, throw_policy
    from doppelx.match import DoppelXMatch
    from physics.throw_model import SKILLS
    from rules.game import DoppelXGame, GameOptions

    p = {**DEFAULTS, **spec.params}
    board, dice = table_specs(p)
    world = world_for(p)
    colours = list(dice.player_colours[: p["players"]])
    rows = []
    for i in spec.chunk(index):
        rng = child_rng(spec.seed, i)
        match_seed = int(rng.integers(2**63))
        bots = {
            c: DoppelXBot(throw_policy(p["policy"], SKILLS[p["skill"]], rng), bet_policy(p["bet"], rng))
            for c in colours
        }
        game = DoppelXGame(colours, board, dice, cards=p["cards"], options=GameOptions(target=p["target"]))
        match = DoppelXMatch(game, bots, match_seed, world)
        summary = match.play()
        doppel = sum(rec.score.doppel_x for rec in match.log)
        rows.append(
            {
                "item": i,
                "board": p["board"],
                "players": len(colours),
                "skill": p["skill"],
                "policy": p["policy"],
                "bet": p["bet"],
                "winner": summary["winner"],
                "winner_seat": colours.index(summary["winner"]),
                "throws": len(match.log),
                "decider_rounds": len(summary["decider_rounds"]),
                "doppel_x": int(doppel),
                "chips": [int(summary["chips"][c]) for c in colours],
                "bets_won": int(
                    np.sum([sum(pl.bets for pl in rec.score.players.values()) for rec in match.log])
                ),
                "tunnelled": sum(len(rec.result.tunnelled) for rec in match.log),
            }
        )
    return rows
