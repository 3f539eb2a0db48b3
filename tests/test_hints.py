"""Each hint's behaviour on constructed positions (obs arrays built by hand)."""
import hashlib

import numpy as np
import pytest

from analyzer.cards import parse_card
from analyzer.engine import layout as L
from analyzer.policies.hints import hint_bonuses, hints_policy, keep_value
from analyzer.policies.params import RULEBOOK_HINTS
from analyzer.policies.spec import PolicyError, resolve_policy
from analyzer.rules import preset
from analyzer.run.records import play_records

ORD = preset("ordinary").to_array()
RUB = preset("rubicon").to_array()


def keep_values(obs, rules, params, out):
    """Fill ``out[t]`` with hints' keep_value of every card type t at the decision ``obs``."""
    bonus = hint_bonuses(obs, rules, params)
    for t in range(32):
        out[t] = keep_value(obs, rules, params, t, bonus)


def obs_for(hand="", table="", played="", opp_table="", trump="S", stage=1, talon=30,
            decision=L.D_LEAD, lead=None, packs=2, score=(0, 0)):
    o = np.zeros(L.OBS_SIZE, np.int32)
    for text, base in ((hand, L.OBS_HAND), (table, L.OBS_TABLE), (played, L.OBS_PLAYED),
                       (opp_table, L.OBS_TABLE + 32)):
        for c in text.split():
            o[base + parse_card(c)] += 1
    o[L.OBS_TRUMP] = "SHDC".index(trump) if trump else -1
    o[L.OBS_STAGE] = stage
    o[L.OBS_TALON_LEFT] = talon
    o[L.OBS_DECISION] = decision
    o[L.OBS_PACKS] = packs
    o[L.OBS_SCORE], o[L.OBS_SCORE + 1] = score
    o[L.OBS_LEAD_CARD] = o[L.OBS_BEST_CARD] = parse_card(lead) if lead else -1
    return o


def plays(o):
    """Every card held, from hand (t) and table (32 + t)."""
    acts = [t for t in range(32) for _ in range(1) if o[L.OBS_HAND + t] > 0]
    acts += [32 + t for t in range(32) if o[L.OBS_TABLE + t] > 0]
    return np.array(acts, np.int32)


def act(o, legal, policy="hints", rules=ORD):
    spec = resolve_policy(policy)
    legal = np.asarray(legal, np.int32)
    return int(hints_policy(o, legal, len(legal), rules, spec.params, np.zeros(1, np.uint64), spec.new_seat(rules)))


def card(a):
    return a % 32


def test_presets_parse():
    assert list(resolve_policy("hints").params["hint"][:8]) == [1] * 8
    assert list(resolve_policy("hints:only=H2").params["hint"][:8]) == [0, 1, 0, 0, 0, 0, 0, 0]
    assert list(resolve_policy("hints:no=H4").params["hint"][:8]) == [1, 1, 1, 0, 1, 1, 1, 1]
    assert list(resolve_policy("hints:h2=0.5,h5=2").params["hint"][:8]) == [1, 0.5, 1, 1, 2, 1, 1, 1]
    assert list(resolve_policy("hints:only=H2+H8").params["hint"][:8]) == [0, 1, 0, 0, 0, 0, 0, 1]
    for bad in ("hints:only=H14", "hints:h2=x", "hints:foo=1", "hints:h2", "hints:h0=1"):
        with pytest.raises(PolicyError):
            resolve_policy(bad)


def test_H1_declares_the_most_valuable_combination_first():
    o = obs_for(hand="KH QH AS AH AD AC 8C 9C", decision=L.D_MELD)
    legal = [L.A_DECLARE + 1, L.A_DECLARE + 12, L.A_STOP]     # marriage_H (20), four aces (100)
    assert act(o, legal) == L.A_DECLARE + 12
    assert act(o, legal, "hints:no=H1") == L.A_DECLARE + 1      # baseline: the first offered


