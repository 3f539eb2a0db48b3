"""A game over several hands to an agreed target (R2.24)."""
from __future__ import annotations


def settle_hand(totals, hand_points, brisques, last_trick_winner: int, target: int = 1000):
    """Add one hand to the running ``totals`` and decide the game if it is over (R2.24).

    ``hand_points`` are this hand's points without brisques, ``brisques`` its brisque
    points. If a player reached ``target`` without this hand's brisques, the
    brisques are not counted and the higher total wins; otherwise they are added and
    the higher total at or over the target wins. A tie goes to the winner of the last
    trick. Returns ``(new_totals, winner)``; ``winner`` is None while nobody is at the
    target (deal again).
    """
    without = [t + h for t, h in zip(totals, hand_points)]
    if max(without) >= target:
        new = without
    else:
        new = [w + b for w, b in zip(without, brisques)]
        if max(new) < target:
            return new, None
    best = max(new)
    leaders = [i for i, v in enumerate(new) if v == best]
    winner = leaders[0] if len(leaders) == 1 else last_trick_winner
    return new, winner


RUBICON_LIMIT = 1000


def trunc100(points: int) -> int:
    """Drop fractions of 100 (R3.9): 1290 -> 1200."""
    return points // 100 * 100


def rubicon_result(totals, brisques, last_trick_winner: int) -> dict:
    """Score one Rubicon game (R3.9) for two players.

    ``totals`` are the hand totals without brisques, ``brisques`` the brisque
    points each won. Returns ``winner``, ``points`` (the winner's game score),
    ``rubicon`` (the loser was rubiconed), ``brisques_saved`` (the loser reached
    1000 only with his brisques) and ``brisques_broke_tie``.
    """
    a, b = totals
    if a != b:
        winner = 0 if a > b else 1
        broke_tie = False
    elif brisques[0] != brisques[1]:
        winner = 0 if brisques[0] > brisques[1] else 1
        broke_tie = True
    else:
        winner = last_trick_winner
        broke_tie = False
    loser = 1 - winner
    w, l = totals[winner], totals[loser]
    out = {"winner": winner, "rubicon": False, "brisques_saved": False, "brisques_broke_tie": broke_tie}
    if l + brisques[loser] < RUBICON_LIMIT:
        out["rubicon"] = True
        out["points"] = trunc100(w) + trunc100(l) + 1300
        return out
    if l < RUBICON_LIMIT:
        # the loser reaches 1000 only with his brisques: both count them
        out["brisques_saved"] = True
        wb, lb = w + brisques[winner], l + brisques[loser]
        if lb > wb or (lb == wb and last_trick_winner == loser):
            # the former winner now loses; under 1000 even with brisques -> rubiconed
            winner, loser, wb, lb = loser, winner, lb, wb
            out["winner"] = winner
            if lb < RUBICON_LIMIT:
                out["rubicon"] = True
                out["brisques_saved"] = False
                out["points"] = trunc100(totals[winner]) + trunc100(totals[loser]) + 1300
                return out
        out["points"] = trunc100(wb) - trunc100(lb) + 500
        return out
    out["points"] = trunc100(w) - trunc100(l) + 500
    return out


def rubicon_results(totals, brisques, last_trick_winner):
    """Vectorised :func:`rubicon_result` over many games (numpy arrays [n, 2], [n, 2], [n]).

    Returns a dict of arrays: winner, points, rubicon, brisques_saved, brisques_broke_tie.
    """
    import numpy as np

    t = np.asarray(totals, dtype=np.int64)
    b = np.asarray(brisques, dtype=np.int64)
    last = np.asarray(last_trick_winner, dtype=np.int64)
    idx = np.arange(len(t))
    tie = t[:, 0] == t[:, 1]
    btie = b[:, 0] == b[:, 1]
    winner = np.where(~tie, (t[:, 1] > t[:, 0]).astype(np.int64),
                      np.where(~btie, (b[:, 1] > b[:, 0]).astype(np.int64), last))
    broke_tie = tie & ~btie
    loser = 1 - winner
    w, l = t[idx, winner], t[idx, loser]
    bw, bl = b[idx, winner], b[idx, loser]
    rubicon = l + bl < RUBICON_LIMIT
    saved = ~rubicon & (l < RUBICON_LIMIT)
    wb, lb = w + bw, l + bl
    flip = saved & ((lb > wb) | ((lb == wb) & (last == loser)))
    flip_rubicon = flip & (wb < RUBICON_LIMIT)
    tr = lambda x: x // 100 * 100
    points = np.where(rubicon | flip_rubicon, tr(w) + tr(l) + 1300,
                      np.where(saved, np.abs(tr(wb) - tr(lb)) + 500, tr(w) - tr(l) + 500))
    points = np.where(saved & ~flip_rubicon & flip, tr(lb) - tr(wb) + 500, points)
    winner = np.where(flip, loser, winner)
    return {"winner": winner, "points": points, "rubicon": rubicon | flip_rubicon,
            "brisques_saved": saved & ~flip_rubicon, "brisques_broke_tie": broke_tie}
