"""Per-hand records -> integer sums in one pass over the rows (see analyzer.run.tallies).

The histogram bins are defined here, not in analyzer.run.tallies, so that numba folds
them into the kernel and its cache is dropped when they change.
"""
import numpy as np
from numba import njit

from ..rules import R_BRISQUE_POINTS
from .codes import BEZIQUE, FIRST_SEQUENCE, MARRIAGE
from .game_score import DRAW, rubicon_game
from . import layout as L

SCORE_BIN = 10           # hand-score bin width, ordinary game
RUBICON_SCORE_BIN = 100  # Rubicon: scores run to thousands, mostly 100s (four aces) plus 20s and 50s
SCORE_BINS = 400         # hand-score bins; the last takes the rest (3990 and over, Rubicon 39900)
GAME_BIN = 100
GAME_BINS = 120          # Rubicon game scores 0 .. 11900 in bins of 100
TRICK_BINS = 66          # trick numbers 0 (never) .. 64

# Combination categories: marriages and sequences split by the final trump suit (royal = in
# trumps, common = any other suit), béziques by level, fours by rank.
CATEGORY_NAMES = ("royal_marriage", "common_marriage", "trump_sequence", "plain_sequence",
                  "bezique", "double_bezique", "treble_bezique", "quadruple_bezique",
                  "four_aces", "four_kings", "four_queens", "four_knaves")
N_CATEGORIES = len(CATEGORY_NAMES)
CAT_ROYAL, CAT_COMMON, CAT_TRUMP_SEQ, CAT_PLAIN_SEQ, CAT_BEZIQUE = range(5)   # then as the ids run
assert CATEGORY_NAMES[CAT_TRUMP_SEQ] == "trump_sequence" and CATEGORY_NAMES[CAT_BEZIQUE] == "bezique"


def _categories() -> np.ndarray:
    """CATEGORY[1 + trump suit, combination id] -> category (row 0: no trump fixed)."""
    cat = np.zeros((5, L.N_COMBOS), np.int64)
    for row in range(5):
        for c in range(L.N_COMBOS):
            if c < FIRST_SEQUENCE:           # a marriage: royal in trumps, else common
                cat[row, c] = CAT_ROYAL + (c - MARRIAGE != row - 1)
            elif c < BEZIQUE:                # a sequence: in trumps, else plain
                cat[row, c] = CAT_TRUMP_SEQ + (c - FIRST_SEQUENCE != row - 1)
            else:                            # béziques by level, fours by rank: in id order
                cat[row, c] = CAT_BEZIQUE + c - BEZIQUE
    return cat


CATEGORY = _categories()


