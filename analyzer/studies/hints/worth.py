"""Each hint's worth: the hints policy against itself without one hint, hint by hint, on the
same deals with the seats swapped (``bezique ablate``); or, against an opponent, the full policy's
result less the result without the hint, paired deal by deal (the report's hints' worth against
strong play)."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ...numbers import difference
from ... import plots
from ...policies.hints import hints_policy
from ...policies.hints_names import HINT_TEXT
from ...policies.params import HINT_NAMES
from ...policies.spec import PolicyError, PolicySpec, resolve_policy
from ...rules import RuleSet
from ...run.driver import CHUNK, chunk_for, run_chunks
from ...run.task import RunTask, check_run
from ...words import hint_name
from ..files import write_files
from ..play.compare import (
    PairResult,
    PairTally,
    Progress,
    compare_pair,
    deal_differences,
    pair_tally,
    points_unit,
    seatings,
)


def ablation_chunk(task: RunTask, start: int, count: int) -> tuple:
    """Deals ``start`` .. ``start + count - 1`` played by each of ``task.policies`` but the last
    (``hints``, then ``hints`` without each hint) against the last (the opponent): the
    PairTally of each against the opponent, and of each hint's worth, deal by deal the full
    policy's difference minus the one without it (paired: the same deals, seatings and
    streams). A RunTask's play."""
    *mine, opponent = task.policies
    full, full_tally = deal_differences(task, mine[0], opponent, start, count)
    against, worth = [full_tally], []
    for spec in mine[1:]:
        scaled, t = deal_differences(task, spec, opponent, start, count)
        against.append(t)
        worth.append(pair_tally(full - scaled, t.scale))
    return against, worth


@dataclass
class AblationTotals:
    """The merged chunks of an ablation against an opponent (:func:`ablation_chunk`)."""

    against: list = field(default_factory=list)    # PairTally of each policy against the opponent
    worth: list = field(default_factory=list)      # PairTally of each hint's paired worth

    def merge(self, chunk: tuple) -> bool:
        """Add one chunk; never stops the run."""
        for totals, tallies in zip((self.against, self.worth), chunk):
            if not totals:
                totals.extend(PairTally() for _ in tallies)
            for total, t in zip(totals, tallies):
                total.add(t)
        return False


def hints_on(base: str) -> list[str]:
    """The hints the hints policy ``base`` plays (``hints``: H1..H8; a tuned preset: those of
    weight > 0). PolicyError when ``base`` is not a hints policy."""
    spec = resolve_policy(base)
    if spec.function is not hints_policy:
        raise PolicyError(f"the base {base!r} is not a hints policy (hints, hints:tuned-ordinary, hints:h9=1 ...)")
    return [h for h, w in zip(HINT_NAMES, spec.params["hint"]) if w > 0]


def without_hint(base: str, hint: str) -> str:
    """The name of the hints policy ``base`` with ``hint`` switched off (``hints:no=H3``)."""
    return f"{base}{',' if ':' in base else ':'}no={hint}"


def ablate(rules: RuleSet, hands: int, seed: int, threads: int | None = None,
           progress: Progress | None = None, against: str | PolicySpec | None = None,
           base: str = "hints") -> pd.DataFrame:
    """The value of each hint: the full hints policy ``base`` (``hints``, or a tuned preset such as
    ``hints:tuned-ordinary``) against ``base`` without that hint, for each hint it plays
    (:func:`hints_on`), on the same deals with seats swapped. Returns one row per hint (``hint``,
    ``advice`` and the columns of :meth:`PairResult.row` but the policy names); ``mean_diff`` is
    the full policy's advantage (points per hand; Rubicon: net game points per game).

    With ``against`` (e.g. ``"expert"``) each policy plays that opponent instead: a row per
    hint gives ``base`` without it against the opponent (``without``, with ``_lo``/``_hi``),
    the full policy's figure (``full``) and the hint's value ``mean_diff`` = full - without,
    paired deal by deal (the same deals, seatings and random streams): its interval is that of
    the per-deal differences, which the luck both runs share does not widen."""
    hints = hints_on(base)
    texts = [HINT_TEXT[HINT_NAMES.index(h)] for h in hints]
    names = [base] + [without_hint(base, h) for h in hints] + ([against] if against is not None else [])
    full, *without = check_run(rules, names, seed, threads, by_seat=False)
    rows = []
    if against is None:
        for hid, text, other in zip(hints, texts, without):
            r = compare_pair(rules, full, other, hands, seed, threads, progress=progress).row()
            rows.append({"hint": hid, "advice": text, **{k: v for k, v in r.items()
                                                         if k not in ("policy_a", "policy_b")}})
        return pd.DataFrame(rows)
    *without, opponent = without
    specs = (full, *without, opponent)
    # a chunk plays every policy against the opponent: as many hands in all as a compare chunk
    chunk = chunk_for(list(specs), CHUNK) // (len(seatings(rules.players)) * len(specs[:-1])) or 1
    acc = run_chunks(RunTask(ablation_chunk, rules, seed, specs), hands, chunk, AblationTotals(), threads,
                     progress and (lambda n: progress(n * len(specs[:-1]))))
    base = PairResult(full.name, opponent.name, acc.against[0]).row()
    for hid, text, other, tally, worth in zip(hints, texts, without, acc.against[1:], acc.worth):
        r = PairResult(other.name, opponent.name, tally).row()
        value, lo, hi = worth.mean_diff()
        rows.append({"hint": hid, "advice": text, "against": opponent.name, "deals": r["deals"],
                     "mean_diff": value, "mean_diff_lo": lo, "mean_diff_hi": hi,
                     "full": base["mean_diff"], "full_lo": base["mean_diff_lo"], "full_hi": base["mean_diff_hi"],
                     "without": r["mean_diff"], "without_lo": r["mean_diff_lo"],
                     "without_hi": r["mean_diff_hi"]})
    return pd.DataFrame(rows)


def format_ablation(df: pd.DataFrame, rules: RuleSet, hands: int, seed: int, against: str | None = None,
                    base: str = "hints") -> str:
    """:func:`ablate`'s table as text: what was played, the full policy's (``base``) result
    ``against`` the opponent if there was one, then a line per hint."""
    lines = [f"{rules.name} bézique, {hands:,} deals x 2 seats per hint, seed {seed}; value in {points_unit(rules)}"
             + (f", each policy against {against}" if against else "")]
    if against:
        r = df.iloc[0]
        lines.append(f"full {base} against {against}: {difference(r.full, r.full_lo, r.full_hi)}")
    for _, r in df.iterrows():
        elo = "" if against else f"; Elo {difference(r.elo_a, r.elo_a_lo, r.elo_a_hi)}"
        lines.append(f"{hint_name(r.hint)}: {difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)}{elo}")
    return "\n".join(lines)


def write_ablation(df: pd.DataFrame, rules: RuleSet, out, hands: int, seed: int, threads: int | None = None,
                   against: str | None = None, base: str = "hints") -> list:
    """Write :func:`ablate`'s table (ablation.csv), its bar chart (PNG, SVG) and run.json into
    ``out``; returns the files written."""
    title = (f"Value of each hint{'' if base == 'hints' else f' of {base}'}, {rules.name} bézique "
             f"({hands:,} deals x 2, seed {seed})" + (f", against {against}" if against else ""))
    chart = plots.ablation_chart(df, points_unit(rules), title)
    return write_files(out, threads, {"ablation": df}, {"ablation": chart},
                       parquet=False, rules=rules.describe(), against=against, base=base, hands=hands, seed=seed)
