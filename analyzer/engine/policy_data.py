"""What a policy is called with besides its observation: the policy signature, its settings
(a record of :data:`PARAMS_DTYPE`), each seat's data (:class:`SeatData`) and the bundle of the
seats' players (:class:`Players`) the drivers take.

A policy's settings are one record of named, typed fields (``params.samples``,
``params.hint[HINT_COUNT_CARDS]``): one numba Record type, so that every policy has the same
signature and the drivers compile once. The fields are those of the built-in policies, each
group named by the policy that reads it (its defaults and command-line names are in
policies/params.py); a policy that builds on another (``expert`` rolls out with ``hints``)
reads the other's fields too. What a seat may see is the engine's, not the policy's: it
travels beside the records (``Players.sees``).

A seat's data is two arrays:

- ``weights`` (float32): the policy's model, read only (the learned network of the game being
  played; empty for a policy without one);
- ``work`` (int64): the seat's working memory, kept for the whole chunk of hands a kernel plays
  and never shared with another seat or thread. Its regions are named here: ``SW_SCRATCH`` words
  the policy may use as it likes (the learned network's activations, as float32 through a view),
  ``SW_EXACT`` the exact second stage's scratch, and from ``SW_SOLVER`` the exact solver's table
  (``endgame_buffer.solver_in``), which outlives a decision so that the decisions of one second
  stage share what the first solved.

Two arrays, not more: a policy is called through a function pointer, and a larger record passed
by value costs more than the call (measured: a data record holding the solver's eleven arrays made
a call about 8 times dearer than two arrays).
"""
from typing import NamedTuple

import numpy as np
from numba import from_dtype, njit, types

from .endgame_buffer import POS_W, SOLVER_BITS, init_solver, solver_words
from .layout import MAX_LEGAL, MAX_SEATS

SW_SCRATCH = 0            # the policy's own scratch: SCRATCH_WORDS int64 words
SCRATCH_WORDS = 4096
SW_EXACT = SW_SCRATCH + SCRATCH_WORDS          # the exact second stage: values[MAX_LEGAL], then POS_W
SW_SOLVER = SW_EXACT + MAX_LEGAL + POS_W       # the exact solver (endgame_buffer.solver_in(work, SW_SOLVER))
SMALL_SOLVER_BITS = 1    # the table of a seat whose policy does not solve second stages

N_HINTS = 13             # the hints policy's weights (policies/params.py names them: HINT_*)
PARAMS_DTYPE = np.dtype([
    # hints (policies/hints.py), also the roll-out policy of expert
    ("hint", np.float64, N_HINTS),     # each hint's weight: 0 off, 1 as described, else scaled
    ("defer_talon", np.float64),       # H6: hold the bezique back while more cards than this are to draw
    ("rubicon_rate", np.float64),      # H7: points a player can still hope for per card left to draw
    ("rubicon_gap", np.float64),       # H7: how far behind the other before giving up
    ("endgame", np.bool_),             # a two-handed second stage played by the exact solver
    # expert (policies/expert.py, inference.py)
    ("samples", np.int64),             # sampled deals of the unseen cards per decision
    ("rollout", np.int64),             # the roll-out policy: ROLLOUT_* (policies/params.py)
    ("rollout_endgame", np.bool_),     # roll-outs solve a two-handed second stage exactly
    ("exact", np.bool_),               # the search's own second-stage decisions are solved exactly
    ("prune_z", np.float64),           # drop an action this many standard errors below the best (0: never)
    ("block", np.int64),               # samples between two looks at the actions (pruning; 0: the default)
    ("leaf", np.bool_),                # roll-outs end at the ordinary second stage with its value network
    ("tail", np.bool_),                # the first stage's last window searches each world to the second stage
    ("prior", np.int64),               # K > 0: the learned network ranks the actions; its K best are searched
    ("switch_z", np.float64),          # ... and its choice (the anchor) stands unless beaten by this many s.e.
    ("gate", np.float64),              # a decision whose best network value leads by this much is not searched
    ("late", np.int64),                # N > 0: only decisions with at most N cards left to draw are searched
    ("guard", np.bool_),               # without a prior, the roll-out policy's own choice is the anchor
    ("infer", np.float64),             # T > 0: worlds weighted by the other's lead (softmax, T points)
], align=True)
PARAMS_TYPE = from_dtype(PARAMS_DTYPE)


class SeatData(NamedTuple):
    """One seat's data (module docstring)."""

    weights: np.ndarray      # float32[::1], read only: the policy's model (empty: none)
    work: np.ndarray         # int64[::1]: the seat's working memory (W_* regions)


SEAT_TYPE = types.NamedTuple((types.float32[::1], types.int64[::1]), SeatData)
POLICY_SIG = types.int64(types.int32[::1], types.int32[::1], types.int64, types.int64[::1],
                         PARAMS_TYPE, types.uint64[::1], SEAT_TYPE)
"""policy(obs, legal, n_legal, rules, params, rng, data) -> one of legal[:n_legal]."""
POLICY_TYPE = types.FunctionType(POLICY_SIG)


class Players(NamedTuple):
    """The players of a table, by seat (MAX_SEATS, repeated round the table): what every driver
    kernel takes."""

    policies: tuple          # MAX_SEATS policy functions (POLICY_TYPE)
    params: np.ndarray       # PARAMS_DTYPE[MAX_SEATS]: each seat's settings
    seats: tuple             # MAX_SEATS SeatData
    sees: np.ndarray         # int64[MAX_SEATS]: what each seat may see (layout.SEE_*)


PLAYERS_TYPE = types.NamedTuple((types.UniTuple(POLICY_TYPE, MAX_SEATS), PARAMS_TYPE[::1],
                                 types.UniTuple(SEAT_TYPE, MAX_SEATS), types.int64[::1]), Players)

NO_WEIGHTS = np.zeros(0, np.float32)


def new_params(like=None) -> np.void:
    """A policy's settings, every field 0 or a copy of the record ``like``: a record one can
    write (``p["samples"] = 8``; a record unpickled on its own ignores writes)."""
    p = np.zeros(1, PARAMS_DTYPE)
    if like is not None:
        p[0] = like
    return p[0]


@njit(cache=True)
def seat_work(solver):
    """A seat's fresh working memory, with a full table for the exact solver when ``solver``
    (else a table of two entries)."""
    bits = SOLVER_BITS if solver else SMALL_SOLVER_BITS
    work = np.zeros(SW_SOLVER + solver_words(bits), np.int64)
    init_solver(work, SW_SOLVER, bits)
    return work


def new_seat_data(weights: np.ndarray | None = None, solver: bool = False) -> SeatData:
    """A seat's data: ``weights`` (float32; None: none) and fresh working memory
    (:func:`seat_work`)."""
    w = NO_WEIGHTS if weights is None else np.ascontiguousarray(weights, np.float32)
    return SeatData(w, seat_work(solver))
