"""Run a plan's chunks on a local process pool or a Ray cluster, writing each as it finishes.

Both backends run :func:`doppelx.batch.plan.execute_chunk` in fresh worker processes (each
builds its own physics world: a PyBullet client cannot cross processes). A worker that
dies has its chunk run again: the pool is rebuilt (a dead worker breaks a
``ProcessPoolExecutor``), Ray retries the task. Finished chunks are on disk, so an
interrupted run resumes from them, and nothing finished is run or counted twice.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from doppelx.batch.plan import RunSpec, execute_chunk
from doppelx.batch.store import RunStore
from rules.errors import DoppelXError

BACKENDS = ("pool", "ray")
#: How often a broken pool is rebuilt before the run gives up.
MAX_POOL_RESTARTS = 5
#: How often Ray retries a chunk whose worker died.
RAY_RETRIES = 3


def run_plan(
    spec: RunSpec,
    out: Path | str,
    *,
    workers: int = 1,
    backend: str = "pool",
    address: str | None = None,
    progress: bool = True,
    overwrite: bool = False,
) -> Path:
    """Run ``spec`` into the folder ``out`` (resuming what is there) and merge the result.

    Returns:
        The merged Parquet file.
    """
    if backend not in BACKENDS:
        raise DoppelXError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers < 1:
        raise DoppelXError(f"--workers must be at least 1, got {workers}")
    store = RunStore(out, spec)
    store.open(overwrite)
    done = store.done()
    pending = [i for i in range(spec.n_chunks) if i not in done]
    bar = _progress(spec, sum(len(spec.chunk(i)) for i in done), progress)

    def finished(index: int, rows: list) -> None:
        store.write_chunk(index, rows)
        bar.update(len(rows))

    try:
        if pending:
            runner = _run_pool if backend == "pool" else _run_ray
            runner(spec, pending, workers, finished, address=address)
    finally:
        bar.close()
    return store.merge()


def _progress(spec: RunSpec, initial: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(
        total=spec.count,
        initial=initial,
        unit=spec.kind if spec.kind.isidentifier() else "item",
        disable=not enabled,
        dynamic_ncols=True,
        smoothing=0.1,
        file=sys.stderr,
    )


def _run_pool(
    spec: RunSpec, pending: list[int], workers: int, finished: Callable, address: str | None = None
) -> None:
    ctx = multiprocessing.get_context("spawn")
    spec_json = spec.to_json()
    left = set(pending)
    restarts = 0
    while left:
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
                futures = {pool.submit(execute_chunk, spec_json, i) for i in sorted(left)}
                while futures:
                    ready, futures = wait(futures, return_when=FIRST_COMPLETED)
                    for f in ready:
                        index, rows = f.result()
                        finished(index, rows)
                        left.discard(index)
        except BrokenProcessPool:
            restarts += 1
            if restarts > MAX_POOL_RESTARTS:
                raise DoppelXError(
                    f"workers kept dying ({restarts} times); {len(left)} chunks not run. "
                    "Run the same command again to resume."
                ) from None
            print(f"doppelx: a worker died; re-running {len(left)} unfinished chunk(s)", file=sys.stderr)


def _run_ray(
    spec: RunSpec, pending: list[int], workers: int, finished: Callable, address: str | None = None
) -> None:
    from rules.optional import import_optional

    ray = import_optional("ray", "cluster", "the ray backend")
    started = not ray.is_initialized()
    if started:
        env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
        if address:
            ray.init(address=address, runtime_env=env, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, runtime_env=env)
    try:
        task = ray.remote(max_retries=RAY_RETRIES, num_cpus=1)(execute_chunk)
        spec_json = spec.to_json()
        refs = [task.remote(spec_json, i) for i in pending]
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            try:
                index, rows = ray.get(ready[0])
            except ray.exceptions.WorkerCrashedError as exc:
                raise DoppelXError(
                    f"a chunk's worker died {RAY_RETRIES + 1} times: {exc}; "
                    "run the same command again to resume"
                ) from None
            finished(index, rows)
    finally:
        if started:
            ray.shutdown()
