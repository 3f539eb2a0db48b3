"""Tests that catch what they claim (issue 46, part 1): each figure a table, a comparison or a
report states is checked against an independent, direct computation from the per-hand records
(or from hand-made records and tallies whose answer is known), never against numbers copied
from the code's own output, and to a tolerance tight enough that a one-line mistake (ties
counted as wins, a factor of two, an interval too wide or too narrow, a verdict off by its
bound, a claim true in one seat only) fails.

The intervals are recomputed here from their textbook formulas: a mean's 95 % normal interval,
mean ± z·sd/√n with the sample standard deviation (n - 1), and a share's Wilson interval.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cards import COMBO_NAMES
from analyzer.cli import main
from analyzer.engine.layout import (
    REC_DEALER,
    REC_EXCHANGES,
    REC_LAST_WINNER,
    REC_SEAT,
    REC_SEAT_W,
    REC_W,
    RS_BEZ_MAX,
    RS_BRISQ,
    RS_NDECL,
    RS_SCORE,
    RS_SEVEN,
)
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import dealt_spec
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.run.records import play_records
from analyzer.run.task import RunTask
from analyzer.studies.play import compare as compare_module
from analyzer.studies.play.compare import PairResult, PairTally, compare_pair, deal_differences, pair_chunk
from analyzer.studies.hints.verdicts import verdict
from analyzer.studies.report.findings import _head_to_head, _hint_worth
from analyzer.studies.play.simulate import simulate
from analyzer.tables.stats import format_summary

Z = 1.959963984540054          # the 0.975 quantile of the standard normal
EXAMPLE = Path(__file__).parent.parent / "examples" / "my_policy.py"
DOUBLES = [COMBO_NAMES.index(f"{k}_bezique") for k in ("double", "treble", "quadruple")]   # combination ids


# --- the intervals from their formulas ----------------------------------------------------------

def normal_interval(x) -> tuple[float, float, float]:
    """Mean of ``x`` with its 95 % normal interval, mean ± z·sd/√n (sd with n - 1)."""
    x = np.asarray(x, dtype=float)
    m = x.mean()
    half = Z * x.std(ddof=1) / math.sqrt(len(x))
    return m, m - half, m + half


def wilson(k: float, n: int) -> tuple[float, float, float]:
    """Share k/n with its 95 % Wilson score interval (0 and 1 exactly at the ends)."""
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return p, (0.0 if k <= 0 else centre - half), (1.0 if k >= n else centre + half)


def elo(score: float) -> float:
    """The Elo difference of a score share: 400 log10(s / (1 - s))."""
    return 400 * math.log10(score / (1 - score))


def close(got, want, rel=1e-9, abs_=1e-9) -> bool:
    return tuple(got) == pytest.approx(tuple(want), rel=rel, abs=abs_)


def seat_field(rec: np.ndarray, seat: int, field: int) -> np.ndarray:
    """One seat's field of each record (layout REC_SEAT + seat * REC_SEAT_W + RS_*), as int64."""
    return rec[:, REC_SEAT + seat * REC_SEAT_W + field].astype(np.int64)


# --- 1. the summary table of a simulation -----------------------------------------------------

def direct_summary(rec: np.ndarray, rules) -> list[dict]:
    """Per seat, the summary's figures counted directly from the records: wins (the seat's score
    above every other seat's), ties (the best score shared) and losses apart, each mean with its
    normal interval and each share with its Wilson interval."""
    n, k = len(rec), rules.players
    scores = np.stack([seat_field(rec, s, RS_SCORE) for s in range(k)], axis=1)
    best = scores.max(1)
    tied = (scores == best[:, None]).sum(1) > 1
    out = []
    for s in range(k):
        others = np.delete(scores, s, axis=1).max(1)
        wins = int((scores[:, s] > others).sum())
        ties = int((tied & (scores[:, s] == best)).sum())
        losses = int((scores[:, s] < others).sum())
        assert wins + ties + losses == n
        bez = seat_field(rec, s, RS_BEZ_MAX)
        doubles = sum(seat_field(rec, s, RS_NDECL + c) for c in DOUBLES) > 0
        assert ((bez >= 2) == doubles).all()        # the record's two views of a double agree
        dealt = rec[:, REC_DEALER] == s
        out.append({"wins": wins, "ties": ties, "losses": losses,
                    "mean_score": normal_interval(scores[:, s]),
                    "win_share": wilson(wins, n),
                    "brisque_points": normal_interval(rules.brisque_points * seat_field(rec, s, RS_BRISQ)),
                    "double_bezique": wilson(int(doubles.sum()), n),
                    "seven_points": normal_interval(seat_field(rec, s, RS_SEVEN)),
                    "last_trick_share": float((rec[:, REC_LAST_WINNER] == s).mean()),
                    "mean_score_as_dealer": float(scores[dealt, s].mean())})
    return out


