"""report.md: what the study found first (at most six takeaways, each linked to the section that
shows it, and the headline figures), then a section per subject with its chart and table, every
figure in a sentence, and last how the study was made (strong play, the policies, the rules, the
sample and the command that reproduces it). report.html is made from this text
(:mod:`analyzer.tables.page`), so both say the same in the same order. Names are in words
(:mod:`analyzer.words`), figures in the one format of their kind (:mod:`analyzer.numbers`)."""
from __future__ import annotations

from pathlib import Path

from ...numbers import count, difference, points, share
from ...plots import rules_title
from ...rules import PRESETS
from ...run.output import atomic_write
from ...tables.band_table import strongest_beside
from ...tables.markdown import shown_table
from ...words import combination_name, event_name, hint_name
from ..play.compare import SETTLED, points_unit, seatings
from .findings import findings, policy_lines, rules_command, rules_rows, sample_text
from .takeaways import takeaways


def _image(alt: str, chart_paths: dict, name: str) -> str:
    """The Markdown image of chart ``name`` (its PNG, or its SVG, beside report.md); where no
    picture was written (``--format`` chose tables only), a line that says so."""
    if not chart_paths.get(name):
        return f"*(the chart of {alt} was not drawn: `--format` asked for no picture format)*"
    return f"![{alt}]({Path(chart_paths[name][0]).name})"


def _rows(df, text) -> list[str]:
    """One line per row of ``df``: ``text(row)``."""
    return [text(r) for _, r in df.iterrows()]


def _ci(r, key: str, kind=points) -> str:
    """``r[key]`` with its interval (the ``_lo`` and ``_hi`` columns) in the format ``kind``."""
    return kind(r[key], r[key + "_lo"], r[key + "_hi"])


def band_value(value: float, unit: str, lo: float | None = None, hi: float | None = None) -> str:
    """A band figure in its format: a share in per cent, anything else as points."""
    return (share if "share" in unit else points)(value, lo, hi)


def _found(st) -> list[str]:
    """The takeaways, numbered, each with a link to its section."""
    return ["## What this study found", "",
            *(f"{k}. {t.markdown()}" for k, t in enumerate(takeaways(st), 1)), ""]


def _headline(st) -> list[str]:
    """The headline figures under strong play, each strong player's and the verdict on them."""
    if "strong_band" not in st.tables:
        return []
    band = st.tables["strong_band"]
    players = list(dict.fromkeys(band.player))
    return ["## The headline figures", "",
            f"Under strong play: each of {len(players)} strong players in self-play on the same deals "
            f"({st.band_hands()}), with 95 % intervals, and whether the figure is the same for every "
            "strong player ([how that is decided](#how-this-study-was-made)).", "",
            shown_table(band.drop_duplicates("figure"), [
                ("figure", lambda r: f"{r.what} ({r.unit})"),
                *((p, (lambda p: lambda r: _band_cell(band, r.figure, p))(p)) for p in players),
                ("verdict", lambda r: r.verdict_text)]), ""]


def _band_cell(band, figure: str, player: str) -> str:
    """One strong player's estimate of one band figure with its interval."""
    r = band[(band.figure == figure) & (band.player == player)].iloc[0]
    return band_value(r.value, r.unit, r.value_lo, r.value_hi)


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
             f"Each pair plays the first deals of the study's seed {st.seed} in every seating ({plays}: "
             f"{seating_text}), until its difference was known to within ±{100 * SETTLED:g} % (its 95 % interval "
             f"within {100 * SETTLED:g} % of it either side: more deals would not change what is said of it) or at "
             "most as many deals as the study gives each pair; the line says how many it took. The share counts "
             f"wins and half the draws of the {'games' if rubicon else 'hands'}, the difference is in "
             f"{points_unit(st.rules)}.", ""]
    return lines + _rows(st.tables["pairwise"], lambda r: (
        f"- **{r.policy_a} against {r.policy_b}** ({count(r.deals)} deals"
        f"{', settled' if getattr(r, 'settled', False) else ''}): {_ci(r, 'mean_diff', difference)} "
        f"{points_unit(st.rules)}, {_ci(r, 'score_a', share)} of the {'games' if rubicon else 'hands'}, "
        f"Elo {_ci(r, 'elo_a', difference)}")) + [""]


