"""Würfelblitz matches: bots-only games and batches, and a person against bots in the terminal.

The terminal game shows each throw, then times the person's answer with an injectable
clock and compares it with the bots' sampled answer times; the rules engine decides who
was first and right. Every prompt re-asks on bad input; ``q`` or the end of input stops
the game cleanly with the standings.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from doppelx.games.wuerfelblitz.bots import BlitzBot
from doppelx.terminal import Terminal
from rules.rng import child_rng
from rules.wuerfelblitz import (
    BlitzSpec,
    BlitzState,
    Call,
    GameConfig,
    RoundResult,
    Throw,
    breakdown,
    new_game,
)

#: Supplies the next throw for a state (default: a fair throw from the game's RNG).
ThrowSource = Callable[[BlitzState, np.random.Generator], Throw]


def _fair(state: BlitzState, rng: np.random.Generator) -> Throw:
    return state.sample_throw(rng)


def bot_calls(state: BlitzState, bots: dict[int, BlitzBot], rng: np.random.Generator) -> list[Call]:
    """Every bot's call on the throw on the table, in seat order."""
    calls = []
    for seat in sorted(bots):
        c = bots[seat].call(seat, state.throw, state.config.variant, rng)
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
        state.apply_throw(state.sample_throw(rng))
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


# --- the terminal game ----------------------------------------------------------------------

#: How each die colour is painted (``Terminal.paint`` style names); black shows as grey so
#: it stays visible on a dark background.
PAINT = {
    "orange": ("orange", "bold"),
    "blue": ("blue", "bold"),
    "black": ("grey", "bold"),
    "yellow": ("yellow", "bold"),
    "green": ("green", "bold"),
    "red": ("red", "bold"),
    "white": ("white", "bold"),
}
GLYPHS = {1: "\u2680", 2: "\u2681", 3: "\u2682", 4: "\u2683", 5: "\u2684", 6: "\u2685"}
DOT = "\u25cf"


def render_throw(term: Terminal, throw: Throw) -> list[str]:
    """Two lines showing the throw: coloured glyphs if the terminal has colour, else words."""

    def paint(text: str, colour: str) -> str:
        return term.paint(text, *PAINT.get(colour, ()))

    if term.colour:
        dice = []
        for colour, face in throw.coloured:
            if isinstance(face, int):
                dice.append(paint(f"{GLYPHS.get(face, '?')}{face}", colour))
            else:
                dice.append(paint("(", colour) + paint(DOT, face) + paint(")", colour))
        white = [paint("[", "white") + paint(DOT, w) + paint("]", "white") for w in throw.white]
    else:
        dice = [f"{c} {f}" if isinstance(f, int) else f"{c}: {f} dot" for c, f in throw.coloured]
        white = [f"{w} dot" for w in throw.white]
    return ["  coloured: " + "   ".join(dice), "  white:    " + "   ".join(white)]


def explain(result: RoundResult, variant: bool) -> str:
    """One line saying why the correct sum is what it is."""
    bd = breakdown(result.throw, variant)
    terms = " + ".join(f"{c} {p}" for c, p in bd.counted) or "nothing"
    excl = ", ".join(bd.excluded) or "none"
    if bd.reversed:
        return f"a dot shows twice, so only the dice shown as dots count ({excl}): {terms} = {bd.total}"
    return f"dice shown as dots don't count ({excl}): {terms} = {bd.total}"


class _Quit(Exception):
    """The person typed q."""