def interval_of(row, key: str, lo: str | None = None, hi: str | None = None) -> tuple:
    return row[key], row[lo or key + "_lo"], row[hi or key + "_hi"]


def check_summary_rows(summary: pd.DataFrame, want: list[dict], n: int, policies: list[str]) -> None:
    assert list(summary.seat) == list(range(len(want)))
    for (_, row), w in zip(summary.iterrows(), want):
        assert row.policy == policies[row.seat] and row.hands == n
        assert close(interval_of(row, "mean_score"), w["mean_score"]), row.seat
        assert close(interval_of(row, "win_share"), w["win_share"]), row.seat
        assert close(interval_of(row, "brisque_points"), w["brisque_points"]), row.seat
        assert close(interval_of(row, "double_bezique_rate", "double_bezique_lo", "double_bezique_hi"),
                     w["double_bezique"]), row.seat
        assert close(interval_of(row, "seven_points"), w["seven_points"]), row.seat
        assert row.last_trick_share == pytest.approx(w["last_trick_share"], rel=1e-12)
        assert row.mean_score_as_dealer == pytest.approx(w["mean_score_as_dealer"], rel=1e-12)


@pytest.mark.parametrize("variant,policies", [("ordinary", ["greedy", "random"]),
                                              ("three_handed", ["greedy", "random", "random"])],
                         ids=["ordinary", "three_handed"])
def test_summary_columns_are_the_records_own_tallies_with_their_intervals(variant, policies):
    """The summary table (``simulate(...).tables["summary"]``) against the records of the same
    hands (play_records): mean score, win share, brisque points, double bézique rate and seven
    points each with its interval, the last-trick share and the dealer's mean score. A win is a
    hand the seat scores more than every other seat; a tied hand is no win (ties are counted
    apart here, and there are some, so a share that counted them as wins fails), nor is a loss;
    an interval of the wrong width (z, n - 1, a variance misread) fails."""
    rules, n, seed = preset(variant), 3000, 21
    res = simulate(rules, policies, n, seed, threads=1)
    specs = [resolve_policy(p) for p in policies]
    rec = play_records(rules.to_array(), seed, 0, n, specs)
    want = direct_summary(rec, rules)
    assert sum(w["ties"] for w in want) > 0, "no tied hand: a share counting ties as wins would pass"
    assert all(w["wins"] > 0 and w["losses"] > 0 for w in want)
    check_summary_rows(res.tables["summary"], want, n, policies)


def test_four_handed_partnerships_are_pooled_scores_and_hands_won_outright():
    """Four-handed (V5): each partnership's row (seats 0+2, 1+3) is its pooled hand score with
    its normal interval and the share of hands its pooled score beat the other's (a tie won by
    neither), with its Wilson interval, counted from the records."""
    rules, n, seed = preset("four_handed"), 1500, 22
    policies = ["greedy", "random", "greedy", "random"]
    res = simulate(rules, policies, n, seed, threads=1)
    rec = play_records(rules.to_array(), seed, 0, n, [resolve_policy(p) for p in policies])
    pooled = [seat_field(rec, k, RS_SCORE) + seat_field(rec, k + 2, RS_SCORE) for k in range(2)]
    assert (pooled[0] == pooled[1]).sum() > 0, "no tied hand: ties counted as wins would pass"
    table = res.tables["partnerships"]
    for k, (_, row) in enumerate(table.iterrows()):
        assert row.side == f"seats {k}+{k + 2}" and row.hands == n
        assert close(interval_of(row, "mean_score"), normal_interval(pooled[k]))
        assert close(interval_of(row, "win_share"), wilson(int((pooled[k] > pooled[1 - k]).sum()), n))