def test_H1_lays_down_claims_in_rubicon():
    o = obs_for(hand="KH QH KS KD KC 8C 9C 7H 7D", decision=L.D_MELD, trump="H", packs=4, talon=80)
    legal = [L.A_CLAIM + 13, L.A_STOP]
    assert act(o, legal, rules=RUB) == L.A_CLAIM + 13
    assert act(o, legal, "hints:no=H1", rules=RUB) == L.A_STOP


def test_H1_wins_a_trick_to_declare_a_waiting_combination():
    # four aces waiting (one ace still in hand); opponent leads 8C; I can win with 9S (trump)
    o = obs_for(hand="AH AD 9S 7C KH JC 8D", table="AS AC", lead="8C", decision=L.D_FOLLOW)
    legal = plays(o)
    assert card(act(o, legal, "hints:only=H1")) == parse_card("9S")
    assert card(act(o, legal, "hints:only=H5")) != parse_card("9S")


def test_H2_takes_a_brisque_with_a_small_trump():
    o = obs_for(hand="9S AH 8C", lead="TH", decision=L.D_FOLLOW)
    legal = plays(o)
    assert card(act(o, legal, "hints:only=H2")) == parse_card("9S")
    assert card(act(o, legal, "hints:no=H2")) == parse_card("8C")


def test_H3_keeps_aces_while_four_aces_is_likely():
    # three aces, a fourth still live: H2 alone would take the ten with the ace of hearts
    o = obs_for(hand="AH AS AD 8D", lead="TH", decision=L.D_FOLLOW, trump="C")
    legal = plays(o)
    assert card(act(o, legal, "hints:only=H2")) == parse_card("AH")
    assert card(act(o, legal, "hints:only=H2+H3")) == parse_card("8D")
    # every other ace gone: four aces impossible, the ace is used again
    gone = obs_for(hand="AH AS AD 8D", lead="TH", decision=L.D_FOLLOW, trump="C",
                   played="AC AC AH AS AD")
    assert card(act(gone, plays(gone), "hints:only=H2+H3+H4")) == parse_card("AH")


def test_H4_stops_keeping_JD_once_both_QS_are_played():
    keep_on, keep_off = np.zeros(32), np.zeros(32)
    o = obs_for(hand="JD QH 9C 8C 8H", played="QS QS", talon=40)
    keep_values(o, ORD, resolve_policy("hints:only=H5+H4").params, keep_on)
    keep_values(o, ORD, resolve_policy("hints:only=H5").params, keep_off)
    jd = parse_card("JD")
    assert keep_on[jd] < keep_off[jd]
    # as a lead: without counting the knave is kept (the queen of hearts goes), with it the knave goes
    legal = np.array([parse_card("JD"), parse_card("QH")], np.int32)
    assert card(act(o, legal, "hints:only=H5")) == parse_card("QH")
    assert card(act(o, legal, "hints:only=H5+H4")) == parse_card("JD")


def test_H5_keeps_bezique_cards_while_double_is_possible():
    o = obs_for(hand="QS JD KC", talon=40)
    legal = plays(o)
    assert card(act(o, legal, "hints:only=H5")) == parse_card("KC")
    assert card(act(o, legal, "hints:no=H5")) == parse_card("JD")


def test_H6_holds_the_bezique_back_with_spades_trumps():
    o = obs_for(hand="QS JD KC 8C 9C 7H 8H 9H", decision=L.D_MELD, trump="S", talon=30)
    legal = [L.A_DECLARE + 8, L.A_STOP]
    assert act(o, legal) == L.A_STOP
    assert act(o, legal, "hints:no=H6") == L.A_DECLARE + 8
    # with a royal marriage available too, H6 declares it first
    both = [L.A_DECLARE + 0, L.A_DECLARE + 8, L.A_STOP]
    assert act(o, both, "hints") == L.A_DECLARE + 0
    # hearts trumps: H6 does not apply
    o_h = obs_for(hand="QS JD KC 8C 9C 7H 8H 9H", decision=L.D_MELD, trump="H", talon=30)
    assert act(o_h, legal) == L.A_DECLARE + 8


