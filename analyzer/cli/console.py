"""The command line's side of the terminal, loaded at start-up and kept light: lines about a
run on stderr (:func:`notice`, silenced by --quiet), the progress bar, the compile watch started
before a command's module compiles its kernels, and SIGTERM made a Ctrl-C."""
from __future__ import annotations

import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from ..run.checkpoint import active_checkpoints
from ..run.compiling import (
    CompileWatch,
    compile_beside,
    compile_detached,
    detached_running,
    duration_text,
    wait_for_detached,
)
from ..run.driver import seconds_from_env
from ..stop import STOP

QUIET = {"on": False}       # --quiet: no progress, notices or compile line (errors still print)


def notice(text: str) -> None:
    """A line on stderr about the run (not its result), unless --quiet."""
    if not QUIET["on"]:
        click.echo(text, err=True)


PROGRESS_EVERY = 30.0      # seconds between two progress lines when stderr is not a terminal
                           # (the environment's BEZIQUE_PROGRESS_EVERY, if a number, instead)


def progress_every() -> float:
    """Seconds between two progress lines: BEZIQUE_PROGRESS_EVERY where it is a number, else
    PROGRESS_EVERY; returns the seconds."""
    return seconds_from_env("BEZIQUE_PROGRESS_EVERY", PROGRESS_EVERY)


def stop_on_sigterm() -> None:
    """Make SIGTERM stop a run as Ctrl-C does (the workers finish the chunk in hand, at most
    a second or so, and the command says how far it got); either one sets stop.STOP, which
    every wait for a chunk checks."""


    def interrupt(signum, frame):
        STOP.set()
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, interrupt)
        signal.signal(signal.SIGINT, interrupt)
    except ValueError:             # not the main thread: leave the default
        pass


# the main job's first compile (bezique report), measured on 2 cores (2026-12-06): the batch kernel 29 s
# here, the policies 17 s beside it in a second process; the whole job 47 s
COLD_COMPILE = "the main job compiles in about a minute on 2 cores"
WATCH: list = []                           # this process's CompileWatch, once started
COLD: list = []                            # True once this process found the batch kernel not cached
WARM: list = []                            # True once it found it cached (the test suite's commands ask often)
BATCH_MODULE = "analyzer.engine.batch"     # the batch kernel: every command that plays hands compiles it
# The policy modules whose kernels compile when imported and which do not import the batch kernel
# (policies/user.py does, through engine/api.py): compiled beside it on a cold start. Not imported
# from policies/: importing that package compiles them here (tests/test_compiling.py checks both).
POLICY_KERNEL_MODULES = ("analyzer.policies.builtin", "analyzer.policies.hints", "analyzer.policies.learned")
# The kernels of one hand played (trace: a few seconds from an empty cache), replayed (replay, and
# the positions of analyze and review: half a minute more, the checks of each move) and of the
# search (analyze, review, expert: about a minute). The first run compiles them beside itself, in
# a detached process at the lowest priority, two groups at once, the one-hand driver first; a
# command that needs them waits for those it needs (LATER_COMMANDS) rather than compiling them again.
LATER_GROUPS = (("analyzer.engine.single", "analyzer.engine.scripted"), ("analyzer.policies.expert",))
# each group's modules' kernels, in the same order: (the module's file, the kernel it compiles when imported)
LATER_KERNELS = ((("engine/single.py", "play_single"), ("engine/scripted.py", "replay_single")),
                 (("policies/expert.py", "expert_policy"),))
EVERY_LATER_KERNEL = tuple(function for group in LATER_KERNELS for _source, function in group)
# the commands that need later kernels, and which: trace plays by policies (not the replay's checks)
LATER_COMMANDS = {"trace": ("play_single",), "replay": ("replay_single",),
                  "analyze": EVERY_LATER_KERNEL, "review": EVERY_LATER_KERNEL}


def watch_compiles(later: tuple[str, ...] = ()) -> None:
    """Before a command runs the engine: when its kernels are not cached yet, one line saying
    that they compile now and about how long it takes, and the batch kernel compiled here while
    a second process compiles the policies (run/compiling.compile_beside); and, once per process,
    the watch (run/compiling.py) that says every PROGRESS_EVERY seconds while numba compiles how
    long it has taken and what it is on, and lets the progress bar leave that time out of its
    rate. ``later``: the kernels of LATER_KERNELS the command needs (by name); while the first
    run's detached compile of them runs (:func:`compile_later`), it waits for them, saying so."""
    # keeps the CLI's start-up light: the engine package loads numba
    from ..engine import kernels_cached
    cold = not (WARM or kernels_cached())      # once found cached, cached for the rest of this process
    if not cold and not WARM:
        WARM.append(True)
    if later and not cold:
        marker, _cached = later_kernels()
        if detached_running(marker) and not later_cached(later):
            since = duration_text(time.time() - marker.stat().st_mtime)
            notice(f"the kernels of trace, replay, analyze and review have been compiling in the background "
                   f"for {since}, since the first run: waiting for those this command needs")
            wait_for_detached(marker, until=lambda: later_cached(later))
    if cold:
        COLD.append(True)
        notice("compiling the simulator's numba kernels (first run after installing or changing the "
               f"engine; cached afterwards): {COLD_COMPILE}; a line every {min(progress_every(), PROGRESS_EVERY):g} s "
               "says how far it is")
        compile_later()       # at the lowest priority: on what this run leaves of the cores, then on both
    if not WATCH:
        WATCH.append(CompileWatch(notice, every=min(progress_every(), PROGRESS_EVERY)).start())
    if cold:
        compile_beside([BATCH_MODULE], POLICY_KERNEL_MODULES)


