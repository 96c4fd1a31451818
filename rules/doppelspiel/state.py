"""The game as a state machine in the style of OpenSpiel's Python games.

A turn runs through these phases:

``start``  the player may activate Jokers, then throws all ten dice (``Roll``).
``chance`` the thrown dice wait for their faces: :meth:`DoppelState.sample_chance` draws
           them from a seeded generator, or any outside source (a person's real dice,
           the physics tray) supplies them with :meth:`DoppelState.apply_chance`.
``throw``  after a throw: throw again (up to three regular throws), free throw,
           Wiederholen, Tauschen, or stop by ``Split`` (two groups of five) or ``WriteTen``.
``place``  each group in turn is written, struck or set aside (Aussetzen).
``zwang``  if the player may use a Zwang box, he marks two fields of the opponent or passes.
``over``   both sheets are full.

Every applied action (the chance outcomes included) goes into :attr:`DoppelState.log`
as ``(actor, text)``; :func:`replay` (from :meth:`DoppelState.to_json`) or :func:`replay_log` rebuilds the
identical state from it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np

from rules.common.errors import RulesError, SpecError
from rules.common.schema import DataTable, check_integer, describe
from rules.contract import CHANCE, TERMINAL
from rules.doppelspiel.actions import (
    Action,
    ActivateJoker,
    Dice,
    FieldRef,
    FreeThrow,
    Pass,
    Place,
    Repeat,
    Roll,
    Split,
    Swap,
    WriteTen,
    Zwang,
    parse_action,
)
from rules.doppelspiel.fields import as_group, base_value, doppler_kind, fives_in, split_groups
from rules.doppelspiel.scoring import MatchResult, match_points
from rules.doppelspiel.sheet import Sheet
from rules.doppelspiel.spec import (
    HIGHEST_SINGLE_READINGS,
    SMALL_STRAIGHT_READINGS,
    DoppelSpec,
    FieldSpec,
    default_spec,
)

LOG_FORMAT = "doppelspiel-log/1"


class DoppelState:
    """The full state of one game between two players.

    Args:
        spec: the game spec (default: the shipped one).
        first_player: who starts (0 or 1).

    Attributes:
        sheets: one :class:`Sheet` per player.
        player: whose turn it is.
        phase: see the module docstring.
        dice: the ten faces after the first throw of the turn, else ``None``.
        throws: regular throws taken this turn.
        pending: dice positions waiting for a chance outcome.
        active_jokers: columns whose Joker was activated for this turn.
        marks: per player, the opponent's Zwang marks to fill in that player's next turn.
        groups: the two groups fixed by ``Split`` (group 1 first).
        placed: groups placed so far this turn.
        doublings: doublings left for this write: ``(any field, joker)``.
        log: ``(actor, text)`` per applied action; actor is the player or :data:`CHANCE`.
    """

    def __init__(self, spec: DoppelSpec | None = None, first_player: int = 0):
        self.spec = spec or default_spec()
        if first_player not in (0, 1):
            raise RulesError(f"first player must be 0 or 1, got {first_player!r}")
        self.first_player = first_player
        self.sheets = [Sheet(self.spec), Sheet(self.spec)]
        self.player = first_player
        self.phase = "start"
        self.dice: tuple[int, ...] | None = None
        self.throws = 0
        self.pending: tuple[int, ...] = ()
        self.active_jokers: tuple[int, ...] = ()
        self.marks: list[tuple[FieldRef, ...]] = [(), ()]
        self.groups: tuple[tuple[int, ...], ...] = ()
        self.placed = 0
        self.doublings = (0, 0)
        self.turn = 0
        self.log: list[tuple[int, str]] = []

    # --- OpenSpiel-style queries ----------------------------------------------------------
    def current_player(self) -> int:
        """The player to decide, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        if self.phase == "over":
            return TERMINAL
        if self.phase == "chance":
            return CHANCE
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase == "chance"

    @property
    def thrown(self) -> tuple[int, ...]:
        """The faces on the table; only read once the turn's first throw has landed."""
        assert self.dice is not None, "no dice were thrown this turn"
        return self.dice

    def chance_dice(self) -> tuple[int, ...]:
        """Positions of the dice being thrown (only at a chance node)."""
        return self.pending

    def sample_chance(self, rng: np.random.Generator) -> Dice:
        """Draw the faces of the thrown dice from ``rng`` (does not apply them)."""
        if self.phase != "chance":
            raise RulesError("no dice are being thrown")
        return Dice(tuple(int(v) for v in rng.integers(1, self.spec.faces + 1, size=len(self.pending))))

    def apply_chance(self, faces: Dice | tuple[int, ...]) -> None:
        """Apply a chance outcome: a :class:`Dice` or the faces of the thrown dice, in position order."""
        if self.phase != "chance":
            raise RulesError("no dice are being thrown")
        if isinstance(faces, Dice):
            faces = faces.faces
        self.apply_action(Dice(tuple(int(v) for v in faces)))

    def scores(self) -> list[int]:
        """Grand totals (sum of the column totals with bonuses) per player."""
        return [s.grand_total() for s in self.sheets]

    def result(self) -> MatchResult:
        """Match points from the sheets as they are now."""
        return match_points(self.sheets)

    def returns(self) -> list[int]:
        """Match points per player at the end (zeros while the game runs)."""
        return list(self.result().points) if self.is_terminal() else [0, 0]

    @property
    def sheet(self) -> Sheet:
        """The sheet of the player whose turn it is."""
        return self.sheets[self.player]

    def clone(self) -> DoppelState:
        """An independent copy."""
        other = DoppelState.__new__(DoppelState)
        other.__dict__.update(self.__dict__)
        other.sheets = [s.copy() for s in self.sheets]
        other.marks = list(self.marks)
        other.log = list(self.log)
        return other

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to decide (empty at chance and terminal nodes)."""
        phase = self.phase
        if phase == "start":
            return self._start_actions()
        if phase == "throw":
            return self._throw_actions()
        if phase == "place":
            return list(self.place_options(self.groups[self.placed]))
        if phase == "zwang":
            return [Pass(), *self.zwang_options()]
        return []

    def _start_actions(self) -> list[Action]:
        out: list[Action] = []
        if len(self.active_jokers) < self.spec.max_jokers_per_turn:
            out += [
                ActivateJoker(c)
                for c in range(self.spec.columns)
                if self.sheet.joker_ready(c) and c not in self.active_jokers
            ]
        out.append(Roll(tuple(range(self.spec.dice))))
        return out

    def _subsets(self) -> list[tuple[int, ...]]:
        n = self.spec.dice
        return [s for k in range(1, n + 1) for s in itertools.combinations(range(n), k)]

    def _throw_actions(self) -> list[Action]:
        out: list[Action] = []
        sheet, dice = self.sheet, self.thrown
        if self.throws < self.spec.throws_per_turn:
            out += [Roll(s) for s in self._subsets()]
        if sheet.free_available() > 0:
            out += [FreeThrow(s) for s in self._subsets()]
        out += [Repeat(f) for f in sorted(set(dice)) if f not in sheet.repeats]
        if len(sheet.swaps) <= self.spec.faces - 2:
            out += [
                Swap(i, f)
                for i, d in enumerate(dice)
                if d not in sheet.swaps
                for f in range(1, self.spec.faces + 1)
                if f != d and f not in sheet.swaps
            ]
        out += self.write_starts()
        return out

    def write_starts(self) -> list[Action]:
        """The legal ways to stop throwing: ``WriteTen`` per open 10er, ``Split`` per group 1."""
        out: list[Action] = []
        marks = self.marks[self.player]
        ten = self.spec.ten_index
        for c in range(self.spec.columns):
            if self.sheet.is_open(c, ten) and (
                not marks or marks == (FieldRef(c, self.spec.fields[ten].key),)
            ):
                out.append(WriteTen(c))
        if len(marks) != 1 and self._has_group_target():
            out += [Split(a) for a, _ in split_groups(self.dice, self.spec.group_size)]
        return out

    def _has_group_target(self) -> bool:
        """Whether a group can go anywhere (a field to write or strike, or an Aussetzen box)."""
        if self.marks[self.player]:
            return True
        sheet = self.sheet
        if sheet.aussetzen < self.spec.aussetzen_boxes:
            return True
        ten = self.spec.ten_index
        return any(c.field != ten for c in sheet.open_cells())

    def _has_field_for_second_group(self) -> bool:
        """Whether the second group can still be written or struck somewhere.

        When the first group filled the last open field (besides the 10ers), the turn ends:
        setting the second group aside would only use up an Aussetzen box for nothing.
        """
        if self.marks[self.player]:
            return True
        ten = self.spec.ten_index
        return any(c.field != ten for c in self.sheet.open_cells())

    def _doublable(self, f: FieldSpec) -> bool:
        any_left, joker_left = self.doublings
        return not f.is_ten and (any_left > 0 or (joker_left > 0 and f.jokerable))

    def place_options(self, group: tuple[int, ...]) -> list[Place]:
        """Legal ``Place`` actions for ``group`` in the current write (phase ``place``)."""
        sheet, spec = self.sheet, self.spec
        out: list[Place] = []
        marks = self.marks[self.player]
        if marks:
            for ref in marks:
                f = spec.field(ref.key)
                if not sheet.is_open(ref.column, spec.index(ref.key)):
                    continue
                if base_value(f, group) is None:
                    out.append(Place("strike", ref))
                else:
                    out.append(Place("write", ref))
                    if self._doublable(f):
                        out.append(Place("write", ref, True))
            return out
        may_strike = sheet.aussetzen >= spec.aussetzen_boxes
        for cell in sheet.open_cells():
            f = spec.fields[cell.field]
            if f.is_ten:
                continue
            ref = FieldRef(cell.column, f.key)
            if base_value(f, group) is not None:
                out.append(Place("write", ref))
                if self._doublable(f):
                    out.append(Place("write", ref, True))
            if may_strike:
                out.append(Place("strike", ref))
        if not may_strike:
            out.append(Place("skip"))
        return out

    def zwang_options(self) -> list[Zwang]:
        """Legal Zwang marks on the opponent's sheet (phase ``zwang``)."""
        opp = self.sheets[1 - self.player]
        singles, tens = [], []
        for cell in opp.open_cells():
            f = self.spec.fields[cell.field]
            if f.is_ten:
                tens.append(FieldRef(cell.column, f.key))
            elif f.has_square:
                singles.append(FieldRef(cell.column, f.key))
        out = [Zwang((a, b)) for a, b in itertools.combinations(singles, 2)]
        out += [Zwang((t,)) for t in tens]
        return out

    def _zwang_possible(self) -> bool:
        opp = 1 - self.player
        if self.sheets[opp].is_full() or self.marks[opp]:
            return False
        if not any(self.sheet.zwang_ready(c) for c in range(self.spec.columns)):
            return False
        return bool(self.zwang_options())

    # --- applying actions ---------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Check and apply ``action``; an illegal one raises :class:`RulesError` and changes nothing."""
        actor = self.current_player()
        handler = {
            "start": self._apply_start,
            "chance": self._apply_chance,
            "throw": self._apply_throw,
            "place": self._apply_place,
            "zwang": self._apply_zwang,
        }.get(self.phase)
        if handler is None:
            raise RulesError("the game is over")
        handler(action)
        self.log.append((actor, str(action)))

    def _apply_start(self, action: Action) -> None:
        if isinstance(action, ActivateJoker):
            c = action.column
            if not 0 <= c < self.spec.columns:
                raise RulesError(f"there is no column {c + 1}")
            if c in self.active_jokers:
                raise RulesError(f"the Joker of column {c + 1} is already active")
            if not self.sheet.joker_ready(c):
                why = "was used" if c in self.sheet.jokers else "needs the column's lower part full"
                raise RulesError(f"the Joker of column {c + 1} {why}")
            if len(self.active_jokers) >= self.spec.max_jokers_per_turn:
                raise RulesError(f"at most {self.spec.max_jokers_per_turn} Jokers per turn")
            self.sheet.jokers.add(c)
            self.active_jokers += (c,)
            return
        if isinstance(action, Roll):
            if action.dice != tuple(range(self.spec.dice)):
                raise RulesError("the first throw of a turn is all ten dice")
            self.throws = 1
            self._throw(action.dice)
            return
        raise RulesError(f"{action} is not possible before the first throw (activate a Joker or roll)")

    def _throw(self, positions: tuple[int, ...]) -> None:
        self.pending = positions
        self.phase = "chance"

    def _apply_chance(self, action: Action) -> None:
        if not isinstance(action, Dice):
            raise RulesError(f"waiting for the faces of {len(self.pending)} dice, got {action}")
        if len(action.faces) != len(self.pending):
            raise RulesError(f"expected {len(self.pending)} faces, got {len(action.faces)}")
        if not all(1 <= v <= self.spec.faces for v in action.faces):
            raise RulesError(f"faces must be 1..{self.spec.faces}")
        dice = list(self.dice) if self.dice is not None else [0] * self.spec.dice
        for pos, face in zip(self.pending, action.faces):
            dice[pos] = face
        self.dice = tuple(dice)
        self.pending = ()
        self.phase = "throw"

    def _check_positions(self, positions: tuple[int, ...]) -> None:
        if not positions:
            raise RulesError("name at least one die")
        if any(not 0 <= p < self.spec.dice for p in positions) or len(set(positions)) != len(positions):
            raise RulesError(f"die positions must be distinct and 1..{self.spec.dice}")

    def _apply_throw(self, action: Action) -> None:
        sheet, dice = self.sheet, self.thrown
        if isinstance(action, Roll):
            if self.throws >= self.spec.throws_per_turn:
                raise RulesError(f"all {self.spec.throws_per_turn} throws of this turn are taken")
            self._check_positions(action.dice)
            self.throws += 1
            self._throw(tuple(sorted(action.dice)))
        elif isinstance(action, FreeThrow):
            if sheet.free_available() <= 0:
                raise RulesError("no free throw (Freiwurf) is available")
            self._check_positions(action.dice)
            sheet.free_used += 1
            self._throw(tuple(sorted(action.dice)))
        elif isinstance(action, Repeat):
            f = action.face
            if f in sheet.repeats:
                raise RulesError(f"Wiederholen {f} is already struck")
            positions = tuple(i for i, d in enumerate(dice) if d == f)
            if not positions:
                raise RulesError(f"no die shows {f}")
            sheet.repeats.add(f)
            self._throw(positions)
        elif isinstance(action, Swap):
            if not 0 <= action.die < self.spec.dice:
                raise RulesError(f"die positions are 1..{self.spec.dice}")
            old, new = dice[action.die], action.face
            if not 1 <= new <= self.spec.faces or new == old:
                raise RulesError(
                    f"die {action.die + 1} shows {old}; swap it to another face 1..{self.spec.faces}"
                )
            for v in (old, new):
                if v in sheet.swaps:
                    raise RulesError(f"Tauschen {v} is already struck")
            sheet.swaps.update((old, new))
            self.dice = dice[: action.die] + (new,) + dice[action.die + 1 :]
        elif isinstance(action, WriteTen):
            self._write_ten(action.column)
        elif isinstance(action, Split):
            self._split(action.group)
        else:
            raise RulesError(f"{action} is not possible after a throw")

    def _write_ten(self, column: int) -> None:
        spec, sheet = self.spec, self.sheet
        if not 0 <= column < spec.columns:
            raise RulesError(f"there is no column {column + 1}")
        ten = spec.ten_index
        ref = FieldRef(column, spec.fields[ten].key)
        marks = self.marks[self.player]
        if marks and marks != (ref,):
            raise RulesError("a Zwang binds this turn to " + ", ".join(map(str, marks)))
        if not sheet.is_open(column, ten):
            raise RulesError(f"the 10er of column {column + 1} is already filled")
        sheet.write(column, ten, sum(self.thrown))
        self._finish_write()

    def _split(self, group: tuple[int, ...]) -> None:
        spec = self.spec
        group = as_group(group)
        if len(group) != spec.group_size:
            raise RulesError(f"a group has {spec.group_size} dice")
        rest = Counter(self.thrown)
        rest.subtract(group)
        if any(v < 0 for v in rest.values()):
            raise RulesError(
                f"the dice {''.join(map(str, sorted(self.thrown)))} do not hold {''.join(map(str, group))}"
            )
        if len(self.marks[self.player]) == 1:
            raise RulesError("a Zwang binds this turn to the 10er " + str(self.marks[self.player][0]))
        if not self._has_group_target():
            raise RulesError("no field is left for a group; write the 10er")
        other = as_group(rest.elements())
        kind = doppler_kind(group, other)
        jokers = len(self.active_jokers)
        self.doublings = (
            (2, 0) if kind == "doppeldoppler" else (1, jokers) if kind == "doppler" else (0, jokers)
        )
        self.groups = (group, other)
        self.placed = 0
        self.phase = "place"

    def _apply_place(self, action: Action) -> None:
        if not isinstance(action, Place):
            raise RulesError(f"{action} is not possible now: place group {self.placed + 1}")
        spec, sheet = self.spec, self.sheet
        group = self.groups[self.placed]
        marks = self.marks[self.player]
        if action.mode == "skip":
            if marks:
                raise RulesError("a Zwang turn cannot use Aussetzen: " + ", ".join(map(str, marks)))
            if action.doubled or action.target is not None:
                raise RulesError("Aussetzen takes no field")
            if sheet.aussetzen >= spec.aussetzen_boxes:
                raise RulesError(
                    f"all {spec.aussetzen_boxes} Aussetzen boxes are used; strike a field instead"
                )
            sheet.aussetzen += 1
        elif action.mode in ("write", "strike"):
            ref = action.target
            if ref is None:
                raise RulesError(f"{action.mode} needs a field")
            try:
                f = spec.field(ref.key)
            except KeyError as exc:
                raise RulesError(str(exc.args[0])) from None
            if not 0 <= ref.column < spec.columns:
                raise RulesError(f"there is no column {ref.column + 1}")
            idx = spec.index(ref.key)
            if f.is_ten:
                raise RulesError("the 10er takes all ten dice (action 'ten'), not a group")
            if marks and ref not in marks:
                raise RulesError("a Zwang binds this turn to " + ", ".join(map(str, marks)))
            if not sheet.is_open(ref.column, idx):
                raise RulesError(f"{f.label} in column {ref.column + 1} is already filled")
            base = base_value(f, group)
            if action.mode == "strike":
                if action.doubled:
                    raise RulesError("a stroke cannot be doubled")
                if marks:
                    if base is not None:
                        raise RulesError(f"the Zwang field {ref} must be filled: the group meets it")
                elif sheet.aussetzen < spec.aussetzen_boxes:
                    raise RulesError(
                        "fields are struck only when all Aussetzen boxes are used; set the group aside with 'skip'"
                    )
                sheet.strike(ref.column, idx)
            else:
                if base is None:
                    raise RulesError(f"{''.join(map(str, group))} does not meet {f.label}")
                if action.doubled:
                    if not self._doublable(f):
                        raise RulesError(
                            f"no doubling is available for {f.label} (Joker: upper and middle only)"
                        )
                    any_left, joker_left = self.doublings
                    if joker_left > 0 and f.jokerable:
                        self.doublings = (any_left, joker_left - 1)
                    else:
                        self.doublings = (any_left - 1, joker_left)
                sheet.write(ref.column, idx, base * (2 if action.doubled else 1))
        else:
            raise RulesError(f"unknown place mode {action.mode!r}")
        self.placed += 1
        if self.placed == len(self.groups) or not self._has_field_for_second_group():
            self._finish_write()

    def _finish_write(self) -> None:
        self.sheet.add_crosses(fives_in(self.dice, self.spec.group_size))
        self.marks[self.player] = ()
        if self._zwang_possible():
            self.phase = "zwang"
        else:
            self._end_turn()

    def _apply_zwang(self, action: Action) -> None:
        if isinstance(action, Pass):
            self._end_turn()
            return
        if not isinstance(action, Zwang):
            raise RulesError(f"{action} is not possible now: use a Zwang ('zwang ...') or 'pass'")
        spec = self.spec
        opp = self.sheets[1 - self.player]
        targets = action.targets
        for ref in targets:
            try:
                f = spec.field(ref.key)
            except KeyError as exc:
                raise RulesError(str(exc.args[0])) from None
            if not 0 <= ref.column < spec.columns:
                raise RulesError(f"there is no column {ref.column + 1}")
            if not f.has_square:
                raise RulesError(f"{f.label} has no small square (only upper, middle and 10er fields)")
            if not opp.is_open(ref.column, spec.index(ref.key)):
                raise RulesError(f"the opponent's {ref} is already filled")
        tens = [r for r in targets if spec.field(r.key).is_ten]
        if tens and len(targets) != 1:
            raise RulesError("a Zwang marks two fields or one 10er")
        if not tens and (len(targets) != 2 or targets[0] == targets[1]):
            raise RulesError("a Zwang marks two different fields or one 10er")
        column = next(c for c in range(spec.columns) if self.sheet.zwang_ready(c))
        self.sheet.zwang.add(column)
        self.marks[1 - self.player] = tuple(targets)
        self._end_turn()

    def _end_turn(self) -> None:
        self.dice = None
        self.throws = 0
        self.pending = ()
        self.active_jokers = ()
        self.groups = ()
        self.placed = 0
        self.doublings = (0, 0)
        self.turn += 1
        other = 1 - self.player
        if not self.sheets[other].is_full():
            self.player = other
        elif self.sheet.is_full():
            self.phase = "over"
            return
        self.phase = "start"

    # --- logs ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The game as data: first player and the action log (enough to rebuild it exactly)."""
        return {
            "format": LOG_FORMAT,
            "first_player": self.first_player,
            "readings": self.spec.readings(),
            "log": [[actor, text] for actor, text in self.log],
        }


