"""Actions, decision points and chance points of the Doppelt oder nichts engine.

An :class:`Action` is a plain value (kind + cards + parameters) that can be written to a
JSON log and read back. The engine stops at either a :class:`Decision` (a player has to
choose one of ``legal``) or a :class:`ChanceRequest` (an outcome drawn from a seeded RNG,
or supplied from outside, e.g. a person reporting whether they managed a task).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.common import schema
from rules.common.errors import RulesError, SpecError

#: Largest card number a log may name (the deck file's cards are numbered from 0; more is
#: refused by the game when it looks the card up) and largest seat number (8 players).
MAX_CARD_ID, MAX_SEAT = 9999, 7

#: Action kinds a player can choose.
PLAYER_ACTION_KINDS = frozenset(
    {
        "play",  # lay cards on the pile (own turn, or the card drawn this turn)
        "draw",  # no card fits: draw one
        "pass",  # no card fits and nothing left to draw
        "exchange",  # only grey cards in hand: shuffle them into the draw pile, draw as many
        "interject",  # out of turn: the exact same card(s) as the top card
        "out_of_turn",  # out of turn with a card that may not be played now: penalty card
        "defend",  # a grey card against an attack aimed at you
        "stack",  # an offensive card of the attack's symbol: pass the attack on
        "brown",  # a brown card on an offensive card not laid by you
        "accept",  # take the attack's effect
        "attempt",  # +3/+5: try the task(s): double or nothing
        "name",  # magnet: name a number 1..9 (or a colour once all are named)
        "seat",  # after a 0: swap seats with a player (target) or stay (target None)
        "swap",  # hand swap: the player to swap hands with
        "halve",  # half hand: yes (choice "yes") or no ("no")
        "gesture",  # who is unlucky: "up" / "down"
        "rps",  # rock-paper-scissors: "rock" / "paper" / "scissors"
        "pass_window",  # do not interject / throw a brown card now
    }
)

#: Action kind of every chance outcome.
CHANCE_KIND = "chance"


@dataclass(frozen=True)
class Action:
    """One choice (or chance outcome), comparable and JSON-serialisable.

    Attributes:
        kind: one of :data:`PLAYER_ACTION_KINDS` or :data:`CHANCE_KIND`.
        cards: card ids (the cards played, or a permutation/selection for chance).
        target: a player index (new target, seat or hand-swap partner).
        colour: the colour that becomes current after a colour change, or a named colour.
        number: a named number (magnet).
        choice: a word (gesture, rock-paper-scissors, yes/no, task success/failure).
    """

    kind: str
    cards: tuple[int, ...] = ()
    target: int | None = None
    colour: str | None = None
    number: int | None = None
    choice: str | None = None

    @property
    def target_player(self) -> int:
        """The player an action aims at (a new target, seat or swap partner; asserts it names one)."""
        assert self.target is not None, f"{self.kind} action names no player"
        return self.target

    def to_json(self) -> dict[str, Any]:
        """The action as a small JSON object (empty fields left out)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.cards:
            out["cards"] = list(self.cards)
        for key in ("target", "colour", "number", "choice"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> Action:
        """Inverse of :meth:`to_json`; raises ``ValueError`` on malformed data."""
        try:
            return Action.from_table(schema.DataTable(data, "action"))
        except SpecError as exc:
            raise ValueError(str(exc)) from None

    @staticmethod
    def from_table(t: schema.DataTable) -> Action:
        """The action written by :meth:`to_json`, read from ``t``: a :class:`SpecError` names
        the field (unknown key, unknown kind, a value of the wrong type); whether the action
        is legal is the game's to say."""
        t.check_keys({"kind", "cards", "target", "colour", "number", "choice"})
        return Action(
            t.string("kind", choices=tuple(sorted(PLAYER_ACTION_KINDS)) + (CHANCE_KIND,)),
            tuple(t.integers("cards", [], minimum=0, maximum=MAX_CARD_ID, what="card numbers")),
            t.optional_integer("target", minimum=0, maximum=MAX_SEAT),
            t.optional_string("colour"),
            t.optional_integer("number", minimum=0, maximum=99),
            t.optional_string("choice"),
        )


@dataclass(frozen=True)
class Decision:
    """A player has to choose.

    Attributes:
        player: who decides.
        kind: what is asked: ``turn``, ``play_drawn``, ``window``, ``attack``, ``task``,
            ``magnet``, ``seat``, ``hand_swap``, ``half_hand``, ``gesture``, ``rps``.
        legal: every action the rules allow here.
        info: context for display and policies (e.g. the attack, the task keys).
        explain: gives the reason an action outside ``legal`` is refused.
    """

    player: int
    kind: str
    legal: tuple[Action, ...]
    info: dict[str, Any] = field(default_factory=dict)
    explain: Callable[[Action], str] | None = field(default=None, compare=False, repr=False)

    def check(self, action: Action) -> None:
        """Raise :class:`RulesError` with the reason unless ``action`` is legal here."""
        if action in self.legal:
            return
        reason = self.explain(action) if self.explain is not None else ""
        if not reason:
            reason = f"{action.kind!r} is not a legal choice here"
        raise RulesError(reason)


@dataclass(frozen=True)
class ChanceRequest:
    """The game needs a random outcome.

    Attributes:
        kind: ``shuffle`` (outcome ``cards`` = the new draw pile, top last), ``pick``
            (outcome ``cards`` = the cards chosen at random from a hand) or ``task``
            (outcome ``choice`` = ``success`` / ``failure``).
        player: whom the outcome concerns (the task's player), or ``None``.
        cards: the cards to shuffle / pick from (sorted).
        count: how many cards to pick (``pick`` only).
        probability: chance of ``success`` (``task`` only).
        info: context for display (e.g. the task text).
    """

    kind: str
    player: int | None = None
    cards: tuple[int, ...] = ()
    count: int = 0
    probability: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)

    def outcomes(self) -> list[tuple[Action, float]] | None:
        """All outcomes with their probabilities when there are few (tasks), else ``None``."""
        if self.kind == "task":
            return [
                (Action(CHANCE_KIND, choice="success"), self.probability),
                (Action(CHANCE_KIND, choice="failure"), 1.0 - self.probability),
            ]
        return None

    def sample(self, rng: np.random.Generator) -> Action:
        """Draw an outcome from ``rng``."""
        if self.kind == "shuffle":
            order = rng.permutation(len(self.cards))
            return Action(CHANCE_KIND, cards=tuple(self.cards[int(i)] for i in order))
        if self.kind == "pick":
            chosen = rng.choice(len(self.cards), size=self.count, replace=False)
            return Action(CHANCE_KIND, cards=tuple(self.cards[int(i)] for i in chosen))
        won = bool(rng.random() < self.probability)
        return Action(CHANCE_KIND, choice="success" if won else "failure")

    def check(self, action: Action) -> None:
        """Raise :class:`RulesError` unless ``action`` is a possible outcome of this request."""
        if action.kind != CHANCE_KIND:
            raise RulesError(f"a chance outcome ({self.kind}) is expected here, not {action.kind!r}")
        if self.kind == "shuffle":
            if sorted(action.cards) != sorted(self.cards):
                raise RulesError("a shuffle outcome must be an ordering of exactly the shuffled cards")
        elif self.kind == "pick":
            if (
                len(action.cards) != self.count
                or len(set(action.cards)) != self.count
                or not set(action.cards) <= set(self.cards)
            ):
                raise RulesError(f"the pick must be {self.count} different cards from the hand")
        elif action.choice not in ("success", "failure"):
            raise RulesError("a task outcome is 'success' or 'failure'")
