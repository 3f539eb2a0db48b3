"""Checkpoints: the merged state of each run of a command, kept in its output directory so
that an interrupted command can resume and play only the chunks that are missing.

A command run with ``--out DIR`` keeps, in ``DIR/.checkpoint/``, the arguments it was
started with (``command.json``) and one file per run of the simulator it has started (a
``report`` makes several): the chunks merged so far and the accumulator holding them,
saved atomically about once a second and when the run stops. ``--resume`` checks that the
arguments match, and each run starts from its saved state; since chunks are merged in hand
order whatever the backend, the result is byte-identical to an uninterrupted run. The
directory is removed when the command finishes.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..errors import BeziqueError
from .output import atomic_write, same_command, write_json

CHECKPOINT_DIR = ".checkpoint"
COMMAND_FILE = "command.json"


class CheckpointError(BeziqueError, RuntimeError):
    """A resume that cannot go on: no checkpoint, or one made with other arguments."""


class Checkpoints:
    """The checkpoint files of one output directory."""

    def __init__(self, out_dir, resume_line: str = ""):
        self.dir = Path(out_dir) / CHECKPOINT_DIR
        self.resume_line = resume_line        # the command that continues from here

    def key(self, task, total: int, chunk: int) -> str | None:
        """A name for a run: a digest of its task (a RunTask: the play, rules, seed, policies
        by name and parameters, see ``PolicySpec.__reduce__``), size and chunk; None for a run
        whose task cannot be pickled (it is not checkpointed)."""
        try:
            blob = pickle.dumps((task, total, chunk, _policy_files(getattr(task, "policies", ()))), protocol=4)
        except Exception:      # e.g. a policy made in Python that no name resolves to
            return None
        return hashlib.sha256(blob).hexdigest()[:32]

    def load(self, key: str):
        """``(merged, finished, accumulator)`` saved for run ``key``, or None."""
        try:
            with open(self.dir / f"{key}.pkl", "rb") as f:
                return pickle.load(f)
        except FileNotFoundError:
            return None

    def save(self, key: str, merged: int, finished: bool, acc) -> None:
        """Save run ``key``'s state atomically."""
        def dump(path):
            with open(path, "wb") as f:
                pickle.dump((merged, finished, acc), f, protocol=pickle.HIGHEST_PROTOCOL)
        atomic_write(self.dir / f"{key}.pkl", dump)

    def exists(self) -> bool:
        """Whether an earlier command left a checkpoint here."""
        return (self.dir / COMMAND_FILE).is_file()

    def command(self) -> dict | None:
        """The arguments of the command that made this checkpoint (None if unreadable)."""
        try:
            return json.loads((self.dir / COMMAND_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def start(self, command: dict) -> None:
        """Begin a new checkpoint for ``command`` (dropping any earlier one)."""
        self.clear()
        write_json(command, self.dir / COMMAND_FILE)

    def clear(self) -> None:
        """Remove the checkpoint."""
        shutil.rmtree(self.dir, ignore_errors=True)


def _policy_files(specs) -> list[str]:
    """Digests of the user policy files among ``specs`` (a policy's file is its
    ``PolicySpec.user_file``): a file edited since the checkpoint makes another run, played
    afresh."""
    files = [f for f in (getattr(s, "user_file", None) for s in specs) if f]
    return [hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in files]


_ACTIVE: ContextVar = ContextVar("bezique_checkpoints", default=None)


def active_checkpoints() -> Checkpoints | None:
    """The checkpoints of the enclosing :func:`keep_checkpoints` block, if any."""
    return _ACTIVE.get()


def describe(command: dict) -> str:
    """``command`` (as saved) as the line that runs it."""
    return command.get("line") or command.get("name", "?")


@contextmanager
def keep_checkpoints(out_dir, command: dict, resume: bool = False) -> Iterator[Checkpoints]:
    """Keep the merged state of every run started inside the block in ``out_dir``; returns
    (yields) the :class:`Checkpoints`.

    ``command`` identifies the command (``name`` and ``args``: every argument that changes
    the result; ``line``: how to type it). With ``resume`` the checkpoint there must have
    been made by the same command and arguments (CheckpointError otherwise), and runs
    continue from it; without, any checkpoint there is dropped. When the block finishes
    normally the checkpoint is removed; after an error or an interrupt it stays.
    """
    store = Checkpoints(out_dir, command.get("line", ""))
    if resume:
        saved = store.command() if store.exists() else None
        if saved is None:
            raise CheckpointError(f"nothing to resume in {out_dir}: no checkpoint of an interrupted run there "
                                  "(run the command without --resume)")
        if not same_command(saved, command):
            diff = sorted(k for k in set(saved.get("args", {})) | set(command.get("args", {}))
                          if saved.get("args", {}).get(k) != command.get("args", {}).get(k))
            what = "the command" if saved.get("name") != command.get("name") else ", ".join(diff)
            raise CheckpointError(f"cannot resume: the run in {out_dir} was started as `{describe(saved)}`; "
                                  f"this one differs in {what} (give the same arguments, or leave out "
                                  "--resume to start over)")
    else:
        store.start(command)
    token = _ACTIVE.set(store)
    try:
        yield store
    finally:
        _ACTIVE.reset(token)
    store.clear()
