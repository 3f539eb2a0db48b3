"""Policies: numba functions of the signature in :data:`analyzer.engine.layout.POLICY_SIG`.

``policy(obs, legal, n_legal, rules, params, rng) -> action``: ``obs`` is what
the player may know (layout ``OBS_*``), ``legal[:n_legal]`` the legal actions
(layout ``A_*``), ``rules`` the packed RuleSet, ``params`` the policy's
parameter vector and ``rng`` a uint64[1] random state for
:func:`analyzer.engine.rng.below`. The engine rejects any action not in
``legal[:n_legal]``.
"""
from .registry import POLICIES, PolicySpec, resolve_policy

__all__ = ["POLICIES", "PolicySpec", "resolve_policy"]
