"""The table of docs/performance.md's "A bigger machine", measured in one run on a machine of
many cores: hands per second at 1, 2, 4 … threads up to the cores for greedy and learned
self-play (ordinary) and the hints' self-play (Rubicon), after compilation, each rate the best of
``--repeat`` runs in this process; then the main job (``bezique report``, its defaults, a whole
process: start-up, hands, charts) on every core, and the same greedy run on a local Dask
cluster of one worker per core against the threads (whole processes: the cluster's start-up counts).

The kernels are compiled first (or loaded from numba's cache) by a small report. Each figure is
written to ``--out`` (scaling.json, scaling.md) as soon as it is measured, so a run stopped by its
time limit keeps what it did; ``--budget`` seconds end the measuring early (the rest said as not
measured). The project never needs such a machine: this script only measures one.

Example:
    python scripts/big_machine.py --out /tmp/scaling
    python scripts/big_machine.py --out /tmp/scaling --greedy-hands 400000 --skip-dask   # a quick look
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scaling import thread_counts

from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

CLI = [sys.executable, "-m", "analyzer.cli"]


class Table:
    """The measurements so far, written to ``out`` after each one."""

    def __init__(self, out: Path):
        self.out, self.rows, self.notes = out, [], []
        out.mkdir(parents=True, exist_ok=True)

    def add(self, run: str, threads: int | str, seconds: float, rate: float | None, speed_up: float | None) -> None:
        """One measurement: its run, threads (or a backend), wall seconds, items/s and speed-up."""
        self.rows.append({"run": run, "threads": threads, "seconds": round(seconds, 3),
                          "rate": None if rate is None else round(rate, 1),
                          "speed_up": None if speed_up is None else round(speed_up, 2)})
        print(f"{run}, {threads}: {seconds:.2f} s" + (f", {rate:,.0f}/s" if rate else "")
              + (f", {speed_up:.2f}x" if speed_up else ""), flush=True)
        self.write()

    def note(self, text: str) -> None:
        """A line about the run (machine, versions, what was skipped)."""
        self.notes.append(text)
        print(text, flush=True)
        self.write()

    def write(self) -> None:
        """scaling.json and scaling.md as they stand."""
        (self.out / "scaling.json").write_text(json.dumps({"notes": self.notes, "rows": self.rows}, indent=1))
        lines = [*self.notes, "", "| run | threads | seconds | per second | speed-up |", "|---|---|---|---|---|"]
        for r in self.rows:
            rate = "" if r["rate"] is None else f"{r['rate']:,.0f}"
            speed_up = "" if r["speed_up"] is None else f"{r['speed_up']:.2f}x"
            lines.append(f"| {r['run']} | {r['threads']} | {r['seconds']:.2f} | {rate} | {speed_up} |")
        (self.out / "scaling.md").write_text("\n".join(lines) + "\n")


def whole_process(args: list[str]) -> float:
    """Wall seconds of a ``bezique`` command run as its own process (it must succeed)."""
    t0 = time.perf_counter()
    subprocess.run(CLI + args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    """Parse the options, then measure (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--greedy-hands", type=int, default=4_000_000)
    ap.add_argument("--learned-hands", type=int, default=100_000)
    ap.add_argument("--hints-games", type=int, default=400_000, help="Rubicon games of the hints' self-play")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--budget", type=float, default=480.0, help="seconds after which nothing more is started")
    ap.add_argument("--skip-dask", action="store_true")
    a = ap.parse_args()
    start = time.perf_counter()
    table = Table(a.out)
    cores = os.cpu_count() or 1
    import numba
    import numpy
    table.note(f"{cores} cores, {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
               f"numba {numba.__version__}, numpy {numpy.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        t = whole_process(["report", "--hands", "2000", "--learned-hands", "400", "--learned-deals", "100",
                           "--ablation-deals", "20", "-q", "--format", "csv", "--out", f"{tmp}/warm"])
        table.note(f"compiled (or loaded) the kernels in {t:.0f} s")
        runs = [("ordinary, greedy self-play", "ordinary", "greedy", a.greedy_hands),
                ("ordinary, learned self-play", "ordinary", "learned", a.learned_hands),
                ("Rubicon, hints self-play", "rubicon", "hints", a.hints_games)]
        for label, variant, policy, hands in runs:
            rules, specs = preset(variant), [resolve_policy(policy)] * 2
            simulate(rules, specs, 2000, 1, threads=1)
            base = None
            for threads in thread_counts(cores):
                if time.perf_counter() - start > a.budget:
                    table.note(f"not measured (time budget spent): {label}, {threads} threads")
                    continue
                best = min(_timed(rules, specs, hands, threads) for _ in range(a.repeat))
                base = base or hands / best
                table.add(label, threads, best, hands / best, hands / best / base)
        if time.perf_counter() - start < a.budget:
            for _ in range(2):
                table.add("the main job (bezique report, defaults, whole process)", cores,
                          whole_process(["report", "-q", "--force", "--out", f"{tmp}/main"]), None, None)
        if not a.skip_dask and time.perf_counter() - start < a.budget:
            hands = str(a.greedy_hands)
            common = ["simulate", "--hands", hands, "-q", "--format", "csv", "--force"]
            threads_s = whole_process(common + ["--threads", str(cores), "--out", f"{tmp}/threads"])
            table.add(f"greedy {hands} hands, threads (whole process)", cores, threads_s, a.greedy_hands / threads_s, None)
            dask_s = whole_process(common + ["--workers", str(cores), "--out", f"{tmp}/dask"])
            table.add(f"greedy {hands} hands, local Dask cluster (whole process)", f"{cores} workers", dask_s,
                      a.greedy_hands / dask_s, None)
    table.note(f"all of it took {time.perf_counter() - start:.0f} s")


def _timed(rules, specs, hands: int, threads: int) -> float:
    t0 = time.perf_counter()
    simulate(rules, specs, hands, 1, threads=threads)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
