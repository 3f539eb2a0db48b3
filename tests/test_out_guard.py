"""Nothing overwritten (issue 56, part 6): a command writes into an --out that is empty or missing,
or that holds the files of the same command with the same settings (a rerun replaces its own files),
or whose interrupted run it resumes; a directory holding files that no command wrote, or another
command's (or other settings'), is refused in one line unless --force, and --force removes nothing
that was there. The commands' default directories are fresh ones, outside the committed results/."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.run.checkpoint import CHECKPOINT_DIR
from analyzer.run.output import (
    MANIFEST,
    OutputError,
    check_output,
    claim_output,
    finish_output,
)

ROOT = Path(__file__).parent.parent
SIMULATE = ("simulate", "--hands", "300", "--threads", "1", "--quiet")
COMMAND = {"name": "simulate", "args": {"hands": 300}, "line": "bezique simulate --hands 300"}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def manifest(directory: Path) -> dict:
    return json.loads((directory / MANIFEST).read_text())


def refused(res, directory: Path, what: str) -> None:
    """One line, exit code 1, naming the directory, what is there and --force."""
    assert res.exit_code == 1, res.output
    assert res.output.count("\n") == 1 and res.output.startswith(f"Error: {directory} holds "), res.output
    assert what in res.output and "--force to write there anyway" in res.output, res.output


# --- refused ---------------------------------------------------------------------------------------

def test_files_no_command_wrote_are_refused_and_left_as_they_are(tmp_path):
    (tmp_path / "notes.txt").write_text("the user's")
    res = invoke(*SIMULATE, "--out", tmp_path)
    refused(res, tmp_path, "files that no bezique command wrote (notes.txt)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_bezique_run_whose_manifest_is_gone_is_refused(tmp_path):
    assert invoke(*SIMULATE, "--out", tmp_path).exit_code == 0
    (tmp_path / MANIFEST).unlink()
    refused(invoke(*SIMULATE, "--out", tmp_path), tmp_path, "files that no bezique command wrote (declarations.csv")


def test_another_commands_files_are_refused(tmp_path):
    assert invoke(*SIMULATE, "--out", tmp_path).exit_code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    refused(invoke("odds", "--hands", "2000", "--quiet", "--out", tmp_path), tmp_path,
            "the files of `bezique simulate --hands 300 --threads 1")
    refused(invoke(*SIMULATE, "--seed", "2", "--out", tmp_path), tmp_path, "the files of `bezique simulate")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_manifest_that_records_no_command_is_refused(tmp_path):
    """As the committed results/ were written: a manifest of files, no command."""
    (tmp_path / "hints.csv").write_text("a,b\n")
    (tmp_path / MANIFEST).write_text(json.dumps({"files": ["hints.csv"]}))
    refused(invoke(*SIMULATE, "--out", tmp_path), tmp_path, "a run that did not record its command (hints.csv)")


def test_the_committed_results_are_refused():
    for committed in ("results/hints/ordinary", "results/train/ordinary", "results/tune/ordinary"):
        if not (ROOT / committed).is_dir():
            continue
        with pytest.raises(OutputError, match="--force to write there anyway"):
            check_output(ROOT / committed, COMMAND)


# --- accepted --------------------------------------------------------------------------------------

def test_an_empty_or_missing_directory_is_written(tmp_path):
    (tmp_path / "empty").mkdir()
    for out in (tmp_path / "empty", tmp_path / "missing" / "deeper"):
        res = invoke(*SIMULATE, "--out", out)
        assert res.exit_code == 0, res.output
        assert (out / "summary.csv").exists()
        assert manifest(out)["command"]["name"] == "simulate" and manifest(out)["command"]["args"]["hands"] == 300


def test_the_same_command_rerun_replaces_its_own_files_and_nothing_else(tmp_path):
    assert invoke(*SIMULATE, "--out", tmp_path).exit_code == 0
    (tmp_path / "notes.txt").write_text("the user's, added since")
    res = invoke(*SIMULATE, "--format", "csv", "--threads", "2", "--json", "--out", tmp_path)   # same settings
    assert res.exit_code == 0, res.output
    names = {p.name for p in tmp_path.iterdir()}
    assert not any(n.endswith((".parquet", ".png")) for n in names)        # the earlier run's, not this one's
    assert {"notes.txt", "summary.csv", "run.json", MANIFEST} <= names
    assert set(manifest(tmp_path)["files"]) == names - {"notes.txt", MANIFEST}


def test_force_writes_and_removes_nothing_that_was_there(tmp_path):
    (tmp_path / "notes.txt").write_text("the user's")
    (tmp_path / "summary.csv").write_text("the user's, of the same name")
    res = invoke(*SIMULATE, "--out", tmp_path, "--force")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "notes.txt").read_text() == "the user's"
    assert "policy" in (tmp_path / "summary.csv").read_text()                 # replaced by this run's
    assert invoke(*SIMULATE, "--out", tmp_path).exit_code == 0        # now the directory names this command
    simulated = {p.name for p in tmp_path.iterdir()}
    res = invoke("odds", "--hands", "2000", "--quiet", "--out", tmp_path, "--force")      # over another command
    assert res.exit_code == 0, res.output
    assert simulated | {"odds.csv", "odds.parquet"} == {p.name for p in tmp_path.iterdir()}
    assert manifest(tmp_path)["command"]["name"] == "odds"


def test_a_forced_run_keeps_what_an_earlier_version_would_have_removed(tmp_path):
    """``finish_output(owned=...)`` (the report's files of earlier versions) removes them only in
    a directory without a manifest: never after a forced claim."""
    (tmp_path / "sevens.csv").write_text("the user's")
    with claim_output(tmp_path, COMMAND, force=True):
        finish_output(tmp_path, [], owned=["sevens.csv"])
    assert (tmp_path / "sevens.csv").exists()
    assert manifest(tmp_path) == {"files": [], "command": COMMAND}


def test_an_interrupted_run_is_resumed_or_started_over_by_the_same_command(tmp_path, monkeypatch):
    """A run that fails once its hands are played keeps its checkpoint; the directory's manifest
    already names the command, so --resume continues it (even where a file of the user's is
    there: --force let the first run in) and the same command without --resume starts over."""
    import analyzer.cli.play as play

    (tmp_path / "notes.txt").write_text("the user's")

    def fail(*args, **kw):
        raise OutputError("the disk is full")

    for again in (("--resume",), ()):
        with monkeypatch.context() as m:
            m.setattr(play, "write_simulation", fail)
            res = invoke(*SIMULATE, "--out", tmp_path, "--force")
        assert res.exit_code == 1 and "the disk is full" in res.output
        assert (tmp_path / CHECKPOINT_DIR).is_dir() and manifest(tmp_path)["command"]["name"] == "simulate"
        res = invoke(*SIMULATE, "--out", tmp_path, *again)
        assert res.exit_code == 0, res.output
        assert (tmp_path / "summary.csv").exists() and (tmp_path / "notes.txt").exists()
        assert not (tmp_path / CHECKPOINT_DIR).exists()
    refused(invoke(*SIMULATE, "--seed", "9", "--out", tmp_path), tmp_path, "the files of `bezique simulate")


# --- the defaults ----------------------------------------------------------------------------------

def _committed(path: str) -> bool:
    return bool(subprocess.run(["git", "ls-files", path], cwd=ROOT, capture_output=True, text=True).stdout)


def _ignored(path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", f"{path}/x.csv"], cwd=ROOT).returncode == 0


@pytest.mark.parametrize("args, expected", [
    (["hints", "--hands", "1"], "results/hints-ordinary"),
    (["hints", "--variant", "rubicon", "--hands", "1"], "results/hints-rubicon"),
    (["train", "--steps", "1"], "results/train-ordinary"),
    (["train", "--variant", "rubicon", "--steps", "1"], "results/train-rubicon"),
])
def test_hints_and_train_write_by_default_into_a_fresh_ignored_directory(args, expected, tmp_path, monkeypatch):
    import analyzer.cli.hints as hints
    import analyzer.cli.train as train

    seen = []
    monkeypatch.setattr(hints, "hints_report", lambda *a, **k: SimpleNamespace(text="the hints"))
    monkeypatch.setattr(hints, "write_hints_report", lambda report, out: seen.append(out) or [])
    state = SimpleNamespace(step=1, hands_played=1, samples=1, seconds=0.0)
    monkeypatch.setattr(train, "train_player", lambda rules, config, out, *a, **k: (seen.append(out), (state, []))[1])
    monkeypatch.chdir(tmp_path)
    res = invoke(*args, "--quiet")
    assert res.exit_code == 0, res.output
    assert seen == [expected] and (tmp_path / expected).is_dir()
    assert manifest(tmp_path / expected)["command"]["name"] == args[0]
    if shutil.which("git") and (ROOT / ".git").exists():
        assert not _committed(expected) and _ignored(expected), expected
