"""What a report found, in sentences: the headline figures of a study, each with its 95 %
interval and the pairing it comes from; the policies in one line each; the rules in force as a
short table; and the sample sizes, said the same way at the start of a run and at its end.
report.md and the terminal both open with these (:mod:`.markdown`, ``format_study``)."""
from __future__ import annotations

import pandas as pd

from ...numbers import difference, points, share
from ...policies.spec import resolve_policy
from ...rules import PRESETS, RuleSet
from ...tables.band_table import (
    COSTING,
    DIFFERS,
    NEVER,
    OPEN,
    SAME,
    UNTOLD,
    WORTH,
    figure_verdict,
    is_share,
    worth_verdicts,
)
from ...tables.rule_table import rule_table, value_text
from ...words import hint_name
from ..play.compare import points_unit, seatings


def _diff(r, key: str = "mean_diff") -> str:
    """A difference of the row ``r`` (``key`` with its ``_lo`` and ``_hi``), signed: "+1.3 [-0.2, +2.8]"."""
    return difference(r[key], r[key + "_lo"], r[key + "_hi"])


def _share(r, key: str) -> str:
    """A share of the row ``r`` (``key`` with its ``_lo`` and ``_hi`` columns) in per cent, with
    its interval (numbers.share): "2.15 % [1.74, 2.65]"."""
    return share(r[key], r[key + "_lo"], r[key + "_hi"])


def sample_text(st) -> str:
    """How much the study played, the same words at the start of a run and at its end: hands
    per pairing, deals per head-to-head pair and their seatings, and the hands in all."""
    parts = [f"{st.hands:,} hands for each of {len(st.results)} pairings"]
    extra = [(k, r.hands) for k, r in st.results.items() if r.hands != st.hands]
    if extra:
        parts[0] = (f"{st.hands:,} hands for each of {len(st.results) - len(extra)} pairings, "
                    + ", ".join(f"{n:,} for {k}" for k, n in extra))
    total = sum(r.hands for r in st.results.values())
    if st.pairwise is not None:
        plays = len(seatings(st.rules.players))
        by_deals = st.pairwise.groupby("deals").size().sort_index(ascending=False)
        pairs = " and ".join(f"{d:,} deals for each of {n} head-to-head pairs" for d, n in by_deals.items())
        parts.append(f"{pairs}, played {plays} times (the seats {'swapped' if plays == 2 else 'rotated'})")
        total += int(st.pairwise.games.sum())
    if st.ablation is not None:
        deals = int(st.ablation.deals.iloc[0])
        parts.append(f"{deals:,} deals for each hint's worth against {st.strong.policy} ({len(st.ablation) + 1} "
                     "policies, seats swapped)")
        total += len(seatings(st.rules.players)) * deals * (len(st.ablation) + 1)
    return "; ".join(parts) + f": {total:,} hands in all, seed {st.seed}"


def _head_to_head(st, pairs, unit: str) -> list[str]:
    """A sentence per head-to-head pair of ``pairs``: who wins, by how much, and the score share."""
    out = []
    for _, r in pairs.iterrows():
        diff = _diff(r)
        a, b = r.policy_a, r.policy_b
        if r.mean_diff_lo > 0 or r.mean_diff_hi < 0:
            verdict = f"**{a}** beats **{b}**" if r.mean_diff > 0 else f"**{a}** loses to **{b}**"
        else:
            verdict = f"**{a}** and **{b}** cannot be told apart"
        out.append(f"{verdict}: {diff} {unit} for {a}, who takes {_share(r, 'score_a')} of the "
                   f"{r.games:,} {'games' if st.rules.is_rubicon else 'hands'} (wins and half the draws; "
                   f"head to head on the same {r.deals:,} deals in every seating).")
    return out


def _self_play(st) -> str | None:
    """The label of the study's first self-play pairing of the heuristics ("hints vs hints"),
    if any (the strong players' pairings apart)."""
    strong = st.strong.players if st.strong else ()
    return next((k for k in st.results if k.split(" vs ")[0] == k.split(" vs ")[1] and k.split(" vs ")[0]
                 not in strong), None)


def figure_text(value: float, unit: str, lo: float | None = None, hi: float | None = None) -> str:
    """A band figure's value in its unit (band_table's), with its interval when ``lo`` and
    ``hi`` are given: a share in per cent, anything else as points (numbers.py)."""
    return (share if is_share(unit) else points)(value, lo, hi)


