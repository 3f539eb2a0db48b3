"""The published study: simulate policy pairings, build every table and chart, write report.md."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from . import study
from .exact import (
    bezique_levels,
    first_stage_tricks,
    odds_table,
    p_receives_bezique,
    p_receives_bezique_by_trick,
)
from .output import atomic_write, write_table
from .rules import RuleSet
from .simulate import simulate
from .stats import wilson_ci
from .tallies import score_bin

PAIRINGS = (("hints", "hints"), ("greedy", "greedy"), ("random", "random"), ("hints", "greedy"))
HEAD_TO_HEAD = ("hints", "greedy", "random")     # compared pair by pair, seats swapped


def hands_played(hands: int) -> int:
    """Hands a report of ``hands`` hands per pairing plays: the pairings, then each pair of
    HEAD_TO_HEAD on ``hands`` deals played twice."""
    n = len(HEAD_TO_HEAD)
    return hands * len(PAIRINGS) + 2 * hands * n * (n - 1) // 2


@dataclass
class Study:
    """Everything a report is built from."""

    rules: RuleSet
    hands: int
    seed: int
    results: dict           # "A vs B" -> simulate Result
    odds: object            # DataFrame
    pairwise: object = None  # DataFrame: compare.compare's pairs among HEAD_TO_HEAD

    @property
    def by_pairing(self) -> dict:
        """Tallies by pairing label."""
        return {k: r.tallies for k, r in self.results.items()}

    @property
    def by_policy(self) -> dict:
        """Tallies of self-play pairings, by policy name (both seats pooled)."""
        return {k.split(" vs ")[0]: r.tallies for k, r in self.results.items()
                if k.split(" vs ")[0] == k.split(" vs ")[1]}


def run_study(rules: RuleSet, hands: int, seed: int, threads: int | None = None,
              pairings=PAIRINGS, progress=None, head_to_head=HEAD_TO_HEAD) -> Study:
    """Simulate ``hands`` hands of each pairing (same seed, so the same deals), the deal-time
    odds on ``hands`` deals, and compare the ``head_to_head`` policies pair by pair on the
    same ``hands`` deals, each played twice with the seats swapped."""
    from .compare import compare
    results = {}
    for a, b in pairings:
        results[f"{a} vs {b}"] = simulate(rules, [a, b], hands, seed, threads=threads, progress=progress)
    pairwise = None
    if len(head_to_head) >= 2:
        deals = (lambda d: progress(2 * d)) if progress else None
        pairwise = compare(rules, list(head_to_head), hands, seed, threads=threads or os.cpu_count() or 1,
                           progress=deals)["pairs"]
    return Study(rules, hands, seed, results, odds_table(rules, hands, seed), pairwise)


def build_tables(st: Study) -> dict:
    """Every table of the report, by file name."""
    rubicon = st.rules.is_rubicon
    exact_receive = {k: p_receives_bezique(st.rules, k) for _, k in bezique_levels(st.rules)[1:]}
    tables = {
        "odds": _odds_with_play(st),
        "summary": _stack({k: r.tables["summary"] for k, r in st.results.items()}, "pairing"),
        "combinations": study.combinations_table(st.by_policy),
        "double_bezique": study.double_bezique_table(st.by_policy, exact_receive),
        "double_bezique_by_trick": study.bezique_by_trick_table(st.by_policy, _receive_bound_by_trick(st.rules)),
        "brisques": study.brisque_table(st.by_pairing, rubicon),
        "score_distribution": study.score_distribution_table(st.by_policy, score_bin(st.rules)),
        "seat_advantage": study.seat_table(st.by_pairing),
    }
    if st.pairwise is not None:
        tables["pairwise"] = st.pairwise
    if rubicon:
        tables["rubicon"] = study.rubicon_rates_table(st.by_pairing)
        tables["game_scores"] = study.game_score_table(st.by_pairing)
        tables["loser_totals"] = study.loser_total_table(st.by_pairing, score_bin(st.rules))
    else:
        tables["sevens"] = study.sevens_table(st.by_policy)
        tables["game_length"] = study.game_length_table(st.by_policy)
    return tables


def _odds_with_play(st: Study):
    """The odds table, its receive rows (which dealt hands alone cannot show) simulated by the
    play of the first pairing: the share of seat-hands (both seats) that received the cards."""
    label, t = next(iter(st.by_pairing.items()))
    df = st.odds.copy()
    n = t.hands * t.n_seats
    for name, k in bezique_levels(st.rules)[1:]:
        row = df.event == f"receives_{name}"
        share, lo, hi = (float(v) for v in wilson_ci(t.received[:, k].sum(), n))
        df.loc[row, ["simulated", "simulated_lo", "simulated_hi", "sample"]] = [share, lo, hi, n]
        df.loc[row, "within_ci"] = bool(lo <= df.loc[row, "exact_decimal"].iloc[0] <= hi)
        df.loc[row, "description"] += f"; simulated: the hands of {label}, both seats"
    return df


def _receive_bound_by_trick(rules: RuleSet) -> dict:
    """Level (double, up to treble) -> the exact chance of having received its cards by each
    trick of the first stage."""
    tricks = range(first_stage_tricks(rules) + 1)
    return {level: [p_receives_bezique_by_trick(rules, level, k) for k in tricks]
            for level in range(2, min(rules.packs, 3) + 1)}


def _stack(frames: dict, key: str):
    import pandas as pd
    return pd.concat([df.assign(**{key: k}) for k, df in frames.items()], ignore_index=True)


def build_charts(st: Study, tables: dict, out_dir) -> dict:
    """Draw and write every chart (PNG and SVG): name -> list of paths."""
    from . import plots

    name = f"{st.rules.name} bézique"
    sample = f"{st.hands:,} hands per pairing, seed {st.seed}"
    rubicon = st.rules.is_rubicon
    figures = {
        "odds": plots.odds_chart(tables["odds"], f"{name}: deal-time odds, exact and simulated "
                                 f"({st.hands:,} deals, seed {st.seed})"),
        "double_bezique_by_trick": plots.bezique_by_trick_chart(
            tables["double_bezique_by_trick"], f"{name}: béziques held and scored by trick ({sample})"),
        "score_distribution": plots.score_distribution_chart(
            tables["score_distribution"], score_bin(st.rules), f"{name}: hand scores by policy ({sample})"),
        "score_at_least": plots.score_at_least_chart(
            tables["score_distribution"], f"{name}: P(hand score ≥ x) by policy ({sample})"),
        "brisque_value": plots.brisque_chart(tables["brisques"], rubicon, f"{name}: brisques ({sample})"),
        "combinations": plots.combinations_chart(tables["combinations"],
                                                 f"{name}: combinations declared ({sample})"),
    }
    if rubicon:
        figures["rubicon_rates"] = plots.rubicon_rate_chart(tables["rubicon"], f"{name}: rubicons ({sample})")
        figures["game_scores"] = plots.game_score_chart(tables["game_scores"],
                                                        f"{name}: winner's game score ({sample})")
        figures["loser_totals"] = plots.loser_total_chart(tables["loser_totals"], score_bin(st.rules),
                                                          f"{name}: the loser's total ({sample})")
    else:
        figures["game_length"] = plots.game_length_chart(
            tables["game_length"], f"{name}: hands to reach the target (R2.24; {sample})")
    if "pairwise" in tables:
        figures["pairwise"] = plots.pairwise_chart(
            tables["pairwise"], list(dict.fromkeys([*tables["pairwise"].policy_a, *tables["pairwise"].policy_b])),
            "games" if rubicon else "hands",
            f"{name}: head to head\n({st.hands:,} deals per pair, each played twice with the seats swapped; "
            f"seed {st.seed})")
    return {key: plots.save_chart(fig, out_dir, key) for key, fig in figures.items()}


def _md_table(df, cols, fmt="{:.4g}") -> str:
    head = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    body = ""
    for _, r in df[cols].iterrows():
        body += "| " + " | ".join(fmt.format(v) if isinstance(v, float) else str(v) for v in r) + " |\n"
    return head + body


def _ci(r, key, scale=1.0, digits=4) -> str:
    return (f"{scale * r[key]:.{digits}g} [{scale * r[key + '_lo']:.{digits}g}, "
            f"{scale * r[key + '_hi']:.{digits}g}]")


def write_markdown(st: Study, tables: dict, chart_paths: dict, out_dir, command: str) -> Path:
    """report.md: sample sizes, seeds, the reproducing command, the charts and key numbers."""
    rubicon = st.rules.is_rubicon
    lines = [f"# {st.rules.name.capitalize()} bézique: the study", "",
             f"Reproduce: `{command}`", "",
             f"- rules: {st.rules.name} ({', '.join(f'{k}={v}' for k, v in st.rules.describe().items() if k != 'name')})",
             f"- {st.hands:,} hands for each pairing: {', '.join(st.results)}; seed {st.seed} "
             "(every pairing plays the same deals); hand *i* is dealt by seat *i* mod 2",
             "- every share has its 95 % Wilson interval, every mean its 95 % normal interval "
             "(in brackets); definitions: RULES.md section 5", ""]
    lines += ["## Deal-time odds: exact and simulated", "", f"![odds]({Path(chart_paths['odds'][0]).name})", "",
              "In a dealt hand (both seats' hands of each deal counted; the turn-up once per deal) and, "
              "for the cards received over the hand, in the play of the first pairing.", "",
              _md_table(tables["odds"], ["event", "exact", "exact_decimal", "simulated", "simulated_lo",
                                         "simulated_hi", "within_ci"]), ""]
    lines += ["## Double bézique", "",
              f"![béziques by trick]({Path(chart_paths['double_bezique_by_trick'][0]).name})", "",
              "By each trick: the share of a seat's hands in which it has scored the bézique, in which it "
              "has held all its cards (in hand or on the table), and the exact chance of having received "
              "them (the dealt hand and one draw per trick are a uniformly random set of cards of that "
              "size, since each pair of talon cards is split on a trick decided before either is seen): "
              "each bounds the one before.", ""]
    db = tables["double_bezique"]
    for _, r in db.iterrows():
        text = (f"- **{r.policy}**: scores a double bézique in {_ci(r, 'scored_double', 100)} % of its hands; "
                f"holds all four cards at some moment in {_ci(r, 'held_double', 100)} %; holds them but never "
                f"scores a double in {_ci(r, 'held_not_scored', 100)} %: a card of it was played "
                f"{_ci(r, 'held_not_scored_card_played', 100)} %, the talon ran out "
                f"{_ci(r, 'held_not_scored_talon_ran_out', 100)} %; receives the cards in "
                f"{100 * r.received_double:.3g} % (exact upper bound {100 * r.received_double_exact:.3g} %)")
        if rubicon and "scored_treble" in r:
            text += f"; treble {_ci(r, 'scored_treble', 100)} %"
        lines.append(text)
    lines.append("")
    if rubicon:
        lines += ["## Rubicons", "", f"![rubicon rates]({Path(chart_paths['rubicon_rates'][0]).name})", "",
                  f"![loser's total]({Path(chart_paths['loser_totals'][0]).name})", "",
                  "The loser is rubiconed when his total, even with his brisques added, is under 1000 (R3.9).", "",
                  f"![game scores]({Path(chart_paths['game_scores'][0]).name})", ""]
        for _, r in tables["rubicon"].iterrows():
            lines.append(f"- **{r.pairing}**: rubicon rate {_ci(r, 'rubicon_rate', 100)} %, saved by brisques "
                         f"{_ci(r, 'saved_by_brisques', 100)} %, winner's game score "
                         f"{_ci(r, 'winner_game_score')}")
        lines.append("")
    lines += ["## Brisques", "", f"![brisque value]({Path(chart_paths['brisque_value'][0]).name})", ""]
    for _, r in tables["brisques"].iterrows():
        slope = f"{r.margin_per_brisque:.3g} [{r.margin_per_brisque_lo:.3g}, {r.margin_per_brisque_hi:.3g}]"
        lines.append(f"- **{r.pairing}**: seat 0 wins {_ci(r, 'brisque_points_seat0')} brisque points per hand, "
                     f"seat 1 {_ci(r, 'brisque_points_seat1')}; the {'game' if rubicon else 'hand'} winner "
                     f"changes when brisques are counted in {_ci(r, 'winner_changes', 100)} %; "
                     + (f"each brisque won by seat 0 goes with {slope} game points more for seat 0"
                        if rubicon else f"each brisque won by seat 0 moves the final margin by {slope} points"))
    lines += ["", f"Margin per brisque: {tables['brisques'].margin_unit.iloc[0]}; one brisque won by one "
              "seat is one lost by the other, the total being fixed. "
              + ("Brisques only break ties and save rubicons in Rubicon (R3.8), so the slope says how "
                 "winning brisques goes with winning the game, not what a brisque is worth."
                 if rubicon else "Of this, 20 points are the brisque's own (10 to the seat that wins it, "
                 "10 fewer to the other); the rest is what else goes with winning it."), ""]
    lines += ["## Combinations", "", f"![combinations]({Path(chart_paths['combinations'][0]).name})", "",
              "Royal marriage and trump sequence: in the final trump suit; common marriage and plain "
              "sequence: in any other suit.", "",
              _md_table(tables["combinations"], ["policy", "combination", "declared_share", "declared_share_lo",
                                                 "declared_share_hi", "per_hand", "points_per_hand",
                                                 "share_of_points"]), ""]
    lines += ["## Scores and seats", "", f"![scores]({Path(chart_paths['score_distribution'][0]).name})", "",
              f"![scores at least x]({Path(chart_paths['score_at_least'][0]).name})", "",
              _md_table(tables["seat_advantage"], ["pairing", "seat", "as_eldest", "as_dealer",
                                                   "eldest_minus_dealer"]), ""]
    if not rubicon:
        lines += ["## The seven of trumps", "", _md_table(tables["sevens"], ["policy", "seven_points_per_hand", "lo", "hi"]), "",
                  "## Hands to reach 1000, 1500, 2000 (R2.24)", "",
                  f"![game length]({Path(chart_paths['game_length'][0]).name})", "",
                  _md_table(tables["game_length"], ["policy", "target", "games", "mean_hands", "mean_hands_lo",
                                                    "mean_hands_hi", "median_hands", "p90_hands"]), ""]
    if "pairwise" in tables:
        pw = tables["pairwise"]
        what = "net game points per game" if rubicon else "points per hand"
        lines += ["## Head to head", "", f"![head to head]({Path(chart_paths['pairwise'][0]).name})", "",
                  f"Each pair plays the study's {st.hands:,} deals (seed {st.seed}) twice, the seats "
                  f"swapped; the score share counts wins and half the draws of the {2 * st.hands:,} "
                  f"{'games' if rubicon else 'hands'}, the mean difference is in {what}.", ""]
        for _, r in pw.iterrows():
            lines.append(f"- **{r.policy_a} against {r.policy_b}**: score share {_ci(r, 'score_a', 100)} %, Elo "
                         f"{r.elo_a:+.0f} [{r.elo_a_lo:+.0f}, {r.elo_a_hi:+.0f}], mean difference "
                         f"{_ci(r, 'mean_diff')}")
        lines.append("")
    lines += ["## Files", "", "Every table is in this directory as CSV and Parquet; every chart as PNG and SVG.", ""]
    return atomic_write(Path(out_dir) / "report.md", lambda p: Path(p).write_text("\n".join(lines), encoding="utf-8"))


def write_report(rules: RuleSet, hands: int, seed: int, out_dir, threads=None, progress=None,
                 command: str | None = None) -> dict:
    """Run the study and write every table, chart and report.md into ``out_dir``."""
    st = run_study(rules, hands, seed, threads, progress=progress)
    tables = build_tables(st)
    written = []
    for name, df in tables.items():
        written += write_table(df, out_dir, name)
    chart_paths = build_charts(st, tables, out_dir)
    for paths in chart_paths.values():
        written += paths
    command = command or "bezique " + " ".join(sys.argv[1:])
    written.append(write_markdown(st, tables, chart_paths, out_dir, command))
    return {"study": st, "tables": tables, "charts": chart_paths, "files": written}
