"""One player's "Doppelt so clever" score sheet: what may be entered, entering it, the bonuses it earns.

An *entry* is ``(area, value, slot)``:

- ``silver``: ``value`` 1..6 marked in row ``slot`` (0..3, rows named by
  ``spec.silver_rows``);
- ``yellow``: ``slot`` is the index of a yellow number (0..9) and ``value`` its number; the
  entry circles the number, or crosses it if it is already circled;
- ``blue``: ``value`` 2..12 written into the next box (``slot`` is ``None``); it must not
  exceed the previous box;
- ``green``: the die ``value`` 1..6 written into the next box, where it counts ``value``
  times the box's multiplier (``slot`` is ``None``);
- ``pink``: the die ``value`` 1..6 written into the next box (``slot`` is ``None``).

:meth:`Sheet.enter` refuses anything else with a :class:`rules.common.errors.RulesError` and
leaves the sheet unchanged. It applies the action bonuses (reroll, return, +1) and foxes
itself and returns the free "?" bonuses, which the game resolves as further entries.
"""

from __future__ import annotations

from rules.clever.spec import CleverSpec
from rules.common.errors import RulesError

AREA_OF_FREE = {"?silver": "silver", "?yellow": "yellow", "?blue": "blue", "?green": "green", "?pink": "pink"}


