"""Run a plan's chunks on a local process pool or a Ray cluster, writing each as it finishes.

Both backends run :func:`doppelx.batch.plan.execute_chunk` in fresh worker processes (each
builds its own physics world: a PyBullet client cannot cross processes). A worker that
dies has its chunk run again: the pool is rebuilt (a dead worker breaks a
``ProcessPoolExecutor``), Ray retries the task. Finished chunks are on disk, so an
interrupted run resumes from them, and nothing finished is run or counted twice.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from doppelx.batch.plan import RunSpec, execute_chunk
from doppelx.batch.store import RunStore
from rules.common.errors import DoppelXError
from rules.common.schema import plain_digits

BACKENDS = ("pool", "ray")
#: How often a broken pool is rebuilt before the run gives up.
MAX_POOL_RESTARTS = 5
log = logging.getLogger(__name__)

#: How often Ray retries a chunk whose worker died.
RAY_RETRIES = 3


def run_plan(
    spec: RunSpec,
    out: Path | str,
    *,
    workers: int | None = 1,
    backend: str = "pool",
    address: str | None = None,
    progress: bool = True,
    overwrite: bool = False,
    outputs: tuple[str, ...] = (),
    stale: tuple[str, ...] = (),
    extend: bool = False,
    extendable: bool = True,
    tables_root: Path | str | None = None,
    partition: str = "",
    meanwhile: Callable[[], object] | None = None,
) -> Path:
    """Run ``spec`` into the folder ``out`` (resuming what is there) and merge the result.

    ``outputs`` names the files the caller writes into ``out`` afterwards (a report): a
    folder that is no run folder but holds one of them is refused (:meth:`RunStore.open`).
    ``stale``: the report files of runs of other kinds, removed with such a run (``overwrite``).

    ``workers``: processes of the pool or CPUs of the local Ray cluster; on a running Ray
    cluster (``address``) the most chunks at once, ``None`` for as many as the cluster runs.

    ``extend``: the folder's run may have fewer items than ``spec`` (``--extend``): its chunks
    are kept and the rest run (``extendable``: the command has ``--extend``, so a run of
    another count is refused with that hint; a sweep has not). The tidy tables go to ``tables_root`` (default ``out``) under
    the hive folders ``partition`` (:meth:`RunStore.write_tables`).

    ``meanwhile``: called once, after the first chunk is stored, while the workers run the
    rest (``doppelx simulate`` imports its report's modules there, off the critical path:
    before, they were imported before the first worker was started); after the run if no
    chunk ran. It must not touch the run.

    Returns:
        The merged Parquet file.
    """
    if backend not in BACKENDS:
        raise DoppelXError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise DoppelXError(f"--workers must be at least 1, got {workers}")
    if workers is None and not (backend == "ray" and address):
        workers = 1
    store = RunStore(out, spec, outputs, stale)
    store.open(overwrite, extend, extendable)
    done = store.done()
    pending = [i for i in range(spec.n_chunks) if i not in done]
    if backend == "ray" and address:
        where = f"the Ray cluster at {address}, " + (
            f"at most {workers} at once" if workers else "as many at once as it has CPUs"
        )
    else:
        where = f"{workers} {backend} worker(s)"
    log.info(
        "%s: %d of %d chunks to run on %s (%d done before)",
        out,
        len(pending),
        spec.n_chunks,
        where,
        len(done),
    )
    bar = _progress(spec, sum(len(spec.chunk(i)) for i in done), progress)

    started = time.monotonic()
    left = len(pending)
    called = False

    def _call_once() -> None:
        nonlocal called
        if meanwhile is not None and not called:
            called = True
            with _signals_deferred():
                meanwhile()

    def finished(index: int, rows: list) -> None:
        nonlocal left
        store.write_chunk(index, rows)
        bar.update(len(rows))
        if left == len(pending):
            _restart_clock(bar)
        left -= 1
        _call_once()
        log.debug(
            "%s: chunk %d written (%d rows), %d to go, %.1f s since the start",
            out,
            index,
            len(rows),
            left,
            time.monotonic() - started,
        )

    restore = _term_as_interrupt()
    try:
        if pending:
            if backend == "pool":
                _run_pool(spec, pending, workers or 1, finished)
            else:
                _run_ray(spec, pending, workers, finished, address=address)
    except KeyboardInterrupt:
        bar.close()
        # said once, by the command line's handler (it printed a bare "interrupted" after this)
        raise KeyboardInterrupt(
            f"doppelx: interrupted; {spec.n_chunks - left} of {spec.n_chunks} chunks "
            f"are on disk in {out}: run the same command again to resume"
        ) from None
    finally:
        bar.close()
        restore()
    _call_once()
    merged = store.merge()
    store.write_tables(tables_root, partition)
    return merged


#: Seconds between progress lines when stderr is a file or a pipe, not a terminal.
PROGRESS_LINE_EVERY = 10.0


class _ProgressLines:
    """A progress bar's output as whole lines (for a log file or a pipe): tqdm redraws one
    terminal line with carriage returns, which in a file would become one endless line."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self._shown = ""  # the last line's count ("100%|###| 40/40 "), without its times and rate

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        count = line.split("[", 1)[0]
        # tqdm's close draws its last state once more with another rate: in a log the run ended
        # twice ("40/40 … 33.15throws/s", then "40/40 … 26.81throws/s": the analyst's audit)
        if line and count != self._shown:
            self._shown = count
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Let a Ctrl-C or SIGTERM that comes while the body runs stop the run only after it.

    ``meanwhile`` imports the report's modules (matplotlib) while a worker runs: an interrupt
    raised inside that import came out as matplotlib's "ImportError: initialization failed"
    and a traceback, with no resume hint (a test that stops a run after its first chunk met it
    under load, 2 Dec 2026). While the body runs the two signals are only noted; after it the
    handlers are put back and a noted signal is raised as the interrupt it would have been.
    Outside the main thread (where handlers cannot be set) the body just runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.signal(sig, lambda signum, frame: came.append(signum)) for sig in held}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    if came:
        raise KeyboardInterrupt


