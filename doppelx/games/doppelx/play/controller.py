"""The interactive match behind the window: whose decision it is, throws played back, bets, files.

:class:`PlayController` drives a :class:`doppelx.games.doppelx.match.DoppelXMatch` for the window. The
window's fixed-step loop (:class:`render.driver.FixedStep`) calls :meth:`PlayController.step`
once per frame of game time (:data:`FRAME_DT`, the physics' sample interval, so a recorded
throw plays back in real time) and draws the :class:`render.snapshot.Snapshot` it returns;
the window's intents come to :meth:`PlayController.handle`.

A game moves through stages (:class:`Stage`):

- ``bet``: a person whose die is in hand may bet before the active player's throw (click a
  card → :class:`~render.intents.BetIntent`, N → pass; after :data:`BET_SECONDS` — right
  after a throw's result, plus what its reading still needs (:func:`bet_seconds`) — the bet
  passes by itself). Bots have bet by their policy already; people are asked one after
  another in seat order — those who chose "pass" in the form (``SeatSetup.bets``) are not
  asked: a click on a card before the throw (:data:`CLICK_WINDOW`) bets for them.
- ``throw``: a person throws by a flick (:class:`~render.intents.ThrowIntent`); in the setup
  throw every person flicks their own die, then all dice leave the hands together.
- ``wait``: a short pause before a bot throws, so everybody sees whose turn it is. A bot
  that thinks (skill ``expert``) decides its bet or throw here on a worker thread
  (:class:`doppelx.games.doppelx.play.thinking.Thinker`) while the table keeps drawing and the HUD says
  "… is thinking… 40 %"; its throw then plays back like any other. Its throw is thought
  out *during* the pause (released when both are over), unless a person may still click a
  bet card, which would change the plan: then it thinks after the pause.
- ``flight``: the throw has been simulated to rest at once and its recorded trajectory now
  plays back frame by frame — dice clatter on impacts, each die shows its chips as it comes
  to rest, a Doppel X is announced.
- ``result``: everything rests; the changes are shown for a moment, then the next decision.
- ``over``: the end screen with the winner.

``R`` replays the last throw in slow motion (:data:`REPLAY_RATE`; from its trajectory; after loading a game the throw is
simulated again, which ends exactly as before). Ctrl+S / Ctrl+O save and load the game
(:mod:`doppelx.games.doppelx.play.savegame`); a file that cannot be written or read is a message in
the window and the game goes on. Quitting a game in progress (Esc, closing the window)
autosaves it to :func:`autosave_path` first (``doppelx play --load`` that file resumes
exactly). Ctrl+N opens the new-game form. The chips of a throw reach the scoreboard only
once its dice rest; the throw's summary stays until the next throw (the decisive one stays
beside the final standings), and the last throws are kept for the throw log (L).

The controller talks to the window only through ``ui``, a :class:`doppelx.games.doppelx.play.ui.GameUi`,
so it runs without one (``None``) or with a stand-in in tests.
"""

from __future__ import annotations

import enum
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from doppelx.games.doppelx.play import view
from doppelx.games.doppelx.play.newgame import GameSetup, start_match, table_spec
from doppelx.games.doppelx.play.playback import Playback, ShownThrow
from doppelx.games.doppelx.play.savegame import load_game, save_game
from doppelx.games.doppelx.play.thinking import Thinker
from doppelx.games.doppelx.play.ui import GameUi
from doppelx.games.doppelx.policies import thinking
from physics.settings import SimSettings
from render.card_places import bet_die_poses
from render.intents import BetIntent, Command, CommandIntent, ThrowIntent
from render.snapshot import FloatingText, InputMode, Snapshot, TableSpec
from rules.common.errors import DoppelXError
from rules.common.rng import fresh_seed

if TYPE_CHECKING:
    from doppelx.games.doppelx.match import DoppelXMatch
    from physics.throw import Throw
    from rules.doppelx.outcome import Pose

#: Game time per step (s): one recorded trajectory frame.
FRAME_DT = SimSettings().sample_dt
#: Pause before a bot throws (s).
BOT_PAUSE = 0.7
#: After a load, how long the loaded table is shown before a bot throws (s; Enter goes on).
LOAD_HOLD = 3.0
#: How long a person asked to bet has before the bet passes by itself (s).
BET_SECONDS = 6.0
#: How long before a throw a person who passes unless they click a card may still click one (s):
#: the pause before a bot's throw is this long while such a person could bet.
CLICK_WINDOW = 2.0
#: The longest a countdown stands while the pointer rests on a card (s, per countdown): a
#: pointer left on a card must not stop the table for good (tenth playtest: 15 s and it
#: looked hung); after it the countdown runs on.
POINT_HOLD_MAX = 12.0
#: A countdown a person may answer (a bet question, the click before a bot's throw) has at least
#: this long (s) left when the help, the throw log or the menu closes: closing the log moves the
#: picture, and the eleventh playtest's click landed where a card had been and the question
#: passed by itself while they found the card again.
RESUME_GRACE = 3.0
#: How long the result of a throw stays before the next decision (s).
RESULT_HOLD = 1.6
#: A person's own throw's result stays at least this long (s) before a bot throws next.
OWN_RESULT_HOLD = 3.5
#: A Doppel X stays as it fell at least this long (s) before the next decision — the bots'
#: bets too, which take the X dice (back in hand, D18) onto the cards (seventeenth playtest:
#: the X dice jumped onto card A and their "X!" went at once). Enter goes on sooner.
DOPPEL_X_HOLD = 3.5
#: Words of a throw's summary read per second (~180 a minute: dense lines of names and
#: numbers): before a bot's throw the result stays long enough to read (:func:`reading_hold`).
READ_WORDS_PER_S = 3.0
#: The longest a result holds the game for reading before a bot's throw (s).
READ_HOLD_MAX = 8.0
#: Speed of the replay (R) as a share of real time: a slow motion, to see what happened.
REPLAY_RATE = 1 / 3
#: How long a replay's last frame stays before the game goes on where it was (s).
REPLAY_HOLD = 1.0
#: Throws kept for the throw log (L).
LOG_LENGTH = 12
#: After the game's throw of this number has come to rest, the window hints at the referee view
#: (once a window session; see :meth:`PlayController._hint_referee`).
HINT_AFTER = 2


