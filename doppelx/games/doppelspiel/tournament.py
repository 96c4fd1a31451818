"""Das Doppel Spiel bots-only games and batches with their statistics."""

from __future__ import annotations

import numpy as np

from doppelx.games.doppelspiel.bots import make_bot
from rules.common.rng import child_rng
from rules.doppelspiel.spec import DoppelSpec
from rules.doppelspiel.state import DoppelState


def play_game(
    bots, rng: np.random.Generator, first_player: int = 0, spec: DoppelSpec | None = None, on_action=None
) -> DoppelState:
    """Play one game between two bots; chance outcomes come from ``rng``."""
    state = DoppelState(spec, first_player)
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            if on_action is not None:
                on_action(state, outcome)
            state.apply_chance(outcome)
            continue
        action = bots[state.current_player()].act(state, rng)
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
    return state


def batch_game(names: list[str], seed: int, index: int, spec: DoppelSpec | None = None) -> dict:
    """Game ``index`` of a bots-only batch: dice from ``child_rng(seed, index)``, bots by name.

    The bots take turns to start: ``names[0]`` starts the even games. Returns per bot (in
    the order of ``names``) the grand total and the match points, and which bot won
    (``None`` on a draw).
    """
    if len(names) != 2:
        raise ValueError(f"a game has two players, got {len(names)} bots")
    first = index % 2
    seat_of = [first, 1 - first]  # seat_of[k] = player index of bot k
    bots: list = [None, None]
    for k, name in enumerate(names):
        bots[seat_of[k]] = make_bot(name)
    state = play_game(bots, child_rng(seed, index), first_player=0, spec=spec)
    result = state.result()
    return {
        "scores": [state.scores()[seat_of[k]] for k in range(2)],
        "points": [result.points[seat_of[k]] for k in range(2)],
        "winner": None if result.winner is None else seat_of.index(result.winner),
    }


def summarise(names: list[str], games: list[dict], seed: int) -> dict:
    """Statistics of :func:`batch_game` records.

    Returns:
        ``{"game", "games", "seed", "bots", "per_bot": {label: {"mean", "min", "max",
        "mean_match_points", "wins"}}, "draws"}``; labels are the bot names, numbered if
        both bots are the same.
    """
    labels = list(names) if names[0] != names[1] else [f"{names[0]}#1", f"{names[1]}#2"]
    per_bot = {}
    for k, label in enumerate(labels):
        scores = [g["scores"][k] for g in games]
        per_bot[label] = {
            "mean": round(float(np.mean(scores)), 2),
            "min": int(min(scores)),
            "max": int(max(scores)),
            "mean_match_points": round(float(np.mean([g["points"][k] for g in games])), 3),
            "wins": sum(1 for g in games if g["winner"] == k),
        }
    return {
        "game": "doppelspiel",
        "games": len(games),
        "seed": seed,
        "bots": labels,
        "per_bot": per_bot,
        "draws": sum(1 for g in games if g["winner"] is None),
    }


def run_batch(names: list[str], games: int, seed: int, spec: DoppelSpec | None = None) -> dict:
    """Play ``games`` bots-only games (see :func:`batch_game`) and summarise them (:func:`summarise`)."""
    return summarise(names, [batch_game(names, seed, i, spec) for i in range(games)], seed)