def replay_log(log, spec: DoppelSpec | None = None, first_player: int = 0) -> DoppelState:
    """Rebuild a game from its log of ``(actor, text)`` pairs.

    Raises:
        RulesError: an entry is not legal where it stands, or names the wrong actor.
    """
    state = DoppelState(spec, first_player)
    for n, entry in enumerate(log):
        try:
            actor, text = entry
        except (TypeError, ValueError):
            raise RulesError(f"log entry {n + 1}: expected [actor, action], got {entry!r}") from None
        if not isinstance(text, str) or isinstance(actor, bool) or not isinstance(actor, int):
            raise RulesError(f"log entry {n + 1}: expected [actor number, action text], got {entry!r}")
        try:
            _replay_step(state, actor, text)
        except ValueError as exc:
            raise RulesError(f"log entry {n + 1}: {exc}") from None
        except RulesError as exc:
            raise RulesError(f"log entry {n + 1} ({text}): {exc}") from None
    return state


def _replay_step(state: DoppelState, actor: int, text: str) -> None:
    """Apply one log entry; ``ValueError`` for text that is no action, :class:`RulesError`
    for an action that is not legal here or an actor whose turn it is not."""
    if actor != state.current_player():
        raise RulesError(f"actor {actor}, but {state.current_player()} is to act")
    state.apply_action(parse_action(text, state.spec))


