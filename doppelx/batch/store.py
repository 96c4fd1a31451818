"""Chunk files of a run on disk: written atomically, found again on resume, merged to one table.

Layout of an output folder::

    run.json                the RunSpec (a resumed run must match it)
    chunks/<kind>-00012.parquet   one file per finished chunk, with the run's fingerprint
                            and its chunk number in the metadata (checked on resume)
    <kind>.parquet          all rows in item order, the spec in the file's metadata
    <table>/part-0.parquet  the tidy tables (dice/, bets/, throws/ or turns/, seats/, games/;
                            :mod:`doppelx.batch.tidy`); a sweep writes them into its own folder,
                            hive-partitioned by the variant's parameters
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from doppelx.batch import tidy
from doppelx.batch.plan import RunSpec
from rules.common.atomic import atomic_write, prepare_output_dir, write_text
from rules.common.errors import DoppelXError, SpecError

METADATA_KEY = b"doppelx"
#: Rows per row group of a merged file (and at most held in memory while merging).
MERGE_ROWS = 65536
#: The merged tables a run of any kind writes into its folder (the wide per-item table and the
#: tidy tables' files, :mod:`doppelx.batch.tidy`).
TABLES = (
    "throws.parquet",
    "games.parquet",
    "items.parquet",
    *(f"{name}/{tidy.PART}" for name in tidy.SCHEMAS),
)
#: The report files a run of each kind writes beside its table (``doppelx.batch.report``).
REPORT_FILES = {
    "throws": ("report.md", "report.html", "heatmap.png", "fields.png"),
    "games": ("report.md", "report.html", "games.png"),
}
#: A chunk file's name: ``<kind>-<5-digit chunk number>.parquet``.
CHUNK_NAME = re.compile(r"[A-Za-z_]\w*-\d{5,}\.parquet")


class RunStore:
    """The output folder of one run."""

    def __init__(
        self, out: Path | str, spec: RunSpec, outputs: tuple[str, ...] = (), stale: tuple[str, ...] = ()
    ):
        """``outputs``: the names of other files the caller writes into the folder (a report);
        ``stale``: files a run of another kind leaves there (its report), removed with that run."""
        self.out = Path(out)
        self.spec = spec
        self.name = spec.kind if spec.kind.isidentifier() else "items"
        self.chunk_dir = self.out / "chunks"
        self.outputs = (f"{self.name}.parquet", *outputs)
        self.stale = stale
        self.overwrite = False
        self.extend = False

    def open(self, overwrite: bool = False, extend: bool = False, extendable: bool = True) -> None:
        """Create the folder, or check that an existing one belongs to the same run.

        The same run always resumes from its finished chunks. A folder holding a different
        run is refused, or with ``overwrite`` emptied of that run's chunks, merged table
        and run file first. A damaged ``run.json`` is refused (``overwrite`` replaces it).
        A folder without ``run.json`` is no run folder: one holding chunks is refused
        (``overwrite`` removes them and its tables first), and so is one holding a file named
        like one of the run's ``outputs``, a user's own ``report.md`` say (``overwrite``: the
        run replaces such files as it writes them).
        """
        prepare_output_dir(self.out)
        self.overwrite = overwrite
        self.extend = extend
        spec_file = self.out / "run.json"
        if extend and not spec_file.exists():
            raise DoppelXError(f"{self.out}: --extend adds items to a run, but there is no run.json here")
        if spec_file.exists() and is_pool(self.out):
            raise DoppelXError(
                f"{self.out}: holds a pool of runs (doppelx pool), not a run; use another --out"
            )
        if spec_file.exists():
            old = None
            try:
                old = RunSpec.read(spec_file)
                same = old.fingerprint() == self.spec.fingerprint()
            except SpecError:
                if not overwrite:
                    raise
                same = False
            if same and old is not None and old.count != self.spec.count:
                check_extend(self.out, old, self.spec, extend, extendable)
            if not same and extend:
                why = _why(old, self.spec)
                raise DoppelXError(
                    f"{self.out}: --extend: the run there differs ({why}); only the count may grow"
                )
            if not same:
                if not overwrite:
                    why = _why(old, self.spec)
                    raise DoppelXError(
                        f"{self.out}: holds a different run ({why}); use another --out or pass --overwrite"
                    )
                self._clear()
        elif self.chunk_dir.exists() and any(self.chunk_dir.glob("*.parquet")):
            if not overwrite:
                raise DoppelXError(
                    f"{self.out}: has chunks but no run.json (not a complete run folder); "
                    "use another --out or pass --overwrite"
                )
            self._clear()
        elif not overwrite:
            refuse_outputs(self.out, self.outputs, "run.json", "a run folder")
        prepare_output_dir(self.chunk_dir)
        write_text(spec_file, self.spec.to_json(), what="run file")

    def _clear(self) -> None:
        """Remove the earlier run's files: its chunks, merged table and report — nothing else.

        Only names a run writes are touched (``chunks/<kind>-NNNNN.parquet``, the merged
        tables of :data:`TABLES`, the report files of any kind); a Parquet file of the
        user's own in the folder stays.
        """
        _remove_run_files(self.out, (*self.outputs, *self.stale))

    def chunk_path(self, index: int) -> Path:
        return self.chunk_dir / f"{self.name}-{index:05d}.parquet"

    def done(self) -> set[int]:
        """Chunks already written, each checked to belong to this run (:meth:`check_chunk`).

        A chunk file that fails the check stops the run, or with ``overwrite`` is removed
        (with a word on stderr) and its chunk is run again.
        """
        found = set()
        for i in range(self.spec.n_chunks):
            if self.chunk_path(i).exists():
                try:
                    self.check_chunk(i)
                except DoppelXError as exc:
                    if self.extend and "holds items other than" in str(exc):
                        _remove(self.chunk_path(i))  # the old last chunk, short of the new count
                        continue
                    if not self.overwrite:
                        raise
                    print(
                        f"doppelx: --overwrite: {str(exc).split('; ')[0]}; removed, run again",
                        file=sys.stderr,
                    )
                    _remove(self.chunk_path(i))
                    continue
                found.add(i)
        return found

    def check_chunk(self, index: int) -> None:
        """A chunk file on disk must be readable, carry this run's fingerprint and hold its items."""
        path = self.chunk_path(index)
        hint = "remove it (the chunk is run again) or pass --overwrite"
        try:
            schema = pq.read_schema(path)
            meta = json.loads((schema.metadata or {}).get(METADATA_KEY, b"{}"))
            items = pq.read_table(path, columns=["item"]).column("item").to_pylist()
        except (OSError, ValueError, KeyError, pa.ArrowException) as exc:
            raise DoppelXError(
                f"{path}: not a readable chunk ({str(exc).splitlines()[0][:120]}); {hint}"
            ) from None
        if meta.get("fingerprint") != self.spec.fingerprint():
            raise DoppelXError(f"{path}: belongs to another run (its fingerprint differs); {hint}")
        if meta.get("chunk") != index:
            raise DoppelXError(
                f"{path}: is chunk {meta.get('chunk')!r} of this run, not chunk {index} (renamed?); {hint}"
            )
        if items != list(self.spec.chunk(index)):
            raise DoppelXError(f"{path}: holds items other than chunk {index}'s; {hint}")

    def write_chunk(self, index: int, rows: list[dict[str, Any]]) -> None:
        expected = len(self.spec.chunk(index))
        if len(rows) != expected:
            raise RuntimeError(f"chunk {index} returned {len(rows)} rows, expected {expected}")
        nested = tidy.pop_nested(rows)
        table = pa.Table.from_pylist(rows)
        for name, column in nested.items():
            table = table.append_column(name, column)
        identity = {"fingerprint": self.spec.fingerprint(), "chunk": index}
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), METADATA_KEY: json.dumps(identity).encode()}
        )
        with atomic_write(self.chunk_path(index), what="chunk") as f:
            pq.write_table(table, f)

    def merge(self) -> Path:
        """One Parquet file with every row in item order and the spec as metadata
        (:func:`merge_chunks`)."""
        paths = [self.chunk_path(i) for i in range(self.spec.n_chunks)]
        meta = {"spec": json.loads(self.spec.to_json()), "fingerprint": self.spec.fingerprint()}
        return merge_chunks(self.out / f"{self.name}.parquet", paths, meta)

    def write_tables(self, root: Path | str | None = None, partition: str = "") -> dict[str, Path]:
        """Write the tidy tables of the chunks (:mod:`doppelx.batch.tidy`) to
        ``root/<table>/<partition>/part-0.parquet`` (``root``: the run's folder; a sweep passes
        its own folder and the variant's hive folders); :func:`write_tidy`."""
        base = Path(root) if root is not None else self.out
        paths = [self.chunk_path(i) for i in range(self.spec.n_chunks)]
        return write_tidy(base, partition, paths, {"fingerprint": self.spec.fingerprint()})


