"""report.md: the study's figures in words, its tables and charts, and how to reproduce it."""
from __future__ import annotations

from pathlib import Path

from ..run.output import atomic_write
from .compare import points_unit, seatings


def _cell(v, fmt: str) -> str:
    """A table cell: numbers formatted, a missing value (NaN, None) as an en dash."""
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    return fmt.format(v) if isinstance(v, float) else str(v)


def md_table(df, cols, fmt="{:.4g}") -> str:
    """``df``'s columns ``cols`` as a Markdown table; rows with no value in any of the
    numeric columns are left out (they say nothing)."""
    df = df[cols]
    numeric = [c for c in cols if df[c].dtype.kind in "fiu"]
    if numeric:
        df = df[df[numeric].notna().any(axis=1)]
    head = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    body = ""
    for _, r in df.iterrows():
        body += "| " + " | ".join(_cell(v, fmt) for v in r) + " |\n"
    return head + body


def _summary(st) -> list[str]:
    """The headline table: each pairing's seats with their mean score, share of hands won,
    brisque points and double-bézique rate, each with its interval."""
    df = st.tables["summary"].copy()
    for key, lo, hi, scale, digits in (("mean_score", "mean_score_lo", "mean_score_hi", 1, 4),
                                       ("win_share", "win_share_lo", "win_share_hi", 100, 4),
                                       ("brisque_points", "brisque_points_lo", "brisque_points_hi", 1, 4),
                                       ("double_bezique_rate", "double_bezique_lo", "double_bezique_hi", 100, 3)):
        df[key] = [f"{scale * v:.{digits}g} [{scale * a:.{digits}g}, {scale * b:.{digits}g}]"
                   for v, a, b in zip(df[key], df[lo], df[hi])]
    df = df.rename(columns={"mean_score": "mean score", "win_share": "hands won %",
                            "brisque_points": "brisque points", "double_bezique_rate": "double bézique %"})
    cols = ["pairing", "seat", "policy", "hands", "mean score", "hands won %", "brisque points", "double bézique %"]
    return ["## Summary", "", "Per pairing and seat, with 95 % intervals"
            + (" (Rubicon: a hand is one game; its score leaves out brisques, R3.8)" if st.rules.is_rubicon else "")
            + ".", "", md_table(df, cols), ""]


def _ci(r, key, scale=1.0, digits=4) -> str:
    return (f"{scale * r[key]:.{digits}g} [{scale * r[key + '_lo']:.{digits}g}, "
            f"{scale * r[key + '_hi']:.{digits}g}]")


def _hands_line(st) -> str:
    """How many hands each pairing played (one number when they all played the same)."""
    counts = {k: r.hands for k, r in st.results.items()}
    same = [k for k, n in counts.items() if n == st.hands]
    line = f"- {st.hands:,} hands for each pairing: {', '.join(same)}"
    rest = [f"{k}: {n:,} hands" for k, n in counts.items() if n != st.hands]
    return line + ("; " + ", ".join(rest) if rest else "")


