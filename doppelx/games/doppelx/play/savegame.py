"""Save and load a game of ``doppelx play`` (JSON, format ``doppelx-save/1``).

A save file holds enough to restore the table exactly and to play on as the original
would have:

- ``setup``: the seats (name, colour, person or bot and skill; a person's aim and bets, optional:
  older saves load as assisted and ask), side, spinner, cards, seed and target
  (:class:`doppelx.games.doppelx.play.newgame.GameSetup`);
- ``game``: the rules-level state — chips, phase, whose turn, every die lying on the board
  with its full pose, the bets on the cards, the decider and the log
  (:mod:`rules.doppelx.game_state_io`);
- ``match``: the spinner's angle, the state of the match's random stream (PCG64) and the
  number of throws made, so the next throws are the same as without saving;
- ``last_throw``: the release parameters, lying dice, spinner angle, bets and scoring of
  the last throw, so ``R`` can replay it after loading (the world is rebuilt for every
  throw, so simulating it again ends exactly as it did);
- ``log`` (optional): the throw log's lines (``L``), so a loaded game shows the throws
  before it; a save without it loads with the last throw's line alone.

Malformed files raise :class:`rules.common.errors.SpecError` naming the element.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from doppelx.games.doppelx.play.newgame import GameSetup, start_match
from doppelx.games.doppelx.play.playback import ShownThrow
from render.window_files import write_atomic
from rules.common.assets import read_json
from rules.common.errors import SpecError
from rules.common.schema import DataTable
from rules.doppelx.game_state_io import (
    game_from_dict,
    game_to_dict,
    pose_from_table,
    pose_to_dict,
    score_from_table,
    score_to_dict,
)
from rules.doppelx.placement import check_resting

FORMAT = "doppelx-save/1"


#: Most lines a save's throw log may hold, and the longest line (characters).
MAX_LOG_LINES, MAX_LOG_LINE = 100, 1000
#: How far (m) along a wall a saved stance may be: more than any box's half wall (the window
#: clamps a stance to its own box's walls when it stands the person there).
MAX_ALONG = 1.0


class SavedGame(NamedTuple):
    """What :func:`load_game` reads: the settings, the match ready to play on, the last
    throw (or ``None``), the throws made so far and the throw log's lines."""

    setup: GameSetup
    match: Any
    last: ShownThrow | None
    throws: int
    log: tuple[str, ...]
    #: The setup throw's dice already thrown by people in the window (hot seat), by colour
    #: (never changed in place: the controller copies it).
    hands: Mapping[str, Any] = MappingProxyType({})
    #: Where each person stood when last throwing or at the save (wall, m along it), by colour.
    stances: Mapping[str, tuple[str, float]] = MappingProxyType({})
    #: The people who passed on the coming throw's bets, and the lines that said so.
    passes: tuple[frozenset[str], tuple[str, ...]] = (frozenset(), ())


def save_game(
    path: str | Path,
    setup: GameSetup,
    match,
    last=None,
    throws: int = 0,
    log: Sequence[str] = (),
    hands: Mapping[str, Any] | None = None,
    stances: Mapping[str, tuple[str, float]] | None = None,
    passes: tuple[Iterable[str], Sequence[str]] = ((), ()),
) -> Path:
    """Write the game to ``path`` (JSON, all or nothing: :func:`render.window_files.write_atomic`); returns the path.

    Args:
        setup: the game's settings.
        match: the :class:`doppelx.games.doppelx.match.DoppelXMatch`.
        last: the last throw (:class:`doppelx.games.doppelx.play.playback.ShownThrow`) or ``None``.
        throws: throws made so far.
        log: the throw log's lines, oldest first.
        hands: during the setup throw, the :class:`physics.throw.Throw` of each person who has
            thrown already (their die waits for the others'), by colour.
        stances: where each person stands to throw (wall, m along it), by colour: a loaded
            hot-seat game puts everyone back where they stood (eleventh playtest).
        passes: the people who passed on the coming throw's bets and the status lines that
            said so: a loaded game does not ask them again (twelfth playtest).

    Raises:
        FileWriteError: the file cannot be written (a folder in the way, no permission, disk full).
    """
    path = Path(path)
    data: dict[str, Any] = {
        "format": FORMAT,
        "setup": setup.to_dict(),
        "game": game_to_dict(match.game),
        "match": {
            "spinner_angle": float(match.spinner_angle),
            "rng": _rng_state(match.rng),
            "throws": throws,
        },
        "last_throw": None
        if last is None
        else {
            "number": last.number,
            "kind": last.kind,
            "thrower": last.thrower,
            "bets": dict(last.bets),
            "score": score_to_dict(last.score),
            "throw": last.throw.to_dict(),
            "lying": {o: pose_to_dict(p) for o, p in last.lying.items()},
            "spinner_before": float(last.spinner_before),
        },
    }
    if log:
        data["log"] = list(log)[-MAX_LOG_LINES:]
    if hands:
        data["setup_hands"] = {c: t.to_dict() for c, t in hands.items()}
    if stances:
        data["stances"] = {c: {"wall": w, "along": float(a)} for c, (w, a) in stances.items()}
    passed, said = passes
    if passed or said:
        data["passes"] = {"passed": sorted(passed), "said": list(said)}
    return write_atomic(path, json.dumps(data, indent=1).encode("utf-8"))


