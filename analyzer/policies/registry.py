"""Policy names: what the command line and the library accept (:func:`resolve_policy`), what
``bezique policies`` lists, and whether a policy can play a rule set. Each policy registers its
own names (:mod:`.spec`: the catalog, PolicySpec); this module asks the catalog."""
from __future__ import annotations

from .learned import game_of
from .spec import CATALOG, PolicyError, PolicySpec, load_policies, resolve


def resolve_policy(name: str) -> PolicySpec:
    """Return the :class:`PolicySpec` for a policy given on the command line: a built-in
    name (with settings after a colon), or ``path/to/file.py:function`` for a user policy."""
    return resolve(name)


def describe_policies() -> list[str]:
    """The lines of ``bezique policies``: each policy, its settings, the ceilings, the learned
    player's models (each policy's own lines, in the order they registered)."""
    load_policies()
    return [line for entry in CATALOG.values() for line in entry.describe()]


def check_rules(specs, rules) -> None:
    """PolicyError naming the first of ``specs`` that cannot play ``rules`` (a RuleSet): a
    two-handed policy (expert) with three or four players (V4, V5)."""
    for spec in specs:
        if rules.players > spec.max_players:
            plays = ("two-handed games only (V1-V3)" if spec.max_players == 2
                     else f"games of at most {spec.max_players} players")
            raise PolicyError(f"{spec.name} plays {plays}; {rules.name} has {rules.players} players")
        if spec.games is not None and game_of(rules) not in spec.games:
            raise PolicyError(f"{spec.name} has a model for {' and '.join(spec.games)} only, not for "
                              f"{game_of(rules)} ({rules.name})")
        reason = spec.refuses(rules) if spec.refuses else None
        if reason:
            raise PolicyError(f"{spec.name} does not play this rule set: {reason} (results/learned/variants.csv); "
                              "learned:rules=any plays it anyway")



__all__ = ["PolicyError", "PolicySpec", "check_rules", "describe_policies", "resolve_policy"]