def _hint_worth(st, chart_paths: dict) -> list[str]:
    """What each hint is worth against the strong player (only when the study measured it)."""
    if "hint_worth" not in st.tables:
        return []
    hw = st.tables["hint_worth"]
    lines = ["## The hints' worth against strong play", "", _image("hint worth", chart_paths, "hint_worth"), "",
             f"The full `hints` policy and `hints` without each hint in turn each play **{st.strong.policy}** "
             f"on the same {count(hw.deals.iloc[0])} deals, seats swapped; a hint's worth is the first's result "
             f"less the second's, deal by deal ({points_unit(st.rules)}), so its interval is that of the "
             "per-deal differences and the luck both share does not widen it.", ""]
    return lines + _rows(hw, lambda r: f"- **{hint_name(r.hint)}** ({r.advice}): {_ci(r, 'mean_diff', difference)}") + [""]


def _double_bezique(st, chart_paths: dict) -> list[str]:
    """The double bézique by trick, and per policy how often it is scored, held, missed and why."""
    lines = ["## Double bézique", "", _image("béziques by trick", chart_paths, "double_bezique_by_trick"), "",
             "By each trick: the share of a seat's hands in which it has scored the bézique, in which it "
             "has held all its cards (in hand or on the table), and the exact chance of having received "
             "them (the dealt hand and one draw per trick are a uniformly random set of cards of that "
             "size, since each pair of talon cards is split on a trick decided before either is seen): "
             "each bounds the one before.", ""]
    for _, r in st.tables["double_bezique"].iterrows():
        text = (f"- **{r.policy}**: scores a double bézique in {_ci(r, 'scored_double', share)} of its hands; "
                f"holds all four cards at some moment in {_ci(r, 'held_double', share)}; holds them but never "
                f"scores a double in {_ci(r, 'held_not_scored', share)} (a card of it played: "
                f"{_ci(r, 'held_not_scored_card_played', share)}; the talon ran out: "
                f"{_ci(r, 'held_not_scored_talon_ran_out', share)}); receives the cards in "
                f"{_ci(r, 'received_double', share)} (the exact chance for a blind share of the pack: "
                f"{share(r.received_double_exact)}, an upper bound on scoring)")
        if st.rules.is_rubicon and "scored_treble" in r:
            text += f"; a treble bézique in {_ci(r, 'scored_treble', share)}"
        lines.append(text)
    return lines + [""]


def _rubicons(st, chart_paths: dict) -> list[str]:
    """Rubicon only: the rubicon, draw and saved-by-brisques rates and the game scores."""
    if not st.rules.is_rubicon:
        return []
    lines = ["## Rubicons", "", _image("rubicon rates", chart_paths, "rubicon_rates"), "",
             _image("loser's total", chart_paths, "loser_totals"), "",
             "The loser is rubiconed when his total, even with his brisques added, is under 1,000 (R3.9). "
             "A game whose totals and brisques are equal (or whose totals with brisques are, once the "
             "brisques saved the rubicon) is drawn, null and void (Law 61): the rates are shares of "
             "all games, the loser's total and the winner's game score are over the decided games.", "",
             _image("game scores", chart_paths, "game_scores"), ""]
    return lines + _rows(st.tables["rubicon"], lambda r: (
        f"- **{r.pairing}**: rubiconed {_ci(r, 'rubicon_rate', share)}, drawn {_ci(r, 'drawn', share)}, "
        f"saved by brisques {_ci(r, 'saved_by_brisques', share)}; the winner's game score "
        f"{_ci(r, 'winner_game_score')} (over the decided games)")) + [""]


def _brisques(st, chart_paths: dict) -> list[str]:
    """Brisques won per seat, how often they change the winner, and the margin per brisque."""
    rubicon = st.rules.is_rubicon
    brisques = st.tables["brisques"]
    lines = ["## Brisques", "", _image("brisque value", chart_paths, "brisque_value"), ""]
    for _, r in brisques.iterrows():
        slope = _ci(r, "margin_per_brisque")
        lines.append(f"- **{r.pairing}**: seat 0 wins {_ci(r, 'brisque_points_seat0')} brisque points "
                     f"{'a game' if rubicon else 'a hand'}, seat 1 {_ci(r, 'brisque_points_seat1')}; counting "
                     f"the brisques changes the {'game' if rubicon else 'hand'}'s winner in "
                     f"{_ci(r, 'winner_changes', share)}; "
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
            "The royal marriage and the sequence in trumps are in the final trump suit; a common marriage "
            "in any other suit.", "",
            shown_table(st.tables["combinations"], [
                ("policy", lambda r: r.policy), ("combination", lambda r: combination_name(r.combination)),
                ("declared in (share of hands)", lambda r: _ci(r, "declared_share", share)),
                ("declarations per hand", lambda r: points(r.per_hand)),
                ("points per hand", lambda r: points(r.points_per_hand)),
                ("share of the policy's declared points", lambda r: share(r.share_of_points))]), ""]


