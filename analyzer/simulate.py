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
from .engine.layout import (D_CARTE, D_FOLLOW, D_LEAD, D_MELD, MAX_SEATS, REC_DEALER,
                            REC_LAST_WINNER, REC_SEAT, REC_SEAT_W, REC_TRUMP, REC_TRUMP_HOW,
                            REC_TRUMP_TRICK, REC_W, RS_BEZ_MAX, RS_BRISQ, RS_CARTE, RS_LAST,
                            RS_NDECL, RS_SCORE, RS_SEVEN, ST_ILLEGAL_POLICY)
from .game import rubicon_results
from .policies.registry import N_PARAMS, PolicyError, PolicySpec, resolve_policy
from .rules import RuleSet
from .actions import action_str

CHUNK = 8192
SCORE_BIN = 10
SCORE_BINS = 400          # histogram of hand scores, 0 .. 3990 (the last bin takes the rest)
DECISION_NAMES = {D_LEAD: "lead", D_FOLLOW: "follow", D_MELD: "declaration", D_CARTE: "carte blanche"}


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
    carte_blanche: np.ndarray = field(default=None)  # hands in which the seat showed it
    bezique_level: np.ndarray = field(default=None)  # [seat, highest level scored 0..4]
    trump_how: np.ndarray = field(default=None)      # [turn-up, marriage, sequence, never]
    trump_trick: np.ndarray = field(default=None)    # hands by trick at which trumps were fixed
    # Rubicon games (R3.9)
    game_wins: np.ndarray = field(default=None)
    game_net: np.ndarray = field(default=None)       # game points won minus lost
    game_net_sq: np.ndarray = field(default=None)
    rubiconed: np.ndarray = field(default=None)      # games in which the seat was rubiconed
    winner_points: int = 0
    winner_points_sq: int = 0
    brisques_saved: int = 0
    brisques_broke_tie: int = 0

    ARRAYS = {"score": 1, "score_sq": 1, "wins": 1, "brisques": 1, "brisques_sq": 1, "seven": 1,
              "seven_sq": 1, "last_trick": 1, "double_bezique": 1, "dealer_score": 1,
              "dealer_hands": 1, "carte_blanche": 1, "game_wins": 1, "game_net": 1,
              "game_net_sq": 1, "rubiconed": 1, "declarations": N_COMBOS,
              "score_hist": SCORE_BINS, "bezique_level": 5}
    SCALARS = ("hands", "ties", "winner_points", "winner_points_sq", "brisques_saved",
               "brisques_broke_tie")

    def __post_init__(self):
        n = self.n_seats
        for name, width in self.ARRAYS.items():
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(n if width == 1 else (n, width), np.int64))
        if self.trump_how is None:
            self.trump_how = np.zeros(4, np.int64)
        if self.trump_trick is None:
            self.trump_trick = np.zeros(65, np.int64)

    def add(self, other: "Tallies") -> None:
        """Add another chunk's sums into this one."""
        for name in list(self.ARRAYS) + list(self.SCALARS) + ["trump_how", "trump_trick"]:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @classmethod
    def from_records(cls, rec: np.ndarray, n_seats: int, rubicon: bool = False) -> "Tallies":
        """Reduce per-hand records (rows of layout.REC_*) to sums; ``rubicon`` scores
        each hand as a Rubicon game (R3.9)."""
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
            t.bezique_level[s] = np.bincount(cols(RS_BEZ_MAX)[:, s], minlength=5)[:5]
        t.carte_blanche = (cols(RS_CARTE) > 0).sum(0)
        how = np.where(rec[:, REC_TRUMP] < 0, 3, rec[:, REC_TRUMP_HOW])
        t.trump_how = np.bincount(how, minlength=4)[:4].astype(np.int64)
        fixed = rec[:, REC_TRUMP] >= 0
        t.trump_trick = np.bincount(np.clip(rec[fixed, REC_TRUMP_TRICK], 0, 64), minlength=65).astype(np.int64)
        if rubicon and n_seats == 2:
            g = rubicon_results(score, brisq, rec[:, REC_LAST_WINNER])
            won = np.stack([g["winner"] == 0, g["winner"] == 1], axis=1)
            net = np.where(won, g["points"][:, None], -g["points"][:, None])
            t.game_wins = won.sum(0)
            t.game_net = net.sum(0)
            t.game_net_sq = (net ** 2).sum(0)
            t.rubiconed = (~won & g["rubicon"][:, None]).sum(0)
            t.winner_points = int(g["points"].sum())
            t.winner_points_sq = int((g["points"] ** 2).sum())
            t.brisques_saved = int(g["brisques_saved"].sum())
            t.brisques_broke_tie = int(g["brisques_broke_tie"].sum())
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


def _play_chunk(rules_arr, seed, start, count, funcs, params, n_seats, specs, keep, rubicon):
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
    return Tallies.from_records(rec, n_seats, rubicon), (rec if keep else None)


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
                           rules.players, specs, keep_records, rules.brisques == "tiebreak")

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for start, (tally, rec) in zip(starts, pool.map(job, starts)):
            total.add(tally)
            if keep_records:
                kept.append(rec)
            if progress:
                progress(tally.hands)
    records = np.concatenate(kept) if keep_records else None
    return Result(rules, [s.name for s in specs], hands, seed, total, records)
