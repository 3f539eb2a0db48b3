"""The PettingZoo environment (analyzer/field/pettingzoo_env.py): it passes PettingZoo's API and
seed tests, plays recorded hands move for move as the engine and the OpenSpiel game play them (the
same masks, observations and rewards), deals a run's hands in turn, and renders the hand's trace."""
import warnings
from dataclasses import replace

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.engine.hand import deal_into
from analyzer.field import openspiel_game as og
from analyzer.field import pettingzoo_env as pz
from analyzer.field.core import N_ACTIONS, engine_deal
from analyzer.field.replays import chance_outcomes, replay_actions
from analyzer.hands.log_text import format_log
from analyzer.rubicon_score import rubicon_result
from helpers import CLAIM_HAND, claim_hand, played_hand

# what api_test says of the classic environments' Dict observation in any environment outside its own lists
DICT_OBSERVATION = {"Observation is not a NumPy array",
                    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete"}


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_pettingzoos_api_test_passes_without_a_warning(variant):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pz.env(variant=variant), num_cycles=1000, verbose_progress=False)
    assert [str(w.message) for w in caught if str(w.message) not in DICT_OBSERVATION] == []


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_pettingzoos_seed_test_passes(variant):
    seed_test(lambda: pz.env(variant=variant), num_cycles=500)


def test_the_environment_names_itself_as_a_classic_one():
    env = pz.raw_env(variant="rubicon")
    assert env.metadata["name"] == "bezique_v0" and env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi"}
    assert env.action_space("player_0").n == N_ACTIONS
    with pytest.raises(ValueError, match="3-handed"):
        pz.raw_env(variant="three_handed")


def test_reset_deals_a_runs_hands_in_turn_as_the_engine_deals_them():
    """R2.1: reset(seed=s) deals hand 0 of a run seeded s, each reset() the next; the dealer
    alternates (seat hand % 2)."""
    env = pz.raw_env(variant="ordinary")
    env.reset(seed=9)
    assert env.hand.chance_history() == engine_deal(env.rules, 9, 0)
    env.reset()
    assert env.hand.chance_history() == engine_deal(env.rules, 9, 1) and env.hand.dealer == 1
    st = api.deal(env.rules.to_array(), 9, 1)
    assert np.array_equal(env.hand.st.P[:2], st.P[:2]) and np.array_equal(env.hand.st.talon, st.talon)


@pytest.mark.parametrize("variant, seed, hand", [("ordinary", 1, 1), ("rubicon", 2, 2), ("panache", 3, 3), CLAIM_HAND])
def test_a_recorded_hand_steps_as_the_engine_and_the_openspiel_game_play_it(variant, seed, hand):
    """At every step the mask is the engine's legal actions and the observation the OpenSpiel
    game's; the rewards at the end are the hand's returns (R3.9 in Rubicon), the trace the
    engine's; a claim of the game (V3) ends the hand with its points as they stand."""
    # greedy's hands, and the one that ends in a claim of the game
    spec, played = claim_hand() if (variant, seed, hand) == CLAIM_HAND else played_hand(variant, seed, hand)
    arr = spec.rules.to_array()
    st = api.new_state(True)
    deal_into(arr, st, spec.deck(), spec.dealer)
    state = og.load(variant).new_initial_state()
    env = pz.raw_env(variant=variant, render_mode="ansi")
    env.reset(options={"deal": chance_outcomes(spec)})
    for outcome in chance_outcomes(spec):
        state.apply_action(outcome)
    for action in replay_actions(spec):
        agent = env.agent_selection
        observation = env.observe(agent)
        n, _plays = api.legal_actions(arr, st)
        assert agent == f"player_{api.to_act(st)}"
        assert np.flatnonzero(observation["action_mask"]).tolist() == sorted(st.legal[:n].tolist())
        assert observation["observation"].tolist() == state.observation_tensor(api.to_act(st))
        env.step(action)
        state.apply_action(action)
        api.apply(arr, st, action)
    assert all(env.terminations.values())
    scores = [int(x) for x in api.scores(st)]
    assert scores == played.scores
    if variant == "rubicon":
        game = rubicon_result(scores, [10 * int(st.P[s, L.P_BRISQ]) for s in (0, 1)], rules=spec.rules)
        points = 0 if game["winner"] is None else game["points"] * (1 if game["winner"] == 0 else -1)
        assert env._cumulative_rewards == {"player_0": points, "player_1": -points}
    else:
        assert env._cumulative_rewards == {"player_0": scores[0], "player_1": scores[1]}
    assert list(env._cumulative_rewards.values()) == state.returns()
    assert env.render() == format_log(replace(played, players=()))


def test_an_illegal_action_ends_the_hand_with_a_penalty_to_its_seat():
    env = pz.env(variant="ordinary")
    env.reset(seed=4)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[agent] == -1


def test_only_the_agent_to_act_has_a_mask_and_observations_differ_by_seat():
    env = pz.raw_env(variant="rubicon")
    env.reset(seed=5)
    to_act, waiting = env.agent_selection, next(a for a in env.agents if a != env.agent_selection)
    assert env.observe(to_act)["action_mask"].sum() > 0 and env.observe(waiting)["action_mask"].sum() == 0
    assert env.observe(to_act)["observation"].tolist() != env.observe(waiting)["observation"].tolist()


def test_human_rendering_prints_the_trace_as_the_hand_goes(capsys):
    """Printed step by step, the trace is the same text as rendered whole at the end."""
    env, rng = pz.env(variant="rubicon", render_mode="human"), np.random.default_rng(6)
    env.reset(seed=6)
    for agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    printed = capsys.readouterr().out
    assert printed == pz.trace_text(env.unwrapped.hand) + "\n" and printed.startswith("rubicon bezique, 2 seats")