def _odds(st, chart_paths: dict) -> list[str]:
    """Deal-time odds: each event's exact chance beside the simulated one."""
    return ["## Deal-time odds: exact and simulated", "", _image("odds", chart_paths, "odds"), "",
            "In a dealt hand (every seat's hand of each deal counted; the turn-up, 'some player' and "
            "the partners' events once per deal or partnership) and, "
            "for the cards received over the hand, in the play of the largest pairing.", "",
            shown_table(st.tables["odds"], [
                ("event", lambda r: event_name(r.event)), ("exact", lambda r: r.exact),
                ("exact share", lambda r: share(r.exact_decimal)),
                ("simulated [95 % interval]", lambda r: _ci(r, "simulated", share)),
                ("exact within the interval", lambda r: {True: "yes", False: "no"}.get(r.within_ci, "–"))]), ""]


def _scores_and_seats(st, chart_paths: dict) -> list[str]:
    """The score distributions, and each seat's mean score as eldest hand and as dealer."""
    return ["## Scores and seats", "", _image("scores", chart_paths, "score_distribution"), "",
            _image("scores at least x", chart_paths, "score_at_least"), "",
            "Mean hand score of each seat when it is the eldest hand (the dealer's opponent, who leads "
            "first) and when it deals, with 95 % intervals; the hands of each are different hands.", "",
            shown_table(st.tables["seat_advantage"], [
                ("pairing", lambda r: r.pairing), ("seat", lambda r: str(r.seat)),
                ("as eldest hand (points)", lambda r: _ci(r, "as_eldest")),
                ("as dealer (points)", lambda r: _ci(r, "as_dealer")),
                ("eldest less dealer (points)", lambda r: _ci(r, "eldest_minus_dealer", difference))]), ""]


def _sevens_and_game_length(st, chart_paths: dict) -> list[str]:
    """Ordinary game only: the seven of trumps' points, and the hands to reach each target."""
    if st.rules.is_rubicon:
        return []
    return ["## The seven of trumps", "", shown_table(st.tables["sevens"], [
                ("policy", lambda r: r.policy),
                ("seven-of-trumps points per hand [95 % interval]",
                 lambda r: points(r.seven_points_per_hand, r.lo, r.hi))]), "",
            "## Hands to reach 1000, 1500, 2000", "",
            _image("game length", chart_paths, "game_length"), "",
            "Whole games to each target (R2.24), made of the study's hands in order.", "",
            shown_table(st.tables["game_length"], [
                ("policy", lambda r: r.policy), ("target (points)", lambda r: count(r.target)),
                ("games", lambda r: count(r.games)),
                ("mean hands [95 % interval]", lambda r: _ci(r, "mean_hands")),
                ("median hands", lambda r: str(r.median_hands)),
                ("90th percentile (hands)", lambda r: str(r.p90_hands))]), ""]


def _summary(st, chart_paths: dict) -> list[str]:
    """Every pairing's seats: mean score, share of hands won, brisque points, double bézique."""
    return ["## Every pairing", "", "Per pairing and seat, with 95 % intervals"
            + (" (Rubicon: a hand is one game; its score leaves out brisques, R3.8)" if st.rules.is_rubicon else "")
            + ".", "",
            shown_table(st.tables["summary"], [
                ("pairing", lambda r: r.pairing), ("seat", lambda r: str(r.seat)), ("policy", lambda r: r.policy),
                ("hands", lambda r: count(r.hands)), ("mean score (points)", lambda r: _ci(r, "mean_score")),
                ("hands won", lambda r: _ci(r, "win_share", share)),
                ("brisque points per hand", lambda r: _ci(r, "brisque_points")),
                ("double bézique", lambda r: share(r.double_bezique_rate, r.double_bezique_lo, r.double_bezique_hi))]),
            ""]


def _every_finding(st, chart_paths: dict) -> list[str]:
    """Every headline figure of the study in a sentence (what ``bezique report --verbose`` prints)."""
    return ["## Every finding in a sentence", "", "Each figure with its 95 % interval in brackets.", "",
            *(f"- {s}" for s in findings(st)), ""]