def test_H7_gives_up_scoring_when_the_rubicon_is_hopeless():
    hopeless = obs_for(hand="KH QH 8C", decision=L.D_MELD, trump="H", packs=4, talon=10,
                       score=(200, 1100))
    legal = [L.A_DECLARE + 1, L.A_STOP]
    assert act(hopeless, legal, rules=RUB) == L.A_STOP
    assert act(hopeless, legal, "hints:no=H7", rules=RUB) == L.A_DECLARE + 1
    hopeful = obs_for(hand="KH QH 8C", decision=L.D_MELD, trump="H", packs=4, talon=60,
                      score=(600, 900))
    assert act(hopeful, legal, rules=RUB) == L.A_DECLARE + 1
    carte = obs_for(hand="9H 8C 7D", decision=L.D_CARTE, packs=4, talon=10, score=(0, 1200), trump=None)
    assert act(carte, [L.A_CARTE_BLANCHE, L.A_STOP], rules=RUB) == L.A_STOP
    # never in the ordinary game
    assert act(hopeless, legal, rules=ORD) == L.A_DECLARE + 1


def test_H8_leads_a_sure_winner_in_the_second_stage():
    # both AC and TC have been played: KC cannot be beaten in clubs
    o = obs_for(hand="KC 7H 8D", played="AC AC TC TC", stage=2, talon=0, trump="S")
    legal = plays(o)
    assert card(act(o, legal, "hints:only=H8")) == parse_card("KC")
    assert card(act(o, legal, "hints:no=H8")) == parse_card("7H")


# --- the found hints H9..H13 (docs/policies.md) --------------------------------------------

def test_found_hints_are_off_in_hints_and_set_by_name():
    found = slice(RULEBOOK_HINTS, None)
    assert list(resolve_policy("hints").params["hint"][found]) == [0] * 5
    assert resolve_policy("hints:only=H1+H2+H3+H4+H5+H6+H7+H8").params.tobytes() == resolve_policy("hints").params.tobytes()
    assert list(resolve_policy("hints:h9=0.5,h13=2").params["hint"][found]) == [0.5, 0, 0, 0, 2]
    assert list(resolve_policy("hints:only=H10+H12").params["hint"]) == [0] * 9 + [1, 0, 1, 0]
    assert list(resolve_policy("hints:tuned-ordinary-h8").params["hint"][found]) == [0] * 5   # a preset before them


def test_H9_leads_a_table_card_before_a_hand_card():
    o = obs_for(hand="8H KC", table="QD", talon=30)
    legal = plays(o)
    assert act(o, legal) == parse_card("8H")                       # the lowest keep value
    assert act(o, legal, "hints:h9=1") == 32 + parse_card("QD")     # 4 - 4 < 1
    assert act(obs_for(hand="8H KC", table="QD", stage=2, talon=0), legal, "hints:h9=1") == parse_card("8H")


def test_H10_leads_a_plain_ace_rather_than_a_court_card_and_keeps_trump_aces():
    o = obs_for(hand="KC AH", trump="S")
    assert act(o, plays(o), "hints:only=H2") == parse_card("KC")        # ace 17, king 5
    assert act(o, plays(o), "hints:only=H2+H10") == parse_card("AH")    # ace 7, king 9
    trump_ace = obs_for(hand="KC AS", trump="S")
    assert act(trump_ace, plays(trump_ace), "hints:only=H2+H10") == parse_card("KC")


def test_H11_wins_the_first_stage_last_trick():
    last = obs_for(hand="AS 8H", trump="S", talon=2)
    assert act(last, plays(last), "hints:only=H11") == parse_card("AS")  # no card beats it
    early = obs_for(hand="AS 8H", trump="S", talon=10)
    assert act(early, plays(early), "hints:only=H11") == parse_card("8H")
    follow = obs_for(hand="9S 8H", trump="S", talon=2, lead="9C", decision=L.D_FOLLOW)
    assert card(act(follow, plays(follow), "hints:only=H11")) == parse_card("9S")
    assert card(act(follow, plays(follow), "hints:only=H1")) == parse_card("8H")


