"""Where the main job's time goes (``python scripts/bench.py --report``): the start-up (the
imports, in a fresh process), each run of the study played alone on one thread (its
core-seconds, with the hands it played), the tables, the charts (drawn side by side, as the job
draws them) and the page; then the wall time those parts predict on this machine's cores.

The study's runs are the same as ``bezique report``'s (its defaults, or the sizes given): they
are played one after the other here, so that each one's cost can be read; the job itself plays
them side by side on every core (run/backends.side_by_side).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from analyzer.rules import RuleSet
from analyzer.studies.report import study as report_study
from analyzer.studies.report.strong import StrongPlay


def run_labels(strong: StrongPlay | None) -> list[str]:
    """The labels of the study's runs, in the order the study (analyzer.studies.report.study.study) makes its calls."""
    lead = [f"{p} self-play" for p in strong.players] if strong else []
    labels = lead + [f"{a} vs {b}" for a, b in report_study.PAIRINGS]
    labels.append("head to head among " + ", ".join(report_study.HEAD_TO_HEAD))
    if strong:
        labels += [f"{strong.policy} against {p}" for p in report_study.HEAD_TO_HEAD]
        if strong.ablation_deals:
            labels.append("the hints' worth (hints and each hint off)")
    return labels


def start_up() -> float:
    """Seconds a fresh process takes to import the report's command (the job's start)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import analyzer.cli.report"], check=True)
    return time.perf_counter() - t0


def report_profile(rules: RuleSet, hands: int, seed: int, strong: StrongPlay | None) -> None:
    """Print where a report's time goes (module docstring)."""
    timed: list[float] = []

    def one_by_one(calls, threads=None):
        out = []
        for call in calls:
            t0 = time.perf_counter()
            out.append(call())
            timed.append(time.perf_counter() - t0)
        return out

    report_study.study(rules, 2000, seed, threads=1, strong=StrongPlay(strong.policy, 500, 100, 50, strong.band)
                       if strong else None)      # load every kernel first (or compile it)
    saved = report_study.side_by_side
    report_study.side_by_side = one_by_one
    try:
        t0 = time.perf_counter()
        st = report_study.study(rules, hands, seed, threads=1, strong=strong)
        study_s = time.perf_counter() - t0
    finally:
        report_study.side_by_side = saved
    rows = [("start-up (imports, a fresh process)", start_up(), "")]
    for label, seconds in zip(run_labels(strong), timed):
        rows.append((label, seconds, "core-s"))
    rows.append(("the odds and the rest of the study", study_s - sum(timed), "core-s"))
    t0 = time.perf_counter()
    tables = st.tables
    rows.append(("the tables", time.perf_counter() - t0, ""))
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        charts = report_study.build_charts(st, out)
        rows.append((f"the charts ({len(charts)}, drawn side by side)", time.perf_counter() - t0, "wall"))
        t0 = time.perf_counter()
        for name, df in tables.items():
            report_study.write_table(df, out, name)
        page = report_study.write_markdown(st, charts, out, "bezique report")
        report_study.write_page(page)
        rows.append(("writing the tables, report.md and report.html", time.perf_counter() - t0, ""))
    width = max(len(r[0]) for r in rows)
    print(f"where the main job's time goes ({rules.name}, {hands:,} hands per pairing, seed {seed}; "
          "each run alone on one thread):")
    for label, seconds, kind in rows:
        print(f"  {label:<{width}}  {seconds:6.2f} s {kind}")
    cores = os.cpu_count() or 1
    serial = sum(s for label, s, kind in rows if kind != "core-s")
    hands_s = sum(s for label, s, kind in rows if kind == "core-s")
    print(f"the runs: {hands_s:.1f} core-seconds; the rest, one after the other: {serial:.1f} s; "
          f"on {cores} cores the job would take about {serial + hands_s / cores:.1f} s")
