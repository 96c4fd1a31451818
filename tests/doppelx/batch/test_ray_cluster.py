"""``--backend ray --address`` against a real running cluster, started as a user starts one.

Ray ≥ 2.5x starts a cluster with token authentication when the machine holds a Ray token.
A driver given an explicit ``HOST:PORT`` does not send the token unless told to
(``RAY_AUTH_MODE=token``), so the cluster turns it away: the batch audit of session 10 found
20 s of Ray's retries ending in a traceback. This cluster has a token of its own (in its own
``HOME``); the user's Ray credentials are neither read nor written.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from benchmarks.ray_cluster import Cluster, free_port  # noqa: E402
from tests.helpers.cli import run_doppelx  # noqa: E402

TOKEN = "0123456789abcdef" * 4  # this cluster's own
THROWS = ["simulate", "throws", "--throws", "12", "--chunk", "3", "--seed", "4", "--quiet"]


def doppelx(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return run_doppelx(
        args, cwd=cwd, env={**env, "RAY_USAGE_STATS_ENABLED": "0"}, drop=("RAY_AUTH*",), timeout=240
    )


@pytest.fixture(scope="module")
def token_cluster(tmp_path_factory):
    home = tmp_path_factory.mktemp("ray-home")
    (home / ".ray").mkdir()
    (home / ".ray" / "auth_token").write_text(TOKEN)
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "token", "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_AUTH_TOKEN", None)
    cluster = Cluster(tmp_path_factory.mktemp("ray-tmp"), free_port(), env)
    try:
        cluster.wait_ready()
        yield cluster
    finally:
        cluster.stop()


def test_a_cluster_wanting_a_token_is_one_line_naming_the_cure(token_cluster, tmp_path):
    proc = doppelx([*THROWS, "--backend", "ray", "--address", token_cluster.address, "--out", "r"], tmp_path)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]  # after Ray's own retry warnings
    assert last.startswith("doppelx: error: --address") and "RAY_AUTH_MODE=token" in last


def test_with_the_token_the_cluster_gives_the_pool_rows(token_cluster, tmp_path):
    """``--workers 1`` on a running cluster (the cap itself: test_batch_runner); the rows are the
    pool's, bit for bit."""
    import pyarrow.parquet as pq

    ray = doppelx(
        [*THROWS, "--backend", "ray", "--address", token_cluster.address, "--workers", "1", "--out", "ray"],
        tmp_path,
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=TOKEN,
    )
    assert ray.returncode == 0, ray.stderr[-2000:]
    pool = doppelx([*THROWS, "--workers", "2", "--out", "pool"], tmp_path)
    assert pool.returncode == 0, pool.stderr[-2000:]
    assert pq.read_table(tmp_path / "ray" / "throws.parquet").equals(
        pq.read_table(tmp_path / "pool" / "throws.parquet")
    )