def load_game(path: str | Path) -> SavedGame:
    """Read a save file (:class:`SavedGame`); the match is ready to play on.

    Raises:
        SpecError: the file is missing, not JSON, or malformed (the element is named).
    """
    from physics.throw import Throw

    path = Path(path)
    source = str(path)
    data = read_json(path, missing="no saved game there (save one with Ctrl+S)")
    top = DataTable(data, source)
    top.check_keys(
        {"format", "setup", "game", "match", "last_throw", "log", "setup_hands", "stances", "passes"}
    )
    if top.string("format") != FORMAT:
        raise top.error("format", f"unsupported format; this version reads {FORMAT!r}")
    setup = GameSetup.from_dict(top.raw("setup"), source)
    match = start_match(setup)
    try:
        game = game_from_dict(top.raw("game"), match.game.board, match.game.dice, source)
        if list(game.seats) != [s.colour for s in setup.seats]:
            raise top.error("game.seats", "the seats differ from the setup's")
        match.game = game
        m = top.table("match")
        m.check_keys({"spinner_angle", "rng", "throws"})
        match.spinner_angle = m.number("spinner_angle")
        _set_rng_state(match.rng, m.raw("rng"), source)
        throws = m.integer("throws", minimum=0)
        last = None
        lt = top.table("last_throw", None)
        if lt is not None:
            lt.check_keys({"number", "kind", "thrower", "bets", "score", "throw", "lying", "spinner_before"})
            lying_t = lt.table("lying")
            throw = Throw.from_dict(_release_data(lt.table("throw"), game.seats))
            thrower = lt.raw("thrower", None)
            if thrower is not None and thrower not in game.seats:
                raise lt.error("thrower", f"{thrower!r} is not one of the seats")
            bets_t = lt.table("bets")
            bets_t.check_keys(set(game.seats))
            last = ShownThrow(
                lt.integer("number", minimum=1),
                lt.string("kind", choices=("setup", "turn", "decider")),
                lt.raw("thrower", None),
                {c: bets_t.string(c) for c in bets_t.data},
                score_from_table(lt.table("score"), game.seats, game.dice),
                throw,
                _lying(lying_t, game, source),
                lt.number("spinner_before"),
            )
        log = _log(top)
        hands = _setup_hands(top, game, setup)
        stances = _stances(top, setup)
        passes = _passes(top, setup)
    except BaseException:
        match.close()
        raise
    return SavedGame(setup, match, last, throws, log, hands, stances, passes)


def _passes(top: DataTable, setup: GameSetup) -> tuple[frozenset[str], tuple[str, ...]]:
    """Who passed on the coming throw's bets (people's colours) and the lines that said so."""
    t = top.table("passes", None)
    if t is None:
        return frozenset(), ()
    t.check_keys({"passed", "said"})
    people = {s.colour for s in setup.seats if s.human}
    passed = t.raw("passed")
    if not isinstance(passed, list) or any(c not in people for c in passed):
        raise t.error("passed", f"must be a list of the people's colours ({', '.join(sorted(people))})")
    said = t.raw("said")
    if (
        not isinstance(said, list)
        or len(said) > len(setup.seats)
        or any(not isinstance(line, str) or len(line) > MAX_LOG_LINE for line in said)
    ):
        raise t.error("said", f"must be a list of at most {len(setup.seats)} lines of text")
    return frozenset(passed), tuple(said)


def _stances(top: DataTable, setup: GameSetup) -> dict[str, tuple[str, float]]:
    """Where the people stood (``stances``: colour → wall and m along it), each a person's."""
    from render.intents import WALLS

    t = top.table("stances", None)
    if t is None:
        return {}
    people = {s.colour for s in setup.seats if s.human}
    out = {}
    for colour in t.data:
        if colour not in people:
            raise t.error(
                colour, f"{colour!r} is not a person at this table (people: {', '.join(sorted(people))})"
            )
        one = t.table(colour)
        one.check_keys({"wall", "along"})
        along = one.number("along")
        if abs(along) > MAX_ALONG:
            raise one.error(
                "along", f"{along} m is beyond the box's walls (at most {MAX_ALONG} m from a wall's middle)"
            )
        out[colour] = (one.string("wall", choices=WALLS), along)
    return out


