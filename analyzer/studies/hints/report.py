"""``bezique hints`` from start to end: the study checked, its strong hands played once for the
hints' table and (with ``patterns``) the disagreements with the tuned hints, then hints.md, the
tables, every decision and the chart written into one directory."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ...plots import rules_title
from ...plots.hints import hints_chart
from ...policies.spec import PolicyError, model_for, resolve_policy
from ...rules import RuleSet
from ...run.checks import check_seed
from ...run.output import atomic_write, command_line, write_table
from ..files import write_files
from .patterns import Disagreements, pattern_table, patterns_markdown
from .study import HintRows, HintStudy, hint_table, play_study
from .verdicts import hints_markdown


@dataclass
class HintsReport:
    """A finished hints study: its page (``text``, hints.md), its ``tables`` (``hints`` and, with
    patterns, ``patterns``), every decision (``rows``), the disagreements (``parted``, or None)
    and the ``facts`` its run record keeps."""

    rules: RuleSet
    text: str
    tables: dict = field(default_factory=dict)
    rows: pd.DataFrame | None = None
    parted: pd.DataFrame | None = None
    facts: dict = field(default_factory=dict)


def check_hint_study(rules: RuleSet, study: HintStudy) -> None:
    """PolicyError (or RunError) for a study that cannot run: a game of more than two hands
    (the strong players' search is two-handed), fewer than two samples, hints that are not the
    hints policy, a pairing's policy unknown, a bad seed."""
    check_seed(study.seed)
    if rules.players != 2:
        raise PolicyError("bezique hints studies two-handed games (the strong players' search is "
                          "two-handed): use --variant ordinary or rubicon")
    if study.samples < 2:
        raise PolicyError(f"--samples must be 2 or more (an interval needs two), got {study.samples}")
    if study.base.partition(":")[0] != "hints":
        raise PolicyError(f"--hints takes the hints policy or its settings (hints, hints:tuned-ordinary), "
                          f"got {study.base!r}")
    for name in (study.base, *(p for pair in study.pairings for p in pair)):
        resolve_policy(name)


def hints_report(rules: RuleSet, study: HintStudy, patterns: bool = False, progress=None) -> HintsReport:
    """Play ``study`` (checked first) and put its findings in words: the hints' table and
    hints.md, and with ``patterns`` where strong play parts from the tuned hints."""
    check_hint_study(rules, study)
    analyses = [HintRows(rules, study)] + ([Disagreements(rules, study)] if patterns else [])
    rows, *parted = play_study(rules, study, analyses, progress=progress)
    parted = parted[0] if parted else None
    table = hint_table(rows, rows.attrs["decisions"])
    unit = "net game points" if rules.is_rubicon else "points"
    facts = dict(command=command_line(), hands=study.hands, seed=study.seed, samples=study.samples,
                 decisions=rows.attrs["decisions"], base=study.base, pairings=[" vs ".join(p) for p in study.pairings])
    text = hints_markdown(table, model_for(rules), facts)
    tables = {"hints": table}
    if parted is not None:
        tables["patterns"] = pattern_table(parted, parted.attrs["seat_hands"])
        text += patterns_markdown(tables["patterns"], parted, unit)
    return HintsReport(rules, text, tables, rows, parted, facts)


def write_hints_report(report: HintsReport, out) -> list:
    """Write hints.md and report.html (the same page, its chart inline), every decision
    (decisions.parquet) and the disagreements, the tables, the chart and run.json into ``out``;
    returns the files written."""
    rules = report.rules
    unit = "net game points" if rules.is_rubicon else "points"
    page = atomic_write(Path(out) / "hints.md", lambda p: Path(p).write_text(report.text, encoding="utf-8"))
    written = [page]
    written += write_table(report.rows, out, "decisions", csv=False)     # a row per decision: Parquet only
    if report.parted is not None:
        written += write_table(report.parted, out, "disagreements", csv=False)
    chart = hints_chart(report.tables["hints"], f"{rules_title(rules)}: the hints against strong play", unit)
    return write_files(out, None, report.tables, {f"hints_{model_for(rules)}": chart}, files=written, pages=[page],
                       rules=rules.describe(), **report.facts)
