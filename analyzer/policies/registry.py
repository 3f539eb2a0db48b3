"""Policy names the CLI accepts, with their compiled functions and parameters."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .builtin import greedy_policy, random_policy
from .hints import HINT_NAMES, HINT_TEXT, N_HINTS, default_params, hints_policy

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
    "hints": PolicySpec("hints", hints_policy, default_params(),
                        description="the rulebook's Hints and Cautions H1-H8, all on (see hints:...)"),
}


def hints_spec(name: str) -> PolicySpec:
    """Parse ``hints:only=H2``, ``hints:no=H4``, ``hints:h2=0.5,h5=2`` (combinable with commas;
    ``only``/``no`` take several ids joined by ``+``)."""
    params = default_params()
    body = name.split(":", 1)[1] if ":" in name else ""
    for item in filter(None, (x.strip() for x in body.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep:
            raise PolicyError(f"{name!r}: expected only=H2, no=H4 or h2=0.5 (got {item!r})")
        if key in ("only", "no"):
            ids = [v.strip().upper() for v in value.split("+")]
            bad = [v for v in ids if v not in HINT_NAMES]
            if bad:
                raise PolicyError(f"{name!r}: unknown hint {bad[0]!r}; hints are H1..H8")
            idx = [HINT_NAMES.index(v) for v in ids]
            if key == "only":
                params[:N_HINTS] = 0.0
                params[idx] = 1.0
            else:
                params[idx] = 0.0
        elif key.upper() in HINT_NAMES:
            try:
                params[HINT_NAMES.index(key.upper())] = float(value)
            except ValueError:
                raise PolicyError(f"{name!r}: weight {value!r} is not a number") from None
        else:
            raise PolicyError(f"{name!r}: unknown setting {key!r}; use only=, no= or h1..h8=")
    return PolicySpec(name, hints_policy, params, description="hints with custom weights")


def describe_policies() -> list[str]:
    """One line per built-in policy and per hints parameter (``bezique policies``)."""
    lines = [f"{n:<10} {s.description}" for n, s in sorted(POLICIES.items())]
    lines.append("hints parameters (weights; 0 = off, 1 = on; e.g. hints:only=H2, hints:no=H4, "
                 "hints:h2=0.5,h5=2):")
    lines += [f"  {HINT_NAMES[i].lower():<8} {HINT_TEXT[i]}" for i in range(N_HINTS)]
    return lines


def resolve_policy(name: str) -> PolicySpec:
    """Return the :class:`PolicySpec` for a policy given on the command line: a built-in
    name, or ``path/to/file.py:function`` for a user policy."""
    from .user import UserPolicyError, is_user_policy, load_user_policy
    if name in POLICIES:
        return POLICIES[name]
    if name.startswith("hints:"):
        return hints_spec(name)
    if is_user_policy(name):
        try:
            return PolicySpec(name, load_user_policy(name), description="user policy")
        except UserPolicyError as e:
            raise PolicyError(str(e)) from None
    raise PolicyError(f"unknown policy {name!r}; built-in policies: {', '.join(sorted(POLICIES))}; "
                      "or give path/to/file.py:function")
