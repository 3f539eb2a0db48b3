"""The main job's study (``bezique report``): policy pairings on the same deals, the strong
players' band, the policies head to head, the hints' worth and the deal-time odds (a
:class:`Study`), with every table and chart, written with report.md."""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

import pandas as pd

from ... import plots
from ...given_deal import active_given
from ...policies.learned import shipped_player_name, shipped_players
from ...policies.params import RULEBOOK_HINTS
from ...policies.spec import PolicyError, check_rules, model_for, resolve_policy
from ...rules import RuleSet
from ...run.backends import side_by_side
from ...run.checks import check_count
from ...run.output import command_line, finish_output, write_run_record, write_table
from ...run.tallies import score_bin
from ...run.task import RunTask, check_run
from ...tables import study_tables as tables_of
from ...tables.band_table import band_needs_more, band_table
from ...tables.page import write_page
from ...tables.stats import wilson_ci
from ..hints.worth import ablate
from ..odds.deal_odds import bezique_levels, first_stage_tricks, p_receives_bezique, p_receives_bezique_by_trick
from ..odds.given_odds import odds
from ..play.compare import SETTLED, compare_checked, points_unit, seatings
from ..play.simulate import Result, play_hands, simulate_chunk
from .findings import findings, policy_lines, rules_command, rules_rows, sample_text
from .markdown import band_value, write_markdown
from .strong import StrongPlay
from .takeaways import takeaways

PAIRINGS = (("hints", "hints"), ("greedy", "greedy"), ("random", "random"), ("hints", "greedy"))
HEAD_TO_HEAD = ("hints", "greedy", "random")     # compared pair by pair, seats swapped
# every file a report of either variant writes (a report written over another removes the
# files the new one does not write, even in a directory from before the manifest existed)
REPORT_FILES = tuple(
    f"{stem}.{ext}"
    for stem in ("odds", "summary", "combinations", "double_bezique", "double_bezique_by_trick", "brisques",
                 "brisque_value", "score_distribution", "score_at_least", "seat_advantage", "pairwise",
                 "hint_worth", "sevens", "strong_band",
                 "game_length", "rubicon", "rubicon_rates", "loser_totals", "game_scores")
    for ext in ("csv", "parquet", "png", "svg")) + ("report.md", "report.html", "run.json")




def strong_refusal(rules: RuleSet, policy: str = "learned") -> str | None:
    """Why ``policy`` cannot be the strong player of a study of ``rules`` (None: it can)."""
    try:
        check_rules([resolve_policy(policy)], rules)
    except PolicyError as e:
        return str(e)
    return None


def strong_play(rules: RuleSet, hands: int, deals: int, ablation_deals: int, band: bool = True,
                policy: str = "learned") -> tuple[StrongPlay | None, str | None]:
    """The study's strong play for ``rules``: ``policy`` in self-play (``hands``; 0: none), head
    to head (``deals``) and against each hint (``ablation_deals``), with ``band`` the package's
    other strong players of the game beside it; and why there is none when ``policy`` cannot
    play these rules (else None)."""
    if not hands:
        return None, None
    why = strong_refusal(rules, policy)
    if why:
        return None, why
    others = tuple(shipped_player_name(p, policy) for p in shipped_players(model_for(rules)) if p > 1) if band else ()
    return StrongPlay(policy, hands, deals, ablation_deals, others), None


def hands_played(hands: int, extra=(), players: int = 2, pairings=PAIRINGS, head_to_head=HEAD_TO_HEAD,
                 strong: StrongPlay | None = None) -> int:
    """Hands a report of ``hands`` hands per pairing plays at most: the pairings, then each pair of
    ``head_to_head`` on ``hands`` deals played in each seating (two with two players; a pair
    stops sooner once its difference is settled), then the ``extra`` (a, b, hands) pairings,
    then the strong player's (:class:`StrongPlay`; each band player's first part, then its
    hands played again in full where the band needs them)."""
    n = len(head_to_head)
    plays = len(seatings(players))
    total = hands * len(pairings) + plays * hands * n * (n - 1) // 2 + sum(h for _a, _b, h in extra)
    if strong is not None:       # the band's other players: a first part, then all hands if needed
        total += strong.hands * len(strong.players) + strong.band_first * len(strong.band)
        total += plays * strong.deals * n
        total += plays * strong.ablation_deals * (RULEBOOK_HINTS + 1)     # hints and each H1..H8 off
    return total


