"""Where the chunks of a run are played: worker threads (the default) or a Dask cluster.

A backend runs ``task(*args)`` somewhere and returns a future with ``result()``. The driver
(:mod:`analyzer.run.driver`) keeps a bounded window of chunks in flight on it and merges their
results in hand order, so a result never depends on the backend or its size. A Dask
backend is chosen for a block of code with :func:`dask_backend` (the command line's
``--workers``/``--scheduler``); everything run inside the block uses it::

    with analyzer.dask_backend(workers=2):
        result = analyzer.simulate(rules, ["hints", "greedy"], 10**6, seed=1)

Tasks sent to Dask workers carry policies by name (see ``PolicySpec.__reduce__``): each
worker resolves and compiles them once (from the numba cache when it has one).
"""
from __future__ import annotations

import contextvars
import logging
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import BeziqueError
from ..stop import WAKE_EVERY, check_stop
from .checks import check_threads

DASK_POLL = 0.005   # seconds between two looks at a Dask chunk (a chunk takes 0.05 s or more)


def wait_for(future):
    """``future.result()``, waking every WAKE_EVERY seconds so that a signal is seen at once
    (one that reaches a worker thread does not interrupt the main thread's wait). A Dask chunk
    the cluster cancelled under the wait (a worker or the scheduler lost) is a BackendError."""
    while True:
        check_stop()
        try:
            return future.result(timeout=WAKE_EVERY)
        except TimeoutError:
            pass
        except UnboundLocalError:   # distributed's result(timeout) on a future cancelled meanwhile (dask/distributed#8514)
            if not future.cancelled():
                raise
            raise BackendError("the Dask cluster dropped a chunk of this run (a worker or its scheduler was lost); "
                               "start the command again (--resume continues a run that keeps checkpoints)") from None


class BackendError(BeziqueError, RuntimeError):
    """A cluster that cannot be started or reached."""


class ThreadBackend:
    """``threads`` worker threads of this process (the engine's kernels release the GIL).

    The threads are daemons: an interrupted run does not wait for the chunks they are
    playing (an expert chunk takes seconds, a user policy may never return), and the
    process can exit at once."""

    name = "threads"

    def __init__(self, threads: int):
        self.slots = threads
        self._queue = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"bezique-worker-{i}", daemon=True)
                         for i in range(threads)]
        for t in self._threads:
            t.start()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            future, task, args = item
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(task(*args))
                except BaseException as e:      # handed to the caller, raised where it waits
                    future.set_exception(e)

    wait = staticmethod(wait_for)

    def submit(self, task, *args) -> Future:
        """Run ``task(*args)`` on a worker thread."""
        future = Future()
        self._queue.put((future, task, args))
        return future

    def close(self, wait: bool = True) -> None:
        """Stop the threads once the chunks submitted are done or cancelled; with ``wait``,
        wait for them (a second or so for the fast policies), else leave them to finish
        unheeded."""
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for t in self._threads:
                t.join()

    def describe(self) -> dict:
        """The backend as recorded in run.json."""
        return {"backend": self.name, "threads": self.slots}


def run_interruptibly(task, *args):
    """``task(*args)`` on a daemon thread, waited for so that Ctrl-C or SIGTERM stops the
    caller at once (a kernel running a user policy that never returns cannot be stopped)."""
    backend = ThreadBackend(1)
    try:
        return wait_for(backend.submit(task, *args))
    finally:
        backend.close(wait=False)


class DaskBackend:
    """The workers of a Dask cluster (``client``: a ``distributed.Client``). A worker lost
    mid-run costs only its chunks: the scheduler plays them again elsewhere."""

    name = "dask"

    def __init__(self, client, label: str, cluster=None):
        self.client = client
        self.label = label
        self._cluster = cluster          # a local cluster this backend started, or None

    def shutdown(self) -> None:
        """Disconnect, and stop the local cluster if this backend started one."""
        _close(self.client, self._cluster)

    @property
    def slots(self) -> int:
        """Worker threads in the cluster now (at least 1)."""
        return max(sum(self.client.nthreads().values()), 1)

    def submit(self, task, *args):
        """Send ``task(*args)`` to the cluster (``pure=False``: every chunk is its own task)."""
        return self.client.submit(task, *args, pure=False)

    @staticmethod
    def wait(future):
        """The chunk's result, once it is done. Polled, not ``result(timeout=...)``: a timed
        wait on a chunk whose worker died can fail inside distributed (UnboundLocalError in
        its ``sync``); a sleep sees a Ctrl-C at once."""
        while not future.done():
            check_stop()
            time.sleep(DASK_POLL)
        return future.result()

    def close(self, wait: bool = True) -> None:
        """Nothing to do: the cluster stays up, and the driver cancels the chunks it drops."""

    def describe(self) -> dict:
        """The backend as recorded in run.json."""
        return {"backend": self.name, "scheduler": self.label,
                "workers": len(self.client.nthreads()), "threads": self.slots}


