"""Doppelt so clever in the terminal: people (hot-seat) and bots at one table, with save and resume.

A match owns the game state, one seeded generator for the dice and one per bot. Every
roll and decision goes into the game's log; a save holds the log plus the generators'
states, so a resumed match continues exactly as the uninterrupted one would. The prompts
run through :class:`doppelx.terminal.TerminalMatch`: a status bar above each prompt,
``help`` (every command with an example), ``save`` (save and go on), ``quit`` (save and
stop), ``sheet`` (show every sheet) and arrow-key history; the end of input saves and
stops like ``quit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from doppelx.games.clever.bots import BOT_KINDS, make_bot
from doppelx.games.clever.tournament import game_generators
from doppelx.games.clever.view import (
    COLOUR,
    LEGEND,
    describe_action,
    describe_decision,
    render_dice,
    render_sheet,
)
from doppelx.terminal import (
    PromptCommand,
    Terminal,
    TerminalMatch,
    load_json,
    naming_save,
    set_rng_state,
)
from rules.clever.actions import Action
from rules.clever.game import (
    ACTIVE_PICK,
    BEFORE_ROLL,
    PASSIVE_PICK,
    PENDING,
    PLUS_ONE,
    CleverGame,
    CleverState,
    replay,
)
from rules.common.schema import DataTable, plain_digits
from rules.contract import chance_step

SAVE_FORMAT = "doppelx-clever-save/1"
PLAYER_KINDS = ("human",) + tuple(BOT_KINDS)

_VERB = {
    ACTIVE_PICK: "picks",
    BEFORE_ROLL: "before the roll",
    PASSIVE_PICK: "takes",
    PLUS_ONE: "uses +1",
    PENDING: "bonus",
}


def parse_players(text: str) -> list[str]:
    """``human,strong`` -> ``["human", "strong"]``; 1-4 known kinds, else ``ValueError``."""
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    if not 1 <= len(kinds) <= 4:
        raise ValueError(f"Doppelt so clever is for 1-4 players, got {len(kinds)}")
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r}; use {', '.join(PLAYER_KINDS)}")
    return kinds


class CleverMatch(TerminalMatch):
    """One game at the terminal.

    Args:
        kinds: ``human`` or a bot kind per seat.
        seed: the match seed (dice and bots).
        term: where to talk to the people.
        save_path: where ``save``/``quit``/end of input write the match (default
            ``clever-save.json``).
    """

    command = "clever"
    default_save = Path("clever-save.json")

    def __init__(self, kinds: Sequence[str], seed: int, term: Terminal, save_path: Path | None):
        super().__init__(term, save_path)
        self.kinds = list(kinds)
        self.seed = seed
        gens = game_generators(seed, 0, len(kinds))
        self.dice = gens[0]
        self.bot_rngs = gens[1:]
        self.bots = {i: make_bot(k, self.bot_rngs[i]) for i, k in enumerate(kinds) if k != "human"}
        self.state: CleverState = CleverGame(len(kinds)).new_initial_state()
        humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.names = []
        for i, kind in enumerate(kinds):
            if kind == "human":
                self.names.append("You" if len(humans) == 1 else f"Player {i + 1}")
            else:
                self.names.append(f"Bot {i + 1} ({kind})")
        self._shown: tuple | None = None

    # ---------------------------------------------------------------- TerminalMatch hooks
    def status_line(self) -> str:
        state = self.state
        seat = state.current_player()
        sheet = state.sheets[seat] if seat >= 0 else None
        scores = " | ".join(f"{n} {p}" for n, p in zip(self.names, state.scores()))
        actions = (
            f" · {self.names[seat]}: reroll {sheet.rerolls}, return {sheet.returns}, +1 {sheet.plus_ones}, "
            f"fox {sheet.foxes}"
            if sheet is not None
            else ""
        )
        return f"Doppelt so clever · round {state.round}/{state.game.rounds} · {scores} points{actions}"

    def commands(self) -> list[PromptCommand]:
        return [PromptCommand("3", "take choice 3 of the list"), PromptCommand("sheet", "show every sheet")]

    def words(self) -> dict:
        return {"sheet": self.show_sheets}

    def show_help(self) -> None:
        super().show_help()
        self.term.say(LEGEND)

    def show_sheets(self) -> None:
        for seat, sheet in enumerate(self.state.sheets):
            self.term.say(render_sheet(self.term, sheet, self.names[seat]))

    # ---------------------------------------------------------------- save / resume
    def to_save(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "players": self.kinds,
            "seed": self.seed,
            "dice_rng": self.dice.bit_generator.state,
            "bot_rngs": [g.bit_generator.state for g in self.bot_rngs],
            "game": self.state.to_json(),
        }

    @classmethod
    def resume(cls, path: Path, term: Terminal, save_path: Path | None) -> CleverMatch:
        """Rebuild a saved match; a bad file is a :class:`SpecError` naming the file and the element."""
        top = DataTable(load_json(path), str(path))
        if top.raw("format", None) != SAVE_FORMAT:  # first: another kind of file is said so
            raise top.error("format", f"not a Doppelt so clever save (expected {SAVE_FORMAT!r})")
        top.check_keys({"format", "players", "seed", "dice_rng", "bot_rngs", "game"})
        kinds = top.strings("players", choices=PLAYER_KINDS, shortest=1, longest=4, what="players")
        match = cls(kinds, top.integer("seed", minimum=0, maximum=2**63 - 1), term, save_path or path)
        match.state = replay(top.raw("game"), source=top.source, where=top.where("game"))
        if len(match.state.sheets) != len(kinds):
            n = len(match.state.sheets)
            raise top.error("players", f"{len(kinds)} players, but the saved game (game.players) has {n}")
        set_rng_state(match.dice, top.raw("dice_rng"), path, "dice_rng")
        states = top.array("bot_rngs", length=len(kinds), what="generator states (one per seat)")
        for i, (g, st) in enumerate(zip(match.bot_rngs, states)):
            set_rng_state(g, st, path, top.item("bot_rngs", i))
        return match

    # ---------------------------------------------------------------- playing
    def play(self) -> None:
        """Run to the end (``quit`` or the end of input stop early: :func:`run_match`)."""
        term, state = self.term, self.state
        term.say(
            term.paint("Doppelt so clever", "bold") + f" - {len(self.kinds)} player(s), "
            f"{state.game.rounds} rounds, seed {self.seed}."
            + (" Type 'help' at any prompt." if len(self.bots) < len(self.kinds) else "")
        )
        while not state.is_terminal():
            if state.is_chance_node():
                who = self.names[state.active]
                verb = "roll" if who == "You" else "rolls"
                step = f"passive step, {verb} all dice" if state.solo_passive else verb
                dice = state.chance_dice()
                values = chance_step(state, self.dice)
                rolled = ", ".join(term.paint(f"{d} {v}", COLOUR[d]) for d, v in zip(dice, values))
                term.say(f"-- round {state.round}: {who} {step}: {rolled}")
                continue
            seat = state.current_player()
            before = list(state.platter)
            if seat in self.bots:
                action = self.bots[seat].choose(state)
                term.say(f"   {self.names[seat]} {_VERB[state.phase]}: {describe_action(state, action)}")
                state.apply_action(action)
            else:
                self._human_turn(seat)
            sent = [d for d in state.platter if d not in before]
            if sent:  # ninth playtest: a turn ended at "pick 1 of 3" with no word where the dice went
                lower = ", ".join(term.paint(f"{d} {state.values[d]}", COLOUR[d]) for d in sent)
                term.say(f"   lower than the die picked, to the silver platter: {lower}")

    def _human_turn(self, seat: int) -> None:
        term, state = self.term, self.state
        sheet_key = (seat, repr(state.sheets[seat].to_dict()))
        if state.phase == PENDING:
            item = state.pending[0]
            areas = ("silver",) if item[0] == "platter" else (None if item[1] == "any" else (item[1],))
            term.say(render_sheet(term, state.sheets[seat], self.names[seat], areas))
        elif sheet_key != self._shown:
            term.say(render_sheet(term, state.sheets[seat], self.names[seat]))
        self._shown = sheet_key
        term.say(render_dice(term, state))
        term.say(term.paint(f"{self.names[seat]} - {describe_decision(state)}", "bold"))
        legal = state.legal_actions()
        labels = [describe_action(state, a) for a in legal]
        for i, label in enumerate(labels, 1):
            term.say(f"  {i:>2}) {label}")
        action = self.prompt(f"choice 1-{len(legal)} (or help): ", lambda answer: self._parse(answer, legal))
        state.apply_action(action)

    def _parse(self, answer: str, legal: list[Action]) -> Action:
        word = answer.strip().lower()
        if not plain_digits(word):
            raise ValueError(f"{answer!r} is not a number; type 1-{len(legal)}, or help for the commands")
        number = int(word)
        if not 1 <= number <= len(legal):
            raise ValueError(f"{number} is not a choice; type 1-{len(legal)}")
        return legal[number - 1]

    def finished(self) -> None:
        term, state = self.term, self.state
        term.say(term.paint("Game over.", "bold"))
        for seat, sheet in enumerate(state.sheets):
            term.say(render_sheet(term, sheet, self.names[seat]))
        totals = state.scores()
        for seat in sorted(range(len(totals)), key=lambda s: -totals[s]):
            term.say(f"  {self.names[seat]:<16} {totals[seat]:>4} points")
        winners = state.winners()
        if len(state.sheets) == 1:
            term.say(f"Solo rating: {state.spec.rating_band(totals[0])}")
        elif len(winners) == 1:
            term.say(f"Winner: {self.names[winners[0]]}")
        else:
            term.say("Shared win: " + ", ".join(self.names[w] for w in winners))


def run_match(
    kinds: Sequence[str], seed: int, term: Terminal, save_path: Path | None, resume_path: Path | None
) -> int:
    """Start or resume a match and play it; ``quit`` and the end of input save and stop cleanly."""
    if resume_path:
        with naming_save(resume_path):
            match = CleverMatch.resume(resume_path, term, save_path)
    else:
        match = CleverMatch(kinds, seed, term, save_path)
    return match.run()
