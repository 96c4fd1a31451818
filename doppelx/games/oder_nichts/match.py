"""Doppelt oder nichts in the terminal: one person (player 1) against bots.

Shows the table, the pile and the hand (in colour when the terminal has it), asks the
person at each of their decisions, refuses illegal choices with the rules' reason and asks
again, asks whether they managed a task, and prints what the bots do. Input ends (EOF)
or ``quit`` end the game cleanly; with a save file the game is saved and can be resumed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from doppelx.games.oder_nichts.bots import make_bot
from doppelx.terminal import Terminal, load_json, save_json
from rules.errors import RulesError, SpecError
from rules.oder_nichts.actions import Action, ChanceRequest, Decision
from rules.oder_nichts.cards import COLOURS, Card
from rules.oder_nichts.state import GameConfig, State, new_game, replay
from rules.rng import make_rng

HUMAN = 0
_PAINT = {"magenta": "magenta", "cyan": "cyan", "yellow": "yellow", "green": "green"}
_HELP = {
    "attack": "a = accept; or the number of a grey, brown or same-symbol card",
    "window": "number(s) of the card(s) to throw in, or n = no (any other card is played out of turn: penalty)",
}


class Quit(Exception):
    """The person typed ``quit``."""


class OderNichtsTUI:
    """One person against bots.

    Args:
        term: the terminal (streams and colour).
        state: the game (new or resumed).
        bots: bot names for players 2..n.
        rng: the generator for chance and bot choices.
        seed: the seed the game started from (kept in the save).
        save_path: where to save on quit / end of input (``None``: no saving).
    """

    def __init__(
        self,
        term: Terminal,
        state: State,
        bots: list[str],
        rng: np.random.Generator,
        seed: int,
        save_path: Path | None = None,
    ):
        self.term = term
        self.state = state
        self.bot_names = bots
        self.policies = [None] + [make_bot(b) for b in bots]
        self.rng = rng
        self.seed = seed
        self.save_path = save_path
        self.names = ["Player 1 (you)"] + [f"Player {i + 2} ({b})" for i, b in enumerate(bots)]
        self.shown = len(state.events)
        self.seen_hand: set[int] = set(state.table.hands[HUMAN])
        self.seen_round = -1  # nothing marked as new on the first display

    # ---- display -----------------------------------------------------------------------
    def card_text(self, card: Card) -> str:
        if card.category == "defensive":
            return self.term.paint(card.label, "grey")
        if card.category == "brown":
            return self.term.paint(card.label, "orange")
        if card.kind == "colour_change":
            cols = "/".join(self.term.paint(c, _PAINT[c], "bold") for c in card.colours)
            return f"{cols} {card.name}"
        return self.term.paint(card.label, _PAINT[card.colours[0]], "bold")

    def hand_order(self) -> list[int]:
        """The person's hand as displayed (by colour, then kind, then number)."""
        spec = self.state.spec

        def key(cid: int) -> tuple:
            c = spec.card(cid)
            col = COLOURS.index(c.colours[0]) if c.colours else 4 + (c.category == "brown")
            return (col, c.kind != "number", c.number if c.number is not None else 0, c.kind, cid)

        return sorted(self.state.table.hands[HUMAN], key=key)

    def flush_events(self) -> None:
        events = self.state.events
        for ev in events[self.shown :]:
            self.term.say("  " + self.term.paint("· ", "dim") + ev.render(self.names))
        self.shown = len(events)

    def show_table(self) -> None:
        t = self.state.table
        spec = self.state.spec
        self.term.say("")
        arrow = "clockwise" if t.direction == 1 else "counter-clockwise"
        self.term.say(
            self.term.paint(f"Round {t.round_no}", "bold")
            + f" — play goes {arrow}; draw pile {len(t.draw_pile)}"
        )
        for p in t.in_order(t.seats[0]):
            extra = []
            if t.skips[p]:
                extra.append(f"sits out {t.skips[p]}")
            if t.away[p]:
                extra.append(f"away from keyboard, misses {t.away[p] - 1} more turn(s)")
            note = f" ({', '.join(extra)})" if extra else ""
            self.term.say(f"  {self.names[p]:<24} {len(t.hands[p]):>2} cards  {t.minus[p]:>4} minus{note}")
        if t.discard:
            follow = " or ".join(self.term.paint(c, _PAINT[c]) for c in t.allowed)
            self.term.say(f"  Pile: {self.card_text(t.top)}   colour to follow: {follow}")
        if t.attack is not None:
            att = t.attack
            self.term.say(
                self.term.paint(
                    f"  Attack: {self.names[att.owner]} → {self.names[att.target]}: "
                    + self.state.attack_text(),
                    "red",
                )
            )
        self.term.say("  Your hand:")
        if self.seen_round != t.round_no:  # a new deal: nothing to mark
            self.seen_round, self.seen_hand = t.round_no, set(t.hands[HUMAN])
        for i, cid in enumerate(self.hand_order(), 1):
            new = self.term.paint("  (new)", "dim") if cid not in self.seen_hand else ""
            self.term.say(f"   {i:>2}) {self.card_text(spec.card(cid))}{new}")
        self.seen_hand = set(t.hands[HUMAN])

    # ---- reading input -----------------------------------------------------------------
    def read(self, prompt: str, parse) -> Any:
        def wrapped(answer: str) -> Any:
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit()
            return parse(answer)

        return self.term.ask(prompt, wrapped)

    def cards_from(self, answer: str) -> tuple[int, ...]:
        order = self.hand_order()
        picks = []
        for word in answer.replace(",", " ").split():
            if not word.isdigit() or not 1 <= int(word) <= len(order):
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
        if not answer.isdigit() or int(answer) - 1 not in allowed:
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
            hint = "card number(s) to play (two identical together: '3 4')"
            if not any(a.kind == "play" for a in d.legal):
                hint = "nothing fits"
            return self.read(f"Your turn ({', '.join([hint] + extra)}): ", lambda s: self._turn_answer(d, s))
        if k == "play_drawn":
            card = self.state.spec.card(d.info["card"])
            self.term.say(f"  You drew {self.card_text(card)}: it fits and is played at once.")
            return self.with_colour(d, "play", d.legal[0].cards)
        if k == "window":
            return self.read(
                f"You may throw in a card now ({_HELP['window']}): ", lambda s: self._window_answer(d, s)
            )
        if k == "attack":
            return self.read(f"You are attacked ({_HELP['attack']}): ", lambda s: self._attack_answer(d, s))
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
                    lambda s: self.checked(d, Action("name", number=int(s) if s.isdigit() else -1)),
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
            others = [a.target for a in d.legal]
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
    def save(self) -> None:
        if self.save_path is None:
            return
        save_json(
            self.save_path,
            {
                "game": "oder_nichts",
                "version": 1,
                "config": self.state.config.to_json(),
                "bots": self.bot_names,
                "seed": self.seed,
                "rng_state": self.rng.bit_generator.state,
                "log": [a.to_json() for a in self.state.log],
            },
        )

    def run(self) -> int:
        """Play until the game ends or the input does; returns the exit code (0)."""
        try:
            self._loop()
        except (EOFError, Quit, KeyboardInterrupt) as exc:
            self.term.say("")
            why = {EOFError: "input ended", Quit: "you quit"}.get(type(exc), "interrupted")
            if self.save_path is not None:
                self.save()
                self.term.say(
                    f"{why}: game saved to {self.save_path} (resume with --resume {self.save_path})"
                )
            else:
                self.term.say(f"{why}: game not saved (start with --save FILE to keep a game)")
            return 0
        self.flush_events()
        self.show_result()
        if self.save_path is not None:
            self.save()
        return 0

    def _loop(self) -> None:
        state = self.state
        while not state.is_terminal():
            pending = state.pending
            if isinstance(pending, ChanceRequest):
                if pending.kind == "task" and pending.player == HUMAN:
                    self.flush_events()
                    state.apply_action(self.task_outcome(pending))
                else:
                    state.step_chance(self.rng)
                continue
            if pending.player == HUMAN:
                self.flush_events()
                state.apply_action(self.decide(pending))
            else:
                bot = self.policies[pending.player]
                state.apply_action(bot.act(state.view(pending.player), pending, state.spec, self.rng))

    def show_result(self) -> None:
        self.term.say("")
        self.term.say(self.term.paint("Game over", "bold"))
        for r in self.state.rounds:
            won = ", ".join(self.names[p] for p in r.winners) or "nobody (stalled)"
            self.term.say(f"  round {r.round_no}: won by {won}; minus points now {list(r.minus_after)}")
        for p in sorted(range(len(self.names)), key=lambda q: self.state.minus[q]):
            self.term.say(f"  {self.names[p]:<24} {self.state.minus[p]:>4} minus points")
        winners = ", ".join(self.names[p] for p in self.state.winners())
        self.term.say(self.term.paint(f"Winner: {winners}", "bold"))


