"""What numba is compiling, as it compiles: a listener on numba's compile events and a thread
that says, every so often while a compile goes on, how long it has taken and what it is on.

The first run after installing (or after an engine source changed) compiles the kernels before
it plays a hand, which takes minutes; without this the wait is silent. A kernel loaded from
numba's cache fires no compile event, so a warm run prints nothing.

A cold start compiles two sets at once on two cores (:func:`compile_beside`: numba has one
compiler lock per process), and the kernels only some commands need can compile afterwards in a
detached process (:func:`compile_detached`) that a later command waits for
(:func:`wait_for_detached`) rather than compiling them a second time.
"""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path


def _short(name: str) -> str:
    """``analyzer.engine.batch.run_batch`` -> ``engine.batch.run_batch``."""
    return name.removeprefix("analyzer.")


class CompileWatch:
    """Counts numba's compiles while installed (:meth:`start` .. :meth:`stop`) and calls
    ``say(line)`` at most every ``every`` seconds while one is going on (the first line after
    ``first`` seconds, so that a compile of a second or two stays silent), and once when a
    burst of compiling ends. ``busy`` and ``quiet_since`` let a progress bar leave the time
    spent compiling out of its rate."""

    def __init__(self, say: Callable[[str], object], every: float = 30.0, first: float = 5.0):
        self.say, self.every, self.first = say, every, first
        self.stack: list[str] = []          # the compiles in progress, outermost first
        self.functions = 0                  # functions compiled in this burst
        self.burst_start: float | None = None
        self.last_said = 0.0
        self.quiet_since = time.monotonic()  # when the last compile ended (or the watch began)
        self.spoke = False                  # whether this burst has printed a line
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._listener = None
        self._thread = None

    @property
    def busy(self) -> bool:
        """Whether a compile is going on."""
        return bool(self.stack)

    def on_start(self, name: str) -> None:
        """A function's compile began (its qualified name)."""
        with self._lock:
            if self.burst_start is None:
                self.burst_start = time.monotonic()
                self.functions, self.spoke = 0, False
            self.stack.append(name)

    def on_end(self) -> None:
        """The innermost compile in progress ended."""
        with self._lock:
            if self.stack:
                self.stack.pop()
            self.functions += 1
            if not self.stack:
                self.quiet_since = time.monotonic()

    def tick(self, now: float | None = None) -> None:
        """Say what is compiling if it is time to (called by the thread every second)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if self.burst_start is None:
                return
            took = now - self.burst_start
            if self.stack:
                due = (self.last_said < self.burst_start and took >= self.first) or \
                      (self.last_said >= self.burst_start and now - self.last_said >= self.every)
                if not due:
                    return
                chain = " > ".join(_short(n) for n in self.stack[-2:])
                line = (f"compiling numba kernels: {duration_text(took)} so far, {self.functions} functions "
                        f"done, now {chain}")
                self.last_said, self.spoke = now, True
            elif now - self.quiet_since >= 1.0:            # the burst is over
                line = (f"compiled {self.functions} functions in {duration_text(self.quiet_since - self.burst_start)}"
                        if self.spoke else None)
                self.burst_start = None
                if line is None:
                    return
            else:
                return
        self.say(line)

    def start(self) -> CompileWatch:
        """Listen to numba's compile events and start the thread that speaks."""
        from numba.core import event  # keeps the CLI's start-up light: loads numba when a command runs

        watch = self

        class Listener(event.Listener):
            def on_start(self, ev):
                d = ev.data["dispatcher"]
                watch.on_start(f"{d.py_func.__module__}.{d.py_func.__qualname__}")

            def on_end(self, ev):
                watch.on_end()

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        self._thread = threading.Thread(target=self._run, daemon=True, name="compile-watch")
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._done.wait(1.0):
            self.tick()

    def stop(self) -> None:
        """Stop listening; a burst still unreported is said now."""
        if self._listener is None:
            return
        from numba.core import event
        event.unregister("numba:compile", self._listener)
        self._done.set()
        self._thread.join()
        self._listener = None
        self.tick(time.monotonic() + 1.0)


class CompileProfile:
    """Where numba's compile time goes, while the block runs: per compiled function its own
    seconds (``own``: the functions it called that compiled apart left out; an inlined callee
    counts), its seconds with those callees (``total``) and how many times it compiled
    (``count``), each a Counter by the function's qualified name (scripts/compile_profile.py)."""

    def __init__(self):
        self.own, self.total, self.count = Counter(), Counter(), Counter()
        self._stack = []            # [name, start, seconds spent in nested compiles]
        self._listener = None

    def __enter__(self) -> CompileProfile:
        from numba.core import event  # keeps the CLI's start-up light: loads numba when profiled
        profile = self

        class Listener(event.Listener):
            def on_start(self, ev):
                f = ev.data["dispatcher"].py_func
                profile._stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

            def on_end(self, ev):
                name, start, nested = profile._stack.pop()
                dt = time.perf_counter() - start
                profile.own[name] += dt - nested
                profile.total[name] += dt
                profile.count[name] += 1
                if profile._stack:
                    profile._stack[-1][2] += dt

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc) -> None:
        from numba.core import event
        event.unregister("numba:compile", self._listener)


