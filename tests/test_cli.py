"""The command line: help, outputs, and one clear error for bad input."""
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import all_commands, main
from cli_examples import ROOT, doc_examples, examples, help_examples

REPLAYS = ROOT / "tests" / "replays"
SMALL = 200         # hands an example is run with: the examples show real sizes, the test only runs them


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("command", sorted(all_commands()))
def test_every_command_has_help_with_an_example(command):
    res = invoke(command, "--help")
    assert res.exit_code == 0
    assert "Example:" in res.output


def test_simulate_prints_table_and_writes_files(tmp_path):
    out = tmp_path / "run"
    res = invoke("simulate", "--hands", 3000, "--seed", 4, "--threads", 1, "--out", out)
    assert res.exit_code == 0, res.output
    assert "mean hand score" in res.output and "double bézique" in res.output and " % [" in res.output
    for name in ("summary", "declarations", "score_histogram"):
        assert (out / f"{name}.csv").exists() and (out / f"{name}.parquet").exists()
    for ext in ("png", "svg"):
        assert (out / f"score_distribution.{ext}").stat().st_size > 1000
    summary = pd.read_parquet(out / "summary.parquet")
    assert list(summary.policy) == ["greedy", "random"]
    assert (summary.hands == 3000).all()
    assert json.loads((out / "run.json").read_text())["seed"] == 4


@pytest.mark.parametrize("args,needle", [
    (["simulate", "--variant", "pinochle"], "unknown variant"),
    (["simulate", "--policy", "genius", "--policy", "random"], "unknown policy"),
    (["simulate", "--hands", "0"], "--hands must be from 1 to 2^63-1"),
    (["simulate", "--hands", "-5"], "--hands must be from 1 to 2^63-1"),
    (["simulate", "--rule", "hand_size=7"], "hand_size=7"),
    (["simulate", "--rule", "players=3", "--rule", "packs=4"], "players=3 and packs=4"),
    (["simulate", "--rule", "nonsense"], "KEY=VALUE"),
    (["trace", "--policy", "genius"], "unknown policy"),
    (["replay", "does/not/exist.json"], "no such file"),
    (["simulate", "--seed", str(2**64)], "--seed must be from 0 to 2^64-1"),        # numbers at their limits
    (["simulate", "--hands", str(2**63)], "--hands must be from 1 to 2^63-1"),
    (["trace", "--hand", str(2**63)], "--hand must be from 0 to 2^63-2"),
    (["trace", "--seed", str(2**64)], "--seed must be from 0 to 2^64-1"),
    (["analyze", "tests/replays/example_hand.json", "--seed", str(2**64)], "--seed must be from 0 to 2^64-1"),
    (["simulate", "--policy", "hints:h2=nan"], "is not a finite number"),
    (["simulate", "--policy", "hints:h5=inf"], "is not a finite number"),
    (["simulate", "--policy", "expert:prune=-inf"], "is not a finite number"),
    (["compare", "hints", "greedy", "--sprt", "nan,inf"], "--sprt needs finite Elo bounds"),
    (["compare", "hints", "greedy", "--sprt", "0,inf"], "--sprt needs finite Elo bounds"),
])
def test_bad_input_is_one_clear_error(args, needle):
    res = invoke(*args)
    assert res.exit_code != 0
    assert needle in res.output
    assert "Traceback" not in res.output
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)


def test_malformed_replay_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = invoke("replay", bad)
    assert res.exit_code == 1 and "not valid JSON" in res.output
    good = json.loads((REPLAYS / "example_hand.json").read_text())
    good["talon"] = good["talon"].split()[:-1]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(good))
    res = invoke("replay", short)
    assert res.exit_code == 1 and "not exactly 2 packs" in res.output