def band_sentences(st) -> list[str]:
    """A sentence per headline figure over the strong players (the ``strong_band`` table):
    each player's estimate with its interval, the band, and whether the figure is the same for
    every strong player (they agree within 5 %), differs between them (two surely differ by more)
    or is not settled yet (:func:`~analyzer.tables.band_table.figure_verdict`, as the chart says)."""
    band = st.tables["strong_band"]
    players = list(dict.fromkeys(band.player))
    out = [f"Strong play is {len(players)} players trained apart ({', '.join(f'**{p}**' for p in players)}; "
           f"self-play on the same deals, {st.band_hands()}). A figure is **{SAME}** when every "
           f"two of them differ by less than 5 % of it (their difference, with its interval); it **{DIFFERS}** "
           f"when two of them surely do; else it is **{OPEN}**."]
    for key in dict.fromkeys(band.figure):
        g = band[band.figure == key]
        unit = g.unit.iloc[0]
        each = "; ".join(f"{r.player} {figure_text(r.value, unit, r.value_lo, r.value_hi)}" for _, r in g.iterrows())
        out.append(f"{g.what.iloc[0][0].upper() + g.what.iloc[0][1:]} ({unit}) under strong play: "
                   f"{figure_text(g.band_lo.iloc[0], unit)} to {figure_text(g.band_hi.iloc[0], unit)} over "
                   f"the strong players, **{figure_verdict(g)}** ({each}).")
    return out


def _pairing_figures(st, label: str, under: str) -> list[str]:
    """The headline figures of one self-play pairing: double bézique, the eldest hand's
    advantage, the brisques and (Rubicon) the rubicon rates, each sentence opening ``under``."""
    t = st.tables
    policy = label.split(" vs ")[0]
    out = []
    db = t["double_bezique"].set_index("policy").loc[policy]
    out.append(f"{under}, a player scores a double bézique in {_share(db, 'scored_double')} of "
               f"hands. It receives all four cards (dealt or drawn) in {_share(db, 'received_double')}, "
               f"beside the exact chance of {share(db.received_double_exact)} that a blind share of "
               "the pack holds them. That chance bounds scoring from above. Play can move the received "
               "share a little off it, because one card is seen: the turn-up goes to the loser of the "
               "last trick before the talon is empty, or to whoever exchanges the seven of trumps for it.")
    seat = t["seat_advantage"][t["seat_advantage"].pairing == label]
    if len(seat):
        pooled = {key: seat[key].mean() for key in ("eldest_minus_dealer", "eldest_minus_dealer_lo",
                                                    "eldest_minus_dealer_hi")}
        out.append(f"{under}, the eldest hand (the dealer's opponent, who leads first) scores "
                   f"{_diff(pooled, 'eldest_minus_dealer')} "
                   "points per hand more than the dealer, "
                   "a negative figure meaning fewer (both seats pooled: their mean, its interval the mean "
                   "of theirs, which allows for any correlation between the two seats' figures).")
    b = t["brisques"].set_index("pairing").loc[label]
    per = points(b.margin_per_brisque, b.margin_per_brisque_lo, b.margin_per_brisque_hi)
    if st.rules.is_rubicon:
        out.append(f"{under}, each brisque won goes with {per} game points more for the seat that "
                   f"wins it; counting the brisques changes the game's winner in {_share(b, 'winner_changes')} "
                   "of games.")
        r = t["rubicon"].set_index("pairing").loc[label]
        out.append(f"{under}, {_share(r, 'rubicon_rate')} of games end in a rubicon (the loser "
                   f"under 1,000 even with his brisques, R3.9); {_share(r, 'drawn')} are drawn; the "
                   f"winner scores {points(r.winner_game_score, r.winner_game_score_lo, r.winner_game_score_hi)} "
                   "game points (over the decided games).")
    else:
        out.append(f"{under}, each brisque won moves the hand's margin by {per} points (20 of them "
                   "the brisque's own); counting the brisques changes the hand's winner in "
                   f"{_share(b, 'winner_changes')} of hands.")
    return out