class TerminalGame:
    """A person (seat 0) against bots (seats 1..n) at the terminal.

    Args:
        term: where to read and write.
        spec, config: the dice and the game's rules (``config.players`` = 1 + bots).
        bots: the bots, for seats 1, 2, ...
        rng: the game's RNG (first thrower, throws, bots' calls).
        clock: seconds as a float; the person's answer time is the difference of two
            readings (inject a scripted clock in tests).
        throw_source: where throws come from (default: fair throws from ``rng``).
    """

    def __init__(
        self,
        term: Terminal,
        spec: BlitzSpec,
        config: GameConfig,
        bots: Sequence[BlitzBot],
        rng: np.random.Generator,
        clock: Callable[[], float] = _time.monotonic,
        throw_source: ThrowSource = _fair,
    ):
        if config.players != len(bots) + 1:
            raise ValueError(
                f"{config.players} players = you + {config.players - 1} bots, got {len(bots)} bots"
            )
        self.term, self.spec, self.config, self.rng = term, spec, config, rng
        self.bots = {i + 1: b for i, b in enumerate(bots)}
        self.names = ["You"] + [b.name for b in bots]
        self.clock, self.throw_source = clock, throw_source
        self.state = new_game(spec, config, rng)

    # -- prompts -----------------------------------------------------------------------------
    def _ready(self, answer: str) -> bool:
        if answer.lower() in ("q", "quit"):
            raise _Quit
        if answer:
            raise ValueError("press Enter to lift the box, or type q to quit")
        return True

    def _sum(self, answer: str) -> int | None:
        a = answer.lower()
        if a in ("q", "quit"):
            raise _Quit
        if a in ("p", "pass"):
            return None
        top = self.spec.max_call
        if not a.isdigit():
            raise ValueError(f"type the sum as a number 0..{top}, p to pass or q to quit")
        value = int(a)
        if value > top:
            raise ValueError(f"no throw sums to more than {top}")
        return value

    # -- output ------------------------------------------------------------------------------
    def standings(self) -> str:
        wpb = self.config.whites_per_black
        parts = [
            f"{n}: {w}/{wpb[i]} white, {b} black"
            for i, (n, (w, b)) in enumerate(zip(self.names, self.state.discs()))
        ]
        return "  " + " | ".join(parts)

    def _report(self, result: RoundResult, you_time: float | None) -> None:
        say, paint = self.term.say, self.term.paint
        say(f"  correct: {paint(str(result.correct), 'bold')} — {explain(result, self.config.variant)}")
        for c in result.calls:
            ok = c.value == result.correct
            what = paint("right", "green") if ok else paint("wrong", "red")
            effect = ""
            if ok:
                effect = " +1 white disc"
                if c.player in result.exchanged:
                    effect += f" → {self.config.whites_per_black[c.player]} white exchanged for a black disc"
            elif c.player in result.lost_white:
                effect = " -1 white disc"
            say(f"  {c.time:6.2f} s  {self.names[c.player]:<16} {c.value:>3}  {what}{effect}")
        if not result.calls:
            say("  nobody called")
        elif not result.winners:
            say("  nobody called the right sum")
        for c in result.late:
            if c.player == 0:
                first = result.calls[0] if result.calls else None
                by = next((x for x in result.calls if x.player in result.winners), first)
                say(
                    f"  you called {c.value} after {c.time:.2f} s — too late, "
                    f"{self.names[by.player]} had it after {by.time:.2f} s"
                )
        if you_time is None:
            say("  you passed")

    # -- the game ----------------------------------------------------------------------------
    def play(self) -> int:
        """Play until someone wins or the person stops; returns the exit code (0)."""
        say = self.term.say
        mode = "variant Hirnverdreher" if self.config.variant else "standard rule"
        say(f"Würfelblitz — {self.config.players} players, {self.config.white_dice} white dice, {mode}.")
        say(
            f"Call the sum of the coloured dice whose colour is not shown as a dot; first to "
            f"{self.config.black_to_win} black discs wins. Type the sum and Enter (p = pass, q = quit)."
        )
        if self.config.variant:
            say(
                "Hirnverdreher: as soon as a dot colour shows twice or more, add exactly the dice "
                "whose colour is shown as a dot instead."
            )
        try:
            while not self.state.is_terminal():
                self._round()
        except _Quit:
            say("Game stopped.")
            say(self.standings())
            return 0
        except EOFError:
            say("")
            say(f"Input ended — game stopped in round {self.state.round_number}.")
            say(self.standings())
            return 0
        names = " and ".join(self.names[p] for p in self.state.winners())
        say(self.term.paint(f"{names} won after {len(self.state.history)} rounds!", "bold"))
        say(self.standings())
        return 0

    def _round(self) -> None:
        st, term = self.state, self.term
        term.say("")
        term.say(f"Round {st.round_number} — {self.names[st.thrower]} throw{'' if st.thrower == 0 else 's'}.")
        term.say(self.standings())
        term.ask("Press Enter to lift the box (q = quit): ", self._ready)
        st.apply_throw(self.throw_source(st, self.rng))
        calls = bot_calls(st, self.bots, self.rng)
        term.say("Drei!")
        for line in render_throw(term, st.throw):
            term.say(line)
        start = self.clock()
        value = term.ask("Sum? ", self._sum)
        you_time = self.clock() - start
        if value is not None:
            calls.insert(0, Call(0, value, max(0.0, you_time)))
        result = st.apply_calls(calls)
        self._report(result, you_time if value is not None else None)