def _setup_hands(top: DataTable, game, setup: GameSetup) -> dict:
    """The setup throw's dice people threw already: one die of their own colour each, only
    while the setup throw waits."""
    from physics.throw import Throw

    t = top.table("setup_hands", None)
    if t is None:
        return {}
    if game.request().kind != "setup":
        raise t.error(None, "the setup throw is over; there are no setup hands to keep")
    t.check_keys(set(game.seats))
    people = {s.colour for s in setup.seats if s.human}
    hands = {}
    for colour in t.data:
        throw = Throw.from_dict(_release_data(t.table(colour), game.seats))
        if colour not in people:
            raise t.error(colour, f"{colour} is a bot: its die is thrown with the others, not kept")
        if tuple(throw.owners) != (colour,):
            raise t.error(colour, f"{colour}'s hand throws exactly the {colour} die")
        hands[colour] = throw
    return hands


def _log(top: DataTable) -> tuple[str, ...]:
    """The save's throw log: a list of at most :data:`MAX_LOG_LINES` lines of text."""
    lines = top.raw("log", [])
    if not isinstance(lines, list) or len(lines) > MAX_LOG_LINES:
        raise top.error("log", f"expected a list of at most {MAX_LOG_LINES} lines of text")
    for i, line in enumerate(lines):
        if not isinstance(line, str) or len(line) > MAX_LOG_LINE:
            raise top.error(f"log[{i}]", f"expected a line of text of at most {MAX_LOG_LINE} characters")
    return tuple(lines)


#: Fastest release speed (m/s) and spin (rad/s) a saved throw may have; a hand throws far slower.
MAX_SPEED = 50.0
MAX_SPIN = 2000.0


def _release_data(t: DataTable, seats) -> dict[str, Any]:
    """The ``last_throw.throw`` table checked element by element, as :meth:`Throw.from_dict` reads it."""
    t.check_keys({"releases"})
    releases = []
    seen: set[str] = set()
    for r in t.tables("releases", required=True):
        r.check_keys({"owner", "position", "quaternion", "velocity", "angular_velocity"})
        owner = r.string("owner", choices=(*seats, "white"))
        if owner in seen:
            raise r.error("owner", f"die {owner!r} is released twice")
        seen.add(owner)
        position = r.vector("position", 3)
        if max(abs(v) for v in position) > 2.0:
            raise r.error("position", "a release point lies within 2 m of the box (metres)")
        q = r.vector("quaternion", 4)
        if abs(sum(v * v for v in q) - 1.0) > 1e-3:
            raise r.error("quaternion", "must be a unit quaternion [x, y, z, w]")
        velocity = r.vector("velocity", 3)
        if sum(v * v for v in velocity) > MAX_SPEED**2:
            raise r.error("velocity", f"faster than {MAX_SPEED:g} m/s")
        spin = r.vector("angular_velocity", 3)
        if sum(v * v for v in spin) > MAX_SPIN**2:
            raise r.error("angular_velocity", f"faster than {MAX_SPIN:g} rad/s")
        releases.append(
            {
                "owner": owner,
                "position": list(position),
                "quaternion": list(q),
                "velocity": list(velocity),
                "angular_velocity": list(spin),
            }
        )
    if not releases:
        raise t.error("releases", "a throw releases at least one die")
    return {"releases": releases}


def _lying(t: DataTable, game, source: str) -> dict:
    """The dice lying before the last throw: owners of the game, resting where a die can rest."""
    t.check_keys({*game.seats, "white"})
    lying = {o: pose_from_table(t, o) for o in t.data}
    check_resting(lying, game.board, game.dice, source, {o: t.where(o) for o in lying})
    return lying


def _rng_state(rng) -> dict[str, Any]:
    state = rng.bit_generator.state
    return {
        "bit_generator": state["bit_generator"],
        "state": dict(state["state"]),
        "has_uint32": state["has_uint32"],
        "uinteger": state["uinteger"],
    }


def _set_rng_state(rng, state: Any, source: str) -> None:
    if not isinstance(state, dict) or state.get("bit_generator") != type(rng.bit_generator).__name__:
        raise SpecError(
            source, "match.rng", f"expected the state of a {type(rng.bit_generator).__name__} generator"
        )
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise SpecError(source, "match.rng", f"not a generator state ({exc})") from None