_ACTIVE: ContextVar = ContextVar("bezique_dask_backend", default=None)


def active_dask() -> DaskBackend | None:
    """The Dask backend chosen by an enclosing :func:`dask_backend`, if any."""
    return _ACTIVE.get()


def default_threads() -> int:
    """The worker threads of a run that names none: one per core."""
    return os.cpu_count() or 1


def thread_count(threads: int | None) -> int:
    """``threads``, or :func:`default_threads` for None; RunError outside 1 .. MAX_THREADS."""
    check_threads(threads)
    return default_threads() if threads is None else threads


class SharedThreads:
    """The worker threads of :func:`side_by_side`, lent to each run inside it: closing it is
    the block's business, not a run's."""

    name = "threads"

    def __init__(self, pool: ThreadBackend):
        self.slots = pool.slots
        self.submit = pool.submit
        self.describe = pool.describe

    wait = staticmethod(wait_for)

    def close(self, wait: bool = True) -> None:
        """Nothing to do: the threads serve the other runs of the block."""


_SHARED: ContextVar = ContextVar("bezique_shared_threads", default=None)


def open_backend(threads: int | None = None):
    """The backend a run uses: the active Dask backend, else the threads a
    :func:`side_by_side` shares, else ``threads`` worker threads of its own. The caller
    closes it (``close`` leaves a Dask cluster or shared threads running)."""
    return active_dask() or _SHARED.get() or ThreadBackend(thread_count(threads))


def side_by_side(calls: list[Callable[[], object]], threads: int | None = None) -> list:
    """Each of ``calls`` (independent runs) at once, their chunks sharing one set of ``threads``
    worker threads (or the active Dask cluster), so that no core idles while one run waits for
    its last chunks; returns their results in order. A run's result is what it would be
    alone: its chunks are merged in its own order. Each call runs in the caller's context
    (its checkpoints, its formats). An exception (or Ctrl-C) is raised here at once; the other
    runs are left to end on daemon threads."""
    pool = None if active_dask() else ThreadBackend(thread_count(threads))
    token = _SHARED.set(SharedThreads(pool)) if pool else None
    runners = ThreadBackend(len(calls))
    try:
        futures = [runners.submit(contextvars.copy_context().run, call) for call in calls]
        return [wait_for(f) for f in futures]
    finally:
        runners.close(wait=False)
        if token is not None:
            _SHARED.reset(token)
        if pool is not None:
            pool.close(wait=False)


def describe_backend(threads: int | None = None) -> dict:
    """What :func:`open_backend` would use, as recorded in run.json."""
    dask = active_dask()
    return dask.describe() if dask else {"backend": "threads", "threads": thread_count(threads)}


CONNECT_TIMEOUT = "10s"        # how long a scheduler given by address has to answer


def connect_dask(workers: int | None = None, scheduler: str | None = None) -> DaskBackend:
    """A Dask backend on the running cluster at ``scheduler`` (e.g. ``"tcp://10.0.0.5:8786"``)
    or on a local cluster of ``workers`` worker processes (one thread each) started here;
    its ``shutdown()`` ends it. BackendError if the cluster cannot be reached or started."""
    if (workers is None) == (scheduler is None):
        raise ValueError("give exactly one of workers and scheduler")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    # keeps import analyzer light: Dask loads when a cluster is asked for
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)   # no chatter about the cluster's life
    cluster = client = None
    try:
        if scheduler is not None:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
            label = scheduler
        else:
            with warnings.catch_warnings():     # its metrics server moves off a port in use: no matter
                warnings.filterwarnings("ignore", message="Port .* is already in use")
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster)
            label = f"local cluster of {workers} worker process{'es' if workers > 1 else ''}"
    except (OSError, TimeoutError) as e:
        _close(client, cluster)
        raise BackendError(f"cannot reach the Dask scheduler {scheduler or ''}: {e}".replace("  ", " ")) from None
    return DaskBackend(client, label, cluster)


@contextmanager
def dask_backend(workers: int | None = None, scheduler: str | None = None) -> Iterator[DaskBackend]:
    """Run everything inside the block on Dask (see :func:`connect_dask` for the arguments);
    a local cluster is shut down at the end. Returns (yields) the :class:`DaskBackend`."""
    backend = connect_dask(workers, scheduler)
    try:
        with use_backend(backend):
            yield backend
    finally:
        backend.shutdown()


@contextmanager
def use_backend(backend: DaskBackend) -> Iterator[DaskBackend]:
    """Run everything inside the block on ``backend`` (one :func:`dask_backend` made)."""
    token = _ACTIVE.set(backend)
    try:
        yield backend
    finally:
        _ACTIVE.reset(token)


def _close(client, cluster) -> None:
    for thing in (client, cluster):
        if thing is not None:
            try:
                thing.close()
            except Exception:      # a cluster already gone: nothing left to close
                pass