def printed_figures(text: str) -> dict:
    """The figures of ``format_summary``'s text, by seat and label: (value, lo, hi) or (value,),
    a share (printed in per cent) back as a fraction; and by (seat, label, "unit") the half unit of
    the last digit printed, in the figure's own scale (what printing may round away)."""
    out = {}
    number = r"[-+]?\d[\d,]*(?:\.\d+)?"
    for block in re.split(r"^(?=seat \d)", text, flags=re.M):
        m = re.match(r"seat (\d)", block)
        if not m:
            continue
        seat = int(m.group(1))
        for label, value, pct, interval in re.findall(
                rf"^  (\S[^\d\[]*?)\s+({number})( %)?((?:\s+\[{number}, {number}\])?)(?: points)?\s*$", block, flags=re.M):
            texts = [value, *re.findall(number, interval)]
            scale = 0.01 if pct else 1.0
            out[seat, label] = tuple(float(x.replace(",", "")) * scale for x in texts)
            decimals = len(value.partition(".")[2])
            out[seat, label, "unit"] = 0.5 * 10 ** -decimals * scale
    return out


def test_simulate_command_prints_and_writes_the_records_own_tallies(tmp_path):
    """``bezique simulate``: the summary it prints (to the digits printed) and the summary.csv it
    writes (in full) hold the figures counted directly from the records of the same deals."""
    n, seed = 2000, 23
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["simulate", "--hands", str(n), "--seed", str(seed), "--threads", "1",
                                    "--policy", "greedy", "--policy", "random", "--out", str(out),
                                    "--format", "csv", "--quiet"])
    assert res.exit_code == 0, res.output
    rules = preset("ordinary")
    rec = play_records(rules.to_array(), seed, 0, n, [resolve_policy("greedy"), resolve_policy("random")])
    want = direct_summary(rec, rules)
    assert sum(w["ties"] for w in want) > 0
    check_summary_rows(pd.read_csv(out / "summary.csv"), want, n, ["greedy", "random"])
    printed = printed_figures(res.output)
    labels = {"mean hand score": "mean_score", "hands won": "win_share", "brisque points": "brisque_points",
              "double bézique": "double_bezique", "seven of trumps": "seven_points", "last trick won": "last_trick_share"}
    for seat, w in enumerate(want):
        for label, key in labels.items():
            shown = printed[seat, label]
            expected = w[key] if isinstance(w[key], tuple) else (w[key],)
            assert len(shown) == len(expected), (label, shown)
            assert shown == pytest.approx(expected, abs=printed[seat, label, "unit"] * 1.0001), (seat, label, shown)


def test_format_summary_prints_each_column_in_its_place():
    """format_summary: each printed figure is its own column, its interval's ends in order (a
    distinct value in every cell, exact at the digits printed, so that printing one column in
    another's place, or one end of an interval for the other, fails)."""
    keys = ["mean_score", "win_share", "brisque_points", "double_bezique_rate", "seven_points"]
    labels = ["mean hand score", "hands won", "brisque points", "double bézique", "seven of trumps"]
    row = {"seat": 0, "policy": "p", "hands": 10, "last_trick_share": 0.0909}
    cells = {}
    for i, key in enumerate(keys):
        base = key if key != "double_bezique_rate" else "double_bezique"
        cells[labels[i]] = (i / 10 + 0.2, i / 10 + 0.1, i / 10 + 0.3) if "_share" in key or "_rate" in key \
            else (i + 0.2, i + 0.1, i + 0.3)                     # value, lo, hi (a share below 1)
        row[key], row[base + "_lo"], row[base + "_hi"] = cells[labels[i]]
    printed = printed_figures(format_summary(pd.DataFrame([row])))
    for label, want in cells.items():
        assert printed[0, label] == pytest.approx(want, abs=1e-9), label
    assert printed[0, "last trick won"] == pytest.approx((0.0909,), abs=1e-9)


# --- 2. a paired comparison's mean difference and interval --------------------------------------

