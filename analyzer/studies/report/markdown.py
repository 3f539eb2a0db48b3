"""report.md: the study's figures in words, its tables and charts, and how to reproduce it."""
from __future__ import annotations

from pathlib import Path

from ...plots import rules_title
from ...run.output import atomic_write
from ...tables.markdown import md_table, shown_table
from ..play.compare import points_unit, seatings
from .findings import figure_text, findings, percent, policy_lines, rules_command, rules_rows, sample_text


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


def _image(alt: str, chart_paths: dict, name: str) -> str:
    """The Markdown image of chart ``name`` (its PNG, beside report.md)."""
    return f"![{alt}]({Path(chart_paths[name][0]).name})"


def _rows(df, text) -> list[str]:
    """One line per row of ``df``: ``text(row)``."""
    return [text(r) for _, r in df.iterrows()]


def _found(st) -> list[str]:
    """What this study found: the findings in words, each with its interval."""
    return ["## What this study found", "",
            "Each figure with its 95 % interval in brackets (Wilson for shares, normal for means).", "",
            *(f"- {s}" for s in findings(st)), ""]


def _policies(st) -> list[str]:
    """The policies that played, one line each."""
    return ["## Policies", "", *(f"- {s}" for s in policy_lines(st)), ""]


def _rules_in_force(st) -> list[str]:
    """The rule set as a table, and the command that lists every option with its rule."""
    return ["## Rules in force", "", "| | |", "|---|---|", *(f"| {k} | {v} |" for k, v in rules_rows(st.rules)),
            "", f"Every option with the rule it implements: `{rules_command(st.rules)}`.", ""]


def _how_played(st, command: str) -> list[str]:
    """The sample, the deals and seats, the command that reproduces the study, and where the
    figures are defined."""
    return ["## How it was played", "",
            f"- {sample_text(st)}; every pairing plays the same deals; hand *i* is dealt by seat *i* mod "
            f"{st.rules.players}" + ("; a pairing 'a vs b' seats a, b, a … round the table"
                                     if st.rules.players > 2 else ""),
            f"- reproduce: `{command}`",
            "- definitions of every figure: docs/tables.md and docs/rules.md section 5 (in the project's "
            "repository); the tables in this directory (CSV, Parquet) hold shares as fractions (0 to 1), "
            "shown here in percent", ""]


