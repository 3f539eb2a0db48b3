"""The built-in policies in the rulebook's variants (docs/rules.md section 4, V1-V5): random,
greedy and hints play every preset; greedy and hints claim the game (V3), pass the declaration
window to the partner only with nothing to declare (V5 option) and do not overtake the
partner's winning card (V5); panache fours need four suits (V2); expert plays V1-V3 and refuses
three or four players."""
from __future__ import annotations

import pickle

import numpy as np

from analyzer.engine.policy_data import new_params
import pytest

import analyzer
from analyzer.cards import parse_card
from analyzer.engine import layout as L
from analyzer.engine.tricks import beats
from analyzer.hands.handlog import play_spec
from analyzer.policies.builtin import court_holdings, greedy_policy, random_policy
from analyzer.policies.expert import expert_policy
from analyzer.policies.hints import hint_bonuses, hints_policy, keep_value
from analyzer.policies.spec import PolicyError, check_rules, resolve_policy
from analyzer.run.records import as_structured, play_records
from analyzer.hands.replay_file import dealt_spec
from analyzer.rules import preset

CHEAP_EXPERT = "expert:plain,samples=4"
VARIANTS = [                      # (rule id, preset, options)
    ("V1", "no_trump", {}),
    ("V2", "panache", {}),
    ("V3", "fixed_point", {}),
    ("V4", "three_handed", {}),
    ("V4", "three_handed", {"packs": 3}),
    ("V5", "four_handed", {}),
    ("V5", "four_handed", {"partner_declares": True}),
]


def obs_for(hand="", trump="S", stage=1, decision=L.D_FOLLOW, lead=None, best_rel=-1, seats=2,
            trick_pos=0, talon=30):
    """A hand-built observation (the fields the policies read)."""
    o = np.zeros(L.OBS_SIZE, np.int32)
    for c in hand.split():
        o[L.OBS_HAND + parse_card(c)] += 1
    o[L.OBS_TRUMP] = "SHDC".index(trump) if trump else -1
    o[L.OBS_STAGE], o[L.OBS_DECISION], o[L.OBS_PACKS] = stage, decision, 2
    o[L.OBS_N_SEATS], o[L.OBS_TRICK_POS], o[L.OBS_TALON_LEFT] = seats, trick_pos, talon
    o[L.OBS_LEAD_CARD] = o[L.OBS_BEST_CARD] = parse_card(lead) if lead else -1
    o[L.OBS_BEST_REL] = best_rel
    return o


def act(function, o, legal, rules, policy="hints"):
    """Call a compiled policy directly with the parameters of ``policy``."""
    legal = np.asarray(legal, np.int32)
    spec = resolve_policy(policy)
    arr = rules.to_array()
    return int(function(o, legal, len(legal), arr, spec.params, np.zeros(1, np.uint64), spec.new_seat(arr)))


def hand_plays(o):
    return [t for t in range(32) if o[L.OBS_HAND + t] > 0]


@pytest.mark.parametrize("policy", ["random", "greedy", "hints"])
@pytest.mark.parametrize("rule_id, variant, options", VARIANTS,
                         ids=[f"{r}-{v}{'-' + '-'.join(o) if o else ''}" for r, v, o in VARIANTS])
def test_V1_to_V5_builtin_policies_play_every_variant(rule_id, variant, options, policy):
    """300 hands, every one finished with every card won in a trick (a hand ended by a
    claim of the game, V3, stops early)."""
    rules = preset(variant, **options)
    res = analyzer.simulate(rules, [policy] * rules.players, 300, 7, threads=1, keep_records=True)
    rec = as_structured(res.records)
    assert len(rec) == 300 and (rec["status"] == 0).all()
    whole = rec["game_claim"] < 0
    assert (rec["cards_won"][whole] == rules.n_cards).all()


@pytest.mark.parametrize("function", [greedy_policy, hints_policy, expert_policy],
                         ids=["greedy", "hints", "expert"])
def test_V3_greedy_hints_and_expert_claim_the_game_when_asked(function):
    rules = preset("fixed_point")
    o = obs_for(hand="AS TS KH", decision=L.D_CLAIM)
    policy = {greedy_policy: "greedy", hints_policy: "hints", expert_policy: CHEAP_EXPERT}[function]
    for legal in ([L.A_CLAIM_GAME, L.A_STOP], [L.A_STOP, L.A_CLAIM_GAME]):
        assert act(function, o, legal, rules, policy) == L.A_CLAIM_GAME


def test_V3_random_stays_uniform_at_a_claim():
    o = obs_for(decision=L.D_CLAIM)
    legal = np.array([L.A_CLAIM_GAME, L.A_STOP], np.int32)
    rng = np.array([12345], np.uint64)
    rules = preset("fixed_point").to_array()
    seat = resolve_policy("random").new_seat(rules)
    picks = [random_policy(o, legal, 2, rules, new_params(), rng, seat) for _ in range(400)]
    assert 150 < picks.count(L.A_CLAIM_GAME) < 250


def test_V3_games_end_at_the_policies_claims_and_every_claim_is_right():
    from analyzer.studies.play.games import simulate_games
    res = simulate_games(preset("fixed_point"), ["hints", "greedy"], 100, 3, threads=1)
    assert res.totals.claims[0] > 50 and res.totals.claims[1] == 0