def test_paired_mean_difference_and_interval_are_those_of_the_per_deal_records():
    """compare_pair (greedy against random): the mean difference and its interval are those of
    the per-deal differences computed from the records of both seatings (each deal's difference
    the mean of A's margin in its two plays), to 1e-9; the wins, draws and losses are the plays
    counted one by one, and the score share (wins and half the draws) its Wilson interval and
    Elo. An interval too wide or too narrow, or a deal's difference not halved, fails."""
    rules, n, seed = preset("ordinary"), 1500, 31
    a, b = resolve_policy("greedy"), resolve_policy("random")
    row = compare_pair(rules, a, b, n, seed, threads=1).row()
    arr = rules.to_array()
    first = play_records(arr, seed, 0, n, [a, b])          # A in seat 0
    second = play_records(arr, seed, 0, n, [b, a])         # A in seat 1
    margin_1 = seat_field(first, 0, RS_SCORE) - seat_field(first, 1, RS_SCORE)
    margin_2 = seat_field(second, 1, RS_SCORE) - seat_field(second, 0, RS_SCORE)
    d = (margin_1 + margin_2) / 2
    assert close((row["mean_diff"], row["mean_diff_lo"], row["mean_diff_hi"]), normal_interval(d))
    margins = np.concatenate([margin_1, margin_2])
    wins, draws, losses = int((margins > 0).sum()), int((margins == 0).sum()), int((margins < 0).sum())
    assert draws > 0, "no drawn play: a draw counted as a win would pass"
    assert (row["deals"], row["games"]) == (n, 2 * n)
    assert (row["wins_a"], row["draws"], row["wins_b"]) == (wins, draws, losses)
    share = wilson(wins + 0.5 * draws, 2 * n)
    assert close((row["score_a"], row["score_a_lo"], row["score_a_hi"]), share)
    assert close((row["elo_a"], row["elo_a_lo"], row["elo_a_hi"]), tuple(elo(s) for s in share))


@pytest.mark.parametrize("scale", [2, 12])
def test_pair_tally_interval_is_mean_plus_minus_z_sd_over_root_n(scale):
    """PairTally.mean_diff and PairResult.row on a synthetic tally of known spread: n deals whose
    differences alternate m + s and m - s have mean m and sample sd s·√(n/(n-1)), so the
    interval is exactly m ± z·s/√(n-1). Equality to 1e-9, not containment: an interval too
    wide (a variance not divided by scale², z too large) fails, and so does one too narrow
    (n instead of n - 1, z too small). The tally kept in two chunks and merged is the same."""
    n, m, s = 400, 5.5, 12.0                       # the differences times 2 (and 12) are integers
    diffs = np.where(np.arange(n) % 2 == 0, m + s, m - s)
    scaled = np.rint(diffs * scale).astype(np.int64)
    assert (scaled == diffs * scale).all()
    half = Z * s / math.sqrt(n - 1)
    want = (m, m - half, m + half)

    def tally(part):
        return PairTally(deals=len(part), twice_diff=int(part.sum()), twice_diff_sq=int((part ** 2).sum()),
                         wins=3, draws=1, losses=2, scale=scale)

    whole = tally(scaled)
    assert close(whole.mean_diff(), want, rel=1e-12)
    merged = PairTally()
    merged.add(tally(scaled[:150]))
    merged.add(tally(scaled[150:]))
    assert close(merged.mean_diff(), want, rel=1e-12)
    row = PairResult("a", "b", merged).row()
    assert close((row["mean_diff"], row["mean_diff_lo"], row["mean_diff_hi"]), want, rel=1e-12)
    assert (row["deals"], row["games"], row["wins_a"], row["draws"], row["wins_b"]) == (n, 12, 6, 2, 4)
    share = wilson(6 + 0.5 * 2, 12)              # two chunks of 3 wins, 1 draw, 2 losses
    assert close((row["score_a"], row["score_a_lo"], row["score_a_hi"]), share)


def test_pair_tally_of_one_value_has_no_width_and_of_a_known_sample_its_own():
    """A tally whose every deal differs by the same amount has an interval of width 0; a small
    sample's interval is the textbook one (1, 2, 3, 4: 2.5 ± z·1.2910/2)."""
    const = PairTally(deals=50, twice_diff=2 * 50 * 7, twice_diff_sq=50 * 14 ** 2, scale=2)
    assert close(const.mean_diff(), (7.0, 7.0, 7.0), rel=1e-12)
    x = np.array([1, 2, 3, 4])
    t = PairTally(deals=4, twice_diff=int((2 * x).sum()), twice_diff_sq=int(((2 * x) ** 2).sum()), scale=2)
    half = Z * math.sqrt(5 / 3) / 2                # sample variance 5/3
    assert close(t.mean_diff(), (2.5, 2.5 - half, 2.5 + half), rel=1e-12)


# --- 3. three- and four-handed comparisons from hand-made records ------------------------------