# why the band's other players played fewer hands than the headline player (Study.band_hands)
BAND_STOPPED = "more hands would settle none of the figures that these leave open"


@dataclass
class Study:
    """Everything a report is built from: the rules, hands and seed; ``results``, the
    simulate Result of each pairing by label ("hints vs greedy"); ``odds``, the deal-time
    odds table; ``pairwise``, compare's pairs table among the head-to-head policies (None
    without them); and ``tables``, every table of the report by file name, computed on
    first use."""

    rules: RuleSet
    hands: int
    seed: int
    results: dict[str, Result]
    odds: pd.DataFrame
    pairwise: pd.DataFrame | None = None
    strong: StrongPlay | None = None        # the headline player: results' first pairing is its self-play
    ablation: pd.DataFrame | None = None    # the hints' worth against the strong player

    @property
    def headline(self) -> str | None:
        """The label of the headline pairing (the strong player's self-play), if any."""
        return f"{self.strong.policy} vs {self.strong.policy}" if self.strong else None

    def band_hands(self, why: bool = True) -> str:
        """How many deals each strong player's self-play took, in words: "16,000 deals each"
        when the same for all, else "learned 16,000 deals, the others 4,000 each" (``why``: with
        the reason, :data:`BAND_STOPPED`)."""
        band = self.tables.get("strong_band")
        if band is None:                   # no band: the headline player alone
            return f"{self.strong.hands:,} deals"
        sizes = [int(band[band.player == p].deals.iloc[0]) for p in self.strong.players]
        if len(set(sizes)) == 1:
            return f"{sizes[0]:,} deals each"
        if len(set(sizes[1:])) == 1:
            others = f"the other {sizes[1]:,}" if len(sizes) == 2 else f"the others {sizes[1]:,} each"
        else:
            others = ", ".join(f"{p} {n:,}" for p, n in zip(self.strong.players[1:], sizes[1:]))
        return f"{self.strong.policy} {sizes[0]:,} deals, {others}" + (f", since {BAND_STOPPED}" if why else "")

    @property
    def by_pairing(self) -> dict:
        """Tallies by pairing label."""
        return {k: r.tallies for k, r in self.results.items()}

    @property
    def by_policy(self) -> dict:
        """Tallies of self-play pairings, by policy name (both seats pooled)."""
        return {k.split(" vs ")[0]: r.tallies for k, r in self.results.items()
                if k.split(" vs ")[0] == k.split(" vs ")[1]}

    @cached_property
    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table of the report, by file name (:func:`build_tables`)."""
        return build_tables(self)


def study(rules: RuleSet, hands: int, seed: int, threads: int | None = None,
          pairings=PAIRINGS, progress: Callable[[int], object] | None = None,
          head_to_head=HEAD_TO_HEAD, extra=(), strong: StrongPlay | None = None) -> Study:
    """Simulate ``hands`` hands of each pairing (same seed, so the same deals), the deal-time
    odds on ``hands`` deals, and compare the ``head_to_head`` policies pair by pair on the
    same ``hands`` deals, each played twice with the seats swapped; return the
    :class:`Study`. Each head-to-head pair stops once its difference is settled (its interval
    within ±2.5 % of it, :data:`analyzer.studies.play.compare.SETTLED`), ``hands`` deals at most.
    ``progress`` is called with the hands just played (:func:`hands_played` in all, the deals a
    pair did not need counted when it stops). ``extra``: (a, b, hands) pairings with their own number of
    hands (a costly policy such as ``expert``), on the first of the same deals. ``strong``: the
    headline player (:class:`StrongPlay`): its self-play first (then its band's, each on the
    first quarter of its deals, and on all of them only where band_table.band_needs_more), it
    against each head-to-head policy, the hints' worth against it. The rules, seed and every
    policy are checked once, here."""
    lead = ([(strong.policy, strong.policy, strong.hands)] + [(p, p, strong.band_first) for p in strong.band]
            if strong else [])
    runs = lead + [(a, b, hands) for a, b in pairings] + list(extra)
    for n in {n for _a, _b, n in runs}:
        check_count(n)
    names = list(dict.fromkeys([*(p for a, b, _n in runs for p in (a, b)), *head_to_head]))
    spec = dict(zip(names, check_run(rules, names, seed, threads, by_seat=False)))
    progress = _locked(progress) if progress else None        # the runs report from their own threads
    plays = len(seatings(rules.players))
    deals = (lambda d: progress(plays * d)) if progress else None

    def pairing(a, b, n):
        seats = [spec[(a, b)[s % 2]] for s in range(rules.players)]     # round the table: a, b, a …
        return lambda: play_hands(RunTask(simulate_chunk, rules, seed, seats), n, threads, progress)

    def pairs(policies, n):
        return lambda: compare_checked(rules, [spec[p] for p in policies], n, seed, threads, progress=deals,
                                       settle=SETTLED).pairs

    calls = [pairing(a, b, n) for a, b, n in runs]
    if len(head_to_head) >= 2:
        calls.append(pairs(head_to_head, hands))
    if strong:
        calls += [pairs([strong.policy, p], strong.deals) for p in head_to_head]
        if strong.ablation_deals:
            calls.append(lambda: ablate(rules, strong.ablation_deals, seed, threads, progress=deals,
                                        against=spec[strong.policy]))
    done = iter(side_by_side(calls, threads))      # the independent runs share the cores
    results = {f"{a} vs {b}": next(done) for a, b, _n in runs}
    pairwise = next(done) if len(head_to_head) >= 2 else None
    ablation = None
    if strong:
        pairwise = pd.concat([next(done) for _p in head_to_head] + ([pairwise] if pairwise is not None else []),
                             ignore_index=True)
        ablation = next(done, None)
    st = Study(rules, hands, seed, results, odds(rules, hands, seed), pairwise, strong, ablation)
    if strong and strong.band and strong.band_first < strong.hands:
        if band_needs_more(st.tables["strong_band"], strong.hands, strong.band_first):
            more = side_by_side([pairing(p, p, strong.hands) for p in strong.band], threads)
            results.update({f"{p} vs {p}": r for p, r in zip(strong.band, more)})
            st = Study(rules, hands, seed, results, st.odds, pairwise, strong, ablation)
        elif progress:
            progress(len(strong.band) * strong.hands)    # the band's hands it did not need
    return st


def _locked(progress: Callable[[int], object]) -> Callable[[int], object]:
    """``progress``, called by one thread at a time."""
    lock = threading.Lock()

    def locked(n: int):
        with lock:
            return progress(n)
    return locked


def format_study(st: Study, verbose: bool = False) -> str:
    """The study as text for the terminal: its takeaways and the headline figures (at most
    TERMINAL_CHARS characters); with ``verbose`` every finding in a sentence, the policies, the
    rules in force and how much it played."""
    if verbose:
        return format_findings(st)
    lines = [f"{plots.rules_title(st.rules)[0].upper()}{plots.rules_title(st.rules)[1:]}: what the study found "
             "(95 % intervals in brackets)"]
    lines += [f"{k}. {_plain(t.text)}" for k, t in enumerate(takeaways(st), 1)]
    band = st.tables.get("strong_band")
    if band is not None:
        players = list(dict.fromkeys(band.player))
        lines += ["", f"Under strong play ({players[0]}; the verdict: over {len(players)} strong players):"]
        rows = [(f"{r.what} ({r.unit})", band_value(r.value, r.unit, r.value_lo, r.value_hi), r.verdict_text)
                for _, r in band[band.player == players[0]].iterrows()]
        width = [max(len(row[k]) for row in rows) for k in range(2)]
        lines += [f"  {a:<{width[0]}}  {b:<{width[1]}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def format_findings(st: Study) -> str:
    """Every finding of the study in a sentence, the policies, the rules in force and how much it
    played (``bezique report --verbose``)."""
    lines = [f"What this study found ({plots.rules_title(st.rules)}; 95 % intervals in brackets):"]
    lines += [f"  - {_plain(s)}" for s in findings(st)]
    lines += ["Policies:"] + [f"  {_plain(s)}" for s in policy_lines(st)]
    lines += ["Rules: " + "; ".join(f"{_plain(k)} {_plain(v)}" for k, v in rules_rows(st.rules))
              + f" (every option: {rules_command(st.rules)})"]
    lines.append(f"Played: {sample_text(st)}.")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """Markdown's emphasis and code marks dropped, for the terminal."""
    return text.replace("**", "").replace("`", "")


