"""The Dask backend (issue 13, part 1): every table is byte-identical to the threaded run's,
for any number of workers, and a worker killed mid-run costs only its chunks.

Where the chunks ran is read from the scheduler: every chunk sent to the backend is recorded,
and its task stream says which worker finished it; a run that fell back to threads sends none.
"""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.run import backends
from analyzer.run.backends import active_dask, connect_dask, use_backend
from analyzer.cli import main
from analyzer.studies.play.compare import compare_pair
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate


@pytest.fixture(scope="module")
def cluster():
    """A local cluster of 2 worker processes, shared by the module's tests (its start-up,
    each worker loading the compiled kernels, is the slow part)."""
    simulate(preset("ordinary"), ["hints", "expert:plain,samples=2"], 2, seed=1, threads=1)   # compile here first
    backend = connect_dask(workers=2)
    yield backend
    backend.shutdown()


@contextmanager
def on_workers(backend):
    """Run the block on ``backend``, recording its chunks: yields a dict that, after the block,
    holds ``sent`` (the task key of every chunk sent to the cluster, in order) and ``finished``
    (key -> address of the worker that finished it, from the scheduler's task stream)."""
    from distributed import get_task_stream
    seen = {"sent": []}
    submit = backend.submit

    def recording(task, *args):
        future = submit(task, *args)
        seen["sent"].append(future.key)
        return future

    backend.submit = recording
    try:
        with get_task_stream(backend.client) as stream, use_backend(backend):
            yield seen
    finally:
        del backend.submit
    seen["finished"] = {t["key"]: t["worker"] for t in stream.data if t["status"] == "OK"}


def ran_on_workers(seen, backend, every=True) -> None:
    """Assert that chunks were sent to the cluster and each one finished (``every``; else those
    not dropped) ran in a worker process, not in this one."""
    assert seen["sent"], "no chunk was sent to the cluster"
    finished = [k for k in seen["sent"] if k in seen["finished"]]
    assert finished and (not every or finished == seen["sent"]), (len(finished), len(seen["sent"]))
    pids = backend.client.run(os.getpid)            # worker address -> its process id
    assert {seen["finished"][k] for k in finished} <= set(pids) and os.getpid() not in pids.values()


def same_tables(a, b) -> bool:
    return a.tables.keys() == b.tables.keys() and all(a.tables[k].to_csv() == b.tables[k].to_csv() for k in a.tables)


@pytest.mark.parametrize("variant, policies, hands", [
    ("ordinary", ["hints", "greedy"], 60_000),
    ("rubicon", ["greedy", "random"], 40_000),
    ("ordinary", ["expert:plain,samples=4", "hints"], 40),       # the strong player: chunks of 16 hands
])
def test_tables_are_byte_identical_to_the_threaded_run(cluster, variant, policies, hands):
    rules = preset(variant)
    threaded = simulate(rules, policies, hands, seed=5, threads=2)
    assert active_dask() is None
    with on_workers(cluster) as seen:
        on_dask = simulate(rules, policies, hands, seed=5)
    ran_on_workers(seen, cluster)
    assert np.array_equal(on_dask.tallies.buffer, threaded.tallies.buffer)
    assert same_tables(on_dask, threaded)


def test_a_comparison_with_sprt_stops_at_the_same_deal(cluster):
    rules = preset("ordinary")
    a, b = resolve_policy("hints"), resolve_policy("hints:no=H3")
    threaded = compare_pair(rules, a, b, 60_000, seed=6, threads=1, sprt=(-5, 5))
    with on_workers(cluster) as seen:
        on_dask = compare_pair(rules, a, b, 60_000, seed=6, sprt=(-5, 5))
    ran_on_workers(seen, cluster, every=False)     # the chunks past the stop are dropped
    assert on_dask.row() == threaded.row() and on_dask.tally.deals < 60_000


def test_a_tuning_search_on_dask_is_the_threaded_search(cluster):
    """bezique tune's evaluations run on the backend: the same generations and answer."""
    from analyzer.studies.hints.tune import tune
    rules = preset("ordinary")
    threaded = tune(rules, "greedy", 120_000, 3, threads=2, confirm_deals=512)
    with on_workers(cluster) as seen:
        on_dask = tune(rules, "greedy", 120_000, 3, confirm_deals=512)
    ran_on_workers(seen, cluster)
    assert on_dask.weights == threaded.weights and on_dask.confirmation == threaded.confirmation
    assert all(np.array_equal(a.mean, b.mean) for a, b in zip(on_dask.state.generations, threaded.state.generations))


