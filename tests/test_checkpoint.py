"""Checkpoints and resume (issue 13, part 2): a run stopped part-way and resumed gives the same
result, byte for byte, as one never stopped; a resume with other arguments is refused."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import first_progress_line

from analyzer.run.checkpoint import CHECKPOINT_DIR, CheckpointError, keep_checkpoints
from analyzer.cli import main
from analyzer.studies.play.compare import compare_pair
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate

COMMAND = {"name": "test", "args": {"n": 1}, "line": "test --resume"}


class StopAfter:
    """A progress callback that interrupts the run (as Ctrl-C does) after ``n`` items."""

    def __init__(self, n):
        self.n, self.done = n, 0

    def __call__(self, k):
        self.done += k
        if self.done >= self.n:
            raise KeyboardInterrupt


def interrupted(tmp_path, run, stop_after):
    with pytest.raises(KeyboardInterrupt):
        with keep_checkpoints(tmp_path, COMMAND):
            run(StopAfter(stop_after))
    assert any((tmp_path / CHECKPOINT_DIR).glob("*.pkl"))


def resumed(tmp_path, run):
    seen = []
    with keep_checkpoints(tmp_path, COMMAND, resume=True):
        result = run(seen.append)
    assert not (tmp_path / CHECKPOINT_DIR).exists()      # a finished command leaves no checkpoint
    return result, seen


@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_a_simulation_stopped_and_resumed_equals_one_never_stopped(tmp_path, variant):
    rules = preset(variant)

    def run(progress):
        return simulate(rules, ["hints", "greedy"], 50_000, seed=3, threads=2, progress=progress)

    whole = run(None)
    interrupted(tmp_path, run, 20_000)
    again, seen = resumed(tmp_path, run)
    assert seen[0] >= 16_384 and sum(seen) == 50_000          # the finished chunks were not replayed
    assert again.tallies.hands == whole.tallies.hands
    assert np.array_equal(again.tallies.buffer, whole.tallies.buffer)
    for name, table in whole.tables.items():
        assert again.tables[name].to_csv() == table.to_csv(), name


def test_a_comparison_with_sprt_stopped_and_resumed_equals_one_never_stopped(tmp_path):
    rules = preset("ordinary")
    a, b = resolve_policy("hints"), resolve_policy("hints:no=H3")

    def run(progress):
        return compare_pair(rules, a, b, 60_000, seed=6, threads=2, sprt=(-5, 5), progress=progress)

    whole = run(None)
    assert 4096 < whole.tally.deals < 60_000               # the SPRT stopped it part-way
    interrupted(tmp_path, run, 8192)
    again, _ = resumed(tmp_path, run)
    assert again.row() == whole.row()


def test_a_user_policy_file_edited_since_the_checkpoint_is_played_afresh(tmp_path):
    rules = preset("ordinary")
    policy = tmp_path / "mine.py"
    policy.write_text((Path(__file__).parent.parent / "examples" / "my_policy.py").read_text())

    def run(progress):
        return simulate(rules, [f"{policy}:no_exchange", "greedy"], 40_000, seed=3, threads=2, progress=progress)

    interrupted(tmp_path / "out", run, 20_000)
    policy.write_text(policy.read_text() + "\n# edited\n")
    _, seen = resumed(tmp_path / "out", run)
    assert seen[0] == 8192                  # the first chunk: nothing was taken from the checkpoint


def test_resume_refuses_other_arguments_and_a_missing_checkpoint(tmp_path):
    with pytest.raises(CheckpointError, match="nothing to resume"):
        with keep_checkpoints(tmp_path, COMMAND, resume=True):
            pass
    with pytest.raises(KeyboardInterrupt):
        with keep_checkpoints(tmp_path, COMMAND):
            raise KeyboardInterrupt
    other = {**COMMAND, "args": {"n": 2}}
    with pytest.raises(CheckpointError, match="differs in n"):
        with keep_checkpoints(tmp_path, other, resume=True):
            pass


def bezique(*args, **kw):
    exe = Path(sys.executable).with_name("bezique")
    return subprocess.Popen([str(exe), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def outputs(directory: Path) -> dict:
    """Every file a run wrote but run.json and the manifest (which record the command line), as bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())
            if p.is_file() and p.name not in ("run.json", ".bezique-files.json")}


