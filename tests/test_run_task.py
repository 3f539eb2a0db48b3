"""A run is one RunTask, checked once where it enters the library (issue 23, item 4)."""
import pickle

import numpy as np
import pytest

import analyzer.run.task as task_module
from analyzer.policies.spec import PolicyError, resolve_policy
from analyzer.rules import preset
from analyzer.run.task import RunTask, check_run
from analyzer.studies.hints.worth import ablate
from analyzer.studies.play.compare import pair_chunk
from analyzer.studies.report.study import study
from analyzer.studies.play.simulate import simulate, simulate_chunk


def test_a_task_pickles_with_its_policies_by_name_and_plays_the_same_chunk():
    rules = preset("ordinary")
    task = RunTask(pair_chunk, rules, 7, [resolve_policy("greedy"), resolve_policy("hints:no=H4")])
    back = pickle.loads(pickle.dumps(task))
    assert back.play is pair_chunk and back.seed == 7 and isinstance(back.policies, tuple)
    assert [s.name for s in back.policies] == ["greedy", "hints:no=H4"]
    assert (back.rules_array == rules.to_array()).all()
    assert back(0, 64) == task(0, 64)
    with pytest.raises(AttributeError):          # frozen
        task.seed = 8


def test_a_simulation_task_plays_what_simulate_plays():
    rules = preset("ordinary")
    specs = check_run(rules, ["greedy", "random"], 3)
    tally, rec, _games = RunTask(simulate_chunk, rules, 3, specs, keep_records=True)(0, 500)
    whole = simulate(rules, ["greedy", "random"], 500, 3, threads=1, keep_records=True)
    assert tally.hands == 500 and np.array_equal(rec, whole.records)


def test_the_study_checks_its_rules_and_policies_once(monkeypatch):
    calls = []
    real = task_module.check_rules
    monkeypatch.setattr(task_module, "check_rules", lambda specs, rules: calls.append(len(specs)) or real(specs, rules))
    study(preset("ordinary"), 200, 1, threads=1)
    assert calls == [3]          # hints, greedy, random: once, for every pairing and the head to head


def test_check_run_refuses_a_bad_seed_seat_count_or_policy():
    rules = preset("four_handed")
    with pytest.raises(ValueError, match="seed"):
        check_run(rules, ["greedy"] * 4, -1)
    with pytest.raises(PolicyError, match=r"give one policy per seat \(4\), got 2"):
        check_run(rules, ["greedy"] * 2, 1)
    with pytest.raises(PolicyError, match="expert plays two-handed games only"):
        check_run(rules, ["expert"], 1, by_seat=False)


def test_ablate_against_a_two_handed_policy_with_four_players_is_refused():
    with pytest.raises(PolicyError, match="expert plays two-handed games only"):
        ablate(preset("four_handed"), 10, 1, threads=1, against="expert")