def test_a_worker_killed_mid_run_costs_only_its_chunks(cluster):
    """A worker is killed once the scheduler says it is processing a chunk of the run (the event
    waited for, at the progress calls after each chunk merged; never a moment on a clock). The
    scheduler's record of its removal names the chunks it was running or held; each one it was
    running finished again on another worker, and the tables are the threaded run's."""
    rules = preset("ordinary")
    threaded = simulate(rules, ["hints", "greedy"], 120_000, seed=8, threads=2)
    pids = cluster.client.run(os.getpid)
    killed = []
    run = {}

    def kill_one(_n):
        if killed:
            return
        sent = set(run["seen"]["sent"])
        busy = [w for w, keys in cluster.client.processing().items() if sent & set(keys)]
        if busy:                     # a worker holding a chunk of this run now
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(busy[0])

    with on_workers(cluster) as seen:
        run["seen"] = seen
        on_dask = simulate(rules, ["hints", "greedy"], 120_000, seed=8, progress=kill_one)
    assert killed, "no worker was seen processing a chunk of the run"
    removal = [msg for _, msg in cluster.client.get_events(killed[0]) if msg.get("action") == "remove-worker"]
    assert len(removal) == 1
    running = set(removal[0]["processing-tasks"]) & set(seen["sent"])
    held = set(removal[0]["lost-computed-tasks"]) & set(seen["sent"])
    assert running | held, "the killed worker had no chunk of the run"
    # a chunk it was running is played again elsewhere; one it had finished may already have
    # been merged before the kill (the scheduler still lists its result as lost), so it is not
    assert all(seen["finished"][k] != killed[0] for k in running)
    assert set(seen["sent"]) <= set(seen["finished"])
    assert same_tables(on_dask, threaded)


def test_the_command_line_takes_workers_and_writes_the_same_files(tmp_path):
    args = ["compare", "hints", "greedy", "--hands", "20000", "--seed", "2"]
    threaded = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "t")])
    on_dask = CliRunner().invoke(main, [*args, "--workers", "2", "--out", str(tmp_path / "d")])
    assert threaded.exit_code == 0 and on_dask.exit_code == 0, on_dask.output
    for name in ("pairs.csv", "heatmap.png"):
        assert (tmp_path / "t" / name).read_bytes() == (tmp_path / "d" / name).read_bytes()
    assert '"backend": "dask"' in (tmp_path / "d" / "run.json").read_text()


def test_backend_choices_that_cannot_work_are_one_line(monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")      # the unreachable scheduler: no 10 s wait
    for args, message in ((["--workers", "0"], "--workers must be from 1 to 1024"),
                          (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
                          (["--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler")):
        res = CliRunner().invoke(main, ["simulate", "--hands", "100", *args])
        assert res.exit_code == 1 and message in res.output and "Traceback" not in res.output, res.output


class _CancelledUnderTheWait:
    """A Dask future as distributed 2026.8 leaves one the cluster cancelled while ``result(timeout)``
    waited on it: the call raises UnboundLocalError (dask/distributed#8514), not CancelledError."""

    def __init__(self, cancelled: bool):
        self._cancelled = cancelled

    def result(self, timeout=None):
        raise UnboundLocalError("cannot access local variable 'result' where it is not associated with a value")

    def cancelled(self) -> bool:
        return self._cancelled


def test_a_chunk_the_cluster_cancelled_is_one_clear_error_not_distributeds_traceback():
    """Seen once in a cold run of the suite (a training run's chunk cancelled by the cluster): the
    wait now says what happened and how to go on; an UnboundLocalError of anything else is left
    as it is."""
    with pytest.raises(backends.BackendError, match="the Dask cluster dropped a chunk of this run"):
        backends.wait_for(_CancelledUnderTheWait(cancelled=True))
    with pytest.raises(UnboundLocalError):
        backends.wait_for(_CancelledUnderTheWait(cancelled=False))
