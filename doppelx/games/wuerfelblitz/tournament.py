"""Würfelblitz bots-only games and batches with their statistics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from doppelx.games.wuerfelblitz.bots import BlitzBot
from rules.common.rng import child_rng
from rules.wuerfelblitz import BlitzSpec, BlitzState, Call, GameConfig, new_game


def bot_calls(state: BlitzState, bots: dict[int, BlitzBot], rng: np.random.Generator) -> list[Call]:
    """Every bot's call on the throw on the table, in seat order."""
    throw = state.throw
    assert throw is not None  # called once the throw is on the table
    calls = []
    for seat in sorted(bots):
        c = bots[seat].call(seat, throw, state.config.variant, rng)
        if c is not None:
            calls.append(c)
    return calls


def play_bots_game(
    spec: BlitzSpec, config: GameConfig, bots: Sequence[BlitzBot], rng: np.random.Generator
) -> BlitzState:
    """Play one whole game between ``bots`` (seat i = ``bots[i]``) and return the final state."""
    if len(bots) != config.players:
        raise ValueError(f"{config.players} players need {config.players} bots, got {len(bots)}")
    state = new_game(spec, config, rng)
    seats = dict(enumerate(bots))
    while not state.is_terminal():
        state.apply_chance(state.sample_chance(rng))
        state.apply_calls(bot_calls(state, seats, rng))
    return state


@dataclass(frozen=True)
class BatchStats:
    """Figures of a bots-only batch.

    Attributes:
        games: games played.
        seed: the batch seed (game i used ``child_rng(seed, i)``).
        names: bot names in seat order.
        wins: games won per seat (a shared win counts for each sharer).
        shared: games won by more than one bot in the same round.
        mean_rounds, min_rounds, max_rounds: game length in rounds.
    """

    games: int
    seed: int
    names: tuple[str, ...]
    wins: tuple[int, ...]
    shared: int
    mean_rounds: float
    min_rounds: int
    max_rounds: int

    def to_json(self) -> dict:
        return {
            "game": "wuerfelblitz",
            "games": self.games,
            "seed": self.seed,
            "players": list(self.names),
            "wins": dict(zip(self.names, self.wins)),
            "shared_wins": self.shared,
            "mean_rounds": self.mean_rounds,
            "min_rounds": self.min_rounds,
            "max_rounds": self.max_rounds,
        }


def run_batch(
    spec: BlitzSpec,
    config: GameConfig,
    bots: Sequence[BlitzBot],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> BatchStats:
    """Play ``games`` bots-only games; game i uses ``child_rng(seed, i)``."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    wins = [0] * len(bots)
    rounds = []
    shared = 0
    for i in range(games):
        state = play_bots_game(spec, config, bots, child_rng(seed, i))
        winners = state.winners()
        for p in winners:
            wins[p] += 1
        shared += len(winners) > 1
        rounds.append(len(state.history))
        if progress is not None:
            progress(i + 1)
    return BatchStats(
        games,
        seed,
        tuple(b.name for b in bots),
        tuple(wins),
        shared,
        float(np.mean(rounds)),
        int(min(rounds)),
        int(max(rounds)),
    )
