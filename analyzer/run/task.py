"""A run as its chunks see it (:class:`RunTask`), and the check of its rules and policies where
it enters the library (:func:`check_run`). Kept out of :mod:`analyzer.run.driver`, which the
command line imports at start-up: this module loads the policies, and with them numba."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..deal import GivenHand, active_given
from ..policies.registry import PolicyError, check_rules, resolve_policy
from ..policies.spec import PolicySpec
from ..rules import RuleSet
from .backends import check_threads
from .driver import MAX_SEED


@dataclass(frozen=True, eq=False)
class RunTask:
    """One run as each of its chunks sees it, sent with every chunk to the backend (it pickles:
    the policies travel by name, see ``PolicySpec.__reduce__``). ``play(task, start, count)``
    is the module-level function that plays items ``start`` .. ``start + count - 1`` and
    reduces them; ``rules`` (checked where the run entered, :func:`check_run`) come with
    ``rules_array``, the kernels' view of them; ``policies`` are PolicySpecs, as the play takes
    them (by seat; a pair; candidates, then their opponent); ``keep_records`` (a simulation
    keeps its records) and ``deal_chunks`` (a tuning's chunks of deals per candidate) are
    the options of one play; ``given``, a hand the deals are given in part (the enclosing
    :func:`analyzer.deal.given_hand`'s when the task is made; packed into ``rules_array``).
    Calling the task plays one chunk."""

    play: Callable
    rules: RuleSet
    seed: int
    policies: tuple[PolicySpec, ...] = ()
    keep_records: bool = False
    deal_chunks: int = 0
    given: GivenHand | None = field(default_factory=active_given)
    rules_array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "policies", tuple(self.policies))
        arr = self.rules.to_array()
        object.__setattr__(self, "rules_array", self.given.pack(arr) if self.given else arr)

    def __call__(self, start: int, count: int):
        """Play items ``start`` .. ``start + count - 1``: a backend runs this."""
        return self.play(self, start, count)


def check_run(rules: RuleSet, policies, seed: int, threads: int | None = None,
              by_seat: bool = True) -> tuple[PolicySpec, ...]:
    """What a run needs beside its size, checked once where it enters the library (simulate,
    simulate_games, compare, ablate, tune, the report's study), in this order: the seed
    (ValueError), the PolicySpecs of ``policies`` (names or specs; with ``by_seat``, one per
    seat), each able to play ``rules`` (PolicyError naming the problem otherwise), and the
    thread count. Returns the PolicySpecs."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to 2^64-1, got {seed}")
    specs = tuple(p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies)
    if by_seat and len(specs) != rules.players:
        raise PolicyError(f"{rules.players} seats need {rules.players} policies, got {len(specs)}")
    check_rules(specs, rules)
    check_threads(threads)
    return specs