def hand_made(players: int, n: int, seatings, seed: int = 0) -> dict:
    """Hand-made records for each seating: every seat's score drawn from a few multiples of 10
    (so that plays tie sometimes), the rest of each record zero."""
    rng = np.random.default_rng(seed)
    out = {}
    for seating in seatings:
        rec = np.zeros((n, REC_W), np.int32)
        for s in range(players):
            rec[:, REC_SEAT + s * REC_SEAT_W + RS_SCORE] = 10 * rng.integers(0, 6, n)
        out[seating] = rec
    return out


def fake_play_records(monkeypatch, a, b, records: dict) -> None:
    """compare's play_records answers, for deals start .. start+count-1, the hand-made records
    of the seating its policies name (A's seats 0, B's 1)."""
    def play(rules_arr, seed, start, count, specs):
        seating = tuple(0 if p is a else 1 for p in specs)
        return records[seating][start:start + count]
    monkeypatch.setattr(compare_module, "play_records", play)


def by_hand(players: int, records: dict) -> tuple[np.ndarray, int, int, int]:
    """Each deal's difference and the plays won, drawn and lost by A, computed seat by seat: a
    play's difference is A's mean score per seat minus B's (four players: A's partnership's
    pooled score minus B's), a deal's the mean over its seatings; a play is won by the side
    with the best seat (four players: the better pooled score)."""
    n = len(next(iter(records.values())))
    diffs = np.zeros(n)
    wins = draws = losses = 0
    for i in range(n):
        plays = []
        for seating, rec in records.items():
            score = [int(rec[i, REC_SEAT + s * REC_SEAT_W + RS_SCORE]) for s in range(players)]
            mine = [score[s] for s in range(players) if seating[s] == 0]
            theirs = [score[s] for s in range(players) if seating[s] == 1]
            if players == 4:
                plays.append(sum(mine) - sum(theirs))
                top_a, top_b = sum(mine), sum(theirs)
            else:
                plays.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
                top_a, top_b = max(mine), max(theirs)
            wins += top_a > top_b
            draws += top_a == top_b
            losses += top_a < top_b
        diffs[i] = sum(plays) / len(plays)
    return diffs, wins, draws, losses


@pytest.mark.parametrize("variant", ["ordinary", "three_handed", "four_handed"])
def test_mean_difference_from_hand_made_records_is_computed_by_hand(monkeypatch, variant):
    """deal_differences and compare_pair on hand-made records of every seating (two players:
    the seats swapped; three: every one against two and two against one; four: partnerships,
    then swapped): the mean difference, its interval and the plays won, drawn and lost are those
    computed seat by seat here. A three-handed mean off by a factor of two, or a seat's score
    given to the wrong side, fails."""
    rules = preset(variant)
    a, b = resolve_policy("greedy"), resolve_policy("random")
    ways = compare_module.seatings(rules.players)
    assert len(ways) == {2: 2, 3: 6, 4: 2}[rules.players]
    n = 300
    records = hand_made(rules.players, n, ways, seed=rules.players)
    fake_play_records(monkeypatch, a, b, records)
    diffs, wins, draws, losses = by_hand(rules.players, records)
    assert draws > 0
    scaled, tally = deal_differences(RunTask(pair_chunk, rules, 1, (a, b)), a, b, 0, n)
    assert np.allclose(scaled / tally.scale, diffs, rtol=0, atol=1e-12)
    row = compare_pair(rules, a, b, n, seed=1, threads=1).row()
    assert close((row["mean_diff"], row["mean_diff_lo"], row["mean_diff_hi"]), normal_interval(diffs))
    assert (row["deals"], row["games"]) == (n, len(ways) * n)
    assert (row["wins_a"], row["draws"], row["wins_b"]) == (wins, draws, losses)


@pytest.mark.parametrize("variant,per_deal", [("ordinary", 60), ("three_handed", 60), ("four_handed", 120)])
def test_a_side_scoring_more_per_seat_is_ahead_by_exactly_that(monkeypatch, variant, per_deal):
    """Hand-made records where A's seats score 100 each and B's 40 in every seating: A is 60
    points a seat better in every play, so the mean difference is exactly 60, with no width
    (four players: the partnerships' pooled points, 200 - 80 = 120). A mean over seats taken
    as a sum (three players: +20 and +160, mean 90), or a factor of two, fails."""
    rules = preset(variant)
    a, b = resolve_policy("greedy"), resolve_policy("random")
    ways = compare_module.seatings(rules.players)
    n = 20
    records = {}
    for seating in ways:
        rec = np.zeros((n, REC_W), np.int32)
        for s, side in enumerate(seating):
            rec[:, REC_SEAT + s * REC_SEAT_W + RS_SCORE] = 100 if side == 0 else 40
        records[seating] = rec
    fake_play_records(monkeypatch, a, b, records)
    row = compare_pair(rules, a, b, n, seed=1, threads=1).row()
    assert (row["mean_diff"], row["mean_diff_lo"], row["mean_diff_hi"]) == (per_deal, per_deal, per_deal)
    assert (row["wins_a"], row["draws"], row["wins_b"]) == (len(ways) * n, 0, 0)


