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


def played(variant, seed, hand=0):
    """A whole hand played by greedy, as a parsed replay file."""
    rules = preset(variant)
    outcome = play_spec(dealt_spec(rules, seed, hand), ["greedy", "greedy"], seed=seed, hand=hand)
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
    assert text.exit_code == 0 and "95% interval" in text.output
    for args, message in ((["--at", "999"], "--at must be between 0 and"),
                          ([], "the hand is over"),
                          (["--samples", "1"], "--samples must be from 2"),
                          (["--samples", str(2**40)], "--samples must be from 2")):
        bad = CliRunner().invoke(main, ["analyze", str(path), *args])
        assert bad.exit_code == 1 and message in bad.output and "Traceback" not in bad.output
    with pytest.raises(AnalysisError):
        analyze_position(spec, -1)


def test_every_position_of_a_hand_gets_finite_values_forced_ones_included():
    """Each of the first 40 positions of a hand (declaration windows with only 'stop' among
    them) gets every sample and finite values for every legal action."""
    spec, _ = played("ordinary", 5)
    forced = 0
    for at in range(40):
        result = analyze_position(spec, at, samples=4)
        assert result.exact or result.samples == 4
        assert all(np.isfinite([a.mean, a.lo, a.hi, a.win]).all() for a in result.actions)
        forced += len(result.actions) == 1
    assert forced > 0


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
    assert "values:" in format_analysis(early)
    with pytest.raises(AnalysisError, match="rollout must be one of"):
        analyze_position(spec, 3, samples=4, rollout="clever")
