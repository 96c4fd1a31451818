"""A whole DoppelX game as plain JSON data, and back (format ``doppelx-game/1``).

:func:`game_to_dict` writes everything a :class:`rules.doppelx.game.DoppelXGame` knows — seats,
names, options, the bet cards, chips, phase, whose turn, every die lying on the board
with its full pose, the bets on the cards, the decider's state and the log of every
throw with its scoring (readings and per-player results) — as JSON-ready data;
:func:`game_from_dict` checks such data strictly (every mistake names its element, as a
:class:`rules.common.errors.SpecError`) and rebuilds an equal game. Poses are written as the
floats themselves, so a JSON round trip restores them bit for bit and the restored game
scores the next throw exactly as the original would.

The board and the dice are not written out: the caller names the board (the save file of
``doppelx play`` keeps the side's name) and hands the loaded specs back in; the board's
name is checked against the one written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.common.errors import RulesError, SpecError
from rules.common.schema import DataTable, describe
from rules.doppelx.bets import check_bets
from rules.doppelx.board import BoardSide, FieldKind
from rules.doppelx.chips import max_target, target_problem
from rules.doppelx.dice import DiceSet
from rules.doppelx.game import MAX_PLAYERS, MIN_PLAYERS, DoppelXGame, GameLogEntry, GameOptions, Phase
from rules.doppelx.outcome import Pose, Status
from rules.doppelx.placement import check_resting
from rules.doppelx.reading import DieReading
from rules.doppelx.scoring import PlayerScore, ThrowScore

FORMAT = "doppelx-game/1"
#: Most chips (a target or a player's count) a saved game may hold.
MAX_CHIPS = 1_000_000


def _old_target(target: int, players: int) -> str:
    """Why a saved game's target is refused, and how to go on with it: saves made before
    session 10 could hold a target the box cannot pay (the game stopped when it ran dry)."""
    return (
        f"{target_problem(target, players)}; a save made before targets were checked can go on "
        f'with "target" (and "options.target") set to {max_target(players)} or less in the file'
    )


# -- writing ----------------------------------------------------------------------------------
def game_to_dict(game: DoppelXGame) -> dict[str, Any]:
    """Everything ``game`` knows, as JSON-ready data (see the module docstring)."""
    o = game.options
    return {
        "format": FORMAT,
        "board": game.board.name,
        "seats": list(game.seats),
        "names": dict(game.names),
        "options": {
            "target": o.target,
            "rethrow_cocked": o.rethrow_cocked,
            "rim_penalty": o.rim_penalty,
            "first_seat": o.first_seat,
        },
        "cards": list(game.cards),
        "target": game.target,
        "chips": dict(game.chips),
        "phase": str(game.phase),
        "active_seat": game.active_seat,
        "on_board": {owner: pose_to_dict(p) for owner, p in game.on_board.items()},
        "bets": dict(game.bets),
        "winner": game.winner,
        "decider": {
            "players": list(game.decider_players),
            "round": game.decider_round,
            "points": dict(game.decider_points),
            "history": [dict(h) for h in game.decider_history],
        },
        "log": [_record_to_dict(r) for r in game.log],
    }


def pose_to_dict(pose: Pose) -> dict[str, list[float]]:
    """A pose as ``{"position": [x, y, z], "quaternion": [x, y, z, w]}`` (m)."""
    return {"position": [float(v) for v in pose.position], "quaternion": [float(v) for v in pose.quaternion]}


def _record_to_dict(r: GameLogEntry) -> dict[str, Any]:
    return {
        "number": r.number,
        "kind": r.kind,
        "thrower": r.thrower,
        "bets": dict(r.bets),
        "penalty": dict(r.penalty),
        "score": score_to_dict(r.score),
    }


def score_to_dict(s: ThrowScore) -> dict[str, Any]:
    """One throw's scoring (readings and per-player results) as JSON-ready data."""
    return {
        "doppel_x": s.doppel_x,
        "active": s.active,
        "rethrow": s.rethrow,
        "readings": [_reading_to_dict(x) for x in s.readings],
        "players": {
            c: {"dice": p.dice, "bets": p.bets, "doppel_x": p.doppel_x, "before": p.before, "after": p.after}
            for c, p in s.players.items()
        },
    }


def _reading_to_dict(r: DieReading) -> dict[str, Any]:
    return {
        "owner": r.owner,
        "status": r.status.value,
        "top": r.top,
        "tilt": r.tilt,
        "cocked": r.cocked,
        "touched": list(r.touched),
        "field": None if r.field is None else r.field.value,
        "field_id": r.field_id,
        "x": r.x,
        "y": r.y,
    }


