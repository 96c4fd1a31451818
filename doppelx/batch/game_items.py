"""Batch item ``games``: one whole game of bots through physics, one row per game.

Columns (``docs/batch.md``): players, board, winner and the winner's seat, throws, decider
rounds, Doppel X count, each seat's final chips, and per seat its skill, the chips it won
on each of its own throws and how many rivals' dice each of its throws sent into a hole or
off the box. With ``skills`` every seat has its own skill; with ``rotate`` game ``i``
shifts them by ``i`` seats (an expert seat goes round the table).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from doppelx.batch.params import GAME_DEFAULTS
from doppelx.batch.plan import RunSpec
from doppelx.batch.world_cache import service_for, table_specs
from rules.common.rng import child_rng

DEFAULTS = GAME_DEFAULTS  # the one table (doppelx.batch.params)


def seat_skills(p: dict[str, Any], players: int, item: int) -> list[str]:
    """The skill of every seat in game ``item`` (``skills`` rotated by ``item`` with ``rotate``)."""
    skills = list(p["skills"] or [p["skill"]] * players)
    if p["rotate"]:
        k = item % players
        skills = skills[-k:] + skills[:-k] if k else skills
    return skills


def own_throw_figures(match, colours) -> tuple[list[list[int]], list[list[int]]]:
    """Per seat: its chip change on each of its own turns, and the rivals' dice each sent into a hole or off."""
    changes: dict[str, list[int]] = {c: [] for c in colours}
    knocked: dict[str, list[int]] = {c: [] for c in colours}
    for rec in match.log:
        me = rec.request.thrower
        if rec.request.kind != "turn" or me is None or rec.score.rethrow:
            continue
        changes[me].append(int(rec.score.players[me].change))
        out = 0
        for r in rec.score.readings:
            if r.owner in rec.request.lying and r.owner in colours and r.status.value in ("hole", "off"):
                out += 1
        knocked[me].append(out)
    return [changes[c] for c in colours], [knocked[c] for c in colours]


def start_game(seed: int, item: int, p: dict[str, Any], board, dice, world, bot_for=None):
    """Game ``item`` of a games run of ``seed``, set up and not yet played.

    Returns the match, the seat colours and the seat skills. ``bot_for(skill)`` may give a
    seat's bot (``None``: the usual bot of that skill), e.g. a benchmark's own; such a seat
    draws nothing from the game's stream, so the other seats get the same bots either way.
    """
    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.bots import DoppelXBot, bet_policy, throw_policy
    from doppelx.games.doppelx.match import DoppelXMatch
    from doppelx.games.doppelx.policies import EXPERT
    from physics.throw_model import SKILLS
    from rules.doppelx.game import DoppelXGame, GameOptions

    colours = list(dice.player_colours[: p["players"]])
    rng = child_rng(seed, item)
    match_seed = int(rng.integers(2**63))
    skills = seat_skills(p, len(colours), item)
    bots = {}
    for c, s in zip(colours, skills):
        bot = bot_for(s) if bot_for is not None else None
        if bot is None:
            bot = (
                make_bot(EXPERT, p["think"])
                if s == EXPERT
                else DoppelXBot(throw_policy(p["policy"], SKILLS[s], rng), bet_policy(p["bet"], rng))
            )
        bots[c] = bot
    game = DoppelXGame(colours, board, dice, cards=p["cards"], options=GameOptions(target=p["target"]))
    return DoppelXMatch(game, bots, match_seed, world), colours, skills


def run_chunk(spec: RunSpec, index: int) -> list[dict[str, Any]]:
    """The rows of chunk ``index`` of a games run."""
    p = {**DEFAULTS, **spec.params}
    board, dice = table_specs(p)
    world = service_for(p).world
    rows = []
    for i in spec.chunk(index):
        match, colours, skills = start_game(spec.seed, i, p, board, dice, world)
        summary = match.play()
        doppel = sum(rec.score.doppel_x for rec in match.log)
        own_changes, own_knocked = own_throw_figures(match, colours)
        rows.append(
            {
                "item": i,
                "board": p["board"],
                "players": len(colours),
                "skill": p["skill"] if not p["skills"] else ",".join(p["skills"]),
                "seat_skills": skills,
                "own_changes": own_changes,
                "own_knocked": own_knocked,
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
