"""``bezique trace``: each seat named by its policy, every combination in words, and with
``--explain`` the learned player's three best actions at each decision (analyzer/hands/explain.py),
their values the learned network's for that seat's observation; actions in words
(analyzer/actions.action_words)."""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.actions import action_words
from analyzer.cards import COMBO_NAMES, combo_id, parse_card
from analyzer.cli import main
from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.engine.policy_data import new_seat_data
from analyzer.engine.scripted import replay_moves
from analyzer.hands.explain import ExplainError, explain_hand, learned_model
from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.log_text import format_log
from analyzer.hands.play import trace_hand
from analyzer.hands.replay_file import parse_replay
from analyzer.policies.features import CTX_W, MAX_ACTION_NZ, N_STATE, action_features, state_features
from analyzer.policies.learned_net import teacher_action
from analyzer.policies.network import N_IN, O_HINT_BONUS, layer_offsets, net_of, plays_late, value_unit
from analyzer.rules import preset

# a combination's machine name: any with an underscore, or plain "bezique" where a combination is named
MACHINE_NAME = re.compile(r"\b(?:" + "|".join(n for n in COMBO_NAMES if "_" in n) + r"|royal_marriage)\b"
                          r"|(?:declares?|claims?|claims \() bezique\b")
ASCII_CARD = re.compile(r"\b[ATKQJ987][SHDC]\b")
BLOCK_HEAD = re.compile(r"^ {6}seat (\d) \((.+?)\) to .*: the learned player's (?:(\d) best of (\d+) actions"
                        r"|values of its (\d+) actions)")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def blocks(text: str) -> list[tuple[re.Match, list[str]]]:
    """Each explained decision of a trace's text: its head line (matched) and its action lines."""
    out = []
    for line in text.splitlines():
        m = BLOCK_HEAD.match(line)
        if m:
            out.append((m, []))
        elif out and re.match(r"^ {6}[* ] \S", line) and not line.startswith("       seat"):
            out[-1][1].append(line)
    return out


# --- actions in words -------------------------------------------------------------------------

def test_action_words_names_every_kind_of_action():
    assert action_words(parse_card("AS")) == "play A♠"
    assert action_words(L.A_PLAY_TABLE + parse_card("QH"), symbols=False) == "play QH from the table"
    assert action_words(L.A_DECLARE + combo_id("marriage_H")) == "declare the marriage in ♥ (K♥ Q♥)"
    assert action_words(L.A_DECLARE + combo_id("marriage_H"), cards=()) == "declare the marriage in ♥"
    assert action_words(L.A_DECLARE + combo_id("double_bezique"), symbols=False) == \
        "declare double bézique (QS QS JD JD)"
    assert action_words(L.A_DECLARE + combo_id("four_aces")) == "declare four aces"      # the seat picks the suits
    assert action_words(L.A_DECLARE + combo_id("four_aces"), cards=["AS", "AS", "AH", "AC"]) == \
        "declare four aces (A♠ A♠ A♥ A♣)"
    assert action_words(L.A_CLAIM + combo_id("marriage_S"), cards=["QS"]) == "claim the marriage in ♠ (Q♠)"
    assert action_words(L.A_CLAIM + combo_id("sequence_D")) == "claim the sequence in ♦"
    assert action_words(L.A_EXCHANGE) == "exchange the seven of trumps"
    assert action_words(L.A_STOP) == "stop declaring"
    assert action_words(L.A_STOP, decision=L.D_CARTE) == "keep carte blanche hidden"
    assert action_words(L.A_STOP, decision=L.D_CLAIM) == "play on"
    assert action_words(L.A_CARTE_BLANCHE) == "show carte blanche"
    assert action_words(L.A_CLAIM_GAME) == "claim the game"
    assert action_words(L.A_PARTNER) == "let the partner declare"
    assert action_words(999) == "action code 999"


def test_every_action_code_has_words_without_a_machine_name():
    codes = [*range(L.A_DECLARE + len(COMBO_NAMES)), *range(L.A_EXCHANGE, L.A_CLAIM_GAME + 1),
             *range(L.A_CLAIM, L.A_CLAIM + len(COMBO_NAMES))]
    for code in codes:
        for symbols in (True, False):
            words = action_words(code, symbols)
            assert not MACHINE_NAME.search(words) and not words.startswith("action code"), (code, words)


# --- the trace's names ------------------------------------------------------------------------

