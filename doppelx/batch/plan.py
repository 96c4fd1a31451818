"""What a batch run is: a kind of item (a throw, a game), how many, the seed and parameters.

Item ``i`` of a run always uses child seed ``i`` of the run's seed, so its result does not
depend on the chunking, the number of workers or the backend. Chunks are fixed ranges of
item indices; a chunk is the unit of work, of storage and of retry.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

#: Built-in kinds of items and the function that runs one chunk of them.
KINDS: dict[str, str] = {
    "throws": "doppelx.batch.throw_items:run_chunk",
    "games": "doppelx.batch.game_items:run_chunk",
}


@dataclass(frozen=True)
class RunSpec:
    """A batch run.

    Attributes:
        kind: ``"throws"``, ``"games"`` or a ``"module:function"`` path.
        count: number of items.
        seed: the run's seed (item ``i`` uses child ``i``).
        chunk_size: items per chunk.
        params: JSON-ready parameters handed to every chunk (board, dice, policies, …).
    """

    kind: str
    count: int
    seed: int
    chunk_size: int
    params: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("count", "seed", "chunk_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
        if self.count < 1:
            raise ValueError(f"count must be at least 1, got {self.count}")
        if self.chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, got {self.chunk_size}")
        if self.seed < 0:
            raise ValueError(f"seed must be at least 0, got {self.seed}")
        if not isinstance(self.kind, str) or not isinstance(self.params, dict):
            raise ValueError("kind must be a string and params an object")

    @property
    def n_chunks(self) -> int:
        return -(-self.count // self.chunk_size)

    def chunk(self, index: int) -> range:
        """Item indices of chunk ``index``."""
        start = index * self.chunk_size
        return range(start, min(start + self.chunk_size, self.count))

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RunSpec:
        return cls(**json.loads(text))

    @classmethod
    def read(cls, path) -> RunSpec:
        """The spec in a run folder's ``run.json``; a damaged file is a :class:`SpecError` naming it."""
        from rules.common.assets import read_json
        from rules.common.errors import SpecError

        data = read_json(path)
        fields = {"kind", "count", "seed", "chunk_size", "params"}
        if not isinstance(data, dict) or set(data) != fields:
            raise SpecError(str(path), "", f"not a run file (expected the keys {', '.join(sorted(fields))})")
        try:
            return cls(**data)
        except ValueError as exc:
            raise SpecError(str(path), "", f"damaged run file: {exc}") from None

    def fingerprint(self) -> str:
        """Identity of the run's results (same fingerprint ⇒ same rows for the same items).

        The count is left out: item ``i`` is the same whatever the count, so a run grown by
        ``--extend`` keeps its fingerprint and its chunks (a short last chunk is run again).
        """
        data = asdict(self)
        data.pop("count")
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def default_chunk_size(kind: str, count: int) -> int:
    """Items per chunk when ``--chunk`` is not given: from the count alone (never the worker
    count), so an interrupted run resumes with any ``--workers``. About 8 chunks for small
    runs, at most 50 throws or 5 games per chunk."""
    cap = 50 if kind == "throws" else 5
    return max(1, min(cap, count // 8 or 1))


def chunk_function(kind: str) -> Callable[[RunSpec, int], list[dict[str, Any]]]:
    """The function ``(spec, chunk_index) -> rows`` for ``kind``."""
    path = KINDS.get(kind, kind)
    if ":" not in path:
        raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}")
    module, name = path.split(":", 1)
    return getattr(importlib.import_module(module), name)


def execute_chunk(spec_json: str, index: int) -> tuple[int, list[dict[str, Any]]]:
    """Run chunk ``index`` of the serialised spec (the entry point in every worker)."""
    from doppelx.batch.code_version import check_worker_code

    spec = RunSpec.from_json(spec_json)
    check_worker_code(spec.params)
    rows = chunk_function(spec.kind)(spec, index)
    return index, rows
