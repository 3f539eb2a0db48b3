"""The learned player (policies/learned.py): it decides from its seat's view alone, its model
files are checked, it is refused for games it has no model for, and it travels to another
process by name."""
from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np

from analyzer.engine.policy_data import new_params
import pytest
from test_state import deal, setup, step

from analyzer.engine import layout as L
from analyzer.engine.hand import is_over, legal_actions, observe, to_act
from analyzer.engine.observe import rebuild, sample_hidden
from analyzer.engine.state import new_state
from analyzer.policies.learned import (ModelError, learned_policy, load_model, save_model, shipped_model,
                                      shipped_player_name)
from analyzer.policies.features import CTX_W, N_STATE, state_features
from analyzer.policies.network import N_WEIGHTS, init_weights
from analyzer.policies.spec import PolicyError, check_rules, resolve_policy
from analyzer.rules import preset

ALL_SEATS = 0b1111


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_a_decision_is_the_same_whatever_the_hidden_cards_are(variant):
    """At decisions of the learned seat, the hand rebuilt from that seat's view with the
    unseen cards dealt otherwise (another opponent's hand, another talon order) gives the same
    observation and the same action: the policy reads no hidden card."""
    rules, arr, players, specs = setup(variant, {}, ("learned", "hints"))
    rng = np.random.default_rng(11)
    stream = np.array([3], np.uint64)
    hidden = np.zeros((L.MAX_SEATS, 32), np.int32)
    talon = np.zeros(L.MAX_TALON, np.int32)
    drawn = np.full(L.MAX_SEATS, -1, np.int64)
    pool = np.zeros(L.MAX_TALON, np.int32)
    sizes = np.zeros(4, np.int64)
    checked = moved = 0
    for hand in range(12):
        st = deal(rules, arr, hand)
        st.G[L.G_FULL_OBS] = ALL_SEATS
        stop_at = int(rng.integers(0, 60 if variant == "ordinary" else 120))
        for _ in range(stop_at):
            if is_over(st):
                break
            step(arr, st, players)
        if is_over(st) or to_act(st) != 0 or st.G[L.G_STAGE] != 1:
            continue
        nleg, _ = legal_actions(arr, st)
        observe(arr, st, 0)
        o = st.obs[0].copy()
        action = learned_policy(o, st.legal, nleg, arr, players.params[0], st.rngs[0], players.seats[0])
        for _ in range(3):
            hidden[:] = 0
            sample_hidden(arr, o, stream, hidden, talon, drawn, pool, sizes)
            moved += not np.array_equal(hidden[1], st.P[1, L.P_HAND:L.P_HAND + 32])
            dst = new_state(False)
            rebuild(arr, o, hidden, talon, drawn, dst)
            dst.G[L.G_FULL_OBS] = ALL_SEATS
            n2, _ = legal_actions(arr, dst)
            observe(arr, dst, 0)
            assert n2 == nleg and np.array_equal(dst.legal[:n2], st.legal[:nleg])
            assert np.array_equal(dst.obs[0][:L.OBS_CORE], o[:L.OBS_CORE])
            assert np.array_equal(dst.obs[0][L.OBS_GAME:], o[L.OBS_GAME:])
            chosen = learned_policy(dst.obs[0], dst.legal, n2, arr, players.params[0], dst.rngs[0], players.seats[0])
            assert chosen == action
        checked += 1
    assert checked >= 4 and moved >= checked     # the other hand really was dealt otherwise


