"""One serialiser of a throw's outcome: every JSON shape (and the text table) built from one place.

A throw is shown in six public shapes, each documented where it is read:

* :func:`outcome_json` — each die's status and pose as physics left it (``doppelx throw
  --json`` ``outcome``);
* :func:`state_json` — the outcome as a ``doppelx-state/1`` table state that ``doppelx score``
  reads back (docs/score-schema.md);
* :func:`score_report` — the referee's scoring of every die and player (``doppelx score
  --json``, ``doppelx throw --json`` ``score``; docs/score-schema.md), and
  :func:`format_report`, its plain-text table;
* :func:`throw_json` — ``doppelx throw --json``, and :func:`describe_throw`, its plain text;
* :func:`turn_summary` — one throw of a match (``doppelx game --json`` ``log``);
* :func:`reading_columns` — a die's columns of a batch throws row (docs/batch.md).

Each shape takes its fields from the same few readers (:func:`_pose`, :func:`_reading`),
so a field means the same and is written the same way in every shape. The shapes stay
byte-compatible with what the commands printed before they shared this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.doppelx.outcome import Status
from rules.doppelx.reading import DieReading

if TYPE_CHECKING:
    from doppelx.games.doppelx.throw_service import MatchLogEntry
    from physics.result import ThrowResult
    from physics.throw import Throw
    from physics.throw_model import Aim
    from rules.doppelx.board import BoardSide
    from rules.doppelx.outcome import DieOutcome, ThrowOutcome
    from rules.doppelx.scoring import ThrowScore


def _pose(d: DieOutcome) -> dict[str, list[float]]:
    pose = d.pose
    assert pose is not None, f"die {d.owner} has no pose"  # physics outcomes always carry one
    return {"position": list(pose.position), "quaternion": list(pose.quaternion)}


def _reading(r: DieReading) -> dict[str, Any]:
    """The fields every shape of a read die shares (status, face, field)."""
    return {
        "status": r.status.value,
        "top": r.top,
        "field": None if r.field is None else r.field.value,
        "field_id": r.field_id,
        "cocked": r.cocked,
    }


# -- physics' outcome ------------------------------------------------------------------
def outcome_json(outcome: ThrowOutcome) -> list[dict[str, Any]]:
    """Every die: owner, status, position (m), quaternion ``(x, y, z, w)``, touched the spinner."""
    return [
        {"owner": d.owner, "status": d.status.value, **_pose(d), "touched_spinner": d.touched_spinner}
        for d in outcome.dice
    ]


def state_json(
    board: str,
    seats: Iterable[str],
    active: str | None,
    chips: Mapping[str, int],
    outcome: ThrowOutcome,
    spinner_off: bool = False,
) -> dict[str, Any]:
    """The outcome as a ``doppelx-state/1`` table state (``doppelx score --state`` reads it);
    ``spinner_off``: the side's spinner was left off (written ``"spinner": false``)."""
    dice = []
    for d in outcome.dice:
        entry: dict[str, Any] = {
            "owner": d.owner,
            "status": d.status.value,
            "touched_spinner": d.touched_spinner,
        }
        if d.status.value == "board":
            entry.update(_pose(d))
        dice.append(entry)
    return {
        "format": "doppelx-state/1",
        "board": board,
        "seats": list(seats),
        "active": active,
        "chips": dict(chips),
        "dice": dice,
        "hand_over_rim": outcome.hand_over_rim,
        **({"spinner": False} if spinner_off else {}),
    }


def sim_json(result: ThrowResult, engine: str | None = None) -> dict[str, Any]:
    """The physics figures of a run: simulated time, steps, settling, tunnelling, spinner (and engine)."""
    out = {
        "sim_time": round(result.sim_time, 4),
        "steps": result.steps,
        "settled": result.settled,
        "unsettled": list(result.unsettled),
        "tunnelled": list(result.tunnel_events),
        "spinner_angle": round(result.spinner_angle, 6),
        "hand_over_rim": result.outcome.hand_over_rim,
    }
    if engine is not None:
        out["engine"] = engine
    return out


# -- the referee's scoring ---------------------------------------------------------------
def score_report(score: ThrowScore, board: BoardSide, bets: Mapping[str, str]) -> dict[str, Any]:
    """The JSON-ready scoring of one throw (public schema, see docs/score-schema.md)."""
    kinds = {f.id: f.kind.value for f in board.fields}
    dice = []
    for r, d in zip(score.readings, score.dice, strict=True):
        fields = _reading(r)
        on_board = r.status is Status.BOARD
        dice.append(
            {
                "owner": r.owner,
                "status": fields["status"],
                "top": fields["top"],
                "tilt_deg": None if r.tilt is None else round(math.degrees(r.tilt), 3),
                "cocked": fields["cocked"] if on_board else None,  # null off the board (schema)
                "touched": [{"id": fid, "kind": kinds[fid]} for fid in r.touched],
                "field": fields["field"],
                "field_id": fields["field_id"],
                "chips": d.chips,
                "scores_for": d.scores_for,
            }
        )
    players = {
        c: {
            "dice": p.dice,
            "bets": p.bets,
            "doppel_x": p.doppel_x,
            "before": p.before,
            "after": p.after,
            "change": p.change,
            "bet": bets.get(c),
        }
        for c, p in score.players.items()
    }
    return {
        "board": board.name,
        "active": score.active,
        "doppel_x": score.doppel_x,
        "dice": dice,
        "players": players,
    }


