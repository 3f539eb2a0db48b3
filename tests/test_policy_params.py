"""The policy parameter vector has one table of slots (analyzer/policies/params.py): the slots
of all policies are disjoint and inside the vector, each policy's defaults set only its own
slots (and those of the policy it builds on), and no other module defines a slot."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from analyzer.engine.layout import PARAM_FULL_OBS, POLICY_PARAMS
from analyzer.policies import params

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"


def slots_of(*policies: str) -> set[int]:
    return {slot for slot, policy, _ in params.SLOTS.values() if policy in policies}


def test_slots_are_disjoint_and_inside_the_vector():
    slots = [slot for slot, _, _ in params.SLOTS.values()]
    assert len(slots) == len(set(slots))
    assert all(0 <= s < POLICY_PARAMS for s in slots)
    assert params.SLOTS["PARAM_FULL_OBS"][0] == PARAM_FULL_OBS
    assert params.new_params().shape == (POLICY_PARAMS,)


def test_every_slot_name_is_the_module_constant_of_that_slot():
    for name, (slot, _, _) in params.SLOTS.items():
        assert getattr(params, name) == slot, name


def test_defaults_set_only_their_own_slots():
    for defaults, owners in ((params.hint_defaults(), ("hints",)), (params.search_defaults(), ("hints", "expert", "engine"))):
        assert defaults.shape == (POLICY_PARAMS,)
        assert set(np.flatnonzero(defaults)) <= slots_of(*owners)


def module_constants(source: str) -> set[str]:
    """The names a module's source binds at its top level (assignments, tuple assignments)."""
    names = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    names.add(n.id)
    return names


def test_no_other_module_defines_a_slot():
    slot_names = set(params.SLOTS) - {"PARAM_FULL_OBS"}
    offenders = {str(p.relative_to(ANALYZER)): sorted(module_constants(p.read_text()) & slot_names)
                 for p in ANALYZER.rglob("*.py") if p.name != "params.py"}
    assert not {k: v for k, v in offenders.items() if v}
    # the check can fail: a module that defines E_SAMPLES is found
    assert module_constants("E_SAMPLES, X = 16, 1\n") & slot_names == {"E_SAMPLES"}
