"""Bots: computer players for the games, each a small documented policy object."""
