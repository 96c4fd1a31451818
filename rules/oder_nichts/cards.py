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

from rules.assets import asset_path, read_toml
from rules.errors import SpecError

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


def _need(table: dict[str, Any], key: str, typ: type | tuple[type, ...], source: str, where: str) -> Any:
    if key not in table:
        raise SpecError(source, f"{where}.{key}" if where else key, "missing")
    value = table[key]
    if not isinstance(value, typ) or isinstance(value, bool) and typ is not bool:
        raise SpecError(
            source,
            f"{where}.{key}" if where else key,
            f"expected {getattr(typ, '__name__', typ)}, got {value!r}",
        )
    return value


def _parse_kinds(data: dict[str, Any], source: str) -> dict[str, KindInfo]:
    kinds_tab = _need(data, "kinds", dict, source, "")
    unknown = sorted(set(kinds_tab) - set(KIND_CATEGORIES))
    if unknown:
        raise SpecError(
            source, f"kinds.{unknown[0]}", f"unknown card kind; known: {', '.join(KIND_CATEGORIES)}"
        )
    missing = sorted(set(KIND_CATEGORIES) - set(kinds_tab))
    if missing:
        raise SpecError(source, "kinds", f"missing kinds: {', '.join(missing)}")
    kinds: dict[str, KindInfo] = {}
    for key, tab in kinds_tab.items():
        where = f"kinds.{key}"
        category = _need(tab, "category", str, source, where)
        if category != KIND_CATEGORIES[key]:
            raise SpecError(
                source, f"{where}.category", f"{key!r} is a {KIND_CATEGORIES[key]} card, not {category!r}"
            )
        points = tab.get("points")
        if key == "number":
            if points != "face":
                raise SpecError(
                    source, f"{where}.points", 'number cards count their face value: write "face"'
                )
            points = None
        elif not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise SpecError(source, f"{where}.points", f"expected a non-negative integer, got {points!r}")
        amount = tab.get("amount", 0)
        if category == "offensive":
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                raise SpecError(
                    source,
                    f"{where}.amount",
                    f"offensive cards need a positive integer amount, got {amount!r}",
                )
        elif amount:
            raise SpecError(source, f"{where}.amount", "only offensive cards have an amount")
        name = _need(tab, "name", str, source, where)
        kinds[key] = KindInfo(key, category, points, amount, name)
    return kinds


def _parse_tasks(data: dict[str, Any], source: str) -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    for key, tab in data.get("tasks", {}).items():
        where = f"tasks.{key}"
        text = _need(tab, "text", str, source, where)
        success = _need(tab, "success", (int, float), source, where)
        if not 0.0 <= float(success) <= 1.0:
            raise SpecError(source, f"{where}.success", f"a probability must be in [0, 1], got {success}")
        versus = tab.get("versus_owner", False)
        if not isinstance(versus, bool):
            raise SpecError(source, f"{where}.versus_owner", f"expected true or false, got {versus!r}")
        tasks[key] = Task(key, text, float(success), versus)
    return tasks


def _colour_list(value: Any, source: str, where: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise SpecError(source, where, f"expected a non-empty list of colours, got {value!r}")
    for c in value:
        if c not in COLOURS:
            raise SpecError(source, where, f"unknown colour {c!r}; colours are {', '.join(COLOURS)}")
    return list(value)


def parse_deck(data: dict[str, Any], source: str = "<deck>") -> DeckSpec:
    """Build a :class:`DeckSpec` from parsed TOML, raising :class:`SpecError` on any problem."""
    game = _need(data, "game", dict, source, "")
    name = _need(game, "name", str, source, "game")
    total = _need(game, "total_cards", int, source, "game")
    hand_size = _need(game, "hand_size", int, source, "game")
    target = _need(game, "target_points", int, source, "game")
    if hand_size < 1:
        raise SpecError(source, "game.hand_size", f"must be at least 1, got {hand_size}")
    if target < 1:
        raise SpecError(source, "game.target_points", f"must be at least 1, got {target}")
    if tuple(game.get("colours", COLOURS)) != COLOURS:
        raise SpecError(source, "game.colours", f"the engine plays with exactly {list(COLOURS)}")
    kinds = _parse_kinds(data, source)
    tasks = _parse_tasks(data, source)
    entries = _need(data, "cards", list, source, "")
    cards: list[Card] = []
    for i, entry in enumerate(entries):
        where = f"cards[{i}]"
        if not isinstance(entry, dict):
            raise SpecError(source, where, "expected a table")
        kind = _need(entry, "kind", str, source, where)
        if kind not in kinds:
            raise SpecError(source, f"{where}.kind", f"unknown card kind {kind!r}")
        info = kinds[kind]
        copies = _need(entry, "copies", int, source, where)
        if copies < 1:
            raise SpecError(source, f"{where}.copies", f"must be at least 1, got {copies}")
        if kind == "colour_change":
            pairs = _need(entry, "colour_pairs", list, source, where)
            colour_sets = []
            for j, pair in enumerate(pairs):
                pair = _colour_list(pair, source, f"{where}.colour_pairs[{j}]")
                if len(pair) != 2 or pair[0] == pair[1]:
                    raise SpecError(
                        source, f"{where}.colour_pairs[{j}]", "a colour change shows two different colours"
                    )
                colour_sets.append(tuple(pair))
        elif info.category in ("defensive", "brown"):
            if "colours" in entry:
                raise SpecError(source, f"{where}.colours", f"{info.category} cards have no play colour")
            colour_sets = [()]
        else:
            colour_sets = [(c,) for c in _colour_list(entry.get("colours"), source, f"{where}.colours")]
        if kind == "number":
            numbers = _need(entry, "numbers", list, source, where)
            for n in numbers:
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 9:
                    raise SpecError(source, f"{where}.numbers", f"numbers are 0..9, got {n!r}")
        elif "numbers" in entry:
            raise SpecError(source, f"{where}.numbers", "only number cards have numbers")
        else:
            numbers = [None]
        task_keys = entry.get("tasks", [])
        if kind in TASK_KINDS:
            if not isinstance(task_keys, list) or not task_keys:
                raise SpecError(
                    source, f"{where}.tasks", f"{kind} cards carry a task: give a list of task keys"
                )
            for t in task_keys:
                if t not in tasks:
                    raise SpecError(source, f"{where}.tasks", f"unknown task {t!r}")
        elif task_keys:
            raise SpecError(source, f"{where}.tasks", f"{kind} cards carry no task")
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
        raise SpecError(
            source, "cards", f"the entries make {len(cards)} cards, but game.total_cards is {total}"
        )
    return DeckSpec(name, tuple(cards), kinds, tasks, hand_size, target, source)
