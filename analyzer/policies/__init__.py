"""Policies: numba functions of the signature in :data:`analyzer.engine.policy_data.POLICY_SIG`.

``policy(obs, legal, n_legal, rules, params, rng, data) -> action``: ``obs`` is what the player
may know (layout ``OBS_*``), ``legal[:n_legal]`` the legal actions (layout ``A_*``), ``rules``
the packed RuleSet, ``params`` the policy's settings (a record of named fields, ``engine/policy_data.PARAMS_DTYPE``), ``rng`` a uint64[1] random state
for :func:`analyzer.engine.rng.below` and ``data`` the seat's SeatData (its model's weights, its
working memory). The engine rejects any action not in ``legal[:n_legal]``. Each policy's module
registers its names in the catalog of :mod:`.spec`, which resolves them (:func:`.spec.resolve_policy`).
"""
from .spec import PolicySpec, resolve_policy

__all__ = ["PolicySpec", "resolve_policy"]
