"""Würfelblitz at the terminal: command, match, view, bots, tournament."""