def _hint_worth(st, unit: str) -> list[str]:
    """The hints' worth against the strong player, in one sentence: those that pay, those that
    cost, and those the deals cannot tell from nothing (each hint's verdict
    :func:`~analyzer.tables.band_table.worth_verdict`, as the chart colours it)."""
    df = st.ablation
    said = pd.Series(worth_verdicts(df), index=df.index)
    pay = df[said == WORTH].sort_values("mean_diff", ascending=False)
    cost = df[said == COSTING].sort_values("mean_diff")
    parts = []
    if len(pay):
        parts.append(f"{WORTH}: " + ", ".join(f"{hint_name(r.hint)} {_diff(r)}" for _, r in pay.iterrows()))
    if len(cost):
        parts.append(f"{COSTING}: " + ", ".join(f"{hint_name(r.hint)} {_diff(r)}" for _, r in cost.iterrows()))
    for words in (UNTOLD, NEVER):
        if (said == words).any():
            parts.append(f"{words}: " + ", ".join(map(hint_name, df[said == words].hint)))
    deals = int(df.deals.iloc[0])
    return [f"Against **{st.strong.policy}**, the rulebook's hints (each switched off in turn, {deals:,} "
            f"deals) are {'; '.join(parts)} ({unit} for the hints policy that keeps the hint)."]


def findings(st) -> list[str]:
    """The headline figures of the study ``st`` (a :class:`~analyzer.studies.report.study.Study`),
    one sentence each with its 95 % interval and the pairing it comes from: first under strong
    play (the headline figures over the strong players, the strong player's self-play, it
    against each heuristic, the hints' worth against it), then the heuristics among themselves
    and in self-play, then the deal-time odds."""
    unit = points_unit(st.rules)
    out = []
    pw = st.pairwise
    if st.strong is not None:
        strong = st.strong.policy
        if "strong_band" in st.tables:
            out += band_sentences(st)
        out += _pairing_figures(st, st.headline, f"Under strong play (**{st.headline}**, "
                                                 f"{st.results[st.headline].hands:,} hands)")
        if pw is not None:
            mine = (pw.policy_a == strong) | (pw.policy_b == strong)
            out += _head_to_head(st, pw[mine], unit)
            pw = pw[~mine]
        if st.ablation is not None:
            out += _hint_worth(st, unit)
    if pw is not None and len(pw):
        out += _head_to_head(st, pw, unit)
    first = _self_play(st)
    if first is not None:
        out += _pairing_figures(st, first, f"In **{first}**")
    odds = st.tables["odds"].dropna(subset=["within_ci"])
    inside = int(odds.within_ci.astype(bool).sum())
    out.append(f"Of the {len(odds)} deal-time events with exact odds, the simulated share of {inside} falls "
               f"within its 95 % interval of the exact value ({100 * inside / max(len(odds), 1):.0f} %; "
               "about 95 % is expected by chance alone).")
    return out


def policy_lines(st) -> list[str]:
    """Each policy of the study, in one line: its name and what it does."""
    names = list(dict.fromkeys(p for k in st.results for p in k.split(" vs ")))
    if st.pairwise is not None:
        names = list(dict.fromkeys([*names, *st.pairwise.policy_a, *st.pairwise.policy_b]))
    return [f"**{n}**: {resolve_policy(n).description}" for n in names]


def rules_rows(rules: RuleSet) -> list[tuple[str, str]]:
    """The rules in force as a few (what, value) rows: the game's shape, then each option
    changed from the preset (``bezique rules`` lists every option)."""
    table = rule_table(rules)
    by = {r["option"]: r for r in table["options"]}
    rows = [("preset", f"`{table['variant']}`" if rules.name in PRESETS else f"{table['preset']} (changed)"),
            ("players and cards", f"{by['players']['value']} players, {by['packs']['value']} packs "
                                  f"({table['cards']} cards), {by['hand_size']['value']} cards each"),
            ("game", f"to {by['target']['value']:,} points" if not rules.is_rubicon else
             f"one deal; rubicon under {by['rubicon_limit']['value']:,} (R3.9)")]
    changed = [(f"`{r['option']}`", f"{value_text(r['value'])} (preset {value_text(r['preset'])}; "
                                    f"{', '.join(r['rules'])})") for r in table["options"] if r["changed"]]
    return rows + (changed or [("options changed from the preset", "none")])


def rules_command(rules: RuleSet) -> str:
    """The ``bezique rules`` command that lists every option of ``rules``."""
    table = rule_table(rules)
    return " ".join(["bezique rules", "--variant", table["preset"], *(f"--rule {i}" for i in table["rule_items"])])