class Sheet:
    """The marks of one player plus the actions and foxes they hold.

    Attributes:
        silver: four bitmasks, bit ``v - 1`` set when number ``v`` is marked in that row.
        yellow: state of each yellow number: 0 empty, 1 circled, 2 crossed.
        blue, green, pink: the values written so far, left to right (green: die values,
            before the multiplier).
        foxes: foxes earned.
        rerolls, returns, plus_ones: actions available (earned and not yet used).
    """

    __slots__ = (
        "spec",
        "silver",
        "yellow",
        "blue",
        "green",
        "pink",
        "foxes",
        "rerolls",
        "returns",
        "plus_ones",
    )

    def __init__(self, spec: CleverSpec):
        self.spec = spec
        self.silver = [0, 0, 0, 0]
        self.yellow = [0] * len(spec.yellow_cells)
        self.blue: list[int] = []
        self.green: list[int] = []
        self.pink: list[int] = []
        self.foxes = 0
        self.rerolls = 0
        self.returns = 0
        self.plus_ones = 0

    def copy(self) -> Sheet:
        """An independent copy (the spec is shared)."""
        other = Sheet.__new__(Sheet)
        other.spec = self.spec
        other.silver = self.silver[:]
        other.yellow = self.yellow[:]
        other.blue = self.blue[:]
        other.green = self.green[:]
        other.pink = self.pink[:]
        other.foxes = self.foxes
        other.rerolls = self.rerolls
        other.returns = self.returns
        other.plus_ones = self.plus_ones
        return other

    # ----------------------------------------------------------------- what may be entered
    def slots(self, area: str, value: int) -> list[int | None]:
        """Where a die showing ``value`` may be entered in ``area`` (empty list: nowhere).

        For blue, ``value`` is the sum blue + white.
        """
        bit = 1 << (value - 1) if 1 <= value <= 6 else 0
        if area == "silver":
            return [r for r in range(4) if bit and not self.silver[r] & bit]
        if area == "yellow":
            return [
                i for i, c in enumerate(self.spec.yellow_cells) if c.number == value and self.yellow[i] < 2
            ]
        if area == "blue":
            ok = (
                len(self.blue) < self.spec.boxes
                and self.spec.blue_min <= value <= self.spec.blue_max
                and (not self.blue or value <= self.blue[-1])
            )
            return [None] if ok else []
        if area == "green":
            return [None] if len(self.green) < self.spec.boxes and 1 <= value <= 6 else []
        if area == "pink":
            return [None] if len(self.pink) < self.spec.boxes and 1 <= value <= 6 else []
        raise RulesError(f"unknown area {area!r}")

    def free_entries(self, area: str) -> list[tuple[int, int | None]]:
        """Every ``(value, slot)`` a free "?" entry in ``area`` may make."""
        if area == "silver":
            return [(v, r) for r in range(4) for v in range(1, 7) if not self.silver[r] & (1 << (v - 1))]
        if area == "yellow":
            return [(c.number, i) for i, c in enumerate(self.spec.yellow_cells) if self.yellow[i] < 2]
        if area == "blue":
            if len(self.blue) >= self.spec.boxes:
                return []
            top = self.blue[-1] if self.blue else self.spec.blue_max
            return [(v, None) for v in range(self.spec.blue_min, top + 1)]
        if area in ("green", "pink"):
            filled = self.green if area == "green" else self.pink
            return [] if len(filled) >= self.spec.boxes else [(v, None) for v in range(1, 7)]
        raise RulesError(f"unknown area {area!r}")

    def can_enter(self, area: str, value: int, slot: int | None) -> bool:
        """Whether ``(area, value, slot)`` is a legal entry now."""
        if area == "yellow":
            cells = self.spec.yellow_cells
            return (
                isinstance(slot, int)
                and 0 <= slot < len(cells)
                and cells[slot].number == value
                and self.yellow[slot] < 2
            )
        if area not in ("silver", "blue", "green", "pink"):
            return False
        return slot in self.slots(area, value)

    def is_full(self, area: str) -> bool:
        """Whether ``area`` accepts no entry at all any more."""
        return not self.free_entries(area)

    # ------------------------------------------------------------------------ entering
    def enter(self, area: str, value: int, slot: int | None) -> list[str]:
        """Make an entry; return the free "?" bonuses it earns, in sheet order.

        Action bonuses (reroll, return, +1) and foxes are added to the sheet at once.

        Raises:
            RulesError: the entry is not legal; the sheet is unchanged.
        """
        if not self.can_enter(area, value, slot):
            raise RulesError(
                f"cannot enter {value} in {area}"
                + (f" slot {slot}" if slot is not None else "")
                + f": {self._why_not(area, value, slot)}"
            )
        spec = self.spec
        earned: list[str] = []
        if area == "silver":
            assert slot is not None  # _why_not above refuses a silver entry without a row
            self.silver[slot] |= 1 << (value - 1)
            bit = 1 << (value - 1)
            if all(row & bit for row in self.silver):
                earned.append(spec.silver_column_bonuses[value - 1])
        elif area == "yellow":
            assert slot is not None  # _why_not above refuses a yellow entry without a cell
            self.yellow[slot] += 1
            if self.yellow[slot] == 1:
                cell = spec.yellow_cells[slot]
                if all(self.yellow[i] for i in spec.yellow_rows[cell.row]):
                    earned.append(spec.yellow_row_bonuses[cell.row])
                if all(self.yellow[i] for i in spec.yellow_columns[cell.column]):
                    earned.append(spec.yellow_column_bonuses[cell.column])
        elif area == "blue":
            self.blue.append(value)
            earned.append(spec.blue_bonuses[len(self.blue) - 1])
        elif area == "green":
            self.green.append(value)
            earned.append(spec.green_bonuses[len(self.green) - 1])
        else:
            self.pink.append(value)
            i = len(self.pink) - 1
            if value >= spec.pink_thresholds[i]:
                earned.append(spec.pink_bonuses[i])
        return self._take(earned)

    def _take(self, earned: list[str]) -> list[str]:
        """Apply action bonuses and foxes; return the free bonuses still to resolve."""
        free = []
        for bonus in earned:
            if bonus == "reroll":
                self.rerolls += 1
            elif bonus == "return":
                self.returns += 1
            elif bonus == "plus1":
                self.plus_ones += 1
            elif bonus == "fox":
                self.foxes += 1
            elif bonus:
                free.append(bonus)
        return free

    def grant(self, bonus: str) -> list[str]:
        """Give a bonus from outside the sheet (the round track); return it if it is a free entry."""
        return self._take([bonus])

    def _why_not(self, area: str, value: int, slot: int | None) -> str:
        spec = self.spec
        if area not in spec.areas:
            return f"no area {area!r}"
        if area == "silver":
            if not 1 <= value <= 6:
                return "silver takes numbers 1-6"
            if not isinstance(slot, int) or not 0 <= slot < 4:
                return "silver needs a row 0-3"
            return f"{value} is already marked in the {spec.silver_rows[slot]} row"
        if area == "yellow":
            if not isinstance(slot, int) or not 0 <= slot < len(spec.yellow_cells):
                return f"yellow needs a number index 0-{len(spec.yellow_cells) - 1}"
            if spec.yellow_cells[slot].number != value:
                return f"that yellow field shows {spec.yellow_cells[slot].number}"
            return "that yellow number is already crossed"
        filled = getattr(self, area)
        if slot is not None:
            return f"{area} is filled left to right (no slot)"
        if len(filled) >= spec.boxes:
            return f"{area} is full"
        if area == "blue":
            if not spec.blue_min <= value <= spec.blue_max:
                return f"blue takes {spec.blue_min}-{spec.blue_max}"
            return f"blue values must not increase (previous {filled[-1]})"
        return f"{area} takes die values 1-6"

    # --------------------------------------------------------------------------- scores
    def area_scores(self) -> dict[str, int]:
        """Points of each of the five areas."""
        spec = self.spec
        silver = sum(spec.silver_points[row.bit_count()] for row in self.silver)
        yellow = spec.yellow_points[sum(1 for s in self.yellow if s == 2)]
        blue = spec.blue_points[len(self.blue)]
        mult = spec.green_multipliers
        green = sum(
            self.green[i] * mult[i] - self.green[i + 1] * mult[i + 1]
            for i in range(0, len(self.green) - 1, 2)
        )
        pink = sum(self.pink)
        return {"silver": silver, "yellow": yellow, "blue": blue, "green": green, "pink": pink}

    def fox_points(self) -> int:
        """Foxes times the lowest area score."""
        return self.foxes * min(self.area_scores().values()) if self.foxes else 0

    def total(self) -> int:
        """The sheet's total: the five areas plus the foxes."""
        scores = self.area_scores()
        return sum(scores.values()) + self.foxes * min(scores.values())

    # -------------------------------------------------------------------------- storage
    def to_dict(self) -> dict:
        """The marks as plain data (for saves and tests)."""
        return {
            "silver": self.silver[:],
            "yellow": self.yellow[:],
            "blue": self.blue[:],
            "green": self.green[:],
            "pink": self.pink[:],
            "foxes": self.foxes,
            "rerolls": self.rerolls,
            "returns": self.returns,
            "plus_ones": self.plus_ones,
        }
