"""Expert iteration (``bezique train --round-of MODEL --search expert``): the search labels the
decisions it searches by its action values and plays its choice there; the learning curve's
measure of how the network chooses at the search's held-out decisions."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.learning.rollouts import LabelRun, Samples
from analyzer.learning.sgd import decision_regret
from analyzer.learning.train import Trainer, TrainConfig, TrainError, _labelled, talon_at_deal, value_scale
from analyzer.policies.features import SF_TALON
from analyzer.policies.learned import load_model, shipped_model
from analyzer.rules import R_HAND, R_N_CARDS, preset

LATE = 4          # a search of the last few cards only: quick


def _labels(game: str, hands: int, keep: float, search: str = f"expert:samples=16,late={LATE}"):
    """The samples and picks of ``hands`` hands of the shipped model's expert iteration."""
    rules = preset(game)
    w = str(shipped_model(game))
    trainer = Trainer(rules, TrainConfig(start=w, rollout_start=True, search=search, seed=3), "/nonexistent")
    run = LabelRun(rules.is_rubicon, np.uint64(11), 0, hands, 0.0, keep, value_scale(rules), True)
    samples, picks = _labelled(trainer.rules_arr, run, trainer.start_w, trainer.start_w, None, trainer.teacher,
                               trainer.search)
    return trainer, Samples(*samples), picks


@pytest.mark.parametrize("game", ["ordinary", "rubicon"])
def test_the_search_labels_exactly_the_decisions_it_searches(game):
    """Every decision with at most ``late`` cards left to draw is labelled by the search (it has
    the search's choice), every other by roll-outs (a share ``keep`` of them); each decision's
    labels are advantages (they sum to zero)."""
    trainer, s, picks = _labels(game, 6 if game == "ordinary" else 3, 0.2)
    arr = trainer.rules_arr
    dealt = arr[R_N_CARDS] - 2 * arr[R_HAND]
    left = np.rint(s.dec_xs[:, SF_TALON] * dealt)
    searched = picks >= 0
    assert searched.sum() > 10 and (~searched).sum() > 10
    assert np.array_equal(searched, left <= LATE)
    sums = np.bincount(s.row_dec, weights=s.row_y, minlength=len(picks))
    assert np.abs(sums).max() < 1e-4


@pytest.mark.parametrize("game", ["ordinary", "rubicon"])
def test_the_search_leaves_its_networks_choice_only_for_a_higher_value(game):
    """The search anchors on its network's choice: measured on its own network, the network
    makes the search's choice at most decisions, and wherever they differ the search's choice
    has a strictly higher label (a tie keeps the anchor: the network's choice); a network that
    values every action alike (and so takes the first) falls further behind. The samples mark
    the choice of the teacher the model keeps, as its network sees it in play: marked by another
    teacher (the yardstick, before 2026-12-06), a Rubicon model's network chose otherwise than
    its search's anchor at decisions of equal labels."""
    trainer, s, picks = _labels(game, 8, 1e-9)
    gaps = np.zeros(len(picks))
    dealt = talon_at_deal(trainer.rules)
    regret, agree = decision_regret(trainer.start_w, s, picks, gaps, dealt)
    searched = picks >= 0
    assert searched.all() and searched.sum() > 20
    assert 0.5 < agree < 1 and regret > 0
    assert (gaps >= 0).all() and (gaps > 0).mean() == pytest.approx(1 - agree)
    assert regret == pytest.approx(gaps.mean())
    flat = trainer.start_w.copy()
    flat[:] = 0.0
    assert decision_regret(flat, s, picks, gaps, dealt)[0] > regret


def test_expert_iteration_needs_a_model_and_a_fair_search(tmp_path):
    """The search's network is the round's model (``--round-of``); a ceiling, which reads hidden
    cards, or another policy cannot label."""
    rules = preset("ordinary")
    w = str(shipped_model("ordinary"))
    with pytest.raises(TrainError, match="round over a model"):
        Trainer(rules, TrainConfig(search="expert"), tmp_path / "a")
    for bad in ("cheat-sees-hand", "hints", "learned"):
        with pytest.raises(TrainError, match="not a fair search"):
            Trainer(rules, TrainConfig(start=w, rollout_start=True, search=bad), tmp_path / "b")
    with pytest.raises(TrainError, match="search: "):
        Trainer(rules, TrainConfig(start=w, rollout_start=True, search="expert:samples=x"), tmp_path / "c")
    assert load_model(w)[0].shape == Trainer(rules, TrainConfig(start=w, rollout_start=True, search="expert"),
                                            tmp_path / "d").start_w.shape


def test_a_model_says_it_was_made_by_expert_iteration(tmp_path):
    """The model's summary (``bezique policies`` prints it) names the method, the search and the
    late network, and a round without the search stays a round of policy iteration."""
    rules = preset("ordinary")
    w = str(shipped_model("ordinary"))
    for config, said in ((TrainConfig(start=w, rollout_start=True, search="expert:prune=0", late_net=4),
                          "expert iteration over learned/ordinary.npz (labels by expert:prune=0 for a late "
                          "network of 4 cards)"),
                         (TrainConfig(start=w, rollout_start=True), "a round of policy iteration over learned/")):
        trainer = Trainer(rules, config, tmp_path / str(len(said)))
        assert trainer.training_facts(trainer.new_state())["summary"].startswith(said)