def merge_chunks(
    path: Path,
    paths: list[Path],
    meta: dict,
    pooled: list[tuple[int, int]] | None = None,
    done: Callable[[Path], None] | None = None,
) -> Path:
    """Write the wide rows of the chunk files ``paths`` (in that order) to one Parquet file
    ``path`` with ``meta`` as its metadata.

    The chunks are streamed through, :data:`MERGE_ROWS` rows per row group, so merging a
    million rows holds a few row groups in memory, not the table. ``pooled`` (``doppelx
    pool``): per chunk file its run's ``(seed, item offset)``; the rows then get the columns
    ``seed`` and ``run_item`` (the item in its run) and ``item`` becomes ``offset + run_item``.
    ``done`` is called with each chunk file once it is read (progress).
    """
    schema = pa.unify_schemas([pq.read_schema(p) for p in paths], promote_options="default")
    wide = [f.name for f in schema if not f.name.startswith(tidy.PREFIX)]
    fields = [schema.field(n) for n in wide]
    if pooled is not None:
        fields += [pa.field(n, pa.int64()) for n in POOL_COLUMNS]
    schema = pa.schema(fields, metadata=schema.metadata)
    schema = schema.with_metadata({**(schema.metadata or {}), METADATA_KEY: json.dumps(meta).encode()})
    with atomic_write(path, what="table") as f, pq.ParquetWriter(f, schema) as writer:
        pending: list[pa.Table] = []
        rows = 0
        for k, p in enumerate(paths):
            names = set(pq.read_schema(p).names)  # once a chunk, not once a column
            table = pq.read_table(p, columns=[n for n in wide if n in names])
            if pooled is not None:
                table = _relabel(table, *pooled[k])
            pending.append(table)
            rows += table.num_rows
            if done is not None:
                done(p)
            if rows >= MERGE_ROWS:
                writer.write_table(_concat(pending, schema))
                pending, rows = [], 0
        if pending:
            writer.write_table(_concat(pending, schema))
    return path