@pytest.mark.parametrize("symbols", [False, True])
def test_trace_names_the_policies_and_writes_combinations_in_words(symbols):
    flag = ["--symbols"] if symbols else []
    res = invoke("trace", "--seed", 3, "--policy", "greedy", "--policy", "random", *flag)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[1] == "seat 0: greedy, seat 1: random"
    suit = "♦" if symbols else "D"
    assert "declares the marriage in ♦ (K" + suit + " Q" + suit + ")  +20" in res.output
    assert f"trumps are {'♥' if symbols else 'H'}" in res.output
    assert not MACHINE_NAME.search(res.output)
    assert bool(ASCII_CARD.search(res.output)) is not symbols


@pytest.mark.parametrize("symbols", [False, True])
def test_a_rubicon_trace_writes_fours_beziques_and_claims_in_words(symbols):
    o = trace_hand(preset("rubicon"), ["learned", "hints"], 2, 0, explain=True)
    text = format_log(o, symbols)
    kinds = {e["event"] for e in o.events}
    assert {"declare", "claim"} <= kinds
    assert "declares four queens (" in text and "claims (the marriage in ♥, laying K" in text
    assert "seat 0: learned, seat 1: hints" in text
    assert not MACHINE_NAME.search(text)
    assert bool(ASCII_CARD.search(text)) is not symbols


def test_a_replayed_hand_names_no_policies():
    o = trace_hand(preset("ordinary"), ["greedy", "random"], 3, 0)
    again = play_spec(parse_replay(replay_json(o)))
    assert again.events == o.events and again.policy_names() == [] and o.policy_names() == ["greedy", "random"]
    with pytest.raises(ExplainError, match="only a hand played by policies"):
        explain_hand(again)


# --- --explain --------------------------------------------------------------------------------

def test_explain_shows_three_sorted_actions_per_decision_and_marks_the_one_played():
    res = invoke("trace", "--seed", 3, "--policy", "greedy", "--policy", "random", "--explain")
    assert res.exit_code == 0, res.output
    assert "an action's value is in points of the hand's margin" in " ".join(res.output.split())
    found = blocks(res.output)
    o = trace_hand(preset("ordinary"), ["greedy", "random"], 3, 0, explain=True)
    assert len(found) == len(o.explanation.decisions) > 30
    for (head, lines), d in zip(found, o.explanation.decisions):
        assert int(head.group(1)) == d.seat and head.group(2) == ("greedy", "random")[d.seat]
        n = len(d.actions)
        assert n >= 2 and int(head.group(4) or head.group(5)) == n
        top = d.best()
        assert len(top) == min(3, n) and [v.rank for v in top] == list(range(1, len(top) + 1))
        values = [v.value for v in d.actions]
        assert values == sorted(values, reverse=True)
        played_in_top = any(v.code == d.played for v in top)
        assert len(lines) == len(top) + (0 if played_in_top else 1)
        assert sum(line.startswith("      * ") for line in lines) == 1
        marked = next(line for line in lines if line.startswith("      * "))
        assert action_words(d.played, False, cards=()).split(" (")[0] in marked
        if not played_in_top:
            assert lines[-1] == marked and f"({d.played_action().rank}th best)" in marked


def test_explain_seat_explains_that_seat_only():
    res = invoke("trace", "--seed", 3, "--explain-seat", 1)
    assert res.exit_code == 0, res.output
    found = blocks(res.output)
    assert found and {m.group(1) for m, _ in found} == {"1"}
    assert "explained: seat 1," in res.output


def test_the_learned_seat_plays_the_networks_best_action_outside_the_exact_second_stage():
    for variant, seed in (("ordinary", 5), ("rubicon", 2)):
        o = trace_hand(preset(variant), ["learned", "hints"], seed, 0, explain=True)
        mine = [d for d in o.explanation.decisions if d.seat == 0]
        assert mine and any(d.exact for d in mine) and not all(d.exact for d in mine)
        for d in mine:
            if not d.exact:
                assert d.played == d.actions[0].code, (variant, d)


def _at_decision(outcome, d):
    """The HandState of ``outcome`` stopped at its decision ``d`` (a follow: the next decision after
    the lead), rebuilt from the replay file's moves, not by the explanation's replay."""
    spec = parse_replay(replay_json(outcome))
    moves = sum(e["event"] in ("play", "declare", "exchange", "claim", "carte_blanche")
                for e in outcome.events[:d.event])
    arr = spec.rules.to_array()
    st = replay_moves(arr, spec.deal(), spec.moves[:moves], hold=True)
    return arr, st


