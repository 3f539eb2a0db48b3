"""Cold numba caches under concurrency, end to end: two `bezique simulate` commands started at the
same moment on an empty kernel cache, and a cold local Dask cluster of 4 workers, must finish
without a crash and write the same tables as one warm run (engine/cache_lock.py keeps numba's
concurrent cache writes apart). Minutes: every process compiles the engine.

Example:
    python scripts/cold_cache_check.py                 # both checks
    python scripts/cold_cache_check.py --hands 500 --skip-dask
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

BEZIQUE = str(Path(sys.executable).parent / "bezique")


def simulate(out: Path, hands: int, cache: Path, *extra: str) -> subprocess.Popen:
    """Start `bezique simulate` (hints against greedy) writing to ``out``, numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    cmd = [BEZIQUE, "simulate", "--policy", "hints", "--policy", "greedy", "--hands", str(hands), "--seed", "7",
           "--out", str(out), "--quiet", "--format", "csv", *extra]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def tables(out: Path) -> dict[str, pd.DataFrame]:
    """The CSV tables a run wrote."""
    return {p.name: pd.read_csv(p) for p in sorted(out.glob("*.csv"))}


def finish(procs: list[subprocess.Popen], label: str) -> None:
    """Wait for ``procs``; exit 1 with their output if any failed."""
    for p in procs:
        output, _ = p.communicate()
        if p.returncode != 0:
            sys.exit(f"{label}: a command failed with exit code {p.returncode}:\n{output}")


def same(a: Path, b: Path, label: str) -> None:
    """Exit 1 unless the runs in ``a`` and ``b`` wrote the same tables."""
    ta, tb = tables(a), tables(b)
    if not ta or ta.keys() != tb.keys() or any(not ta[k].equals(tb[k]) for k in ta):
        sys.exit(f"{label}: the tables of {a} and {b} differ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--skip-dask", action="store_true", help="only the two commands at once")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.monotonic()
        procs = [simulate(root / f"together-{i}", args.hands, root / "cache-1") for i in (0, 1)]
        finish(procs, "two commands on a cold cache")
        same(root / "together-0", root / "together-1", "two commands on a cold cache")
        finish([simulate(root / "warm", args.hands, root / "cache-1")], "a warm run")
        same(root / "together-0", root / "warm", "a warm run after them")
        print(f"two commands at once on an empty cache: finished, same tables as a warm run "
              f"({time.monotonic() - start:.0f} s)", flush=True)
        if not args.skip_dask:
            start = time.monotonic()
            finish([simulate(root / "dask", args.hands, root / "cache-2", "--workers", "4")], "a cold Dask cluster")
            same(root / "dask", root / "warm", "a cold Dask cluster of 4 workers")
            print(f"a cold Dask cluster of 4 workers: finished, same tables as a warm run "
                  f"({time.monotonic() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
