"""Das Doppel Spiel: a 10-dice Kniffel variant for 2 players (seed: seeds/002_b3e56cf0cd44ac81.txt).

The engine is a state machine in the style of OpenSpiel's Python games
(:class:`~rules.doppelspiel.state.DoppelState`): whose decision it is, the legal actions,
applying an action, dice rolls as explicit chance nodes, the end and the match points.
The sheet layout and constants are data (``assets/games/doppelspiel.toml``).

Readings (the seed's sheet images are lost; where its text is unclear the project reads it
so — the same list is in docs/games/doppelspiel.md):

1. Turn. Up to three regular throws; the first throws all ten dice, the second and third
   any dice. After any throw the extras may be used in any order and as often as their
   tracks allow ("Alle Funktionen sind für einen Wurf einsetzbar"). The player stops by
   splitting the ten dice into two groups of five (any split) or by writing the 10er.
2. Entries. Each group fills one field in any of the four columns, or marks an
   "Aussetzen" box. The 10er ("Alle 10 Würfel") takes the sum of all ten dice and is
   both entries of the turn. Both groups may be set aside in one turn.
3. Aussetzen. Four boxes per sheet (one under each column; which one is marked does not
   matter). Setting a group aside is always allowed while a box is free, even if the group
   could be written. Only when all four are used may (and must) a field other than the 10er
   be struck instead. A struck field counts 0 and counts as filled (for Joker, Zwang, the end).
4. Upper part (1-1-6, 2-2-5, 3-3-4, 4-4-3, 5-5-2, 6-6-1): the group holds the pair and
   the single; the score is the sum of all five dice. Column bonus +20 when the six
   upper fields (not the 10er) sum to 120 or more.
5. Middle part (ones .. sixes): the sum of the dice of that face; at least one such die
   is needed (no zero entries — a group without one is set aside or strikes). Column
   bonus +35 when the six middle fields sum to 63 or more (with struck fields, "ggf. auch
   mit gestrichenen Feldern"). Bonuses count doubled scores.
6. Lower part: 3er Pasch (>= 3 equal, sum), 4er Pasch (>= 4 equal, sum), Full House
   (exactly three + two, 25), Kleine Straße (30) = five different values OR four in a row
   (a large straight also qualifies), Große Straße (40) = 1-5 or 2-6, 5 Gleiche (50),
   Chance (sum). Read as "five different" only ("5 unterschiedliche Würfel zwischen 1 und
   6"), the seed's example 2 ("Kleine Straße und 116 mit 18 (11664)", other five 3 4 5 6 6)
   would be impossible; the union satisfies the definition and every example. The old
   reading is ``spec.with_readings(small_straight="distinct")``.
7. Five of a kind may be written into any field except the 10er at that field's highest
   score (1-1-6: 20 ... 6-6-1: 25, ones..sixes: 5 x face, both Pasch fields and Chance: 30,
   Full House 25, Kleine Straße 30, Große Straße 40, 5 Gleiche 50).
8. DOPPLER: both groups are fives of a kind of different faces. One entry (player's choice,
   any field but the 10er, lower part included) scores twice its field's maximum, the
   other its field's maximum. DOPPELDOPPLER: ten equal dice (swaps may make them); both
   entries score twice their fields' maxima and an active Joker has no effect. Doubling
   is a right: an entry is doubled only if the player says so (``place ... x2``).
9. Joker: one per column, ready once the column's seven lower fields are filled (written
   or struck). It is activated before the first throw of a turn, at most two per turn, and
   is spent on activation. Each active Joker may double one entry written in an upper or
   middle field (not the 10er) of any column: twice the entry's score. No entry is doubled
   twice: with a DOPPLER the Joker doubles the other entry (seed example 5).
10. Tauschen: one track of the faces 1..6 per sheet for the whole game. Changing a die
   from face a to face b strikes a and b, so at most three swaps per game.
11. Wiederholen: one track of the faces 1..6 per sheet for the whole game. Striking face v
   re-throws every die showing v (at least one must); several faces may follow each other.
12. Freiwurf: when a turn is written, it earns one cross per disjoint five of a kind among
   the ten dice as they are then (after swaps), however the dice are written (seed example
   1): one for a five of a kind, two for a DOPPLER or DOPPELDOPPLER. The track has nine
   columns of three crosses, filled in order; each full column earns one free throw, the
   3rd, 6th and 9th two; crosses beyond 27 are lost. Free throws are banked and taken in
   later turns (any number in a row); one re-throws any dice and is not a regular throw.
13. Zwang: one per column, ready once the column's six upper fields and its 10er are
   filled. At the end of his own turn (after writing) a player may use one, at most one per
   turn, to mark two different open upper/middle fields, or one open 10er, on the opponent's
   sheet (any columns). The opponent's next turn must write exactly those fields, one group
   each — written when the group meets the field (or is a five of a kind), struck
   otherwise; no Aussetzen. A marked 10er takes the whole throw. No Zwang on a full sheet.
14. When the first group fills the last open field (besides the 10ers) the turn ends (no
   Aussetzen box is used for the second group). When no target is left for the second
   group (no open field besides the 10er and no free Aussetzen box), the turn writes one
   entry. A split needs a target for its first group; when only 10ers are open and every
   Aussetzen box is used, the turn writes a 10er.
15. End. A sheet is finished when all 4 x 20 fields are filled; a player with a finished
   sheet is skipped; the game ends when both are finished. Match points: each column to
   the higher column total (4, 3, 2, 1), 1 for "das höchste Einzelergebnis" (default: the
   best single column total, set against "Gesamtergebnis (Summe aller 4 Spalten)"; or
   ``spec.with_readings(highest_single="entry")``: the highest single entry), 2 to the
   higher grand total; a tie gives nobody those points. 13 in all.
   The player with more match points wins; equal match points are a draw.
"""

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
    parse_ref,
)
from rules.doppelspiel.scoring import MatchResult, match_points
from rules.doppelspiel.sheet import Cell, Sheet
from rules.doppelspiel.solver import WritePlan, best_writes
from rules.doppelspiel.spec import DoppelSpec, FieldSpec, default_spec, load_spec
from rules.doppelspiel.state import CHANCE, TERMINAL, DoppelState, replay, replay_log

__all__ = [
    "Action",
    "ActivateJoker",
    "CHANCE",
    "Cell",
    "Dice",
    "DoppelSpec",
    "DoppelState",
    "FieldRef",
    "FieldSpec",
    "FreeThrow",
    "MatchResult",
    "Pass",
    "Place",
    "Repeat",
    "Roll",
    "Sheet",
    "Split",
    "Swap",
    "TERMINAL",
    "WritePlan",
    "WriteTen",
    "Zwang",
    "best_writes",
    "default_spec",
    "replay_log",
    "load_spec",
    "match_points",
    "parse_action",
    "parse_ref",
    "replay",
]
