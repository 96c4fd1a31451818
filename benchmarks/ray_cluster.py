"""A local Ray cluster of a benchmark's or a test's own, and how to stop it without touching others.

``Cluster(tmp, free_port())`` runs ``ray start --head --block`` as a child process in its
own temporary folder, on a loopback port, by default without token authentication
(:data:`RAY_ENV`; nothing is read from or written to the user's Ray credentials). A test
of token authentication passes its own ``env``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

#: A loopback cluster without token authentication and without usage reports.
RAY_ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def ray_cli() -> str:
    exe = Path(sys.executable).with_name("ray")
    return str(exe) if exe.exists() else (shutil.which("ray") or "ray")


class Cluster:
    """A local Ray cluster of our own: ``ray start --head --block`` as a child process.

    Stopped by that process's id (SIGTERM stops the nodes it started), then any process
    still running from its own temporary folder is ended by id — never ``ray stop``, which
    would end every Ray process on a shared machine.
    """

    def __init__(self, tmp: Path, port: int, env: dict[str, str] | None = None):
        env = env if env is not None else RAY_ENV
        self.tmp, self.port, self.env = tmp, port, env
        self.proc = subprocess.Popen(
            [
                ray_cli(),
                "start",
                "--head",
                "--block",
                "--num-cpus",
                "2",
                "--port",
                str(port),
                "--include-dashboard",
                "false",
                "--temp-dir",
                str(tmp),
                "--disable-usage-stats",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        self.address = f"127.0.0.1:{port}"

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Until a driver with the cluster's own environment can join it (in a child process,
        so this process's Ray settings stay as they were)."""
        probe = f"import ray; ray.init(address={self.address!r}, log_to_driver=False); ray.shutdown()"
        t0 = time.perf_counter()
        while True:
            done = subprocess.run([sys.executable, "-c", probe], env=self.env, capture_output=True, text=True)
            if done.returncode == 0:
                return
            if time.perf_counter() - t0 > timeout or self.proc.poll() is not None:
                raise RuntimeError(f"the Ray cluster at {self.address} did not start: {done.stderr[-1000:]}")
            time.sleep(1.0)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for pid in _pids_using(str(self.tmp)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _pids_using(marker: str) -> list[int]:
    """Processes whose command line names ``marker`` (our cluster's temporary folder)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
