"""Bots that think, off the frame loop: one worker thread runs their decisions.

An expert bot's bet or throw takes up to a second of rollouts. :class:`Thinker` runs such
a decision on its own worker thread and the window's loop only asks :meth:`Thinker.poll`
each frame, so the table keeps drawing; :meth:`Thinker.status` is the HUD's
"thinking…" text with the share of the decision's rollouts done.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor


class Thinker:
    """One decision at a time on a worker thread (see the module docstring)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._job: tuple[Future, Callable[[object], None], str, object, object] | None = None
        #: The running (or last) decision is bots' bets on another player's throw.
        self.bets = False

    @property
    def busy(self) -> bool:
        return self._job is not None

    def start(
        self,
        work: Callable[[], object],
        then: Callable[[object], None],
        who: str,
        policy,
        owner,
        *,
        many: bool = False,
        bets: bool = False,
    ) -> None:
        """Run ``work()`` on the worker; :meth:`poll` calls ``then(result)`` once it is done.

        ``who`` names the thinker for the HUD (``many``: several players, "are thinking";
        ``bets``: the decision is a bet on another player's throw, "thinking about a bet");
        ``policy.progress`` (0…1) is its progress, set to 0 here so that the last decision's
        100 % does not show first; ``owner`` is what the decision belongs to (a result for
        another owner is dropped).
        """
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="doppelx-think")
        if hasattr(policy, "progress"):
            policy.progress = 0.0
        about = (" about their bets" if many else " about a bet") if bets else ""
        thinks = f"{who} {'are' if many else 'is'} thinking{about}…"
        self.bets = bets
        self._job = (self._pool.submit(work), then, thinks, policy, owner)

    def poll(self, owner) -> None:
        """Hand a finished decision of ``owner`` to its continuation (errors are raised here)."""
        if self._job is None or not self._job[0].done():
            return
        future, then, _, _, job_owner = self._job
        self._job = None
        result = future.result()
        if job_owner is owner:
            then(result)

    def drop(self) -> None:
        """Forget the running decision (a new game or a loaded one): its result is not used."""
        self._job = None

    def status(self) -> str:
        """``"<who> is thinking… 40 %"`` while a decision runs, else ``""``."""
        if self._job is None:
            return ""
        _, _, thinks, policy, _ = self._job
        share = float(getattr(policy, "progress", 0.0) or 0.0)
        return f"{thinks} {100 * share:.0f} %"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._job = None
