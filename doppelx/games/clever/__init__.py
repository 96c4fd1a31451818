"""Doppelt so clever at the terminal: command, match, view, bots, tournament."""