# --- 4. the report's verdicts -----------------------------------------------------------------

PAIR_CASES = [  # mean, lo, hi, the verdict
    (12.0, 4.0, 20.0, "beats"),
    (-12.0, -20.0, -4.0, "loses to"),
    (3.0, -1.0, 7.0, "cannot be told apart"),          # above zero, but the interval straddles it
    (-3.0, -7.0, 1.0, "cannot be told apart"),
    (5.0, 0.0, 10.0, "cannot be told apart"),          # the interval touches zero
    (-5.0, -10.0, 0.0, "cannot be told apart"),
]


def test_head_to_head_verdicts_claim_only_what_the_interval_supports():
    """The report's head-to-head sentence: "beats" only for an interval clear above zero,
    "loses to" only clear below, "cannot be told apart" whenever it holds zero (an estimate on
    either side of zero included, and an interval ending at zero)."""
    rows = [{"policy_a": f"a{i}", "policy_b": f"b{i}", "mean_diff": m, "mean_diff_lo": lo, "mean_diff_hi": hi,
             "score_a": 0.5, "score_a_lo": 0.45, "score_a_hi": 0.55, "games": 200, "deals": 100}
            for i, (m, lo, hi, _) in enumerate(PAIR_CASES)]
    st = SimpleNamespace(rules=SimpleNamespace(is_rubicon=False))
    sentences = _head_to_head(st, pd.DataFrame(rows), "points per hand")
    assert len(sentences) == len(PAIR_CASES)
    for i, (sentence, (_, _, _, verdict)) in enumerate(zip(sentences, PAIR_CASES)):
        said = ("beats" if f"**a{i}** beats **b{i}**" in sentence else
                "loses to" if f"**a{i}** loses to **b{i}**" in sentence else
                "cannot be told apart" if f"**a{i}** and **b{i}** cannot be told apart" in sentence else None)
        assert said == verdict, sentence


HINT_CASES = {  # hint: (mean, lo, hi), the part of the sentence it belongs in
    "H1": ((6.0, 2.0, 10.0), "worth having"),
    "H2": ((2.0, -1.0, 5.0), "not told apart from nothing"),      # positive, but straddling zero
    "H3": ((-6.0, -10.0, -2.0), "costing"),
    "H4": ((-2.0, -5.0, 1.0), "not told apart from nothing"),
    "H5": ((0.0, 0.0, 0.0), "never changing a deal's result here"),
    "H6": ((3.0, 0.0, 6.0), "not told apart from nothing"),       # the interval touches zero
    "H10": ((1.0, -0.5, 2.5), "not told apart from nothing"),    # "H1" is a prefix of its name
}


def hint_parts(sentence: str) -> dict:
    """The hints named in each part of the hints' worth sentence ("worth having: H1 ...; costing: ...")."""
    body = sentence[sentence.index(") are ") + len(") are "):sentence.rindex(" (")]
    parts = {}
    for part in body.split("; "):
        label, _, rest = part.partition(": ")
        parts[label] = set(re.findall(r"\bH\d+\b", rest))
    return parts


def test_hint_worth_verdicts_claim_only_what_the_interval_supports():
    """The report's hints' worth sentence: a hint is "worth having" only when its interval is
    clear above zero and "costing" only clear below; one whose interval holds zero (touching it
    included) is "not told apart from nothing", and one never changing a deal (0 [0, 0]) is said
    so. Every hint is named in exactly one part."""
    df = pd.DataFrame([{"hint": h, "advice": "", "deals": 100, "mean_diff": m, "mean_diff_lo": lo,
                        "mean_diff_hi": hi} for h, ((m, lo, hi), _) in HINT_CASES.items()])
    st = SimpleNamespace(ablation=df, strong=SimpleNamespace(policy="learned"))
    (sentence,) = _hint_worth(st, "points per hand")
    parts = hint_parts(sentence)
    for hint, (_, where) in HINT_CASES.items():
        holding = [label for label, hints in parts.items() if hint in hints]
        assert holding == [where], (hint, parts)