def test_the_features_read_only_the_kept_observation():
    """The network's inputs come from obs[:OBS_CORE] (the seat's own view) and the game totals
    (OBS_GAME): scrambling the public record between them (filled only for search players)
    changes none of them."""
    rules, arr, players, _ = setup("rubicon", {}, ("hints", "hints"))
    st = deal(rules, arr, 2)
    for _ in range(40):
        step(arr, st, players)
    observe(arr, st, to_act(st))
    o = st.obs[to_act(st)].copy()
    a = np.zeros(N_STATE, np.float32)
    b = np.zeros(N_STATE, np.float32)
    ca = np.zeros(CTX_W, np.int64)
    cb = np.zeros(CTX_W, np.int64)
    state_features(o, arr, a, ca)
    o[L.OBS_CORE:L.OBS_GAME] = np.random.default_rng(1).integers(-5, 5, L.OBS_GAME - L.OBS_CORE)
    state_features(o, arr, b, cb)
    assert np.array_equal(a, b) and a.any() and np.array_equal(ca, cb)


def _model(tmp_path, game="ordinary", **change):
    path = tmp_path / (f"{game}.npz" if not change else f"{game}-{'-'.join(map(str, change.items()))}.npz")
    save_model(path, init_weights(np.random.default_rng(0), new_params()), game, {"summary": "test"})
    if change:
        import json
        with np.load(path) as z:
            w, meta = z["weights"], json.loads(str(z["meta"]))
        meta.update(change)
        with open(path, "wb") as f:
            np.savez(f, weights=w, meta=np.array(json.dumps(meta)))
    return path


def test_a_model_file_is_checked_and_refused_by_name(tmp_path):
    good = _model(tmp_path)
    w, meta = load_model(good, "ordinary")
    assert w.shape == (N_WEIGHTS,) and meta["game"] == "ordinary"
    with pytest.raises(ModelError, match="no such weights file"):
        load_model(tmp_path / "missing.npz")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:300])
    with pytest.raises(ModelError, match=r"cut\.npz: not a readable weights file"):
        load_model(cut)
    with pytest.raises(ModelError, match="format 99"):
        load_model(_model(tmp_path, format=99))
    with pytest.raises(ModelError, match="made for ordinary, not rubicon"):
        load_model(good, "rubicon")
    with pytest.raises(ModelError, match="sizes"):
        load_model(_model(tmp_path, n_h1=7))
    with pytest.raises(PolicyError, match=r"missing\.npz: no such weights file"):
        resolve_policy(f"learned:weights={tmp_path / 'missing.npz'}")


def test_a_model_plays_only_the_game_it_was_made_for(tmp_path):
    spec = resolve_policy(f"learned:weights={_model(tmp_path)}")
    assert spec.games == ("ordinary",) and spec.weights_for(preset("rubicon").to_array()) is None
    assert np.array_equal(spec.weights_for(preset("ordinary").to_array()), load_model(_model(tmp_path))[0])
    check_rules([spec], preset("ordinary"))
    with pytest.raises(PolicyError, match="model for ordinary only, not for rubicon"):
        check_rules([spec], preset("rubicon"))
    with pytest.raises(PolicyError, match="two-handed"):
        check_rules([resolve_policy("learned")], preset("three_handed"))


def test_rule_sets_it_plays_no_better_than_the_tuned_hints_are_refused_unless_asked():
    learned = resolve_policy("learned")
    for rules in (preset("no_trump"), preset("panache"), preset("fixed_point"), preset("ordinary", hand_size=10),
                  preset("rubicon", redeclare="replace")):
        check_rules([learned], rules)                          # measured: it plays these well
    for rules, what in ((preset("ordinary", packs=3), "three \\(V7\\)"),
                        (preset("rubicon", redeclare="same_or_higher"), "same_or_higher")):
        with pytest.raises(PolicyError, match=f"does not play this rule set: .*{what}"):
            check_rules([learned], rules)
        check_rules([resolve_policy("learned:rules=any")], rules)


def test_the_shipped_models_are_installed_for_both_games():
    for game in ("ordinary", "rubicon"):
        w, meta = load_model(shipped_model(game), game)
        assert meta["training"]["steps"] > 0 and np.abs(w).sum() > 0
    assert resolve_policy("learned").games == ("ordinary", "rubicon")