@njit(cache=True, nogil=True)
def tally_hands(rec, rules, n_seats, combo_points, rubicon, score_bin, t):
    """Add the hands of ``rec`` (rows of layout.REC_*) of ``rules`` into ``t``, the named
    bundle of the sums of analyzer.run.tallies.Tallies (scalars as 0-d arrays).

    Hand scores are binned ``score_bin`` points wide. ``combo_points[1 + suit, c]`` are the
    points of combination ``c`` with ``suit`` as trumps (row 0: no trump fixed). Brisques
    count the rule set's brisque points each. With two seats the sums of the brisque-value
    regression are added too: the final margin (seat 0 - seat 1; with ``rubicon`` each hand
    scored as a Rubicon game, R3.9, whose sums are added as well) on the brisques won by
    seat 0. A drawn Rubicon game (Law 61) counts in ``game_draws`` and as a margin of 0; the
    winner's and loser's sums (game_wins, rubiconed, winner_points, game_hist, loser_hist)
    count decided games only.
    """
    (score, score_sq, wins, ties, brisques, brisques_sq, seven, seven_sq, last_trick,
     double_bezique, declarations, decl_points, table_declarations, dealer_score, dealer_score_sq, dealer_hands,
     score_hist, carte_blanche, bezique_level, trump_how, trump_trick, first_bezique,
     held_bezique, unscored_played, unscored_talon, received, reg_sx, reg_sy, reg_sxx, reg_sxy,
     reg_syy, winner_changed, game_wins, game_net, game_net_sq, rubiconed, winner_points,
     winner_points_sq, brisques_saved, brisques_broke_tie, game_draws, game_hist, loser_hist,
     cat_hands, cat_count, cat_points) = (
        t.score, t.score_sq, t.wins, t.ties, t.brisques, t.brisques_sq, t.seven, t.seven_sq,
        t.last_trick, t.double_bezique, t.declarations, t.decl_points, t.table_declarations, t.dealer_score,
        t.dealer_score_sq, t.dealer_hands, t.score_hist, t.carte_blanche, t.bezique_level,
        t.trump_how, t.trump_trick, t.first_bezique, t.held_bezique, t.unscored_played,
        t.unscored_talon, t.received, t.reg_sx, t.reg_sy, t.reg_sxx, t.reg_sxy, t.reg_syy,
        t.winner_changed, t.game_wins, t.game_net, t.game_net_sq, t.rubiconed, t.winner_points,
        t.winner_points_sq, t.brisques_saved, t.brisques_broke_tie, t.game_draws, t.game_hist,
        t.loser_hist, t.cat_hands, t.cat_count, t.cat_points)
    brisque_points = rules[R_BRISQUE_POINTS]
    n_rows = rec.shape[0]
    by_trump = np.zeros((n_seats, 5, L.N_COMBOS), np.int64)    # declarations by trump suit + 1
    recv_hist = np.zeros((n_seats, 5), np.int64)             # min(Q♠, J♦ received), capped at 4
    for i in range(n_rows):
        trump = rec[i, L.REC_TRUMP]
        dealer = rec[i, L.REC_DEALER]
        best = rec[i, L.REC_SEAT + L.RS_SCORE]
        for s in range(1, n_seats):
            best = max(best, rec[i, L.REC_SEAT + s * L.REC_SEAT_W + L.RS_SCORE])
        n_best = 0
        for s in range(n_seats):
            b = L.REC_SEAT + s * L.REC_SEAT_W
            sc = np.int64(rec[i, b + L.RS_SCORE])
            br = np.int64(rec[i, b + L.RS_BRISQ]) * brisque_points
            sv = np.int64(rec[i, b + L.RS_SEVEN])
            n_best += sc == best
            score[s] += sc
            score_sq[s] += sc * sc
            brisques[s] += br
            brisques_sq[s] += br * br
            seven[s] += sv
            seven_sq[s] += sv * sv
            # flags are added as 0/1, not branched on: they change unpredictably from hand to hand
            dealt = dealer == s
            dealer_score[s] += dealt * sc
            dealer_score_sq[s] += dealt * sc * sc
            dealer_hands[s] += dealt
            last_trick[s] += rec[i, L.REC_LAST_WINNER] == s     # the points may be 0 (--rule last_trick=0)
            carte_blanche[s] += rec[i, b + L.RS_CARTE] > 0
            table_declarations[s] += rec[i, b + L.RS_TABLE_DECL]
            bez = rec[i, b + L.RS_BEZ_MAX]
            held = rec[i, b + L.RS_HELD_B] > 0
            # held a double but never scored one (one rebuilt and scored later counts as scored):
            # holding ends only when a card of it is played, or else lasts to the end of the talon
            unscored = held and bez < 2
            played = rec[i, b + L.RS_DBL_MISS] == 1
            unscored_played[s] += unscored and played
            unscored_talon[s] += unscored and not played
            double_bezique[s] += bez >= 2
            if 0 <= bez < 5:
                bezique_level[s, bez] += 1
            recv = min(rec[i, b + L.RS_RECV_QS], rec[i, b + L.RS_RECV_JD])
            if recv >= 0:
                recv_hist[s, min(recv, 4)] += 1
            score_hist[s, min(sc // score_bin, SCORE_BINS - 1)] += 1
            for k in range(3):
                first = rec[i, b + L.RS_FIRST_B + k]
                if first > 0:        # rare; bin 0 (never) is filled in at the end
                    first_bezique[s, k, min(first, TRICK_BINS - 1)] += 1
                first = rec[i, b + L.RS_HELD_B + k]
                if first > 0:
                    held_bezique[s, k, min(first, TRICK_BINS - 1)] += 1
            nd = b + L.RS_NDECL
            for c in range(L.N_COMBOS):
                by_trump[s, trump + 1, c] += rec[i, nd + c]
            # hands with each category declared at least once (CATEGORY_NAMES' order)
            fixed = trump >= 0
            royal = fixed * rec[i, nd + MARRIAGE + max(trump, 0)]
            in_trumps = fixed * rec[i, nd + FIRST_SEQUENCE + max(trump, 0)]
            marriages = 0
            sequences = 0
            for suit in range(4):
                marriages += rec[i, nd + MARRIAGE + suit]
                sequences += rec[i, nd + FIRST_SEQUENCE + suit]
            cat_hands[s, CAT_ROYAL] += royal > 0
            cat_hands[s, CAT_COMMON] += marriages > royal
            cat_hands[s, CAT_TRUMP_SEQ] += in_trumps > 0
            cat_hands[s, CAT_PLAIN_SEQ] += sequences > in_trumps
            for c in range(BEZIQUE, L.N_COMBOS):
                cat_hands[s, CAT_BEZIQUE + c - BEZIQUE] += rec[i, nd + c] > 0
        if n_best == 1:
            for s in range(n_seats):
                wins[s] += rec[i, L.REC_SEAT + s * L.REC_SEAT_W + L.RS_SCORE] == best
        else:
            ties[()] += 1
        if trump < 0:
            trump_how[3] += 1
        else:
            how = rec[i, L.REC_TRUMP_HOW]
            if 0 <= how < 4:
                trump_how[how] += 1
            trump_trick[min(max(rec[i, L.REC_TRUMP_TRICK], 0), 64)] += 1
        if n_seats != 2:
            continue
        s0 = np.int64(rec[i, L.REC_SEAT + L.RS_SCORE])
        s1 = np.int64(rec[i, L.REC_SEAT + L.REC_SEAT_W + L.RS_SCORE])
        b0 = np.int64(rec[i, L.REC_SEAT + L.RS_BRISQ])
        b1 = np.int64(rec[i, L.REC_SEAT + L.REC_SEAT_W + L.RS_BRISQ])
        x = b0                 # the brisques of a hand are fixed: b1 = total - b0
        if rubicon:
            last = np.int64(rec[i, L.REC_LAST_WINNER])
            w, p, rubiconed_loser, saved, broke_tie = rubicon_game(rules, s0, s1, brisque_points * b0,
                                                                   brisque_points * b1)
            brisques_saved[()] += saved
            brisques_broke_tie[()] += broke_tie
            by_totals = last if s0 == s1 else np.int64(s1 > s0)
            winner_changed[()] += by_totals != w      # a draw has no winner: it always counts
            if w == DRAW:      # null and void (Law 61): 0 to each, no winner or loser
                game_draws[()] += 1
                y = np.int64(0)
            else:
                y = p if w == 0 else -p
                game_wins[w] += 1
                game_net[w] += p
                game_net[1 - w] -= p
                game_net_sq[0] += p * p
                game_net_sq[1] += p * p
                rubiconed[1 - w] += rubiconed_loser
                winner_points[()] += p
                winner_points_sq[()] += p * p
                game_hist[min(p // GAME_BIN, GAME_BINS - 1)] += 1
                loser_hist[min((s1 if w == 0 else s0) // score_bin, SCORE_BINS - 1)] += 1
        else:
            y = s0 - s1
            winner_changed[()] += np.sign(y) != np.sign(y - brisque_points * (b0 - b1))
        reg_sx[()] += x
        reg_sy[()] += y
        reg_sxx[()] += x * x
        reg_sxy[()] += x * y
        reg_syy[()] += y * y
    for s in range(n_seats):
        for t in range(5):
            for c in range(L.N_COMBOS):
                declarations[s, c] += by_trump[s, t, c]
                decl_points[s, c] += by_trump[s, t, c] * combo_points[t, c]
                cat_count[s, CATEGORY[t, c]] += by_trump[s, t, c]
                cat_points[s, CATEGORY[t, c]] += by_trump[s, t, c] * combo_points[t, c]
        for k in range(5):
            received[s, k] = recv_hist[s, k:].sum()
        for k in range(3):
            first_bezique[s, k, 0] = n_rows - first_bezique[s, k].sum()
            held_bezique[s, k, 0] = n_rows - held_bezique[s, k].sum()