def format_report(report: dict) -> str:
    """A plain-text table of :func:`score_report`."""
    lines = [
        f"board {report['board']}   active: {report['active'] or '(setup throw)'}"
        f"   {'DOPPEL X!' if report['doppel_x'] else ''}".rstrip(),
        "",
        f"{'die':<8} {'status':<6} {'top':<4} {'field':<6} {'chips':>5}  touched",
    ]
    for d in report["dice"]:
        touched = ", ".join(f"{t['kind']} ({t['id']})" for t in d["touched"])
        cocked = " cocked" if d["cocked"] else ""
        lines.append(
            f"{d['owner']:<8} {d['status']:<6} {d['top'] or '-':<4} {d['field'] or '-':<6} "
            f"{d['chips']:>5}  {touched}{cocked}"
        )
    lines += ["", f"{'player':<8} {'dice':>5} {'bets':>5} {'dblX':>5} {'before':>7} {'after':>6}"]
    for c, p in report["players"].items():
        bet = f"  (bet on {p['bet']})" if p["bet"] else ""
        lines.append(
            f"{c:<8} {p['dice']:>5} {p['bets']:>5} {p['doppel_x']:>5} {p['before']:>7} {p['after']:>6}{bet}"
        )
    return "\n".join(lines)


# -- doppelx throw ------------------------------------------------------------------------
def throw_json(
    *,
    board: BoardSide,
    board_ref: str,
    seed: int,
    aim: Aim,
    throw: Throw,
    result: ThrowResult,
    engine: str,
    seats: Sequence[str],
    active: str | None,
    chips: Mapping[str, int],
    spinner_off: bool,
    report: dict[str, Any],
    replay: str | None,
) -> dict[str, Any]:
    """``doppelx throw --json``: the aim, the release, the physics, the outcome, the state
    ``doppelx score`` reads (the board named ``board_ref``: a side's name, or the file as
    given) and the :func:`score_report`."""
    out = {
        "board": board.name,
        "seed": seed,
        "aim": {
            "target_mm": [round(aim.target[0] * 1e3, 6), round(aim.target[1] * 1e3, 6)],  # nm: no float noise
            "strength": aim.strength,
            "side": aim.wall,
        },
        "throw": throw.to_dict(),
        "sim": sim_json(result, engine=engine),
        "outcome": outcome_json(result.outcome),
        "state": state_json(board_ref, seats, active, chips, result.outcome, spinner_off=spinner_off),
        "score": report,
    }
    if replay:
        out["replay"] = replay
    return out


def describe_throw(throw: Throw, result: ThrowResult, aim: Aim) -> str:
    """``doppelx throw``'s plain text of the aim, the release of every die and the physics."""
    lines = [
        f"aim: first impact ({aim.target[0] * 1e3:.0f}, {aim.target[1] * 1e3:.0f}) mm, "
        f"strength {aim.strength:.2f}"
    ]
    for r in throw.releases:
        speed = math.sqrt(sum(v * v for v in r.velocity))
        spin = math.sqrt(sum(w * w for w in r.angular_velocity))
        lines.append(
            f"  {r.owner:<7} released at ({r.position[0] * 1e3:.0f}, {r.position[1] * 1e3:.0f}, "
            f"{r.position[2] * 1e3:.0f}) mm, {speed:.2f} m/s, tumbling {spin:.0f} rad/s"
        )
    state = (
        "came to rest"
        if result.settled
        else f"stopped at the time cap, still moving: {', '.join(result.unsettled)}"
    )
    lines.append(f"physics: {state} after {result.sim_time:.2f} s simulated ({result.steps} steps)")
    for d in result.outcome.dice:
        assert d.pose is not None  # physics outcomes always carry one
        x, y, z = (v * 1e3 for v in d.pose.position)
        touched = "  touched the spinner" if d.touched_spinner else ""
        lines.append(f"  {d.owner:<7} {d.status.value:<6} at ({x:.1f}, {y:.1f}, {z:.1f}) mm{touched}")
    if result.tunnel_events:
        lines.append(f"  WARNING tunnelling: {', '.join(result.tunnel_events)}")
    return "\n".join(lines)


# -- a throw of a match --------------------------------------------------------------------
def turn_summary(rec: MatchLogEntry) -> dict[str, Any]:
    """A JSON-ready summary of one throw: dice, scoring per player, bets, physics figures."""
    score = rec.score
    dice = [{"owner": r.owner, **_reading(r)} for r in score.readings]
    players = {
        c: {"dice": p.dice, "bets": p.bets, "doppel_x": p.doppel_x, "after": p.after, "change": p.change}
        for c, p in score.players.items()
    }
    res = rec.result
    return {
        "number": rec.number,
        "kind": rec.request.kind,
        "thrower": rec.request.thrower,
        "thrown": list(rec.request.dice),
        "bets": rec.bets,
        "doppel_x": score.doppel_x,
        "rethrow": score.rethrow,
        "dice": dice,
        "players": players,
        "touched_spinner": [d.owner for d in res.outcome.dice if d.touched_spinner],
        "sim_time": round(res.sim_time, 4),
        "settled": res.settled,
    }


# -- a batch row -----------------------------------------------------------------------------
def reading_columns(prefix: str, r: DieReading, chips: int) -> dict[str, Any]:
    """A die's columns of a batch throws row: ``<prefix>_status``, ``_x``, ``_y``, ``_top``, … (docs/batch.md);
    ``chips``: what the die brings by itself (:attr:`rules.doppelx.scoring.DieScore.chips`)."""
    fields = _reading(r)
    return {
        f"{prefix}_status": fields["status"],
        f"{prefix}_x": r.x,
        f"{prefix}_y": r.y,
        f"{prefix}_top": fields["top"],
        f"{prefix}_field": fields["field"],
        f"{prefix}_cocked": fields["cocked"],
        f"{prefix}_tilt_deg": None if r.tilt is None else math.degrees(r.tilt),
        f"{prefix}_chips": chips,
    }
