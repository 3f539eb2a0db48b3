"""The batch driver: seeds -> hands on worker threads -> tallies.

Hands are cut into fixed chunks (independent of the thread count); each chunk
is played by the nogil kernel and reduced to integer sums at once, so memory
does not grow with the number of hands and the result depends only on the
seed and the hand indices, never on ``threads``.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .cards import COMBO_NAMES, N_COMBOS
from .engine.batch import run_batch
from .engine.layout import (D_FOLLOW, D_LEAD, D_MELD, MAX_SEATS, REC_DEALER, REC_SEAT,
                            REC_SEAT_W, REC_W, RS_BEZ_MAX, RS_BRISQ, RS_LAST, RS_NDECL,
                            RS_SCORE, RS_SEVEN, ST_ILLEGAL_POLICY)
from .policies.registry import N_PARAMS, PolicyError, PolicySpec, resolve_policy
from .rules import RuleSet
from .actions import action_str

CHUNK = 8192
SCORE_BIN = 10
SCORE_BINS = 400          # histogram of hand scores, 0 .. 3990 (the last bin takes the rest)
DECISION_NAMES = {D_LEAD: "lead", D_FOLLOW: "follow", D_MELD: "declaration"}


class SimulationError(RuntimeError):
    """A run that cannot go on (for example a policy returned an illegal action)."""


@dataclass
class Tallies:
    """Integer sums over hands, per seat (index = seat)."""

    n_seats: int
    hands: int = 0
    score: np.ndarray = field(default=None)
    score_sq: np.ndarray = field(default=None)
    wins: np.ndarray = field(default=None)
    ties: int = 0
    brisques: np.ndarray = field(default=None)
    brisques_sq: np.ndarray = field(default=None)
    seven: np.ndarray = field(default=None)
    seven_sq: np.ndarray = field(default=None)
    last_trick: np.ndarray = field(default=None)
    double_bezique: np.ndarray = field(default=None)
    declarations: np.ndarray = field(default=None)   # [seat, combo]
    dealer_score: np.ndarray = field(default=None)   # score summed over the hands the seat dealt
    dealer_hands: np.ndarray = field(default=None)
    score_hist: np.ndarray = field(default=None)     # [seat, bin]

    def __post_init__(self):
        n = self.n_seats
        for name in ("score", "score_sq", "wins", "brisques", "brisques_sq", "seven",
                     "seven_sq", "last_trick", "double_bezique", "dealer_score", "dealer_hands"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(n, np.int64))
        if self.declarations is None:
            self.declarations = np.zeros((n, N_COMBOS), np.int64)
        if self.score_hist is None:
            self.score_hist = np.zeros((n, SCORE_BINS), np.int64)

    def add(self, other: "Tallies") -> None:
        """Add another chunk's sums into this one."""
        self.hands += other.hands
        self.ties += other.ties
        for name in ("score", "score_sq", "wins", "brisques", "brisques_sq", "seven", "seven_sq",
                     "last_trick", "double_bezique", "declarations", "dealer_score",
                     "dealer_hands", "score_hist"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @classmethod
    def from_records(cls, rec: np.ndarray, n_seats: int) -> "Tallies":
        """Reduce per-hand records (rows of layout.REC_*) to sums."""
        t = cls(n_seats)
        t.hands = len(rec)
        cols = lambda off: rec[:, [REC_SEAT + s * REC_SEAT_W + off for s in range(n_seats)]].astype(np.int64)
        score = cols(RS_SCORE)
        brisq = cols(RS_BRISQ) * 10
        seven = cols(RS_SEVEN)
        t.score = score.sum(0)
        t.score_sq = (score ** 2).sum(0)
        best = score.max(1, keepdims=True)
        top = score == best
        single = top.sum(1) == 1
        t.wins = (top & single[:, None]).sum(0)
        t.ties = int((~single).sum())
        t.brisques = brisq.sum(0)
        t.brisques_sq = (brisq ** 2).sum(0)
        t.seven = seven.sum(0)
        t.seven_sq = (seven ** 2).sum(0)
        t.last_trick = (cols(RS_LAST) > 0).sum(0)
        t.double_bezique = (cols(RS_BEZ_MAX) >= 2).sum(0)
        for s in range(n_seats):
            b = REC_SEAT + s * REC_SEAT_W + RS_NDECL
            t.declarations[s] = rec[:, b:b + N_COMBOS].sum(0)
            dealt = rec[:, REC_DEALER] == s
            t.dealer_score[s] = score[dealt, s].sum()
            t.dealer_hands[s] = dealt.sum()
            bins = np.minimum(score[:, s] // SCORE_BIN, SCORE_BINS - 1)
            t.score_hist[s] = np.bincount(bins, minlength=SCORE_BINS)
        return t


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


def _policy_arrays(specs: list[PolicySpec], n_seats: int):
    funcs = [specs[s % len(specs)].function for s in range(MAX_SEATS)]
    params = np.zeros((MAX_SEATS, N_PARAMS))
    for s in range(MAX_SEATS):
        p = np.asarray(specs[s % len(specs)].params, dtype=np.float64)
        params[s, :len(p)] = p
    return funcs, params


def _play_chunk(rules_arr, seed, start, count, funcs, params, n_seats, specs, keep):
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
    return Tallies.from_records(rec, n_seats), (rec if keep else None)


def simulate(rules: RuleSet, policies, hands: int, seed: int, threads: int | None = None,
             progress=None, keep_records: bool = False) -> Result:
    """Play ``hands`` hands of ``rules`` with ``policies`` (names or PolicySpecs, one per
    seat) and return a :class:`Result`. Hand ``i`` is dealt by seat ``i % players``.

    ``progress`` is an optional callable taking the number of hands just finished.
    ``keep_records`` keeps the per-hand records (for tests and small runs).
    """
    if hands <= 0:
        raise ValueError(f"hands must be positive, got {hands}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    specs = [p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies]
    if len(specs) != rules.players:
        raise PolicyError(f"{rules.players} seats need {rules.players} policies, got {len(specs)}")
    threads = threads or os.cpu_count() or 1
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    rules_arr = rules.to_array()
    funcs, params = _policy_arrays(specs, rules.players)
    total = Tallies(rules.players)
    kept = []
    starts = list(range(0, hands, CHUNK))

    def job(start):
        return _play_chunk(rules_arr, seed, start, min(CHUNK, hands - start), funcs, params,
                           rules.players, specs, keep_records)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for start, (tally, rec) in zip(starts, pool.map(job, starts)):
            total.add(tally)
            if keep_records:
                kept.append(rec)
            if progress:
                progress(tally.hands)
    records = np.concatenate(kept) if keep_records else None
    return Result(rules, [s.name for s in specs], hands, seed, total, records)
