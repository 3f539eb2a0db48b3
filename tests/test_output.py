"""Output directories (analyzer.run.output): checked before a run, the user's umask, a manifest
written last, and no stale files of an earlier run (issue 13, part 4)."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from cli_examples import small_report
from helpers import first_progress_line

from analyzer.cli import main
from analyzer.run.output import MANIFEST, TEMP_PREFIX, OutputError, check_writable, finish_output, write_table
from analyzer.studies.report.study import study, write_report
from analyzer.rules import preset


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_files_get_the_users_umask(tmp_path):
    paths = write_table(pd.DataFrame({"a": [1]}), tmp_path, "t")
    for p in paths:
        assert p.stat().st_mode & 0o777 == 0o666 & ~umask()


def test_an_unwritable_out_is_refused_before_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OutputError, match="cannot write to"):
        check_writable(blocker / "sub")
    t0 = time.perf_counter()
    res = CliRunner().invoke(main, ["simulate", "--hands", str(10**12), "--out", str(blocker / "sub")])
    assert res.exit_code == 1 and res.output.startswith("Error: cannot write to")
    assert res.output.count("\n") == 1 and time.perf_counter() - t0 < 30    # 10^12 hands never ran


def test_a_rerun_removes_its_own_stale_files_and_nothing_else(tmp_path):
    (tmp_path / "notes.txt").write_text("the user's")
    (tmp_path / "b.csv").write_text("old")
    (tmp_path / "c.csv").write_text("old, named by nobody")
    (tmp_path / MANIFEST).write_text(json.dumps({"files": ["a.csv", "b.csv", "../outside.csv"]}))
    (tmp_path.parent / "outside.csv").write_text("not ours")
    (tmp_path / f"{TEMP_PREFIX}b.csv.x1y2").write_text("half written by a run killed with SIGKILL")
    written = write_table(pd.DataFrame({"a": [1]}), tmp_path, "a", parquet=False)
    finish_output(tmp_path, written)
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"a.csv", "notes.txt", "c.csv", MANIFEST}
    assert json.loads((tmp_path / MANIFEST).read_text())["files"] == ["a.csv"]
    assert (tmp_path.parent / "outside.csv").exists()


def test_a_rubicon_report_over_an_ordinary_one_keeps_no_ordinary_files(tmp_path_factory, tmp_path):
    """The first report is the suite's small ordinary one (cli_examples.run_once: played once for
    every test that reads it), copied, its manifest removed as in a directory from before the
    manifest; a Rubicon report written over it leaves only its own files."""
    first, _output = small_report(tmp_path_factory, "ordinary")
    shutil.copytree(first, tmp_path, dirs_exist_ok=True)
    (tmp_path / MANIFEST).unlink()
    assert (tmp_path / "sevens.csv").exists() and (tmp_path / "game_length.png").exists()
    written = write_report(study(preset("rubicon"), 100, 1, head_to_head=()), tmp_path, "second")
    names = {p.name for p in tmp_path.iterdir()}
    assert not any(n.startswith(("sevens.", "game_length.")) for n in names)
    assert names == {Path(p).name for p in written} | {MANIFEST}      # no temp files either


def test_compare_and_ablate_write_only_where_out_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["compare", "greedy", "random", "--hands", "50"], ["ablate", "--hands", "5"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 0, res.output
    assert list(tmp_path.iterdir()) == []


def test_progress_is_a_line_every_interval_off_a_terminal(monkeypatch, capsys):
    from analyzer.cli import console as cli_options
    monkeypatch.setattr(cli_options, "PROGRESS_EVERY", 0.0)
    with cli_options.progress_bar(1000, "hand", "simulate") as update:
        update(100)
        update(400)
        update(500)                                   # finished: no line
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "simulate: 1,000 hands to play; progress every 0 s"
    assert len(lines) == 3 and lines[2].startswith("simulate: 500 of 1,000 hands (50%), ")
    assert lines[2].endswith(" left") and "hands/s" in lines[2]


def test_a_compile_notice_before_the_first_run(monkeypatch, capsys):
    import analyzer.engine
    from analyzer.cli import console as cli_options
    monkeypatch.setattr(cli_options, "WATCH", [object()])          # a watch already running
    monkeypatch.setattr(cli_options, "WARM", [])                   # nothing found cached yet in this process
    monkeypatch.setattr(cli_options, "QUIET", {"on": False})       # an earlier command's -q left behind
    monkeypatch.setattr(cli_options, "COLD", [])
    beside = []
    monkeypatch.setattr(cli_options, "compile_beside", lambda here, there: beside.append((here, there)))
    later = []               # the other commands' kernels: their background compile starts with the first run's
    monkeypatch.setattr(cli_options, "compile_later", lambda: later.append(beside[:]))
    monkeypatch.setattr(analyzer.engine, "kernels_cached", lambda: False)
    cli_options.watch_compiles()
    assert "compiling" in capsys.readouterr().err
    assert beside == [([cli_options.BATCH_MODULE], cli_options.POLICY_KERNEL_MODULES)] and cli_options.COLD
    assert later == [[]]                                           # started before this run's own compile
    monkeypatch.setattr(analyzer.engine, "kernels_cached", lambda: True)
    cli_options.watch_compiles()
    assert capsys.readouterr().err == "" and cli_options.WARM
    monkeypatch.setattr(analyzer.engine, "kernels_cached", lambda: False)
    cli_options.watch_compiles()                                   # found cached once: not asked again
    assert capsys.readouterr().err == "" and len(beside) == 1 and len(later) == 1


def test_run_json_records_versions_and_backend(tmp_path):
    res = CliRunner().invoke(main, ["simulate", "--hands", "300", "--threads", "2", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["backend"] == "threads" and run["threads"] == 2 and run["hands"] == 300
    assert run["version"] and run["numpy"] and run["numba"] and "git_commit" in run


def test_sigterm_stops_a_huge_run_quickly_and_says_how_far_it_got(tmp_path):
    """SIGTERM (as Ctrl-C) stops a 10^10-hand run once it is under way (its first progress line,
    the event waited for): one line saying how many hands finished, exit code 130, no
    traceback. The time limit is a failsafe: a run that did not heed the signal would never end."""
    import signal
    import subprocess
    import sys
    exe = Path(sys.executable).with_name("bezique")
    proc = subprocess.Popen([str(exe), "simulate", "--hands", str(10**10), "--threads", "1",
                             "--out", str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "BEZIQUE_PROGRESS_EVERY": "0.2"})
    first_progress_line(proc)                             # the run is under way (past any compilation)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "simulate: stopped after " in err and "of 10,000,000,000 hands" in err and "Traceback" not in err
    assert not (tmp_path / "out" / "summary.csv").exists()
