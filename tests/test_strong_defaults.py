"""The names mean the best (issue 33): ``expert`` is the strongest search documented in
docs/search.md, and a search anchored on a policy P is never weaker than P where it cannot
tell the actions apart."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from analyzer.policies.params import E_GUARD
from analyzer.policies.expert_names import BEST_SEARCH
from analyzer.policies.registry import resolve_policy
from analyzer.rules import preset
from analyzer.studies.compare import compare_pair

SEARCH_DOC = Path(__file__).parent.parent / "docs" / "search.md"
DEALS = 20261205          # deals no training, tuning or choice of settings played


def _documented(game: str) -> str:
    """The settings docs/search.md gives for the default expert of ``game`` (its line
    "`expert` in the ordinary game is `expert:...`")."""
    text = SEARCH_DOC.read_text()
    m = re.search(rf"`expert` in the {game} game is `expert:([^`]+)`", text)
    assert m, f"docs/search.md names no default expert for {game}"
    return m.group(1)


@pytest.mark.parametrize("game", ["ordinary", "rubicon"])
def test_the_default_expert_is_the_documented_best_search(game):
    """``expert`` with no options resolves, in each game, to the settings docs/search.md
    documents (and those are BEST_SEARCH): the same parameter vector, the guard on."""
    arr = preset(game).to_array()
    assert _documented(game) == BEST_SEARCH[game]
    default = resolve_policy("expert").params_for(arr)
    written = resolve_policy(f"expert:plain,{_documented(game)},guard=1").params_for(arr)
    assert np.array_equal(default, written)
    assert default[E_GUARD] == 1
    assert not np.array_equal(default, resolve_policy("expert").params_for(
        preset("rubicon" if game == "ordinary" else "ordinary").to_array()))


@pytest.mark.parametrize("rollout, same_as", [("learned", "learned"), ("tuned-ordinary", "hints:tuned-ordinary")])
def test_the_anchor_is_the_roll_out_policys_own_choice(rollout, same_as):
    """Without a prior the anchor is the roll-out policy's own choice: at every first-stage
    decision of real hands the search anchors on the action that policy plays there."""
    from test_state import deal, setup, step
    from analyzer.engine import layout as L
    from analyzer.engine.hand import is_over, legal_actions, observe, to_act
    from analyzer.policies.expert import _rollout_choice
    rules, arr, players, _ = setup("ordinary", {}, ("learned", "hints"))
    search = resolve_policy(f"expert:prior=0,rollout={rollout}")
    policy = resolve_policy(same_as)
    params, data, own = search.params_for(arr), search.new_seat(arr), policy.new_seat(arr)
    checked = 0
    for hand in range(6):
        st = deal(rules, arr, hand)
        while not is_over(st):
            n, _ = legal_actions(arr, st)
            s = to_act(st)
            if n > 1 and st.G[L.G_STAGE] == 1:
                observe(arr, st, s)
                o = st.obs[s]
                anchor = _rollout_choice(o, st.legal, n, arr, params, np.array([1], np.uint64), data)
                mine = policy.function(o, st.legal, n, arr, policy.params, np.array([1], np.uint64), own)
                assert st.legal[anchor] == mine
                checked += 1
            step(arr, st, players)
    assert checked > 150


def test_a_search_anchored_on_learned_is_not_weaker_than_learned_where_an_unanchored_one_is():
    """On 100 fixed deals (seats swapped), the search that rolls out with the learned player
    and keeps its choice unless another action is 2 standard errors better is not measurably
    weaker than the learned player (the interval's upper end is above zero); the same budget
    without the anchor, greedy roll-outs at every decision, is far weaker (its upper end is
    below zero): the check can fail."""
    rules = preset("ordinary")
    learned = resolve_policy("learned")
    guarded = compare_pair(rules, resolve_policy("expert:prior=0,rollout=learned,samples=4"), learned, 100,
                           seed=DEALS, threads=2).row()
    plain = compare_pair(rules, resolve_policy("expert:plain,samples=4"), learned, 100, seed=DEALS,
                         threads=2).row()
    assert guarded["mean_diff_hi"] > 0, guarded
    assert plain["mean_diff_hi"] < 0, plain
