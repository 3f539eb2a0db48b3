"""What a user expects of the command line (issue 14, part 6): --version, --quiet, --json,
--format, odds --threads, help that names the file.py:function policy form, a bad argument
answered before the heavy imports, and an SPRT that looks every 1,024 deals."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.studies.play.compare import LOOK_CHUNK, compare_pair
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset

EXE = Path(sys.executable).with_name("bezique")


def run(*args, **kw):
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, **kw)


def test_version():
    res = run("--version")
    assert res.returncode == 0 and res.stdout.strip() == f"bezique (bezique-analyzer) {metadata.version('bezique-analyzer')}"


def test_quiet_leaves_only_the_results():
    loud = run("simulate", "--hands", "200")
    quiet = run("simulate", "--hands", "200", "--quiet")
    assert "hands to play" in loud.stderr and quiet.returncode == 0
    assert [line for line in quiet.stderr.splitlines() if not line.startswith("compiling")] == []
    assert quiet.stdout == loud.stdout


@pytest.mark.parametrize("args, keys", [
    (["simulate", "--hands", "300"], {"rules", "policies", "hands", "seed", "tables"}),
    (["compare", "hints", "greedy", "random", "--hands", "200"], {"rules", "hands", "seed", "unit", "pairs", "ranking"}),
    (["odds", "--hands", "2000"], {"rules", "hands", "seed", "odds"}),
])
def test_json_output_is_the_whole_stdout(args, keys, tmp_path):
    res = run(*args, "--json", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert set(data) == keys and data["hands"] == int(args[args.index("--hands") + 1])
    if args[0] == "simulate":
        summary = data["tables"]["summary"]
        assert [row["policy"] for row in summary] == ["greedy", "random"]
        written = (tmp_path / "summary.csv").read_text()
        assert str(summary[0]["hands"]) in written
    if args[0] == "compare":
        assert len(data["pairs"]) == 3 and len(data["ranking"]) == 3


def test_format_chooses_the_files(tmp_path):
    res = CliRunner().invoke(main, ["simulate", "--hands", "300", "--format", "csv", "--format", "svg",
                                    "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    suffixes = {p.suffix for p in tmp_path.iterdir() if not p.name.startswith(".")}
    assert suffixes == {".csv", ".svg", ".json"}                    # run.json always
    res = CliRunner().invoke(main, ["simulate", "--hands", "10", "--format", "gif"])
    assert res.exit_code == 2 and "'gif' is not one of" in res.output


def test_a_report_of_tables_only_says_its_charts_were_not_drawn(tmp_path):
    """report --format csv writes no picture; its page says so where each chart would be (it
    crashed on the first missing chart)."""
    res = CliRunner().invoke(main, ["report", "--hands", "400", "--learned-hands", "200", "--learned-deals", "50",
                                    "--ablation-deals", "0", "--no-band", "--format", "csv", "-q",
                                    "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert not list(tmp_path.glob("*.png")) and not list(tmp_path.glob("*.svg"))
    page = (tmp_path / "report.md").read_text()
    assert "![" not in page and "the chart of head to head was not drawn" in page
    assert (tmp_path / "report.html").exists()


def test_odds_takes_threads_and_gives_the_same_table():
    one = CliRunner().invoke(main, ["odds", "--hands", "150000", "--threads", "1", "--json"])
    two = CliRunner().invoke(main, ["odds", "--hands", "150000", "--threads", "2", "--json"])
    strip = lambda out: json.loads(out[out.index("{"):])        # noqa: E731 (stderr lines come first)
    assert one.exit_code == two.exit_code == 0 and strip(one.output) == strip(two.output)


@pytest.mark.parametrize("command", ["simulate", "trace", "compare", "ablate"])
def test_help_names_the_user_policy_form(command):
    text = CliRunner().invoke(main, [command, "--help"]).output
    assert "file.py:function" in " ".join(text.split())


def test_simulate_help_calls_options_options():
    text = CliRunner().invoke(main, ["simulate", "--help"]).output
    assert "HANDS hands" not in text and "Play --hands hands" in text


def test_help_and_a_mistyped_command_are_answered_before_pandas_and_numba_load():
    """The group loads a command's module only when it runs (analyzer/cli/__init__.py): its help
    and a command that is none are answered from the table of commands alone."""
    code = ("import sys; from click.testing import CliRunner; from analyzer.cli import main; "
            "h = CliRunner().invoke(main, ['--help']); r = CliRunner().invoke(main, ['simulat', '--hands', '0']); "
            "print(h.exit_code, r.exit_code, 'pandas' in sys.modules, 'numba' in sys.modules, "
            "any(m.startswith('analyzer.cli.') and m != 'analyzer.cli.console' for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}).stdout
    assert out.split() == ["0", "2", "False", "False", "False"]


def test_the_help_lists_each_command_by_its_own_first_line():
    """The table the group lists the commands from (analyzer/cli/__init__.COMMANDS) says what each
    command's own docstring says first, so the two cannot drift apart."""
    from analyzer.cli import COMMANDS, all_commands
    loaded = all_commands()
    assert list(loaded) == list(COMMANDS)
    for name, command in loaded.items():
        assert command.name == name
        assert " ".join((command.help or "").split("\n\n")[0].split()) == COMMANDS[name][1], name


def test_the_sprt_looks_every_1024_deals():
    """It stops at the first look past a bound: one look earlier, the same test is undecided."""
    rules = preset("ordinary")
    a, b = resolve_policy("hints"), resolve_policy("hints:no=H3")
    stopped = compare_pair(rules, a, b, 60_000, seed=6, threads=2, sprt=(-5, 5))
    deals = stopped.tally.deals
    assert LOOK_CHUNK == 1024 and deals % 1024 == 0 and deals < 60_000
    earlier = compare_pair(rules, a, b, deals - 1024, seed=6, threads=2, sprt=(-5, 5))
    assert earlier.sprt["sprt_result"] == "undecided"
