"""The cards of Doppelt oder nichts: card kinds, tasks, and the deck loaded from TOML.

The deck composition is data (``assets/games/oder_nichts.toml``); what each kind *does*
is code (:mod:`rules.oder_nichts.flow`), so the loader checks that every kind in the file
is one the engine knows, with the category the engine expects.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.common.assets import asset_path, read_toml
from rules.common.schema import DataTable

#: The four play colours. Grey (defensive) and brown cards have no play colour.
COLOURS: tuple[str, ...] = ("magenta", "cyan", "yellow", "green")

#: Every card kind the engine implements, with its category.
KIND_CATEGORIES: dict[str, str] = {
    "number": "number",
    "direction": "neutral",
    "colour_change": "neutral",
    "half_hand": "neutral",
    "hand_swap": "neutral",
    "skip": "offensive",
    "minus20": "offensive",
    "draw3": "offensive",
    "draw5": "offensive",
    "afk": "offensive",
    "magnet": "offensive",
    "dodge": "defensive",
    "you": "defensive",
    "mirror": "defensive",
    "unlucky": "defensive",
    "not_me": "brown",
    "hijack": "brown",
    "double": "brown",
}

#: The rulebook's card set for the first games ("Für die erste Partie": "Alle Zahlenkarten,
#: Richtungswechsel, Farbwechsel, Aussetzen, Kartenziehen (+3 und +5), Magnet, Ausweichen,
#: „Du" und Spiegel").
FIRST_GAME_KINDS = frozenset(
    {"number", "direction", "colour_change", "skip", "draw3", "draw5", "magnet", "dodge", "you", "mirror"}
)

#: Kinds whose cards carry a task.
TASK_KINDS = frozenset({"draw3", "draw5", "afk"})


@dataclass(frozen=True)
class KindInfo:
    """What the data file says about one card kind.

    Attributes:
        kind: the kind's key, e.g. ``"draw3"``.
        category: number, neutral, offensive, defensive or brown.
        points: minus points of one card in a hand at round end (``None`` = face value).
        amount: for offensive kinds, what one card adds to an attack; otherwise 0.
        name: the printed name, for display.
    """

    kind: str
    category: str
    points: int | None
    amount: int
    name: str


@dataclass(frozen=True)
class Task:
    """A task printed on a card.

    Attributes:
        key: the task's key in the data file.
        text: what the player has to do.
        success: the probability a bot manages it.
        versus_owner: the task is played against the attack's owner.
    """

    key: str
    text: str
    success: float
    versus_owner: bool


@dataclass(frozen=True)
class Card:
    """One physical card.

    Attributes:
        id: index in the deck, 0..total-1.
        kind: the kind's key.
        category: number, neutral, offensive, defensive or brown.
        colours: one play colour; two for a colour change; none for grey/brown cards.
        number: 0..9 for number cards, else ``None``.
        points: minus points when left in a hand at the end of a round.
        amount: what the card adds to an attack (offensive cards), else 0.
        task: key of the printed task, or ``None``.
        name: printed name of the kind.
    """

    id: int
    kind: str
    category: str
    colours: tuple[str, ...]
    number: int | None
    points: int
    amount: int
    task: str | None
    name: str

    @property
    def coloured(self) -> bool:
        """True for cards in a play colour (numbers, neutral and offensive cards)."""
        return bool(self.colours)

    @property
    def symbol(self) -> str:
        """The symbol matched by the laying rules: the number, or the kind of an action card."""
        return str(self.number) if self.kind == "number" else self.kind

    @property
    def identity(self) -> tuple[str, tuple[str, ...], int | None]:
        """Cards with equal identity are "exactly the same card" (colour and symbol)."""
        return (self.kind, self.colours, self.number)

    @property
    def label(self) -> str:
        """Short text such as ``green 7``, ``magenta/green colour change`` or ``grey mirror``."""
        if self.kind == "number":
            return f"{self.colours[0]} {self.number}"
        if self.category == "defensive":
            return f"grey {self.name}"
        if self.category == "brown":
            return f"brown {self.name}"
        return f"{'/'.join(self.colours)} {self.name}"


@dataclass(frozen=True)
class DeckSpec:
    """The whole deck and the game constants from the data file.

    Attributes:
        name: the game's name.
        cards: every card, index = ``Card.id``.
        kinds: kind key → :class:`KindInfo`.
        tasks: task key → :class:`Task`.
        hand_size: cards dealt to each player per round.
        target_points: default minus points that end the game.
        source: where the data came from (for messages).
    """

    name: str
    cards: tuple[Card, ...]
    kinds: dict[str, KindInfo]
    tasks: dict[str, Task]
    hand_size: int
    target_points: int
    source: str

    def card(self, card_id: int) -> Card:
        """The card with id ``card_id``."""
        return self.cards[card_id]

    def first_game(self) -> DeckSpec:
        """The reduced deck the rulebook recommends for the first games (:data:`FIRST_GAME_KINDS`),
        cards renumbered 0..n-1 in the same order."""
        kept = [c for c in self.cards if c.kind in FIRST_GAME_KINDS]
        cards = tuple(dataclasses.replace(c, id=i) for i, c in enumerate(kept))
        return dataclasses.replace(self, cards=cards, source=self.source + " (first-game set)")

    def composition(self) -> dict[str, int]:
        """Number of cards per kind, for documentation and tests."""
        return dict(Counter(c.kind for c in self.cards))


def default_deck_path() -> Path:
    """The shipped deck file."""
    return asset_path("games", "oder_nichts.toml")


def load_deck(path: Path | str | None = None) -> DeckSpec:
    """Read and check a deck file (the shipped one by default)."""
    path = default_deck_path() if path is None else Path(path)
    return parse_deck(read_toml(path), str(path))


def _int_value(table: DataTable, key: str, default: Any = ...) -> int:
    """An integer (not a boolean) at ``key``, with the element path in the error."""
    value = table.raw(key) if default is ... else table.raw(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise table.error(key, f"expected an integer, got {value!r}")
    return value


def _parse_kinds(top: DataTable) -> dict[str, KindInfo]:
    kinds_tab = top.table("kinds")
    assert kinds_tab is not None  # no default: a missing table raises
    unknown = sorted(set(kinds_tab.data) - set(KIND_CATEGORIES))
    if unknown:
        raise kinds_tab.error(unknown[0], f"unknown card kind; known: {', '.join(KIND_CATEGORIES)}")
    missing = sorted(set(KIND_CATEGORIES) - set(kinds_tab.data))
    if missing:
        raise top.error("kinds", f"missing kinds: {', '.join(missing)}")
    kinds: dict[str, KindInfo] = {}
    for key in kinds_tab.data:
        tab = kinds_tab.table(key)
        assert tab is not None
        category = tab.string("category")
        if category != KIND_CATEGORIES[key]:
            raise tab.error("category", f"{key!r} is a {KIND_CATEGORIES[key]} card, not {category!r}")
        points = tab.raw("points", None)
        if key == "number":
            if points != "face":
                raise tab.error("points", 'number cards count their face value: write "face"')
            points = None
        elif not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise tab.error("points", f"expected a non-negative integer, got {points!r}")
        amount = tab.raw("amount", 0)
        if category == "offensive":
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                raise tab.error("amount", f"offensive cards need a positive integer amount, got {amount!r}")
        elif amount:
            raise tab.error("amount", "only offensive cards have an amount")
        kinds[key] = KindInfo(key, category, points, amount, tab.string("name"))
    return kinds


def _parse_tasks(top: DataTable) -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    tasks_tab = top.table("tasks", {})
    assert tasks_tab is not None  # the default is a table
    for key in tasks_tab.data:
        tab = tasks_tab.table(key)
        assert tab is not None
        text = tab.string("text")
        success = tab.number("success")
        if not 0.0 <= success <= 1.0:
            raise tab.error("success", f"a probability must be in [0, 1], got {success}")
        tasks[key] = Task(key, text, success, tab.boolean("versus_owner", False))
    return tasks


def _colour_list(table: DataTable, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise table.error(key, f"expected a non-empty list of colours, got {value!r}")
    for c in value:
        if c not in COLOURS:
            raise table.error(key, f"unknown colour {c!r}; colours are {', '.join(COLOURS)}")
    return list(value)


def parse_deck(data: dict[str, Any], source: str = "<deck>") -> DeckSpec:
    """Build a :class:`DeckSpec` from parsed TOML (read through :class:`rules.common.schema.DataTable`),
    raising :class:`SpecError` naming the element on any problem."""
    top = DataTable(data, source)
    game = top.table("game")
    assert game is not None  # no default: a missing table raises
    name = game.string("name")
    total = _int_value(game, "total_cards")
    hand_size = game.integer("hand_size", minimum=1)
    target = game.integer("target_points", minimum=1)
    if tuple(game.raw("colours", list(COLOURS))) != COLOURS:
        raise game.error("colours", f"the engine plays with exactly {list(COLOURS)}")
    kinds = _parse_kinds(top)
    tasks = _parse_tasks(top)
    cards: list[Card] = []
    for entry in top.tables("cards", required=True):
        kind = entry.string("kind")
        if kind not in kinds:
            raise entry.error("kind", f"unknown card kind {kind!r}")
        info = kinds[kind]
        copies = entry.integer("copies", minimum=1)
        if kind == "colour_change":
            pairs = entry.raw("colour_pairs")
            if not isinstance(pairs, list):
                raise entry.error("colour_pairs", f"expected a list of colour pairs, got {pairs!r}")
            colour_sets = []
            for j, pair in enumerate(pairs):
                pair = _colour_list(entry, f"colour_pairs[{j}]", pair)
                if len(pair) != 2 or pair[0] == pair[1]:
                    raise entry.error(f"colour_pairs[{j}]", "a colour change shows two different colours")
                colour_sets.append(tuple(pair))
        elif info.category in ("defensive", "brown"):
            if entry.has("colours"):
                raise entry.error("colours", f"{info.category} cards have no play colour")
            colour_sets = [()]
        else:
            colour_sets = [(c,) for c in _colour_list(entry, "colours", entry.raw("colours", None))]
        if kind == "number":
            numbers = entry.raw("numbers")
            if not isinstance(numbers, list):
                raise entry.error("numbers", f"expected a list of numbers 0..9, got {numbers!r}")
            for n in numbers:
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 9:
                    raise entry.error("numbers", f"numbers are 0..9, got {n!r}")
        elif entry.has("numbers"):
            raise entry.error("numbers", "only number cards have numbers")
        else:
            numbers = [None]
        task_keys = entry.raw("tasks", [])
        if kind in TASK_KINDS:
            if not isinstance(task_keys, list) or not task_keys:
                raise entry.error("tasks", f"{kind} cards carry a task: give a list of task keys")
            for t in task_keys:
                if t not in tasks:
                    raise entry.error("tasks", f"unknown task {t!r}")
        elif task_keys:
            raise entry.error("tasks", f"{kind} cards carry no task")
        made = 0
        for number in numbers:
            for colours in colour_sets:
                for _ in range(copies):
                    task = task_keys[made % len(task_keys)] if task_keys else None
                    points = number if info.points is None else info.points
                    cards.append(
                        Card(
                            len(cards),
                            kind,
                            info.category,
                            colours,
                            number,
                            points,
                            info.amount,
                            task,
                            info.name,
                        )
                    )
                    made += 1
    if len(cards) != total:
        raise top.error("cards", f"the entries make {len(cards)} cards, but game.total_cards is {total}")
    return DeckSpec(name, tuple(cards), kinds, tasks, hand_size, target, source)