def _term_as_interrupt() -> Callable[[], None]:
    """Handle SIGTERM (``kill PID``) as Ctrl+C while a run goes on: the pool is shut down in
    order (no "leaked semaphore" warning from the resource tracker) and the resume hint is
    printed. Returns the function that puts the old handler back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, old)

    return restore


def _restart_clock(bar) -> None:
    """Measure the rate from the first finished chunk on.

    Until then the workers were starting (spawning, importing, building their worlds) and
    with N workers the first chunk to finish is one of N running at once: a rate taken over
    that stretch was about N times too low, so the ETA right after a start or a resume was
    about twice too high with 2 workers. The rate's running average is started afresh here, so
    from the next finished chunk on the rate (and the ETA) count only the chunks finished since
    this one, over the time since this one (the elapsed time shown stays the run's).
    """
    from tqdm.std import EMA

    if getattr(bar, "disable", True):
        return
    bar.last_print_t = bar._time()
    bar.last_print_n = bar.n
    bar._ema_dn, bar._ema_dt, bar._ema_miniters = EMA(bar.smoothing), EMA(bar.smoothing), EMA(bar.smoothing)


def _progress(spec: RunSpec, initial: int, enabled: bool):
    """The progress bar of a run (count, rate, ETA): :func:`progress_bar`."""
    return progress_bar(spec.count, spec.kind if spec.kind.isidentifier() else "item", enabled, initial)


def progress_bar(total: int, unit: str, enabled: bool, initial: int = 0, desc: str | None = None):
    """A progress bar (count, rate, ETA) on stderr: redrawn on a terminal, else a line every
    :data:`PROGRESS_LINE_EVERY` seconds."""
    from tqdm import tqdm

    terminal = sys.stderr.isatty()
    return tqdm(
        total=total,
        initial=initial,
        unit=unit,
        desc=desc,
        disable=not enabled,
        dynamic_ncols=terminal,
        ncols=None if terminal else 100,
        mininterval=0.1 if terminal else PROGRESS_LINE_EVERY,
        smoothing=0.1,
        file=sys.stderr if terminal else _ProgressLines(sys.stderr),
    )


def _run_pool(spec: RunSpec, pending: list[int], workers: int, finished: Callable) -> None:
    ctx = multiprocessing.get_context("spawn")
    spec_json = spec.to_json()
    left = set(pending)
    restarts = 0
    while left:
        pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=die_with_parent, initargs=(os.getpid(),)
        )
        try:
            futures = {pool.submit(execute_chunk, spec_json, i) for i in sorted(left)}
            while futures:
                ready, futures = wait(futures, return_when=FIRST_COMPLETED)
                for f in ready:
                    index, rows = f.result()
                    finished(index, rows)
                    left.discard(index)
        except BrokenProcessPool:
            pool.shutdown(wait=True, cancel_futures=True)
            restarts += 1
            if restarts > MAX_POOL_RESTARTS:
                raise DoppelXError(
                    f"workers kept dying ({restarts} times); {len(left)} chunks not run. "
                    "Run the same command again to resume."
                ) from None
            print(f"doppelx: a worker died; re-running {len(left)} unfinished chunk(s)", file=sys.stderr)
            log.info("pool restarted after a worker died; %d chunk(s) left", len(left))
        except BaseException:
            # an error raised in a worker (a bad board, …) or Ctrl+C: stop at once, run nothing more
            _stop_pool(pool)
            raise
        else:
            pool.shutdown(wait=True)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (finished chunks are on disk)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=5)


def die_with_parent(parent_pid: int) -> None:
    """Pool worker initialiser: end this worker when the parent process ends, even by ``kill -9``.

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``); everywhere
    a daemon thread also polls the parent's pid once a second. Without this a killed
    ``doppelx simulate`` would leave its workers (and through their open pipes the
    multiprocessing resource tracker) running.
    """
    import signal
    import threading
    import time

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above ran
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="doppelx-parent-watch", daemon=True).start()


#: Seconds to wait for a Ray cluster's address to answer before giving up.
RAY_CONNECT_TIMEOUT = 5.0


def check_address(address: str) -> None:
    """A Ray cluster address (``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``) that answers.

    Ray itself retries an address that does not answer for minutes; this checks that a
    TCP connection opens within :data:`RAY_CONNECT_TIMEOUT` seconds first.
    """
    import socket

    from doppelx.argtypes import shown

    if address == "auto":
        return
    text = address[len("ray://") :] if address.startswith("ray://") else address
    host, sep, port_text = text.rpartition(":")
    host = host.strip("[]")
    if (
        not sep
        or not host
        or not plain_digits(port_text, most=5)
        or not 0 < int(port_text) < 65536
        or any(c.isspace() for c in host)
    ):
        raise DoppelXError(f"--address {shown(address)}: expected HOST:PORT, e.g. 10.0.0.5:6379, or auto")
    try:
        with socket.create_connection((host, int(port_text)), timeout=RAY_CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc)).lower()
        raise DoppelXError(
            f"--address {shown(address)}: cannot reach a Ray cluster there ({reason} within "
            f"{RAY_CONNECT_TIMEOUT:g} s); start one with `ray start --head` or leave out --address"
        ) from None


def _join_ray(ray, address: str, env: dict) -> None:
    """``ray.init`` on the cluster at ``address``; a cluster that answers but does not let this
    program in is one line naming the likely cause (Ray ≥ 2.5x: token authentication)."""
    from doppelx.argtypes import shown

    try:
        ray.init(address=address, runtime_env=env, log_to_driver=False)
    except ConnectionError as exc:
        token = (
            ""
            if os.environ.get("RAY_AUTH_MODE", "").lower() == "token"
            else (
                "; a cluster started by `ray start --head` wants Ray's token when the machine has one "
                "(~/.ray/auth_token): run with RAY_AUTH_MODE=token and that token (in ~/.ray/auth_token "
                "or RAY_AUTH_TOKEN), or use --address auto on the cluster's own machine"
            )
        )
        raise DoppelXError(
            f"--address {shown(address)}: Ray could not join the cluster there ({exc}){token}"
        ) from None


def _run_ray(
    spec: RunSpec, pending: list[int], workers: int | None, finished: Callable, address: str | None = None
) -> None:
    """The chunks as Ray tasks: on a local cluster of ``workers`` CPUs started here, or on the
    cluster at ``address`` with at most ``workers`` tasks at once (``None``: all submitted,
    the cluster runs as many as it has CPUs)."""
    from rules.common.optional import import_optional

    ray = import_optional("ray", "cluster", "the ray backend")
    if address is not None:
        check_address(address)
    started = not ray.is_initialized()
    with _stdout_to_stderr():  # Ray's messages must not mix with --json output
        if started:
            env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
            if address:
                _join_ray(ray, address, env)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, runtime_env=env)
        try:
            task = ray.remote(max_retries=RAY_RETRIES, num_cpus=1)(execute_chunk)
            spec_json = spec.to_json()
            waiting = list(pending)
            at_once = workers if address and workers else len(waiting)
            refs = [task.remote(spec_json, i) for i in waiting[:at_once]]
            del waiting[:at_once]
            while refs:
                ready, refs = ray.wait(refs, num_returns=1)
                if waiting:
                    refs.append(task.remote(spec_json, waiting.pop(0)))
                try:
                    index, rows = ray.get(ready[0])
                except ray.exceptions.RayTaskError as exc:
                    for ref in refs:
                        ray.cancel(ref, force=True)
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, DoppelXError):
                        raise cause from None
                    raise DoppelXError(
                        f"a chunk failed in a Ray worker: {type(cause).__name__}: {cause}"
                    ) from None
                except ray.exceptions.WorkerCrashedError as exc:
                    raise DoppelXError(
                        f"a chunk's worker died {RAY_RETRIES + 1} times: {exc}; "
                        "run the same command again to resume"
                    ) from None
                finished(index, rows)
        finally:
            if started:
                ray.shutdown()


@contextlib.contextmanager
def _stdout_to_stderr():
    """Send everything Ray and its helpers print (``sys.stdout`` and file descriptor 1) to stderr meanwhile."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:
        saved = None
    try:
        if saved is not None:
            os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
