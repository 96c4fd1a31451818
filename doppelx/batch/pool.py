"""``doppelx pool``: finished runs of the same parameters and code but other seeds, as one sample.

Runs of other seeds draw their items from other random streams, so they are independent
samples of one simulation; a pool puts their rows into one run-like folder::

    run.json                 {"pool": [...the runs: path, seed, count, fingerprint...], "kind",
                             "count", "params", "code_sha256", "item"}
    <kind>.parquet           the wide rows of every run, by seed, with ``seed`` and ``run_item``
    <table>/seed=<s>/part-0.parquet   the tidy tables, hive-partitioned by the run's seed
    report.md, report.html   the run report (:mod:`doppelx.batch.report`) over all items

Items are numbered anew so that ``item`` stays unique in the pool: the runs in seed order,
each run's items after those of the runs before it (``item = offset + run_item``);
``run_item`` keeps the item's number in its run (the run of that ``seed`` makes it again).
The pool is built in a hidden sibling folder and renamed into place, so ``OUT`` is the old
folder or the complete new one; the same runs in any order give the same bytes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from doppelx.batch import tidy
from doppelx.batch.plan import RunSpec
from doppelx.batch.stats import counted
from doppelx.batch.store import RunStore, is_pool, merge_chunks, write_tidy
from rules.common.atomic import prepare_output_dir, write_text
from rules.common.errors import DoppelXError, SpecError

#: What a pool's ``run.json`` says about its item numbers.
ITEM_RULE = "runs in seed order; item = the items of the runs before it + run_item (the item in its run)"


@dataclass(frozen=True)
class Source:
    """One finished run of the pool: its folder, spec and chunk files (in item order)."""

    path: Path
    spec: RunSpec
    chunks: tuple[Path, ...]


def pool_runs(out: Path | str, runs: list[str], overwrite: bool = False, progress: bool = True) -> dict:
    """Pool the finished ``runs`` into ``out``; returns the JSON summary (paths under ``out``).

    Everything is checked before anything is written (:func:`check_out`, :func:`read_sources`):
    a refusal is one line (:class:`DoppelXError`) and leaves ``out`` as it was.
    """
    target = Path(out)
    if len(runs) < 2:
        raise DoppelXError(f"doppelx pool: give at least 2 runs to pool ({counted(len(runs), 'run')} given)")
    check_out(target, runs, overwrite)
    sources = read_sources(runs)
    parent = prepare_output_dir(target.parent if str(target.parent) else Path("."))
    _remove_stale_builds(parent, target.name)
    build = Path(tempfile.mkdtemp(prefix=f".{target.name}.pool-{os.getpid()}-", dir=parent))
    umask = os.umask(0)
    os.umask(umask)
    build.chmod(0o777 & ~umask)  # as a folder made by mkdir (mkdtemp's is private)
    try:
        summary = _build(build, sources, progress)
        _move_into_place(build, target)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    name = summary.pop("name")
    summary.update(
        {
            "table": str(target / f"{name}.parquet"),
            "tables": {t: str(target / t) for t in summary.pop("tables")},
            "report": str(target / "report.md"),
            "report_html": str(target / "report.html"),
            "run_file": str(target / "run.json"),
        }
    )
    return summary


def check_out(out: Path, runs: list[str], overwrite: bool) -> None:
    """``out`` must not be, hold or lie in one of the runs; an existing, non-empty ``out`` is
    refused, and with ``overwrite`` replaced only if it is an earlier pool (never a run or a
    folder of anyone's own files)."""
    here = out.resolve()
    for run in runs:
        folder = Path(run).resolve()
        if here == folder:
            raise DoppelXError(f"{out}: is one of the runs to pool ({run}); give the pool another folder")
        if folder.is_relative_to(here):
            raise DoppelXError(f"{out}: holds the run {run}; give the pool a folder beside the runs")
        if here.is_relative_to(folder):
            raise DoppelXError(f"{out}: lies inside the run {run}; give the pool a folder beside the runs")
    if out.exists() and not out.is_dir():
        raise DoppelXError(f"{out}: is a file, not a folder")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not overwrite:
        raise DoppelXError(
            f"{out}: exists and is not empty; use another folder or pass --overwrite (replaces an earlier pool)"
        )
    if not is_pool(out):
        raise DoppelXError(
            f"{out}: is not a pool folder (no pool run.json); --overwrite replaces only an earlier pool, "
            "never a run or other files: use another folder"
        )


def read_sources(runs: list[str]) -> list[Source]:
    """The runs, each a finished run folder, all of one kind, parameters and code, no seed
    twice; sorted by seed. Every refusal names the run and the difference."""
    sources: list[Source] = []
    seen: dict[Path, str] = {}
    for run in runs:
        resolved = Path(run).resolve()
        if resolved in seen:
            raise DoppelXError(
                f"{run}: is given twice (as {seen[resolved]}); the same items are no second sample"
            )
        seen[resolved] = run
        sources.append(_read_source(Path(run)))
    first = sources[0]
    for s in sources[1:]:
        _check_same(first, s)
    by_seed: dict[int, Source] = {}
    for s in sources:
        if s.spec.seed in by_seed:
            raise DoppelXError(
                f"{s.path}: has seed {s.spec.seed}, as {by_seed[s.spec.seed].path} has: the same items again, "
                "not an independent sample; pool runs of other seeds"
            )
        by_seed[s.spec.seed] = s
    return [by_seed[k] for k in sorted(by_seed)]


def _read_source(path: Path) -> Source:
    """One run folder, checked to be a finished run whose chunks are all its own."""
    if not path.exists():
        raise DoppelXError(f"{path}: no such folder")
    if not path.is_dir():
        raise DoppelXError(f"{path}: is a file, not a run folder")
    spec_file = path / "run.json"
    if not spec_file.is_file():
        if any(path.glob("variant-*/run.json")):
            raise DoppelXError(
                f"{path}: is a sweep folder (its variants differ on purpose, so they are no samples of one "
                "run); pool one variant of several sweeps instead: doppelx pool OUT A/variant-00 B/variant-00"
            )
        raise DoppelXError(f"{path}: not a run folder (no run.json); give folders of doppelx simulate runs")
    if is_pool(path):
        raise DoppelXError(f"{path}: is a pool, not a run; pool the runs its run.json lists")
    try:
        spec = RunSpec.read(spec_file)
    except SpecError as exc:
        raise DoppelXError(f"{path}: not a run folder ({exc})") from None
    store = RunStore(path, spec)
    chunks = tuple(store.chunk_path(i) for i in range(spec.n_chunks))
    on_disk = sum(p.is_file() for p in chunks)
    if on_disk < spec.n_chunks:
        raise DoppelXError(
            f"{path}: an unfinished run ({on_disk} of {spec.n_chunks} chunks on disk); "
            "the same doppelx simulate command resumes it"
        )
    for i, chunk in enumerate(chunks):
        try:
            store.check_chunk(i)
        except DoppelXError as exc:
            raise DoppelXError(
                f"{str(exc).split('; ')[0]}; remove it and give the run's doppelx simulate command again"
            ) from None
    if not any(n.startswith(tidy.PREFIX) for n in pq.read_schema(chunks[0]).names):
        raise DoppelXError(
            f"{path}: made before the tidy tables (its chunks have none); run it again to pool it"
        )
    if "code_sha256" not in spec.params:
        raise DoppelXError(
            f"{path}: made before runs pinned their code (code_sha256); run it again to pool it"
        )
    return Source(path, spec, chunks)


def _check_same(a: Source, b: Source) -> None:
    """Refuse ``b`` beside ``a`` if its kind, a parameter or its code differs (naming it)."""
    if a.spec.kind != b.spec.kind:
        raise DoppelXError(
            f"{b.path}: a {b.spec.kind} run, {a.path} a {a.spec.kind} run; pool runs of one kind"
        )
    pa_, pb = dict(a.spec.params), dict(b.spec.params)
    code_a, code_b = pa_.pop("code_sha256", None), pb.pop("code_sha256", None)
    keys = [k for k in sorted(pa_.keys() | pb.keys()) if pa_.get(k) != pb.get(k)]
    if keys:
        k = keys[0]
        more = f" (and {counted(len(keys) - 1, 'other parameter')})" if len(keys) > 1 else ""
        raise DoppelXError(
            f"{b.path}: its {k} is {_shown(pb.get(k))}, {a.path}'s {_shown(pa_.get(k))}{more}; "
            "runs of other parameters are no samples of one run"
        )
    if code_a != code_b:
        raise DoppelXError(
            f"{b.path}: made by another version of the simulator (code {str(code_b)[:12]}, "
            f"{a.path}'s {str(code_a)[:12]}); runs of other code are no samples of one run"
        )


def _shown(value) -> str:
    text = "not set" if value is None else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _build(folder: Path, sources: list[Source], progress: bool) -> dict:
    """Write the pool's tables, run file and report into ``folder``; the summary's parts."""
    from doppelx.batch.backends import progress_bar
    from doppelx.batch.report import games_report, throws_report

    kind = sources[0].spec.kind
    name = RunStore(folder, sources[0].spec).name
    offsets, total = [], 0
    for s in sources:
        offsets.append(total)
        total += s.spec.count
    runs = [
        {
            "path": str(s.path.resolve()),
            "seed": s.spec.seed,
            "count": s.spec.count,
            "first_item": off,
            "fingerprint": s.spec.fingerprint(),
            "chunk_size": s.spec.chunk_size,
        }
        for s, off in zip(sources, offsets)
    ]
    params = sources[0].spec.params
    identity = [{k: r[k] for k in ("seed", "count", "fingerprint")} for r in runs]
    fingerprint = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
    spec = {"kind": kind, "count": total, "params": params, "seeds": [s.spec.seed for s in sources]}
    meta = {
        "spec": spec,
        "fingerprint": fingerprint,
        "pool": [{k: r[k] for k in ("seed", "count", "first_item", "fingerprint")} for r in runs],
    }
    n_chunks = sum(len(s.chunks) for s in sources)
    bar = progress_bar(n_chunks, "chunk", progress, desc=f"pooling {counted(len(sources), 'run')}")
    try:
        chunks = [c for s in sources for c in s.chunks]
        pooled = [(s.spec.seed, off) for s, off in zip(sources, offsets) for _ in s.chunks]
        table = merge_chunks(folder / f"{name}.parquet", chunks, meta, pooled, done=lambda _: bar.update(1))
        bar.close()
        names = pq.read_schema(chunks[0]).names
        n_tables = sum(tidy.PREFIX + t in names for t in tidy.SCHEMAS)
        bar = progress_bar(n_chunks * n_tables, "chunk", progress, desc=f"{n_tables} tidy tables")
        written: set[str] = set()
        for s, off in zip(sources, offsets):
            got = write_tidy(
                folder,
                tidy.partition_path({"seed": s.spec.seed}),
                list(s.chunks),
                {"fingerprint": fingerprint, "seed": s.spec.seed},
                off,
                done=lambda _: bar.update(1),
            )
            written |= set(got)
    finally:
        bar.close()
    run_file = {
        "pool": runs,
        "kind": kind,
        "count": total,
        "params": params,
        "code_sha256": params.get("code_sha256"),
        "fingerprint": fingerprint,
        "item": ITEM_RULE,
    }
    write_text(folder / "run.json", json.dumps(run_file, indent=2, sort_keys=True) + "\n", what="run file")
    tables = {t: folder / t for t in tidy.SCHEMAS if t in written}
    (throws_report if kind == "throws" else games_report)(table, folder, tables)
    return {
        "kind": kind,
        "count": total,
        "seeds": [s.spec.seed for s in sources],
        "runs": runs,
        "fingerprint": fingerprint,
        "name": name,
        "tables": sorted(written),
    }


def _remove_stale_builds(parent: Path, name: str) -> None:
    """Remove the hidden build folders of pools into ``name`` whose process is gone (killed)."""
    for d in parent.glob(f".{name}.pool-*-*"):
        pid = d.name[len(name) + 7 :].split("-")[0]
        if d.is_dir() and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _move_into_place(build: Path, target: Path) -> None:
    """Rename the complete ``build`` folder to ``target``: over a missing or empty ``target`` by
    one rename; over an earlier pool by swapping the two atomically (Linux ``renameat2``), then
    removing the old one. Where the swap is not available, the old folder is renamed aside first."""
    try:
        os.rename(build, target)
        return
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise DoppelXError(f"cannot move the pool into {target}: {exc.strerror or exc}") from None
    if not _exchange(build, target):
        aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.pool-{os.getpid()}-old-", dir=build.parent))
        os.rename(target, aside / "old")
        os.rename(build, target)
        build = aside
    shutil.rmtree(build, ignore_errors=True)  # now the earlier pool


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (``renameat2(RENAME_EXCHANGE)``); ``False`` where unsupported."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return rc == 0
