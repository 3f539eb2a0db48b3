"""The project's players as OpenSpiel bots, and the study of OpenSpiel's IS-MCTS against them
(analyzer/field/bots.py, analyzer/published/external.py; issue 58)."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pyspiel")

from analyzer.field import openspiel_game as og  # noqa: E402
from analyzer.field.bots import ProjectBot, play_deal, project_bots  # noqa: E402
from analyzer.field.core import FieldError  # noqa: E402
from analyzer.hands.handlog import play_spec  # noqa: E402
from analyzer.hands.replay_file import dealt_spec  # noqa: E402
from analyzer.published import external  # noqa: E402
from analyzer.rules import preset  # noqa: E402

SEED = 5


@pytest.mark.parametrize("variant, policy, hands", [
    ("ordinary", "greedy", 2), ("ordinary", "hints:tuned-ordinary", 2), ("ordinary", "learned", 2),
    ("ordinary", "expert", 1), ("ordinary", "random", 2), ("rubicon", "greedy", 1), ("rubicon", "hints:tuned-rubicon", 2),
    ("rubicon", "learned", 2)])
def test_two_bots_play_the_hand_simulate_plays(variant, policy, hands):
    """A bot decides as the engine's loop does, with the seat's stream of the run's hand: on the
    engine's deal the two bots end with the scores play_spec gives the same players."""
    game = og.load(variant)
    for hand in range(hands):
        state = game.new_initial_state()
        for outcome in og.deal_outcomes(game, SEED, hand):
            state.apply_action(outcome)
        bots = project_bots(game, [policy, policy], SEED, hand)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        engine = play_spec(dealt_spec(preset(variant), SEED, hand), [policy, policy], seed=SEED, hand=hand)
        assert state.hand.scores() == engine.scores


def test_play_deal_returns_each_seats_return():
    game = og.load("ordinary", margin=True)
    returns = play_deal(game, SEED, 0, project_bots(game, ["greedy", "learned"], SEED, 0))
    engine = play_spec(dealt_spec(preset("ordinary"), SEED, 0), ["greedy", "learned"], seed=SEED, hand=0)
    assert returns == [engine.scores[0] - engine.scores[1], engine.scores[1] - engine.scores[0]]


def test_a_bot_refuses_a_seat_it_does_not_hold():
    game = og.load("ordinary")
    with pytest.raises(FieldError, match="seat 0 or 1"):
        ProjectBot(game, 2, "greedy")
    state = game.new_initial_state()
    for outcome in og.deal_outcomes(game, SEED, 0):
        state.apply_action(outcome)
    other = 1 - state.current_player()
    with pytest.raises(FieldError, match=f"seat {other}'s bot was asked to act where seat"):
        ProjectBot(game, other, "greedy").step(state)


@pytest.fixture
def tiny_study(monkeypatch):
    """The study at 4 simulations a move, two deals of the ordinary game against each opponent."""
    monkeypatch.setattr(external, "DEALS", {("ordinary", 4): 2})


def test_the_study_plays_each_deal_at_both_seats_and_resumes(tiny_study, tmp_path, monkeypatch):
    args = ["--games", "ordinary", "--out", str(tmp_path), "--no-readme", "--threads", "1"]
    assert external.main(args) == 0
    hands = pd.read_csv(tmp_path / "hands.csv", index_col=0)
    assert len(hands) == 2 * 2 * len(external.OPPONENTS)
    assert (hands.groupby(["opponent", "deal"]).seat.apply(sorted) == pd.Series([[0, 1]] * 6).values).all()
    table = pd.read_csv(tmp_path / "external.csv", index_col=0)
    for row in table.itertuples():
        pairs = hands[hands.opponent == row.opponent].groupby("deal").result.mean()
        assert row.mean == pytest.approx(pairs.mean()) and row.deals == 2
    assert (tmp_path / "external.png").is_file()
    before = (tmp_path / "hands.csv").read_text()
    assert external.main(args) == 0                  # nothing left to play: the same hands kept
    assert (tmp_path / "hands.csv").read_text() == before
    (tmp_path / "external.csv").unlink()
    monkeypatch.setattr(external, "DEALS", {("ordinary", 4): 3})
    assert external.main([*args, "--tables"]) == 0   # plays nothing: the tables from the hands there
    assert (tmp_path / "hands.csv").read_text() == before
    assert pd.read_csv(tmp_path / "external.csv", index_col=0).deals.tolist() == [2, 2, 2]


def test_the_searchs_hands_are_reproduced_from_the_seed():
    job = ("ordinary", 4, "greedy", 3, 11)
    first, again = external.play_pair(job), external.play_pair(job)
    assert [r["result"] for r in first] == [r["result"] for r in again]
    assert [r["moves"] for r in first] == [r["moves"] for r in again]


# --- the Gymnasium single-agent environment --------------------------------------------------

@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_the_single_agent_environment_passes_gymnasiums_checks(variant):
    from gymnasium.utils.env_checker import check_env

    from analyzer.field.gym_env import BeziqueEnv
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "no spec": it is made without gymnasium.make
        check_env(BeziqueEnv(variant=variant, opponent="greedy", render_mode="ansi"))


@pytest.mark.parametrize("variant, seat", [("ordinary", 0), ("rubicon", 1)])
def test_the_agent_plays_the_engines_hand_against_the_opponent(variant, seat):
    """The agent playing greedy's moves against greedy ends the hand simulate plays; the reward is
    the seat's return (the ordinary game: its margin)."""
    from analyzer.field.gym_env import BeziqueEnv
    env = BeziqueEnv(variant=variant, opponent="greedy", seat=seat)
    env.reset(seed=SEED)
    me = ProjectBot(og.load(variant), seat, "greedy", SEED, 0)
    done, reward = False, 0.0
    while not done:
        _obs, reward, done, _trunc, info = env.step(me.action_at(env.hand))
        assert info == {}
    engine = play_spec(dealt_spec(preset(variant), SEED, 0), ["greedy", "greedy"], seed=SEED, hand=0)
    assert env.hand.scores() == engine.scores
    expected = env.hand.returns()[seat]
    if variant == "ordinary":
        expected = engine.scores[seat] - engine.scores[1 - seat]
    assert reward == expected


def test_an_illegal_action_ends_the_hand_at_the_worst_return():
    from analyzer.field.gym_env import BeziqueEnv
    env = BeziqueEnv(variant="ordinary", opponent="greedy")
    obs, _info = env.reset(seed=SEED)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, reward, done, _trunc, info = env.step(illegal)
    assert done and info == {"illegal": True} and reward == env.worst < -1000


def test_the_ladder_place_names_the_rungs_around_the_searchs_margin(tmp_path):
    ladder = pd.DataFrame({"game": ["ordinary"] * 5, "player": ["greedy", "hints", "hints:tuned-ordinary", "learned",
                                                                 "ceiling: clairvoyant"],
                           "mean_diff": [-80, -46, 0, 84, 132], "mean_diff_lo": [-82, -48, 0, 82, 126],
                           "mean_diff_hi": [-78, -44, 0, 86, 138]})
    ladder.to_csv(tmp_path / "ladder.csv")
    df = pd.DataFrame([{"game": "ordinary", "sims": 100, "opponent": "hints:tuned-ordinary",
                        "mean": -60.0, "mean_lo": -75.0, "mean_hi": -45.0}])
    [line] = external.ladder_place(df, "ordinary", tmp_path / "ladder.csv")
    assert "above `greedy` (-80); below `hints:tuned-ordinary` (+0); not told apart from `hints` (-46)" in line