def test_a_run_killed_with_sigkill_then_resumed_writes_the_same_files(tmp_path):
    """The issue's test: SIGKILL part-way (no chance to save anything more), then --resume."""
    # 100,000 hands: a one-thread run of them lasts about a second, ten times its saves' interval
    args = ["simulate", "--hands", "100000", "--policy", "greedy", "--policy", "greedy", "--seed", "4"]
    whole = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "whole")])
    assert whole.exit_code == 0, whole.output
    killed = tmp_path / "killed"
    proc = bezique(*args, "--threads", "1", "--out", str(killed), env={**os.environ, "BEZIQUE_SAVE_EVERY": "0.1"})
    deadline = time.monotonic() + 300
    while not list((killed / CHECKPOINT_DIR).glob("*.pkl")) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before a checkpoint was saved"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (killed / "summary.csv").exists()
    res = CliRunner().invoke(main, [*args, "--out", str(killed), "--resume"])
    assert res.exit_code == 0, res.output
    assert outputs(killed) == outputs(tmp_path / "whole")
    assert not (killed / CHECKPOINT_DIR).exists()
    assert not [p for p in killed.iterdir() if p.name.startswith(".") and p.name != ".bezique-files.json"]


def test_sigterm_says_how_to_resume_and_resume_refuses_other_arguments(tmp_path):
    out = tmp_path / "out"
    proc = bezique("simulate", "--hands", str(10**10), "--threads", "1", "--out", str(out),
                   env={**os.environ, "BEZIQUE_PROGRESS_EVERY": "0.2"})
    first_progress_line(proc)                # the run is under way: the event the signal waits for
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)    # a failsafe: a run of 10^10 hands that ignored it never ends
    assert proc.returncode == 130, err
    assert f"the finished chunks are kept in {out / CHECKPOINT_DIR}" in err
    assert f"resume with:\n  bezique simulate --hands {10**10} --threads 1 --out {out} --resume" in err
    res = CliRunner().invoke(main, ["simulate", "--hands", "1000", "--out", str(out), "--resume"])
    assert res.exit_code == 1 and "cannot resume" in res.output and "differs in hands" in res.output
    assert res.output.count("\n") == 1
    res = CliRunner().invoke(main, ["simulate", "--hands", "1000", "--resume"])
    assert res.exit_code == 1 and "--resume needs --out" in res.output


def test_a_run_of_slow_chunks_stops_before_the_chunk_in_play_ends(tmp_path):
    """An expert Rubicon chunk takes most of a second: SIGTERM does not wait for the chunks in
    play. With one thread the chunks are played one after the other, so the time between the
    first two progress lines (one per chunk) is what a chunk takes in this run, on this machine
    as loaded as it is; the signal goes right after the second line (the event waited for), and
    the command must end in under half that time, saying it stopped after the chunks done. The
    chunk then in play began as the line's chunk ended, so a stop that waited for it (or for the
    queued ones) takes about a chunk's time or more (measured: a chunk 1.5 s, a stop 0.03 s)."""
    proc = bezique("simulate", "--variant", "rubicon", "--policy", "expert", "--hands", "100000", "--threads", "1",
                   "--out", str(tmp_path), env={**os.environ, "BEZIQUE_PROGRESS_EVERY": "0"})
    done, t = 0, None
    while True:               # two lines one chunk (16 hands) apart: a chunk that had no compile
        line = first_progress_line(proc)
        now = time.perf_counter()
        before, done = done, int(re.match(r"simulate: ([\d,]+) of 100,000 hands", line)[1].replace(",", ""))
        assert done % 16 == 0 and done < 1000, line
        if done == before + 16 and t is not None:
            break
        t = now
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)                                # a failsafe
    stopped = time.perf_counter() - now
    assert proc.returncode == 130, err
    assert stopped < (now - t) / 2, (stopped, now - t)        # the chunk in play began just before the line
    assert f"stopped after {done:,} of 100,000 hands" in err


def test_the_saves_interval_comes_from_the_environment_where_it_is_a_number(monkeypatch):
    from analyzer.run.driver import SAVE_EVERY, save_every
    for value, seconds in (("0.25", 0.25), ("-3", 0.0), ("soon", SAVE_EVERY)):
        monkeypatch.setenv("BEZIQUE_SAVE_EVERY", value)
        assert save_every() == seconds
    monkeypatch.delenv("BEZIQUE_SAVE_EVERY")
    assert save_every() == SAVE_EVERY == 1.0
