"""Counter-based randomness: every stream derives from (seed, hand, stream).

A result therefore depends only on the master seed and the hand index, never
on the number of threads or on how the hands were split (docs/ARCHITECTURE.md, "From hands to tables").
"""
import numpy as np
from numba import njit

from ..cards import N_TYPES
from .bits import mul_high

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STREAM_DEAL = 0          # stream 1 + seat: that seat's policy

# RECIPROCAL[n] = floor((2**64 - 1) / n): with it, x % n needs a multiply, not a division
# (a 64-bit division costs some 40 cycles, and every deal makes 31 * packs of them).
RECIP_MAX = 128
RECIPROCAL = np.array([0] + [(2**64 - 1) // n for n in range(1, RECIP_MAX + 1)], np.uint64)


@njit(cache=True, _nrt=False)
def mix64(z):
    """SplitMix64 finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def stream_state(seed, hand, stream):
    """Initial state of the random stream ``stream`` of hand ``hand``."""
    z = mix64(np.uint64(seed) + GOLDEN)
    z = mix64(z ^ (np.uint64(hand) * GOLDEN + np.uint64(0x632BE59BD9B4E019)))
    return mix64(z ^ (np.uint64(stream) * MIX1 + np.uint64(0x85157AF5)))


@njit(cache=True, _nrt=False)
def next_u64(state):
    """Advance ``state`` (uint64[1]) and return the next 64 random bits."""
    s = state[0] + GOLDEN
    state[0] = s
    return mix64(s)


@njit(cache=True, _nrt=False, inline="always")
def uniform(state):
    """A float in [0, 1) from the stream ``state`` (53 of the next 64 bits)."""
    return (next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False, inline="always")
def mod_small(x, n):
    """``x % n`` for a uint64 ``x`` and 1 <= n <= RECIP_MAX, exactly, without dividing.

    With m = floor((2**64 - 1) / n), q = floor(x * m / 2**64) is floor(x / n) or one less,
    so a single correction makes the remainder exact (Barrett reduction)."""
    un = np.uint64(n)
    r = x - mul_high(x, RECIPROCAL[n]) * un
    return r - un if r >= un else r


@njit(cache=True, _nrt=False)
def below(state, n):
    """A random integer in [0, n) (bias below n / 2**64): ``next_u64(state) % n``."""
    x = next_u64(state)
    if 0 < n <= RECIP_MAX:
        return np.int64(mod_small(x, n))
    return np.int64(x % np.uint64(n))


@njit(cache=True, _nrt=False, inline="always")
def short_deck(n):
    """Whether a deck of ``n`` cards is whole packs of 32 less one: three players with two
    packs throw out an eight (V4)."""
    return n % N_TYPES == N_TYPES - 1


@njit(cache=True, _nrt=False)
def shuffled_deck(n, state, out):
    """Fill ``out[:n]`` with ``n`` cards shuffled (Fisher-Yates): whole packs, or with 63
    the two packs of three-handed bézique less the eight of clubs (V4)."""
    for i in range(n):
        out[i] = i % N_TYPES            # whole packs, type by type
    if short_deck(n):             # the last pack stops at type 30: its 8♣ is the card thrown
        out[n - 1] = 31           # out, its 7♣ (type 31) takes the place
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp
    return n