def test_H12_keeps_trump_court_cards_from_winning_tricks():
    o = obs_for(hand="KS 7H", trump="S", lead="TC", decision=L.D_FOLLOW)
    assert card(act(o, plays(o), "hints:only=H2")) == parse_card("KS")             # the ten is worth it
    assert card(act(o, plays(o), "hints:only=H2+H12,h12=5")) == parse_card("7H")   # not a trump king


def test_H13_draws_trumps_with_a_sure_trump_before_cashing_plain_winners():
    o = obs_for(hand="KC AS 7H", played="AC AC TC TC", stage=2, talon=0, trump="S")
    assert card(act(o, plays(o), "hints:only=H8")) == parse_card("KC")
    assert card(act(o, plays(o), "hints:only=H8+H13")) == parse_card("AS")
    spades = " ".join(f"{r}S {r}S" for r in "ATKQJ987")
    none_out = obs_for(hand="KC 7H", played="AC AC TC TC " + spades, stage=2, talon=0, trump="S")
    assert card(act(none_out, plays(none_out), "hints:only=H8+H13")) == parse_card("KC")


# The records of three pairings whose hints are all among H1..H8, as the code played them at
# commit 7ab1058, before H9..H13 existed (the tuned presets of then are the "-h8" ones): a
# found hint at weight 0 must not change a single card.
BEFORE_FOUND_HINTS = [
    ("ordinary", ("hints", "greedy"), 2000, "db50c4a823193da9"),
    ("ordinary", ("hints:tuned-ordinary-h8", "hints"), 2000, "e10381021bc4d73d"),
    ("rubicon", ("hints:tuned-rubicon-h8", "hints"), 600, "f2566cee4310def8"),
]


@pytest.mark.parametrize("variant,pairing,hands,digest", BEFORE_FOUND_HINTS)
def test_found_hints_switched_off_play_as_before_they_existed(variant, pairing, hands, digest):
    rec = play_records(preset(variant).to_array(), 20261205, 0, hands, [resolve_policy(p) for p in pairing])
    cols = [L.REC_LAST_WINNER, L.REC_TRICKS] + [L.REC_SEAT + s * L.REC_SEAT_W + f for s in range(2)
                                                for f in (L.RS_SCORE, L.RS_DECL, L.RS_BRISQ)]
    assert hashlib.sha256(rec[:, cols].astype(np.int64).tobytes()).hexdigest()[:16] == digest


# --- keep_values against a card-by-card transcription of H2-H5 ------------------------
# The policy computes its H3/H4/H5 bonuses in one pass with bit sets (hints.outlook); this
# reference asks each question separately for each card, as the hints read.

