"""Failure paths (issue 46, part 2): a write that fails half-way (a writer that raises, a full
disk) leaves the earlier file whole and no temporary file, and through the command line is one
line of error that --resume recovers from; every backend choice that cannot work (--threads,
--workers, --scheduler) is refused with its own line; a replay naming a seat the game does not
have is "no seat", not a rule violation."""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import options
from analyzer.run.checks import check_scheduler
import analyzer.run.output as output
from analyzer.cli import main
from analyzer.run.checkpoint import CHECKPOINT_DIR
from analyzer.run.output import TEMP_PREFIX, OutputError, atomic_write, write_table

REPLAYS = Path(__file__).parent / "replays"
FULL = os.strerror(errno.ENOSPC)        # "No space left on device"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(TEMP_PREFIX))


def snapshot(directory: Path) -> dict[str, bytes]:
    """The bytes of every file in ``directory`` (not below it)."""
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}


# --- atomic writes -----------------------------------------------------------------------------

def test_a_writer_that_raises_half_way_leaves_the_earlier_file_and_no_temporary_file(tmp_path):
    """Guards against atomic_write moving a half-written temporary file into place, or leaving
    it behind, when the writer raises after writing some bytes; the writer's own error comes
    back unchanged."""
    path = tmp_path / "table.csv"
    atomic_write(path, lambda p: Path(p).write_bytes(b"a,b\n1,2\n"))
    earlier = path.read_bytes()

    def half_then_fail(p):
        with open(p, "wb") as f:
            f.write(b"a,b\n3,")
            f.flush()
        raise RuntimeError("the writer broke half-way")

    with pytest.raises(RuntimeError, match="half-way"):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == earlier
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_a_full_disk_leaves_the_earlier_table_and_no_temporary_file(tmp_path, monkeypatch):
    """Guards against a full disk (ENOSPC from the file being written) replacing an earlier
    table with a truncated one or leaving a temporary file; the error is an OutputError naming
    the file and the system's reason."""
    written = write_table(pd.DataFrame({"a": [1, 2]}), tmp_path, "t")
    earlier = snapshot(tmp_path)

    def to_csv_on_a_full_disk(self, path, *args, **kwargs):
        with open(path, "w") as f:
            f.write("a\n0,1")
            f.flush()
            raise OSError(errno.ENOSPC, FULL)

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv_on_a_full_disk)
    with pytest.raises(OutputError) as caught:
        write_table(pd.DataFrame({"a": [7, 8, 9]}), tmp_path, "t")
    assert str(caught.value) == f"cannot write {tmp_path / 't.csv'}: {FULL}"
    assert caught.value.strerror == FULL and isinstance(caught.value, OSError)
    assert snapshot(tmp_path) == earlier and sorted(earlier) == sorted(p.name for p in written)
    assert temporaries(tmp_path) == []