def write_tidy(
    base: Path,
    partition: str,
    paths: list[Path],
    meta: dict,
    offset: int | None = None,
    done: Callable[[Path], None] | None = None,
) -> dict[str, Path]:
    """Write the tidy tables held in the chunk files ``paths`` to
    ``base/<table>/<partition>/part-0.parquet``, streaming chunk by chunk, each file
    atomically, ``meta`` (and the table's name) in its metadata; returns ``{table: path}``. A
    table whose rows the chunks do not have is not written. ``offset`` (``doppelx pool``): the
    run's first item in the pool; ``item`` becomes ``offset + run_item`` and the rows get the
    column ``run_item`` (their ``seed`` is the partition's). ``done``: as in :func:`merge_chunks`."""
    names = pq.read_schema(paths[0]).names
    written = {}
    for table in tidy.SCHEMAS:
        column = tidy.PREFIX + table
        if column not in names:
            continue
        folder = base / table / partition if partition else base / table
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / tidy.PART
        schema = tidy.SCHEMAS[table]
        if offset is not None:
            schema = schema.append(pa.field("run_item", pa.int64()))
        schema = schema.with_metadata({METADATA_KEY: json.dumps({"table": table, **meta}).encode()})
        with atomic_write(path, what="table") as f, pq.ParquetWriter(f, schema) as writer:
            for p in paths:
                rows = tidy.flatten(pq.read_table(p, columns=[column]).column(0), table)
                if offset is not None:
                    rows = _relabel(rows, None, offset)
                writer.write_table(rows.cast(schema))
                if done is not None:
                    done(p)
        written[table] = path
    return written


#: The columns a pooled wide table adds (``doppelx pool``): the run's seed and the item in its run.
POOL_COLUMNS = ("seed", "run_item")


