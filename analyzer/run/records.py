"""Hands played in the kernel: a chunk of hand indices -> one record per hand (layout REC_*).

The only module of the simulator that loads the compiled engine and policies, so that
importing :mod:`analyzer.studies.simulate` (and :mod:`analyzer`) stays quick.
"""
from __future__ import annotations

import numpy as np

from ..actions import illegal_return
from ..engine.batch import run_batch
from ..engine.layout import (
    MAX_SEATS,
    REC_DTYPE,
    REC_W,
    ST_ILLEGAL_POLICY,
)
from ..policies.params import POLICY_PARAMS
from ..policies.registry import PolicySpec
from .driver import SimulationError


def policy_arrays(specs: list[PolicySpec]):
    """The kernels' view of ``specs`` (one per seat, repeated round the table): a tuple of the
    four seats' policy functions and their parameter rows."""
    funcs = [specs[s % len(specs)].function for s in range(MAX_SEATS)]
    params = np.zeros((MAX_SEATS, POLICY_PARAMS))
    for s in range(MAX_SEATS):
        p = np.asarray(specs[s % len(specs)].params, dtype=np.float64)
        params[s, :len(p)] = p
    return tuple(funcs), params


def as_structured(rec: np.ndarray) -> np.ndarray:
    """The records ``rec`` (rows of layout.REC_*) as a structured array (layout.REC_DTYPE),
    without copying: ``r["last_winner"]``, ``r["seats"]["score"][:, seat]`` …"""
    return np.ascontiguousarray(rec).view(REC_DTYPE).reshape(len(rec))


def user_policies(specs) -> str:
    """The user policies among ``specs``, named: "policy 'a.py:f'" (or "one of the policies …")."""
    names = sorted({s.name for s in specs if s.user_file}) or sorted({s.name for s in specs})
    quoted = ", ".join(repr(n) for n in names)
    return f"policy {quoted}" if len(names) == 1 else f"one of the policies {quoted}"


def play_records(rules_arr, seed: int, start: int, count: int, specs) -> np.ndarray:
    """Play hands ``start .. start+count-1`` with ``specs`` (one per seat, repeated round the
    table) and return their records; an illegal policy action raises SimulationError."""
    funcs, params = policy_arrays(specs)
    rec = np.zeros((count, REC_W), np.int32)
    err = np.zeros(4, np.int64)
    status = check_status(specs, err, lambda: run_batch(rules_arr, np.uint64(seed), start, count, funcs,
                                                        params, rec, err))
    if status != 0:
        raise SimulationError(f"hand kernel stopped with status {status} at hand {err[0]}")
    return rec


def check_status(specs, err: np.ndarray, call, illegal: int = ST_ILLEGAL_POLICY):
    """``call()`` (a kernel playing hands with ``specs``) and its return value, with what a
    policy did wrong as a SimulationError: an exception raised in a user policy (built-in ones
    raise none), or an illegal action (the kernel returned ``illegal``, with ``err`` = hand,
    seat, action, decision)."""
    try:
        status = call()
    except Exception as e:
        raise SimulationError(f"{user_policies(specs)} stopped the run: {type(e).__name__}: {e}") from None
    if status == illegal:
        hand, seat, action, decision = (int(x) for x in err[:4])
        raise SimulationError(f"policy {specs[seat % len(specs)].name!r} (seat {seat}) returned "
                              f"{illegal_return(action, decision)} (hand {hand})")
    return status
