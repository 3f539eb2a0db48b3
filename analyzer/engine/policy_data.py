"""What a policy is called with besides its observation: the policy signature, each seat's data
(:class:`SeatData`) and the bundle of the seats' players (:class:`Players`) the drivers take.

A seat's data is two arrays:

- ``weights`` (float32): the policy's model, read only (the learned network of the game being
  played; empty for a policy without one);
- ``work`` (int64): the seat's working memory, kept for the whole chunk of hands a kernel plays
  and never shared with another seat or thread. Its regions are named here: ``W_SCRATCH`` words
  the policy may use as it likes (the learned network's activations, as float32 through a view),
  ``W_EXACT`` the exact second stage's scratch, and from ``W_SOLVER`` the exact solver's table
  (``endgame.solver_in``), which outlives a decision so that the decisions of one second stage
  share what the first solved.

Two arrays, not more: a policy is called through a function pointer, and a larger record passed
by value costs more than the call (measured: a data record holding the solver's eleven arrays made
a call about 8 times dearer than two arrays).
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from .endgame import POS_W, SOLVER_BITS, init_solver, solver_words
from .layout import MAX_LEGAL, MAX_SEATS

W_SCRATCH = 0            # the policy's own scratch: SCRATCH_WORDS int64 words
SCRATCH_WORDS = 4096
W_EXACT = W_SCRATCH + SCRATCH_WORDS          # the exact second stage: values[MAX_LEGAL], then POS_W
W_SOLVER = W_EXACT + MAX_LEGAL + POS_W       # the exact solver (endgame.solver_in(work, W_SOLVER))
SMALL_SOLVER_BITS = 1    # the table of a seat whose policy does not solve second stages


class SeatData(NamedTuple):
    """One seat's data (module docstring)."""

    weights: np.ndarray      # float32[::1], read only: the policy's model (empty: none)
    work: np.ndarray         # int64[::1]: the seat's working memory (W_* regions)


SEAT_TYPE = types.NamedTuple((types.float32[::1], types.int64[::1]), SeatData)
POLICY_SIG = types.int64(types.int32[::1], types.int32[::1], types.int64, types.int64[::1],
                         types.float64[::1], types.uint64[::1], SEAT_TYPE)
"""policy(obs, legal, n_legal, rules, params, rng, data) -> one of legal[:n_legal]."""
POLICY_TYPE = types.FunctionType(POLICY_SIG)


class Players(NamedTuple):
    """The players of a table, by seat (MAX_SEATS, repeated round the table): what every driver
    kernel takes."""

    policies: tuple          # MAX_SEATS policy functions (POLICY_TYPE)
    params: np.ndarray       # float64[MAX_SEATS, POLICY_PARAMS]: each seat's parameter vector
    seats: tuple             # MAX_SEATS SeatData


PLAYERS_TYPE = types.NamedTuple((types.UniTuple(POLICY_TYPE, MAX_SEATS), types.float64[:, ::1],
                                 types.UniTuple(SEAT_TYPE, MAX_SEATS)), Players)

NO_WEIGHTS = np.zeros(0, np.float32)


@njit(cache=True)
def seat_work(solver):
    """A seat's fresh working memory, with a full table for the exact solver when ``solver``
    (else a table of two entries)."""
    bits = SOLVER_BITS if solver else SMALL_SOLVER_BITS
    work = np.zeros(W_SOLVER + solver_words(bits), np.int64)
    init_solver(work, W_SOLVER, bits)
    return work


def new_seat_data(weights: np.ndarray | None = None, solver: bool = False) -> SeatData:
    """A seat's data: ``weights`` (float32; None: none) and fresh working memory
    (:func:`seat_work`)."""
    w = NO_WEIGHTS if weights is None else np.ascontiguousarray(weights, np.float32)
    return SeatData(w, seat_work(solver))
