"""Würfelblitz in the terminal: a person against bots, timed, with save and resume.

Each round shows the throw, times the person's answer with an injectable clock and
compares it with the bots' sampled answer times; the rules engine decides who was first
and right. The prompts run through :class:`doppelx.terminal.TerminalMatch` (status bar,
``help``, ``save``, ``quit``, arrow-key history). A save holds the game up to the last
finished round and the generator's state at the start of the round being played, so a
resumed game throws the same dice and the bots answer as they would have (a round
interrupted at the "Sum?" prompt is played again from the start).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from doppelx.games.wuerfelblitz.bots import SKILLS, BlitzBot, skill
from doppelx.games.wuerfelblitz.tournament import bot_calls
from doppelx.games.wuerfelblitz.view import explain, legend, render_throw, standings
from doppelx.terminal import PromptCommand, Terminal, TerminalMatch, load_json, set_rng_state
from rules.common.errors import SpecError
from rules.common.rng import make_rng
from rules.common.schema import DataTable, plain_digits
from rules.wuerfelblitz import (
    BlitzSpec,
    BlitzState,
    BlitzThrow,
    Call,
    GameConfig,
    RoundResult,
    load_spec,
    new_game,
)
from rules.wuerfelblitz import replay as replay_game

SAVE_FORMAT = "doppelx-blitz-save/1"

#: Supplies the next throw for a state (default: a fair throw from the game's RNG).
ThrowSource = Callable[[BlitzState, np.random.Generator], BlitzThrow]


def _fair(state: BlitzState, rng: np.random.Generator) -> BlitzThrow:
    return state.sample_chance(rng)


def make_bots(skills: Sequence[str], first_number: int = 1) -> list[BlitzBot]:
    """Bots of these skill levels, named ``Bot 1 (easy)``, … from ``first_number`` on."""
    return [BlitzBot(skill(s), f"Bot {i} ({s})") for i, s in enumerate(skills, first_number)]


class BlitzMatch(TerminalMatch):
    """A person (seat 0) against bots (seats 1..n) at the terminal.

    Args:
        term: where to read and write.
        spec, config: the dice and the game's rules (``config.players`` = 1 + bots).
        bots: the bots, for seats 1, 2, ...
        rng: the game's RNG (first thrower, throws, bots' calls).
        clock: seconds as a float; the person's answer time is the difference of two
            readings (inject a scripted clock in tests).
        throw_source: where throws come from (default: fair throws from ``rng``).
        save_path: where ``save``, ``quit`` and the end of input save (``None``: not saved).
        seed: the seed the game started from (kept in the save).
        dice_file: the dice spec file given with ``--dice`` (kept in the save).
        state: a resumed game (default: a new one, first thrower drawn from ``rng``).
    """

    command = "blitz"

    def __init__(
        self,
        term: Terminal,
        spec: BlitzSpec,
        config: GameConfig,
        bots: Sequence[BlitzBot],
        rng: np.random.Generator,
        clock: Callable[[], float] = _time.monotonic,
        throw_source: ThrowSource = _fair,
        save_path: Path | None = None,
        seed: int | None = None,
        dice_file: str | None = None,
        state: BlitzState | None = None,
    ):
        super().__init__(term, save_path)
        if config.players != len(bots) + 1:
            raise ValueError(
                f"{config.players} players = you + {config.players - 1} bots, got {len(bots)} bots"
            )
        self.spec, self.config, self.rng = spec, config, rng
        self.bots = {i + 1: b for i, b in enumerate(bots)}
        self.names = ["You"] + [b.name for b in bots]
        self.clock, self.throw_source = clock, throw_source
        self.seed, self.dice_file = seed, dice_file
        self.state = state if state is not None else new_game(spec, config, rng)
        self.round_rng_state = rng.bit_generator.state

    # -- the TerminalMatch hooks ---------------------------------------------------------------
    def status_line(self) -> str:
        wpb = self.config.whites_per_black
        discs = " | ".join(
            f"{n} {w}/{wpb[i]}w {b}/{self.config.black_to_win}b"
            for i, (n, (w, b)) in enumerate(zip(self.names, self.state.discs()))
        )
        return f"Würfelblitz · round {self.state.round_number} · {discs}"

    def commands(self) -> list[PromptCommand]:
        return [
            PromptCommand("(Enter)", "lift the box: the dice are shown and the clock runs"),
            PromptCommand("8", "call the sum 8 (the clock stops when you press Enter)"),
            PromptCommand("p", "pass this round"),
        ]

    def to_save(self) -> dict[str, Any]:
        game = self.state.to_json()
        if self.state.throw is not None:  # in the middle of a round: keep it out, replay it
            game["actions"] = game["actions"][:-1]
        return {
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "dice": self.dice_file,
            "bots": [b.skill.name for b in self.bots.values()],
            "game": game,
            "rng": self.round_rng_state,
        }

    def stopped(self, why: str) -> None:
        if why == "input ended":
            self.term.say(f"Input ended — game stopped in round {self.state.round_number}.")
        else:
            self.term.say("Game stopped.")
        self.term.say(self.standings())

    # -- prompts -----------------------------------------------------------------------------
    def _ready(self, answer: str) -> bool:
        if answer:
            raise ValueError("press Enter to lift the box, or type q to quit")
        return True

    def _sum(self, answer: str) -> int | None:
        a = answer.lower()
        if a in ("p", "pass"):
            return None
        top = self.spec.max_call
        if not plain_digits(a):
            raise ValueError(f"type the sum as a number 0..{top}, p to pass or q to quit")
        value = int(a)
        if value > top:
            raise ValueError(f"no throw sums to more than {top}")
        return value

    # -- output ------------------------------------------------------------------------------
    def standings(self) -> str:
        return standings(self.names, self.state.discs(), self.config.whites_per_black)

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
                assert by is not None  # a call is late only after a right one was made
                say(
                    f"  you called {c.value} after {c.time:.2f} s — too late, "
                    f"{self.names[by.player]} had it after {by.time:.2f} s"
                )
        if you_time is None:
            say("  you passed")

    # -- the game ----------------------------------------------------------------------------
    def play(self) -> None:
        say = self.term.say
        mode = "variant Hirnverdreher" if self.config.variant else "standard rule"
        say(f"Würfelblitz — {self.config.players} players, {self.config.white_dice} white dice, {mode}.")
        say(
            f"Call the sum of the coloured dice whose colour is not shown as a dot; first to "
            f"{self.config.black_to_win} black discs wins. Type the sum and Enter (p = pass, q = quit, "
            "help = commands)."
        )
        if self.term.colour:
            say("  " + legend(self.spec.colours))
        if self.config.variant:
            say(
                "Hirnverdreher: as soon as a dot colour shows twice or more, add exactly the dice "
                "whose colour is shown as a dot instead."
            )
        while not self.state.is_terminal():
            self._round()

    def finished(self) -> None:
        names = " and ".join(self.names[p] for p in self.state.winners())
        self.term.say(self.term.paint(f"{names} won after {len(self.state.history)} rounds!", "bold"))
        self.term.say(self.standings())

    def _round(self) -> None:
        st, term = self.state, self.term
        self.round_rng_state = self.rng.bit_generator.state
        term.say("")
        term.say(f"Round {st.round_number} — {self.names[st.thrower]} throw{'' if st.thrower == 0 else 's'}.")
        term.say(self.standings())
        self.prompt("Press Enter to lift the box (q = quit): ", self._ready)
        st.apply_chance(self.throw_source(st, self.rng))
        calls = bot_calls(st, self.bots, self.rng)
        term.say("Drei!")
        assert st.throw is not None  # apply_chance just put it on the table
        for line in render_throw(term, st.throw):
            term.say(line)
        start = self.clock()
        value = self.prompt("Sum? ", self._sum)
        you_time = self.clock() - start
        if value is not None:
            calls.insert(0, Call(0, value, max(0.0, you_time)))
        result = st.apply_calls(calls)
        self._report(result, you_time if value is not None else None)


def resume(term: Terminal, path: Path, save_path: Path | None = None) -> BlitzMatch:
    """A game continued from a save file (its log replayed and checked).

    Raises:
        SpecError: the file is not a Würfelblitz save, or it is damaged (the element is named).
    """
    top = DataTable(load_json(path), str(path))
    if top.raw("format", None) != SAVE_FORMAT:  # first: another kind of file is said so
        raise top.error("format", f"expected {SAVE_FORMAT!r} (a 'doppelx blitz' save)")
    top.check_keys({"format", "seed", "dice", "bots", "game", "rng"})
    seed = top.integer("seed", minimum=0, maximum=2**63 - 1)
    dice_file = None if top.raw("dice") is None else top.string("dice")
    try:
        spec = load_spec(dice_file)
    except SpecError as exc:
        raise top.error("dice", f"the saved game's dice file: {exc}") from None
    state = replay_game(top.raw("game"), spec, top.source, where=top.where("game"))
    players = state.config.players
    skills = top.strings(
        "bots", choices=tuple(SKILLS), length=players - 1, what=f"bots ({players} players = you + bots)"
    )
    rng = make_rng(0)
    set_rng_state(rng, top.raw("rng"), path, "rng")
    return BlitzMatch(
        term,
        spec,
        state.config,
        make_bots(skills),
        rng,
        save_path=save_path if save_path is not None else path,
        seed=seed,
        dice_file=dice_file,
        state=state,
    )