@pytest.mark.parametrize("function, policy", [(greedy_policy, "greedy"), (hints_policy, "hints")])
def test_V5_the_window_goes_to_the_partner_only_with_nothing_to_declare(function, policy):
    rules = preset("four_handed", partner_declares=True)
    o = obs_for(hand="KH QH AS 7C 8D 9D 7H 8S", decision=L.D_MELD, seats=4)
    assert act(function, o, [L.A_PARTNER, L.A_STOP], rules, policy) == L.A_PARTNER
    assert act(function, o, [L.A_DECLARE + 1, L.A_PARTNER, L.A_STOP], rules, policy) == L.A_DECLARE + 1
    assert act(function, o, [L.A_EXCHANGE, L.A_PARTNER, L.A_STOP], rules, policy) == L.A_EXCHANGE
    assert act(function, o, [L.A_STOP], rules, policy) == L.A_STOP


def test_V5_hints_passes_the_window_in_play_and_the_partner_declares():
    rules = preset("four_handed", partner_declares=True)
    passes = declared_after = 0
    for hand in range(12):
        events = play_spec(dealt_spec(rules, 5, hand), policies=["hints"] * 4).events
        for i, e in enumerate(events):
            if e["event"] == "partner_declares":
                passes += 1
                nxt = events[i + 1]
                declared_after += nxt["event"] == "declare" and nxt["seat"] == e["partner"]
    assert passes > 0 and declared_after > 0


@pytest.mark.parametrize("function, policy", [(greedy_policy, "greedy"), (hints_policy, "hints")])
@pytest.mark.parametrize("trick_pos", [2, 3])
def test_V5_no_overtaking_of_the_partners_winning_card_in_the_first_stage(function, policy, trick_pos):
    """The partner's TH wins the trick: against an opponent both take the brisque (AH, or
    greedy's cheapest winner KS of trumps), for the partner they discard 7C instead."""
    rules = preset("four_handed")
    hand = "AH 7C 8D KS QD JC 9H TD"
    for best_rel in (2, 1, 3):
        o = obs_for(hand=hand, lead="TH", best_rel=best_rel, seats=4, trick_pos=trick_pos)
        card = act(function, o, hand_plays(o), rules, policy)
        if best_rel == 2:
            assert card == parse_card("7C")
        else:
            assert beats(card, parse_card("TH"), 0), best_rel


def test_V5_three_handed_has_no_partner():
    """V4: relative seat 2 is an opponent, whose brisque trick is taken."""
    o = obs_for(hand="AH 7C 8D KS QD JC 9H TD", lead="TH", best_rel=2, seats=3, trick_pos=2)
    assert act(hints_policy, o, hand_plays(o), preset("three_handed")) == parse_card("AH")


def test_V2_panache_duplicates_of_a_suit_do_not_help_a_four():
    """Two A♠ are two aces toward a four in the ordinary game, one suit under panache: no H3
    ace bonus, no four aces waiting to be declared (H1), no pair of aces for greedy."""
    o = obs_for(hand="AS AS AH AD 7C 8C 9C", decision=L.D_LEAD)
    params = resolve_policy("hints").params
    ordinary, panache = preset("ordinary").to_array(), preset("panache").to_array()
    assert hint_bonuses(o, ordinary, params).pending == 100 and hint_bonuses(o, panache, params).pending == 0
    o2 = obs_for(hand="AS AS 7C 8C 9C", decision=L.D_LEAD)
    a = parse_card("AS")
    plain = keep_value(o2, ordinary, params, a, hint_bonuses(o2, ordinary, params))
    pan = keep_value(o2, panache, params, a, hint_bonuses(o2, panache, params))
    assert plain - pan == pytest.approx(15.0)    # H3's bonus
    assert court_holdings(o2, False)[0] & 1 and not court_holdings(o2, True)[0] & 1


@pytest.mark.parametrize("rule_id, variant", [("V1", "no_trump"), ("V2", "panache"), ("V3", "fixed_point")])
def test_V1_V2_V3_expert_plays_two_handed_variants(rule_id, variant):
    rules = preset(variant)
    rec = as_structured(play_records(rules.to_array(), 3, 0, 4, [resolve_policy(CHEAP_EXPERT),
                                                                 resolve_policy("hints")]))
    assert (rec["status"] == 0).all() and (rec["cards_won"] == rules.n_cards).all()


def test_V3_expert_claims_the_game_in_play():
    spec = dealt_spec(preset("fixed_point"), 4)
    spec.game_totals = [1000, 0]                 # seat 0 has reached the target: asked at once
    o = play_spec(spec, policies=[CHEAP_EXPERT, "hints"])
    assert [e for e in o.events if e["event"] == "game_claim"] == [
        {"event": "game_claim", "seat": 0, "right": True}]


@pytest.mark.parametrize("rule_id, variant, players", [("V4", "three_handed", 3), ("V5", "four_handed", 4)])
def test_V4_V5_expert_is_refused_with_three_or_four_players(rule_id, variant, players):
    rules = preset(variant)
    for name in ("expert", CHEAP_EXPERT):
        specs = [resolve_policy(name)] + [resolve_policy("hints")] * (players - 1)
        with pytest.raises(PolicyError, match=rf"^{name} plays two-handed games only \(V1-V3\); "
                                              rf"{variant} has {players} players$"):
            check_rules(specs, rules)
        assert pickle.loads(pickle.dumps(specs[0])).max_players == 2     # kept by a Dask worker
    check_rules([resolve_policy(p) for p in ("hints", "greedy", "random", "hints")[:players]], rules)
    check_rules([resolve_policy("expert")] * 2, preset("fixed_point"))
