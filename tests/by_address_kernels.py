"""Kernels for tests/test_by_address.py: a callee, a caller that calls it by address (cached, so
that a new process loads the caller from the cache and must resolve the callee's name)."""
import numpy as np
from numba import njit, types

from analyzer.engine.by_address import by_address


@njit(cache=True)
def weighted_sum(x, w):
    """The sum of ``x`` times ``w``; a negative weight raises (an exception to carry through)."""
    if w < 0:
        raise ValueError("negative weight")
    total = 0.0
    for v in x:
        total += np.sqrt(v) * w
    return total


weighted_sum_at = by_address(weighted_sum, types.float64[::1], types.int64)


@njit(cache=True)
def twice_the_sum(x, w):
    """Twice :func:`weighted_sum`, called by address (``w`` an int32 converts to the int64 asked)."""
    return 2.0 * weighted_sum_at(x, np.int32(w))
