"""Where a command's numba compile time goes: runs a ``bezique`` command in this process and
prints, per compiled function, its own compile time (the functions it called compiled apart are
not counted: an inlined callee is), the time with its callees, and how many times it compiled.

Example (an empty cache, so that everything compiles):
    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_profile.py report --out /tmp/quick
    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_profile.py --top 10 train --steps 2 --hands-per-step 16 --out /tmp/t

The times come from numba's compile events (``numba.core.event``, as the command line's compile
watch reads them); a warm cache fires none, so a warm run prints only the command's own time.
"""
from __future__ import annotations

import argparse
import collections
import sys
import time


def profile(args: list[str]) -> tuple[float, collections.Counter, collections.Counter, collections.Counter]:
    """Run ``bezique args`` here; (seconds in all, own compile seconds by function, seconds with
    callees by function, compiles by function)."""
    from numba.core import event

    own, total, count = collections.Counter(), collections.Counter(), collections.Counter()
    stack = []          # [name, start, seconds spent in nested compiles]

    class Listener(event.Listener):
        def on_start(self, ev):
            f = ev.data["dispatcher"].py_func
            stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, start, nested = stack.pop()
            dt = time.perf_counter() - start
            own[name] += dt - nested
            total[name] += dt
            count[name] += 1
            if stack:
                stack[-1][2] += dt

    listener = Listener()
    event.register("numba:compile", listener)
    from analyzer.cli import main
    start = time.perf_counter()
    try:
        main(args, standalone_mode=False)
    finally:
        event.unregister("numba:compile", listener)
    return time.perf_counter() - start, own, total, count


def main() -> None:
    """Parse the command line, run the command, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", type=int, default=25, help="how many functions to print (default 25)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the bezique command and its options")
    ns = ap.parse_args()
    if not ns.command:
        ap.error("name a bezique command, e.g. report --out /tmp/quick")
    seconds, own, total, count = profile(ns.command)
    print(f"\n{seconds:.1f} s in all, {sum(own.values()):.1f} s compiling {sum(count.values())} functions",
          file=sys.stderr)
    print(f"{'own s':>7} {'with callees':>12} {'times':>5}  function", file=sys.stderr)
    for name, s in own.most_common(ns.top):
        print(f"{s:7.1f} {total[name]:12.1f} {count[name]:5d}  {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