def test_a_pickled_spec_travels_by_name_and_gets_its_models_there(tmp_path):
    """A spec sent to a Dask worker resolves its name there and so loads its models there; the
    sender's parameters travel with it."""
    spec = resolve_policy(f"learned:weights={_model(tmp_path)}")
    sent = spec.params.copy()
    sent[5] = 0.25
    from dataclasses import replace
    back = pickle.loads(pickle.dumps(replace(spec, params=sent)))
    arr = preset("ordinary").to_array()
    assert np.array_equal(back.params, sent)
    assert np.array_equal(back.weights_for(arr), spec.weights_for(arr))


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_learned_plays_through_the_batch_kernel_in_both_games(variant):
    """The batch kernel (``analyzer.simulate``) plays the learned player's own decisions with
    its game's shipped model: every hand of the run equals the same hand played decision by
    decision from Python, the learned seat's choices made by ``learned_policy`` with the seat
    data of that model (test_state's step). And those decisions matter: hints in its seat
    plays other hands."""
    import analyzer
    from test_state import SEED, record
    rules, arr, players, _ = setup(variant, {}, ("learned", "hints"))
    assert np.array_equal(players.seats[0].weights, load_model(shipped_model(variant), variant)[0])
    hands = 8
    res = analyzer.simulate(rules, ["learned", "hints"], hands, seed=SEED, threads=1, keep_records=True)
    decided = 0
    for hand in range(hands):
        st = deal(rules, arr, hand)
        while not is_over(st):
            decided += to_act(st) == 0 and legal_actions(arr, st)[0] > 1
            step(arr, st, players)
        assert np.array_equal(record(arr, st, hand % rules.players), res.records[hand]), hand
    assert decided > 20 * hands
    other = analyzer.simulate(rules, ["hints", "hints"], hands, seed=SEED, threads=1, keep_records=True)
    assert not np.array_equal(other.records, res.records)


def test_suits_rotate_so_that_trumps_are_suit_0():
    """Cards and the suit-bound combinations (marriages, sequences) are rotated by trumps; the
    béziques and fours belong to no suit and stay."""
    from analyzer.cards import COMBO_NAMES, SUITS, card_id, combo_id
    from analyzer.policies.features import rotate, rotate_combo
    for trump in range(4):
        for suit in range(4):
            assert rotate(card_id(suit, 2), trump) == card_id((suit - trump) % 4, 2)
            for kind in ("marriage", "sequence"):
                assert rotate_combo(combo_id(f"{kind}_{SUITS[suit]}"), trump) == \
                    combo_id(f"{kind}_{SUITS[(suit - trump) % 4]}")
        for c in range(8, len(COMBO_NAMES)):
            assert rotate_combo(c, trump) == c
    assert rotate(card_id(3, 5), -1) == card_id(3, 5) and rotate_combo(3, -1) == 3


# the model each shipped player replaced (the one shipped before it: (game, player) -> run), and
# the fixed deals, of a seed no training or choice played, it must beat it on
REPLACED = {("ordinary", 1): "results/train/ordinary-gen2-late/model.npz",
            ("rubicon", 1): "results/train/rubicon-third-gen1/model.npz",
            ("rubicon", 3): "results/train/rubicon-gen1-late-late8/model.npz"}
REPLACED_DEALS = 3000


@pytest.mark.parametrize("game, player", sorted(REPLACED))
def test_the_shipped_player_beats_the_one_it_replaced(game, player):
    """On fixed deals, seats swapped, ``learned`` (and ``learned:player=3`` of Rubicon, the band's
    last player replaced) beats the model it replaced with its interval clear of zero: a shipped
    model weaker than the one before it fails here."""
    from analyzer.studies.play.compare import compare_pair
    old = Path(__file__).resolve().parent.parent / REPLACED[game, player]
    assert shipped_model(game, player).read_bytes() != old.read_bytes()
    row = compare_pair(preset(game), resolve_policy(shipped_player_name(player)),
                       resolve_policy(f"learned:weights={old}"), REPLACED_DEALS, seed=20261232, threads=2).row()
    assert row["mean_diff_lo"] > 0, row
