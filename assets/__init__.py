"""Data only: playfield sides, box, bet cards, dice and field kinds (TOML files).

Read through :mod:`rules.common.assets`; nothing here is code.
"""
