"""Tallies.from_records (the numba kernel) against a plain numpy reference, on played and
hand-built records."""

import numpy as np
import pytest

from analyzer.cards import COMBO_NAMES, N_COMBOS
from analyzer.engine.layout import (
    REC_DEALER,
    REC_LAST_WINNER,
    REC_SEAT,
    REC_SEAT_W,
    REC_TRUMP,
    REC_TRUMP_HOW,
    REC_TRUMP_TRICK,
    REC_W,
    RS_BEZ_MAX,
    RS_BRISQ,
    RS_CARTE,
    RS_DBL_MISS,
    RS_FIRST_B,
    RS_HELD_B,
    RS_NDECL,
    RS_RECV_JD,
    RS_RECV_QS,
    RS_SCORE,
    RS_SEVEN,
    RS_TABLE_DECL,
)
from analyzer.tables import study_tables
from analyzer.policies.spec import resolve_policy
from analyzer.rubicon_score import rubicon_results
from analyzer.rules import R_POINTS, R_ROYAL_POINTS, R_TRUMP_SEQ_POINTS, preset
from analyzer.run.records import play_records
from analyzer.run.tallies import CATEGORY_NAMES, FIELDS, GAME_BIN, GAME_BINS, SCORE_BINS, TRICK_BINS, Tallies, score_bin