def build_tables(st: Study) -> dict:
    """Every table of the report, by file name (the tables of :mod:`analyzer.tables.study_tables`
    on the study's tallies, the odds with their receive rows simulated, the summaries of
    every pairing stacked, and the pairwise table)."""
    rubicon = st.rules.is_rubicon
    exact_receive = {k: p_receives_bezique(st.rules, k) for _, k in bezique_levels(st.rules)[1:]}
    tables = {
        "odds": _odds_with_play(st),
        "summary": _stack({k: r.tables["summary"] for k, r in st.results.items()}, "pairing"),
        "combinations": tables_of.combinations_table(st.by_policy),
        "double_bezique": tables_of.double_bezique_table(st.by_policy, exact_receive),
        "double_bezique_by_trick": tables_of.bezique_by_trick_table(st.by_policy, _receive_bound_by_trick(st.rules)),
        "brisques": tables_of.brisque_table(st.by_pairing, rubicon),
        "score_distribution": tables_of.score_distribution_table(st.by_policy, score_bin(st.rules)),
        "seat_advantage": tables_of.seat_table(st.by_pairing),
    }
    if st.pairwise is not None:
        tables["pairwise"] = st.pairwise
    if st.ablation is not None:
        tables["hint_worth"] = st.ablation
    if rubicon:
        tables["rubicon"] = tables_of.rubicon_rates_table(st.by_pairing)
        tables["game_scores"] = tables_of.game_score_table(st.by_pairing)
        tables["loser_totals"] = tables_of.loser_total_table(st.by_pairing, score_bin(st.rules),
                                                             st.rules.rubicon_limit)
    else:
        tables["sevens"] = tables_of.sevens_table(st.by_policy)
        tables["game_length"] = tables_of.game_length_table(st.by_policy)
    if st.strong is not None and st.strong.band:
        tables["strong_band"] = band_table(tables, list(st.strong.players), rubicon)
    return tables


