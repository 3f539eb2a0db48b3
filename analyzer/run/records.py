"""Hands played in the kernel: a chunk of hand indices -> one record per hand (layout REC_*).

The only module of the simulator that loads the compiled engine and policies, so that
importing :mod:`analyzer.studies.play.simulate` (and :mod:`analyzer`) stays quick.
"""
from __future__ import annotations

import numpy as np

from ..actions import illegal_return
from ..engine import layout as L
from ..engine.batch import run_batch
from ..engine.layout import (
    MAX_SEATS,
    REC_DTYPE,
    REC_W,
    ST_ILLEGAL_POLICY,
)
from ..engine.policy_data import PARAMS_DTYPE, Players
from ..policies.spec import PolicySpec
from .driver import SimulationError


def policy_arrays(specs: list[PolicySpec], rules_arr) -> Players:
    """The kernels' view of ``specs`` (one per seat, repeated round the table) under the packed
    rules ``rules_arr``: the four seats' policy functions, their settings, their data (the
    model of the rules' game, fresh working memory: one Players per chunk, so no two threads
    share a seat's memory) and what each may see."""
    seat_specs = [specs[s % len(specs)] for s in range(MAX_SEATS)]
    params = np.zeros(MAX_SEATS, PARAMS_DTYPE)
    for s, spec in enumerate(seat_specs):
        params[s] = spec.params_for(rules_arr)
    sees = np.array([spec.sees for spec in seat_specs], np.int64)
    return Players(tuple(spec.function for spec in seat_specs), params, _seat_data(seat_specs, rules_arr), sees)


def sight_bits(see: int, seat: int) -> int:
    """The bits of ``G[G_FULL_OBS]`` that let seat ``seat`` see what ``see`` (a Players.sees value)
    allows, as play_out sets them: its public record, and for a ceiling the other hands or the talon."""
    return (int(see >= L.SEE_PUBLIC) << seat | int(see >= L.SEE_HANDS) << (L.SEE_HANDS_BIT + seat)
            | int(see >= L.SEE_TALON) << (L.SEE_TALON_BIT + seat))


def _seat_data(seat_specs, rules_arr) -> tuple:
    """Each seat's data. Seats played by the same built-in policy share one (they act in turn,
    and a built-in keeps nothing in it from one decision to the next but the exact solver's
    table, which both seats of a second stage can use: one solve serves the two); a user policy's
    seat has its own."""
    shared = {}
    seats = []
    for spec in seat_specs:
        key = None if spec.user_file else (spec.name, spec.params.tobytes())
        if key is None or key not in shared:
            data = spec.new_seat(rules_arr)
            if key is not None:
                shared[key] = data
        seats.append(data if key is None else shared[key])
    return tuple(seats)


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
    players = policy_arrays(specs, rules_arr)
    rec = np.zeros((count, REC_W), np.int32)
    err = np.zeros(4, np.int64)
    status = check_status(specs, err, lambda: run_batch(rules_arr, np.uint64(seed), start, count, players,
                                                        rec, err))
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
