"""Running Doppelt oder nichts games between bots, and batch statistics.

Game ``i`` of a batch with seed ``S`` uses ``child_rng(S, i)`` for every chance outcome
and every bot choice, so a batch is reproducible and independent of how it is split.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from doppelx.games.oder_nichts.bots import make_bot
from rules.common.errors import RulesError
from rules.common.rng import child_rng
from rules.contract import chance_step
from rules.oder_nichts.actions import Decision
from rules.oder_nichts.cards import DeckSpec, load_deck
from rules.oder_nichts.state import GameConfig, State, new_game


@dataclass(frozen=True)
class GameSummary:
    """The result of one finished game.

    Attributes:
        winners: players with the fewest minus points (several on a tie).
        minus: final minus points of every player.
        rounds: rounds played.
        turns: turns taken (players acting at their turn).
        decisions: player decisions made (turns, windows, defences, …).
    """

    winners: tuple[int, ...]
    minus: tuple[int, ...]
    rounds: int
    turns: int
    decisions: int


def parse_lineup(text: str, players: int) -> list[str]:
    """Bot names from ``"basic,gambler"``; a single name is used for every player.

    Raises ``ValueError`` naming the problem.
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("name at least one bot")
    for n in names:
        make_bot(n)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        seats = "seat" if players == 1 else "seats"
        raise ValueError(
            f"{len(names)} bots named for {players} bot {seats}: give one name (for every seat) or {players}"
        )
    return names


def play_bots_game(
    config: GameConfig,
    bots: list[str],
    rng: np.random.Generator,
    spec: DeckSpec | None = None,
    max_steps: int = 1_000_000,
) -> tuple[State, GameSummary]:
    """Play one game to its end with the named bots; returns the final state and a summary."""
    state = new_game(config, spec)
    policies = [make_bot(b) for b in bots]
    decisions = 0
    for _ in range(max_steps):
        if state.is_terminal():
            break
        pending = state.pending
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        assert isinstance(pending, Decision)
        action = policies[pending.player].act(state.view(pending.player), pending, state.spec, rng)
        state.apply_action(action)
        decisions += 1
    else:
        raise RulesError(f"the game did not end within {max_steps} steps")
    summary = GameSummary(
        tuple(state.winners()), tuple(state.minus), len(state.rounds), state.table.turns, decisions
    )
    return state, summary


def labels(bots: list[str]) -> list[str]:
    """Statistic labels of the players, e.g. ``P1:basic``."""
    return [f"P{i + 1}:{b}" for i, b in enumerate(bots)]


def run_batch(config: GameConfig, bots: list[str], games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` bot games; returns the statistics as a JSON-ready dict.

    A tie for the fewest minus points counts as a (shared) win for every tied player.
    """
    spec = load_deck()
    names = labels(bots)
    wins = dict.fromkeys(names, 0)
    shared = 0
    rounds = turns = decisions = 0
    minus_sum = [0] * len(bots)
    for i in range(games):
        _, s = play_bots_game(config, bots, child_rng(seed, i), spec)
        for p in s.winners:
            wins[names[p]] += 1
        shared += len(s.winners) > 1
        rounds += s.rounds
        turns += s.turns
        decisions += s.decisions
        for p, m in enumerate(s.minus):
            minus_sum[p] += m
    n = max(games, 1)
    return {
        "game": "oder_nichts",
        "games": games,
        "seed": seed,
        "players": names,
        "target_points": config.target_points if config.target_points is not None else spec.target_points,
        "max_rounds": config.max_rounds,
        "wins": wins,
        "shared_wins": shared,
        "mean_rounds": rounds / n,
        "mean_turns": turns / n,
        "mean_decisions": decisions / n,
        "mean_minus": {names[p]: minus_sum[p] / n for p in range(len(bots))},
    }
