"""Where a command's numba compile time goes: runs a ``bezique`` command in this process and
prints, per compiled function, its own compile time (the functions it called compiled apart are
not counted: an inlined callee is), the time with its callees, and how many times it compiled.

Example (an empty cache, so that everything compiles):
    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_profile.py report --out /tmp/quick
    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compile_profile.py --top 10 train --steps 2 --hands-per-step 16 --out /tmp/t

The times come from numba's compile events (``numba.core.event``, as the command line's compile
watch reads them: analyzer/run/compiling.CompileProfile); a warm cache fires none, so a warm run
prints only the command's own time.
"""
from __future__ import annotations

import argparse
import sys
import time

from analyzer.cli import main as main_group
from analyzer.run.compiling import CompileProfile


def profile(args: list[str]) -> tuple[float, CompileProfile]:
    """Run ``bezique args`` here; (seconds in all, the compile profile)."""
    start = time.perf_counter()
    with CompileProfile() as prof:
        main_group(args, standalone_mode=False)
    return time.perf_counter() - start, prof


def main() -> None:
    """Parse the command line, run the command, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", type=int, default=25, help="how many functions to print (default 25)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the bezique command and its options")
    ns = ap.parse_args()
    if not ns.command:
        ap.error("name a bezique command, e.g. report --out /tmp/quick")
    seconds, prof = profile(ns.command)
    print(f"\n{seconds:.1f} s in all, {sum(prof.own.values()):.1f} s compiling {sum(prof.count.values())} "
          "functions", file=sys.stderr)
    print(f"{'own s':>7} {'with callees':>12} {'times':>5}  function", file=sys.stderr)
    for name, s in prof.own.most_common(ns.top):
        print(f"{s:7.1f} {prof.total[name]:12.1f} {prof.count[name]:5d}  {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
