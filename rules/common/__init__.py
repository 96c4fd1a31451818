"""Shared infrastructure every game and layer uses; no game rule lives here.

Project errors (:mod:`~rules.common.errors`), seeded randomness (:mod:`~rules.common.rng`),
typed access to data tables (:mod:`~rules.common.schema`), locating and reading the shipped
assets (:mod:`~rules.common.assets`), atomic output writes (:mod:`~rules.common.atomic`) and
optional dependencies imported on demand (:mod:`~rules.common.optional`).
"""