def _relabel(table: pa.Table, seed: int | None, offset: int) -> pa.Table:
    """A run's rows in a pool: ``run_item`` (the item in its run) added, ``item`` shifted by the
    run's ``offset``, and ``seed`` added when given (the tidy tables take it from the partition)."""
    items = table.column("item").cast(pa.int64())
    table = table.set_column(table.schema.get_field_index("item"), "item", pc.add(items, offset))
    if seed is not None:
        table = table.append_column("seed", pa.array([seed] * table.num_rows, pa.int64()))
    return table.append_column("run_item", items)


def is_pool(folder: Path) -> bool:
    """Whether ``folder`` holds a pool of runs (``doppelx pool``: its ``run.json`` lists them)."""
    try:
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("pool"), list)


def is_sweep(folder: Path) -> bool:
    """Whether ``folder`` holds a sweep (``doppelx sweep``): a run folder ``variant-NN/run.json`` in it."""
    return any(Path(folder).glob("variant-*/run.json"))


def sweep_of(folder: Path) -> Path | None:
    """The sweep folder ``folder`` is a variant of (``OUT/variant-NN`` of ``doppelx sweep``), or ``None``.

    A variant keeps its tidy tables in the sweep's folder, partitioned by the varied
    parameters (``OUT/dice/board=I/...``), and the sweep writes its ``comparison.md`` there:
    a folder named ``variant-NN`` beside either is a sweep's (a run of one's own that
    happens to be called ``variant-00`` has neither beside it).
    """
    folder = Path(folder)
    number = folder.name.removeprefix("variant-")
    if folder.name == number or not number.isdigit():
        return None
    parent = folder.parent
    if (parent / "comparison.md").is_file() or any(parent.glob("*/*=*")):
        return parent
    return None


def refuse_sweep_folder(out: Path | str) -> None:
    """``doppelx simulate``'s ``--out`` must not be a sweep or one of its variants: its tables
    would be written beside the sweep's and mixed into them (the analyst's audit, 2 Dec 2026:
    DuckDB then failed on the sweep's folder), and a variant grown by ``--extend`` leaves the
    sweep unable to resume. Refused even with ``--overwrite``, as a pool is."""
    out = Path(out)
    if is_sweep(out):
        raise DoppelXError(
            f"{out}: holds a sweep (doppelx sweep: variant-NN folders), not a run; use another --out"
        )
    sweep = sweep_of(out)
    if sweep is not None:
        raise DoppelXError(
            f"{out}: is a variant of the sweep in {sweep}, not a run of its own; run the sweep "
            "again to resume it, or use another --out"
        )


def refuse_outputs(folder: Path, names: tuple[str, ...], marker: str, what: str) -> None:
    """Refuse ``folder``, which lacks the ``marker`` file of ``what`` (``"run.json"``, ``"a run
    folder"``), if it holds anything named like one of the outputs ``names``: a user's own file
    that the run would overwrite."""
    taken = [n for n in names if (folder / n).exists() or (folder / n).is_symlink()]
    if taken:
        raise DoppelXError(
            f"{folder}: holds {', '.join(taken)} but no {marker} (not {what}, so "
            f"{'they' if len(taken) > 1 else 'it'} would be overwritten); "
            "use another --out or pass --overwrite"
        )


def _concat(tables: list[pa.Table], schema: pa.Schema) -> pa.Table:
    """The tables as one in ``schema`` (columns a chunk lacks, or holds only nulls of, are filled)."""
    out = []
    for t in tables:
        cols = []
        for f in schema:
            if f.name in t.column_names:
                cols.append(t.column(f.name).cast(f.type))
            else:
                cols.append(pa.nulls(t.num_rows, f.type))
        out.append(pa.Table.from_arrays(cols, schema=schema))
    return pa.concat_tables(out)


def read_run_metadata(path: Path | str) -> dict[str, Any]:
    """The run spec stored in a merged Parquet file."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[METADATA_KEY])


#: The pins of ``doppelx.batch.params.pin_files``: file contents and the code version.
PINS = ("board_sha256", "dice_sha256", "code_sha256")


def _unpinned(spec: RunSpec) -> str:
    """A run file's JSON without the pins (``doppelx.batch.params.pin_files``)."""
    data = json.loads(spec.to_json())
    for key in PINS:
        data.get("params", {}).pop(key, None)
    return json.dumps(data, sort_keys=True)


