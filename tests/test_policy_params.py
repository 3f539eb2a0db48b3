"""A policy's settings are one record of named, typed fields (engine/policy_data.PARAMS_DTYPE):
each policy's defaults set only its own fields (and those of the policy it builds on), the hints
are named in code (params.HINT_*) and nowhere addressed by position, what a seat may see is the
engine's (PolicySpec.sees, Players.sees), and a model file's teacher survives the trip through
its float32 slots."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from analyzer.engine.layout import SEE_OWN, SEE_PUBLIC
from analyzer.engine.policy_data import N_HINTS, PARAMS_DTYPE, new_params
from analyzer.policies import network, params
from analyzer.policies.spec import resolve_policy

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"
HINTS_FIELDS = {"hint", "defer_talon", "rubicon_rate", "rubicon_gap", "endgame"}
SWITCHES = {"endgame", "rollout_endgame", "exact", "leaf", "tail", "guard"}
COUNTS = {"samples", "rollout", "block", "prior", "late"}


def set_fields(p: np.void) -> set[str]:
    """The fields of ``p`` that are not 0."""
    return {name for name in PARAMS_DTYPE.names if np.any(p[name])}


def test_fields_are_typed_as_what_they_hold():
    kinds = {name: PARAMS_DTYPE.fields[name][0] for name in PARAMS_DTYPE.names}
    assert kinds["hint"].shape == (N_HINTS,) and kinds["hint"].base == np.float64
    assert {n for n, k in kinds.items() if k == np.bool_} == SWITCHES
    assert {n for n, k in kinds.items() if k == np.int64} == COUNTS


def test_defaults_set_only_their_own_fields():
    assert set_fields(params.hint_defaults()) <= HINTS_FIELDS
    searched = set_fields(params.search_defaults()) - HINTS_FIELDS
    assert searched and searched <= set(PARAMS_DTYPE.names) - HINTS_FIELDS
    assert not set_fields(new_params())


def test_a_copy_is_a_record_one_can_write():
    p = resolve_policy("expert:samples=8").params
    q = new_params(p)
    q["samples"] = 9
    assert p["samples"] == 8 and q["samples"] == 9


def test_the_hints_are_named_once_in_order():
    names = [n for n in vars(params) if n.startswith("HINT_") and isinstance(getattr(params, n), int)]
    assert sorted(getattr(params, n) for n in names) == list(range(N_HINTS))
    assert params.HINT_NAMES[params.HINT_COUNT_CARDS] == "H4"
    assert params.hint_index("h13") == params.HINT_DRAW_TRUMPS
    p = resolve_policy("hints:no=H4").params
    assert p["hint"][params.HINT_COUNT_CARDS] == 0 and p["hint"][params.HINT_KEEP_BEZIQUE] == 1


def test_no_module_addresses_the_settings_by_position():
    """``params[3]`` or ``params[SOME_SLOT]`` in the package: the record is read by name (a
    Players' ``players.params[seat]`` is a seat's record, not a position in one)."""
    by_position = re.compile(r"(?<![.\w])params\[(\d|[A-Z][A-Z0-9_]*\])")
    offenders = [f"{p.relative_to(ANALYZER)}:{i}" for p in ANALYZER.rglob("*.py")
                 for i, line in enumerate(p.read_text().splitlines(), 1) if by_position.search(line)]
    assert not offenders
    assert by_position.search("w = params[H3] > 0") and by_position.search("params[2]")
    assert not by_position.search("players.params[0]")


def test_what_a_seat_sees_is_the_engines_not_the_policys():
    assert resolve_policy("hints").sees == SEE_OWN
    assert resolve_policy("expert").sees == SEE_PUBLIC
    assert "see" not in " ".join(PARAMS_DTYPE.names)


def test_the_teacher_survives_its_model_slots():
    teacher = resolve_policy("hints:tuned-rubicon").params
    slots = list(network.TEACHER_HINT_SLOTS) + [
        network.TEACHER_DEFER_TALON, network.TEACHER_RUBICON_RATE, network.TEACHER_RUBICON_GAP, network.TEACHER_ENDGAME]
    assert len(set(slots)) == len(slots) and max(slots) < network.TEACHER_W
    stored = network.stored_teacher(teacher)
    assert np.array_equal(stored["hint"], teacher["hint"].astype(np.float32))
    assert stored["rubicon_gap"] == teacher["rubicon_gap"] and stored["endgame"] == teacher["endgame"]
    w = network.init_weights(np.random.default_rng(0), teacher)
    assert np.array_equal(w[network.O_TEACHER:network.O_HINT_BONUS], network.teacher_vector(teacher))