def later_kernels() -> tuple[Path, bool]:
    """The file that names the detached compile of the LATER_GROUPS while it runs (beside the
    engine's kernels in numba's cache), and whether all their kernels are cached."""
    from ..engine import numba_cache_dir
    package = Path(__file__).resolve().parent.parent
    marker = (numba_cache_dir(package / "engine" / "batch.py") or package / "engine") / "compiling-later.pid"
    return marker, later_cached(EVERY_LATER_KERNEL)


def later_cached(functions: tuple[str, ...]) -> bool:
    """Whether the kernels of LATER_KERNELS named ``functions`` are all in numba's cache."""
    from ..engine import kernel_cached
    package = Path(__file__).resolve().parent.parent
    return all(kernel_cached(package / source, function) for group in LATER_KERNELS
               for source, function in group if function in functions)


def compile_later() -> bool:
    """Once a command has found the kernels not cached (a first run): unless they are cached
    already or compiling, start the detached compile of the LATER_GROUPS (two processes at the
    lowest priority: they take what the first run leaves of the cores, then both cores once it
    ends, done 30 to 40 s after it on 2 cores) and say so. Whether it started one."""
    if not COLD:
        return False
    marker, cached = later_kernels()
    if cached or detached_running(marker):
        return False
    compile_detached(LATER_GROUPS, marker)
    notice("the kernels of trace, replay, analyze and review compile in the background as well, at the lowest "
           "priority (done 30 to 40 s after this run on 2 cores), so that those commands start at once; one "
           "started sooner waits for those it needs")
    return True


@contextmanager
def progress_bar(total: int, unit: str, desc: str):
    """Progress on stderr for ``total`` ``unit``s: a bar on a terminal, otherwise a line every
    PROGRESS_EVERY seconds (done, rate, time left); yields the callback that advances it by the
    number just finished. Interrupted (Ctrl-C, SIGTERM), it says how far the run got and exits
    with code 130."""
    last = base_t = time.monotonic()
    base_done = 0          # the rate counts from here: after the last compile, never across it
    every = progress_every()
    done = 0
    bar = None
    quiet = QUIET["on"]
    if quiet:
        pass
    elif sys.stderr.isatty():
        from tqdm import tqdm  # keeps the CLI's start-up light: loads with the first bar
        bar = tqdm(total=total, unit=unit, unit_scale=True, desc=desc, file=sys.stderr)
    else:
        click.echo(f"{desc}: {total:,} {unit}s to play; progress every {every:g} s", err=True)

    def update(n: int) -> None:
        nonlocal done, last, base_t, base_done
        done += n
        now = time.monotonic()
        watch = WATCH[0] if WATCH else None
        compiled = watch is not None and (watch.busy or watch.quiet_since > base_t)
        if compiled:                  # numba compiled since the rate's start: measure from now
            base_t, base_done = now, done
        if bar is not None:
            if compiled:
                bar.unpause()         # tqdm's rate, too, leaves the compile out
            bar.update(n)
            return
        if quiet or compiled:
            return
        if now - last >= every and done < total:
            last = now
            rate = (done - base_done) / max(now - base_t, 1e-9)
            left = (total - done) / rate if rate > 0 else float("inf")
            speed = (f"{rate:,.0f} {unit}s/s, about {duration_text(left)} left" if done > base_done
                     else "measuring the rate")
            click.echo(f"{desc}: {done:,} of {total:,} {unit}s ({done / total:.0%}), {speed}", err=True)
    try:
        yield update
    except KeyboardInterrupt:                 # Ctrl-C, or SIGTERM (see stop_on_sigterm)
        if bar is not None:
            bar.close()
        click.echo(f"\n{desc}: stopped after {done:,} of {total:,} {unit}s; {_kept()}", err=True)
        raise click.exceptions.Exit(130) from None
    finally:
        if bar is not None:
            bar.close()


def _kept() -> str:
    """What an interrupted run leaves: its checkpoint and the command that resumes it."""
    store = active_checkpoints()
    if store is None:
        return "nothing was written (with --out, finished chunks are kept and --resume continues)"
    return f"the finished chunks are kept in {store.dir}; resume with:\n  {store.resume_line}"


