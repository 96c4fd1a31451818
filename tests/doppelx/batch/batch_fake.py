"""A cheap item kind for testing the batch machinery (seeded values, optional worker death)."""

from __future__ import annotations

import os
from pathlib import Path

from rules.common.rng import child_rng


def run_chunk(spec, index):
    marker = spec.params.get("die_marker")
    if marker and index == spec.params.get("die_in_chunk") and not Path(marker).exists():
        Path(marker).write_text("died once")
        os._exit(3)  # a worker dying hard, as on an out-of-memory kill
    return [
        {"item": i, "value": int(child_rng(spec.seed, i).integers(1_000_000_000)), "pid": os.getpid()}
        for i in spec.chunk(index)
    ]
