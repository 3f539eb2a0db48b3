"""The hints study in words (``bezique hints``): a verdict per hint from its figures, and
``hints.md``, one page a strategy writer can quote.

A verdict claims nothing its intervals do not support: "strong play agrees" when the strong
players make the hint's choice at most of the decisions where it applies and no split (stage and
decision kind) shows following it to cost; "agrees except when …" when one does (the cost's
interval above zero); "disagrees" when they mostly do not follow it and following it costs; and
otherwise what was measured and that it cannot be told apart from nothing.
"""
from __future__ import annotations

import pandas as pd

from ...policies.hints_names import HINT_TEXT
from ...policies.params import HINT_NAMES
from ...tables.markdown import md_table
from ...tables.stats import interval_text

MIN_SPLIT = 20           # decisions a split needs before a verdict names it
STAGES = {"1": "in the first stage", "2": "in the second stage"}


def _where(row) -> str:
    """A split in words: "following a lead in the first stage"."""
    kind = {"lead": "leading", "follow": "following a lead", "declare": "choosing what to declare",
            "carte blanche": "at carte blanche", "claim": "at a claim"}.get(row.kind, row.kind)
    return f"{kind} {STAGES.get(row.stage, '')}".strip()


def verdict(table: pd.DataFrame, hint: str, unit: str) -> str:
    """The verdict on ``hint`` from its rows of :func:`.study.hint_table`, in one sentence:
    agreement is claimed only when its interval is above one half, disagreement only below it,
    a cost only when its interval is above zero (in a split: of at least MIN_SPLIT decisions)."""
    rows = table[table.hint == hint]
    top = rows[rows.stage == "all"].iloc[0]
    if top.applies == 0:
        return "never changes the hints' choice in these hands: nothing to judge."
    share = f"it makes the hint's choice at {top.agree:.0%} [{top.agree_lo:.0%}, {top.agree_hi:.0%}] " \
            f"of the {top.applies:,} decisions where the hint changes the hints' choice"
    costly = rows[(rows.stage != "all") & (rows.cost_of_following_n >= MIN_SPLIT) & (rows.cost_of_following_lo > 0)]
    cost_all = top.cost_of_following_n > 1 and top.cost_of_following_lo > 0
    cost = (f"following it where strong play does not would cost {interval_text(top, 'cost_of_following')} "
            f"{unit} a decision" if top.cost_of_following_n > 1 else
            "strong play breaks it too seldom here to value following it")
    worst = costly.sort_values("cost_of_following", ascending=False).iloc[0] if len(costly) else None
    if worst is not None and worst.applies == top.applies and not top.agree_lo >= 0.5:
        worst = None                               # the split is the whole: said already
    there = "" if worst is None else (
        f"{_where(worst)} it makes the hint's choice at {worst.agree:.0%} of {worst.applies:,} decisions, and "
        f"following it there would cost {interval_text(worst, 'cost_of_following')} {unit} a decision")
    if top.agree_lo >= 0.5:
        text = f"strong play agrees: {share}" if worst is None else \
            f"strong play agrees except when {_where(worst)}: {share}; {there}"
    elif top.agree_hi < 0.5:
        if cost_all or worst is not None:
            text = f"strong play disagrees: {share}; {cost}" + (f"; {there}" if worst is not None else "")
        else:
            text = f"strong play mostly chooses otherwise, at no cost told apart from nothing: {share}; {cost}"
    elif worst is not None:
        text = f"strong play is divided: {share}; {there}"
    else:
        text = f"not told apart: {share}; {cost}"
    return f"{text}. {_worth(top, unit)}"


def _worth(top, unit: str) -> str:
    """What following the hint is worth against ignoring it (its choice against the one made
    without it), where it applies, in words that the interval supports."""
    if not top.gain_n > 1:
        return ""
    gain = interval_text(top, "gain")
    if top.gain_lo > 0:
        return f"Against ignoring it, following it gains {gain} {unit} a decision."
    if top.gain_hi < 0:
        return f"Against ignoring it, following it loses: {gain} {unit} a decision."
    return f"Following it and ignoring it are not told apart: {gain} {unit} a decision."


def hints_markdown(table: pd.DataFrame, game: str, facts: dict) -> str:
    """``hints.md``: what was played, the table over all decisions, a verdict per hint."""
    unit = "net game points" if game == "rubicon" else "points"
    top = table[table.stage == "all"].copy()
    for key in ("agree", "break"):
        top[key] = [f"{r[key]:.0%} [{r[key + '_lo']:.0%}, {r[key + '_hi']:.0%}]" if r.applies else ""
                    for _, r in top.iterrows()]
    for key in ("gain", "cost_of_following"):
        top[key] = [interval_text(r, key) if r[key + "_n"] > 1 else "" for _, r in top.iterrows()]
    top["applies"] = [f"{r.applies:,} ({r.applies_share:.0%})" for _, r in top.iterrows()]
    lines = [f"# The rulebook's hints against strong play: {game}", "",
             f"Made by `{facts['command']}`: {facts['hands']:,} hands of each pairing "
             f"({', '.join(facts['pairings'])}), seed {facts['seed']}; {facts['decisions']:,} decisions with a "
             f"choice. At each, the hints (`{facts['base']}`) were asked with each hint on and off in turn, the others "
             "as they are: a hint *applies* where switching it off changes their choice, and *prefers* "
             "the choice made with it (on: its weight, or 1 where that is 0). *agree*: the strong player made the hint's choice; *break*: it made the "
             f"choice without the hint. *gain*: a search's value ({facts['samples']} sampled worlds, the learned "
             f"player's roll-outs) of the hint's choice over the one without it, in {unit} of the final margin, "
             "a mean over the decisions where it applies; *cost of following*: where the strong player did not "
             "follow it, its own choice's value over the hint's. 95 % intervals.", "",
             md_table(top.rename(columns={"cost_of_following": "cost of following"}),
                      ["hint", "applies", "agree", "break", "gain", "cost of following"]), ""]
    for hint, text in zip(HINT_NAMES, HINT_TEXT):
        lines.append(f"- **{hint}** ({text}): {verdict(table, hint, unit)}")
    lines += ["", "By stage and decision kind: `hints.csv` (every row), `decisions.parquet` (every decision where a "
              "hint applies, with the search's paired means and their standard errors)."]
    return "\n".join(lines) + "\n"
