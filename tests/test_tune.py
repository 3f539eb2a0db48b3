"""bezique tune: the CMA-ES search (analyzer.studies.hints.cmaes) on a synthetic objective with a known
optimum, resuming gives the same search, and bad requests are clear errors."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.rules import preset
from analyzer.studies.hints.cmaes import MAX_WEIGHT, best_weights, search
from helpers import assert_margin

OPTIMUM = np.array([0.3, 2.2, 1.5, 0.0])       # in weights


def noisy_quadratic(seed: int):
    """Higher is better: minus the squared distance to OPTIMUM, plus noise that shrinks as
    the deals grow (a mean of ``deals`` noisy draws), drawn from the generation's stream."""
    def objective(weights, deals, generation):
        rng = np.random.default_rng([seed, generation])
        true = -((weights - OPTIMUM) ** 2).sum(axis=1)
        mean = true + rng.normal(0, 1 / np.sqrt(deals), len(weights))
        half = 1.96 / np.sqrt(deals)
        return mean, mean - half, mean + half, 2 * deals * len(weights)
    return objective


def test_the_search_finds_a_known_optimum_within_tolerance():
    state = search(noisy_quadratic(5), 4, np.full(4, 1 / 3), 40_000_000, seed=5, deals0=512, max_deals=8192)
    found = best_weights(state)
    assert np.abs(found - OPTIMUM).max() < 0.15, found
    assert len(state.generations) > 10
    assert state.generations[-1].deals > state.generations[0].deals        # the sample grew


def test_the_sample_per_candidate_grows_as_the_step_shrinks():
    from analyzer.studies.hints.cmaes import SIGMA0, deals_for
    assert deals_for(SIGMA0) < deals_for(SIGMA0 / 2) < deals_for(SIGMA0 / 8) <= deals_for(1e-6)


def test_an_interrupted_search_resumed_is_the_same_search(tmp_path):
    args = (noisy_quadratic(9), 4, np.full(4, 1 / 3), 3_000_000)
    whole = search(*args, seed=9, deals0=512, max_deals=4096)
    path = tmp_path / "state.pkl"
    search(*args, seed=9, state_path=path, stop_after=3, deals0=512, max_deals=4096)
    search(*args, seed=9, state_path=path, stop_after=2, deals0=512, max_deals=4096)
    resumed = search(*args, seed=9, state_path=path, deals0=512, max_deals=4096)
    assert len(resumed.generations) == len(whole.generations)
    assert np.array_equal(best_weights(resumed), best_weights(whole))
    for a, b in zip(whole.generations, resumed.generations):
        assert np.array_equal(a.weights, b.weights) and np.array_equal(a.mean, b.mean)


def test_tune_on_the_game_resumes_to_the_same_weights(tmp_path):
    from analyzer.studies.hints.tune import tune
    rules = preset("ordinary")
    whole = tune(rules, "greedy", 120_000, 4, tmp_path / "a", threads=2, confirm_deals=512)
    assert tune(rules, "greedy", 120_000, 4, tmp_path / "b", threads=2, stop_after=1) is None
    resumed = tune(rules, "greedy", 120_000, 4, tmp_path / "b", threads=2, confirm_deals=512)
    assert resumed.weights == whole.weights and resumed.state.hands == whole.state.hands
    assert resumed.confirmation == whole.confirmation
    from analyzer.policies.params import HINT_NAMES
    assert set(whole.weights) == set(HINT_NAMES) and whole.weights["H7"] == 1.0


def _objective(score):
    """A tuning objective of known answer: each candidate's mean is ``score(weights)``, ±1."""
    def objective(weights, deals, generation):
        mean = np.array([score(w, generation) for w in weights])
        return mean, mean - 1, mean + 1, 2 * deals * len(weights)
    return objective


def test_switch_off_pass_turns_off_a_hint_only_where_off_is_better():
    from analyzer.studies.hints.tune import switch_off
    names = ("H1", "H2", "H3")
    w = np.array([0.03, 2.0, 1.0])
    # H1 on at any weight costs 5 points; H2 and H3 help
    on_costs = _objective(lambda x, g: -5.0 * (x[0] > 0) + x[1] + x[2])
    out, off, hands = switch_off(on_costs, w, names, 100, 7)
    assert off == ["H1"] and list(out) == [0.0, 2.0, 1.0] and hands == 2 * 100 * 4 + 2 * 100 * 2
    # within the answer's half-interval: kept on
    out, off, _ = switch_off(_objective(lambda x, g: -0.5 * (x[0] > 0)), w, names, 100, 7)
    assert off == [] and list(out) == list(w)
    # better off on the trial deals, not on the check's (the next generation): kept on
    fickle = _objective(lambda x, g: (-5.0 if g == 7 else 5.0) * (x[0] > 0))
    out, off, _ = switch_off(fickle, w, names, 100, 7)
    assert off == [] and list(out) == list(w)