def full_disk_at(monkeypatch, name: str) -> None:
    """Make the writing of the file ``name`` (through output.atomic_write) fail as a full disk
    does: the writer writes, half of it stays on disk, then ENOSPC."""
    real = output.atomic_write

    def atomic_write_on_a_full_disk(path, write):
        if Path(path).name != name:
            return real(path, write)

        def half_then_full(tmp):
            write(tmp)
            Path(tmp).write_bytes(Path(tmp).read_bytes()[:Path(tmp).stat().st_size // 2])
            raise OSError(errno.ENOSPC, FULL)
        return real(path, half_then_full)

    monkeypatch.setattr(output, "atomic_write", atomic_write_on_a_full_disk)


def test_a_full_disk_in_simulate_is_one_line_and_resume_finishes_the_run(tmp_path, monkeypatch):
    """Guards against a write failing at the end of `bezique simulate --out` being a traceback,
    replacing the earlier run's file, leaving a temporary file or losing the checkpoint; and
    against --resume then giving other files than an uninterrupted run."""
    run = ("simulate", "--hands", 1500, "--seed", 5, "--threads", 1, "--quiet")
    ref, out = tmp_path / "uninterrupted", tmp_path / "out"
    assert invoke(*run, "--out", ref).exit_code == 0
    assert invoke("simulate", "--hands", 1500, "--seed", 4, "--threads", 1, "--quiet", "--out", out).exit_code == 0
    earlier = snapshot(out)

    with monkeypatch.context() as m:
        full_disk_at(m, "declarations.parquet")
        res = invoke(*run, "--out", out, "--force")      # another seed's files there: --force writes anyway
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    assert res.stderr.splitlines() == [f"Error: cannot write {out / 'declarations.parquet'}: {FULL}"]
    assert "Traceback" not in res.output
    assert (out / "declarations.parquet").read_bytes() == earlier["declarations.parquet"]
    assert temporaries(out) == [] and (out / CHECKPOINT_DIR).is_dir()

    res = invoke(*run, "--out", out, "--resume")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in ref.iterdir())   # no checkpoint left
    mine, theirs = snapshot(out), snapshot(ref)
    for name, data in theirs.items():
        if name.endswith(".parquet"):
            pd.testing.assert_frame_equal(pd.read_parquet(out / name), pd.read_parquet(ref / name))
        elif name == output.MANIFEST:             # the same files, of the same command (its line names --out)
            ours, ref_manifest = json.loads(mine[name]), json.loads(data)
            assert ours["files"] == ref_manifest["files"]
            assert ours["command"]["args"] == ref_manifest["command"]["args"]
        else:
            assert mine[name] == data, name


# --- backend choices ---------------------------------------------------------------------------

BAD_BACKENDS = {
    "threads-0": (["--threads", "0"], "--threads must be from 1 to 1024, got 0"),
    "threads-minus-1": (["--threads", "-1"], "--threads must be from 1 to 1024, got -1"),
    "threads-too-many": (["--threads", "1025"], "--threads must be from 1 to 1024, got 1025"),
    "workers-0": (["--workers", "0"], "--workers must be from 1 to 1024, got 0"),
    "workers-minus-1": (["--workers", "-1"], "--workers must be from 1 to 1024, got -1"),
    "workers-too-many": (["--workers", "1025"], "--workers must be from 1 to 1024, got 1025"),
    "threads-with-workers": (["--threads", "2", "--workers", "2"],
                             "--threads is for the default backend; the local cluster of --workers"),
    "workers-with-scheduler": (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
                               "give --workers (a local cluster) or --scheduler (a running one), not both"),
    "threads-with-scheduler": (["--threads", "2", "--scheduler", "tcp://127.0.0.1:1"],
                               "--threads is for the default backend; the cluster at --scheduler"),
    "scheduler-words": (["--scheduler", "not an address"],
                        "--scheduler expects an address such as tcp://10.0.0.5:8786, got 'not an address'"),
    "scheduler-empty": (["--scheduler", ""], "--scheduler expects an address such as tcp://10.0.0.5:8786, got ''"),
    "scheduler-no-host": (["--scheduler", "tcp://"], "--scheduler expects an address such as"),
    "scheduler-port-not-a-number": (["--scheduler", "tcp://host:port"], "--scheduler expects an address such as"),
    "scheduler-unknown-protocol": (["--scheduler", "foo://127.0.0.1:8786"], "--scheduler: unknown protocol 'foo'"),
    "scheduler-port-too-big": (["--scheduler", "tcp://127.0.0.1:99999"],
                               "--scheduler: the port must be from 1 to 65535, got 99999"),
    "scheduler-port-0": (["--scheduler", "tcp://127.0.0.1:0"], "--scheduler: the port must be from 1 to 65535, got 0"),
}


@pytest.mark.parametrize("args,message", list(BAD_BACKENDS.values()), ids=list(BAD_BACKENDS))
def test_each_backend_choice_that_cannot_work_is_its_own_line(args, message, monkeypatch):
    """Guards against accepting a backend choice that cannot work (e.g. --threads 0, --threads
    with --workers, an address Dask answers with a traceback) or refusing it with another
    choice's message: one line, exit 1, before any cluster is started or hand played."""
    def no_cluster(*a, **kw):
        raise AssertionError("a Dask cluster was started")

    monkeypatch.setattr(options, "dask_backend", no_cluster)
    res = invoke("simulate", "--hands", 100, "--quiet", *args)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    lines = res.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "tcp://SCHEDULER-HOST:8786", "127.0.0.1:8786",
                                     "localhost", "tls://[::1]:8786", "ws://dask_scheduler.local:8786"])
def test_a_scheduler_address_dask_takes_is_not_refused(address):
    """Guards against the --scheduler check refusing an address Dask takes (the documented
    tcp://HOST:PORT, a bare host, IPv6, the other protocols)."""
    check_scheduler(address)


# --- replay: a seat the game does not have -----------------------------------------------------

@pytest.mark.parametrize("seat,move", [("2", 0), ("-1", 0), ("-1", 7), ("10", 3)])
def test_a_replay_naming_a_seat_the_game_does_not_have_is_no_seat(seat, move, tmp_path):
    """Guards against a move by seat 2 or -1 of a two-handed game being read as something else
    (a malformed line, a rule violation with exit 2, a traceback): one line naming the seat,
    exit 1."""
    doc = json.loads((REPLAYS / "example_hand.json").read_text())
    doc["moves"][move] = f"{seat} " + doc["moves"][move].split(" ", 1)[1]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    res = invoke("replay", path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    assert res.output == f"Error: move {move + 1}: there is no seat {seat} in a 2-handed game\n"
