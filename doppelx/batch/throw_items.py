"""Batch item ``throws``: one active player's turn — their die and the white die thrown by
a bot policy onto the board (optionally with K other dice lying), run to rest, read, scored.

One row per throw (columns in ``docs/batch.md``): the throw's settings, for the coloured die
(``c_``) and the white die (``w_``) status, resting place, face, field and chips, the
active player's chips, Doppel X, and what each of the 8 bet cards would pay a bettor.
"""

from __future__ import annotations

import math
from typing import Any

from doppelx.batch.plan import RunSpec
from doppelx.batch.world_cache import table_specs, world_for
from rules.bets import card_pays, load_bet_cards
from rules.dice import WHITE
from rules.outcome import Status
from rules.rng import child_rng
from rules.scoring import score_throw

DEFAULTS: dict[str, Any] = {
    "board": "I",
    "thrower": "blue",
    "skill": "medium",
    "policy": "greedy",
    "lying": 0,
    "spinner": True,
}


def run_chunk(spec: RunSpec, index: int) -> list[dict[str, Any]]:
    """The rows of chunk ``index`` of a throws run."""
    from doppelx.bots import throw_policy
    from physics.run import run_throw
    from physics.scene import scatter_lying
    from physics.throw_model import SKILLS, aimed_throw

    p = {**DEFAULTS, **spec.params}
    board, dice = table_specs(p)
    world = world_for(p)
    box = world.box
    colour = p["thrower"]
    die = dice[colour]
    skill = SKILLS[p["skill"]]
    cards = load_bet_cards()
    spare = [c for c in dice.player_colours if c != colour]
    rows = []
    for i in spec.chunk(index):
        rng = child_rng(spec.seed, i)
        lying = scatter_lying(board, box, dice, spare[: p["lying"]], rng) if p["lying"] else {}
        aim = throw_policy(p["policy"], skill, rng).aim(board, die, box)
        throw = aimed_throw(box, aim, [colour, WHITE], skill, rng, die.size)
        result = run_throw(world, throw, lying, watch=True)
        seats = list(dict.fromkeys([colour, *lying, *spare]))[: max(3, 1 + len(lying))]
        score = score_throw(
            result.outcome, board, dice, seats=seats, active=colour, chips={}, lying_before=set(lying)
        )
        active = [score.reading(colour), score.reading(WHITE)]
        flung = [
            r for r in score.readings if r.owner in lying and result.outcome.get(r.owner).touched_spinner
        ]
        row: dict[str, Any] = {
            "item": i,
            "board": p["board"],
            "thrower": colour,
            "skill": p["skill"],
            "policy": p["policy"],
            "lying": len(lying),
            "aim_x": aim.target[0],
            "aim_y": aim.target[1],
            "strength": aim.strength,
        }
        for prefix, r in (("c", active[0]), ("w", active[1])):
            row.update(
                {
                    f"{prefix}_status": r.status.value,
                    f"{prefix}_x": r.x,
                    f"{prefix}_y": r.y,
                    f"{prefix}_top": r.top,
                    f"{prefix}_field": None if r.field is None else r.field.value,
                    f"{prefix}_cocked": r.cocked,
                    f"{prefix}_tilt_deg": None if r.tilt is None else math.degrees(r.tilt),
                    f"{prefix}_chips": 0 if score.doppel_x else _chips(r),
                }
            )
        row["chips"] = score.players[colour].dice + score.players[colour].doppel_x
        row["doppel_x"] = score.doppel_x
        row["lying_moved_to_hole"] = sum(r.owner in lying and r.status is Status.HOLE for r in score.readings)
        for letter, card in cards.items():
            row[f"bet_{letter}"] = card_pays(
                card, doppel_x=score.doppel_x, active_dice=active, flung_by_spinner=flung
            )
        row.update(
            {
                "sim_s": result.sim_time,
                "steps": result.steps,
                "settled": result.settled,
                "tunnelled": len(result.tunnelled),
            }
        )
        rows.append(row)
    return rows


def _chips(reading) -> int:
    from rules.reading import chips_for

    return chips_for(reading)