@pytest.mark.parametrize("args, message", [
    (["--budget", "10"], "--budget must be from 100,000"),
    (["--budget", "-5"], "--budget must be from 1 to"),
    (["--budget", "abc"], "is not a valid integer"),
    (["--policy", "greedy"], "only hints has weights"),
    (["--opponent", "genius"], "unknown policy 'genius'"),
    (["--opponent", "hints:tuned-nosuch"], "no tuned preset 'tuned-nosuch'"),
    (["--opponent", "hints:h14=2"], "unknown setting 'h14'"),
    (["--start", "tuned-nosuch", "--budget", "100000"], "--start tuned-nosuch: no such preset"),
    (["--variant", "three_handed"], "tuning plays two-handed games"),
    (["--rule", "foo=1"], "unknown rule option"),
    (["--confirm", "-1"], "--confirm and --confirm-expert take 0 or more"),
])
def test_bad_requests_are_one_clear_error(args, message):
    r = CliRunner().invoke(main, ["tune", *args])
    assert r.exit_code in (1, 2), r.output
    assert message in r.output, r.output
    assert "Traceback" not in r.output


def test_a_resume_with_other_arguments_is_refused(tmp_path):
    from analyzer.studies.hints.cmaes import TuneError
    from analyzer.studies.hints.tune import tune
    tune(preset("ordinary"), "greedy", 120_000, 4, tmp_path, threads=1, stop_after=1)
    with pytest.raises(TuneError, match="other arguments \\(seed\\)"):
        tune(preset("ordinary"), "greedy", 120_000, 5, tmp_path, threads=1, stop_after=1)


def test_weights_are_searched_within_bounds():
    state = search(noisy_quadratic(1), 4, np.full(4, 1 / 3), 2_000_000, seed=1, deals0=512, max_deals=2048)
    for gen in state.generations:
        assert (gen.weights >= 0).all() and (gen.weights <= MAX_WEIGHT).all()


@pytest.mark.parametrize("variant, deals", [("ordinary", 4000), ("rubicon", 4000)])
def test_the_stored_preset_beats_hand_set_hints_on_fresh_deals(variant, deals):
    """The presets in the package (bezique study tune) against hand-set hints on deals of a
    seed neither the search nor its confirmation used: the interval is clear of zero."""
    from analyzer.studies.play.compare import compare_pair
    from analyzer.policies.spec import resolve_policy
    from analyzer.policies.presets import load_preset
    preset_data = load_preset(f"tuned-{variant}")
    assert preset_data["version"] == 1 and preset_data["command"].startswith("bezique tune")
    from analyzer.policies.params import HINT_NAMES
    assert set(preset_data["weights"]) == set(HINT_NAMES)
    tuned = resolve_policy(f"hints:tuned-{variant}")
    assert list(tuned.params["hint"]) == [preset_data["weights"][h] for h in HINT_NAMES]
    row = compare_pair(preset(variant), tuned, resolve_policy("hints"), deals, seed=20261130, threads=2).row()
    confirmed = next(c for c in preset_data["confirmation"] if c["against"] == "hints")
    assert_margin(row, confirmed["mean_diff"])      # the preset's own confirmation, other deals


def test_expert_rolls_out_with_a_tuned_preset():
    from analyzer.policies.spec import PolicyError, resolve_policy
    from analyzer.policies.presets import load_preset
    from analyzer.policies.params import HINT_NAMES
    spec = resolve_policy("expert:rollout=tuned-ordinary,samples=8")
    weights = load_preset("tuned-ordinary")["weights"]
    assert spec.params["rollout"] == 2 and list(spec.params["hint"]) == [weights[h] for h in HINT_NAMES]
    with pytest.raises(PolicyError, match="no tuned preset 'tuned-nosuch'"):
        resolve_policy("expert:rollout=tuned-nosuch")
