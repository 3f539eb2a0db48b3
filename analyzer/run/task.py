"""A run as its chunks see it (:class:`RunTask`), and the check of its seed, rules and policies
where it enters the library (:func:`check_run`; the size, seed and threads alone:
:mod:`analyzer.run.checks`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..given_deal import GivenDeal, active_given
from ..policies.spec import PolicyError, PolicySpec, check_rules, resolve_policy
from ..rules import RuleSet
from .checks import check_seed, check_threads


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
    :func:`analyzer.given_deal.given_deal`'s when the task is made; packed into ``rules_array``).
    Calling the task plays one chunk."""

    play: Callable
    rules: RuleSet
    seed: int
    policies: tuple[PolicySpec, ...] = ()
    keep_records: bool = False
    deal_chunks: int = 0
    given: GivenDeal | None = field(default_factory=active_given)
    rules_array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "policies", tuple(self.policies))
        arr = self.rules.to_array()
        object.__setattr__(self, "rules_array", self.given.pack(arr) if self.given else arr)

    def __call__(self, start: int, count: int):
        """Play items ``start`` .. ``start + count - 1``: a backend runs this."""
        return self.play(self, start, count)


def check_policies(rules: RuleSet, policies, by_seat: bool = True) -> tuple[PolicySpec, ...]:
    """The PolicySpecs of ``policies`` (names or specs; with ``by_seat``, one per seat), each
    able to play ``rules``; PolicyError naming the problem otherwise."""
    specs = tuple(p if isinstance(p, PolicySpec) else resolve_policy(p) for p in policies)
    if by_seat and len(specs) != rules.players:
        raise PolicyError(f"give one policy per seat ({rules.players}), got {len(specs)}")
    check_rules(specs, rules)
    return specs


def check_run(rules: RuleSet, policies, seed: int, threads: int | None = None,
              by_seat: bool = True) -> tuple[PolicySpec, ...]:
    """What a run needs beside its size, checked once where it enters the library (simulate,
    simulate_games, compare, ablate, tune, the report's study), in this order: the seed
    (RunError), the policies (:func:`check_policies`) and the thread count (RunError). Returns
    the PolicySpecs."""
    check_seed(seed)
    specs = check_policies(rules, policies, by_seat)
    check_threads(threads)
    return specs
