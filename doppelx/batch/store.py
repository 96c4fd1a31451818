"""Chunk files of a run on disk: written atomically, found again on resume, merged to one table.

Layout of an output folder::

    run.json                the RunSpec (a resumed run must match it)
    chunks/<kind>-00012.parquet   one file per finished chunk
    <kind>.parquet          all rows in item order, the spec in the file's metadata
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from doppelx.batch.plan import RunSpec
from rules.errors import DoppelXError

METADATA_KEY = b"doppelx"


class RunStore:
    """The output folder of one run."""

    def __init__(self, out: Path | str, spec: RunSpec):
        self.out = Path(out)
        self.spec = spec
        self.name = spec.kind if spec.kind.isidentifier() else "items"
        self.chunk_dir = self.out / "chunks"

    def open(self, overwrite: bool = False) -> None:
        """Create the folder, or check that an existing one belongs to the same run."""
        spec_file = self.out / "run.json"
        if spec_file.exists() and not overwrite:
            old = RunSpec.from_json(spec_file.read_text())
            if old.fingerprint() != self.spec.fingerprint():
                raise DoppelXError(
                    f"{self.out}: holds a different run (run.json differs); "
                    "use another --out or pass --overwrite"
                )
        elif overwrite and self.chunk_dir.exists():
            for f in self.chunk_dir.glob("*.parquet"):
                f.unlink()
        self.chunk_dir.mkdir(parents=True, exist_ok=True)
        _atomic_write_text(spec_file, self.spec.to_json())

    def chunk_path(self, index: int) -> Path:
        return self.chunk_dir / f"{self.name}-{index:05d}.parquet"

    def done(self) -> set[int]:
        """Chunks already written (complete files only: writes are atomic)."""
        return {i for i in range(self.spec.n_chunks) if self.chunk_path(i).exists()}

    def write_chunk(self, index: int, rows: list[dict[str, Any]]) -> None:
        expected = len(self.spec.chunk(index))
        if len(rows) != expected:
            raise RuntimeError(f"chunk {index} returned {len(rows)} rows, expected {expected}")
        table = pa.Table.from_pylist(rows)
        tmp = self.chunk_path(index).with_suffix(".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, self.chunk_path(index))

    def merge(self) -> Path:
        """One Parquet file with every row in item order and the spec as metadata."""
        tables = [pq.read_table(self.chunk_path(i)) for i in range(self.spec.n_chunks)]
        table = pa.concat_tables(tables, promote_options="default")
        meta = dict(table.schema.metadata or {})
        meta[METADATA_KEY] = json.dumps(
            {"spec": json.loads(self.spec.to_json()), "fingerprint": self.spec.fingerprint()}
        ).encode()
        table = table.replace_schema_metadata(meta)
        path = self.out / f"{self.name}.parquet"
        tmp = path.with_suffix(".tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, path)
        return path


def read_run_metadata(path: Path | str) -> dict[str, Any]:
    """The run spec stored in a merged Parquet file."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[METADATA_KEY])


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
