"""Policy names the CLI accepts, with their compiled functions and parameters."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .builtin import greedy_policy, random_policy

N_PARAMS = 32


class PolicyError(ValueError):
    """A policy name or file that cannot be used."""


@dataclass(frozen=True)
class PolicySpec:
    """A resolved policy: display name, compiled function and parameter vector."""

    name: str
    function: object
    params: np.ndarray = field(default_factory=lambda: np.zeros(N_PARAMS))
    description: str = ""


POLICIES = {
    "random": PolicySpec("random", random_policy, description="uniform among the legal actions"),
    "greedy": PolicySpec("greedy", greedy_policy,
                         description="declares the best combination, exchanges the seven, "
                                     "takes brisques cheaply"),
}


def resolve_policy(name: str) -> PolicySpec:
    """Return the :class:`PolicySpec` for a policy given on the command line: a built-in
    name, or ``path/to/file.py:function`` for a user policy."""
    from .user import UserPolicyError, is_user_policy, load_user_policy
    if name in POLICIES:
        return POLICIES[name]
    if is_user_policy(name):
        try:
            return PolicySpec(name, load_user_policy(name), description="user policy")
        except UserPolicyError as e:
            raise PolicyError(str(e)) from None
    raise PolicyError(f"unknown policy {name!r}; built-in policies: {', '.join(sorted(POLICIES))}; "
                      "or give path/to/file.py:function")
