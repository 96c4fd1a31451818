"""A stand-in for the window that records what the play controller asks of it."""

from __future__ import annotations


class FakeUi:
    """Records what the controller asks of the window."""

    dialog_open = False
    referee_seen = False

    def __init__(self):
        self.said: list[str] = []
        self.stood: list[tuple[str, float]] = []
        self.panel = None
        self.busy_texts: list[str] = []
        self.dialogs: list = []

    def say(self, text, seconds=3.0):
        self.said.append(text)

    def busy(self, text):
        self.busy_texts.append(text)

    def open_dialog(self, setup, on_start, on_cancel=None):
        self.dialogs.append((setup, on_start, on_cancel))

    def stand(self, side, along):
        self.stood.append((side, along))

    def show_panel(self, title, rows, footer):
        self.panel = (title, rows, footer)

    def hide_panel(self):
        self.panel = None

    def keep_open(self):
        self.kept_open = getattr(self, "kept_open", 0) + 1
