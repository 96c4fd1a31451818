"""Doppelt oder nichts at the terminal: command, match, view, bots, tournament."""
