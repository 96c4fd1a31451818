"""Doppelt oder nichts (Wobble Games, 2–8 players): a shedding card game, as pure logic.

Players lay cards matching the top card of the pile in colour or symbol; whoever is out
of cards first wins the round, the others score the cards left in their hands as minus
points (numbers: face value, action cards 20, brown cards 70), and the game ends when
someone has 500 (configurable). Action cards: neutral (direction change, colour change,
half hand, hand swap), offensive (skip, 20 minus, +3, +5, away from keyboard, magnet; each
can be passed on with a card of the same symbol), grey defensive (dodge, "you!", mirror,
"who is unlucky") and brown (not me, hijack, double).

Readings the project takes where the rulebook (seed 003) is silent or unclear (the same
list, with reasons, is in ``docs/games/oder_nichts.md``):

* **Deck** (not published; data in ``assets/games/oder_nichts.toml``): per colour one 0
  and two each of 1–9 (76); direction change 2 per colour, colour change one per colour
  pair, half hand and hand swap 1 per colour (22); skip and +3 2 per colour, +5 1 per
  colour, 20 minus, away from keyboard and magnet in two colours each (26); 2 of each
  grey card (8) and of each brown card (6): 138. No card exists more than twice.
* Neutral and offensive cards have a play colour; grey and brown cards have none. All
  action cards, grey ones included, count 20; brown cards 70.
* **Colour change** matches by colour only: one of its two colours must be the colour to
  follow, and the other one becomes it. As the start card either colour may follow.
* +3 and +5 are different symbols. Passing on works with the same symbol in any colour
  (also for skip, whose text says "identical"); two identical cards count double.
* **Speed** is modelled by windows. After a card is laid (and its effect is done),
  players who hold the exact same card are asked in play order — all but the one who laid
  it and the player who really takes the next turn (a player who sits out is asked:
  "Dazwischenwerfen darf er weiterhin"); on the start card the dealer is asked too, last,
  since that card came from the pile. The first to throw in wins and play goes on after
  them. During an attack, before every decision of the target, each player at the table
  other than the target and the owner may interject the same offensive card or throw a
  brown card. In a window, laying any other card is **playing out of turn**: the card goes
  back and the player draws a penalty card.
* Defending is optional ("you must lay when you can" is about the normal turn).
* After an attack is carried out, the (last) target takes their turn as normal (for skip
  and away from keyboard that turn is lost); after "not me" the original target.
* **Skip**: k skip cards make the target and the k−1 players after them sit out a turn,
  never the player who laid the last skip (with fewer other players than cards the count
  goes round them again: two skips in a two-player game make the target sit out twice);
  "double" makes each of them sit out two turns. Sitting out players may still interject.
* **First game** (``GameConfig(first_game=True)``): the rulebook's reduced card set
  (numbers, direction and colour change, skip, +3, +5, magnet, dodge, "you!", mirror).
* **Away from keyboard**: one lost turn per task (doubled: two). While away a player is
  passed over by play and attacks, cannot interject or throw brown cards, and cannot be
  chosen by "you!" or a hijack.
* **+3/+5**: draw N, or try the tasks of every card in the stack: all managed → draw
  nothing, a failure → draw 2N ("double or nothing"). "double" doubles N, not the tasks.
  Bots manage a task with its probability from the data file; people are asked.
* **Magnet**: name a number 1–9 not yet named this round and take every card with that
  number from all other hands; once all nine are named, a colour (may repeat; a colour
  change counts for both its colours). k magnets (or "double") → k names.
* **Dodge**: the dodger is absent until the attack is over; the next present player is
  the target (possibly the owner). Not allowed when nobody else is left.
  **You!**: any other player at the table. **Mirror**: reverses the direction of play
  for good and aims at the next present player in the new direction.
  **Who is unlucky**: every player at the table, the one who laid it included; a tie or
  a unanimous show repeats; the last two play rock-paper-scissors.
* **Brown**: one per offensive card, by anybody but its owner (the target included).
  Hijack: the hijacker becomes the owner and aims at any other player; earlier dodges
  no longer count. Double: doubles the whole stack so far. Not me: every other player,
  in play order from the original target, gets the full effect with no defence. A task
  "against the player who laid this card" is played against the owner; when the owner is
  hit, against the "not me" player (or the last player who redirected, else the next).
* **Half hand** is optional; half (rounded down) of the cards left after laying it go
  under the pile at random. **Hand swap** is compulsory, with any other player. Two
  identical neutral cards act twice (two direction changes cancel).
* **Zero**: optional seat swap with any player; seats stay swapped; the next round's
  dealer is the next seat clockwise (the last seat deals first).
* **Drawing**: a drawn card that fits must be laid at once (alone). An empty draw pile is
  refilled with the shuffled discard pile but its top card; with nothing to draw the
  player passes; when every player has passed in a row the round ends without winner.
* **Only grey cards**: at their own turn, once per turn, before playing or drawing.
* **Start card**: grey/brown cards turned up stay in the discard pile beneath it; its
  effect is the dealer's (an attack aims at the dealer's neighbour); direction starts
  clockwise each round.
* **Round end**: when after a complete play (for an attack: after it is carried out) a
  hand is empty; every empty hand wins the round. **Game end**: after the round in which
  someone has the target minus points (20-minus points count at once), or after a set
  number of rounds; the fewest minus points win, ties share.

Modules: :mod:`.cards` (deck data), :mod:`.matching` (laying rules), :mod:`.actions`
(actions, decisions, chance), :mod:`.table` (table state), :mod:`.table_ops`,
:mod:`.flow`, :mod:`.attacks`, :mod:`.unlucky` (the rules in motion), :mod:`.state`
(the contract of :mod:`rules.contract`, log and replay), :mod:`.deal` (a chosen deal as a shuffle
outcome).
"""

from rules.contract import CHANCE, TERMINAL
from rules.oder_nichts.actions import CHANCE_KIND, Action, ChanceRequest, Decision
from rules.oder_nichts.cards import COLOURS, Card, DeckSpec, Task, load_deck, parse_deck
from rules.oder_nichts.flow import RoundResult
from rules.oder_nichts.state import (
    GameConfig,
    PlayerView,
    State,
    new_game,
    replay,
    replay_log,
)

__all__ = [
    "CHANCE",
    "CHANCE_KIND",
    "COLOURS",
    "TERMINAL",
    "Action",
    "Card",
    "ChanceRequest",
    "Decision",
    "DeckSpec",
    "GameConfig",
    "PlayerView",
    "RoundResult",
    "State",
    "Task",
    "load_deck",
    "new_game",
    "parse_deck",
    "replay",
    "replay_log",
]
