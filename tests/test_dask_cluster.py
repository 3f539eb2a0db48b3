"""A Dask cluster started the usual way (docs/long-runs.md, "Several machines"): ``bezique warm``,
then a scheduler and two workers as separate processes (``dask scheduler``, ``dask worker``), and a
command given the scheduler's address plays on them the tables it plays on threads."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

from analyzer.cli import main
from click.testing import CliRunner

pytest.importorskip("distributed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster():
    """A scheduler and two one-thread workers, each its own process; yields the address."""
    address = f"tcp://127.0.0.1:{free_port()}"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen(dask + ["scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                      "--no-dashboard"], **quiet)]
    try:
        from distributed import Client
        deadline = time.monotonic() + 60
        while True:                                  # the scheduler listens
            try:
                client = Client(address, timeout="2s")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        procs += [subprocess.Popen(dask + ["worker", address, "--nthreads", "1", "--no-dashboard"], **quiet)
                  for _ in range(2)]
        client.wait_for_workers(2, timeout=60)
        client.close()
        yield address
    finally:
        for p in reversed(procs):       # the workers first: a worker whose scheduler has gone tries to reach it
            p.terminate()               # again for seconds before it ends
            p.wait(timeout=30)


def test_a_cluster_of_separate_processes_plays_what_threads_play(cluster, tmp_path):
    runner = CliRunner()
    warm = runner.invoke(main, ["warm", "--policy", "hints", "--policy", "greedy"])
    assert warm.exit_code == 0 and "rubicon: greedy ready" in warm.output, warm.output
    args = ["simulate", "--policy", "hints", "--policy", "greedy", "--hands", "20000", "--seed", "9"]
    on_dask = runner.invoke(main, args + ["--scheduler", cluster, "--out", str(tmp_path / "dask")])
    on_threads = runner.invoke(main, args + ["--threads", "2", "--out", str(tmp_path / "threads")])
    assert on_dask.exit_code == 0, on_dask.output
    assert (tmp_path / "dask" / "summary.csv").read_bytes() == (tmp_path / "threads" / "summary.csv").read_bytes()
    record = json.loads((tmp_path / "dask" / "run.json").read_text())
    assert record["backend"] == "dask" and record["workers"] == 2 and record["scheduler"] == cluster