def start(
    term: Terminal, config: GameConfig, bots: list[str], seed: int, save_path: Path | None
) -> OderNichtsTUI:
    """A new person-vs-bots game."""
    return OderNichtsTUI(term, new_game(config), bots, make_rng(seed), seed, save_path)


def resume(term: Terminal, path: Path, save_path: Path | None) -> OderNichtsTUI:
    """A game continued from a save file (its log is replayed and checked)."""
    data = load_json(path)
    if data.get("game") != "oder_nichts":
        raise SpecError(str(path), "game", "not a Doppelt oder nichts save")
    try:
        config = GameConfig.from_json(data["config"])
        bots = [str(b) for b in data["bots"]]
        for b in bots:
            make_bot(b)
        log = [Action.from_json(a) for a in data["log"]]
        seed = int(data["seed"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecError(str(path), "", f"malformed save: {exc}") from None
    if len(bots) != config.players - 1:
        raise SpecError(str(path), "bots", f"{len(bots)} bots for {config.players} players")
    try:
        state = replay(config, log)
    except RulesError as exc:
        raise SpecError(str(path), "log", str(exc)) from None
    rng = make_rng(seed)
    try:
        rng.bit_generator.state = data["rng_state"]
    except (KeyError, TypeError, ValueError) as exc:
        raise SpecError(str(path), "rng_state", f"malformed: {exc}") from None
    return OderNichtsTUI(term, state, bots, rng, seed, save_path if save_path is not None else path)