def _ref_keep_values(o, params):
    packs, trump, stage = int(o[L.OBS_PACKS]), int(o[L.OBS_TRUMP]), int(o[L.OBS_STAGE])
    counting = params["hint"][3] > 0

    def held(t):
        return int(o[L.OBS_HAND + t] + o[L.OBS_TABLE + t])

    def live(t, count):
        n = packs - held(t)
        if count:
            n -= int(o[L.OBS_PLAYED + t]) + sum(int(o[L.OBS_TABLE + 32 * r + t]) for r in (1, 2, 3))
        return max(n, 0)

    def four_possible(rank, count):
        have = sum(held(s * 8 + rank) for s in range(4))
        return have >= 1 and have + sum(live(s * 8 + rank, count) for s in range(4)) >= 4

    def chance(cards_needed, count, share):
        missing = 0
        for t, k in cards_needed:
            need = k - held(t)
            if need > 0:
                if live(t, count) < need:
                    return 0.0
                missing += need
        return share ** missing

    def obtainable(t):
        return held(t) + live(t, True) > 0

    seq_cards = [trump * 8 + r for r in range(5)] if trump >= 0 else []
    seq_open = trump >= 0 and all(obtainable(t) for t in seq_cards)

    def dead(t):
        r = t % 8
        if r > 4:
            return False
        if r in (2, 3) and obtainable(t // 8 * 8 + 5 - r):
            return False
        if r != 1 and four_possible(r, True):
            return False
        if (t == 3 and obtainable(20)) or (t == 20 and obtainable(3)):
            return False
        return not (t in seq_cards and seq_open)

    ace = bez = seq = 0.0
    if stage == 1:
        seen = int(o[:L.OBS_PLAYED + 32].sum())
        share = min(1.0, 0.5 * int(o[L.OBS_TALON_LEFT]) / max(32 * packs - seen, 1))
        if params["hint"][2] > 0 and sum(held(s * 8) for s in range(4)) >= 2 and four_possible(0, counting):
            ace = 15.0 * params["hint"][2]
        if params["hint"][4] > 0:
            bez = params["hint"][4] * (40.0 * chance([(3, 1), (20, 1)], counting, share)
                               + 500.0 * chance([(3, 2), (20, 2)], counting, share)) / 20.0
            if trump >= 0 and (seq_open or not counting):
                seq = params["hint"][4] * 250.0 * chance([(t, 1) for t in seq_cards], counting, share) / 20.0
    out = np.zeros(32)
    for t in range(32):
        v = 7.0 - t % 8 + (10.0 * params["hint"][1] if t % 8 <= 1 else 0.0)
        v += 4.0 * params["hint"][1] if t // 8 == trump else 0.0
        if stage == 1:
            v += ace if t % 8 == 0 else 0.0
            v += bez if t in (3, 20) else 0.0
            v += seq if t // 8 == trump and t % 8 <= 4 else 0.0
            if counting and dead(t):
                v -= 2.0 * params["hint"][3]
        out[t] = v
    return out


def _ref_pending(o):
    """H1: points of a combination held with a card still in the hand (first stage)."""
    trump = int(o[L.OBS_TRUMP])

    def held(t):
        return int(o[L.OBS_HAND + t] + o[L.OBS_TABLE + t])

    def in_hand(*ts):
        return sum(int(o[L.OBS_HAND + t]) for t in ts) > 0

    best = 0
    for s in range(4):
        k, q = s * 8 + 2, s * 8 + 3
        if held(k) and held(q) and in_hand(k, q):
            best = max(best, 40 if s == trump else 20)
    if held(3) and held(20) and in_hand(3, 20):
        best = max(best, 40)
    for rank, pts in ((0, 100), (2, 80), (3, 60), (4, 40)):
        cards = [s * 8 + rank for s in range(4)]
        if sum(held(t) for t in cards) >= 4 and in_hand(*cards):
            best = max(best, pts)
    return best


@pytest.mark.parametrize("policy", ["hints", "hints:no=H4", "hints:h4=0.5,h5=2", "hints:only=H3"])
def test_keep_values_match_the_card_by_card_reading(policy):
    """H2-H5 values of every card, and H1's pending declaration, on 300 random first-stage
    positions (2 and 4 packs)."""
    params = resolve_policy(policy).params
    rng = np.random.default_rng(11)
    got = np.zeros(32)
    for i in range(300):
        packs = 2 if i % 2 else 4
        left = np.full(32, packs)
        o = obs_for(trump=None if i % 7 == 0 else "SHDC"[i % 4], packs=packs, talon=int(rng.integers(0, 60)))
        for base, n in ((L.OBS_HAND, 9), (L.OBS_TABLE, 5), (L.OBS_PLAYED, int(rng.integers(0, 50))),
                        (L.OBS_TABLE + 32, 6)):
            for t in rng.integers(0, 32, n):
                if left[t] > 0:
                    left[t] -= 1
                    o[base + t] += 1
        keep_values(o, ORD, params, got)
        # share ** missing: numba multiplies, Python calls pow, so allow the last bit
        np.testing.assert_allclose(got, _ref_keep_values(o, params), rtol=1e-12, atol=1e-12,
                                   err_msg=f"position {i}")
        assert hint_bonuses(o, ORD, params).pending == _ref_pending(o), f"position {i}"