def reading_hold(lines: Sequence[str], read: Sequence[str] = ()) -> float:
    """How long a throw's summary ``lines`` stay before a bot throws next (s): the time to read
    their words (:data:`READ_WORDS_PER_S`, "·" and "=" not counted) less the pause before the
    bot's throw (:data:`BOT_PAUSE`, the summary still shows then), at least :data:`RESULT_HOLD`,
    at most :data:`READ_HOLD_MAX`.

    ``read``: the summary shown before it, already read. Its items (the pieces between " · ",
    e.g. ``blue 1 on 1x = 1`` of a die still lying where it lay) are not read again: with
    several dice lying, most of a summary repeats the last one's, and every bot's result held
    the full 8 s (an 8-bot game: 7.9 s on average; the fifth playtest's "a minute between my
    throws")."""
    return min(READ_HOLD_MAX, max(RESULT_HOLD, reading_time(lines, read) - BOT_PAUSE))


def reading_time(lines: Sequence[str], read: Sequence[str] = ()) -> float:
    """The time (s) to read what is new in a throw's summary ``lines`` after ``read`` (the
    summary before it): its new items' words at :data:`READ_WORDS_PER_S` ("·" and "=" not
    counted)."""
    seen = set(summary_items(read))
    words = sum(
        1
        for item in summary_items(lines)
        if item not in seen
        for word in item.split()
        if word not in ("·", "=")
    )
    return words / READ_WORDS_PER_S


def bet_seconds(lines: Sequence[str], read: Sequence[str] = ()) -> float:
    """How long a person asked to bet right after a throw's result has (s): :data:`BET_SECONDS`
    to decide plus the reading of that result the :data:`RESULT_HOLD` before the question left
    undone (up to :data:`READ_HOLD_MAX` in all). The question comes 1.6 s after the dice rest,
    while the result is still being read: with 6 s in all the seventh playtest missed two."""
    reading = min(READ_HOLD_MAX, reading_time(lines, read))
    return BET_SECONDS + max(0.0, reading - RESULT_HOLD)


def summary_items(lines: Sequence[str]) -> list[str]:
    """The items of a summary: its lines cut at " · ", a totals line's "= " left off."""
    return [part.strip().removeprefix("= ") for line in lines for part in line.split(" · ")]


