"""Doppelt oder nichts in the terminal: one person (player 1) against bots.

Shows the table, the pile and the hand (:mod:`.view`), asks the person at each of their
decisions, refuses illegal choices with the rules' reason and asks again, asks whether
they managed a task, and prints what the bots do. The prompts run through
:class:`doppelx.terminal.TerminalMatch` (status bar, ``help`` with examples, ``save``,
arrow-key history). Input ends (EOF) or ``quit`` end the game cleanly; with a save file
the game is saved and can be resumed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from doppelx.games.oder_nichts.bots import BOT_NAMES, make_bot
from doppelx.games.oder_nichts.view import (
    card_text,
    event_lines,
    hand_order,
    result_lines,
    status_text,
    table_lines,
)
from doppelx.terminal import PromptCommand, Terminal, TerminalMatch, load_json, set_rng_state
from rules.common.errors import RulesError
from rules.common.rng import make_rng
from rules.common.schema import DataTable, plain_digits
from rules.contract import chance_step
from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.cards import COLOURS
from rules.oder_nichts.state import GameConfig, State, new_game, replay_table

HUMAN = 0

COMMANDS = (
    PromptCommand("3", "lay card 3 of your hand (or throw it in / defend with it)"),
    PromptCommand("3 4", "lay two identical cards together"),
    PromptCommand("d", "draw a card (when nothing fits); at a task: draw instead of trying"),
    PromptCommand("p", "pass (nothing fits and nothing is left to draw)"),
    PromptCommand("x", "exchange a hand of only grey cards"),
    PromptCommand("a", "accept an attack"),
    PromptCommand("n", "do not throw in now; at a half hand or a seat swap: no"),
    PromptCommand("t", "try the task(s) instead of drawing: double or nothing"),
    PromptCommand("y", "yes (the task was managed; put half the hand away)"),
    PromptCommand("u", "who is unlucky: palm up (d = down)"),
    PromptCommand("r", "rock-paper-scissors: rock (p paper, s scissors)"),
)


class OderNichtsMatch(TerminalMatch):
    """One person against bots.

    Args:
        term: the terminal (streams and colour).
        state: the game (new or resumed).
        bots: bot names for players 2..n.
        rng: the generator for chance and bot choices.
        seed: the seed the game started from (kept in the save).
        save_path: where to save on quit / end of input (``None``: no saving).
    """

    command = "oder-nichts"

    def __init__(
        self,
        term: Terminal,
        state: State,
        bots: list[str],
        rng: np.random.Generator,
        seed: int,
        save_path: Path | None = None,
    ):
        super().__init__(term, save_path)
        self.state = state
        self.bot_names = bots
        self.policies = [None] + [make_bot(b) for b in bots]
        self.rng = rng
        self.seed = seed
        self.names = ["Player 1 (you)"] + [f"Player {i + 2} ({b})" for i, b in enumerate(bots)]
        self.shown = len(state.events)
        self.seen_hand: set[int] = set(state.table.hands[HUMAN])
        self.seen_round = -1  # nothing marked as new on the first display

    # ---- TerminalMatch hooks -----------------------------------------------------------
    def status_line(self) -> str:
        return status_text(self.state, self.names, HUMAN)

    def commands(self) -> tuple[PromptCommand, ...]:
        return COMMANDS

    def to_save(self) -> dict[str, Any]:
        return {
            **self.state.to_json(),
            "version": 1,
            "bots": self.bot_names,
            "seed": self.seed,
            "rng_state": self.rng.bit_generator.state,
        }

    # ---- display -----------------------------------------------------------------------
    def hand_order(self) -> list[int]:
        """The person's hand as displayed (by colour, then kind, then number)."""
        return hand_order(self.state.spec, self.state.table.hands[HUMAN])

    def flush_events(self) -> None:
        events = self.state.events
        for line in event_lines(self.term, events[self.shown :], self.names):
            self.term.say(line)
        self.shown = len(events)

    def show_table(self) -> None:
        t = self.state.table
        if self.seen_round != t.round_no:  # a new deal: nothing to mark
            self.seen_round, self.seen_hand = t.round_no, set(t.hands[HUMAN])
        new = set(t.hands[HUMAN]) - self.seen_hand
        for line in table_lines(self.term, self.state, self.names, HUMAN, new):
            self.term.say(line)
        self.seen_hand = set(t.hands[HUMAN])

    # ---- reading input -----------------------------------------------------------------
    def read(self, prompt: str, parse) -> Any:
        return self.prompt(prompt, parse)

    def cards_from(self, answer: str) -> tuple[int, ...]:
        order = self.hand_order()
        if not order:
            raise ValueError("you have no cards left")
        picks = []
        for word in answer.replace(",", " ").split():
            if not plain_digits(word) or not 1 <= int(word) <= len(order):
                raise ValueError(f"{word!r} is not a card number (1-{len(order)})")
            picks.append(order[int(word) - 1])
        if not picks:
            raise ValueError("type a card number")
        if len(set(picks)) != len(picks):
            raise ValueError("the same card was named twice")
        return tuple(picks)

    def checked(self, decision: Decision, action: Action) -> Action:
        try:
            decision.check(action)
        except RulesError as exc:
            raise ValueError(str(exc)) from None
        return action

    def player_number(self, answer: str, allowed: list[int]) -> int:
        if not plain_digits(answer) or int(answer) - 1 not in allowed:
            raise ValueError(f"choose one of players {', '.join(str(p + 1) for p in allowed)}")
        return int(answer) - 1

    def with_colour(self, decision: Decision, kind: str, cards: tuple[int, ...]) -> Action:
        """The action laying ``cards``; asks for the colour when a colour change leaves a choice."""
        options = [a for a in decision.legal if a.kind == kind and a.cards == cards]
        colours = [a.colour for a in options if a.colour is not None]
        if len(colours) > 1:

            def parse(answer: str) -> str:
                if answer not in colours:
                    raise ValueError(f"choose {' or '.join(colours)}")
                return answer

            colour = self.read(f"  Colour to follow ({'/'.join(colours)}): ", parse)
            return Action(kind, cards, colour=colour)
        if colours:
            return Action(kind, cards, colour=colours[0])
        return Action(kind, cards)

    def with_target(self, decision: Decision, kind: str, cards: tuple[int, ...]) -> Action:
        """The action laying ``cards``; asks for a player when the card needs a target."""
        targets = [
            a.target for a in decision.legal if a.kind == kind and a.cards == cards and a.target is not None
        ]
        if targets:
            who = ", ".join(f"{p + 1} = {self.names[p]}" for p in targets)
            target = self.read(f"  Aim at which player? ({who}): ", lambda s: self.player_number(s, targets))
            return Action(kind, cards, target=target)
        return Action(kind, cards)

    # ---- the person's decisions --------------------------------------------------------
    def decide(self, d: Decision) -> Action:
        k = d.kind
        if k not in ("gesture", "rps"):
            self.show_table()
        if k == "turn":
            extra = [
                word
                for act, word in (
                    (Action("draw"), "d = draw"),
                    (Action("pass"), "p = pass"),
                    (Action("exchange"), "x = exchange your grey cards"),
                )
                if act in d.legal
            ]
            hint = "card numbers" if any(a.kind == "play" for a in d.legal) else "nothing fits"
            return self.read(f"Your turn — {', '.join([hint] + extra)} > ", lambda s: self._turn_answer(d, s))
        if k == "play_drawn":
            card = self.state.spec.card(d.info["card"])
            self.term.say(f"  You drew {card_text(self.term, card)}: it fits and is played at once.")
            return self.with_colour(d, "play", d.legal[0].cards)
        if k == "window":
            self.term.say("  Another card than the same one is played out of turn: a penalty card.")
            return self.read("Throw in? card number(s), n = no > ", lambda s: self._window_answer(d, s))
        if k == "attack":
            self.term.say(
                "  Defend with a grey card, pass it on with the same symbol, or throw a brown card."
            )
            if not self.state.table.hands[HUMAN]:  # nothing in hand to answer with
                return self.read(
                    "Attacked, no cards left: a = accept > ", lambda s: self._attack_answer(d, s)
                )
            return self.read("Attacked: a = accept, or a card number > ", lambda s: self._attack_answer(d, s))
        if k == "task":
            tasks = "; ".join(self.state.spec.tasks[key].text for key in d.info["tasks"])
            self.term.say(f"  Draw {d.info['cards']} card(s), or try: {tasks}")
            self.term.say("  Double or nothing: manage it and draw nothing, fail and draw double.")
            return self.read(
                "Draw or try? (d/t): ",
                lambda s: self._choice(s, {"d": Action("draw"), "t": Action("attempt")}),
            )
        if k == "magnet":
            named = [a.number for a in d.legal if a.number is not None]
            if named:
                return self.read(
                    f"Magnet: name a number ({', '.join(map(str, named))}): ",
                    lambda s: self.checked(d, Action("name", number=int(s) if plain_digits(s) else -1)),
                )
            return self.read(
                f"Magnet: all numbers named; name a colour ({'/'.join(COLOURS)}): ",
                lambda s: self.checked(d, Action("name", colour=s)),
            )
        if k == "seat":
            others = [a.target for a in d.legal if a.target is not None]
            return self.read(
                "You laid a 0: swap seats with player number, or n to stay: ",
                lambda s: (
                    Action("seat")
                    if s.lower() in ("n", "no", "")
                    else Action("seat", target=self.player_number(s, others))
                ),
            )
        if k == "hand_swap":
            others = [a.target_player for a in d.legal]
            return self.read(
                "Hand swap: swap hands with which player number? ",
                lambda s: Action("swap", target=self.player_number(s, others)),
            )
        if k == "half_hand":
            return self.read(
                f"Half hand: put {d.info['count']} random card(s) under the pile? (y/n): ",
                lambda s: self._choice(
                    s, {"y": Action("halve", choice="yes"), "n": Action("halve", choice="no")}
                ),
            )
        if k == "gesture":
            group = ", ".join(self.names[p] for p in d.info["group"])
            return self.read(
                f"Who is unlucky ({group}): palm up or down? (u/d): ",
                lambda s: self._choice(
                    s, {"u": Action("gesture", choice="up"), "d": Action("gesture", choice="down")}
                ),
            )
        if k == "rps":
            opp = self.names[d.info["opponent"]]
            return self.read(
                f"Rock-paper-scissors against {opp} (r/p/s): ",
                lambda s: self._choice(
                    s,
                    {
                        "r": Action("rps", choice="rock"),
                        "p": Action("rps", choice="paper"),
                        "s": Action("rps", choice="scissors"),
                    },
                ),
            )
        raise RulesError(f"unknown decision {k!r}")

    def _choice(self, answer: str, options: dict[str, Action]) -> Action:
        key = answer.lower()[:1]
        if key not in options or not answer:
            raise ValueError(f"type {' or '.join(options)}")
        return options[key]

    def _turn_answer(self, d: Decision, answer: str) -> Action:
        word = answer.lower()
        if word in ("d", "draw"):
            return self.checked(d, Action("draw"))
        if word in ("p", "pass"):
            return self.checked(d, Action("pass"))
        if word in ("x", "exchange"):
            return self.checked(d, Action("exchange"))
        return self.checked(d, self.with_colour(d, "play", self.cards_from(answer)))

    def _window_answer(self, d: Decision, answer: str) -> Action:
        if answer.lower() in ("n", "no", "pass", ""):
            return Action("pass_window")
        cards = self.cards_from(answer)
        for kind in ("interject", "brown"):
            if any(a.kind == kind and a.cards == cards for a in d.legal):
                act = (
                    self.with_colour(d, kind, cards)
                    if kind == "interject"
                    else self.with_target(d, kind, cards)
                )
                return self.checked(d, act)
        if len(cards) == 1 and Action("out_of_turn", cards) in d.legal:
            return Action("out_of_turn", cards)
        return self.checked(d, Action("interject", cards))

    def _attack_answer(self, d: Decision, answer: str) -> Action:
        if answer.lower() in ("a", "accept"):
            return Action("accept")
        cards = self.cards_from(answer)
        card = self.state.spec.card(cards[0])
        kind = {"defensive": "defend", "brown": "brown"}.get(card.category, "stack")
        if any(a.kind == kind and a.cards == cards for a in d.legal):
            return self.checked(d, self.with_target(d, kind, cards))
        return self.checked(d, Action(kind, cards))

    def task_outcome(self, req: ChanceRequest) -> Action:
        opp = ""
        if req.info.get("versus_owner"):
            opp = f" (against {self.names[req.info['opponent']]})"
        self.term.say(f"  Task{opp}: {req.info['text']}")
        return self.read(
            "Did you manage it? (y/n): ",
            lambda s: self._choice(
                s, {"y": Action("chance", choice="success"), "n": Action("chance", choice="failure")}
            ),
        )

    # ---- running -----------------------------------------------------------------------
    def play(self) -> None:
        self._loop()

    def finished(self) -> None:
        self.flush_events()
        for line in result_lines(self.term, self.state, self.names):
            self.term.say(line)
        if self.save_path is not None:
            self.write_save(self.save_path)

    def _loop(self) -> None:
        state = self.state
        while not state.is_terminal():
            pending = state.pending
            if isinstance(pending, ChanceRequest):
                if pending.kind == "task" and pending.player == HUMAN:
                    self.flush_events()
                    state.apply_action(self.task_outcome(pending))
                else:
                    chance_step(state, self.rng)
                continue
            assert pending is not None  # a game that is not over waits for a decision
            if pending.player == HUMAN:
                self.flush_events()
                state.apply_action(self.decide(pending))
            else:
                bot = self.policies[pending.player]
                assert bot is not None  # every seat but the human's has a bot
                state.apply_action(bot.act(state.view(pending.player), pending, state.spec, self.rng))


