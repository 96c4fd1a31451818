"""Batch item ``throws``: one active player's turn — their die and the white die thrown by
a bot policy onto the board (optionally with K other dice lying), run to rest, read, scored.

One row per throw (columns in ``docs/batch.md``): the throw's settings, for the coloured die
(``c_``) and the white die (``w_``) status, resting place, face, field and chips, the
active player's chips, Doppel X, and what each of the 8 bet cards would pay a bettor (the
wide table the report reads), and the throw's rows of the tidy tables ``throws``, ``dice``
and ``bets`` (:mod:`doppelx.batch.tidy`). With ``lying_in_reach`` the first that many lying
dice lie within the spinner's reach (:func:`physics.scene.scatter_lying`), so bet G can pay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from doppelx.batch.params import THROW_DEFAULTS, spinning
from doppelx.batch.plan import RunSpec
from doppelx.batch.tidy import PREFIX, bet_rows, die_rows
from doppelx.batch.world_cache import service_for, table_specs
from doppelx.games.doppelx.throw_report import reading_columns
from rules.common.rng import child_rng
from rules.doppelx.bets import card_pays, load_bet_cards
from rules.doppelx.dice import WHITE
from rules.doppelx.outcome import Status
from rules.doppelx.scoring import flung_by_spinner

if TYPE_CHECKING:
    from doppelx.games.doppelx.throw_service import ThrowService
    from physics.throw_model import Skill
    from rules.doppelx.board import BoardSide
    from rules.doppelx.dice import DiceSet
    from rules.doppelx.reading import DieReading
    from rules.doppelx.scoring import DieScore, ThrowScore

DEFAULTS = THROW_DEFAULTS  # the one table (doppelx.batch.params)


@dataclass(frozen=True)
class ThrowTable:
    """What every throw of a run shares: its parameters, board, dice, physics service, the
    thrower's die and skill, and the other players' colours (the lying dice's owners)."""

    p: dict[str, Any]
    board: BoardSide
    dice: DiceSet
    service: ThrowService
    colour: str
    skill: Skill
    spare: list[str]


def throw_table(spec: RunSpec) -> ThrowTable:
    """The table the throws of ``spec`` are made on (the world cached per process)."""
    from physics.throw_model import SKILLS

    p = {**DEFAULTS, **spec.params}
    board, dice = table_specs(p)
    colour = p["thrower"]
    spare = [c for c in dice.player_colours if c != colour]
    return ThrowTable(p, board, dice, service_for(p), colour, SKILLS[p["skill"]], spare)


def item_throw(t: ThrowTable, seed: int, i: int):
    """Item ``i``'s lying dice, aim and throw, drawn from child seed ``i`` of ``seed``:
    ``(lying, aim, throw)`` — everything the item runs, before the physics."""
    from doppelx.games.doppelx.bots import throw_policy
    from physics.scene import scatter_lying

    p, board, service = t.p, t.board, t.service
    rng = child_rng(seed, i)
    lying = (
        scatter_lying(board, service.box, t.dice, t.spare[: p["lying"]], rng, in_reach=in_reach(p, board))
        if p["lying"]
        else {}
    )
    aim = service.aim(throw_policy(p["policy"], t.skill, rng), t.colour)
    throw = service.release(aim, [t.colour, WHITE], t.skill, rng, t.dice[t.colour].size)
    return lying, aim, throw


def run_chunk(spec: RunSpec, index: int) -> list[dict[str, Any]]:
    """The rows of chunk ``index`` of a throws run."""
    from doppelx.games.doppelx.throw_service import Seating

    t = throw_table(spec)
    p, board, dice, service, colour, spare = t.p, t.board, t.dice, t.service, t.colour, t.spare
    cards = load_bet_cards()
    spins = spinning(p, board)
    fling_possible = spins and p["lying"] > 0 and in_reach(p, board) > 0
    rows = []
    for i in spec.chunk(index):
        lying, aim, throw = item_throw(t, spec.seed, i)
        seats = list(dict.fromkeys([colour, *lying, *spare]))[: max(3, 1 + len(lying))]
        seating = Seating(tuple(seats), colour, {}, lying_before=lying)
        turn = service.play(throw, lying, seating, watch=True)
        result, score = turn.result, turn.score
        thrown = {owner: _thrown(score, owner) for owner in (colour, WHITE)}
        active = [thrown[colour][0], thrown[WHITE][0]]
        flung = flung_by_spinner(result.outcome, score.readings, lying, board, dice)
        row: dict[str, Any] = {
            "item": i,
            "board": p["board"],
            "thrower": colour,
            "skill": p["skill"],
            "policy": p["policy"],
            "lying": len(lying),
            "lying_in_reach": in_reach(p, board) if lying else 0,
            "aim_x": aim.target[0],
            "aim_y": aim.target[1],
            "strength": aim.strength,
        }
        for prefix, owner in (("c", colour), ("w", WHITE)):
            reading, die_score = thrown[owner]
            row.update(reading_columns(prefix, reading, die_score.chips))
        row["chips"] = score.players[colour].dice + score.players[colour].doppel_x
        row["doppel_x"] = score.doppel_x
        row["lying_moved_to_hole"] = sum(r.owner in lying and r.status is Status.HOLE for r in score.readings)
        # card G (a fling by the spinner) cannot pay without the spinner or a lying die in its
        # reach (the others are scattered clear of its sweep): not measured, so null, not 0
        pays = {
            letter: None
            if card.condition == "spinner_fling" and not fling_possible
            else card_pays(card, doppel_x=score.doppel_x, active_dice=active, flung_by_spinner=flung)
            for letter, card in cards.items()
        }
        for letter, paid in pays.items():
            row[f"bet_{letter}"] = paid
        row.update(
            {
                "sim_s": result.sim_time,
                "steps": result.steps,
                "settled": result.settled,
                "tunnelled": len(result.tunnelled),
            }
        )
        row[PREFIX + "throws"] = [
            {
                "item": i,
                "throw": 1,
                "thrower": colour,
                "lying": len(lying),
                "lying_in_reach": in_reach(p, board) if lying else 0,
                "aim_x_mm": aim.target[0] * 1e3,
                "aim_y_mm": aim.target[1] * 1e3,
                "strength": aim.strength,
                "chips": row["chips"],
                "doppel_x": score.doppel_x,
                "lying_moved_to_hole": row["lying_moved_to_hole"],
                "sim_s": result.sim_time,
                "settled": result.settled,
                "tunnelled": len(result.tunnelled),
            }
        ]
        row[PREFIX + "dice"] = die_rows(i, 1, score, result.outcome, (colour, WHITE), spinner=spins)
        row[PREFIX + "bets"] = bet_rows(i, 1, pays, {None: ""})
        rows.append(row)
    return rows


def _thrown(score: ThrowScore, owner: str) -> tuple[DieReading, DieScore]:
    """The reading and the score of a die the throw threw (every thrown die is read)."""
    reading, die_score = score.reading(owner), score.die(owner)
    if reading is None or die_score is None:
        raise RuntimeError(f"the thrown die {owner!r} was not read")
    return reading, die_score


def in_reach(p: dict[str, Any], board) -> int:
    """How many of the lying dice lie within the spinner's reach: ``lying_in_reach`` of the
    parameters (``None``: one on a side whose spinner is on, none elsewhere), at most the
    lying dice."""
    want = p.get("lying_in_reach")
    if want is None:
        want = 1 if board.spinner is not None and p.get("spinner") else 0
    return min(int(want), int(p["lying"]))
