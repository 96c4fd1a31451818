"""What the window shows of a game besides the dice: scoreboard rows, chips over dice, texts.

Pure functions of the game state and a throw's scoring; the controller
(:mod:`doppelx.games.doppelx.play.controller`) puts them into :class:`render.snapshot.Snapshot` s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from render.snapshot import FloatingText, ScoreLine
from rules.doppelx.dice import WHITE
from rules.doppelx.game import DoppelXGame
from rules.doppelx.outcome import Pose, Status
from rules.doppelx.reading import DieReading, chips_for
from rules.doppelx.scoring import ThrowScore

#: Raise a floating text this far above the die's centre (m).
TEXT_LIFT = 0.012


def scoreboard(
    game: DoppelXGame,
    kinds: Mapping[str, str],
    *,
    active: str | None = None,
    bets: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    chips: Mapping[str, int] | None = None,
) -> tuple[ScoreLine, ...]:
    """One row per seat: name, die colour, chips (``chips`` if given, else the game's) and a note.

    The note is ``notes[colour]`` if given (e.g. the last throw's change), else ``"bet C"``
    for a die on a bet card, else ``kinds[colour]`` (e.g. ``"person"``, ``"hard"``).
    """
    bets = game.bets if bets is None else bets
    notes = notes or {}
    chips = game.chips if chips is None else chips
    rows = []
    for c in game.seats:
        note = notes.get(c) or (f"bet {bets[c]}" if c in bets else kinds.get(c, ""))
        rows.append(ScoreLine(game.names[c], c, chips[c], c == active, note))
    return tuple(rows)


def die_text(reading: DieReading, doppel_x: bool) -> str:
    """The chips a die brings, as shown over it: ``"+6"``, ``"0"``, ``"-1"``, ``"X!"``, or where it went:
    ``"in a hole: back to hand"``, ``"off the box: back to hand"`` (D27)."""
    if reading.status is Status.HOLE:
        return "in a hole: back to hand"
    if reading.status is Status.OFF:
        return "off the box: back to hand"
    if doppel_x:
        return "X!" if reading.top == "X" else ""
    chips = chips_for(reading)
    return f"{chips:+d}" if chips else "0"


def floating_for(
    readings: Iterable[DieReading], doppel_x: bool, poses: Mapping[str, Pose], colours: Mapping[str, str]
) -> tuple[FloatingText, ...]:
    """Floating texts over the dice in ``poses`` (those that have come to rest), in each die's own colour
    (the window draws them white on a dark plate with a swatch of that colour)."""
    out = []
    for r in readings:
        pose = poses.get(r.owner)
        text = die_text(r, doppel_x)
        if pose is None or not text:
            continue
        x, y, z = pose.position
        out.append(FloatingText(text, (x, y, z + TEXT_LIFT), colours.get(r.owner, "#ffffff")))
    return tuple(out)


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


def result_lines(
    score: ThrowScore, bets: Mapping[str, str], names: Mapping[str, str], kind: str = "turn"
) -> tuple[str, ...]:
    """The summary of a throw, one line per player whose chips changed, naming each bet card that paid.

    E.g. ``("Doppel X!", "Anna +6 (her die)", "Bo +3 (bet card C paid)")``, then the dice that
    went into a hole or off the box (:func:`gone_lines`); a cocked throw or a throw without
    chips gets one line saying so; a decider throw (``kind``) its points, which settle the tie
    (the chips stay).
    """
    if score.rethrow:
        return ("Cocked die: the throw does not count, throw again",)
    if kind == "decider":
        return (decider_line(score, names), "Decider: the most points wins the tied game; chips stay")
    lines: list[str] = ["Doppel X!"] if score.doppel_x else []
    for c, p in score.players.items():
        if p.change == 0 and not (p.dice or p.bets or p.doppel_x) and c != score.active:
            continue  # (the thrower is always named: "+0" says the throw brought nothing)
        why = []
        if p.dice:
            why.append(f"dice {p.dice:+d}")
        if p.bets:
            card = bets.get(c)
            why.append(f"bet card {card} paid {p.bets:+d}" if card else f"bet {p.bets:+d}")
        if p.doppel_x:
            why.append(f"Doppel X {p.doppel_x:+d}")
        lines.append(f"{names.get(c, c)} {p.change:+d}" + (f"  ({', '.join(why)})" if why else ""))
    if len(lines) == (1 if score.doppel_x else 0):
        lines.append("No chips this throw")
    return tuple(lines) + gone_lines(score, names)


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


def change_notes(score: ThrowScore) -> dict[str, str]:
    """Scoreboard notes after a throw: each player's change, e.g. ``"+6"`` or ``"+3 bet"``."""
    out = {}
    for c, p in score.players.items():
        if p.change or p.bets or p.doppel_x:
            out[c] = f"{p.change:+d}" + (" bet" if p.bets else "") + (" X" if p.doppel_x else "")
    return out


def who(colour: str, names: Mapping[str, str]) -> str:
    """``"Anna (blue)"``, or just ``"Blue"`` when the name is the colour."""
    name = names.get(colour, colour)
    return name if name.lower() == colour.lower() else f"{name} ({colour})"


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
