"""What a report found, in sentences: the headline figures of a study, each with its 95 %
interval and the pairing it comes from; the policies in one line each; the rules in force as a
short table; and the sample sizes, said the same way at the start of a run and at its end.
report.md and the terminal both open with these (:mod:`.report_markdown`, ``format_study``)."""
from __future__ import annotations

from ..policies.registry import resolve_policy
from ..rules import PRESETS, RuleSet
from ..tables.rule_table import rule_table, value_text
from ..tables.stats import interval_text
from .compare import points_unit, seatings


def percent(r, key: str, digits: int = 2) -> str:
    """A share of the row ``r`` (``key`` with ``key_lo``, ``key_hi``) in percent, with its
    interval: "2.15 % [1.74, 2.65]"."""
    return interval_text(r, key, f"{{:.{digits}f}}", 100).replace(" [", " % [", 1)


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
        pairs, plays = len(st.pairwise), len(seatings(st.rules.players))
        parts.append(f"{st.hands:,} deals for each of {pairs} head-to-head pairs, played {plays} times "
                     f"(the seats {'swapped' if plays == 2 else 'rotated'})")
        total += int(st.pairwise.games.sum())
    return "; ".join(parts) + f": {total:,} hands in all, seed {st.seed}"


def _head_to_head(st, unit: str) -> list[str]:
    """A sentence per head-to-head pair: who wins, by how much, and the score share."""
    out = []
    for _, r in st.pairwise.iterrows():
        diff = interval_text(r, "mean_diff")
        a, b = r.policy_a, r.policy_b
        if r.mean_diff_lo > 0 or r.mean_diff_hi < 0:
            verdict = f"**{a}** beats **{b}**" if r.mean_diff > 0 else f"**{a}** loses to **{b}**"
        else:
            verdict = f"**{a}** and **{b}** cannot be told apart"
        out.append(f"{verdict}: {diff} {unit} for {a}, who takes {percent(r, 'score_a', 1)} of the "
                   f"{r.games:,} {'games' if st.rules.is_rubicon else 'hands'} (wins and half the draws; "
                   f"head to head on the same {r.deals:,} deals in every seating).")
    return out


def _self_play(st) -> str | None:
    """The label of the study's first self-play pairing ("hints vs hints"), if any."""
    return next((k for k in st.results if k.split(" vs ")[0] == k.split(" vs ")[1]), None)


def findings(st) -> list[str]:
    """The headline figures of the study ``st`` (a :class:`~analyzer.studies.report.Study`),
    one sentence each with its 95 % interval and the pairing it comes from."""
    t = st.tables
    rubicon = st.rules.is_rubicon
    unit = points_unit(st.rules)
    out = _head_to_head(st, unit) if st.pairwise is not None else []
    first = _self_play(st)
    if first is None:
        return out
    policy = first.split(" vs ")[0]
    db = t["double_bezique"].set_index("policy").loc[policy]
    out.append(f"In **{first}**, a player scores a double bézique in {percent(db, 'scored_double')} of "
               f"hands. It receives all four cards (dealt or drawn) in {percent(db, 'received_double')}, "
               f"beside the exact chance of {100 * db.received_double_exact:.2f} % that a blind share of "
               "the pack holds them. That chance bounds scoring from above. Play can move the received "
               "share a little off it, because one card is seen: the turn-up goes to the loser of the "
               "last trick before the talon is empty, or to whoever exchanges the seven of trumps for it.")
    seat = t["seat_advantage"][t["seat_advantage"].pairing == first]
    if len(seat):
        pooled = {key: seat[key].mean() for key in ("eldest_minus_dealer", "eldest_minus_dealer_lo",
                                                    "eldest_minus_dealer_hi")}
        out.append(f"In **{first}**, the eldest hand (the dealer's opponent, who leads first) scores "
                   f"{interval_text(pooled, 'eldest_minus_dealer')} points per hand more than the dealer, "
                   "a negative figure meaning fewer (both seats pooled: their mean, its interval the mean "
                   "of theirs, which allows for any correlation between the two seats' figures).")
    b = t["brisques"].set_index("pairing").loc[first]
    per = interval_text(b, "margin_per_brisque", "{:.1f}")
    if rubicon:
        out.append(f"In **{first}**, each brisque won goes with {per} game points more for the seat that "
                   f"wins it; counting the brisques changes the game's winner in {percent(b, 'winner_changes')} "
                   "of games.")
        r = t["rubicon"].set_index("pairing").loc[first]
        out.append(f"In **{first}**, {percent(r, 'rubicon_rate', 1)} of games end in a rubicon (the loser "
                   f"under 1,000 even with his brisques, R3.9); {percent(r, 'drawn', 1)} are drawn; the "
                   f"winner scores {interval_text(r, 'winner_game_score', '{:,.0f}')} "
                   "game points (over the decided games).")
    else:
        out.append(f"In **{first}**, each brisque won moves the hand's margin by {per} points (20 of them "
                   "the brisque's own); counting the brisques changes the hand's winner in "
                   f"{percent(b, 'winner_changes')} of hands.")
    odds = t["odds"].dropna(subset=["within_ci"])
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
