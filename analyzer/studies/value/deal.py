"""What a dealt card is worth: the final margin of a hand explained by the dealt hands' contents.

Each deal gives one row: its features are seat 0's dealt hand's less seat 1's (so the model is
the same from either seat), its value the final margin, seat 0's points less seat 1's (Rubicon:
net game points). Ordinary least squares over the features below (and a constant and who
dealt) says what each is worth at the deal under the play that produced the hands, with 95 %
intervals (classical: the residuals' variance pooled), and how much of the margin's variance
the dealt hands explain (R²). The sums it needs are gathered chunk by chunk
(:class:`Normal`), so memory does not grow with the hands.

Features of a dealt hand (``trump``: the suit trumps became in the hand, the turn-up's in the
ordinary game, the first marriage's or sequence's in Rubicon; none: every card plain):
``trump A`` … ``trump 7`` and ``plain A`` … ``plain 8``, the cards of each rank held in trumps
and in the plain suits, each against a plain seven (a hand holds a fixed number of cards: one
card must be the measure of the others); ``Q♠`` and ``J♦``, what these cards add beyond their rank; ``bézique``,
the béziques the hand holds (min of Q♠ and J♦); ``trump marriage`` (K and Q of trumps, min);
``sequence ranks``, the ranks of the trump sequence held (A 10 K Q J, 0-5); ``pair of A`` …
``three of J``, two (three) or more cards of a rank toward its four (aces, kings, queens,
knaves).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...cards import ACE, KING, KNAVE, N_TYPES, QUEEN, RANKS, SEVEN, TEN, card_id, rank_of, suit_of
from ...engine.deals import dealt_counts
from ...rules import RuleSet
from ...run.records import as_structured
from ...tables.stats import Z95
from ..play.compare import seat_points
from ..play.simulate import simulate

QS, JD = card_id(0, QUEEN), card_id(2, KNAVE)
FOUR_RANKS = ((ACE, "A"), (KING, "K"), (QUEEN, "Q"), (KNAVE, "J"))
SEQUENCE = (ACE, TEN, KING, QUEEN, KNAVE)
RANK_NAMES = tuple("10" if r == "T" else r for r in RANKS)
FEATURES = ([f"trump {r}" for r in RANK_NAMES] + [f"plain {r}" for r in RANK_NAMES[:SEVEN]]
            + ["Q♠", "J♦", "bézique", "trump marriage", "sequence ranks"]
            + [f"{k} of {name}" for _r, name in FOUR_RANKS for k in ("pair", "three")])
TERMS = ["constant", "seat 0 deals"] + FEATURES


def holding_features(counts: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """The FEATURES of dealt hands: ``counts[i, type]`` each hand's cards, ``trump[i]`` the
    suit trumps became (-1: none). Returns float64[i, len(FEATURES)]."""
    t = np.arange(N_TYPES)
    counts = counts.astype(np.float64)
    is_trump = suit_of(t)[None, :] == trump[:, None]
    by_rank = [rank_of(t) == r for r in range(len(RANKS))]
    trump_rank = np.stack([(counts * (is_trump & m)).sum(1) for m in by_rank], 1)
    plain_rank = np.stack([(counts * (~is_trump & m)).sum(1) for m in by_rank], 1)
    rank_count = trump_rank + plain_rank
    seq = np.stack([trump_rank[:, r] > 0 for r in SEQUENCE], 1).sum(1)
    cols = [trump_rank, plain_rank[:, :SEVEN], counts[:, [QS]], counts[:, [JD]],
            np.minimum(counts[:, QS], counts[:, JD])[:, None],
            np.minimum(trump_rank[:, KING], trump_rank[:, QUEEN])[:, None], seq[:, None].astype(float)]
    for r, _name in FOUR_RANKS:
        cols.append(np.stack([rank_count[:, r] >= 2, rank_count[:, r] >= 3], 1).astype(float))
    return np.concatenate(cols, 1)


@dataclass
class Normal:
    """The sums least squares needs, gathered over deals: X'X, X'y, y'y, Σy and n."""

    k: int = len(TERMS)
    xtx: np.ndarray = field(default=None)
    xty: np.ndarray = field(default=None)
    yty: float = 0.0
    ysum: float = 0.0
    n: int = 0

    def __post_init__(self):
        self.xtx = np.zeros((self.k, self.k)) if self.xtx is None else self.xtx
        self.xty = np.zeros(self.k) if self.xty is None else self.xty

    def add(self, x: np.ndarray, y: np.ndarray) -> None:
        """Add deals: rows ``x`` (with their constant column) and values ``y``."""
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.yty += float(y @ y)
        self.ysum += float(y.sum())
        self.n += len(y)

    def fit(self) -> tuple[np.ndarray, np.ndarray, float]:
        """Return the coefficients, their standard errors and R²."""
        beta = np.linalg.lstsq(self.xtx, self.xty, rcond=None)[0]
        rss = self.yty - 2 * beta @ self.xty + beta @ self.xtx @ beta
        tss = self.yty - self.ysum ** 2 / self.n
        sigma2 = rss / max(self.n - self.k, 1)
        se = np.sqrt(np.maximum(np.diag(np.linalg.pinv(self.xtx)) * sigma2, 0.0))
        return beta, se, 1.0 - rss / tss


def deal_rows(rules: RuleSet, policy: str, hands: int, seed: int, threads: int | None = None):
    """``hands`` hands of ``policy`` self-play seeded ``seed``: (the rows of :class:`Normal`:
    constant, seat 0 deals, seat 0's features less seat 1's; the margins)."""
    res = simulate(rules, [policy] * 2, hands, seed, threads=threads, keep_records=True)
    pts = seat_points(rules, res.records)
    trump = as_structured(res.records)["trump"].astype(np.int64)
    dealt = np.zeros((hands, 2, N_TYPES), np.int8)
    dealt_counts(rules.to_array(), np.uint64(seed), 0, hands, dealt, np.zeros(hands, np.int32))
    x = holding_features(dealt[:, 0], trump) - holding_features(dealt[:, 1], trump)
    deals = np.where(np.arange(hands) % 2 == 0, 1.0, -1.0)        # hand i is dealt by seat i % 2
    return np.column_stack([np.ones(hands), deals, x]), (pts[:, 0] - pts[:, 1]).astype(np.float64)


def deal_value(rules: RuleSet, hands: int, seed: int, policy: str = "learned", chunk: int = 50_000,
               threads: int | None = None, progress=None) -> tuple[pd.DataFrame, dict]:
    """Return (the table: each term's worth with its 95 % interval, in the margin's unit per
    unit of the feature; the fit's facts: hands, R², the margin's spread) of ``hands`` hands of
    ``policy`` self-play, played in chunks of ``chunk`` hands each seeded ``seed + k``."""
    normal = Normal()
    done = 0
    for k, start in enumerate(range(0, hands, chunk)):
        n = min(chunk, hands - start)
        normal.add(*deal_rows(rules, policy, n, seed + k, threads))
        done += n
        if progress:
            progress(n)
    beta, se, r2 = normal.fit()
    table = pd.DataFrame({"term": TERMS, "worth": beta, "lo": beta - Z95 * se, "hi": beta + Z95 * se, "se": se})
    sd = np.sqrt(max(normal.yty / normal.n - (normal.ysum / normal.n) ** 2, 0.0))
    return table, {"hands": done, "r2": float(r2), "margin_sd": float(sd), "policy": policy, "seed": seed}
