"""CMA-ES (the ``cma`` package) over a noisy objective, as the tuning of the hint weights
(:mod:`.tune`) uses it: each candidate scored by paired play on common deals.

Why CMA-ES: the weights are a handful of continuous numbers, the objective is a noisy mean
(points per deal) with no gradient, and CMA-ES ranks its candidates rather than reading their
values, so noise that keeps the ranking does no harm. Its ask-and-tell interface lets every
candidate of a generation play the same deals (common random numbers: they are compared on
the same luck), and its state pickles, so a search resumes exactly.

The sample grows as the search narrows: a generation plays ``deals0 * (sigma0 / sigma)**2``
deals per candidate (at most ``max_deals``), so the budget goes where the differences are
small. Each generation draws fresh deals (its own seed), so the search cannot fit one set of
deals. The answer is the distribution's mean (``xfavorite``), not the luckiest candidate.
"""
from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cma
import numpy as np

from ...errors import BeziqueError
from ...run.output import atomic_write

MAX_WEIGHT = 5.0            # a hint's weight is searched in [0, MAX_WEIGHT] (1: as the rulebook says; with
                       # a bound of 3 the counting and keeping hints H4, H5 ended at the bound)
SIGMA0 = 0.2           # the first step, in units of MAX_WEIGHT
DEALS0 = 2048          # deals per candidate in the first generation
MAX_DEALS = 65_536     # ... and at most
DEAL_CHUNK = 512       # deals of one candidate a worker plays at a time
MIN_BUDGET = 100_000   # hands: fewer cannot finish one generation of a useful size


class TuneError(BeziqueError, ValueError):
    """A tuning request that cannot run (bad budget, unknown parameter, mismatched resume)."""


@dataclass
class Generation:
    """One generation: its candidates (weights), deals per candidate, and each candidate's
    mean advantage per deal with its 95 % interval."""

    weights: np.ndarray
    deals: int
    mean: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    sigma: float
    hands: int


@dataclass
class SearchState:
    """Everything a search needs to go on: the CMA-ES object, the global numpy random state
    it draws from and the generations so far. Pickled after each generation."""

    es: object
    rng_state: tuple
    generations: list[Generation] = field(default_factory=list)

    @property
    def hands(self) -> int:
        """The hands the generations so far have played."""
        return sum(g.hands for g in self.generations)


Objective = Callable[[np.ndarray, int, int], tuple[np.ndarray, np.ndarray, np.ndarray, int]]
"""objective(weights [k, d], deals per candidate, generation) -> (mean, lo, hi, hands spent);
higher is better."""


def new_state(dim: int, x0: np.ndarray, seed: int) -> SearchState:
    """A fresh CMA-ES in the unit cube around ``x0`` (weights / MAX_WEIGHT), seeded ``seed``."""
    opts = {"bounds": [0.0, 1.0], "seed": int(seed % (2**32 - 1)) + 1, "verbose": -9,
            "verb_log": 0, "verb_disp": 0, "CMA_diagonal": False}
    np.random.seed(opts["seed"])
    es = cma.CMAEvolutionStrategy(list(x0), SIGMA0, opts)
    return SearchState(es, np.random.get_state())


def deals_for(sigma: float, max_deals: int = MAX_DEALS, deals0: int = DEALS0) -> int:
    """Deals per candidate at step size ``sigma``: more as the search narrows, in whole chunks."""
    n = deals0 * (SIGMA0 / max(sigma, 1e-9)) ** 2
    n = int(min(max(n, deals0), max_deals))
    return max(DEAL_CHUNK, n // DEAL_CHUNK * DEAL_CHUNK)


def search(objective: Objective, dim: int, x0: np.ndarray, budget: int, seed: int,
           state_path: Path | None = None, progress: Callable[[int], object] | None = None,
           stop_after: int | None = None, max_deals: int = MAX_DEALS, deals0: int = DEALS0) -> SearchState:
    """Run CMA-ES on ``objective`` (maximised) in ``dim`` weights from ``x0`` (in [0, 1])
    until the next generation would spend more than ``budget`` hands. With ``state_path``
    the state is saved after each generation and a saved state is continued (the result is
    the same as an uninterrupted search); ``stop_after`` stops after that many generations in
    this call (for tests of resuming). ``progress`` gets the hands each generation spent."""
    state = load_state(state_path) if state_path and state_path.exists() else new_state(dim, x0, seed)
    if progress and state.hands:
        progress(state.hands)
    done_here = 0
    while stop_after is None or done_here < stop_after:
        es = state.es
        deals = deals_for(es.sigma, max_deals, deals0)
        cost = 2 * deals * es.popsize
        if state.hands + cost > budget or es.stop():
            break
        np.random.set_state(state.rng_state)
        xs = np.array(es.ask())
        state.rng_state = np.random.get_state()
        mean, lo, hi, spent = objective(xs * MAX_WEIGHT, deals, len(state.generations))
        es.tell(list(xs), list(-mean))           # cma minimises
        state.generations.append(Generation(xs * MAX_WEIGHT, deals, mean, lo, hi, float(es.sigma), spent))
        done_here += 1
        if state_path:
            save_state(state, state_path)
        if progress:
            progress(spent)
    return state


def best_weights(state: SearchState) -> np.ndarray:
    """The search's answer: the mean of the final distribution, in weights."""
    return np.clip(np.asarray(state.es.result.xfavorite), 0.0, 1.0) * MAX_WEIGHT


def save_state(state: SearchState, path: Path) -> None:
    """Write the state atomically (output.atomic_write)."""
    data = pickle.dumps(state)
    atomic_write(path, lambda p: Path(p).write_bytes(data))


def load_state(path: Path) -> SearchState:
    """The state saved by :func:`save_state`."""
    try:
        return pickle.loads(path.read_bytes())
    except Exception as e:
        raise TuneError(f"cannot resume from {path}: {type(e).__name__}: {e}") from None


def generation_seed(seed: int, generation: int) -> int:
    """The seed of one generation's deals: fresh deals each generation, the same for every
    candidate of it, never the seed itself (kept for confirmation runs elsewhere)."""
    h = hashlib.blake2b(f"tune:{seed}:{generation}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "little")
