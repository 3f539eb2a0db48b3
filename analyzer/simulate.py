"""Simulation: hands played by policies, reduced to tallies (a :class:`Result`).

The chunks of hands run on worker threads through :mod:`analyzer.driver`; each is
played by the nogil kernel and reduced to integer sums at once, so memory does not
grow with the number of hands and the result depends only on the seed and the hand
indices, never on ``threads``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .actions import action_str
from .driver import CHUNK, check_threads, run_chunks
from .engine.batch import run_batch
from .engine.layout import (
    D_CARTE,
    D_FOLLOW,
    D_LEAD,
    D_MELD,
    MAX_SEATS,
    REC_W,
    ST_ILLEGAL_POLICY,
)
from .policies.registry import N_PARAMS, PolicyError, PolicySpec, resolve_policy
from .rules import RuleSet
from .tallies import GameChainer, Tallies, compact_for_games

DECISION_NAMES = {D_LEAD: "lead", D_FOLLOW: "follow", D_MELD: "declaration", D_CARTE: "carte blanche"}


class SimulationError(RuntimeError):
    """A run that cannot go on (for example a policy returned an illegal action)."""


@dataclass
class Result:
    """A finished run: what was played and its tallies; ``tables`` gives pandas tables."""

    rules: RuleSet
    policies: list
    hands: int
    seed: int
    tallies: Tallies
    records: np.ndarray | None = None

    @property
    def tables(self) -> dict:
        """The summary and declaration tables (see :mod:`analyzer.stats`)."""
        from .stats import tables
        return tables(self)


def _policy_arrays(specs: list[PolicySpec]):
    funcs = [specs[s % len(specs)].function for s in range(MAX_SEATS)]
    params = np.zeros((MAX_SEATS, N_PARAMS))
    for s in range(MAX_SEATS):
        p = np.asarray(specs[s % len(specs)].params, dtype=np.float64)
        params[s, :len(p)] = p
    return funcs, params


def play_records(rules_arr, seed: int, start: int, count: int, specs) -> np.ndarray:
    """Play hands ``start .. start+count-1`` with ``specs`` (one per seat, repeated round the
    table) and return their records; an illegal policy action raises SimulationError."""
    funcs, params = _policy_arrays(specs)
    rec = np.zeros((count, REC_W), np.int32)
    err = np.zeros(4, np.int64)
    status = run_batch(rules_arr, np.uint64(seed), start, count, funcs[0], funcs[1], funcs[2],
                       funcs[3], params, rec, err)
    if status == ST_ILLEGAL_POLICY:
        hand, seat, action, decision = (int(x) for x in err)
        raise SimulationError(
            f"policy {specs[seat % len(specs)].name!r} (seat {seat}) returned an illegal action "
            f"{action_str(action)} at a {DECISION_NAMES.get(decision, decision)} decision in hand {hand}")
    if status != 0:
        raise SimulationError(f"hand kernel stopped with status {status} at hand {err[0]}")
    return rec


def simulate(rules: RuleSet, policies, hands: int, seed: int, threads: int | None = None,
             progress=None, keep_records: bool = False) -> Result:
    """Play ``hands`` hands of ``rules`` with ``policies`` (names or PolicySpecs, one per
    seat) and return a :class:`Result`. Hand ``i`` is dealt by seat ``i % players``.

    ``threads`` defaults to one per core. ``progress`` is an optional callable taking the
    number of hands just finished. ``keep_records`` keeps the per-hand records (for tests
    and small runs).
    """
    if hands <= 0:
        raise ValueError(f"hands must be positive, got {hands}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    specs = [p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies]
    if len(specs) != rules.players:
        raise PolicyError(f"{rules.players} seats need {rules.players} policies, got {len(specs)}")
    threads = check_threads(threads)
    rules_arr = rules.to_array()
    total = Tallies(rules.players)
    kept = []
    chain = GameChainer() if rules.brisques == "scored" and rules.players == 2 else None

    def play(start: int, count: int):
        rec = play_records(rules_arr, seed, start, count, specs)
        return (Tallies.from_records(rec, rules), rec if keep_records else None,
                compact_for_games(rec) if chain is not None else None)

    def merge(chunk) -> None:
        tally, rec, compact = chunk
        total.add(tally)
        if chain is not None:
            chain.feed(compact, total)         # in hand order: games span chunks
        if keep_records:
            kept.append(rec)

    run_chunks(play, hands, CHUNK, merge, threads, progress)
    records = np.concatenate(kept) if keep_records else None
    return Result(rules, [s.name for s in specs], hands, seed, total, records)