def test_replay_files_that_are_wrong_in_shape_or_type(tmp_path):
    """Issue 14, part 3: each is one line (exit 1), never a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    res = invoke("replay", deep)
    assert res.exit_code == 1 and res.output.endswith("is nested too deeply to be a replay file\n")
    doc = json.loads((REPLAYS / "example_hand.json").read_text())
    for key, value, message in (("dealer", True, "dealer must be a seat number 0..1, got True"),
                                ("dealer", 1.0, "dealer must be a seat number 0..1, got 1.0"),
                                ("rules", {"variant": "ordinary", "last_trick": "x"}, "rules: last_trick='x'")):
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps({**doc, key: value}))
        res = invoke("replay", path)
        assert res.exit_code == 1 and message in res.output, res.output
        assert res.output.count("Error:") == 1 and "Traceback" not in res.output


def test_moves_after_the_end_of_the_hand_are_an_error_naming_the_first(tmp_path):
    path = tmp_path / "hand.json"
    assert invoke("trace", "--seed", 3, "--json", path).exit_code == 0
    doc = json.loads(path.read_text())
    n = len(doc["moves"])
    doc["moves"] += ["1 plays AS", "0 plays 7H"]
    path.write_text(json.dumps(doc))
    res = invoke("replay", path)
    assert res.exit_code == 2
    assert f"Error: move {n + 1}: the hand is over: it ended with move {n}, the last card played" in res.output


def test_trace_json_replays_to_the_same_scores(tmp_path):
    path = tmp_path / "hand.json"
    res = invoke("trace", "--seed", 12, "--policy", "greedy", "--policy", "random", "--json", path)
    assert res.exit_code == 0, res.output
    traced = res.output.split("hand complete; scores: ")[1].splitlines()[0]
    res2 = invoke("replay", path)
    assert res2.exit_code == 0, res2.output
    assert res2.output.split("hand complete; scores: ")[1].splitlines()[0] == traced
    res3 = invoke("replay", path, "--json")
    data = json.loads(res3.output)
    assert data["status"] == "complete"
    assert f"seat 0 {data['scores'][0]}, seat 1 {data['scores'][1]}" == traced


def test_replay_rule_violation_exits_2(tmp_path):
    res = invoke("replay", REPLAYS / "revoke_cli.json")
    assert res.exit_code == 2
    assert "(R2.20)" in res.output and "move " in res.output


def test_console_script_entry_point():
    res = subprocess.run([sys.executable, "-m", "analyzer.cli", "policies"], capture_output=True, text=True)
    assert res.returncode == 0 and "greedy" in res.stdout


def test_installed_bezique_command():
    exe = Path(sys.executable).with_name("bezique")
    exe = str(exe) if exe.exists() else shutil.which("bezique")
    assert exe, "the bezique console script is not installed (pip install -e .)"
    res = subprocess.run([exe, "policies"], capture_output=True, text=True)
    assert res.returncode == 0 and "hints" in res.stdout
    res = subprocess.run([exe, "simulate", "--hands", "0"], capture_output=True, text=True)
    assert res.returncode == 1 and res.stderr == "Error: --hands must be from 1 to 2^63-1, got 0\n"


def test_examples_are_found():
    assert len(help_examples()) >= len(all_commands()) + 1      # --help, then each command
    docs = doc_examples()
    assert any("--sprt" in e for e in docs) and any(e.startswith("bezique report") for e in docs)
    runs = examples(SMALL)
    assert ["replay", "tests/replays/example_hand.json", "--json"] in runs
    assert sum(args[0] == "report" for args in runs) == 2      # the quickstart is the ordinary report


@pytest.mark.parametrize("args", [a for a in examples(SMALL) if a[0] != "report"], ids=" ".join)
def test_every_example_runs(args, tmp_path, monkeypatch):
    """Every example of the help, the README and docs/ (the reports' in test_report), in a scratch
    directory that sees the repository's tests/ and examples/ and every other file an example
    names (a committed model under results/, linked in: the example writes beside it, not into
    the repository)."""
    for name in ("tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    for arg in args:
        named = ROOT / arg
        if "/" in arg and named.is_file() and not (tmp_path / arg).exists():
            (tmp_path / arg).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / arg).symlink_to(named)
    monkeypatch.chdir(tmp_path)
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    assert res.exception is None


def test_ablate_turns_an_engine_error_into_one_line(monkeypatch, tmp_path):
    from analyzer.run.driver import SimulationError

    compare = importlib.import_module("analyzer.cli.compare")     # the command's module, where it finds ablate

    def fail(*args, **kw):
        raise SimulationError("policy 'hints' (seat 0) returned 'play 9S', which is not legal (hand 0)")

    monkeypatch.setattr(compare, "ablate", fail)
    res = invoke("ablate", "--hands", 10, "--out", tmp_path, "--quiet")
    lines = res.output.splitlines()
    assert res.exit_code == 1 and lines == ["Error: policy 'hints' (seat 0) returned 'play 9S', which is not legal (hand 0)"]


def test_command_text_rebuilds_a_line_leaving_out_what_is_none():
    from analyzer.cli.options import command_text
    assert command_text("report", ("--variant", "rubicon"), ("--hands", 200), ("--seed", 1), ("--out", "r/x"),
                        ("--expert-hands", None), ("--rule", "hand_size=9")) == \
        "bezique report --variant rubicon --hands 200 --seed 1 --out r/x --rule hand_size=9"
    assert command_text("tune", ("--confirm-expert", 0), ("--out", None)) == "bezique tune --confirm-expert 0"


def test_trace_json_into_a_directory_that_refuses_files_is_one_clear_error(tmp_path, monkeypatch):
    """A --json path where no file can be made (its "directory" is a file; a directory that
    refuses new files): one line naming it, exit 1, no traceback."""
    blocker = tmp_path / "notadir"
    blocker.write_text("")
    res = invoke("trace", "--seed", 3, "--json", blocker / "hand.json")
    assert res.exit_code == 1 and "cannot write to" in res.output and "notadir" in res.output, res.output
    assert "Traceback" not in res.output

    class Refusing:                  # the output module's tempfile, as a locked directory answers
        @staticmethod
        def mkstemp(*args, **kwargs):
            raise PermissionError(13, "Permission denied")
    import analyzer.run.output as output
    monkeypatch.setattr(output, "tempfile", Refusing)
    res = invoke("trace", "--seed", 3, "--json", tmp_path / "hand.json")
    assert res.exit_code == 1 and "Permission denied" in res.output, res.output
    assert "Traceback" not in res.output and res.output.count("Error:") == 1
