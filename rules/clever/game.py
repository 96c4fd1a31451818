"""The rules of "Doppelt so clever" (Wolfgang Warsch, 1-4 players) as a state machine.

In the style of OpenSpiel's Python games: :meth:`CleverState.current_player` says whose
decision it is (or :data:`CHANCE` for a dice roll, :data:`TERMINAL` at the end);
:meth:`~CleverState.legal_actions` lists the decisions, :meth:`~CleverState.apply_action`
applies one, and a roll is an explicit chance step whose outcome comes from a seeded
generator (:meth:`~CleverState.sample_chance`) or from outside, and is applied with
:meth:`~CleverState.apply_chance` (the contract of :mod:`rules.contract`).
Every roll and decision is appended to :attr:`CleverState.log`; :func:`replay` rebuilds
the identical state (and so the identical scores) from it.

The sheet (areas, bonuses, point tables) is data (``assets/games/clever.toml``); the
area rules live in :mod:`rules.clever.sheet`.

Flow of a game:

1. Rounds: 6 (1-2 players), 5 (3), 4 (4). At the start of rounds 1-4 every player gets
   the round bonus: R1 reroll, R2 +1, R3 return, R4 a free black "?" (an entry of the
   player's choice in any area, resolved at once, in seat order).
2. Every round, each player in seat order (seat 0 first) is the active player once:
   - roll the dice in hand (all six at the start of the turn);
   - pick one of the rolled dice and enter it; it goes to a die field and every rolled
     die showing a lower number goes to the silver platter; or forfeit the roll;
   - up to 3 picks/forfeits; then the dice still in hand go to the platter.
3. Each passive player (clockwise from the active one) then picks one platter die
   (several may take the same die) or passes; if no platter die can be entered at all,
   they may instead pick one of the dice on the active player's die fields.
4. End of the turn: every player, the active one first, may spend +1 actions, each on
   any of the six dice as they lie (one +1 per die per player and turn).
5. Solo (1 player): each round is the active turn (with its +1 step), then the passive
   step: roll all six dice, the three lowest go to the platter, the other three count as
   the active player's die fields; pick one as a passive player; then the +1 step.

Die values: white is wild (silver, yellow, green, pink with its own value); the blue
area always takes blue + white, whichever of the two dice is taken and wherever the
other one lies.

Readings where the texts are unclear (also in ``docs/games/clever.md``):

- R1 Forfeit: the active player may forfeit a roll (the seed: the die field stays empty).
  The forfeited roll counts as one of the three picks; no die moves, and the same dice
  are rolled again (if picks remain).
- R2 A pick is an entry: a die can only be chosen together with a legal entry for it;
  a die that cannot be entered anywhere cannot be chosen (as the silver die whose number
  is marked in all rows).
- R3 Silver platter marks: after choosing silver (or white as silver) from the roll, each
  die this choice sends to the platter may be marked in the silver row of its own colour
  with its own number (the blue die: its own face, not blue + white); the white and the
  silver die in any row. Each mark is optional. They are resolved one by one in die
  order, before the "?" bonuses of the same entry. A die taken from the platter, by +1
  or by a passive player never triggers platter marks.
- R4 Bonuses chain and cannot be saved: every "?" is resolved at once, first come first
  served (a queue; bonuses earned while resolving go to its end). A "?" must be used if
  any entry is possible and is lost otherwise. Action bonuses (reroll, return, +1) and
  foxes are credited at once; actions are kept until used.
- R5 "?" entries: silver: any free (row, number); yellow: circle any uncircled number or
  cross any circled one; blue: any value 2-12 not above the previous box; green/pink:
  any die value 1-6 (green times the box multiplier). The black "?" may go to any area.
- R6 Yellow bonuses trigger when a row or column is completely *circled* (a crossed
  number counts as circled; crossing triggers nothing new).
- R7 Reroll: active player only, right after a roll, rerolls all dice just rolled.
  Return: active player only, before any roll of the turn (also before a reroll): one
  platter die per return action joins the dice to be rolled; with an empty hand a return
  lets the turn go on. Neither is used in the solo passive step.
- R8 +1: at the end of every turn (active and, in solo, passive step), by every player,
  on any of the six dice at its current face, each die at most once per player and
  turn; any number of +1 actions as long as the player holds them.
- R9 Passive fallback: only if none of the platter dice can be entered (in any area);
  a player who could enter a platter die but passes gets nothing.
- R10 Solo passive step: ties at the third-lowest value are settled by die order
  (white, silver, yellow, blue, green, pink: the earlier die goes to the platter).
- R11 Foxes: each is worth the lowest of the five area scores (taken as it is, so a
  negative green area makes foxes negative).
- R12 Winner: highest total; tie: the highest single area score among the tied players;
  still tied: shared win.
- R13 Green pairs score first - second once both boxes are filled (may be negative); a
  pair with an empty second box scores 0.
- R14 Action tracks are unlimited: the facts list no cap and no track-end bonus. (Issue 16
  says the published sheet pays a bonus for a track's last space; which bonus could not be
  found in the project's sources, see ``docs/games/clever.md``, so none is paid yet.)
- R15 Round bonuses: R2 is the +1 and R3 the return (one public implementation swaps
  them; the facts follow two agreeing sources).
- R16 Solo rating: band names are not known; the bands are named by their ranges, 20
  points wide from "<140" to ">=320" (data: ``[solo] rating_minimums``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rules.clever.actions import PASS, REROLL, ROLL, Action
from rules.clever.sheet import AREA_OF_FREE, Sheet
from rules.clever.spec import CleverSpec, default_spec
from rules.common.errors import RulesError
from rules.common.schema import DataTable
from rules.contract import CHANCE, TERMINAL

ROLL_PHASE = "roll"
BEFORE_ROLL = "before_roll"
ACTIVE_PICK = "active_pick"
PASSIVE_PICK = "passive_pick"
PLUS_ONE = "plus_one"
PENDING = "pending"
OVER = "over"

LOG_FORMAT = "clever-log/1"


def die_usages(die: str, values: dict[str, int | None]) -> list[tuple[str, int]]:
    """The ``(area, value)`` pairs die ``die`` may be entered as when the dice show ``values``.

    White is wild (silver, yellow, green, pink at its face) and, like the blue die, enters
    blue as blue + white.
    """
    v = values[die]
    if v is None:
        return []
    if die == "white":
        blue = values["blue"]
        out = [("silver", v), ("yellow", v)]
        if blue is not None:
            out.append(("blue", v + blue))
        return out + [("green", v), ("pink", v)]
    if die == "blue":
        white = values["white"]
        return [] if white is None else [("blue", v + white)]
    return [(die, v)]


#: The fields an action of each kind must name (the others may be left out).
_NEEDS = {"choose": ("die", "area", "value"), "mark": ("area", "value"), "return": ("die",)}


class CleverGame:
    """A game configuration: number of players and the sheet.

    Args:
        players: 1-4.
        spec: the sheet (default: the shipped one).
    """

    def __init__(self, players: int = 1, spec: CleverSpec | None = None):
        self.spec = spec or default_spec()
        if not isinstance(players, int) or players not in self.spec.rounds:
            raise RulesError(
                f"Doppelt so clever is for {min(self.spec.rounds)}-{max(self.spec.rounds)} "
                f"players, not {players}"
            )
        self.num_players = players
        self.rounds = self.spec.rounds_for(players)

    def new_initial_state(self) -> CleverState:
        """A fresh game, advanced to its first decision or roll."""
        return CleverState(self)


class CleverState:
    """The state of one game. Create it with :meth:`CleverGame.new_initial_state`.

    Public attributes (read them, change them only through the methods):
        sheets: one :class:`Sheet` per player.
        round: current round (1-based).
        active: seat of the active player.
        solo_passive: in a solo game, whether the passive step of the round is running.
        phase: ``roll`` (chance), ``before_roll``, ``active_pick``, ``passive_pick``,
            ``plus_one``, ``pending`` or ``over``.
        values: current face of each die (``None`` before its first roll).
        hand, platter, fields: where the dice are (in die order; ``fields`` are the
            dice on the active player's die fields).
        picks: picks and forfeits made in this active turn.
        pending: free bonuses and platter marks to resolve, as ``("?", area)`` or
            ``("platter", die, value)``; they belong to ``pending_owner``.
        log: every roll and decision, in order.
    """

    def __init__(self, game: CleverGame):
        self.game = game
        self.spec = game.spec
        n = game.num_players
        self.sheets = [Sheet(self.spec) for _ in range(n)]
        self.round = 0
        self.active = 0
        self.solo_passive = False
        self.phase = ""
        self.decider = 0
        self.values: dict[str, int | None] = {d: None for d in self.spec.dice}
        self.hand: list[str] = []
        self.platter: list[str] = []
        self.fields: list[str] = []
        self.picks = 0
        self.pending: list[tuple] = []
        self.pending_owner = 0
        self.log: list[dict[str, Any]] = []
        self._passive_queue: list[int] = []
        self._plus_queue: list[int] = []
        self._plus_used: set[str] = set()
        self._bonus_queue: list[int] = []
        self._next = "round_start"
        self._legal: list[Action] | None = None
        self._advance()

    # -------------------------------------------------------------------- OpenSpiel API
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def current_player(self) -> int:
        """Seat whose decision it is, :data:`CHANCE` for a roll, :data:`TERMINAL` at the end."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase == ROLL_PHASE:
            return CHANCE
        return self.decider

    def is_chance_node(self) -> bool:
        return self.phase == ROLL_PHASE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def chance_dice(self) -> tuple[str, ...]:
        """The dice the pending roll rolls, in die order (empty if no roll is pending)."""
        if self.phase != ROLL_PHASE:
            return ()
        return tuple(self.spec.dice) if self.solo_passive else tuple(self.hand)

    def sample_chance(self, rng: np.random.Generator) -> tuple[int, ...]:
        """Values for :meth:`chance_dice` drawn from ``rng`` (each 1..6, uniform); not applied."""
        if self.phase != ROLL_PHASE:
            raise RulesError(f"no roll is pending (phase {self.phase})")
        return tuple(int(v) for v in rng.integers(1, 7, size=len(self.chance_dice())))

    def apply_chance(self, values: Sequence[int]) -> None:
        """Apply a roll's outcome supplied from outside: one value 1..6 per die of :meth:`chance_dice`.

        Raises:
            RulesError: no roll is pending or the values do not fit.
        """
        dice = self.chance_dice()
        if self.phase != ROLL_PHASE:
            raise RulesError(f"no roll is pending (phase {self.phase})")
        values = tuple(values)
        if len(values) != len(dice) or not all(
            isinstance(v, (int, np.integer)) and 1 <= v <= 6 for v in values
        ):
            raise RulesError(f"a roll of {', '.join(dice)} needs {len(dice)} values 1-6, got {list(values)}")
        values = tuple(int(v) for v in values)
        for die, value in zip(dice, values):
            self.values[die] = value
        self.log.append({"roll": list(values)})
        self._legal = None
        if self.solo_passive:
            order = sorted(self.spec.dice, key=lambda d: (self.values[d], self.spec.dice.index(d)))
            self.platter = self._ordered(order[:3])
            self.fields = self._ordered(order[3:])
            self.hand = []
            self._passive_queue = [0]
            self._next = "passive"
            self._advance()
        else:
            self.phase = ACTIVE_PICK
            self.decider = self.active

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The decisions open now (empty at chance nodes, at the end, or for another player)."""
        if player is not None and player != self.current_player():
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply_action(self, action: Action) -> None:
        """Apply a decision of :meth:`current_player`.

        Raises:
            RulesError: the action is not legal now (the reason says why); nothing changes.
        """
        if not isinstance(action, Action):
            raise RulesError(f"not an action: {action!r}")
        if self.phase in (ROLL_PHASE, OVER):
            raise RulesError(
                "no decision is open: "
                + ("the dice must be rolled" if self.phase == ROLL_PHASE else "the game is over")
            )
        if action not in self.legal_actions():
            raise RulesError(self._why_illegal(action))
        self.log.append({"player": self.decider, "action": action.to_dict()})
        self._legal = None
        getattr(self, f"_do_{self.phase}")(action)
        self._advance()

    def returns(self) -> list[float]:
        """Each player's total points (the game's payoff)."""
        return [float(s.total()) for s in self.sheets]

    def scores(self) -> list[int]:
        """Each player's total points so far."""
        return [s.total() for s in self.sheets]

    def winners(self) -> list[int]:
        """Seats of the winners: highest total; tie: highest single area; else shared."""
        totals = self.scores()
        best = max(totals)
        tied = [i for i, t in enumerate(totals) if t == best]
        if len(tied) == 1:
            return tied
        top_area = {i: max(self.sheets[i].area_scores().values()) for i in tied}
        high = max(top_area.values())
        return [i for i in tied if top_area[i] == high]

    def clone(self) -> CleverState:
        """An independent copy (shares the game and spec)."""
        other = CleverState.__new__(CleverState)
        other.__dict__.update(self.__dict__)
        other.sheets = [s.copy() for s in self.sheets]
        other.values = dict(self.values)
        for name in (
            "hand",
            "platter",
            "fields",
            "pending",
            "log",
            "_passive_queue",
            "_plus_queue",
            "_bonus_queue",
        ):
            setattr(other, name, list(getattr(self, name)))
        other._plus_used = set(self._plus_used)
        other._legal = None
        return other

    # --------------------------------------------------------------------- helpers
    def usages(self, die: str) -> list[tuple[str, int]]:
        """The ``(area, value)`` pairs die ``die`` may be entered as, from the current faces."""
        return die_usages(die, self.values)

    def choices_for(self, player: int, dice: Iterable[str]) -> list[Action]:
        """Every ``choose`` action of ``player`` with one of ``dice``."""
        sheet = self.sheets[player]
        out = []
        for die in dice:
            for area, value in self.usages(die):
                for slot in sheet.slots(area, value):
                    out.append(Action("choose", die, area, value, slot))
        return out

    def pending_actions(self, item: tuple, player: int) -> list[Action]:
        """The entries that resolve pending ``item`` for ``player`` (platter marks add ``pass``)."""
        sheet = self.sheets[player]
        if item[0] == "?":
            areas = self.spec.areas if item[1] == "any" else (item[1],)
            return [
                Action("mark", None, area, value, slot)
                for area in areas
                for value, slot in sheet.free_entries(area)
            ]
        _, die, value = item
        rows: Sequence[int] = range(4)
        if die in self.spec.silver_rows:
            rows = (self.spec.silver_rows.index(die),)
        marks = [Action("mark", die, "silver", value, r) for r in rows if r in sheet.slots("silver", value)]
        return marks + [PASS] if marks else []

    def passive_fallback(self) -> bool:
        """In ``passive_pick``: whether the decider picks from the die fields (no platter die fits)."""
        return self.phase == PASSIVE_PICK and not self.choices_for(self.decider, self.platter)

    def plus_one_dice(self) -> list[str]:
        """In ``plus_one``: the dice the decider has not yet used by +1 this turn."""
        return [d for d in self.spec.dice if d not in self._plus_used]

    def _ordered(self, dice: Iterable[str]) -> list[str]:
        chosen = set(dice)
        return [d for d in self.spec.dice if d in chosen]

    # ---------------------------------------------------------------- legal actions
    def _compute_legal(self) -> list[Action]:
        phase, p = self.phase, self.decider
        if phase == ACTIVE_PICK:
            acts = self.choices_for(p, self.hand)
            if self.sheets[p].rerolls > 0:
                acts.append(REROLL)
            return acts + [PASS]
        if phase == BEFORE_ROLL:
            acts = [Action("return", d) for d in self.platter]
            return acts + ([ROLL] if self.hand else [PASS])
        if phase == PASSIVE_PICK:
            acts = self.choices_for(p, self.platter)
            if not acts:
                acts = self.choices_for(p, self.fields)
            return acts + [PASS]
        if phase == PLUS_ONE:
            return self.choices_for(p, self.plus_one_dice()) + [PASS]
        if phase == PENDING:
            return self.pending_actions(self.pending[0], p)
        return []

    def _why_illegal(self, action: Action) -> str:
        who = f"player {self.decider + 1}"
        phase = self.phase
        missing = [f for f in _NEEDS.get(action.kind, ()) if getattr(action, f) is None]
        if missing:  # a damaged save's action (ninth playtest: "the None die is not among …")
            return f"a {action.kind} action needs {' and '.join(repr(f) for f in missing)}"
        if action.kind == "choose":
            if phase not in (ACTIVE_PICK, PASSIVE_PICK, PLUS_ONE):
                return f"{who} cannot choose a die now (phase {phase})"
            if phase == ACTIVE_PICK:
                pool, where = self.hand, "among the dice just rolled"
            elif phase == PASSIVE_PICK:
                fallback = self.passive_fallback()
                pool = self.fields if fallback else self.platter
                where = "on the active player's die fields" if fallback else "on the silver platter"
            else:
                pool, where = self.plus_one_dice(), "left for a +1 this turn"
            if action.die not in pool:
                return f"the {action.die} die is not {where}"
            usable = self.usages(action.die)
            if (action.area, action.value) not in usable:
                opts = ", ".join(f"{a} {v}" for a, v in usable)
                return f"the {action.die} die counts as {opts}, not {action.area} {action.value}"
            sheet = self.sheets[self.decider]
            return f"{who}: " + sheet._why_not(*action.entry)
        if action.kind == "mark":
            if phase != PENDING:
                return f"nothing is pending to mark (phase {phase})"
            item = self.pending[0]
            if item[0] == "?":
                if item[1] != "any" and action.area != item[1]:
                    return f"the pending bonus is a free {item[1]} entry, not {action.area}"
                return f"{who}: " + self.sheets[self.decider]._why_not(
                    action.area or "", action.value or 0, action.slot
                )
            return f"the platter mark is the {item[1]} die's {item[2]} in silver " + (
                "in any free row" if item[1] not in self.spec.silver_rows else f"in the {item[1]} row"
            )
        if action.kind == "reroll":
            if phase != ACTIVE_PICK:
                return "a reroll is only possible right after the active player's roll"
            return f"{who} has no reroll action"
        if action.kind == "return":
            if phase != BEFORE_ROLL:
                return "a return is only possible before the active player's roll, with a return action"
            return f"the {action.die} die is not on the silver platter"
        if action.kind == "roll":
            return "nothing to roll" if phase == BEFORE_ROLL else f"no roll now (phase {phase})"
        if action.kind == "pass":
            if phase == PENDING:
                return "a free '?' bonus must be used while an entry is possible"
            return "there are dice left to roll: roll them (or return one first)"
        return f"{action} is not legal in phase {phase}"

    # ---------------------------------------------------------------- applying
    def _enter(self, player: int, area: str, value: int, slot: int | None) -> None:
        free = self.sheets[player].enter(area, value, slot)
        self.pending_owner = player
        self.pending.extend(("?", AREA_OF_FREE.get(b, "any")) for b in free)

    def _do_active_pick(self, action: Action) -> None:
        sheet = self.sheets[self.active]
        if action.kind == "reroll":
            sheet.rerolls -= 1
            self._next = "before_roll"
            return
        self.picks += 1
        self._next = "before_roll"
        if action.kind == "pass":
            return
        die = action.picked
        value = self._rolled(die)
        self.hand.remove(die)
        self.fields = self._ordered(self.fields + [die])
        sent = [d for d in self.hand if self._rolled(d) < value]
        self.hand = [d for d in self.hand if d not in sent]
        self.platter = self._ordered(self.platter + sent)
        self.pending_owner = self.active
        if action.area == "silver":
            self.pending.extend(("platter", d, self.values[d]) for d in sent)
        self._enter(self.active, *action.entry)

    def _rolled(self, die: str) -> int:
        """The face of ``die``; dice are picked and compared only after they were rolled."""
        value = self.values[die]
        assert value is not None, f"the {die} die was not rolled"
        return value

    def _do_before_roll(self, action: Action) -> None:
        if action.kind == "return":
            self.sheets[self.active].returns -= 1
            self.platter.remove(action.picked)
            self.hand = self._ordered(self.hand + [action.picked])
            self._next = "before_roll"
        elif action.kind == "roll":
            self._next = "roll"
        else:
            self._next = "active_end"

    def _do_passive_pick(self, action: Action) -> None:
        if action.kind == "choose":
            self._enter(self.decider, *action.entry)
        self._next = "passive"

    def _do_plus_one(self, action: Action) -> None:
        if action.kind == "choose":
            self.sheets[self.decider].plus_ones -= 1
            self._plus_used.add(action.picked)
            self._enter(self.decider, *action.entry)
        else:
            self._plus_queue.pop(0)
            self._plus_used = set()
        self._next = "plus_one"

    def _do_pending(self, action: Action) -> None:
        self.pending.pop(0)
        if action.kind == "mark":
            self._enter(self.decider, *action.entry)

    # ---------------------------------------------------------------- automatic steps
    def _advance(self) -> None:
        """Run automatic steps until a decision, a roll or the end."""
        self._legal = None
        while True:
            if self.pending:
                if self.pending_actions(self.pending[0], self.pending_owner):
                    self.phase, self.decider = PENDING, self.pending_owner
                    return
                self.pending.pop(0)  # a bonus that cannot be used is lost
                continue
            step = self._next
            if getattr(self, f"_step_{step}")():
                return

    def _step_round_start(self) -> bool:
        self.round += 1
        if self.round > self.game.rounds:
            self.phase = OVER
            return True
        self.active = 0
        self.solo_passive = False
        bonuses = self.spec.round_bonuses
        if self.round <= len(bonuses):
            for seat, sheet in enumerate(self.sheets):
                if sheet.grant(bonuses[self.round - 1]):
                    self._bonus_queue.append(seat)
        self._next = "round_bonus"
        return False

    def _step_round_bonus(self) -> bool:
        if self._bonus_queue:
            seat = self._bonus_queue.pop(0)
            self.pending_owner = seat
            self.pending.append(("?", AREA_OF_FREE.get(self.spec.round_bonuses[self.round - 1], "any")))
        else:
            self._next = "turn_start"
        return False

    def _step_turn_start(self) -> bool:
        self.hand = list(self.spec.dice)
        self.platter, self.fields = [], []
        self.picks = 0
        self.solo_passive = False
        self._next = "before_roll"
        return False

    def _step_before_roll(self) -> bool:
        sheet = self.sheets[self.active]
        if self.picks >= self.spec.picks_per_turn or (not self.hand and not (sheet.returns and self.platter)):
            self._next = "active_end"
            return False
        if sheet.returns and self.platter:
            self.phase, self.decider = BEFORE_ROLL, self.active
            return True
        self._next = "roll"
        return False

    def _step_roll(self) -> bool:
        self.phase = ROLL_PHASE
        return True

    def _step_active_end(self) -> bool:
        self.platter = self._ordered(self.platter + self.hand)
        self.hand = []
        n = self.num_players
        self._passive_queue = [(self.active + k) % n for k in range(1, n)]
        self._next = "passive"
        return False

    def _step_passive(self) -> bool:
        if self._passive_queue:
            self.phase, self.decider = PASSIVE_PICK, self._passive_queue.pop(0)
            return True
        n = self.num_players
        self._plus_queue = [(self.active + k) % n for k in range(n)]
        self._plus_used = set()
        self._next = "plus_one"
        return False

    def _step_plus_one(self) -> bool:
        while self._plus_queue:
            seat = self._plus_queue[0]
            if self.sheets[seat].plus_ones > 0 and self.choices_for(seat, self.plus_one_dice()):
                self.phase, self.decider = PLUS_ONE, seat
                return True
            self._plus_queue.pop(0)
            self._plus_used = set()
        self._next = "turn_end"
        return False

    def _step_turn_end(self) -> bool:
        if self.num_players == 1 and not self.solo_passive:
            self.solo_passive = True
            self.hand, self.platter, self.fields = [], [], []
            self.phase = ROLL_PHASE
            return True
        if self.num_players > 1 and self.active + 1 < self.num_players:
            self.active += 1
            self._next = "turn_start"
        else:
            self._next = "round_start"
        return False

    # ---------------------------------------------------------------- description
    def describe_pending(self) -> str:
        """Text of the pending item being resolved (empty if none)."""
        if not self.pending:
            return ""
        item = self.pending[0]
        if item[0] == "?":
            return "free entry in any area (black ?)" if item[1] == "any" else f"free {item[1]} entry (?)"
        row = "its own row" if item[1] in self.spec.silver_rows else "any row"
        return f"silver platter mark: {item[1]} die {item[2]} in {row}"

    def to_json(self) -> dict[str, Any]:
        """The game as plain data: players and the log (see :func:`replay`)."""
        return {"format": LOG_FORMAT, "players": self.num_players, "log": [dict(e) for e in self.log]}