def _strong_band(st, chart_paths: dict) -> list[str]:
    """The strong players' estimates of each headline figure, the band over them and its
    verdict (only when the study has a band)."""
    if "strong_band" not in st.tables:
        return []
    band = st.tables["strong_band"]
    return ["## Strong play as a band", "", _image("strong band", chart_paths, "strong_band"), "",
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


def _odds(st, chart_paths: dict) -> list[str]:
    """Deal-time odds: each event's exact chance beside the simulated one."""
    return ["## Deal-time odds: exact and simulated", "", _image("odds", chart_paths, "odds"), "",
            "In a dealt hand (every seat's hand of each deal counted; the turn-up, 'some player' and "
            "the partners' events once per deal or partnership) and, "
            "for the cards received over the hand, in the play of the largest pairing.", "",
            shown_table(st.tables["odds"], [
                ("event", lambda r: r.event), ("exact", lambda r: r.exact),
                ("exact %", lambda r: f"{100 * r.exact_decimal:.4g}"),
                ("simulated % [95 % interval]", lambda r: _pct_ci(r, "simulated", digits=4)),
                ("exact within the interval", lambda r: {True: "yes", False: "no"}.get(r.within_ci, "–"))]), ""]


def _double_bezique(st, chart_paths: dict) -> list[str]:
    """The double bézique by trick, and per policy how often it is scored, held, missed and why."""
    lines = ["## Double bézique", "", _image("béziques by trick", chart_paths, "double_bezique_by_trick"), "",
             "By each trick: the share of a seat's hands in which it has scored the bézique, in which it "
             "has held all its cards (in hand or on the table), and the exact chance of having received "
             "them (the dealt hand and one draw per trick are a uniformly random set of cards of that "
             "size, since each pair of talon cards is split on a trick decided before either is seen): "
             "each bounds the one before.", ""]
    for _, r in st.tables["double_bezique"].iterrows():
        text = (f"- **{r.policy}**: scores a double bézique in {_ci(r, 'scored_double', 100)} % of its hands; "
                f"holds all four cards at some moment in {_ci(r, 'held_double', 100)} %; holds them but never "
                f"scores a double in {_ci(r, 'held_not_scored', 100)} %: a card of it was played "
                f"{_ci(r, 'held_not_scored_card_played', 100)} %, the talon ran out "
                f"{_ci(r, 'held_not_scored_talon_ran_out', 100)} %; receives the cards in "
                f"{percent(r, 'received_double')} (the exact chance for a blind share of the pack: "
                f"{100 * r.received_double_exact:.2f} %, an upper bound on scoring)")
        if st.rules.is_rubicon and "scored_treble" in r:
            text += f"; treble {_ci(r, 'scored_treble', 100)} %"
        lines.append(text)
    return lines + [""]


def _rubicons(st, chart_paths: dict) -> list[str]:
    """Rubicon only: the rubicon, draw and saved-by-brisques rates and the game scores."""
    if not st.rules.is_rubicon:
        return []
    lines = ["## Rubicons", "", _image("rubicon rates", chart_paths, "rubicon_rates"), "",
             _image("loser's total", chart_paths, "loser_totals"), "",
             "The loser is rubiconed when his total, even with his brisques added, is under 1000 (R3.9). "
             "A game whose totals and brisques are equal (or whose totals with brisques are, once the "
             "brisques saved the rubicon) is drawn, null and void (Law 61): the rates are shares of "
             "all games, the loser's total and the winner's game score are over the decided games.", "",
             _image("game scores", chart_paths, "game_scores"), ""]
    return lines + _rows(st.tables["rubicon"], lambda r: (
        f"- **{r.pairing}**: rubicon rate {_ci(r, 'rubicon_rate', 100)} %, drawn "
        f"{_ci(r, 'drawn', 100)} %, saved by brisques {_ci(r, 'saved_by_brisques', 100)} %, "
        f"winner's game score {_ci(r, 'winner_game_score')} (over the decided games)")) + [""]


def _brisques(st, chart_paths: dict) -> list[str]:
    """Brisques won per seat, how often they change the winner, and the margin per brisque."""
    rubicon = st.rules.is_rubicon
    brisques = st.tables["brisques"]
    lines = ["## Brisques", "", _image("brisque value", chart_paths, "brisque_value"), ""]
    for _, r in brisques.iterrows():
        slope = f"{r.margin_per_brisque:.3g} [{r.margin_per_brisque_lo:.3g}, {r.margin_per_brisque_hi:.3g}]"
        lines.append(f"- **{r.pairing}**: seat 0 wins {_ci(r, 'brisque_points_seat0')} brisque points per hand, "
                     f"seat 1 {_ci(r, 'brisque_points_seat1')}; the {'game' if rubicon else 'hand'} winner "
                     f"changes when brisques are counted in {_ci(r, 'winner_changes', 100)} %; "
                     + (f"each brisque won by seat 0 goes with {slope} game points more for seat 0"
                        if rubicon else f"each brisque won by seat 0 moves the final margin by {slope} points"))
    return lines + ["", f"Margin per brisque: {brisques.margin_unit.iloc[0]}; one brisque won by one "
                    "seat is one lost by the other, the total being fixed. "
                    + ("Brisques only break ties and save rubicons in Rubicon (R3.8), so the slope says how "
                       "winning brisques goes with winning the game, not what a brisque is worth."
                       if rubicon else "Of this, 20 points are the brisque's own (10 to the seat that wins it, "
                       "10 fewer to the other); the rest is what else goes with winning it."), ""]


def _combinations(st, chart_paths: dict) -> list[str]:
    """Each policy's combinations: how often declared, and the points they bring."""
    return ["## Combinations", "", _image("combinations", chart_paths, "combinations"), "",
            "Royal marriage and trump sequence: in the final trump suit; common marriage and plain "
            "sequence: in any other suit.", "",
            shown_table(st.tables["combinations"], [
                ("policy", lambda r: r.policy), ("combination", lambda r: r.combination),
                ("declared in % of hands [95 % interval]", lambda r: _pct_ci(r, "declared_share")),
                ("declarations per hand", lambda r: f"{r.per_hand:.4g}"),
                ("points per hand", lambda r: f"{r.points_per_hand:.4g}"),
                ("% of the policy's declared points", lambda r: f"{100 * r.share_of_points:.3g}")]), ""]


def _scores_and_seats(st, chart_paths: dict) -> list[str]:
    """The score distributions, and each seat's mean score as eldest hand and as dealer."""
    seats = st.tables["seat_advantage"].copy()
    for key in ("as_eldest", "as_dealer", "eldest_minus_dealer"):
        seats[key] = [_ci(r, key, digits=4) for _, r in seats.iterrows()]
    seats = seats.rename(columns={"as_eldest": "as eldest hand (points)", "as_dealer": "as dealer (points)",
                                  "eldest_minus_dealer": "eldest minus dealer (points)"})
    return ["## Scores and seats", "", _image("scores", chart_paths, "score_distribution"), "",
            _image("scores at least x", chart_paths, "score_at_least"), "",
            "Mean hand score of each seat when it is the eldest hand (the dealer's opponent, who leads "
            "first) and when it deals, with 95 % intervals; the hands of each are different hands.", "",
            md_table(seats, ["pairing", "seat", "as eldest hand (points)", "as dealer (points)",
                             "eldest minus dealer (points)"]), ""]


def _sevens_and_game_length(st, chart_paths: dict) -> list[str]:
    """Ordinary game only: the seven of trumps' points, and the hands to reach each target."""
    if st.rules.is_rubicon:
        return []
    return ["## The seven of trumps", "", shown_table(st.tables["sevens"], [
                ("policy", lambda r: r.policy),
                ("seven-of-trumps points per hand [95 % interval]",
                 lambda r: f"{r.seven_points_per_hand:.3g} [{r.lo:.3g}, {r.hi:.3g}]")]), "",
            "## Hands to reach 1000, 1500, 2000 (R2.24)", "",
            _image("game length", chart_paths, "game_length"), "",
            shown_table(st.tables["game_length"], [
                ("policy", lambda r: r.policy), ("target (points)", lambda r: f"{r.target:,}"),
                ("games", lambda r: f"{r.games:,}"),
                ("mean hands [95 % interval]", lambda r: _ci(r, "mean_hands")),
                ("median hands", lambda r: f"{r.median_hands}"),
                ("90th percentile (hands)", lambda r: f"{r.p90_hands}")]), ""]


def _head_to_head(st, chart_paths: dict) -> list[str]:
    """Each pair of policies in every seating: score share, Elo and mean difference (only when
    the study played them head to head)."""
    if "pairwise" not in st.tables:
        return []
    rubicon = st.rules.is_rubicon
    plays = len(seatings(st.rules.players))
    seating_text = {2: "the seats swapped", 3: "one against two and two against one",
                    4: "one partnership against the other, then swapped"}[st.rules.players]
    lines = ["## Head to head", "", _image("head to head", chart_paths, "pairwise"), "",
             f"Each pair plays the first deals of the study's seed {st.seed} (as many as the line says) "
             f"in every seating ({plays}: {seating_text}); the score share counts wins and half the "
             f"draws of the {'games' if rubicon else 'hands'}, the mean difference is in {points_unit(st.rules)}.", ""]
    return lines + _rows(st.tables["pairwise"], lambda r: (
        f"- **{r.policy_a} against {r.policy_b}** ({r.deals:,} deals): score share "
        f"{_ci(r, 'score_a', 100)} %, Elo {r.elo_a:+.0f} [{r.elo_a_lo:+.0f}, {r.elo_a_hi:+.0f}], "
        f"mean difference {_ci(r, 'mean_diff')}")) + [""]


def _hint_worth(st, chart_paths: dict) -> list[str]:
    """What each hint is worth against the strong player (only when the study measured it)."""
    if "hint_worth" not in st.tables:
        return []
    hw = st.tables["hint_worth"]
    lines = [f"## The hints' worth against {st.strong.policy}", "", _image("hint worth", chart_paths, "hint_worth"), "",
             f"The full `hints` policy and `hints` without each hint in turn each play **{st.strong.policy}** "
             f"on the same {int(hw.deals.iloc[0]):,} deals, seats swapped; a hint's worth is the "
             f"difference of the two results ({points_unit(st.rules)}; its interval adds the two "
             "intervals' half-widths in quadrature, conservative since the deals are the same).", ""]
    return lines + _rows(hw, lambda r: f"- **{r.hint}** ({r.advice}): {_ci(r, 'mean_diff')}") + [""]


# the sections after the summary, in the report's order; each is [] where it does not apply
_FIGURE_SECTIONS = (_strong_band, _odds, _double_bezique, _rubicons, _brisques, _combinations, _scores_and_seats,
                    _sevens_and_game_length, _head_to_head, _hint_worth)


def write_markdown(st, chart_paths: dict, out_dir, command: str) -> Path:
    """Write report.md of the study ``st`` (a :class:`~analyzer.studies.report.study.Study`) into
    ``out_dir`` (sample sizes, seeds, the reproducing command, the
    charts of ``chart_paths`` and key numbers) and return its path."""
    title = rules_title(st.rules)
    lines = [f"# {title[0].upper() + title[1:]}: the study", "", *_found(st), *_policies(st),
             *_rules_in_force(st), *_how_played(st, command), *_summary(st)]
    for section in _FIGURE_SECTIONS:
        lines += section(st, chart_paths)
    lines += ["## Files", "", "Every table is in this directory as CSV and Parquet; every chart as PNG and SVG.", ""]
    return atomic_write(Path(out_dir) / "report.md", lambda p: Path(p).write_text("\n".join(lines), encoding="utf-8"))