def _why(old: RunSpec | None, new: RunSpec) -> str:
    """Why the folder's run (``None``: a damaged run file) is not the command's."""
    if old is None:
        return "run.json differs"
    if _unpinned(old) == _unpinned(new):
        return _pin_change(old.params, new.params)
    return _what_differs(old, new)


def check_extend(out: Path, old: RunSpec, new: RunSpec, extend: bool, extendable: bool = True) -> None:
    """A run given again with another count: only ``--extend`` may grow it (never shrink);
    ``extendable``: the command has ``--extend`` (a sweep has not)."""
    if not extend:
        if not extendable:
            remedy = "use another --out or pass --overwrite"
        elif new.count > old.count:
            remedy = "pass --extend to add items to it, or use another --out"
        else:  # --extend never shrinks a run
            remedy = f"ask for {old.count} (or more, with --extend) to use it, or use another --out"
        raise DoppelXError(
            f"{out}: holds this run with {old.count} items, this command asks for {new.count}; {remedy}"
        )
    if new.count < old.count:
        raise DoppelXError(
            f"{out}: --extend adds items: the run there has {old.count}, more than {new.count}"
        )


def _what_differs(old: RunSpec, new: RunSpec) -> str:
    """``"its seed is 1, this command's 2; ..."``: the options in which the folder's run and the
    command's differ (the pins aside: :func:`_pin_change`)."""

    def fields(spec: RunSpec) -> dict:
        data = json.loads(_unpinned(spec))
        params = data.pop("params", {})
        return {**data, **params}

    a, b = fields(old), fields(new)
    keys = [k for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)]

    def shown(value) -> str:
        text = "not set" if value is None else json.dumps(value)
        return text if len(text) <= 40 else text[:37] + "..."

    parts = [f"its {k} is {shown(a.get(k))}, this command's {shown(b.get(k))}" for k in keys[:3]]
    more = f"; and {len(keys) - 3} more" if len(keys) > 3 else ""
    return "; ".join(parts) + more


def _pin_change(old: dict, new: dict) -> str:
    """Why a run with the same options as the folder's is another run: one of its pins differs."""
    if "code_sha256" not in old:
        return "made by an earlier version of the simulator, before runs pinned their code (code_sha256), so it cannot resume"
    if old["code_sha256"] != new.get("code_sha256"):
        return (
            f"made by another version of the simulator (code {str(old['code_sha256'])[:12]}, "
            f"this one {str(new.get('code_sha256'))[:12]}): its rows would not match this version's; "
            "finish it with the version that made it, or start it again with --overwrite or another --out"
        )
    if any(k in new and k not in old for k in ("board_sha256", "dice_sha256")):
        return "made before runs pinned the content of their board or dice file (board_sha256), so it cannot resume"
    return "its board or dice file has changed since the run began (board_sha256, dice_sha256)"


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError as exc:
        raise DoppelXError(f"cannot remove {path}: {exc.strerror or exc}") from None


def remove_run(folder: Path) -> None:
    """Remove a run folder's own files (run file, chunks, merged tables, report) and then the
    folders if they are empty; a file of anyone else's stays, and so does its folder."""
    reports = tuple(n for files in REPORT_FILES.values() for n in files)
    _remove_run_files(folder, (*reports, "run.json"))
    for d in (folder / "chunks", *(folder / name for name in tidy.SCHEMAS), folder):
        try:
            d.rmdir()
        except OSError:
            pass  # not empty (somebody's own file) or gone: left as it is


def _remove_run_files(folder: Path, names: tuple[str, ...]) -> None:
    """The files a run writes in ``folder``: its chunks (``chunks/<kind>-NNNNN.parquet``), the
    merged tables of :data:`TABLES` and the given ``names``; nothing else."""
    chunk_dir = folder / "chunks"
    chunks = (
        [f for f in chunk_dir.glob("*.parquet") if CHUNK_NAME.fullmatch(f.name)] if chunk_dir.is_dir() else []
    )
    named = [folder / n for n in dict.fromkeys((*TABLES, *names))]
    for f in [*chunks, *(f for f in named if f.is_file())]:
        _remove(f)
