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

from doppelx.batch.params import GAME_DEFAULTS, spinning
from doppelx.batch.plan import RunSpec
from doppelx.batch.tidy import PREFIX, bet_rows, die_rows
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
                **tidy_rows(i, match, colours, skills, summary, spinning(p, board)),
            }
        )
    return rows


def tidy_rows(
    item: int, match, colours: list[str], skills: list[str], summary: dict, spinner: bool = True
) -> dict[str, list]:
    """Game ``item``'s rows of the tidy tables ``games``, ``seats``, ``turns``, ``dice`` and
    ``bets`` (:mod:`doppelx.batch.tidy`), keyed ``tidy_<table>``; ``spinner``: the board's
    spinner turns (else the dice's ``touched`` is null)."""
    seat = {c: k for k, c in enumerate(colours)}
    turns, dice, bets = [], [], []
    own_turns = [0] * len(colours)
    own_chips = [0] * len(colours)
    for rec in match.log:
        sc, req = rec.score, rec.request
        me = req.thrower
        active = seat.get(me) if me is not None else None
        placed = {seat[c]: card for c, card in rec.bets.items() if c in seat}
        paid = {card: sc.players[c].bets for c, card in rec.bets.items() if c in sc.players}
        if req.kind == "turn" and active is not None and not sc.rethrow:
            own_turns[active] += 1
            own_chips[active] += sc.players[me].change
        out = sum(
            r.owner in req.lying and r.owner in seat and r.status.value in ("hole", "off")
            for r in sc.readings
        )
        turns.append(
            {
                "item": item,
                "turn": rec.number,
                "kind": req.kind,
                "rethrow": sc.rethrow,
                "active_seat": active,
                "active_skill": None if active is None else skills[active],
                "chips_before": [sc.players[c].before if c in sc.players else None for c in colours],
                "chips_after": [sc.players[c].after if c in sc.players else None for c in colours],
                "change": None if me is None or me not in sc.players else sc.players[me].change,
                "doppel_x": sc.doppel_x,
                "bets_placed": len(placed),
                "bets_paid": sum(paid.values()),
                "rivals_out": int(out),
            }
        )
        dice += die_rows(item, rec.number, sc, rec.result.outcome, req.dice, seat, spinner)
        bets += bet_rows(item, rec.number, paid, placed)
    winner = seat[summary["winner"]]
    game = {
        "item": item,
        "players": len(colours),
        "winner_seat": winner,
        "winner": summary["winner"],
        "throws": len(match.log),
        "turns": sum(own_turns),
        "decider_rounds": len(summary["decider_rounds"]),
        "doppel_x": sum(int(t["doppel_x"]) for t in turns),
        "bets_placed": len(bets),
        "bets_won": sum(b["paid"] for b in bets),
        "tunnelled": sum(len(rec.result.tunnelled) for rec in match.log),
    }
    seats = [
        {
            "item": item,
            "seat": k,
            "colour": c,
            "skill": skills[k],
            "won": k == winner,
            "final_chips": int(summary["chips"][c]),
            "turns": own_turns[k],
            "own_chips": own_chips[k],
        }
        for k, c in enumerate(colours)
    ]
    return {
        PREFIX + "games": [game],
        PREFIX + "seats": seats,
        PREFIX + "turns": turns,
        PREFIX + "dice": dice,
        PREFIX + "bets": bets,
    }