def replay(
    data: Any, spec: CleverSpec | None = None, *, source: str = "<game>", where: str = ""
) -> CleverState:
    """Rebuild a game from :meth:`CleverState.to_json` data by applying every roll and decision.

    Args:
        data: the parsed JSON data.
        spec: the sheet (default: the shipped one).
        source, where: the file and the element holding ``data``, for the errors (``"game"``
            in a save file).

    Raises:
        SpecError: the data is malformed or a log entry is not legal where it stands; the
            element is named (``game.log[3].action.kind``, ``game.log[7]``).
    """
    top = DataTable(data, source, where)
    if top.raw("format", None) != LOG_FORMAT:
        raise top.error("format", f"not a Doppelt so clever log (expected {LOG_FORMAT!r})")
    top.check_keys({"format", "players", "log"})
    players = top.integer("players", minimum=1, maximum=99)
    try:
        state = CleverGame(players, spec).new_initial_state()
    except RulesError as exc:
        raise top.error("players", str(exc)) from None
    for entry in top.tables("log", required=True):
        try:
            if entry.has("roll"):
                entry.check_keys({"roll"})
                state.apply_chance(
                    entry.integers("roll", minimum=1, maximum=6, shortest=1, longest=6, what="dice values")
                )
            elif entry.has("action"):
                entry.check_keys({"player", "action"})
                player = entry.integer("player", minimum=0, maximum=players - 1)
                action = Action.from_table(entry.table("action"))
                if player != state.current_player():
                    raise entry.error("player", _not_to_decide(state, player))
                state.apply_action(action)
            else:
                raise entry.error(
                    None,
                    'an entry is a roll ("roll": the dice) or a decision ("player" and "action"), '
                    "and this one is neither",
                )
        except RulesError as exc:
            raise entry.error(None, str(exc)) from None
    return state


def _not_to_decide(state: CleverState, player: int) -> str:
    """Why a log's decision by ``player`` cannot stand where it is."""
    now = state.current_player()
    if state.is_terminal():
        return f"player {player} decides after the end of the game"
    if now < 0:
        return f"player {player} decides where the dice must be rolled"
    return f"player {player} decides where it is player {now}'s decision"