def write_markdown(st, chart_paths: dict, out_dir, command: str) -> Path:
    """Write report.md of the study ``st`` (a :class:`~analyzer.studies.report.Study`) into
    ``out_dir`` (sample sizes, seeds, the reproducing command, the
    charts of ``chart_paths`` and key numbers) and return its path."""
    tables = st.tables
    rubicon = st.rules.is_rubicon
    lines = [f"# {st.rules.name.capitalize()} bézique: the study", "",
             f"Reproduce: `{command}`", "",
             f"- rules: {st.rules.name} ({', '.join(f'{k}={v}' for k, v in st.rules.describe().items() if k != 'name')})",
             _hands_line(st) + f"; seed {st.seed} "
             f"(every pairing plays the same deals); hand *i* is dealt by seat *i* mod {st.rules.players}"
             + ("; a pairing 'a vs b' seats a, b, a … round the table" if st.rules.players > 2 else ""),
             "- every share has its 95 % Wilson interval, every mean its 95 % normal interval "
             "(in brackets); definitions: docs/rules.md section 5 (in the project's repository)", ""]
    lines += _summary(st)
    lines += ["## Deal-time odds: exact and simulated", "", f"![odds]({Path(chart_paths['odds'][0]).name})", "",
              "In a dealt hand (every seat's hand of each deal counted; the turn-up, 'some player' and "
              "the partners' events once per deal or partnership) and, "
              "for the cards received over the hand, in the play of the first pairing.", "",
              md_table(tables["odds"], ["event", "exact", "exact_decimal", "simulated", "simulated_lo",
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
                  "The loser is rubiconed when his total, even with his brisques added, is under 1000 (R3.9). "
                  "A game whose totals and brisques are equal (or whose totals with brisques are, once the "
                  "brisques saved the rubicon) is drawn, null and void (Law 61): the rates are shares of "
                  "all games, the loser's total and the winner's game score are over the decided games.", "",
                  f"![game scores]({Path(chart_paths['game_scores'][0]).name})", ""]
        for _, r in tables["rubicon"].iterrows():
            lines.append(f"- **{r.pairing}**: rubicon rate {_ci(r, 'rubicon_rate', 100)} %, drawn "
                         f"{_ci(r, 'drawn', 100)} %, saved by brisques {_ci(r, 'saved_by_brisques', 100)} %, "
                         f"winner's game score {_ci(r, 'winner_game_score')} (over the decided games)")
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
              md_table(tables["combinations"], ["policy", "combination", "declared_share", "declared_share_lo",
                                                 "declared_share_hi", "per_hand", "points_per_hand",
                                                 "share_of_points"]), ""]
    lines += ["## Scores and seats", "", f"![scores]({Path(chart_paths['score_distribution'][0]).name})", "",
              f"![scores at least x]({Path(chart_paths['score_at_least'][0]).name})", "",
              md_table(tables["seat_advantage"], ["pairing", "seat", "as_eldest", "as_dealer",
                                                   "eldest_minus_dealer"]), ""]
    if not rubicon:
        lines += ["## The seven of trumps", "", md_table(tables["sevens"], ["policy", "seven_points_per_hand", "lo", "hi"]), "",
                  "## Hands to reach 1000, 1500, 2000 (R2.24)", "",
                  f"![game length]({Path(chart_paths['game_length'][0]).name})", "",
                  md_table(tables["game_length"], ["policy", "target", "games", "mean_hands", "mean_hands_lo",
                                                    "mean_hands_hi", "median_hands", "p90_hands"]), ""]
    if "pairwise" in tables:
        plays = len(seatings(st.rules.players))
        seating_text = {2: "the seats swapped", 3: "one against two and two against one",
                        4: "one partnership against the other, then swapped"}[st.rules.players]
        pw = tables["pairwise"]
        what = points_unit(st.rules)
        lines += ["## Head to head", "", f"![head to head]({Path(chart_paths['pairwise'][0]).name})", "",
                  f"Each pair plays the study's {st.hands:,} deals (seed {st.seed}) in every seating "
                  f"({plays}: {seating_text}); the score share counts wins and half the draws of the "
                  f"{plays * st.hands:,} "
                  f"{'games' if rubicon else 'hands'}, the mean difference is in {what}.", ""]
        for _, r in pw.iterrows():
            lines.append(f"- **{r.policy_a} against {r.policy_b}**: score share {_ci(r, 'score_a', 100)} %, Elo "
                         f"{r.elo_a:+.0f} [{r.elo_a_lo:+.0f}, {r.elo_a_hi:+.0f}], mean difference "
                         f"{_ci(r, 'mean_diff')}")
        lines.append("")
    lines += ["## Files", "", "Every table is in this directory as CSV and Parquet; every chart as PNG and SVG.", ""]
    return atomic_write(Path(out_dir) / "report.md", lambda p: Path(p).write_text("\n".join(lines), encoding="utf-8"))