def hint_rows(agree: tuple, gain: tuple, cost: tuple = (2.0, -1.0, 5.0)) -> pd.DataFrame:
    """A hint study's table (hint_study.hint_table's columns) with one row, over all decisions."""
    row = {"hint": "H2", "stage": "all", "kind": "all", "applies": 200, "applies_share": 0.3}
    for key, (v, lo, hi) in (("agree", agree), ("gain", gain), ("cost_of_following", cost)):
        row.update({key: v, f"{key}_lo": lo, f"{key}_hi": hi})
    row.update(gain_n=200, cost_of_following_n=60)
    return pd.DataFrame([row])


@pytest.mark.parametrize("gain,said", [
    ((6.0, 1.0, 11.0), "following it gains"),
    ((-6.0, -11.0, -1.0), "following it loses"),
    ((3.0, -1.0, 7.0), "Following it and ignoring it are not told apart"),   # straddling zero
    ((-3.0, -7.0, 1.0), "Following it and ignoring it are not told apart"),
    ((5.0, 0.0, 10.0), "Following it and ignoring it are not told apart"),   # touching zero
], ids=["above", "below", "straddling-above", "straddling-below", "touching-zero"])
def test_hint_study_verdict_on_the_gain_follows_its_interval(gain, said):
    """hints.md's verdict (hint_report.verdict): following a hint "gains" only when the gain's
    interval is clear above zero, "loses" only clear below; otherwise following and ignoring it
    are not told apart."""
    text = verdict(hint_rows((0.8, 0.7, 0.9), gain), "H2", "points")
    phrases = ("following it gains", "following it loses", "Following it and ignoring it are not told apart")
    assert [p for p in phrases if p in text] == [said], text


@pytest.mark.parametrize("agree,opening", [
    ((0.8, 0.7, 0.9), "strong play agrees:"),
    ((0.2, 0.1, 0.3), "strong play disagrees"),
    ((0.6, 0.45, 0.75), "not told apart"),             # above one half, but the interval straddles it
    ((0.4, 0.25, 0.55), "not told apart"),
], ids=["above", "below", "straddling-above", "straddling-below"])
def test_hint_study_verdict_on_agreement_follows_its_interval(agree, opening):
    """hint_report.verdict: strong play "agrees" with a hint only when the interval of its
    agreement is above one half, "disagrees" (following it costing) only when below; an
    interval straddling one half claims neither, whichever side its estimate is on."""
    text = verdict(hint_rows(agree, (1.0, -2.0, 4.0), cost=(12.0, 4.0, 20.0)), "H2", "points")
    assert text.startswith(opening), text


# --- 5. the example policy's claim, in each seat ------------------------------------------------

def exchanges_by_seat(rules, seed: int, hands: int, specs) -> np.ndarray:
    """Exchanges of the seven of trumps made by each seat over hands 0 .. hands-1, read from each
    hand's event log (the same deals and random streams as a simulation's)."""
    count = np.zeros(rules.players, np.int64)
    for i in range(hands):
        outcome = play_spec(dealt_spec(rules, seed, i), specs, seed=seed, hand=i)
        assert outcome.error is None, outcome.error
        for e in outcome.events:
            if e["event"] == "exchange":
                count[e["seat"]] += 1
    return count


def test_example_policy_never_exchanges_in_either_seat():
    """examples/my_policy.py:no_exchange ("never exchange the seven of trumps"), against greedy,
    in seat 0 and in seat 1: no exchange is ever its seat's, while greedy's seat does exchange
    (so the hands give the policy the chance). The exchanges of the event logs are the records'
    (REC_EXCHANGES, per hand): the logs play the simulation's hands."""
    rules, seed, hands = preset("ordinary"), 41, 250
    mine, greedy = resolve_policy(f"{EXAMPLE}:no_exchange"), resolve_policy("greedy")
    for seat in (0, 1):
        specs = [mine, greedy] if seat == 0 else [greedy, mine]
        count = exchanges_by_seat(rules, seed, hands, specs)
        assert count[seat] == 0, (seat, count)
        assert count[1 - seat] > 0, (seat, count)
        rec = play_records(rules.to_array(), seed, 0, hands, specs)
        assert count.sum() == rec[:, REC_EXCHANGES].sum()