def duration_text(seconds: float) -> str:
    """``seconds`` as "2 h 5 min", "3 min 20 s" or "40 s"."""
    if seconds == float("inf"):
        return "an unknown time"
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def compile_beside(here: Sequence[str], beside: Sequence[str], timeout: float = 600.0) -> bool:
    """Compile two sets of kernels at once, on two cores: start a Python process that imports the
    modules ``beside`` (their kernels compile when imported and land in numba's cache), import the
    modules ``here`` in this process meanwhile, then wait for the other process (at most
    ``timeout`` seconds), so that this process loads the others' kernels from the cache instead of
    compiling them. numba has one compiler lock per process, so this is the only way a cold
    start uses the second core. Whatever the other process did not cache compiles here later, as
    it would have: a helper that fails or is slow costs only the wait. Whether it finished."""
    code = "import " + ", ".join(beside)
    helper = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for module in here:
            importlib.import_module(module)
        return helper.wait(timeout) == 0
    except subprocess.TimeoutExpired:
        return False
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()


# the detached compile's priority: the lowest, so that a first run started beside it keeps its cores
LATER_NICE = 19


def compile_detached(groups: Sequence[Sequence[str]], marker: Path) -> subprocess.Popen:
    """Start, in a session of its own (it outlives this process and its terminal's Ctrl-C), a
    process that compiles each of ``groups`` (modules whose kernels compile when imported) in a
    process of its own, side by side, at a lower priority; ``marker`` holds its process id while
    it runs and goes when it ends (:func:`wait_for_detached` waits for it). Returns the process.
    It runs this file as a script, so that it loads nothing of the package but what it compiles."""
    proc = subprocess.Popen([sys.executable, __file__, str(marker), *(",".join(g) for g in groups)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    marker.write_text(str(proc.pid))
    return proc


def compile_side_by_side(groups: Sequence[Sequence[str]], nice: int = 0, env: dict[str, str] | None = None) -> bool:
    """Compile each of ``groups`` (modules whose kernels compile when imported) in a process of
    its own, all at once (``nice``: their lower priority; ``env``: variables set for them beside
    this process's), and wait for them; whether all ended well."""
    helpers = [subprocess.Popen([sys.executable, "-c", "import " + ", ".join(group)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                preexec_fn=(lambda: os.nice(nice)) if nice else None,
                                env={**os.environ, **env} if env else None)
               for group in groups]
    return all([helper.wait() == 0 for helper in helpers])


def _compile_groups(marker: Path, groups: Sequence[str]) -> None:
    """The detached process of :func:`compile_detached`: each group (modules joined by commas)
    compiled side by side at the lowest priority (LATER_NICE), then the marker removed. Where
    Linux groups processes by session for the scheduler (autogroup), a process's nice value
    ranks it only within its session: this process leads a session of its own, so the session's
    own nice value is lowered too, or it would get as much of the cores as the run beside it."""
    try:
        Path("/proc/self/autogroup").write_text(str(LATER_NICE))
    except OSError:             # no autogroup (or not Linux): the processes' nice values suffice
        pass
    try:
        compile_side_by_side([g.split(",") for g in groups], nice=LATER_NICE)
    finally:
        marker.unlink(missing_ok=True)


def detached_running(marker: Path) -> bool:
    """Whether the process named in ``marker`` (:func:`compile_detached`) is still running (an
    ended one that its parent has not reaped yet, a zombie, is not)."""
    try:
        pid = int(marker.read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):      # no /proc (macOS): the signal's answer stands
        return True


def wait_for_detached(marker: Path, timeout: float = 900.0, until: Callable[[], bool] | None = None) -> float:
    """Wait while the detached compile of ``marker`` runs (at most ``timeout`` seconds, and no
    longer than ``until()`` is false, where given: the kernels a command needs cached before the
    others), so that a command loads its kernels from the cache instead of compiling them a
    second time beside it; returns the seconds waited (0: none was running)."""
    if not detached_running(marker):
        return 0.0
    start = time.monotonic()
    while (detached_running(marker) and time.monotonic() - start < timeout
           and not (until is not None and until())):
        time.sleep(0.2)
    return time.monotonic() - start


if __name__ == "__main__":       # the detached process of compile_detached (this file run as a script)
    _compile_groups(Path(sys.argv[1]), sys.argv[2:])