def _network_values(w, obs, arr, legal):
    """Each legal action's value by a plain numpy forward pass of the model ``w`` (its late
    network where it plays), in points: the features by policies.features, the teacher's
    choice by learned_net.teacher_action, its bonus added."""
    xs, ctx = np.zeros(N_STATE, np.float32), np.zeros(CTX_W, np.int64)
    state_features(obs, arr, xs, ctx)
    hint = teacher_action(w, obs, arr, legal, len(legal), np.zeros(1, np.uint64) + 7, new_seat_data(w))
    o, n1, n2 = net_of(w, obs[L.OBS_STAGE] == 1 and plays_late(w, obs[L.OBS_TALON_LEFT]))
    b1, w2, b2, w3 = layer_offsets(o, n1, n2)
    w1 = w[o:b1].reshape(N_IN, n1).astype(np.float64)
    values = []
    for a in legal:
        idx, val = np.zeros(MAX_ACTION_NZ, np.int64), np.zeros(MAX_ACTION_NZ, np.float32)
        nz = action_features(obs, arr, ctx, a, hint, idx, val)
        x = np.zeros(N_IN)
        x[:N_STATE] = xs
        x[N_STATE + idx[:nz]] += val[:nz]
        h1 = np.maximum(x @ w1 + w[b1:b1 + n1], 0.0)
        h2 = np.maximum(h1 @ w[w2:b2].reshape(n1, n2) + w[b2:b2 + n2], 0.0)
        q = h2 @ w[w3:w3 + n2] + w[w3 + n2] + (w[O_HINT_BONUS] if a == hint else 0.0)
        values.append(q * value_unit(int(obs[L.OBS_PACKS])))
    return values


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_the_values_are_the_learned_networks_for_the_seats_observation(variant):
    """A follow in the middle of the hand, rebuilt from the replay file's moves, valued by a numpy
    forward pass of the model: the explanation's values, action by action."""
    rules = preset(variant)
    o = trace_hand(rules, ["greedy", "hints"], 4, 0, explain=True)
    follows = [d for d in o.explanation.decisions if d.kind == L.D_FOLLOW and not d.exact]
    d = follows[len(follows) // 2]
    arr, st = _at_decision(o, d)
    n, _ = api.legal_actions(arr, st)
    assert api.to_act(st) == d.seat and api.decision(st) == L.D_FOLLOW
    api.observe(arr, st, d.seat)
    legal = st.legal[:n].copy()
    want = dict(zip(legal.tolist(), _network_values(learned_model(rules), st.obs[d.seat].copy(), arr, legal)))
    assert sorted(want) == sorted(v.code for v in d.actions)
    for v in d.actions:
        assert v.value == pytest.approx(want[v.code], rel=1e-4, abs=1e-3), (v, want)


def test_explain_on_rubicon_says_net_game_points():
    res = invoke("trace", "--variant", "rubicon", "--seed", 15, "--policy", "learned", "--policy", "hints",
                 "--explain", "--symbols")
    assert res.exit_code == 0, res.output
    assert "an action's value is in game points of the Rubicon game's score (R3.9" in " ".join(res.output.split())
    assert "to show carte blanche or not" in res.output and "show carte blanche" in res.output
    assert not MACHINE_NAME.search(res.output)
    found = blocks(res.output)
    assert found and all(sum(line.startswith("      * ") for line in lines) == 1 for _m, lines in found)


@pytest.mark.parametrize("args, reason", [
    (["--variant", "three_handed"], "two-handed games only, and this one has 3 players"),
    (["--variant", "four_handed"], "this one has 4 players"),
    (["--variant", "rubicon", "--rule", "redeclare=same_or_higher"], "trained under redeclare=portland"),
])
def test_a_game_without_a_learned_model_is_refused_in_one_line(args, reason):
    res = invoke("trace", *args, "--explain")
    assert res.exit_code == 1
    assert res.output.count("\n") == 1 and res.output.startswith("Error: there is no learned model to explain ")
    assert reason in res.output and "Traceback" not in res.output
    rules = preset(args[1]) if len(args) == 2 else preset("rubicon").with_options(redeclare="same_or_higher")
    with pytest.raises(ExplainError, match="there is no learned model to explain"):
        learned_model(rules)


def test_a_seat_not_at_the_table_is_refused():
    res = invoke("trace", "--explain-seat", 2)
    assert res.exit_code == 1 and "Error: there is no seat 2 to explain in a 2-handed game" in res.output


def test_a_hand_that_is_not_played_again_the_same_is_not_explained():
    o = trace_hand(preset("ordinary"), ["greedy", "random"], 3, 0)
    o.events = o.events[:-1]
    with pytest.raises(ExplainError, match="not the hand traced"):
        explain_hand(o)


def test_trace_explain_compiles_no_search():
    """trace and --explain use the learned network alone: the search's kernels
    (policies/expert.py, which cost minutes cold) are not even imported."""
    code = ("import sys; from click.testing import CliRunner; from analyzer.cli import main; "
            "r = CliRunner().invoke(main, ['trace', '--seed', '3', '--explain']); "
            "print(r.exit_code, 'analyzer.policies.expert' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False"]
