"""The stop flag: a Ctrl-C or SIGTERM asks the command to stop, and every wait looks at it
(the backends' waits for chunks, the compile of a user policy)."""
from __future__ import annotations

import threading

WAKE_EVERY = 0.2    # seconds: how often the waiting main thread wakes to see a Ctrl-C or SIGTERM


STOP = threading.Event()
"""Set by the command line's Ctrl-C/SIGTERM handler. A wait sees it even when the handler's
KeyboardInterrupt was lost: one that lands inside a library that swallows exceptions (seen:
during the compile of a user policy) would otherwise leave the run going."""


def check_stop() -> None:
    """KeyboardInterrupt once a Ctrl-C or SIGTERM has asked the command to stop (STOP)."""
    if STOP.is_set():
        raise KeyboardInterrupt
