"""The decisions of "Doppelt so clever" as one small frozen dataclass, with text and plain-data forms.

Kinds:

- ``choose``: take die ``die`` and make the entry ``(area, value, slot)`` with it (the
  active player's pick from the roll, a passive player's pick, or a +1 extra die);
- ``mark``: resolve the pending free "?" bonus or a silver-platter mark with the entry
  ``(area, value, slot)`` (``die`` names the die of a platter mark);
- ``reroll``: spend a reroll action on the dice just rolled;
- ``return``: spend a return action to bring die ``die`` back from the silver platter
  into the next roll;
- ``roll``: roll the dice in hand (ends the return window before a roll);
- ``pass``: forfeit this roll / take no platter die / skip this platter mark / stop using
  +1 actions / end the active turn when no die is left to roll.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rules.common.errors import SpecError
from rules.common.schema import DataTable

KINDS = ("choose", "mark", "reroll", "return", "roll", "pass")


@dataclass(frozen=True)
class Action:
    """One decision; fields that do not apply to ``kind`` are ``None``."""

    kind: str
    die: str | None = None
    area: str | None = None
    value: int | None = None
    slot: int | None = None

    @property
    def picked(self) -> str:
        """The die of an action that takes or returns one (asserts it names one)."""
        assert self.die is not None, f"{self.kind} action names no die"
        return self.die

    @property
    def entry(self) -> tuple[str, int, int | None]:
        """``(area, value, slot)`` of an action that marks the sheet (asserts it names one)."""
        assert self.area is not None and self.value is not None, f"{self.kind} action marks nothing"
        return self.area, self.value, self.slot

    def to_dict(self) -> dict[str, Any]:
        """Plain data without the ``None`` fields (for logs and saves)."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            return Action.from_table(DataTable(data, "action"))
        except SpecError as exc:
            raise ValueError(str(exc)) from None

    @staticmethod
    def from_table(t: DataTable) -> Action:
        """The action written by :meth:`to_dict`, read from ``t`` (a :class:`SpecError` names the
        field: an unknown key, a kind not in :data:`KINDS`, a die, area, value or slot of the
        wrong type; whether the action is legal is the game's to say)."""
        t.check_keys({"kind", "die", "area", "value", "slot"})
        return Action(
            t.string("kind", choices=KINDS),
            t.optional_string("die"),
            t.optional_string("area"),
            t.optional_integer("value", minimum=0, maximum=99),
            t.optional_integer("slot", minimum=0, maximum=99),
        )


PASS = Action("pass")
ROLL = Action("roll")
REROLL = Action("reroll")
