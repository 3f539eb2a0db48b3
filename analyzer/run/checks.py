"""The checks of a run's size, seed, threads and backend, written once: the library checks what
it is given where a run enters it (:func:`analyzer.run.task.check_run`), and the command line
calls the same checks before it starts a backend or keeps checkpoints, naming the values by their
options (``name``). Each failure is a :class:`RunError` (or BackendError), one line."""
from __future__ import annotations

import re

from ..errors import BeziqueError

MAX_HANDS = 2**63 - 1      # hand numbers are signed 64-bit in the engine
MAX_SEED = 2**64 - 1       # the seed is an unsigned 64-bit word
MAX_THREADS = 1024         # threads or local worker processes: more than any machine has cores
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")     # distributed's protocols that reach another process
SCHEDULER_RE = re.compile(r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                          r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(?P<port>\d{1,5}))?$")


class RunError(BeziqueError, ValueError):
    """A run's size, seed, threads or backend that cannot be used."""


def check_count(n: int, name: str = "hands", most: int = MAX_HANDS, most_text: str = "2^63-1") -> None:
    """RunError unless ``n`` (hands, deals, games ... : ``name``) is from 1 to ``most``."""
    if not 0 < n <= most:
        raise RunError(f"{name} must be from 1 to {most_text}, got {n}")


def check_hand_number(hand: int, name: str = "hand") -> None:
    """RunError for a hand number outside 0 .. 2^63-2 (the hand a trace replays of a run)."""
    if not 0 <= hand <= MAX_HANDS - 1:
        raise RunError(f"{name} must be from 0 to 2^63-2, got {hand}")


def check_seed(seed: int, name: str = "seed") -> None:
    """RunError for a seed outside 0 .. 2^64-1."""
    if not 0 <= seed <= MAX_SEED:
        raise RunError(f"{name} must be from 0 to 2^64-1, got {seed}")


def check_threads(threads: int | None, name: str = "threads") -> None:
    """RunError for a thread count outside 1 .. MAX_THREADS (None: one per core)."""
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise RunError(f"{name} must be from 1 to {MAX_THREADS}, got {threads}")


def check_backend(threads: int | None = None, workers: int | None = None, scheduler: str | None = None) -> None:
    """RunError for a backend choice that cannot work (the command line's --threads, --workers,
    --scheduler): a count out of range, two choices that exclude each other, a scheduler that is
    no address."""
    check_threads(threads, "--threads")
    check_threads(workers, "--workers")
    if workers is not None and scheduler is not None:
        raise RunError("give --workers (a local cluster) or --scheduler (a running one), not both")
    if threads is not None and workers is not None:
        raise RunError("--threads is for the default backend; the local cluster of --workers has "
                       "its own worker processes (give one of --threads and --workers)")
    if threads is not None and scheduler is not None:
        raise RunError("--threads is for the default backend; the cluster at --scheduler has its "
                       "own workers (give one of --threads and --scheduler)")
    if scheduler is not None:
        check_scheduler(scheduler)


def check_scheduler(address: str) -> None:
    """RunError for a scheduler that is no address (``[SCHEME://]HOST[:PORT]``), before Dask is
    asked: distributed answers such an address with a traceback (a ValueError), or waits 10 s on
    a port past 65535."""
    m = SCHEDULER_RE.match(address)
    if m is None:
        raise RunError(f"--scheduler expects an address such as tcp://10.0.0.5:8786, got {address!r}")
    if m["scheme"] is not None and m["scheme"].lower() not in SCHEDULER_SCHEMES:
        raise RunError(f"--scheduler: unknown protocol {m['scheme']!r} in {address!r} "
                       f"(one of {', '.join(SCHEDULER_SCHEMES)})")
    if m["port"] is not None and not 1 <= int(m["port"]) <= 65535:
        raise RunError(f"--scheduler: the port must be from 1 to 65535, got {m['port']} in {address!r}")