def start(
    term: Terminal, config: GameConfig, bots: list[str], seed: int, save_path: Path | None
) -> OderNichtsMatch:
    """A new person-vs-bots game."""
    return OderNichtsMatch(term, new_game(config), bots, make_rng(seed), seed, save_path)


def resume(term: Terminal, path: Path, save_path: Path | None) -> OderNichtsMatch:
    """A game continued from a save file (its log is replayed and checked).

    Raises:
        SpecError: the file is not a Doppelt oder nichts save, or it is damaged (the element
            is named: ``bots[1]``, ``log[3].kind``, ``log[7]`` with why its action is not legal).
    """
    top = DataTable(load_json(path), str(path))
    if top.raw("game", None) != "oder_nichts":  # first: another kind of file is said so
        raise top.error("game", "not a Doppelt oder nichts save")
    top.check_keys({"game", "version", "config", "bots", "seed", "rng_state", "log"})
    if top.has("version"):
        top.integer("version", minimum=1, maximum=1)
    seed = top.integer("seed", minimum=0, maximum=2**63 - 1)
    state = replay_table(top)
    players = state.config.players
    bots = top.strings(
        "bots", choices=BOT_NAMES, length=players - 1, what=f"bots ({players} players = you + bots)"
    )
    rng = make_rng(seed)
    set_rng_state(rng, top.raw("rng_state"), path, "rng_state")
    return OderNichtsMatch(term, state, bots, rng, seed, save_path if save_path is not None else path)
