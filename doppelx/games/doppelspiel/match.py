"""Das Doppel Spiel in the terminal: a person against a bot, or two people at one keyboard.

Draws both score sheets, the dice and the legal choices at every decision, lists the
solver's best writes as numbered suggestions, refuses a wrong input with the rules' reason
and asks again, and prints what the bot does. Dice are named by their faces everywhere
(``roll 1 1 4``, ``keep 6 6 6``, ``swap 3 6``, ``split 11665``). The prompts run through
:class:`doppelx.terminal.TerminalMatch` (status bar, ``help`` with examples, arrow-key
history): ``save`` stores the game (with the dice generator's state, so a resumed game
throws the same dice) and ``quit`` or the end of the input ends it cleanly — saving it
when a save file is known.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from doppelx.games.doppelspiel.bots import make_bot
from doppelx.games.doppelspiel.view import dice_lines, sheet_lines, tracks_lines
from doppelx.terminal import PromptCommand, Terminal, TerminalMatch, load_json, set_rng_state
from rules.common.errors import RulesError
from rules.common.schema import DataTable, plain_digits
from rules.doppelspiel import (
    Action,
    ActivateJoker,
    DoppelState,
    FreeThrow,
    Pass,
    Place,
    Repeat,
    Roll,
    Split,
    Swap,
    WriteTen,
    Zwang,
    best_writes,
    parse_action,
    replay,
)
from rules.doppelspiel.fields import base_value

SAVE_FORMAT = "doppelx-doppel-save/1"
SUGGESTIONS = 6
COMMANDS = (
    PromptCommand("3", "take numbered suggestion or choice 3"),
    PromptCommand("roll", "throw all ten dice again"),
    PromptCommand("roll 1 1 4", "throw the dice showing 1, 1 and 4 again"),
    PromptCommand("keep 6 6 6", "keep the dice showing 6, 6, 6 and throw the others again"),
    PromptCommand(
        "free 1 1 4", "a free throw (Freiwurf) of the dice showing 1, 1, 4 (free keep 6 6 6 works too)"
    ),
    PromptCommand("repeat 2", "Wiederholen: strike the 2 and throw every die showing 2 again"),
    PromptCommand("swap 3 6", "Tauschen: a die showing 3 becomes a 6 (strikes the 3 and the 6)"),
    PromptCommand("split 11665", "stop throwing: these five dice are group 1, the other five group 2"),
    PromptCommand("ten 3", "write all ten dice into the 10er of column 3"),
    PromptCommand("116@1", "place the current group into 1-1-6 of column 1 (116@1 x2: doubled)"),
    PromptCommand("skip", "set the current group aside (Aussetzen)"),
    PromptCommand("strike fh@2", "strike Full House of column 2 (once every Aussetzen box is used)"),
    PromptCommand("joker 2", "before the first throw: activate the Joker of column 2"),
    PromptCommand(
        "zwang 116@1 6s@3", "after your write: mark two of the opponent's fields (zwang ten@2: a 10er)"
    ),
    PromptCommand("pass", "use no Zwang"),
    PromptCommand("sheet", "show both sheets and the dice"),
    PromptCommand("hint", "list the best writes"),
)
FIELDS = "Fields: 116 225 334 443 552 661 (upper), ten, 1s..6s (middle), 3k 4k fh ss ls 5k ch (lower)."


@dataclass(frozen=True)
class Seat:
    """Who plays a sheet: ``kind`` is ``human``, ``strong`` or ``random``."""

    name: str
    kind: str


class DoppelMatch(TerminalMatch):
    """One game in the terminal.

    Args:
        term: the terminal (streams and colour).
        state: the game (new or resumed).
        seats: the two players.
        rng: the generator for the dice and the bots.
        seed: the seed the game started from (kept in the save).
        save_path: where ``save``, ``quit`` and the end of the input save (``None``: ask on ``save``).
    """

    command = "doppel"

    def __init__(
        self,
        term: Terminal,
        state: DoppelState,
        seats: list[Seat],
        rng: np.random.Generator,
        seed: int,
        save_path: Path | None = None,
    ):
        super().__init__(term, save_path)
        self.state = state
        self.seats = seats
        self.bots = [None if s.kind == "human" else make_bot(s.kind) for s in seats]
        self.rng = rng
        self.seed = seed
        self.names = [s.name for s in seats]
        self.last_turn = -1

    # --- TerminalMatch hooks ------------------------------------------------------------
    def to_save(self) -> dict[str, Any]:
        """The save: seats, seed, the game log and the dice generator's state."""
        return {
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "seats": [{"name": s.name, "kind": s.kind} for s in self.seats],
            "game": self.state.to_json(),
            "rng": self.rng.bit_generator.state,
        }

    def status_line(self) -> str:
        state, spec = self.state, self.state.spec
        who = self.names[state.player]
        res = state.result()
        totals = " | ".join(f"{n} {g} ({p} mp)" for n, g, p in zip(self.names, res.grand, res.points))
        throw = f" · throw {state.throws}/{spec.throws_per_turn}" if state.dice is not None else ""
        sheet = state.sheet
        # the thrower's own figures first: an 80-column terminal cuts the line's end, and the
        # totals are on the sheet too
        own = f" · free throws {sheet.free_available()} · Aussetzen {spec.aussetzen_boxes - sheet.aussetzen} left"
        return f"Doppel Spiel · turn {state.turn + 1}: {who}{throw}{own} · {totals}"

    def commands(self) -> tuple[PromptCommand, ...]:
        return COMMANDS

    def words(self) -> dict:
        return {"sheet": self._sheet_word, "hint": self._suggest}

    def show_help(self) -> None:
        super().show_help()
        self.term.say(FIELDS)

    def _sheet_word(self) -> None:
        self.show_sheets()
        if self.state.dice is not None:
            self.show_dice()

    # --- drawing ------------------------------------------------------------------------
    def show_sheets(self) -> None:
        self.term.say()
        for line in sheet_lines(self.term, self.state, self.names):
            self.term.say(line)
        for line in tracks_lines(self.term, self.state, self.names):
            self.term.say(line)

    def show_dice(self, fresh: tuple[int, ...] = ()) -> None:
        for line in dice_lines(self.term, self.state.thrown, fresh):
            self.term.say(line)

    # --- the loop -----------------------------------------------------------------------
    def play(self) -> None:
        self._loop()

    def finished(self) -> None:
        self.show_result()

    def _loop(self) -> None:
        state = self.state
        while not state.is_terminal():
            if state.turn != self.last_turn and not state.is_chance_node():
                self.last_turn = state.turn
                self._turn_banner()
            if state.is_chance_node():
                pending = state.chance_dice()
                faces = state.sample_chance(self.rng)
                state.apply_action(faces)
                self.show_dice(pending)
                continue
            bot = self.bots[state.current_player()]
            if bot is not None:
                action = bot.act(state, self.rng)
                self._announce(action)
                continue
            for action in self._ask_human():
                self._announce(action)

    def _turn_banner(self) -> None:
        state = self.state
        who = self.names[state.player]
        human = self.bots[state.player] is None
        if human:
            self.show_sheets()
        self.term.say(self.term.paint(f"--- turn {state.turn + 1}: {who} ---", "bold", "cyan"))
        if state.marks[state.player]:
            self.term.say(
                self.term.paint(
                    "Zwang: this turn must fill " + ", ".join(map(str, state.marks[state.player])), "yellow"
                )
            )

    def _announce(self, action: Action) -> None:
        """Apply ``action`` and print what happened."""
        state = self.state
        who = self.names[state.player]
        player = state.player
        group = state.groups[state.placed] if state.phase == "place" else None
        before = [list(c) for c in state.sheets[player].cells]
        before_dice = state.dice
        state.apply_action(action)
        after = state.sheets[player].cells
        written = [
            (c, i, after[c][i])
            for c in range(len(after))
            for i in range(len(after[c]))
            if before[c][i] is None and after[c][i] is not None
        ]
        text = str(action)
        if isinstance(action, ActivateJoker):
            text = f"activates the Joker of column {action.column + 1}"
        elif isinstance(action, Roll):
            text = (
                "throws all ten dice"
                if len(action.dice) == state.spec.dice or before_dice is None
                else "throws " + " ".join(str(before_dice[i]) for i in action.dice) + " again"
            )
        elif isinstance(action, FreeThrow):
            assert before_dice is not None  # a free throw follows the turn's first throw
            text = "takes a free throw with " + " ".join(str(before_dice[i]) for i in action.dice)
        elif isinstance(action, Repeat):
            text = f"Wiederholen: throws every {action.face} again"
        elif isinstance(action, Swap):
            assert before_dice is not None  # a swap follows the turn's first throw
            text = f"Tauschen: a {before_dice[action.die]} becomes a {action.face}"
        elif isinstance(action, Zwang):
            text = "Zwang: the opponent must fill " + " and ".join(map(str, action.targets)) + " next turn"
        elif isinstance(action, Pass):
            text = "uses no Zwang"
        elif isinstance(action, Place):
            assert group is not None  # a Place is applied in the place phase
            g = "".join(map(str, group))
            if action.mode == "skip":
                text = f"sets {g} aside (Aussetzen)"
            elif action.mode == "strike":
                text = f"strikes {action.target} with {g}"
            else:
                text = f"writes {g} into {action.target}{' doubled' if action.doubled else ''}"
        elif isinstance(action, WriteTen):
            text = f"writes all ten dice into ten@{action.column + 1}"
        elif isinstance(action, Split):
            text = "splits: " + "".join(map(str, action.group)) + " | " + "".join(map(str, state.groups[1]))
        for _, _, v in written:
            text += f" = {v}"
        self.term.say(f"  {self.term.paint(who, 'bold')}: {text}")
        if isinstance(action, Swap):
            self.show_dice((action.die,))

    # --- the person's decisions ---------------------------------------------------------
    def _ask_human(self) -> list[Action]:
        state = self.state
        phase = state.phase
        if phase == "start":
            legal = state.legal_actions()
            if legal == [Roll(tuple(range(state.spec.dice)))]:
                return legal
            jokers = [str(a) for a in legal if isinstance(a, ActivateJoker)]
            self.term.say(
                "Before the throw you may activate a Joker: " + ", ".join(jokers) + " (Enter = just throw)"
            )
            return self._read("joker N / Enter > ", self._parse_start)
        if phase == "throw":
            self._throw_menu()
            return self._read("your move > ", self._parse_throw)
        if phase == "place":
            options = self._place_menu()
            return self._read(f"group {state.placed + 1} > ", lambda a: self._parse_place(a, options))
        if phase == "zwang":
            self._zwang_menu()
            return self._read("zwang / pass > ", self._parse_zwang)
        raise AssertionError(phase)

    def _read(self, prompt: str, parse) -> list[Action]:
        """Ask until ``parse`` gives actions that are legal one after the other."""

        def checked(answer: str) -> list[Action]:
            actions = parse(answer.strip())
            trial = self.state.clone()
            for a in actions:
                try:
                    trial.apply_action(a)
                except RulesError as exc:
                    raise ValueError(str(exc)) from None
            return actions

        return self.prompt(self.term.paint(prompt, "bold"), checked)

    def _parse_start(self, answer: str) -> list[Action]:
        if answer.lower() in ("", "roll", "n", "no", "pass"):
            return [Roll(tuple(range(self.state.spec.dice)))]
        if plain_digits(answer):
            answer = "joker " + answer
        return [self._action(answer)]

    def _action(self, text: str) -> Action:
        try:
            return parse_action(text, self.state.spec)
        except ValueError as exc:
            raise ValueError(f"{exc} (type help for the commands)") from None

    def _suggestions(self):
        return best_writes(self.state, top=SUGGESTIONS) if self.state.phase in ("throw", "place") else []

    def _suggest(self) -> None:
        plans = self._suggestions()
        if not plans:
            self.term.say("  no suggestions now")
            return
        self.term.say("  best writes (most points now):")
        for i, p in enumerate(plans, 1):
            self.term.say(f"  {i:>2}) {p}")

    def _throw_menu(self) -> None:
        state, sheet, spec = self.state, self.state.sheet, self.state.spec
        left = spec.throws_per_turn - state.throws
        extras = [
            f"throw {state.throws} of {spec.throws_per_turn}" + (f", {left} left (roll/keep)" if left else "")
        ]
        if sheet.free_available():
            extras.append(f"free throws {sheet.free_available()} (free)")
        rep = [f for f in sorted(set(state.thrown)) if f not in sheet.repeats]
        if rep:
            extras.append("repeat " + "/".join(map(str, rep)))
        swaps = [f for f in range(1, spec.faces + 1) if f not in sheet.swaps]
        if len(swaps) >= 2:
            extras.append("swap faces " + "".join(map(str, swaps)))
        if state.active_jokers:
            extras.append("Jokers active: " + ", ".join(f"column {c + 1}" for c in state.active_jokers))
        self.term.say("  " + " | ".join(extras))
        self._suggest()
        self.term.say("  or: roll 1 1 4 / keep 6 6 6, split <5 faces>, ten <column>, help")

    def _positions(self, words: list[str], verb: str) -> tuple[int, ...]:
        """Positions of dice showing the faces in ``words`` (first matches from the left)."""
        digits = "".join(words)
        if not plain_digits(digits):
            raise ValueError(f"{verb} takes the faces of dice, e.g. {verb} 1 1 4")
        wanted = Counter(int(c) for c in digits)
        positions = []
        for i, d in enumerate(self.state.thrown):
            if wanted[d] > 0:
                wanted[d] -= 1
                positions.append(i)
        if +wanted:
            missing = " ".join(map(str, sorted((+wanted).elements())))
            raise ValueError(
                f"the dice do not show {missing} (type the faces of the dice, e.g. {verb} 1 1 4)"
            )
        return tuple(positions)

    def _parse_throw(self, answer: str) -> list[Action]:
        state = self.state
        words = answer.split()
        if not words:
            raise ValueError("type a move, a suggestion number or help")
        if plain_digits(answer):
            plans = self._suggestions()
            n = int(answer)
            if not 1 <= n <= len(plans):
                raise ValueError(f"suggestions are 1..{len(plans)}")
            return list(plans[n - 1].actions)
        verb = words[0].lower()
        every = tuple(range(state.spec.dice))
        if verb in ("roll", "free"):
            make = Roll if verb == "roll" else FreeThrow
            rest = words[1:]
            if not rest:
                return [make(every)]
            if rest[0].lower() == "keep":
                kept = set(self._positions(rest[1:], "keep"))
                positions = tuple(i for i in every if i not in kept)
                if not positions:
                    raise ValueError("that keeps every die: nothing to throw")
                return [make(positions)]
            return [make(self._positions(rest, verb))]
        if verb == "keep":
            kept = set(self._positions(words[1:], "keep"))
            positions = tuple(i for i in every if i not in kept)
            if not positions:
                raise ValueError("that keeps every die: nothing to throw")
            return [Roll(positions)]
        if verb == "swap":
            if len(words) != 3 or not all(plain_digits(w, most=1) for w in words[1:]):
                raise ValueError("swap takes the face of a die and its new face, e.g. swap 3 6")
            (pos,) = self._positions(words[1:2], "swap")
            return [self._action(f"swap {pos + 1} {words[2]}")]
        if verb == "split" and len(words) > 1:
            return [self._action("split " + "".join(words[1:]))]
        if "@" in verb:  # a placement, typed before the dice are split into their two groups
            raise ValueError(f"{verb} places a group: split the dice first, e.g. split 11665, then place")
        return [self._action(answer)]

    def _place_menu(self) -> list[Place]:
        state = self.state
        group = "".join(map(str, state.groups[state.placed]))
        other = "".join(map(str, state.groups[1 - state.placed]))
        note = ""
        if state.doublings != (0, 0):
            any_d, joker_d = state.doublings
            note = f"  doublings left: {any_d} any field, {joker_d} Joker (upper/middle) - add x2"
        self.term.say(
            f"  place group {state.placed + 1}: {group}"
            + (f"   (other group {other})" if state.placed == 0 else "")
            + note
        )
        # in the place phase the legal actions are exactly the group's placements
        places = state.place_options(state.groups[state.placed])
        options = [p for p in places if not p.doubled]
        doubled = {p.target for p in places if p.doubled}
        plan = best_writes(state)[0]
        self.term.say(f"  suggestion: {plan}")
        cells = []
        for i, p in enumerate(options, 1):
            label = str(p).replace("place ", "")
            value = self._value_of(p)
            if value is not None:
                label += f" {value}" + (f" (x2 {2 * value})" if p.target in doubled else "")
            cells.append(f"{i:>3}) {label}")
        width = max(len(c) for c in cells) + 1
        per_row = max(1, 80 // width)
        for k in range(0, len(cells), per_row):
            self.term.say("".join(c.ljust(width) for c in cells[k : k + per_row]).rstrip())
        if doubled:
            self.term.say("  (add x2 to a number or field to double it, e.g. 3 x2)")
        return options

    def _value_of(self, place: Place) -> int | None:
        if place.mode != "write":
            return None
        state = self.state
        assert place.target is not None  # a write names its field
        base = base_value(state.spec.field(place.target.key), state.groups[state.placed])
        return base

    def _parse_place(self, answer: str, options: list[Place]) -> list[Action]:
        if not answer:
            raise ValueError("type a choice number, a field like 116@1, skip or strike fh@2")
        words = answer.split()
        if plain_digits(words[0]) and (len(words) == 1 or words[1:] == ["x2"]):
            n = int(words[0])
            if not 1 <= n <= len(options):
                raise ValueError(f"choices are 1..{len(options)}")
            place = options[n - 1]
            if len(words) == 2:
                if place.mode != "write":
                    raise ValueError("only a written field can be doubled")
                place = Place("write", place.target, True)
            return [place]
        if not answer.startswith("place "):
            answer = "place " + answer
        return [self._action(answer)]

    def _zwang_menu(self) -> None:
        state = self.state
        opp = state.sheets[1 - state.player]
        refs = [
            f"{state.spec.fields[c.field].key}@{c.column + 1}"
            for c in opp.open_cells()
            if state.spec.fields[c.field].has_square
        ]
        self.term.say(
            self.term.paint(
                "A Zwang is ready: mark two of the opponent's open fields (or one 10er), or pass.", "yellow"
            )
        )
        self.term.say("  open fields with the small square: " + " ".join(refs))

    def _parse_zwang(self, answer: str) -> list[Action]:
        if answer in ("", "pass"):
            return [Pass()]
        if not answer.startswith("zwang"):
            answer = "zwang " + answer
        return [self._action(answer)]

    # --- the end ------------------------------------------------------------------------
    def show_result(self) -> None:
        self.show_sheets()
        res = self.state.result()
        self.term.say(self.term.paint("Game over - match points:", "bold"))
        for what, who, worth in res.awards:
            name = "tie, nobody" if who is None else self.names[who]
            self.term.say(f"  {what:<20} {worth} -> {name}")
        self.term.say(f"  {self.names[0]}: {res.points[0]}   {self.names[1]}: {res.points[1]}")
        if res.winner is None:
            self.term.say(self.term.paint("Draw.", "bold"))
        else:
            name = self.names[res.winner]
            self.term.say(self.term.paint(f"{name} {'win' if name == 'You' else 'wins'}.", "bold", "green"))


def load_session(path: Path, term: Terminal) -> DoppelMatch:
    """Rebuild a session from a save file.

    Raises:
        SpecError: the file is not a Doppel Spiel save or its log does not replay (the
            element is named).
    """
    top = DataTable(load_json(path), str(path))
    if top.raw("format", None) != SAVE_FORMAT:  # first: another kind of file is said so
        raise top.error("format", f"expected {SAVE_FORMAT!r} (a 'doppelx doppel' save)")
    top.check_keys({"format", "seed", "seats", "game", "rng"})
    seed = top.integer("seed", minimum=0, maximum=2**63 - 1)
    top.array("seats", length=2, what="seats")
    seats = []
    for t in top.tables("seats"):
        t.check_keys({"name", "kind"})
        seats.append(Seat(t.text("name"), t.string("kind", choices=("human", "strong", "random"))))
    state = replay(top.raw("game"), source=top.source, where=top.where("game"))
    rng = np.random.Generator(np.random.PCG64())
    set_rng_state(rng, top.raw("rng"), path, "rng")
    return DoppelMatch(term, state, seats, rng, seed, path)
