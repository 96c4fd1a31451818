"""What the window shows of a game besides the dice: scoreboard rows, chips over dice, texts.

Pure functions of the game state and a throw's scoring; the controller
(:mod:`doppelx.games.doppelx.play.controller`) puts them into :class:`render.snapshot.Snapshot` s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from render.snapshot import FloatingText, ScoreLine
from rules.doppelx.bets import BetCard, load_bet_cards
from rules.doppelx.board import Hole
from rules.doppelx.dice import WHITE
from rules.doppelx.game import DoppelXGame
from rules.doppelx.outcome import DieOutcome, Pose, Status
from rules.doppelx.reading import DieReading, chips_for, read_die
from rules.doppelx.scoring import ThrowScore

#: Raise a floating text this far above the die's centre (m).
TEXT_LIFT = 0.012
#: The summary's and the log's lines are broken at a " · " to stay within this many characters.
LINE_CHARS = 40


def scoreboard(
    game: DoppelXGame,
    *,
    active: str | None = None,
    bettor: str | None = None,
    bets: Mapping[str, str] | None = None,
    chips: Mapping[str, int] | None = None,
    lying: Mapping[str, Pose] | None = None,
) -> tuple[ScoreLine, ...]:
    """One row per seat: name, die colour, chips (``chips`` if given, else the game's), a note
    and the player's income.

    The note is ``"bet C"`` for a die on a bet card (a throw's changes are in its summary). ``active`` throws (or threw) and ``bettor`` may bet now: each gets
    its own marker. The income is what the player's die lying on the board (``lying``,
    default the game's) brings after every throw (:func:`income`); ``None`` for a die in hand.
    """
    bets = game.bets if bets is None else bets
    chips = game.chips if chips is None else chips
    pay = income(game, game.on_board if lying is None else lying)
    rows = []
    for c in game.seats:
        note = f"bet {bets[c]}" if c in bets else ""
        rows.append(ScoreLine(game.names[c], c, chips[c], c == active, note, pay.get(c), c == bettor))
    return tuple(rows)


def income(game: DoppelXGame, lying: Mapping[str, Pose]) -> dict[str, int]:
    """Chips each player's die lying on the board in ``lying`` brings its owner after every
    throw (D11–D14, read as the referee reads it), by colour; the white die belongs to no one."""
    key = (id(game), tuple(sorted((o, p.position, p.quaternion) for o, p in lying.items())))
    if key in _INCOME:  # asked every frame (the scoreboard): read once per arrangement of the dice
        return dict(_INCOME[key])
    out = {}
    for owner, pose in lying.items():
        if owner == WHITE or owner not in game.seats:
            continue
        spec = game.dice[owner]
        out[owner] = chips_for(
            read_die(DieOutcome(owner, Status.BOARD, pose), spec, game.board, game.dice.cocked_angle)
        )
    if len(_INCOME) >= 8:
        _INCOME.pop(next(iter(_INCOME)))
    _INCOME[key] = out
    return dict(out)


#: The last few :func:`income` readings by game and arrangement of the lying dice.
_INCOME: dict[tuple, dict[str, int]] = {}


def doppel_x_line(cards: Mapping[str, BetCard] | None = None) -> str:
    """The summary's first line in a Doppel X: why the other dice show no chips (D19, D34),
    naming only the Doppel X cards in play (``cards``; every card side when not given): "… of
    the bets only A" with A–D in play, "… nor any bet" with none (third playtest: H named where
    only A–D lay)."""
    if cards is None:
        cards = load_bet_cards()
    letters = sorted(k for k, c in cards.items() if c.condition == "doppel_x")
    if not letters:
        return "Doppel X! No other die pays, nor any bet"
    return "Doppel X! No other die pays; of the bets only " + " and ".join(letters)


def die_text(reading: DieReading, doppel_x: bool, decider: bool = False) -> str:
    """The chips a die brings, as shown over it: ``"+6"``, ``"0"``, ``"-1"``, ``"X!"``, or where it went:
    ``"in a hole: back to hand"``, ``"off the box: back to hand"`` (D27). In a ``decider`` throw
    (D37), which pays no chips, the points it counts there: ``"6 points"``."""
    if reading.status is Status.HOLE:
        return "in a hole: back to hand"
    if reading.status is Status.OFF:
        return "off the box: back to hand"
    if doppel_x:
        return "X!" if reading.top == "X" else ""
    chips = chips_for(reading)
    if decider:
        return counted(chips, "point")
    return f"{chips:+d}" if chips else "0"


def floating_for(
    readings: Iterable[DieReading],
    doppel_x: bool,
    poses: Mapping[str, Pose],
    colours: Mapping[str, str],
    decider: bool = False,
    white_for: str = "",
    holes: Sequence[Hole] = (),
) -> tuple[FloatingText, ...]:
    """Floating texts over the dice in ``poses`` (those that have come to rest), in each die's own colour
    (the window draws them white on a dark plate with a swatch of that colour); a ``decider``
    throw's in points (:func:`die_text`). ``white_for``: the name of the player the white die's
    chips go to (the thrower, D15), said on its label — ``"+2 for Tess"`` (thirteenth playtest:
    "+2" on the white die did not say whose). A die in a hole is labelled over the hole of
    ``holes`` nearest to it, at the playfield's height, where it was seen to go: it rests in the
    cavity, often rolled away under the playfield (sixteenth playtest: "in a hole" floated 80
    px from its hole, over the playfield)."""
    out = []
    for r in readings:
        pose = poses.get(r.owner)
        text = die_text(r, doppel_x, decider)
        if pose is None or not text:
            continue
        if white_for and r.owner == WHITE and r.status is Status.BOARD and not decider and text != "0":
            text += f" for {white_for}"  # (a 0 gives nothing: no name; in a Doppel X its X! counts
            # for the thrower too, D18: fourteenth playtest)
        x, y, z = pose.position
        if r.status is Status.HOLE and holes:
            x, y = _nearest_hole(holes, x, y)
            z = 0.0
        out.append(FloatingText(text, (x, y, z + TEXT_LIFT), colours.get(r.owner, "#ffffff")))
    return tuple(out)


def _nearest_hole(holes: Sequence[Hole], x: float, y: float) -> tuple[float, float]:
    """The centre (x, y) of the hole of ``holes`` nearest to the point (its outline's distance)."""
    from shapely.geometry import Point

    here = Point(x, y)
    c = min(holes, key=lambda h: h.shape.distance(here)).shape.centroid
    return float(c.x), float(c.y)


def bet_texts(
    score: ThrowScore, bets: Mapping[str, str], bet_poses: Mapping[str, Pose], colours: Mapping[str, str]
) -> tuple[FloatingText, ...]:
    """``"+4"`` over each bet die whose card paid (after the throw)."""
    out = []
    for owner in bets:
        p = score.players.get(owner)
        pose = bet_poses.get(owner)
        if p is None or pose is None or p.bets <= 0:
            continue
        x, y, z = pose.position
        out.append(FloatingText(f"+{p.bets}", (x, y, z + TEXT_LIFT), colours.get(owner, "#ffffff")))
    return tuple(out)


def counted(n: int, word: str) -> str:
    """``"1 chip"``, ``"46 chips"``: ``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def game_over_line(throws: int, log: Iterable) -> str:
    """``"Game over after 8 throws"``, or ``"… and 2 decider throws"``: the decider's throws
    (D37) settle a tie after the game's last throw and are counted apart (``log``: the rules'
    game log, its entries' ``kind``; ``throws``: all the game's throws)."""
    deciding = sum(1 for e in log if e.kind == "decider")
    line = f"Game over after {counted(throws - deciding, 'throw')}"
    return line + (f" and {counted(deciding, 'decider throw')}" if deciding else "")


def decider_line(score: ThrowScore, names: Mapping[str, str], named: bool = True) -> str:
    """A decider throw (D37): its points, which settle the tie (chips do not change); ``named``
    puts the thrower's name first."""
    thrower = score.active
    p = score.players.get(thrower) if thrower is not None else None
    if thrower is None or p is None:
        return "Decider throw"
    points = p.dice + p.doppel_x
    head = "Doppel X! " if score.doppel_x else ""
    who = f"{names.get(thrower, thrower)}: " if named else ""
    return f"{head}{who}{counted(points, 'point')} in the decider"


def throw_summary(score: ThrowScore, names: Mapping[str, str], limit: int = 64, kind: str = "turn") -> str:
    """One short line of the changes, e.g. ``"Anna +6 · Red +3 (bet) · Bo -1"`` (cut at ``limit`` chars);
    a decider throw (``kind``) gives its points instead (:func:`decider_line`)."""
    if score.rethrow:
        return "Cocked die: the throw does not count, throw again"
    if kind == "decider":  # the line's head names the thrower already (thrown_by)
        return decider_line(score, names, named=False)
    parts = []
    for c, p in score.players.items():
        if p.change == 0 and not (p.dice or p.bets or p.doppel_x):
            continue
        extra = " (bet)" if p.bets else ""
        parts.append(f"{names.get(c, c)} {p.change:+d}{extra}")
    if not parts:
        return "No chips this throw"
    head = "Doppel X! " if score.doppel_x else ""
    line = head + " · ".join(parts)
    while len(line) > limit and len(parts) > 1:
        parts.pop()
        line = head + " · ".join(parts) + " · …"
    return line


def die_part(reading: DieReading, doppel_x: bool, chips: int) -> str:
    """One die of a throw's summary: ``"blue 3 on 3x = 9"``, ``"white X = 0"``, ``"red 4 on -1 = -1"``,
    ``"green 2, no field = 0"``, ``"white X!"`` in a Doppel X; ``""`` for a die off the board.
    ``chips``: what the die brings, as the throw's score worked it out (:class:`rules.doppelx.scoring.DieScore`)."""
    if reading.status is not Status.BOARD or reading.top is None:
        return ""  # (a die on the board always has a face up; without one there is nothing to say)
    who = reading.owner
    if doppel_x:
        return f"{who} X!" if reading.top == "X" else ""
    if reading.field is None:
        return f"{who} {reading.top}, no field = {chips}"
    if reading.field.value == "-1":  # its face counts for nothing, but is said (tenth playtest)
        return f"{who} {reading.top} on -1 = {chips}"
    if reading.top == "X" or reading.field.value == "X":
        return f"{who} {reading.top} on X = 0" if reading.field.value == "X" else f"{who} X = 0"
    return f"{who} {reading.top} on {reading.field.value} = {chips}"


def wrap(parts: Iterable[str], width: int = LINE_CHARS) -> tuple[str, ...]:
    """``parts`` joined by " · " into lines of at most ``width`` characters (a longer part stands alone)."""
    lines: list[str] = []
    for part in parts:
        if not part:
            continue
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return tuple(lines)


def throw_parts(score: ThrowScore, bets: Mapping[str, str], names: Mapping[str, str]) -> list[str]:
    """The summary's pieces of a throw: each die on the board (:func:`die_part`), then each bet
    (``"Tess bet D +4"``, ``"Bo bet C 0"``)."""
    chips = {d.owner: d.chips for d in score.dice}
    parts = [die_part(r, score.doppel_x, chips.get(r.owner, 0)) for r in score.readings]
    for c, letter in bets.items():
        p = score.players.get(c)
        paid = p.bets if p is not None else 0
        parts.append(
            f"{names.get(c, c)} bet {letter} {paid:+d}" if paid else f"{names.get(c, c)} bet {letter} 0"
        )
    return [p for p in parts if p]


def totals(score: ThrowScore, names: Mapping[str, str]) -> list[str]:
    """Each player's change (``"Tess +13"``): everyone whose chips moved, and the thrower always."""
    out = []
    for c, p in score.players.items():
        if p.change == 0 and not (p.dice or p.bets or p.doppel_x) and c != score.active:
            continue  # (the thrower is always named: "+0" says the throw brought nothing)
        out.append(f"{names.get(c, c)} {p.change:+d}")
    return out


def result_lines(
    score: ThrowScore,
    bets: Mapping[str, str],
    names: Mapping[str, str],
    kind: str = "turn",
    cards: Mapping[str, BetCard] | None = None,
) -> tuple[str, ...]:
    """The summary of a throw: per die and bet why, then each player's change.

    E.g. ``("blue 3 on 3x = 9 · white X = 0", "Tess bet D +4", "= Ann +9 · Tess +4")`` (lines
    of at most :data:`LINE_CHARS`, broken at a " · "), "Doppel X!" first when there was one,
    then the dice that went into a hole or off the box (:func:`gone_lines`); a cocked throw
    gets one line saying so; a decider throw (``kind``) its points, which settle the tie
    (the chips stay). ``cards``: the bet cards in play (the Doppel X line names only those).
    """
    if score.rethrow:
        return ("Cocked die: the throw does not count, throw again",)
    if kind == "decider":
        return (decider_line(score, names), "Decider: the most points wins the tied game; chips stay")
    # the setup throw has no bets: naming the Doppel X cards there read as bets nobody placed
    # (fourth playtest)
    line = doppel_x_line(cards) if kind != "setup" else "Doppel X! No other die pays"
    lines: list[str] = [line] if score.doppel_x else []
    lines += wrap(throw_parts(score, bets, names))
    change = totals(score, names)
    if change:
        changed = wrap(change)
        lines += ("= " + changed[0],) + changed[1:]
    else:
        lines.append("No chips this throw")
    return tuple(lines) + gone_lines(score, names)


def log_line(score: ThrowScore, bets: Mapping[str, str], names: Mapping[str, str], kind: str = "turn") -> str:
    """One throw of the throw log: its dice, bets and changes in one line (the log wraps it at
    its " · "): ``"blue 3 on 2x = 6 · Bo bet C +3 → Ann +6, Bo +3 · Di's die: off the box"``.
    The changes follow the last die or bet after an arrow, not after a " · " of their own
    (``" · = Ann +6"`` read as a separator with nothing before the "=": second playtest)."""
    if score.rethrow or kind == "decider":
        return throw_summary(score, names, limit=400, kind=kind)
    head = ["Doppel X!"] if score.doppel_x else []
    change = totals(score, names)
    body = " · ".join(head + throw_parts(score, bets, names))
    tail = ", ".join(change) if change else "no chips"
    line = f"{body} → {tail}" if body else tail
    return " · ".join([line, *gone_lines(score, names)])


def gone_lines(score: ThrowScore, names: Mapping[str, str]) -> tuple[str, ...]:
    """The dice of a throw that went into a hole or off the box (back to their owners' hands),
    one short line for each of the two: ``"Cy's white die: in a hole"``, ``"Ann, Bo: off the box"``,
    ``"Cy's two dice: off the box"`` (a player's die by its owner's name, the white die by its
    thrower's; "both dice" when the thrower's own die went the same way)."""
    thrower = names.get(score.active, score.active) if score.active else ""
    out = []
    for status, where in ((Status.HOLE, "in a hole"), (Status.OFF, "off the box")):
        owners = [r.owner for r in score.readings if r.status is status]
        white = WHITE in owners
        players = [o for o in owners if o != WHITE]
        both = white and score.active in players
        if not owners:
            continue
        if len(players) == 1 and (not white or both):  # one player's die, or the thrower's two
            dice = [f"{names.get(players[0], players[0])}'s {'two dice' if both else 'die'}"]
        else:
            dice = [names.get(o, o) + (" (both dice)" if both and o == score.active else "") for o in players]
            if white and not both:
                dice.append(f"{thrower}'s white die" if thrower else "the white die")
        out.append(f"{', '.join(dice)}: {where}")
    return tuple(out)


def who(colour: str, names: Mapping[str, str]) -> str:
    """``"Anna (blue)"``, or just ``"Blue"`` when the name is the colour."""
    name = names.get(colour, colour)
    return name if name.lower() == colour.lower() else f"{name} ({colour})"


def no_bet_note(
    game: DoppelXGame, people: Sequence[str], kind: str, waiting: bool, passed: Iterable[str] = ()
) -> str:
    """Why a click on a bet card bets nothing now, for the people at the table (``people``, in
    seat order); said when one is clicked (the seventh playtest's click while its own die lay
    on the board read "too slow for a throw", with no word about betting). ``kind``: the coming
    throw's (``"setup"``, ``"turn"``, ``"decider"``); ``waiting``: the table waits for that
    throw (not rolling, not holding a result); ``passed``: who passed on it.

    What keeps a person from betting on the coming throw is said whatever the table does (the
    eighth playtest, its die on the board, clicked while a result held and read only "bets come
    before a throw"): ``"No bet now: Ann (blue) throws this time: the thrower does not bet ·
    Bo (red)'s die lies on the playfield — only a die in hand may bet"``; while a throw
    rolls or its result holds, ``"Bets come before a throw: the cards you may bet on light up
    green · Ann (blue) throws next: …"``; ``""`` with nobody to tell (bots only) or nothing to
    say."""
    if not people:
        return ""
    if str(game.phase) == "finished":
        return "The game is over: no more bets"
    if kind == "setup":
        return "No bets on the setup throw: bets come before each player's own throw"
    if kind == "decider":
        return "No bets in a decider"
    names, gone = game.names, set(passed)
    why = []
    for c in people:
        w = who(c, names)
        if c == game.active:
            why.append(f"{w} throws {'this time' if waiting else 'next'}: the thrower does not bet")
        elif c in game.on_board:
            why.append(f"{w}'s die lies on the playfield — only a die in hand may bet")
        elif c in game.bets:
            why.append(f"{w} already bet on card {game.bets[c]}")
        elif c in gone:
            why.append(f"{w} passed on this throw")
    if not waiting:  # rolling, or a result holding: the betting on the next throw is still to come
        return " · ".join(["Bets come before a throw: the cards you may bet on light up green", *why])
    return "No bet now: " + " · ".join(why) if why else ""


def thrown_by(kind: str, thrower: str | None, names: Mapping[str, str]) -> str:
    """``"Setup throw"``, ``"Anna (blue)"`` or ``"Decider: Anna (blue)"``."""
    if kind == "setup" or thrower is None:
        return "Setup throw"
    w = who(thrower, names)
    return f"Decider: {w}" if kind == "decider" else w


def ranking(game: DoppelXGame) -> list[tuple[str, str, int]]:
    """``(name, colour, chips)`` best first (the winner first when a decider settled a tie)."""
    order = sorted(game.seats, key=lambda c: (c != game.winner, -game.chips[c], game.seats.index(c)))
    return [(game.names[c], c, game.chips[c]) for c in order]


def end_note(game: DoppelXGame, score: ThrowScore | None) -> str:
    """Why the end came out as it did, when it was close (``""`` otherwise): a tie at the mark a
    decider settled (D37), two or more players passing the target on the last throw
    (``score``), where the most chips win, or how the winner passed it: with their own throw or on
    another player's."""
    names = game.names
    if game.decider_history:
        tied = list(game.decider_history[0])
        chips = game.chips[tied[0]]
        rounds = " · ".join(
            ", ".join(f"{names.get(c, c)} {p}" for c, p in points.items()) for points in game.decider_history
        )
        return (
            f"{and_list(names.get(c, c) for c in tied)} tied at {chips}: a decider throw settled it "
            f"(points: {rounds})"
        )
    if score is None:
        return ""
    passed = [c for c, p in score.players.items() if p.before < game.target <= p.after]
    if len(passed) == 1 and score.active is not None and passed[0] != score.active:
        return _reached_on_anothers_throw(game, score, passed[0])
    if len(passed) == 1:  # the winner's own throw (thirteenth playtest: "Red wins! 70" said not how)
        p = score.players[passed[0]]
        return f"{names.get(passed[0], passed[0])} reached {game.target} with the last throw ({p.change:+d})"
    if len(passed) < 2:
        return ""
    passed.sort(key=lambda c: -game.chips[c])
    both = "both" if len(passed) == 2 else "all"
    # "reached": a player who has exactly the target did not pass it (tenth playtest)
    return (
        f"{and_list(names.get(c, c) for c in passed)} {both} reached {game.target} on the last throw: "
        f"the most chips win ({' to '.join(str(game.chips[c]) for c in passed)})"
    )


def _reached_on_anothers_throw(game: DoppelXGame, score: ThrowScore, colour: str) -> str:
    """``"Ann reached 50 on Bo's throw: Ann's die lying on the board +6 (a die on the board pays
    its owner at every throw)"`` — the winner did not throw the last throw, and the end screen
    said nothing of how they won on it."""
    names = game.names
    p = score.players[colour]
    name = names.get(colour, colour)
    why = []
    if p.dice:
        why.append(f"{name}'s die lying on the board {p.dice:+d}")
    if p.bets:
        why.append(f"{name}'s bet {p.bets:+d}")
    if p.doppel_x:
        why.append(f"Doppel X {p.doppel_x:+d}")
    thrower = score.active or ""  # (the caller has checked there is one)
    line = f"{name} reached {game.target} on {names.get(thrower, thrower)}'s throw"
    if not why:
        return line
    line += ": " + ", ".join(why)
    if p.dice:
        line += " (a die on the board pays its owner at every throw)"
    return line


def decider_note(game: DoppelXGame) -> str:
    """Why a decider is thrown (D37) and how it stands, while one is on (``""`` otherwise); short
    enough for the bottom line of an 800-px window.

    E.g. ``"Tie at 54 chips: Ann and Bo throw a decider — each throws their die and the white die,
    the board cleared first, most points wins"`` (the last throw's dice lie on until the
    decider throw starts: the seventh playtest read "onto an empty board" beside them); after
    a round with equal best points ``"Decider round 1 tied (Ann 4, Bo 4): Ann and Bo throw
    again, most points wins"``; the points already thrown in the round follow
    (``" · so far Ann 3"``)."""
    if str(game.phase) != "decider" or not game.decider_players:
        return ""
    names = game.names
    players = game.decider_players
    thrown = ", ".join(f"{names.get(c, c)} {p}" for c, p in game.decider_points.items())
    so_far = f" · so far {thrown}" if thrown else ""
    if game.decider_round <= 1:
        return (
            f"Tie at {game.chips[players[0]]} chips: {and_list(names.get(c, c) for c in players)} throw a "
            f"decider — each throws their die and the white die, the board cleared first, most points wins{so_far}"
        )
    last = game.decider_history[-1]
    points = ", ".join(f"{names.get(c, c)} {p}" for c, p in last.items())
    return (
        f"Decider round {game.decider_round - 1} tied ({points}): "
        f"{and_list(names.get(c, c) for c in players)} throw again, most points wins{so_far}"
    )


def and_list(words: Iterable[str]) -> str:
    """``"Ann"``, ``"Ann and Bo"``, ``"Ann, Bo and Cy"``."""
    w = list(words)
    return w[0] if len(w) == 1 else ", ".join(w[:-1]) + " and " + w[-1]


def places(chips: Iterable[int], decided: bool = False) -> list[int]:
    """The place of each row of standings ordered best first: equal chips share a place (a tie
    is shown as one), except the winner of a decider (``decided``), first alone."""
    out: list[int] = []
    prev: int | None = None
    for i, c in enumerate(chips):
        tie = prev is not None and c == prev and not (decided and i == 1)
        out.append(out[-1] if tie else i + 1)
        prev = c
    return out
