"""Position analysis (analyzer.studies.position.analysis, ``bezique analyze``) on positions whose best move is
known: an exact second stage (engine.endgame), and the last declaration window (R2.19)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import analyzer
from analyzer.studies.position.analysis import AnalysisError, analyze_position, format_analysis, position
from analyzer.cli import main
from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.engine.combos import combo_points
from analyzer.engine.endgame import solve_actions
from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import dealt_spec, parse_replay
from analyzer.rules import preset


def played(variant, seed, hand=0, player="greedy"):
    """A whole hand played by ``player`` at both seats, as a parsed replay file."""
    rules = preset(variant)
    outcome = play_spec(dealt_spec(rules, seed, hand), [player, player], seed=seed, hand=hand)
    doc = replay_json(outcome)
    return parse_replay(doc), doc


def find(spec, want):
    """The first number of moves after which ``want(arr, st)`` holds."""
    for at in range(len(spec.moves)):
        arr, st, _ = position(spec, at)
        if want(arr, st):
            return at
    return None


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_second_stage_values_are_the_exact_ones_R2_20(variant):
    spec, _ = played(variant, 3)
    at = find(spec, lambda arr, st: st.G[L.G_STAGE] == 2 and api.legal_actions(arr, st)[0] > 1)
    result = analyze_position(spec, at)
    arr, st, _ = position(spec, at)
    n, _ = api.legal_actions(arr, st)
    values = np.zeros(n, np.int64)
    solve_actions(arr, st, values)
    got = {r.code: r.mean for r in result.actions}
    assert result.exact and got == {int(a): float(v) for a, v in zip(st.legal[:n], values)}
    assert result.actions[0].mean == values.max() and result.seat == api.to_act(st)
    assert result.unit == ("net game points" if variant == "rubicon" else "points")


def last_window_with_declaration(arr, st):
    n, _ = api.legal_actions(arr, st)
    return (st.G[L.G_PHASE] == L.PH_MELD and st.G[L.G_TALON_LEN] - st.G[L.G_TALON_POS] == 2
            and any(L.A_DECLARE <= a < L.A_DECLARE + 16 for a in st.legal[:n]))


def test_declaring_in_the_last_window_is_best_by_its_points_R2_19():
    """Declared cards go back to hand at the second stage (R2.19): in the last window a
    declaration gains exactly its points in every sample, so it is ranked above stopping and
    its paired lead over stopping has no spread."""
    for seed in range(1, 60):
        spec, _ = played("ordinary", seed)
        at = find(spec, last_window_with_declaration)
        if at is not None:
            break
    assert at is not None
    arr, st, _ = position(spec, at)
    result = analyze_position(spec, at, samples=24)
    assert not result.exact and result.samples == 24
    by_code = {r.code: r for r in result.actions}
    stop = by_code[L.A_STOP]
    best = result.actions[0]
    assert L.A_DECLARE <= best.code < L.A_DECLARE + 16
    points = combo_points(arr, st.G[L.G_TRUMP], best.code - L.A_DECLARE)
    assert stop.behind == pytest.approx(points) and stop.behind_hi - stop.behind_lo == pytest.approx(0)
    assert stop.mean == pytest.approx(best.mean - points)


def test_cli_and_api_agree_and_explain_bad_input(tmp_path):
    spec, doc = played("ordinary", 5)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    run = CliRunner().invoke(main, ["analyze", str(path), "--at", "20", "--samples", "16", "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    api_result = analyzer.analyze(str(path), at=20, samples=16)
    assert [a["code"] for a in out["actions"]] == [a.code for a in api_result.actions]
    assert out["moves_played"] == 20 and out["samples"] == 16
    text = CliRunner().invoke(main, ["analyze", str(path), "--at", "20", "--samples", "16"])
    assert text.exit_code == 0 and "95 % intervals" in text.output and "behind the best" in text.output
    for args, message in ((["--at", "999"], "--at must be between 0 and"),
                          ([], "the hand is over"),
                          (["--samples", "1"], "--samples must be from 2"),
                          (["--samples", str(2**40)], "--samples must be from 2")):
        bad = CliRunner().invoke(main, ["analyze", str(path), *args])
        assert bad.exit_code == 1 and message in bad.output and "Traceback" not in bad.output
    with pytest.raises(AnalysisError):
        analyze_position(spec, -1)


def test_every_position_of_a_hand_gets_finite_values_and_a_window_with_nothing_to_declare_is_passed():
    """Each of the first 40 positions of a hand gets every sample and finite values for every
    legal action; a declaration window whose only action is to stop is no decision (R2.6: the
    winner may declare, need not): the position is the lead after it, so every trick's lead is
    analysed."""
    spec, _ = played("ordinary", 5)
    leads = 0
    for at in range(40):
        result = analyze_position(spec, at, samples=4)
        assert result.exact or result.samples == 4
        assert all(np.isfinite([a.mean, a.lo, a.hi, a.win]).all() for a in result.actions)
        assert [a.code for a in result.actions] != [L.A_STOP]
        leads += result.decision == "lead"
    assert leads == sum(" plays " in t for t in spec.move_text[:40]) // 2       # every trick's lead


def closed_window(spec):
    """The first number of moves after which the record passes a declaration window that had a
    choice (its next move is the lead), or None."""
    for at in range(len(spec.moves) - 1):
        arr, st, _ = position(spec, at)
        if api.decision(st) == L.D_MELD and " plays " in spec.move_text[at]:
            return at
    return None


def test_skip_passes_a_window_the_record_closed_and_refuses_one_it_did_not():
    """--skip 1 is the lead after a window the record closed; more windows than the record passed,
    or passing one the record decided by a declaration, is one clear error."""
    spec, at = next((s, a) for s in (played("ordinary", seed, player="learned")[0] for seed in range(5, 40))
                    if (a := closed_window(s)) is not None)
    window = analyze_position(spec, at, samples=2)
    assert window.decision == "declaration window" and window.played == L.A_STOP
    lead = analyze_position(spec, at, samples=2, skip=1)
    assert lead.decision == "lead" and lead.skip == 1 and lead.played is not None and lead.played < L.A_DECLARE
    with pytest.raises(AnalysisError, match="--skip 2"):
        analyze_position(spec, at, samples=2, skip=2)
    declared = next(at for at in range(len(spec.moves)) if "declares" in spec.move_text[at])
    with pytest.raises(AnalysisError, match="the record's next move decides it"):
        analyze_position(spec, declared, samples=2, skip=1)


def test_the_last_window_is_valued_by_exact_worlds_and_says_so():
    """In the first stage's last window each sample is solved exactly (E_TAIL), and the
    analysis says so; elsewhere it names its roll-out; a bad roll-out is one clear error."""
    for seed in range(1, 60):
        spec, _ = played("ordinary", seed)
        at = find(spec, last_window_with_declaration)
        if at is not None:
            break
    result = analyze_position(spec, at, samples=8, rollout="tuned")
    assert "solved exactly" in result.method and result.samples == 8
    early = analyze_position(spec, 3, samples=4)
    assert "played out by learned" in early.method
    assert "values in points for seat" in format_analysis(early)
    with pytest.raises(AnalysisError, match="rollout must be one of"):
        analyze_position(spec, 3, samples=4, rollout="clever")
