"""What the interactive match asks of its window: :class:`GameUi`, a typed seam.

:class:`doppelx.games.doppelx.play.controller.PlayController` calls these methods on its ``ui`` (the
real :class:`doppelx.games.doppelx.play.window.PlayWindow`, or a stand-in in tests) instead of looking
methods up by name, so a renamed method is a type error, not a silent no-op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from doppelx.games.doppelx.play.newgame import GameSetup


class GameUi(Protocol):
    """The window as the controller sees it."""

    @property
    def dialog_open(self) -> bool:
        """The new-game form is shown (the game behind it stands still)."""
        ...

    @property
    def overlay_open(self) -> bool:
        """The help, the throw log or the Esc menu covers the table (the game behind it waits)."""
        ...

    @property
    def referee_seen(self) -> bool:
        """The referee view (Tab) has been opened in this window (its hint is not needed)."""
        ...

    @property
    def pointer_card(self) -> str | None:
        """The bet card the mouse pointer rests on (its letter), ``None`` off the cards."""
        ...

    def say(self, hint: str, seconds: float = 3.0) -> None:
        """Show a short message for ``seconds``."""
        ...

    def stand(self, wall: str, along: float) -> None:
        """Put the thrower at ``wall``, ``along`` m from its middle."""
        ...

    def stance(self) -> tuple[str, float] | None:
        """Where the thrower stands now (wall, m along it), as walked; ``None`` without a table."""
        ...

    def open_dialog(
        self,
        setup: GameSetup,
        on_start: Callable[[GameSetup], None],
        on_cancel: Callable[[], None] | None = None,
        *,
        in_progress: bool = False,
    ) -> object:
        """Show the new-game form prefilled with ``setup`` (``in_progress``: over a game in
        progress, which starting ends — the form says so)."""
        ...

    def show_panel(
        self, title: str, rows: Sequence[tuple[str, str, int]], footer: str, note: str = ""
    ) -> None:
        """Show the end screen's standings (``note``: why a close end came out so, under the title)."""
        ...

    def hide_panel(self) -> None: ...

    def keep_open(self) -> None:
        """Refuse the window's close asked for now (the game could not be saved)."""
        ...

    def busy(self, text: str) -> None:
        """Show ``text`` (e.g. "Starting…") at once, before a long step; ``""`` clears it."""
        ...


__all__ = ["GameUi"]
