"""Invariants over many random hands with both built-in policies."""
import numpy as np
import pytest

from analyzer.engine.layout import (
    REC_CARDS_LEFT,
    REC_CARDS_WON,
    REC_EXCHANGES,
    REC_LAST_WINNER,
    REC_SEAT,
    REC_SEAT_W,
    REC_STATUS,
    REC_TRICKS,
    RS_BRISQ,
    RS_DECL,
    RS_LAST,
    RS_SCORE,
    RS_SEVEN,
)
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

PAIRS = [("random", "random"), ("greedy", "greedy"), ("greedy", "random")]


def seat_col(rec, seat, off):
    return rec[:, REC_SEAT + seat * REC_SEAT_W + off].astype(np.int64)


@pytest.mark.parametrize("packs,hand_size", [(2, 8), (3, 8), (2, 9), (2, 10)])
@pytest.mark.parametrize("pair", PAIRS)
def test_invariants(pair, packs, hand_size):
    rules = preset("ordinary", packs=packs, hand_size=hand_size)
    rec = simulate(rules, list(pair), 3000, seed=11, threads=1, keep_records=True).records
    n_cards = 32 * packs
    assert (rec[:, REC_STATUS] == 0).all()
    # every card accounted for: all won in tricks, none left in hand or on the table
    assert (rec[:, REC_CARDS_WON] == n_cards).all()
    assert (rec[:, REC_CARDS_LEFT] == 0).all()
    assert (rec[:, REC_TRICKS] == n_cards // 2).all()
    # brisques: 10 per ace and ten, 160 with two packs, 240 with three (R2.22)
    brisques = seat_col(rec, 0, RS_BRISQ) + seat_col(rec, 1, RS_BRISQ)
    assert (brisques * 10 == 80 * packs).all()
    # the last trick is scored exactly once, by its winner (R2.21)
    last = np.stack([seat_col(rec, s, RS_LAST) for s in (0, 1)], axis=1)
    assert (last.sum(axis=1) == 10).all()
    assert (last[np.arange(len(rec)), rec[:, REC_LAST_WINNER]] == 10).all()
    # hand score = declarations + sevens + last trick + brisques; multiples of 10 (R2.23)
    for s in (0, 1):
        score = seat_col(rec, s, RS_SCORE)
        parts = (seat_col(rec, s, RS_DECL) + seat_col(rec, s, RS_SEVEN)
                 + seat_col(rec, s, RS_LAST) + 10 * seat_col(rec, s, RS_BRISQ))
        assert (score == parts).all()
        assert (score % 10 == 0).all()
    # at most one exchange; the sevens score at most 10 each (R2.9, R2.10)
    assert (rec[:, REC_EXCHANGES] <= 1).all()
    sevens = seat_col(rec, 0, RS_SEVEN) + seat_col(rec, 1, RS_SEVEN)
    assert (sevens <= 10 * packs).all()


def test_greedy_exchanges_and_declares_more_than_random():
    rules = preset("ordinary")
    res = simulate(rules, ["greedy", "random"], 4000, seed=5, threads=1)
    t = res.tallies
    assert t.declarations[0].sum() > t.declarations[1].sum()
    assert t.score[0] > t.score[1]


@pytest.mark.parametrize("pair", PAIRS)
def test_rubicon_invariants(pair):
    from analyzer.engine.layout import REC_TRUMP, REC_TRUMP_HOW, RS_CARTE
    rules = preset("rubicon")
    rec = simulate(rules, list(pair), 1500, seed=3, threads=1, keep_records=True).records
    assert (rec[:, REC_STATUS] == 0).all()
    assert (rec[:, REC_CARDS_WON] == 128).all() and (rec[:, REC_CARDS_LEFT] == 0).all()
    assert (rec[:, REC_TRICKS] == 64).all()                      # R3.1: 55 + 9 tricks
    brisques = seat_col(rec, 0, RS_BRISQ) + seat_col(rec, 1, RS_BRISQ)
    assert (brisques * 10 == 320).all()                          # R3.8
    last = np.stack([seat_col(rec, s, RS_LAST) for s in (0, 1)], axis=1)
    assert (last.sum(axis=1) == 50).all()                        # last trick 50, once
    for s in (0, 1):
        score = seat_col(rec, s, RS_SCORE)
        assert (score == seat_col(rec, s, RS_DECL) + seat_col(rec, s, RS_LAST)
                + seat_col(rec, s, RS_CARTE)).all()             # no brisques, no sevens
        assert (seat_col(rec, s, RS_SEVEN) == 0).all()
    fixed = rec[:, REC_TRUMP] >= 0
    assert set(np.unique(rec[fixed, REC_TRUMP_HOW])) <= {1, 2}   # by marriage or sequence


def test_rubicon_no_trumps_before_a_marriage_or_sequence():
    """Before trumps are fixed every trick goes to the highest card of the suit led."""
    from analyzer.cards import parse_card
    from analyzer.hands.handlog import play_spec
    from analyzer.hands.replay_file import dealt_spec
    rules = preset("rubicon")
    checked = 0
    for seed in range(12):
        o = play_spec(dealt_spec(rules, seed, 0), ["random", "random"])
        plays = []
        for e in o.events:
            if e["event"] == "trumps_fixed":
                break
            if e["event"] == "play":
                plays.append((e["seat"], parse_card(e["card"])))
            if e["event"] == "trick":
                (s0, c0), (s1, c1) = plays[-2:]
                follows_and_beats = c1 // 8 == c0 // 8 and c1 % 8 < c0 % 8
                assert e["seat"] == (s1 if follows_and_beats else s0)
                checked += 1
    assert checked > 50
