"""report.md: the study's figures in words, its tables and charts, and how to reproduce it."""
from __future__ import annotations

from pathlib import Path

from ..plots import rules_title
from ..run.output import atomic_write
from .compare import points_unit, seatings
from .report_findings import figure_text, findings, percent, policy_lines, rules_command, rules_rows, sample_text


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
    return shown_table(df, [(c, (lambda c: lambda r: _cell(r[c], fmt))(c)) for c in cols])


def shown_table(df, columns) -> str:
    """``df`` (a DataFrame, or a list of rows) as a Markdown table for people: ``columns`` is a
    list of (header, row -> text); an empty header is written "| |"."""
    rows = (r for _, r in df.iterrows()) if hasattr(df, "iterrows") else df
    head = "|" + "|".join(f" {h} " if h else " " for h, _ in columns) + "|\n|" + "---|" * len(columns) + "\n"
    return head + "".join("| " + " | ".join(f(r) for _, f in columns) + " |\n" for r in rows)


def _pct_ci(r, key: str, lo: str | None = None, hi: str | None = None, digits: int = 3) -> str:
    """A share and its interval in percent ("2.15 [1.74, 2.65]"), or an en dash when missing."""
    v, a, b = r[key], r[lo or key + "_lo"], r[hi or key + "_hi"]
    if v != v:
        return "–"
    return f"{100 * v:.{digits}g} [{100 * a:.{digits}g}, {100 * b:.{digits}g}]"


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
    df = df.rename(columns={"mean_score": "mean score (points)", "win_share": "hands won %",
                            "brisque_points": "brisque points per hand", "double_bezique_rate": "double bézique %"})
    cols = ["pairing", "seat", "policy", "hands", "mean score (points)", "hands won %", "brisque points per hand",
            "double bézique %"]
    return ["## Summary", "", "Per pairing and seat, with 95 % intervals"
            + (" (Rubicon: a hand is one game; its score leaves out brisques, R3.8)" if st.rules.is_rubicon else "")
            + ".", "", md_table(df, cols), ""]


def _band_cell(band, figure: str, player: str) -> str:
    """One strong player's estimate of one band figure with its interval."""
    r = band[(band.figure == figure) & (band.player == player)].iloc[0]
    return figure_text(r.value, r.unit, r.value_lo, r.value_hi)


def _ci(r, key, scale=1.0, digits=4) -> str:
    return (f"{scale * r[key]:.{digits}g} [{scale * r[key + '_lo']:.{digits}g}, "
            f"{scale * r[key + '_hi']:.{digits}g}]")