def reference_tallies(rec, rules) -> Tallies:
    """The former numpy implementation of Tallies.from_records, kept as the reference."""
    n_seats = rules.players
    rubicon = rules.brisques == "tiebreak"
    arr = rules.to_array()
    base = arr[R_POINTS:R_POINTS + N_COMBOS]
    trump = rec[:, REC_TRUMP]
    t = Tallies(n_seats)
    t.hands = len(rec)
    seats = range(n_seats)

    def cols(off):
        return rec[:, [REC_SEAT + s * REC_SEAT_W + off for s in seats]].astype(np.int64)

    score = cols(RS_SCORE)
    brisq = cols(RS_BRISQ) * 10
    seven = cols(RS_SEVEN)
    t.score, t.score_sq = score.sum(0), (score ** 2).sum(0)
    top = score == score.max(1, keepdims=True)
    single = top.sum(1) == 1
    t.wins = (top & single[:, None]).sum(0)
    t.ties = np.int64((~single).sum())
    t.brisques, t.brisques_sq = brisq.sum(0), (brisq ** 2).sum(0)
    t.seven, t.seven_sq = seven.sum(0), (seven ** 2).sum(0)
    t.last_trick = np.array([(rec[:, REC_LAST_WINNER] == s).sum() for s in seats])   # its points may be 0
    bez = cols(RS_BEZ_MAX)
    t.double_bezique = (bez >= 2).sum(0)
    t.carte_blanche = (cols(RS_CARTE) > 0).sum(0)
    t.table_declarations = cols(RS_TABLE_DECL).sum(0)
    held = cols(RS_HELD_B)
    miss = cols(RS_DBL_MISS)
    unscored = (held > 0) & (bez < 2)
    t.unscored_played = (unscored & (miss == 1)).sum(0)
    t.unscored_talon = (unscored & (miss != 1)).sum(0)
    recv = np.minimum(cols(RS_RECV_QS), cols(RS_RECV_JD))
    for s in seats:
        b = REC_SEAT + s * REC_SEAT_W
        counts = rec[:, b + RS_NDECL:b + RS_NDECL + N_COMBOS].astype(np.int64)
        t.declarations[s] = counts.sum(0)
        pts = counts * base
        for suit in range(4):
            in_trump = trump == suit
            pts[in_trump, suit] = counts[in_trump, suit] * arr[R_ROYAL_POINTS]
            pts[in_trump, 4 + suit] = counts[in_trump, 4 + suit] * arr[R_TRUMP_SEQ_POINTS]
        t.decl_points[s] = pts.sum(0)
        in_trump = np.arange(4)[None, :] == trump[:, None]       # royal / trump sequence

        def by_category(x):
            return np.column_stack([(x[:, 0:4] * in_trump).sum(1), (x[:, 0:4] * ~in_trump).sum(1),
                                    (x[:, 4:8] * in_trump).sum(1), (x[:, 4:8] * ~in_trump).sum(1), x[:, 8:]])
        t.cat_hands[s] = (by_category(counts) > 0).sum(0)
        t.cat_count[s] = by_category(counts).sum(0)
        t.cat_points[s] = by_category(pts).sum(0)
        dealt = rec[:, REC_DEALER] == s
        t.dealer_score[s] = score[dealt, s].sum()
        t.dealer_score_sq[s] = (score[dealt, s] ** 2).sum()
        t.dealer_hands[s] = dealt.sum()
        width = 100 if rubicon else 10
        t.score_hist[s] = np.bincount(np.minimum(score[:, s] // width, SCORE_BINS - 1),
                                      minlength=SCORE_BINS)
        t.bezique_level[s] = np.bincount(bez[:, s], minlength=5)[:5]
        for k in range(3):
            first = np.clip(rec[:, b + RS_FIRST_B + k], 0, TRICK_BINS - 1)
            t.first_bezique[s, k] = np.bincount(first, minlength=TRICK_BINS)
            held_k = np.clip(rec[:, b + RS_HELD_B + k], 0, TRICK_BINS - 1)
            t.held_bezique[s, k] = np.bincount(held_k, minlength=TRICK_BINS)
        t.received[s] = [(recv[:, s] >= k).sum() for k in range(5)]
    t.trump_how = np.bincount(np.where(rec[:, REC_TRUMP] < 0, 3, rec[:, REC_TRUMP_HOW]),
                              minlength=4)[:4].astype(np.int64)
    fixed = rec[:, REC_TRUMP] >= 0
    t.trump_trick = np.bincount(np.clip(rec[fixed, REC_TRUMP_TRICK], 0, 64), minlength=65).astype(np.int64)
    if n_seats != 2:
        return t
    x = brisq[:, 0] // 10
    if rubicon:
        g = rubicon_results(score, brisq)
        won = np.stack([g["winner"] == 0, g["winner"] == 1], axis=1)
        lost = won[:, ::-1]
        decided = g["winner"] >= 0                       # a drawn game (Law 61) nets 0 to each
        net = np.where(won, g["points"][:, None], np.where(lost, -g["points"][:, None], 0))
        t.game_wins, t.game_net, t.game_net_sq = won.sum(0), net.sum(0), (net ** 2).sum(0)
        t.game_draws = np.int64((~decided).sum())
        t.rubiconed = (lost & g["rubicon"][:, None]).sum(0)
        t.winner_points = np.int64(g["points"][decided].sum())
        t.winner_points_sq = np.int64((g["points"][decided] ** 2).sum())
        t.brisques_saved = np.int64(g["brisques_saved"].sum())
        t.brisques_broke_tie = np.int64(g["brisques_broke_tie"].sum())
        t.game_hist = np.bincount(np.minimum(g["points"][decided] // GAME_BIN, GAME_BINS - 1),
                                  minlength=GAME_BINS).astype(np.int64)
        y = net[:, 0]
        loser = np.where(g["winner"] == 0, score[:, 1], score[:, 0])[decided]
        t.loser_hist = np.bincount(np.minimum(loser // 100, SCORE_BINS - 1), minlength=SCORE_BINS).astype(np.int64)
        by_totals = np.where(score[:, 0] != score[:, 1], (score[:, 1] > score[:, 0]).astype(int),
                             rec[:, REC_LAST_WINNER])
        t.winner_changed = np.int64((by_totals != g["winner"]).sum())
    else:
        y = score[:, 0] - score[:, 1]
        without = y - (brisq[:, 0] - brisq[:, 1])
        t.winner_changed = np.int64((np.sign(y) != np.sign(without)).sum())
    t.reg_sx, t.reg_sy = np.int64(x.sum()), np.int64(y.sum())
    t.reg_sxx, t.reg_sxy, t.reg_syy = (np.int64((x * x).sum()), np.int64((x * y).sum()),
                                       np.int64((y * y).sum()))
    return t


def assert_same(got: Tallies, want: Tallies) -> None:
    assert got.hands == want.hands and got.n_seats == want.n_seats
    for name in FIELDS:
        g, w = np.asarray(getattr(got, name)), np.asarray(getattr(want, name))
        assert g.dtype == np.int64 and g.shape == w.shape, name
        assert np.array_equal(g, w), name


@pytest.fixture(scope="module", params=["ordinary", "rubicon"])
def played(request):
    rules = preset(request.param)
    specs = [resolve_policy("greedy"), resolve_policy("random")]
    return rules, play_records(rules.to_array(), 11, 0, 3000, specs)


def test_played_hands_match_reference(played):
    rules, rec = played
    got = Tallies.from_records(rec, rules)
    assert_same(got, reference_tallies(rec, rules))
    # the records exercise the interesting branches
    assert got.decl_points.sum() > 0 and got.first_bezique[:, 0, 1:].sum() > 0
    if rules.brisques == "tiebreak":
        assert got.rubiconed.sum() > 0


def test_held_but_unscored_reasons_are_exclusive_and_exhaustive(played):
    """Every seat-hand that held a double scored one or did not, and then either a card of it
    was played or the talon ran out: the reasons add up to held-but-unscored exactly."""
    rules, rec = played
    t = Tallies.from_records(rec, rules)
    scored = t.bezique_level[:, 2:].sum(1)
    assert np.array_equal(scored + t.unscored_played + t.unscored_talon, t.held_double())
    assert t.unscored_played.sum() > 0 and t.unscored_talon.sum() > 0
    df = study_tables.double_bezique_table({"p": t}, {2: 0.5})
    r = df.iloc[0]
    assert r.held_not_scored_card_played + r.held_not_scored_talon_ran_out == pytest.approx(r.held_not_scored)
    assert r.scored_double + r.held_not_scored == pytest.approx(r.held_double)


def test_slope_per_brisque_won_is_twice_the_slope_on_the_difference(played):
    """A brisque won by seat 0 is one lost by seat 1 (the total is fixed), so the margin per
    brisque won is twice the margin per unit of the brisques difference."""
    rules, rec = played
    cols = [REC_SEAT + s * REC_SEAT_W for s in (0, 1)]
    score = np.stack([rec[:, c + RS_SCORE] for c in cols], 1).astype(np.int64)
    brisq = np.stack([rec[:, c + RS_BRISQ] for c in cols], 1).astype(np.int64)
    assert len(np.unique(brisq.sum(1))) == 1 and brisq.sum(1)[0] == 8 * rules.packs
    if rules.brisques == "tiebreak":
        g = rubicon_results(score, brisq * 10)
        margin = np.select([g["winner"] == 0, g["winner"] == 1], [g["points"], -g["points"]], 0)
    else:
        margin = score[:, 0] - score[:, 1]
    on_difference = np.polyfit(brisq[:, 0] - brisq[:, 1], margin, 1)[0]
    slope, lo, hi = study_tables.regression(Tallies.from_records(rec, rules))
    assert slope == pytest.approx(2 * on_difference, rel=1e-9) and lo < slope < hi
    assert slope == pytest.approx(np.polyfit(brisq[:, 0], margin, 1)[0], rel=1e-9)


def test_score_histogram_mean_within_one_bin_and_no_comb(played):
    """The mean recomputed from the bins (midpoints; the open last bin at its lower edge) is
    the true mean within one bin width; the last bin is labelled "≥ X"; and no bin below the
    90th percentile is empty (10-point bins in Rubicon, whose scores are mostly multiples of
    20 and 50, would leave every other one empty)."""
    rules, rec = played
    t = Tallies.from_records(rec, rules)
    width = score_bin(rules)
    df = study_tables.score_distribution_table({"p": t}, width)
    assert df.bin.iloc[-1] == f"≥ {df.score.iloc[-1]}" and df.bin.iloc[0] == f"0–{width - 1}"
    mid = df.score + np.where(np.arange(len(df)) < len(df) - 1, width / 2, 0)
    true_mean = t.score.sum() / (t.hands * t.n_seats)
    assert abs((mid * df.hands).sum() / df.hands.sum() - true_mean) <= width
    assert df.at_least.iloc[0] == 1 and (np.diff(df.at_least) <= 0).all()
    p90 = np.quantile(np.concatenate([rec[:, REC_SEAT + s * REC_SEAT_W + RS_SCORE] for s in (0, 1)]), 0.9)
    assert (df.hands[df.score + width <= p90] > 0).all()


def test_double_rebuilt_and_scored_later_counts_as_scored():
    rules = preset("rubicon")
    rec = make_records([
        # held at trick 3, a card played (miss 1), rebuilt and scored at trick 20
        {"seats": [{RS_HELD_B: 4, RS_DBL_MISS: 1, RS_BEZ_MAX: 2, RS_FIRST_B: 20}, {}]},
        # held, a card played, never scored
        {"seats": [{RS_HELD_B: 4, RS_DBL_MISS: 1, RS_BEZ_MAX: 1}, {RS_HELD_B: 1, RS_DBL_MISS: 2}]},
    ])
    t = Tallies.from_records(rec, rules)
    assert_same(t, reference_tallies(rec, rules))
    assert t.held_double().tolist() == [2, 1] and t.held_bezique[0, 0, 4] == 2 and t.held_bezique[1, 0, 1] == 1
    assert t.unscored_played.tolist() == [1, 0] and t.unscored_talon.tolist() == [0, 1]


def test_category_counted_once_per_hand():
    """Hands with a category declared at least once: two common marriages (and a double
    bézique declared twice, R3.6) count one hand each; Rubicon's back-door sequence is plain."""
    rules = preset("rubicon")
    rec = make_records([
        {REC_TRUMP: 1, "seats": [{"marriage_S": 1, "marriage_C": 2, "double_bezique": 2, "sequence_D": 1},
                                 {"marriage_H": 1, "sequence_H": 1}]},
        {REC_TRUMP: -1, "seats": [{"four_aces": 3}, {}]},
    ])
    t = Tallies.from_records(rec, rules)
    assert_same(t, reference_tallies(rec, rules))
    names = list(CATEGORY_NAMES)
    want0 = {"common_marriage": (1, 3, 60), "plain_sequence": (1, 1, 150), "double_bezique": (1, 2, 1000),
             "four_aces": (1, 3, 300)}
    want1 = {"royal_marriage": (1, 1, 40), "trump_sequence": (1, 1, 250)}
    for s, want in enumerate((want0, want1)):
        got = {names[g]: (t.cat_hands[s, g], t.cat_count[s, g], t.cat_points[s, g])
               for g in range(len(names)) if t.cat_hands[s, g]}
        assert got == want


def test_chunks_add_up(played):
    rules, rec = played
    total = Tallies.from_records(rec[:1234], rules)
    total.add(Tallies.from_records(rec[1234:], rules))
    assert_same(total, Tallies.from_records(rec, rules))


def make_records(rows) -> np.ndarray:
    """Records from dicts: top-level REC_* columns by offset, ``seats`` a list of
    {RS_* offset or combination name: value}."""
    rec = np.zeros((len(rows), REC_W), np.int32)
    for i, row in enumerate(rows):
        for col, v in row.items():
            if col != "seats":
                rec[i, col] = v
        for s, seat in enumerate(row["seats"]):
            for key, v in seat.items():
                off = RS_NDECL + COMBO_NAMES.index(key) if isinstance(key, str) else key
                rec[i, REC_SEAT + s * REC_SEAT_W + off] = v
    return rec


def test_hand_built_ordinary():
    rules = preset("ordinary")
    rec = make_records([
        {REC_DEALER: 0, REC_TRUMP: 0, REC_TRUMP_HOW: 1, REC_TRUMP_TRICK: 5, "seats": [
            {RS_SCORE: 500, RS_BRISQ: 10, RS_BEZ_MAX: 2, RS_FIRST_B: 7,
             "marriage_S": 1, "bezique": 1},
            {RS_SCORE: 300, RS_BRISQ: 5, RS_RECV_QS: 2, RS_RECV_JD: 1,
             "marriage_H": 1, "sequence_S": 1}]},
        {REC_DEALER: 1, REC_TRUMP: 2, "seats": [
            {RS_SCORE: 200, "marriage_S": 1},
            {RS_SCORE: 200}]},
    ])
    t = Tallies.from_records(rec, rules)
    assert_same(t, reference_tallies(rec, rules))
    assert t.score.tolist() == [700, 500] and t.wins.tolist() == [1, 0] and t.ties == 1
    assert t.brisques.tolist() == [100, 50]
    assert t.dealer_score.tolist() == [500, 200] and t.dealer_hands.tolist() == [1, 1]
    assert t.declarations[0, 0] == 2
    assert t.decl_points[0, 0] == 40 + 20        # marriage in trumps, then in a plain suit
    assert t.decl_points[0, 8] == 40
    assert t.decl_points[1, 1] == 20 and t.decl_points[1, 4] == 250
    assert t.double_bezique.tolist() == [1, 0] and t.bezique_level[0].tolist() == [1, 0, 1, 0, 0]
    assert t.first_bezique[0, 0, 7] == 1 and t.first_bezique[0, 0, 0] == 1
    assert t.received[1].tolist() == [2, 1, 0, 0, 0]
    # [turn-up, marriage, sequence, none]; hand 2's trump is the turn-up's, at trick 0
    assert t.trump_how.tolist() == [1, 1, 0, 0] and t.trump_trick[5] == 1 and t.trump_trick[0] == 1
    assert t.trump_trick.sum() == 2
    assert t.score_hist[0, 50] == 1 and t.score_hist[0, 20] == 1
    # categories: seat 0 married in trumps (hand 1) and in a plain suit (hand 2)
    assert t.cat_hands[0, :5].tolist() == [1, 1, 0, 0, 1] and t.cat_hands[1, :4].tolist() == [0, 1, 1, 0]
    assert t.cat_points[0, :2].tolist() == [40, 20] and t.cat_points[1, 2] == 250
    assert (t.reg_sx, t.reg_sy, t.reg_sxy, t.winner_changed) == (10, 200, 2000, 0)


def test_hand_built_rubicon():
    rules = preset("rubicon")
    rec = make_records([
        # 1200 to 700: rubiconed, 1200 + 700 + 1300 (R3.9)
        {REC_LAST_WINNER: 0, "seats": [{RS_SCORE: 1200, RS_BRISQ: 10}, {RS_SCORE: 700, RS_BRISQ: 10}]},
        # 1100 all: seat 1 wins on brisques; on the totals with brisques, 1250 to 1270, the
        # difference 0 counts as 100: 600 (Laws 57, 61)
        {REC_LAST_WINNER: 0, "seats": [{RS_SCORE: 1100, RS_BRISQ: 15}, {RS_SCORE: 1100, RS_BRISQ: 17}]},
        # 1400 to 950 + 80 brisques: saved, both count brisques: 1600 - 1000 + 500
        {REC_LAST_WINNER: 1, "seats": [{RS_SCORE: 1400, RS_BRISQ: 24}, {RS_SCORE: 950, RS_BRISQ: 8}]},
        # 1100 all and 160 brisques each: drawn, null and void (Law 61)
        {REC_LAST_WINNER: 0, "seats": [{RS_SCORE: 1100, RS_BRISQ: 16}, {RS_SCORE: 1100, RS_BRISQ: 16}]},
        # 990 to 980 + 30 brisques: saved; 990 + 20 = 980 + 30, a tie after adding: drawn
        {REC_LAST_WINNER: 1, "seats": [{RS_SCORE: 990, RS_BRISQ: 2}, {RS_SCORE: 980, RS_BRISQ: 3}]},
    ])
    t = Tallies.from_records(rec, rules)
    assert_same(t, reference_tallies(rec, rules))
    assert t.game_wins.tolist() == [2, 1] and t.game_draws == 2 and t.rubiconed.tolist() == [0, 1]
    assert t.game_net.tolist() == [3200 - 600 + 1100, 600 - 3200 - 1100]
    assert (t.winner_points, t.brisques_saved, t.brisques_broke_tie) == (4900, 2, 1)
    # the winner changes in the tie broken by brisques and in both draws
    assert t.winner_changed == 3
    assert t.game_hist[32] == 1 and t.game_hist[6] == 1 and t.game_hist[11] == 1 and t.game_hist.sum() == 3
    # the losers' totals of the decided games: 700, 1100 (lost on brisques), 950
    assert t.loser_hist[7] == 1 and t.loser_hist[11] == 1 and t.loser_hist[9] == 1 and t.loser_hist.sum() == 3
    assert t.reg_sy == 3200 - 600 + 1100

    # the tables: shares over all games, draws included; the winner's score over decided games
    r = study_tables.rubicon_rates_table({"p": t}).iloc[0]
    assert (r.games, r.decided_games) == (5, 3)
    assert r.drawn == pytest.approx(2 / 5) and r.rubicon_rate == pytest.approx(1 / 5)
    assert r.saved_by_brisques == pytest.approx(2 / 5) and r.tie_broken_by_brisques == pytest.approx(1 / 5)
    assert r.winner_game_score == pytest.approx(4900 / 3)
    scores = study_tables.game_score_table({"p": t})
    assert scores.share.sum() == pytest.approx(1) and scores.games.sum() == 3
    losers = study_tables.loser_total_table({"p": t}, 100, 1000)
    assert losers.share.sum() == pytest.approx(1) and losers.under_limit.iloc[0] == pytest.approx(2 / 3)
    from types import SimpleNamespace

    from analyzer.tables.stats import rubicon_table
    seats = rubicon_table(SimpleNamespace(tallies=t, policies=["a", "b"]))
    assert seats.game_win_share.tolist() == pytest.approx([2 / 5, 1 / 5])
    assert seats.game_win_share.sum() + seats.drawn_share.iloc[0] == pytest.approx(1)
    assert seats.net_game_points.tolist() == pytest.approx([3700 / 5, -3700 / 5])
    assert seats.winner_game_score.iloc[0] == pytest.approx(4900 / 3) and seats.decided_games.iloc[0] == 3
