"""Doppelt so clever bots-only games and batches: the seeding of a game, one game, statistics."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from doppelx.games.clever.bots import make_bot
from rules.clever.game import CleverGame, CleverState
from rules.common.rng import child_rng
from rules.contract import chance_step


def game_generators(seed: int, index: int, seats: int) -> list[np.random.Generator]:
    """Generators of game ``index`` of a batch seeded ``seed``: the dice first, then one per seat.

    All are children of ``child_rng(seed, index)``, so the dice do not depend on the bots'
    own random draws.
    """
    seq = child_rng(seed, index).bit_generator.seed_seq
    assert isinstance(seq, np.random.SeedSequence)  # child_rng seeds from a SeedSequence
    streams = seq.spawn(seats + 1)
    return [np.random.Generator(np.random.PCG64(s)) for s in streams]


def play_game(kinds: Sequence[str], seed: int, index: int = 0) -> CleverState:
    """Play one game of bots ``kinds`` (one per seat); game ``index`` of a batch seeded ``seed``."""
    dice, *own = game_generators(seed, index, len(kinds))
    bots = [make_bot(kind, rng) for kind, rng in zip(kinds, own)]
    state = CleverGame(len(kinds)).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, dice)
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state


def summarize(kinds: Sequence[str], states: Sequence[CleverState], seed: int) -> dict:
    """Per seat: bot, mean, min, max of the totals and wins (a shared win counts 1/k each)."""
    totals = [[s.scores()[seat] for s in states] for seat in range(len(kinds))]
    wins = [0.0] * len(kinds)
    for state in states:
        winners = state.winners()
        for seat in winners:
            wins[seat] += 1.0 / len(winners)
    bots = [
        {
            "seat": seat + 1,
            "bot": kind,
            "mean": round(sum(t) / len(t), 2) if t else 0.0,
            "min": min(t) if t else 0,
            "max": max(t) if t else 0,
            "wins": round(wins[seat], 2),
        }
        for seat, (kind, t) in enumerate(zip(kinds, totals))
    ]
    return {"game": "clever", "players": len(kinds), "games": len(states), "seed": seed, "bots": bots}


def batch_stats(kinds: Sequence[str], games: int, seed: int) -> dict:
    """Play ``games`` games (game i from ``child_rng(seed, i)``) and :func:`summarize` them."""
    return summarize(kinds, [play_game(kinds, seed, i) for i in range(games)], seed)