def _method(st, chart_paths: dict, command: str) -> list[str]:
    """How the study was made: strong play and what agreeing means (with the band's chart), the
    policies, the rules in force and the sample, with the command that reproduces it."""
    lines = ["## How this study was made", ""]
    if st.strong is not None:
        players = st.strong.players
        lines += ["### Strong play", "",
                  f"Strong play is the package's learned player, **{st.strong.policy}** (a network trained by "
                  "self-play; the strongest fast player), beside "
                  + (f"{len(players) - 1} more trained apart from it ({', '.join(f'**{p}**' for p in players[1:])}), "
                     if len(players) > 1 else "no other, ")
                  + f"each in self-play on the same deals ({st.band_hands()}). A figure is the same for "
                  "every strong player when every two of them agree within 5 % of it: the 95 % interval of "
                  "their difference lies inside ±5 % of the figure. It differs between strong players when two "
                  "of them surely differ by more than 5 %; otherwise these hands do not settle it. A figure "
                  "the same for every strong player describes the game under strong play; one that differs "
                  "describes the players.", ""]
        if "strong_band" in st.tables:
            lines += [_image("strong band", chart_paths, "strong_band"), "",
                      shown_table(st.tables["strong_band"].drop_duplicates("figure"), [
                          ("figure", lambda r: f"{r.what} ({r.unit})"),
                          ("band over the strong players",
                           lambda r: f"{band_value(r.band_lo, r.unit)} to {band_value(r.band_hi, r.unit)}"),
                          ("verdict", lambda r: r.verdict_text)]), ""]
            lines += _beside_the_strongest(st)
    lines += ["### Policies", "", *(f"- {s}" for s in policy_lines(st)), "",
              "### Rules in force", "", shown_table(rules_rows(st.rules), [("", lambda r: r[0]), ("", lambda r: r[1])]),
              f"Every option with the rule it implements: `{rules_command(st.rules)}`.", "",
              "### How it was played", "",
              f"- {sample_text(st)}; every pairing plays the same deals; hand *i* is dealt by seat *i* mod "
              f"{st.rules.players}",
              f"- reproduce: `{command}`",
              "- definitions of every figure: docs/tables.md and docs/rules.md section 5 (in the project's "
              "repository); the tables in this directory (CSV, Parquet) keep their machine names and hold "
              "shares as fractions (0 to 1), shown here in per cent", ""]
    return lines


def _beside_the_strongest(st) -> list[str]:
    """Where the strongest player's figures lie beside this band, as ``bezique study strongest``
    measured them (band_table.strongest_beside), when the study is of that game's own rules and
    band; [] otherwise."""
    rules = st.rules
    got = strongest_beside(rules.name, st.strong.players) if PRESETS.get(rules.name) == rules else None
    if got is None:
        return []
    clear = [f"{f['what']} ({f['where'].replace(', clear of it', '')})" for f in got["figures"].values()
             if f["where"].endswith("clear of it")]
    said = (f"clear of the band for {', '.join(clear)}: for these figures the band is not yet the game's, "
            "strong players still differ there" if clear else "clear of the band for no figure (its whole 95 % "
            "interval outside it): as far as these hands tell, the band is the game's")
    return [f"Beside the band, the strongest player, **{got['strongest']}** (the search over **{st.strong.policy}**), "
            f"in {count(got['deals'])} {got['unit']} of its own self-play (`bezique study strongest`, seed "
            f"{got['seed']}; results/strongest in the project's repository) lies {said}.", ""]


# the sections after the takeaways and the headline figures, in the report's order; each is []
# where it does not apply
_SECTIONS = (_head_to_head, _hint_worth, _double_bezique, _rubicons, _brisques, _combinations, _odds,
             _scores_and_seats, _sevens_and_game_length, _summary, _every_finding)


def report_text(st, chart_paths: dict, command: str) -> str:
    """The whole of report.md for the study ``st`` (a :class:`~analyzer.studies.report.study.Study`)."""
    title = rules_title(st.rules)
    strong = (f"strong play ({st.strong.policy}" + (f" and {len(st.strong.band)} players trained apart" if st.strong.band
                                                    else "") + "), beside it ") if st.strong else ""
    heuristics = ", ".join(dict.fromkeys(p for k in st.results for p in k.split(" vs ")
                                         if not st.strong or p not in st.strong.players))
    lines = [f"# {title[0].upper() + title[1:]}: what the study found", "",
             f"Played: {strong}{heuristics}, on the same deals, seed {st.seed} "
             "([how](#how-this-study-was-made)). Each figure has its 95 % interval in brackets.", "",
             *_found(st), *_headline(st)]
    for section in _SECTIONS:
        lines += section(st, chart_paths)
    lines += _method(st, chart_paths, command)
    lines += ["## Files", "", "Every table is in this directory as CSV and Parquet; every chart as PNG and SVG; "
              "this page as report.md and report.html.", ""]
    return "\n".join(lines)


def write_markdown(st, chart_paths: dict, out_dir, command: str) -> Path:
    """Write report.md of the study ``st`` into ``out_dir`` and return its path."""
    text = report_text(st, chart_paths, command)
    return atomic_write(Path(out_dir) / "report.md", lambda p: Path(p).write_text(text, encoding="utf-8"))
