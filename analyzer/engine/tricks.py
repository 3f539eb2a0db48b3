"""Legal plays and trick resolution (R2.4, R2.5, R2.20; V4 for three seats)."""
import numpy as np
from numba import njit

from .layout import (
    A_PLAY_TABLE,
    P_HAND,
    P_NTABLE,
    P_TABLE,
    X_MUST_FOLLOW,
    X_MUST_OVERTRUMP,
    X_MUST_TRUMP,
    X_MUST_WIN,
    X_NOT_HELD,
    X_NOT_ON_TABLE,
    X_TABLE_TAKEN_BACK,
)


@njit(cache=True, _nrt=False)
def beats(card, best, trump):
    """Whether ``card`` played after ``best`` takes the lead in the trick (R2.5).

    Of two identical cards the first played wins, so equal rank never beats.
    """
    # x >> 3 and x & 7 equal x // 8 and x % 8 for every int, without the floor fix-ups
    if card >> 3 == best >> 3:
        return card & 7 < best & 7
    return card >> 3 == trump


@njit(cache=True, _nrt=False, inline="always")
def legal_plays(P, s, stage, lead, best, trump, legal):
    """Fill ``legal`` with seat ``s``'s legal plays; return how many.

    First stage: any card, from hand (t) or table (32 + t) (R2.4, R2.7).
    Second stage, following: follow suit and win if possible, else trump
    (overtrumping a trump already played if possible), else anything (R2.20).
    """
    if stage == 1 or lead < 0:
        # Branch-free compaction: every slot is written, the count advances only for a
        # held card (slots past it are scratch); the obvious branchy loop mispredicts on
        # almost every card. An unsigned count spares numba's negative-index fix-up.
        u = np.uint64(0)
        for t in range(32):
            legal[u] = t
            u += np.uint64(1) if P[s, P_HAND + t] > 0 else np.uint64(0)
        if stage == 1 and P[s, P_NTABLE] > 0:
            for t in range(32):
                legal[u] = A_PLAY_TABLE + t
                u += np.uint64(1) if P[s, P_TABLE + t] > 0 else np.uint64(0)
        return np.int64(u)
    n = 0
    led = lead >> 3
    base = led * 8
    has_suit = False
    for t in range(base, base + 8):
        if P[s, P_HAND + t] > 0:
            has_suit = True
    if has_suit:
        if best >> 3 == led:
            for t in range(base, best):          # higher cards of the suit led
                if P[s, P_HAND + t] > 0:
                    legal[n] = t
                    n += 1
        if n == 0:
            for t in range(base, base + 8):
                if P[s, P_HAND + t] > 0:
                    legal[n] = t
                    n += 1
        return n
    if trump >= 0:
        tb = trump * 8
        if best >> 3 == trump:
            for t in range(tb, best):
                if P[s, P_HAND + t] > 0:
                    legal[n] = t
                    n += 1
        if n == 0:
            for t in range(tb, tb + 8):
                if P[s, P_HAND + t] > 0:
                    legal[n] = t
                    n += 1
        if n > 0:
            return n
    for t in range(32):
        if P[s, P_HAND + t] > 0:
            legal[n] = t
            n += 1
    return n


@njit(cache=True, _nrt=False)
def play_failure(P, s, stage, lead, best, trump, action):
    """Why playing ``action`` is illegal: (rule code, detail code)."""
    card = action % 32
    if action >= A_PLAY_TABLE:
        if stage == 2:
            return 219, X_TABLE_TAKEN_BACK
        if P[s, P_TABLE + card] == 0:
            return 207, X_NOT_ON_TABLE
        return 0, 0
    if P[s, P_HAND + card] == 0:
        return 204, X_NOT_HELD
    if stage == 1 or lead < 0:
        return 0, 0
    led = lead // 8
    has_suit = False
    for t in range(led * 8, led * 8 + 8):
        if P[s, P_HAND + t] > 0:
            has_suit = True
    if has_suit:
        if card // 8 != led:
            return 220, X_MUST_FOLLOW
        return 220, X_MUST_WIN
    if trump >= 0:
        if card // 8 != trump:
            return 220, X_MUST_TRUMP
        return 220, X_MUST_OVERTRUMP
    return 0, 0