def _odds_with_play(st: Study):
    """The odds table, its receive rows (which dealt hands alone cannot show) simulated by the
    play of the largest pairing (the first of them): the share of seat-hands (both seats) that
    received the cards."""
    if active_given() is not None:       # the given seat's odds: its receive rows are exact only
        return st.odds
    label, t = max(st.by_pairing.items(), key=lambda kv: kv[1].hands)
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
    return pd.concat([df.assign(**{key: k}) for k, df in frames.items()], ignore_index=True)


def build_charts(st: Study, out_dir) -> dict[str, list[Path]]:
    """Draw every chart of the study and write it (PNG and SVG) into ``out_dir``, the charts
    drawn side by side on the machine's cores (:func:`plots.save_charts`); return the paths by
    chart name."""
    return plots.save_charts(chart_jobs(st), out_dir)


def sample_sizes(st: Study) -> dict[str, int]:
    """The hands of each pairing by its label ("learned vs learned"), and of each self-play
    pairing by its policy too ("learned"): what a chart by pairing or by policy says of each."""
    sizes = {k: r.hands for k, r in st.results.items()}
    sizes.update({a: r.hands for k, r in st.results.items() for a, b in [k.split(" vs ")] if a == b})
    return sizes


def chart_jobs(st: Study) -> dict[str, tuple]:
    """Every chart of the study, by name: (its chart function, the arguments it is drawn from).
    Where the pairings played different numbers of hands, a chart by pairing or policy says each
    one's beside its name (:func:`sample_sizes`) and its title none."""
    tables = st.tables
    name = plots.rules_title(st.rules)       # the preset and the options changed from it
    rubicon = st.rules.is_rubicon
    sizes = sample_sizes(st) if len({r.hands for r in st.results.values()}) > 1 else None
    sample = (f"{st.hands:,} hands per pairing" if sizes is None else
              f"each pairing's {'games' if rubicon else 'hands'} beside it") + f", seed {st.seed}"
    jobs = {
        "odds": (plots.odds_chart, (tables["odds"], f"{name}: deal-time odds, exact and simulated "
                                    f"({st.hands:,} deals, seed {st.seed})")),
        "double_bezique_by_trick": (partial(plots.bezique_by_trick_chart, sizes=sizes), (
            tables["double_bezique_by_trick"], f"{name}: béziques held and scored by trick ({sample})")),
        "score_distribution": (partial(plots.score_distribution_chart, sizes=sizes), (
            tables["score_distribution"], score_bin(st.rules), f"{name}: hand scores by policy ({sample})")),
        "score_at_least": (partial(plots.score_at_least_chart, sizes=sizes), (
            tables["score_distribution"], f"{name}: P(hand score ≥ x) by policy ({sample})")),
        "brisque_value": (partial(plots.brisque_chart, sizes=sizes), (tables["brisques"], rubicon, f"{name}: brisques ({sample})")),
        "combinations": (partial(plots.combinations_chart, sizes=sizes), (tables["combinations"],
                                                    f"{name}: combinations declared ({sample})")),
    }
    if rubicon:
        jobs["rubicon_rates"] = (partial(plots.rubicon_rate_chart, sizes=sizes), (tables["rubicon"], f"{name}: rubicons ({sample})"))
        jobs["game_scores"] = (partial(plots.game_score_chart, sizes=sizes), (tables["game_scores"],
                                                        f"{name}: winner's game score ({sample})"))
        jobs["loser_totals"] = (partial(plots.loser_total_chart, sizes=sizes), (tables["loser_totals"], score_bin(st.rules),
                                                          st.rules.rubicon_limit,
                                                          f"{name}: the loser's total ({sample})"))
    else:
        jobs["game_length"] = (partial(plots.game_length_chart, sizes=sizes), (
            tables["game_length"], f"{name}: hands to reach the target (R2.24; {sample})"))
    if "pairwise" in tables:
        deals = sorted(set(tables["pairwise"].deals), reverse=True)
        jobs["pairwise"] = (plots.pairwise_chart, (
            tables["pairwise"], list(dict.fromkeys([*tables["pairwise"].policy_a, *tables["pairwise"].policy_b])),
            "games" if rubicon else "hands",
            f"{name}: head to head\n({' or '.join(f'{d:,}' for d in deals)} deals per pair, each played in "
            f"every seating; seed {st.seed})"))
    if "strong_band" in tables:
        jobs["strong_band"] = (plots.band_chart, (
            tables["strong_band"], f"{name}: the headline figures over {len(st.strong.players)} strong players "
                                   f"trained apart\n(in self-play: {st.band_hands(why=False)}; seed {st.seed})"))
    if "hint_worth" in tables:
        jobs["hint_worth"] = (plots.ablation_chart, (
            tables["hint_worth"], points_unit(st.rules),
            f"{name}: each hint's worth against {st.strong.policy}\n(hints against it, less hints without the hint; "
            f"{st.strong.ablation_deals:,} deals, seats swapped, seed {st.seed})"))
    return jobs


def write_report(st: Study, out_dir, command: str | None = None, threads: int | None = None) -> list[Path]:
    """Write every table (CSV, Parquet), chart (PNG, SVG), report.md, report.html and run.json (the command,
    versions and backend; ``threads`` as the study ran) of ``st`` into ``out_dir``; ``command``
    is the one report.md says reproduces it (default: this process's). Returns the paths
    written."""

    written = []
    for name, df in st.tables.items():
        written += write_table(df, out_dir, name)
    chart_paths = build_charts(st, out_dir)
    for paths in chart_paths.values():
        written += paths
    command = command or command_line()
    page = write_markdown(st, chart_paths, out_dir, command)
    written += [page, write_page(page)]
    given = active_given()
    written.append(write_run_record(out_dir, command, threads, **({"given": given.describe()} if given else {}),
                                    rules=st.rules.describe(), hands=st.hands,
                                    seed=st.seed))
    finish_output(out_dir, written, owned=REPORT_FILES)    # an earlier report's extra files go
    return written
