"""Policies register themselves (policies/spec.py): each policy's own module puts its names in
the catalog, and the catalog's module names none of them."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from analyzer.policies import spec
from analyzer.policies.builtin import random_policy
from analyzer.policies.spec import PolicyError, describe_policies, resolve_policy

CATALOG_MODULE = Path(spec.__file__)


def test_every_name_is_registered_by_its_own_module():
    spec.load_policies()
    assert {"random", "greedy", "hints", "learned", "expert", "cheat-clairvoyant", "cheat-sees-hand"} <= set(spec.CATALOG)
    for entry in spec.CATALOG.values():
        assert entry.resolve.__module__ in spec.POLICY_MODULES, entry.name


def test_the_catalog_names_no_policy():
    """spec.py holds no policy's name: a new policy does not touch it."""
    strings = {n.value for n in ast.walk(ast.parse(CATALOG_MODULE.read_text())) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)}
    assert not strings & set(spec.CATALOG), strings & set(spec.CATALOG)


def test_a_policy_registered_elsewhere_resolves_and_is_listed():
    spec.register("toy", lambda name: spec.PolicySpec(name, random_policy, description="a toy"),
                  lambda: ["toy        a toy"], settings=False)
    try:
        assert resolve_policy("toy").kernel is random_policy
        assert "toy        a toy" in describe_policies()
        with pytest.raises(PolicyError, match="built-in policies: .*toy"):
            resolve_policy("toy:settings")          # it takes none
    finally:
        del spec.CATALOG["toy"]
    with pytest.raises(PolicyError, match="unknown policy 'toy'"):
        resolve_policy("toy")