def autosave_path() -> Path:
    """Where a game in progress is saved when the window closes: ``$XDG_STATE_HOME/doppelx/autosave.json``
    (``~/.local/state/doppelx/autosave.json`` without ``XDG_STATE_HOME``)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "doppelx" / "autosave.json"


def _home_short(path: Path) -> str:
    """``path`` with the home folder written ``~`` (as a person reads it in the menu)."""
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home not in ("", "/") and text.startswith(home + os.sep) else text


class Stage(enum.StrEnum):
    """Where the interactive match is (see the module docstring)."""

    IDLE = "idle"  # no game yet (the new-game form is open)
    WAIT = "wait"
    BET = "bet"
    THROW = "throw"
    FLIGHT = "flight"
    RESULT = "result"
    OVER = "over"


class PlayController:
    """The interactive match (see the module docstring).

    Args:
        ui: the window (or a stand-in with the same methods); ``None`` runs without one.
        save_path: where Ctrl+S saves and Ctrl+O loads.
        frame_dt: game time per :meth:`step` (s).
    """

    def __init__(
        self,
        ui: GameUi | None = None,
        *,
        save_path: str | Path = "doppelx-save.json",
        frame_dt: float = FRAME_DT,
    ):
        self.ui = ui
        self.save_path = Path(save_path)
        self.frame_dt = frame_dt
        self.setup: GameSetup | None = None
        self.match: DoppelXMatch | None = None
        self.table: TableSpec | None = None
        self.stage = Stage.IDLE
        self.time = 0.0
        self.throws_shown = 0  # throws played back to rest (not counting replays)
        self.quit_requested = False
        self.last: ShownThrow | None = None
        self.playback: Playback | None = None
        self.replaying = False
        self.bettor: str | None = None
        self.bet_time = BET_SECONDS  # the time the open bet question has (:func:`bet_seconds`)
        self.thrower: str | None = None
        self.passed: set[str] = set()
        #: Bets passed before the coming throw, by themselves (their countdown ran out) or by N:
        #: a status line that stays until the throw (``"Bo (red): no bet this time"``, ``"Bo (red): no bet"``).
        self.passes_said: list[str] = []
        self.hands: dict[str, Throw] = {}
        #: Where each person last stood to throw (wall, m along it), by colour: their next turn
        #: starts there, and a save keeps it (eleventh playtest: a loaded hot-seat game put
        #: everyone back at their seats, and each turn did too).
        self.stances: dict[str, tuple[str, float]] = {}
        self.numbers = 0  # throws made in this game (for numbering)
        self._until = 0.0
        self._held = 0.0  # how long the pointer has held the running countdown (POINT_HOLD_MAX)
        self._was_paused = False  # the last step stood still behind the form or an overlay
        self._then: Callable[[], None] | None = None
        self._resume: tuple | None = None
        self._idle_table: TableSpec | None = None
        self._snap: Snapshot | None = None
        self.history: list[str] = []  # the throw log, oldest first
        self.summary: tuple[str, ...] = ()  # the last throw's result, shown until the next throw
        self._read_summary: tuple[str, ...] = ()  # the one before it (read while it was shown)
        self.hinted = False  # the referee hint was shown in this window session
        #: Where the game was autosaved when the window closed (``None``: nothing to save).
        self.autosaved: Path | None = None
        #: Why the autosave failed when quitting (``None``: it did not fail).
        self.unsaved: str | None = None
        #: The last Ctrl+S: ``(path, throws made, setup hands)`` then (``None``: none in this game).
        self.hand_saved: tuple[Path, int, int] | None = None
        #: Where Ctrl+S had saved the game as it stood when the autosave failed on quitting.
        self.hand_kept: Path | None = None
        #: Where the last Ctrl+S of this game could not write (``None``: it has not failed).
        self.hand_failed: Path | None = None
        self.thinker = Thinker()
        self._bets_thought = False  # the thinking bots have bet on the coming throw
        self._looking = False  # a loaded table is shown before a bot throws (LOAD_HOLD)
        self._autosave_text = ""

    # --- games ----------------------------------------------------------------------------
    def new_game(self, setup: GameSetup) -> None:
        """Start a new game with ``setup``; "Starting…" shows meanwhile.

        A game in progress is autosaved first (:func:`autosave_path`), as Ctrl+O does, and the
        window names the file (ninth playtest: Ctrl+N then Enter threw a game away without a
        word). If it cannot be autosaved, nothing starts and the game goes on.
        """
        note = ""
        if self.in_progress:
            try:
                kept = self.save(autosave_path())
            except DoppelXError as exc:
                self._say(
                    f"Not started — the game in progress could not be autosaved first: {exc}. "
                    "The game goes on.",
                    8.0,
                )
                return
            note = f"New game; the game before is in {_home_short(kept)} (--load it to go on)"
        self._busy("Starting the game…")
        try:
            match = start_match(setup)
        finally:
            self._busy("")
        self._install(setup, match, None, 0)
        if note:
            self._say(note, 8.0)

    def load(self, path: str | Path | None = None) -> None:
        """Load a saved game (default: :attr:`save_path`).

        Raises:
            DoppelXError: the file is missing or malformed (the element is named).
        """
        path = Path(path or self.save_path)
        self._install_saved(path, self._read(path))

    def _read(self, path: Path):
        """The saved game at ``path`` (:class:`doppelx.games.doppelx.play.savegame.SavedGame`), "Loading…" meanwhile."""
        self._busy(f"Loading {path}…")
        try:
            return load_game(path)
        finally:
            self._busy("")

    def _install_saved(self, path: Path, saved, note: str = "") -> None:
        setup, match, last, numbers, log, hands = saved[:6]
        self._install(setup, match, last, numbers, log, hands, loaded=True, stances=saved.stances,
                      passes=saved.passes)  # fmt: skip
        n = len(setup.seats)
        self._say(
            f"Loaded {path.resolve()}: {n} players, throw {numbers} done, side {setup.board}{note}", 6.0
        )

    def save(self, path: str | Path | None = None) -> Path:
        """Save the game (default: :attr:`save_path`); returns the path.

        Raises:
            DoppelXError: no game yet, or the file cannot be written (it names the path and why).
        """
        if self.match is None or self.setup is None:
            raise DoppelXError("there is no game to save yet")
        history = self.history
        if self.stage is Stage.FLIGHT and not self.replaying and self.last is not None:
            # a throw still rolling is already scored and counted: its log line goes along
            history = (history + [self._log_line(self.last)])[-LOG_LENGTH:]
        return save_game(
            path or self.save_path, self.setup, self.match, self.last, self.numbers, history, self.hands,
            self._stances_now(), (self.passed, self.passes_said),
        )  # fmt: skip

    def _stances_now(self) -> dict[str, tuple[str, float]]:
        """:attr:`stances` with the person about to throw where they stand now (walked, not yet thrown)."""
        out = dict(self.stances)
        here = self.ui.stance() if self.ui is not None else None
        if self.stage is Stage.THROW and self.thrower is not None and here is not None:
            out[self.thrower] = here
        return out

    def _install(
        self,
        setup: GameSetup,
        match,
        last: ShownThrow | None,
        numbers: int,
        log: Sequence[str] = (),
        hands: Mapping[str, Throw] | None = None,
        *,
        loaded: bool = False,
        stances: Mapping[str, tuple[str, float]] | None = None,
        passes: tuple[Iterable[str], Sequence[str]] = ((), ()),
    ) -> None:
        self.close()
        self.setup, self.match, self.last, self.numbers = setup, match, last, numbers
        self._autosave_text = _home_short(autosave_path())  # named in the Esc menu (once a game, not a frame)
        self.table = table_spec(match, setup.spinner)
        self.playback, self.replaying, self._resume = None, False, None
        self.passed, self.hands, self.passes_said = set(passes[0]), dict(hands or {}), list(passes[1])
        self.stances = dict(stances or {})
        self.unsaved, self.hand_saved, self.hand_failed = None, None, None
        self.thinker.drop()
        self._bets_thought = False
        self.throws_shown = 0
        self.history, self.summary = list(log)[-LOG_LENGTH:], ()
        if last is not None:
            if not self.history:  # a save without its log: the last throw's line at least
                self.history.append(self._log_line(last))
            self.summary = view.result_lines(
                last.score, last.bets, match.game.names, last.kind, match.game.cards
            )
        if self.ui is not None:
            self.ui.hide_panel()
        if loaded and not self._person_next():  # a bot would throw 0.7 s after the load: first a look
            self.stage, self._looking = Stage.WAIT, True  # at the loaded table (fifth playtest); Enter
            self._after(LOAD_HOLD, self._next)  # goes on at once
            return
        self._next()
        if loaded and self.stage is Stage.BET:  # a person's question: its countdown after the same look
            self._until += LOAD_HOLD  # (twelfth playtest: it ran out while the table was prepared)

    def quit(self) -> bool:
        """The window wants to close: autosave a game in progress (see :func:`autosave_path`), then stop.

        Returns whether the window may close. If the autosave cannot be written, the first
        request is refused — the window stays open and says why, so that the game can be
        saved elsewhere (Ctrl+S; not offered when Ctrl+S failed at its file in this game, or
        that file is a folder: then the window says to start with another ``--save-file``) —
        and a second one leaves without saving (:attr:`unsaved` then names why;
        ``doppelx play`` says so and exits 1).
        """
        if not self.in_progress or self.autosaved:
            self.quit_requested = True  # nothing to save: no game, or it is over (a replay of its end too)
            self.unsaved = None
            return True
        try:
            self.autosaved = self.save(autosave_path())
        except DoppelXError as exc:
            hand = self.hand_saved
            if hand is not None and hand[1:] == (self.numbers, len(self.hands)):
                self.unsaved, self.hand_kept = None, hand[0]  # Ctrl+S saved the game as it stands
                self.quit_requested = True
                return True
            if self.unsaved is None:
                self.unsaved = str(exc)
                target = Path(os.path.abspath(self.save_path))
                if self.hand_failed == self.save_path or target.is_dir():  # Ctrl+S is no way out: not offered
                    advice = (
                        f"quit again to leave without saving; Ctrl+S cannot write {target} either "
                        "(start doppelx play with --save-file in a folder you can write)"
                    )
                else:
                    advice = f"Ctrl+S saves to {target}; quit again to leave without saving"
                # what to do first: a narrow window cuts the end of the line, the reason
                self._say(f"Could not autosave — {advice}. ({exc})", 15.0)
                if self.ui is not None:
                    self.ui.keep_open()
                return False
            self.unsaved = str(exc)
        self.quit_requested = True
        return True

    def close(self) -> None:
        """Release the physics world of the current game."""
        self.thinker.close()
        if self.match is not None:
            self.match.close()
            self.match = None

    @property
    def in_progress(self) -> bool:
        """A game is on, something of it played (a throw made, or a die in hand from the setup
        throw), and not over: quitting, loading another or starting a new one autosaves it
        first. A game started and not yet played is not: autosaving it wrote an empty game
        over the one a new game had just put there (tenth playtest: Ctrl+N, then Ctrl+O)."""
        return (
            self.match is not None
            and self.setup is not None
            and not self.match.finished
            and (self.numbers > 0 or bool(self.hands))
        )

    @property
    def game(self):
        return self.match.game if self.match is not None else None

    # --- the loop -------------------------------------------------------------------------
    def paused(self) -> bool:
        """The new-game form, the help, the throw log or the Esc menu is open: the game behind it
        stands still — no bot throws, no bet passes by itself, no result's hold runs out while
        the player reads (the third playtest read the help for 10 s and came back seven throws
        and seven passed bets later)."""
        return bool(self.ui is not None and (self.ui.dialog_open or self.ui.overlay_open))

    def _answerable(self) -> bool:
        """A countdown runs that a person may answer: a bet question, or the pause before a bot's
        throw while a person who bets by clicking may still click."""
        asked = self.stage is Stage.BET and self.bettor is not None
        return asked or (self.stage is Stage.WAIT and self._then is not None and bool(self._clickers()))

    def pointing_at_a_card(self) -> bool:
        """A person who may bet now rests the mouse pointer on a card in play: they are choosing,
        so the countdown stands still until the pointer leaves the cards — a bet question's, or
        the pause before a bot's throw while a person who bets by clicking may still click (the
        seventh to ninth playtests lost bets to both while reading a card; moved away, it runs
        on from where it stood, and N or a click answers at once)."""
        if self.ui is None or self.table is None:
            return False
        # a bet question, or a person who bets by clicking a card in the pause before a bot's
        # throw (ninth playtest: its 2 s went by while they aimed at a card)
        if not self._answerable() or self._held >= POINT_HOLD_MAX:
            return False
        card = self.ui.pointer_card
        return card is not None and card in {c.letter for c in self.table.cards}

    def _click_line(self, person: str, names) -> str:
        """The line for a person who bets by clicking a card, while a bot's throw waits: how long
        the click has, as a bet question says it (ninth playtest: it had no countdown)."""
        line = f"{view.who(person, names)}: click a bet card to bet on this throw"
        if self.pointing_at_a_card():
            return f"{line} · waits while you point at a card"
        if self._then is None:  # an expert thinking: its release has no countdown of its own
            return line
        return f"{line} · the throw comes in {max(0, math.ceil(self._until - self.time - 1e-9))} s"

    def step(self) -> Snapshot:
        """Advance the game by :attr:`frame_dt` and return what the window shows now."""
        paused = self.paused()
        if self._was_paused and not paused and self._answerable():
            self._until = max(self._until, self.time + RESUME_GRACE)
        self._was_paused = paused
        if self.match is not None and not paused:
            self.thinker.poll(self.match)
            self.time += self.frame_dt
            if self.pointing_at_a_card():
                self._until += self.frame_dt  # the bet's countdown stands while the person points
                self._held += self.frame_dt
            if self.stage is Stage.FLIGHT and self.playback is not None:
                self.playback.advance()
                if self.playback.done:
                    self._landed()
            elif self._then is not None and self.time >= self._until - 1e-9:
                then, self._then = self._then, None
                then()
        self._snap = self.snapshot()
        return self._snap

    def _after(self, seconds: float, then: Callable[[], None]) -> None:
        self._until = self.time + seconds
        self._held = 0.0  # a new countdown: the pointer may hold it again (POINT_HOLD_MAX)
        self._then = then

    @property
    def live(self) -> DoppelXMatch:
        """The match in play; only asked for while a game is on (a bug otherwise)."""
        if self.match is None:
            raise RuntimeError("no game in progress")
        return self.match

    @property
    def seats(self) -> GameSetup:
        """The setup of the game in play."""
        if self.setup is None:
            raise RuntimeError("no game in progress")
        return self.setup

    @property
    def table_spec(self) -> TableSpec:
        """What the window draws of the game in play."""
        if self.table is None:
            raise RuntimeError("no game in progress")
        return self.table

    # --- deciding what comes next ---------------------------------------------------------
    def _next(self) -> None:
        """Find the next decision: a person's bet, a person's throw, or a bot's throw."""
        m = self.live
        self.bettor = self.thrower = None
        self._then, self._looking = None, False
        if m.finished:
            self._over()
            return
        req = m.request()
        humans = set(self.seats.humans)
        if req.kind == "turn":
            slow = [
                c
                for c in m.game.eligible_bettors()
                if c not in humans and c not in m.game.bets and thinking(m.bots.get(c))
            ]
            if slow and not self._bets_thought:
                self.stage = Stage.WAIT
                who = " and ".join(m.game.names.get(c, c) for c in slow)
                self.thinker.start(
                    m.place_bot_bets,
                    self._bets_ready,
                    who,
                    m.bots[slow[0]].bet,
                    m,
                    many=len(slow) > 1,
                    bets=True,
                )
                return
            m.place_bot_bets()
            waiting = [c for c in self._open_bettors() if self.seats.seat(c).bets == "ask"]
            if waiting:
                # the first question after a result also has the time its reading still needs
                after_result = self.stage is Stage.RESULT and not self.replaying
                self.bet_time = bet_seconds(self.summary, self._read_summary) if after_result else BET_SECONDS
                self.stage, self.bettor = Stage.BET, waiting[0]
                self._after(self.bet_time, self._bet_passes)
                return
        if req.kind == "setup":
            left = [c for c in req.dice if c in humans and c not in self.hands]
            if left:
                self._person_throws(left[0])
                return
            self.stage = Stage.WAIT
            self._after(BOT_PAUSE if not humans else 0.2, self._throw_now)
            return
        if req.thrower in humans:
            self._person_throws(req.thrower)
            return
        self.stage = Stage.WAIT
        assert req.thrower is not None  # a turn or a decider has its thrower
        if not thinking(m.bots.get(req.thrower)):
            pause = max(BOT_PAUSE, CLICK_WINDOW) if self._open_bettors() else BOT_PAUSE
            self._after(pause, self._throw_now)
        elif self._open_bettors():  # a person may still bet, and the bets change the plan: think after
            self._after(max(BOT_PAUSE, CLICK_WINDOW), self._think_throw)
        else:  # nothing can change before the throw: think during the pause, release when both are over
            self._think_throw(release_at=self.time + BOT_PAUSE)

    def _open_bettors(self) -> list[str]:
        """People who may still bet on the coming throw: their die in hand, no bet yet, not passed."""
        m = self.live
        if m.request().kind != "turn":
            return []
        humans = set(self.seats.humans)
        return [
            c
            for c in m.game.eligible_bettors()
            if c in humans and c not in m.game.bets and c not in self.passed
        ]

    def _clickers(self) -> list[str]:
        """People who pass unless they click a card and may still bet on the coming throw."""
        if self.stage not in (Stage.WAIT, Stage.THROW) or self.match is None or self.match.finished:
            return []
        return [c for c in self._open_bettors() if self.seats.seat(c).bets == "pass"]

    def _bet_passes(self) -> None:
        """The time to bet ran out: the bettor passes, and the game goes on."""
        self._pass_bet("no bet this time")

    def _pass_bet(self, said: str) -> None:
        """The bettor passes (``said``: by itself, "no bet this time", or by N, "no bet"), with a
        trace that outlasts the message — in the throw log and on the activity line until the
        throw (sixth playtest: N left none) — and the game goes on."""
        if self.stage is Stage.BET and self.bettor is not None:
            who = view.who(self.bettor, self.live.game.names)
            self._say(f"{who}: {said}")
            self.history = (self.history + [f"{who}: no bet"])[-LOG_LENGTH:]
            self.passes_said.append(f"{who}: {said}")
            self.passed.add(self.bettor)
            self._next()

    def _bets_ready(self, _bets) -> None:
        self._bets_thought = True
        self._next()

    def _think_throw(self, release_at: float = 0.0) -> None:
        """A thinking bot plans its throw on the worker; it is thrown when the plan is done, but not
        before the table's clock reaches ``release_at`` (the pause before a bot's throw, which the
        thinking then fills instead of adding to it: issue 33)."""
        m = self.live
        req = m.request()
        thrower = req.thrower
        assert thrower is not None  # only a turn's or a decider's bot thinks about its throw
        who = m.game.names.get(thrower, thrower)

        def planned(throw) -> None:
            if self.time >= release_at - 1e-9:
                self._throw_now(throw)
            else:
                self._after(release_at - self.time, lambda: self._throw_now(throw))

        self.thinker.start(lambda: m.bot_throw(req), planned, who, m.bots[thrower].throw, m)

    def _person_throws(self, colour: str) -> None:
        self.stage, self.thrower = Stage.THROW, colour
        wall, along = self._stance_of(colour)
        if self.ui is not None:
            self.ui.stand(wall, along)

    def _throw_now(self, throw=None) -> None:
        """Run the requested throw (``throw``, the setup throw with people's hands, or the bot's)."""
        m = self.live
        req = m.request()
        if throw is None and req.kind == "setup":
            throw = m.setup_throw(self.hands)
        lying = dict(req.lying)
        rec = m.play_throw(throw)
        self.numbers += 1
        self.last = ShownThrow(
            self.numbers,
            req.kind,
            req.thrower,
            dict(rec.bets),
            rec.score,
            rec.throw,
            lying,
            rec.spinner_before,
            rec.result.trajectory,
        )
        self.passed, self.hands, self.passes_said = set(), {}, []
        #: The summary shown before this throw, read by now (:func:`reading_hold`).
        self._read_summary, self.summary = self.summary, ()
        self._bets_thought = False
        self._fly(self.last, replay=False)

    def _fly(self, shown: ShownThrow, replay: bool) -> None:
        assert shown.trajectory is not None  # recorded when thrown, simulated again for a replay
        self.playback = Playback(shown.trajectory, REPLAY_RATE if replay else 1.0)
        self.replaying = replay
        self.stage = Stage.FLIGHT
        self.bettor = self.thrower = None

    def _landed(self) -> None:
        self.stage = Stage.RESULT
        if self.replaying:
            self._after(REPLAY_HOLD, self._end_replay)
        else:
            self.throws_shown += 1
            names = self.live.game.names
            shown = self.last
            assert shown is not None  # a throw in flight is the last one
            self.summary = view.result_lines(shown.score, shown.bets, names, shown.kind, self.live.game.cards)
            self.history = (self.history + [self._log_line(shown)])[-LOG_LENGTH:]
            self._hint_referee(shown.number)
            if self._person_next():
                hold = RESULT_HOLD
            elif shown.thrower in self.seats.humans:  # a person's own result stays at least
                # OWN_RESULT_HOLD (fourteenth playtest: a bot's throw was on screen 4.4 s after the
                # person's release; read whole, an 8-player summary held 8 s: fifteenth)
                hold = max(OWN_RESULT_HOLD, reading_hold(self.summary, self._read_summary))
            else:
                hold = reading_hold(self.summary, self._read_summary)
            if shown.score.doppel_x:
                hold = max(hold, DOPPEL_X_HOLD)
            self._after(hold, self._next)

    def go_on(self) -> bool:
        """Enter on a throw's result: end its hold now, so the game goes on at once (a reader who
        has read it need not wait out :func:`reading_hold`; the summary stays on screen until the
        next throw anyway). Only the result's own hold: a replay, a bet asked or the pause before
        a bot's throw (where a person may still click a card) are left as they are. Returns
        whether the hold was ended."""
        if (self.stage is not Stage.RESULT and not self._looking) or self.replaying or self._then is None:
            return False
        self._until = min(self._until, self.time)
        return True

    def _person_next(self) -> bool:
        """The next decision may be a person's (their throw, or a bet they are asked for): the
        result then holds only :data:`RESULT_HOLD` — its summary stays on screen until the next
        throw anyway, and a person is never kept waiting to read a bot's result."""
        m = self.live
        if m.finished:
            return True  # the end screen comes at once
        req = m.request()
        humans = set(self.seats.humans)
        if req.kind == "setup":
            return bool(humans)
        if req.thrower in humans:
            return True
        return any(self.seats.seat(c).bets == "ask" for c in self._open_bettors())

    def _hint_referee(self, number: int) -> None:
        """Hint at the referee view after the game's :data:`HINT_AFTER`-th throw (``number``).

        Once a window session: a game loaded or started later does not bring it back, and a
        game loaded past that throw does not show it (it was hinted at when it was played).
        Not at all once the referee view has been opened (Tab): it is known already.
        """
        if self.hinted or number != HINT_AFTER:
            return
        self.hinted = True
        if self.ui is not None and not self.ui.referee_seen:
            self._say("Tab: see why — the referee view shows the field each die counts for", 8.0)

    def _log_line(self, shown: ShownThrow) -> str:
        names = self.live.game.names
        return f"{shown.number}. {view.thrown_by(shown.kind, shown.thrower, names)}: " + view.log_line(
            shown.score, shown.bets, names, shown.kind
        )

    def _end_replay(self) -> None:
        self.replaying = False
        assert self._resume is not None  # set when the replay started
        stage, bettor, thrower, remaining, then = self._resume
        self._resume = None
        self.stage, self.bettor, self.thrower = stage, bettor, thrower
        if then is not None:
            self._after(remaining, then)
        if stage is Stage.THROW and thrower is not None:
            self._person_throws(thrower)
        elif stage is Stage.OVER:
            self._over()

    def _over(self) -> None:
        self.stage = Stage.OVER
        game = self.live.game
        rows = [(name, self.table_spec.dice[c].colour, chips) for name, c, chips in view.ranking(game)]
        winner = game.names.get(game.winner, game.winner) if game.winner is not None else ""
        title = f"{winner} wins!"
        if game.decider_history:  # a tie at the mark, settled by a decider (D37)
            title = f"{winner} wins the decider!"
        note = view.end_note(game, self.last.score if self.last is not None else None)
        if self.ui is not None:
            self.ui.show_panel(
                title, rows, "Ctrl+N: new game  ·  R: replay the last throw  ·  Esc: menu", note=note
            )

    # --- intents --------------------------------------------------------------------------
    def handle(self, intent) -> None:
        """React to an intent of the window (illegal ones are explained, never raised)."""
        try:
            self._handle(intent)
        except DoppelXError as exc:
            self._say(str(exc))

    def _handle(self, intent) -> None:
        if isinstance(intent, CommandIntent):
            self._command(intent.command)
            return
        if self.match is None or self.paused():
            return
        if isinstance(intent, BetIntent):
            clickers = self._clickers()
            if (self.stage is not Stage.BET or self.bettor is None) and clickers:
                # a person who passes unless they click a card clicked one before the throw
                self.live.place_bet(clickers[0], intent.letter)
                self.passed.add(clickers[0])
                self._say(
                    f"{view.who(clickers[0], self.live.game.names)} bets on card {intent.letter.upper()}"
                )
                return
            if self.stage is not Stage.BET or self.bettor is None:
                self._say("no bets now")
                return
            self.live.place_bet(self.bettor, intent.letter)
            self.passed.add(self.bettor)
            self._next()
        elif isinstance(intent, ThrowIntent):
            if self.stage is not Stage.THROW or self.thrower is None:
                self._say("it is not your throw now")
                return
            req = self.live.request()
            self.stances[self.thrower] = (intent.wall, float(intent.along))
            owners = (self.thrower,) if req.kind == "setup" else req.dice
            throw = self._flick_throw(intent, owners)
            if req.kind == "setup":
                self.hands[self.thrower] = throw
                self._next()
            else:
                self._throw_now(throw)

    def _flick_throw(self, intent: ThrowIntent, owners):
        """A person's flick as a physics throw, aimed as the thrower chose in the form (assisted or
        direct, :func:`doppelx.games.doppelx.play.flick_throw.flick_release`)."""
        from doppelx.games.doppelx.play.flick_throw import flick_release

        assert self.thrower is not None  # a flick is taken only on a person's throw
        die = next(iter(self.live.game.dice.dice.values()))
        mode = self.seats.seat(self.thrower).aim
        release, velocity, spin = flick_release(self.live.service.box, intent, die.half, mode)
        return self.live.hand_throw(owners, release, velocity, spin)

    def _command(self, command: Command) -> None:
        if command is Command.QUIT:
            self.quit()
        elif command is Command.NEW_GAME:
            self.open_new_game()
        elif command is Command.PASS:
            self._pass_bet("no bet")
        elif command is Command.GO_ON:
            self.go_on()
        elif command is Command.REPLAY:
            self.replay()
        elif command is Command.SAVE:
            try:
                path = self.save()
            except DoppelXError as exc:
                self.hand_failed = self.save_path
                self._say(f"Not saved — {exc}. The game goes on.", 6.0)
                return
            self.hand_saved, self.hand_failed = (path.resolve(), self.numbers, len(self.hands)), None
            self._say(f"game saved to {path.resolve()}")
        elif command is Command.LOAD:
            self.load_keeping_current()

    def load_keeping_current(self) -> None:
        """Ctrl+O: load :attr:`save_path`, the game in progress autosaved first (so nothing is lost).

        The file is read first: if it cannot be loaded, nothing changes (the autosave is not
        touched). If the game in progress cannot be autosaved, nothing is loaded. Either way
        the window says why.
        """
        goes_on = " The game goes on." if self.match is not None else ""
        try:
            saved = self._read(self.save_path)
        except DoppelXError as exc:
            self._say(f"Not loaded — {exc}.{goes_on}", 8.0)
            return
        note = ""
        if self.in_progress:
            try:
                kept = self.save(autosave_path())
            except DoppelXError as exc:
                saved.match.close()
                self._say(
                    f"Not loaded — the game in progress could not be autosaved first: {exc}.{goes_on}", 8.0
                )
                return
            note = f"; the game before is in {kept} (--load it to go on)"
        self._install_saved(self.save_path, saved, note)

    def replay(self) -> None:
        """Play the last throw again, then go on where the game was."""
        if self.match is None or self.last is None:
            self._say("no throw to replay yet")
            return
        if self.thinker.busy:  # its decision would cut the replay short
            self._say("R: the replay waits until the bot has decided")
            return
        if self.stage is Stage.FLIGHT:
            return
        last = self.last
        if last.trajectory is None:
            result = self.live.rerun(last.throw, last.lying, last.spinner_before)
            last.trajectory = result.trajectory
        if not self.replaying:  # a replay of a replay goes back to where the first one started
            remaining = max(0.0, self._until - self.time)
            self._resume = (self.stage, self.bettor, self.thrower, remaining, self._then)
        self._then = None
        if self.ui is not None:
            self.ui.hide_panel()
        self._fly(last, replay=True)

    def open_new_game(self) -> None:
        """Open the new-game form (prefilled with the current settings)."""
        if self.ui is None:
            return
        setup = self.setup.copy() if self.setup is not None else GameSetup.standard()
        if self.match is not None:  # a new game, not the same one again ("new seed" in the form too)
            setup.seed = fresh_seed()
        self.ui.open_dialog(
            setup,
            self.new_game,
            (lambda: None) if self.match is not None else None,
            in_progress=self.in_progress,
        )

    # --- what the window shows ------------------------------------------------------------
    def _idle_snapshot(self) -> Snapshot:
        """The empty table behind the new-game form (before the first game)."""
        if self._idle_table is None:
            self._idle_table = TableSpec.standard(
                self.setup.board if self.setup and self.setup.board in ("I", "II", "III", "IV") else "I"
            )
        return Snapshot(self._idle_table, message="Choose the players and the table, then start the game")

    def _stance_of(self, colour: str) -> tuple[str, float]:
        """Where the person ``colour`` throws from: where they last stood, or their seat."""
        return self.stances.get(colour) or self.live.service.seat(self.live.game.seats, colour)

    def _hand_walls(self) -> tuple[str, ...]:
        """The walls the game's people throw from (:meth:`_stance_of`)."""
        return tuple(sorted({self._stance_of(c)[0] for c in self.seats.humans}))

    def _white_for(self, shown: ShownThrow) -> str:
        """The name of the player the white die of ``shown`` pays (its thrower, D15); ``""`` on a
        setup or decider throw, whose white die pays nobody."""
        if shown.kind in ("setup", "decider") or shown.thrower is None:
            return ""
        return self.live.game.names.get(shown.thrower, shown.thrower)

    def snapshot(self) -> Snapshot:
        """The table now (see :class:`render.snapshot.Snapshot`)."""
        if self.match is None:
            return self._idle_snapshot()
        game, table, names = self.live.game, self.table_spec, self.live.game.names
        colours = {o: d.colour for o, d in table.dice.dice.items()}
        stage = self.stage
        dice, bets = dict(game.on_board), dict(game.bets)
        floating: tuple[FloatingText, ...] = ()
        impacts: tuple[float, ...] = ()
        spinner, banner, message, turn = self.live.spinner_angle, "", "", ""
        active = game.active
        shown = self.last
        chips, activity = dict(game.chips), ""
        bettor = self.bettor if stage is Stage.BET else None
        countdown = 0.0
        clickers = self._clickers()
        if clickers:
            bettor = clickers[0]
        lying = None  # the income column: the dice lying now (before the throw while it rolls)
        if stage is Stage.FLIGHT and not self.replaying and shown is not None:
            # the chips of this throw reach the scoreboard when its dice rest
            for c, p in shown.score.players.items():
                if c in chips:
                    chips[c] = p.before
            lying = shown.lying
            activity = "Rolling…"
        if stage in (Stage.FLIGHT, Stage.RESULT) or (
            stage is Stage.OVER and shown is not None and self.playback is not None
        ):
            pb = self.playback
            assert pb is not None and shown is not None  # in flight or resting: the last throw plays
            dice = pb.poses()
            spinner = pb.spinner_angle()
            resting = pb.resting() if not pb.done else set(dice)
            all_rest = pb.done or resting >= set(dice)
            # the bets stand on their cards while the dice roll; once they rest the bets are
            # settled and the dice go back to their owners (D30): a lost bet's die left on its card
            # and "bet C" on the scoreboard read as a bet still standing (ninth playtest) — the
            # summary says what each bet paid
            bets = {} if all_rest else dict(shown.bets)
            # a die lying still from the start shows its chips once everything rests (the lying
            # second X of a Doppel X with the banner, in the slow replay too: third playtest)
            shown_poses = {
                o: p for o, p in dice.items() if o in resting and (pb.rest_frame[o] > 0 or all_rest)
            }
            floating = view.floating_for(
                shown.score.readings,
                shown.score.doppel_x,
                shown_poses,
                colours,
                shown.kind == "decider",
                white_for=self._white_for(shown),
                holes=table.board.holes,
            )
            if stage is Stage.FLIGHT:
                impacts = pb.impacts_now()
            else:
                floating += view.bet_texts(shown.score, bets, bet_die_poses(table, bets, dice), colours)
            if shown.score.doppel_x and all_rest and stage is not Stage.OVER:
                banner = "Doppel X!"
            active = shown.thrower
            label = view.thrown_by(shown.kind, shown.thrower, names)
            turn = f"{'Replay of throw' if self.replaying else 'Throw'} {shown.number}: {label}"
            if self.replaying:
                message = "Replay of the last throw in slow motion (R)"
                activity = "Replay, 1/3 speed" if stage is Stage.FLIGHT else "Replay"
        elif (
            stage in (Stage.BET, Stage.THROW, Stage.WAIT, Stage.OVER)
            and shown is not None
            and (self.playback is None or self.playback.done)
        ):  # the last throw's chips stay over its dice until the next throw starts (the last: to the end)
            if stage is not Stage.OVER and self.playback is not None:
                dice = self._as_they_rested(dice, bets)
            floating = view.floating_for(
                shown.score.readings,
                shown.score.doppel_x,
                dice,
                colours,
                shown.kind == "decider",
                white_for=self._white_for(shown),
                holes=table.board.holes,
            )
        if stage is Stage.OVER:
            assert game.winner is not None  # a game is over when it has its winner
            winner = names.get(game.winner, game.winner)
            banner, message = f"{winner} wins!", ""
            turn = view.game_over_line(self.numbers, game.log)
            # nobody throws any more and nothing pays: no ▶, no income (fifth playtest: the ▶ moved
            # to the winner and "+3/throw" stayed)
            active, lying = None, {}
        elif stage is Stage.BET:
            assert self.bettor is not None and game.active is not None  # a turn's bets: both named
            turn = f"{view.who(game.active, names)} throws next"
            left = max(0, math.ceil(self._until - self.time - 1e-9))
            wait = "waits while you point at a card" if self.pointing_at_a_card() else f"passes in {left} s"
            message = f"{view.who(self.bettor, names)}: click a bet card (or press its letter twice), N: no bet · {wait}"
            countdown = max(0.0, self._until - self.time)
            active = game.active  # ▶ the thrower; the bettor has a marker of its own (◆)
        elif stage is Stage.THROW:
            req = self.live.request()
            assert self.thrower is not None  # the stage of a person's throw names them
            who = view.who(self.thrower, names)
            if req.kind == "setup":
                turn, activity = f"Setup throw: {who} throws their die", self._setup_in_hand(names)
            else:
                turn = f"{who} throws" if req.kind == "turn" else f"Decider: {who} throws"
            message = "Drag towards the box and let go while moving, or hold Space (H: help)"
            active = self.thrower
        elif stage is Stage.WAIT:
            turn = self._waiting_turn(names)
            message = self._click_line(clickers[0], names) if clickers else ""
            activity = self.thinker.status() or "Getting ready to throw…"
        message = self._decider_message(self._go_on_hint(message))
        banner, activity = self._lasting(banner, activity)
        return Snapshot(
            table=table,
            dice=dice,
            spinner_angle=spinner,
            bets=bets,
            scoreboard=view.scoreboard(
                game, active=active, bettor=bettor, bets=bets, chips=chips, lying=lying
            ),
            turn=turn,
            message=message,
            banner=banner,
            floating=floating,
            input=InputMode.BET
            if stage is Stage.BET
            else InputMode.THROW
            if stage is Stage.THROW
            else InputMode.NONE,
            thrower=self.thrower if stage is Stage.THROW else (self.bettor if stage is Stage.BET else active),
            impacts=impacts,
            time=self.time,
            summary=self.summary,  # at the end too: the decisive throw beside the standings
            # whose throw the summary is (thirteenth playtest: a bot's result, shown seconds after the
            # person's own throw under the same "Last throw", was read as theirs)
            summary_title=f"Last throw: {view.thrown_by(shown.kind, shown.thrower, names)}"
            if self.summary and shown is not None
            else "",
            hand_walls=self._hand_walls(),
            log=tuple(self.history),
            activity=activity,
            target=game.target,
            bettable=tuple(c.letter for c in table.cards) if bettor is not None else (),
            countdown=countdown,
            saved_to=self._autosave_text if self.in_progress else "",
            power_mark=self._power_mark() if stage is Stage.THROW else 0.0,
            card_note=self._card_note(),
        )

    def _card_note(self) -> str:
        """Why a click on a bet card bets nothing now (:func:`~doppelx.games.doppelx.play.view.no_bet_note`)."""
        waiting = self.stage in (Stage.WAIT, Stage.BET, Stage.THROW) and not self.replaying
        game = self.live.game
        kind = self.live.request().kind if str(game.phase) != "finished" else "turn"
        return view.no_bet_note(game, self.seats.humans, kind, waiting, self.passed)

    def _setup_in_hand(self, names: Mapping[str, str]) -> str:
        """Whose setup dice, flicked already, wait in hand for the others' (``""``: none yet;
        seventh playtest: where had Ann's die gone while Bo threw?)."""
        if not self.hands:
            return ""
        return f"{view.and_list(view.who(c, names) for c in self.hands)}: thrown, in hand — all dice leave together"

    def _power_mark(self) -> float:
        """Where the thrower's power bar turns into hard throws: an assisted flick above
        :data:`~doppelx.games.doppelx.play.flick_throw.WALL_POWER` is thrown at the far wall;
        a direct one has no such step (0)."""
        from doppelx.games.doppelx.play.flick_throw import WALL_POWER

        if self.thrower is None or self.seats.seat(self.thrower).aim != "assisted":
            return 0.0
        return WALL_POWER

    def _as_they_rested(self, dice: dict[str, Pose], bets: Mapping[str, str]) -> dict[str, Pose]:
        """``dice`` (those lying) and the last throw's dice that went back to hand — into a hole,
        off the box, a Doppel X's X — where they came to rest, so that they and their labels stay
        until the next throw starts (fifth playtest: "in a hole: back to hand" and "X!" went after
        1.6 s, when the bet question came). Not a die bet on a card now (it lies there), nor the
        dice of a person's throw (in their hand)."""
        assert self.playback is not None  # the last throw's
        held = set(self.live.request().dice) if self.stage is Stage.THROW else set()
        rested = self.playback.poses()
        gone = {o: p for o, p in rested.items() if o not in dice and o not in bets and o not in held}
        return {**gone, **dice}

    def _waiting_turn(self, names: Mapping[str, str]) -> str:
        """The turn line while the table waits for a bot: who throws, or throws *next* while
        bots still think about their bets on that throw (nobody throws yet)."""
        req = self.live.request()
        if req.kind == "setup":
            return "Setup throw: everybody throws their own die"
        thrower = view.thrown_by(req.kind, req.thrower, names)
        return f"{thrower} throws next" if self.thinker.busy and self.thinker.bets else f"{thrower} throws"

    def _lasting(self, banner: str, activity: str) -> tuple[str, str]:
        """``banner`` and ``activity`` with what stays on screen from a throw at rest until the next
        throw starts: a Doppel X's banner while a bet is asked (the prompt would hide it; not on
        a person's own throw, where the summary's first line still says it), a Doppel X on the
        activity line at the top (``"Throw 7 was a Doppel X"``: the third playtest looked away
        and missed one) and the bets that passed by themselves (``"Bo (red): no bet this time"``)."""
        if self.stage not in (Stage.BET, Stage.THROW, Stage.WAIT):
            return banner, activity
        shown = self.last
        at_rest = self.playback is None or self.playback.done
        doppel_x = shown is not None and shown.score.doppel_x and not shown.score.rethrow
        lasting = list(self.passes_said)
        if doppel_x and at_rest:
            assert shown is not None
            lasting.insert(0, f"Throw {shown.number} was a Doppel X")
            if self.stage is Stage.BET:
                banner = banner or "Doppel X!"
        if lasting:
            activity = " · ".join([activity] * bool(activity) + lasting)
        return banner, activity

    def _go_on_hint(self, message: str) -> str:
        """``message``, or while a throw's result holds the game "Enter: go on" (:meth:`go_on`)."""
        if (self.stage is Stage.RESULT or self._looking) and not self.replaying and self._then is not None:
            return message or "Enter: go on"
        return message

    def _decider_message(self, message: str) -> str:
        """``message``, or while a decider is on (D37) the line that says why and how it stands
        (:func:`doppelx.games.doppelx.play.view.decider_note`): from the throw that tied the game
        at rest through every decider throw's wait; a person's decider throw keeps a short
        "how to throw" after it. A replay keeps its own message."""
        if self.replaying or self.stage not in (Stage.RESULT, Stage.WAIT, Stage.THROW):
            return message
        note = view.decider_note(self.live.game)
        if not note:
            return message
        return f"{note} · drag towards the box and let go" if self.stage is Stage.THROW else note

    # --- the window -----------------------------------------------------------------------
    def _say(self, text: str, seconds: float = 3.0) -> None:
        if self.ui is not None:
            self.ui.say(text, seconds)

    def _busy(self, text: str) -> None:
        if self.ui is not None:
            self.ui.busy(text)