def replay(
    data: Any, spec: DoppelSpec | None = None, *, source: str = "<game>", where: str = ""
) -> DoppelState:
    """Rebuild a game from :meth:`DoppelState.to_json` data (its readings restored).

    Args:
        source, where: the file and the element holding ``data``, for the errors (``"game"``
            in a save file).

    Raises:
        SpecError: the data is malformed or a log entry is not legal where it stands; the
            element is named (``game.log[3]``, ``game.readings.small_straight``).
    """
    top = DataTable(data, source, where)
    if top.raw("format", None) != LOG_FORMAT:
        raise top.error("format", f"not a Doppel Spiel log (expected {LOG_FORMAT!r})")
    top.check_keys({"format", "first_player", "readings", "log"})
    readings = top.table("readings", {})
    readings.check_keys({"small_straight", "highest_single"})
    spec = (spec or default_spec()).with_readings(
        readings.string("small_straight", choices=SMALL_STRAIGHT_READINGS)
        if readings.has("small_straight")
        else None,
        readings.string("highest_single", choices=HIGHEST_SINGLE_READINGS)
        if readings.has("highest_single")
        else None,
    )
    state = DoppelState(spec, top.integer("first_player", 0, minimum=0, maximum=1))
    for i, entry in enumerate(top.array("log", [], what="[actor, action] entries")):
        here = top.item("log", i)
        if not isinstance(entry, list) or len(entry) != 2:
            raise SpecError(source, here, f"expected [actor, action text], got {describe(entry)}")
        actor = check_integer(entry[0], source, f"{here}[0]", minimum=-1, maximum=1)
        if not isinstance(entry[1], str) or not entry[1]:
            raise SpecError(source, f"{here}[1]", f"expected an action text, got {describe(entry[1])}")
        try:
            _replay_step(state, actor, entry[1])
        except (ValueError, RulesError) as exc:
            raise SpecError(source, here, f"{entry[1][:40]!r}: {exc}") from None
    return state