def write_markdown(st, chart_paths: dict, out_dir, command: str) -> Path:
    """Write report.md of the study ``st`` (a :class:`~analyzer.studies.report.Study`) into
    ``out_dir`` (sample sizes, seeds, the reproducing command, the
    charts of ``chart_paths`` and key numbers) and return its path."""
    tables = st.tables
    rubicon = st.rules.is_rubicon
    title = rules_title(st.rules)
    lines = [f"# {title[0].upper() + title[1:]}: the study", "", "## What this study found", "",
             "Each figure with its 95 % interval in brackets (Wilson for shares, normal for means).", ""]
    lines += [f"- {s}" for s in findings(st)]
    lines += ["", "## Policies", ""] + [f"- {s}" for s in policy_lines(st)]
    lines += ["", "## Rules in force", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rules_rows(st.rules)]
    lines += ["", f"Every option with the rule it implements: `{rules_command(st.rules)}`.", "",
              "## How it was played", "",
              f"- {sample_text(st)}; every pairing plays the same deals; hand *i* is dealt by seat *i* mod "
              f"{st.rules.players}" + ("; a pairing 'a vs b' seats a, b, a … round the table"
                                       if st.rules.players > 2 else ""),
              f"- reproduce: `{command}`",
              "- definitions of every figure: docs/tables.md and docs/rules.md section 5 (in the project's "
              "repository); the tables in this directory (CSV, Parquet) hold shares as fractions (0 to 1), "
              "shown here in percent", ""]
    lines += _summary(st)
    if "strong_band" in tables:
        band = tables["strong_band"]
        lines += ["## Strong play as a band", "", f"![strong band]({Path(chart_paths['strong_band'][0]).name})", "",
                  f"Each strong player in self-play on the same {st.strong.hands:,} deals; per figure each one's "
                  "estimate with its 95 % interval, the band from the lowest to the highest estimate, and the "
                  "verdict: the game's when every two players agree within 5 % of the figure (their difference's "
                  "interval inside it), the players' when two of them surely differ by more, else not settled by "
                  "these hands.", "",
                  shown_table(band.drop_duplicates("figure"), [
                      ("figure", lambda r: f"{r.what} ({r.unit})"),
                      *((p, (lambda p: lambda r: _band_cell(band, r.figure, p))(p))
                        for p in dict.fromkeys(band.player)),
                      ("band", lambda r: f"{figure_text(r.band_lo, r.unit)} to {figure_text(r.band_hi, r.unit)}"),
                      ("verdict", lambda r: r.verdict_text)]), ""]
    lines += ["## Deal-time odds: exact and simulated", "", f"![odds]({Path(chart_paths['odds'][0]).name})", "",
              "In a dealt hand (every seat's hand of each deal counted; the turn-up, 'some player' and "
              "the partners' events once per deal or partnership) and, "
              "for the cards received over the hand, in the play of the largest pairing.", "",
              shown_table(tables["odds"], [
                  ("event", lambda r: r.event), ("exact", lambda r: r.exact),
                  ("exact %", lambda r: f"{100 * r.exact_decimal:.4g}"),
                  ("simulated % [95 % interval]", lambda r: _pct_ci(r, "simulated", digits=4)),
                  ("exact within the interval", lambda r: {True: "yes", False: "no"}.get(r.within_ci, "–"))]), ""]
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
                f"{percent(r, 'received_double')} (the exact chance for a blind share of the pack: "
                f"{100 * r.received_double_exact:.2f} %, an upper bound on scoring)")
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
              shown_table(tables["combinations"], [
                  ("policy", lambda r: r.policy), ("combination", lambda r: r.combination),
                  ("declared in % of hands [95 % interval]", lambda r: _pct_ci(r, "declared_share")),
                  ("declarations per hand", lambda r: f"{r.per_hand:.4g}"),
                  ("points per hand", lambda r: f"{r.points_per_hand:.4g}"),
                  ("% of the policy's declared points", lambda r: f"{100 * r.share_of_points:.3g}")]), ""]
    seats = tables["seat_advantage"].copy()
    for key in ("as_eldest", "as_dealer", "eldest_minus_dealer"):
        seats[key] = [_ci(r, key, digits=4) for _, r in seats.iterrows()]
    seats = seats.rename(columns={"as_eldest": "as eldest hand (points)", "as_dealer": "as dealer (points)",
                                  "eldest_minus_dealer": "eldest minus dealer (points)"})
    lines += ["## Scores and seats", "", f"![scores]({Path(chart_paths['score_distribution'][0]).name})", "",
              f"![scores at least x]({Path(chart_paths['score_at_least'][0]).name})", "",
              "Mean hand score of each seat when it is the eldest hand (the dealer's opponent, who leads "
              "first) and when it deals, with 95 % intervals; the hands of each are different hands.", "",
              md_table(seats, ["pairing", "seat", "as eldest hand (points)", "as dealer (points)",
                               "eldest minus dealer (points)"]), ""]
    if not rubicon:
        lines += ["## The seven of trumps", "", shown_table(tables["sevens"], [
                      ("policy", lambda r: r.policy),
                      ("seven-of-trumps points per hand [95 % interval]",
                       lambda r: f"{r.seven_points_per_hand:.3g} [{r.lo:.3g}, {r.hi:.3g}]")]), "",
                  "## Hands to reach 1000, 1500, 2000 (R2.24)", "",
                  f"![game length]({Path(chart_paths['game_length'][0]).name})", "",
                  shown_table(tables["game_length"], [
                      ("policy", lambda r: r.policy), ("target (points)", lambda r: f"{r.target:,}"),
                      ("games", lambda r: f"{r.games:,}"),
                      ("mean hands [95 % interval]", lambda r: _ci(r, "mean_hands")),
                      ("median hands", lambda r: f"{r.median_hands}"),
                      ("90th percentile (hands)", lambda r: f"{r.p90_hands}")]), ""]
    if "pairwise" in tables:
        plays = len(seatings(st.rules.players))
        seating_text = {2: "the seats swapped", 3: "one against two and two against one",
                        4: "one partnership against the other, then swapped"}[st.rules.players]
        pw = tables["pairwise"]
        what = points_unit(st.rules)
        lines += ["## Head to head", "", f"![head to head]({Path(chart_paths['pairwise'][0]).name})", "",
                  f"Each pair plays the first deals of the study's seed {st.seed} (as many as the line says) "
                  f"in every seating ({plays}: {seating_text}); the score share counts wins and half the "
                  f"draws of the {'games' if rubicon else 'hands'}, the mean difference is in {what}.", ""]
        for _, r in pw.iterrows():
            lines.append(f"- **{r.policy_a} against {r.policy_b}** ({r.deals:,} deals): score share "
                         f"{_ci(r, 'score_a', 100)} %, Elo {r.elo_a:+.0f} [{r.elo_a_lo:+.0f}, {r.elo_a_hi:+.0f}], "
                         f"mean difference {_ci(r, 'mean_diff')}")
        lines.append("")
    if "hint_worth" in tables:
        hw = tables["hint_worth"]
        lines += [f"## The hints' worth against {st.strong.policy}", "",
                  f"![hint worth]({Path(chart_paths['hint_worth'][0]).name})", "",
                  f"The full `hints` policy and `hints` without each hint in turn each play **{st.strong.policy}** "
                  f"on the same {int(hw.deals.iloc[0]):,} deals, seats swapped; a hint's worth is the "
                  f"difference of the two results ({points_unit(st.rules)}; its interval adds the two "
                  "intervals' half-widths in quadrature, conservative since the deals are the same).", ""]
        for _, r in hw.iterrows():
            lines.append(f"- **{r.hint}** ({r.advice}): {_ci(r, 'mean_diff')}")
        lines.append("")
    lines += ["## Files", "", "Every table is in this directory as CSV and Parquet; every chart as PNG and SVG.", ""]
    return atomic_write(Path(out_dir) / "report.md", lambda p: Path(p).write_text("\n".join(lines), encoding="utf-8"))