# -- reading ----------------------------------------------------------------------------------
def game_from_dict(data: Any, board: BoardSide, dice: DiceSet, source: str = "game state") -> DoppelXGame:
    """Rebuild the game written by :func:`game_to_dict`.

    Args:
        data: the parsed JSON data.
        board: the playfield side named in ``data["board"]``.
        dice: the dice specs.
        source: the file name for error messages.

    Raises:
        SpecError: the data is malformed or inconsistent (the element is named).
    """
    top = DataTable(data, source)
    top.check_keys(
        {
            "format",
            "board",
            "seats",
            "names",
            "options",
            "cards",
            "target",
            "chips",
            "phase",
            "active_seat",
            "on_board",
            "bets",
            "winner",
            "decider",
            "log",
        }
    )
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    if top.string("board") != board.name:
        raise top.error("board", f"the game was played on side {top.string('board')!r}, not {board.name!r}")
    seats = _colour_list(top, "seats", dice)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise top.error("seats", f"expected {MIN_PLAYERS}–{MAX_PLAYERS} player colours, got {len(seats)}")
    names = _names(top, seats)
    opts = top.table("options")
    opts.check_keys({"target", "rethrow_cocked", "rim_penalty", "first_seat"})
    target_opt = opts.raw("target", None)
    if target_opt is not None:
        target_opt = opts.integer("target", minimum=1, maximum=MAX_CHIPS)
        if target_problem(target_opt, len(seats)):
            raise opts.error("target", _old_target(target_opt, len(seats)))
    options = GameOptions(
        target_opt,
        opts.boolean("rethrow_cocked"),
        opts.boolean("rim_penalty"),
        opts.integer("first_seat", minimum=0, maximum=MAX_PLAYERS - 1),
    )
    cards = top.raw("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise top.error("cards", "expected a list of 4 card letters")
    try:
        game = DoppelXGame(seats, board, dice, cards=cards, options=options, names=names)
    except RulesError as exc:
        raise top.error("seats", str(exc)) from None
    game.target = top.integer("target", minimum=1, maximum=MAX_CHIPS)
    if target_problem(game.target, len(seats)):
        raise top.error("target", _old_target(game.target, len(seats)))
    game.chips = _counts(top, "chips", seats, exact=True)
    game.phase = Phase(top.string("phase", choices=tuple(p.value for p in Phase)))
    game.active_seat = top.integer("active_seat", minimum=0)
    if game.active_seat >= len(seats):
        raise top.error("active_seat", f"must be a seat 0–{len(seats) - 1}, got {game.active_seat}")
    game.on_board = _poses(top, "on_board", seats)
    check_resting(game.on_board, board, dice, source, {o: f"on_board.{o}" for o in game.on_board})
    game.bets = _bets(top, game)
    winner = top.raw("winner", None)
    if winner is not None and winner not in seats:
        raise top.error("winner", f"{winner!r} is not one of the seats")
    if (winner is None) != (game.phase is not Phase.FINISHED):
        raise top.error("winner", "a finished game has a winner, and only a finished game")
    game.winner = winner
    _decider(top, game)
    game.log = [_record(t, seats, dice) for t in top.tables("log")]
    for i, r in enumerate(game.log):
        if r.number != i + 1:
            raise SpecError(source, f"log[{i}].number", f"expected {i + 1}, got {r.number}")
    return game


def pose_from_table(t: DataTable, key: str) -> Pose:
    """A pose written by :func:`pose_to_dict` under ``key`` of ``t``."""
    p = t.table(key)
    p.check_keys({"position", "quaternion"})
    q = p.vector("quaternion", 4)
    if abs(sum(v * v for v in q) - 1.0) > 1e-3:
        raise p.error("quaternion", "must be a unit quaternion [x, y, z, w]")
    return Pose(p.vector("position", 3), q)  # type: ignore[arg-type]


def _colour_list(t: DataTable, key: str, dice: DiceSet) -> list[str]:
    value = t.raw(key)
    if not isinstance(value, list):
        raise t.error(key, "expected a list of player colours")
    for i, c in enumerate(value):
        if not isinstance(c, str) or c not in dice.player_colours:
            raise SpecError(
                t.source,
                f"{t.where(key)}[{i}]",
                f"expected a player colour ({', '.join(dice.player_colours)}), got {describe(c)}",
            )
    return list(value)


def _names(top: DataTable, seats: list[str]) -> dict[str, str]:
    t = top.table("names")
    t.check_keys(set(seats))
    return {c: t.string(c, c) for c in seats}


def _counts(top: DataTable, key: str, allowed: list[str], exact: bool = False) -> dict[str, int]:
    t = top.table(key)
    t.check_keys(set(allowed))
    if exact:
        missing = [c for c in allowed if not t.has(c)]
        if missing:
            raise t.error(missing[0], "missing")
    return {c: t.integer(c, minimum=0, maximum=MAX_CHIPS) for c in allowed if t.has(c)}


def _poses(top: DataTable, key: str, seats: list[str]) -> dict[str, Pose]:
    t = top.table(key)
    t.check_keys({*seats, "white"})
    return {owner: pose_from_table(t, owner) for owner in t.data}


def _bets(top: DataTable, game: DoppelXGame) -> dict[str, str]:
    t = top.table("bets")
    t.check_keys(set(game.seats))
    bets = {c: t.string(c) for c in t.data}
    try:
        check_bets(bets, game.cards, top.source)
    except SpecError as exc:
        raise top.error("bets", exc.problem) from None
    for c in bets:
        if c in game.on_board:
            raise t.error(c, f"{c}'s die lies on the board; only a die in hand can bet")
        if game.phase is not Phase.TURN or c == game.seats[game.active_seat]:
            raise t.error(c, "only passive players bet, before an active player's throw")
    return bets


def _decider(top: DataTable, game: DoppelXGame) -> None:
    t = top.table("decider")
    t.check_keys({"players", "round", "points", "history"})
    players = t.raw("players")
    if not isinstance(players, list) or any(p not in game.seats for p in players):
        raise t.error("players", "expected a list of seat colours")
    game.decider_players = tuple(players)
    game.decider_round = t.integer("round", minimum=0)
    game.decider_points = _points(t, "points", players)
    history = t.raw("history")
    if not isinstance(history, list):
        raise t.error("history", "expected a list of rounds")
    game.decider_history = [
        _points(DataTable({"round": h}, t.source, t.where(f"history[{i}]")), "round", players)
        for i, h in enumerate(history)
    ]
    if game.phase is Phase.DECIDER and not players:
        raise t.error("players", "a game in the decider needs the tied players")


def _points(t: DataTable, key: str, players: list[str]) -> dict[str, int]:
    p = t.table(key)
    p.check_keys(set(players))
    return {c: p.integer(c) for c in p.data}


def _record(t: DataTable, seats: list[str], dice: DiceSet) -> GameLogEntry:
    t.check_keys({"number", "kind", "thrower", "bets", "penalty", "score"})
    thrower = t.raw("thrower", None)
    if thrower is not None and thrower not in seats:
        raise t.error("thrower", f"{thrower!r} is not one of the seats")
    bets_t = t.table("bets")
    bets_t.check_keys(set(seats))
    score = score_from_table(t.table("score"), seats, dice)
    return GameLogEntry(
        t.integer("number", minimum=1),
        t.string("kind", choices=("setup", "turn", "decider")),
        thrower,
        {c: bets_t.string(c) for c in bets_t.data},
        score,
        _counts(t, "penalty", seats),
    )


def score_from_table(s: DataTable, seats: Sequence[str], dice: DiceSet) -> ThrowScore:
    """Read a scoring written by :func:`score_to_dict` (``s`` wraps the data with its element path)."""
    seats = list(seats)
    s.check_keys({"doppel_x", "active", "rethrow", "readings", "players"})
    active = s.raw("active", None)
    if active is not None and active not in seats:
        raise s.error("active", f"{active!r} is not one of the seats")
    readings = tuple(_reading(r, seats, dice) for r in s.tables("readings"))
    pt = s.table("players")
    pt.check_keys(set(seats))
    players = {}
    for c in pt.data:
        p = pt.table(c)
        p.check_keys({"dice", "bets", "doppel_x", "before", "after"})
        players[c] = PlayerScore(
            c,
            p.integer("dice"),
            p.integer("bets"),
            p.integer("doppel_x"),
            p.integer("before", minimum=0),
            p.integer("after", minimum=0),
        )
    return ThrowScore(readings, s.boolean("doppel_x"), players, active, s.boolean("rethrow"))


def _reading(t: DataTable, seats: list[str], dice: DiceSet) -> DieReading:
    t.check_keys({"owner", "status", "top", "tilt", "cocked", "touched", "field", "field_id", "x", "y"})
    owner = t.string("owner", choices=(*seats, "white"))
    top_face = t.raw("top", None)
    if top_face is not None and top_face not in dice[owner].faces:
        raise t.error("top", f"{top_face!r} is not a face of the {owner} die")
    touched = t.raw("touched")
    if not isinstance(touched, list) or not all(isinstance(x, str) for x in touched):
        raise t.error("touched", "expected a list of field ids")
    field = t.raw("field", None)
    if field is not None:
        field = FieldKind(t.string("field", choices=tuple(k.value for k in FieldKind)))
    return DieReading(
        owner,
        Status(t.string("status", choices=tuple(s.value for s in Status))),
        top_face,
        _maybe_number(t, "tilt"),
        t.boolean("cocked"),
        tuple(touched),
        field,
        None if t.raw("field_id", None) is None else t.string("field_id"),
        _maybe_number(t, "x"),
        _maybe_number(t, "y"),
    )


def _maybe_number(t: DataTable, key: str) -> float | None:
    return None if t.raw(key, None) is None else t.number(key)


def games_equal(a: DoppelXGame, b: DoppelXGame) -> bool:
    """Whether two games hold the same state (what :func:`game_to_dict` writes, compared exactly)."""
    return a.board is b.board and game_to_dict(a) == game_to_dict(b)
