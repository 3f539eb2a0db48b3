"""Writing results atomically: a file appears whole or not at all, with the user's umask; an
output directory is checked writable before a run and keeps a manifest of the files its last
run wrote and of the command that wrote them (written last), so a rerun removes its own stale
files and never anyone else's, and a command refuses a directory that holds what another
command, or no command, wrote there (:func:`claim_output`; --force writes anyway)."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import metadata
from pathlib import Path

import numpy

from ..errors import BeziqueError
from .backends import describe_backend

MANIFEST = ".bezique-files.json"
FORMATS = ("csv", "parquet", "png", "svg")      # what tables and charts are written as (--format)
_CHOSEN: ContextVar = ContextVar("bezique_formats", default=frozenset(FORMATS))
_COMMAND: ContextVar = ContextVar("bezique_command", default=None)     # what the manifest records
TEMP_PREFIX = ".bezique-tmp-"       # a file being written; one left by a killed run goes at the next finish


class OutputError(BeziqueError, OSError):
    """An output directory or file that cannot be written."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()      # what open() would give: mkstemp's files are 0600


def provenance(threads: int | None = None) -> dict:
    """What produced a result: the package version, its git commit when it runs from a
    checkout, the numpy and numba versions, and the parallel backend (the active Dask cluster,
    else ``threads`` worker threads)."""
    import numba  # keeps the CLI's start-up light: numba loads with the first run

    try:
        version = metadata.version("bezique-analyzer")
    except metadata.PackageNotFoundError:
        version = None
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                                text=True, timeout=5).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        commit = None
    return {"version": version, "git_commit": commit, "numpy": numpy.__version__, "numba": numba.__version__,
            **describe_backend(threads)}


def command_line() -> str:
    """This process's command line as ``bezique ...`` (quoted for a shell)."""
    return " ".join(shlex.quote(w) for w in ["bezique", *sys.argv[1:]])


def write_run_record(out_dir, command: str | None = None, threads: int | None = None, **facts) -> Path:
    """Write ``run.json`` into ``out_dir``: the command (default: :func:`command_line`),
    ``facts`` (rules, policies, hands, seed...) and :func:`provenance`."""
    command = command or command_line()
    return write_json({"command": command, **facts, **provenance(threads)}, Path(out_dir) / "run.json")


def check_text_path(path) -> Path:
    """``path`` as a Path; OutputError if it is not valid UTF-8 (bytes from the command line
    that are no text: the writers and the terminal refuse them)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        raise OutputError(f"cannot write to {str(path)!r}: the path is not valid UTF-8") from None
    return Path(path)


def check_writable(out_dir) -> Path:
    """Create ``out_dir`` if needed and check a file can be written there (before a run, so
    that no finished work is lost); OutputError naming the directory otherwise."""
    out = check_text_path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}write-check.", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise OutputError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    return out


def read_manifest(out_dir) -> dict | None:
    """The manifest of ``out_dir`` (``files``: what its last run wrote; ``command``: the command
    that wrote them, where one was recorded), or None where there is none or it is unreadable."""
    try:
        manifest = json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def same_command(a: dict | None, b: dict | None) -> bool:
    """Whether two commands as recorded (``name`` and ``args``: every argument that changes the
    result) are the same command with the same settings; a command not recorded is none."""
    return (isinstance(a, dict) and isinstance(b, dict) and bool(a) and bool(b)
            and (a.get("name"), a.get("args")) == (b.get("name"), b.get("args")))


def held_files(out_dir) -> list[str]:
    """The names in ``out_dir`` (files and folders) but its manifest and temporary files: what a
    run would write beside."""
    out = Path(out_dir)
    if not out.is_dir():
        return []
    return sorted(p.name for p in out.iterdir() if p.name != MANIFEST and not p.name.startswith(TEMP_PREFIX))


def check_output(out_dir, command: dict) -> dict | None:
    """Refuse (OutputError, one line) to write ``command``'s files into ``out_dir`` when it holds
    files that another command wrote (its manifest names another command or other settings, or
    no command) or that no command wrote (no manifest); an empty or missing directory, or one
    whose manifest names the same command and settings, is fine. Returns its manifest."""
    manifest = read_manifest(out_dir)
    held = held_files(out_dir)
    recorded = (manifest or {}).get("command")
    if not held or same_command(recorded, command):
        return manifest
    shown = ", ".join(_printable(n) for n in held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
    if manifest is None:
        whose = f"files that no bezique command wrote ({shown})"
    elif not isinstance(recorded, dict) or not recorded:
        whose = f"the files of a run that did not record its command ({shown})"
    else:
        whose = f"the files of `{recorded.get('line') or recorded.get('name')}` ({shown})"
    raise OutputError(f"{out_dir} holds {whose}: give another --out, or --force to write there anyway "
                      "(removing nothing that is there)")


@contextmanager
def claim_output(out_dir, command: dict, force: bool = False, resume: bool = False) -> Iterator[dict]:
    """Inside the block ``command`` (``name``, ``args``, ``line``: what the command line's
    ``_command_identity`` gives) writes into ``out_dir``; returns (yields) it. Unless ``resume``
    (the interrupted run's own checks say whether it is the same command), the directory is
    checked first (:func:`check_output`; ``force`` skips the check) and claimed: its manifest
    names ``command`` from now on, so that a run interrupted here is known as this command's, and
    keeps the files of the earlier run only where that was the same command (a forced run's
    :func:`finish_output` removes nothing that was there). :func:`finish_output` records
    ``command`` in the manifest."""
    out = Path(out_dir)
    if not resume:
        manifest = (read_manifest(out) if force else check_output(out, command)) or {}
        files = _names(manifest.get("files")) if same_command(manifest.get("command"), command) else []
        write_json({"files": files, "command": command}, out / MANIFEST)
    token = _COMMAND.set(command)
    try:
        yield command
    finally:
        _COMMAND.reset(token)


def finish_output(out_dir, written, owned=()) -> Path:
    """End a run's writing into ``out_dir``: remove the files of the previous run there that
    this run did not write (those its manifest names; where the directory has no manifest, those
    named in ``owned``, an earlier version's files) and any temporary file a killed run left,
    then write the manifest of ``written`` (and of the command of the enclosing
    :func:`claim_output`, if any) last. Returns the manifest's path."""
    out = Path(out_dir)
    new = {Path(p).name for p in written}
    manifest = read_manifest(out)
    old = set(owned) if manifest is None else set(_names(manifest.get("files")))
    for name in sorted(old - new):
        stale = out / Path(name).name               # a bare name: never outside the directory
        if stale.is_file():
            stale.unlink()
    for leftover in out.glob(f"{TEMP_PREFIX}*"):     # half-written by a run killed with SIGKILL
        leftover.unlink(missing_ok=True)
    command = _COMMAND.get()
    return write_json({"files": sorted(new), **({"command": command} if command else {})}, out / MANIFEST)


def _printable(name: str) -> str:
    """A file name as a line can say it: a byte that is not UTF-8 as the replacement character."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _names(files) -> list[str]:
    """The file names a manifest lists (none where it lists something else)."""
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def atomic_write(path, write) -> Path:
    """Call ``write(tmp_path)`` then move the file into place; return ``path``. If anything
    fails (``write`` raises, a full disk), the temporary file goes and an earlier file at
    ``path`` stays as it was; an OSError comes back as an OutputError naming ``path`` (its
    ``strerror`` the system's reason), which the command line prints as one line."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{path.name}.", suffix=path.suffix, dir=path.parent)
        os.close(fd)
        write(tmp)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            error = OutputError(f"cannot write {path}: {e.strerror or e}")
            error.strerror = e.strerror     # no errno: str(error) stays the message above
            raise error from e
        raise
    return path


@contextmanager
def use_formats(formats) -> Iterator[frozenset]:
    """Inside the block, tables and charts are written only in ``formats`` (of FORMATS);
    returns (yields) them."""
    chosen = frozenset(formats)
    token = _CHOSEN.set(chosen)
    try:
        yield chosen
    finally:
        _CHOSEN.reset(token)


def wanted(fmt: str) -> bool:
    """Whether files of format ``fmt`` are written (see :func:`use_formats`)."""
    return fmt in _CHOSEN.get()


def write_table(df, out_dir, name: str, parquet: bool = True, csv: bool = True) -> list[Path]:
    """Write ``df`` as ``name.csv`` (unless not ``csv``: a table too long to read as text) and
    ``name.parquet`` (unless not ``parquet``) in ``out_dir``, in the formats chosen
    (:func:`use_formats`); return the paths written."""
    out = Path(out_dir)
    paths = []
    if csv and wanted("csv"):
        paths.append(atomic_write(out / f"{name}.csv", lambda p: df.to_csv(p, index=True)))
    if parquet and wanted("parquet"):
        paths.append(atomic_write(out / f"{name}.parquet", lambda p: df.to_parquet(p)))
    return paths


def write_json(obj, path) -> Path:
    """Write ``obj`` as indented JSON."""
    def dump(p):
        with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:    # a path from argv may hold any bytes
            json.dump(obj, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return atomic_write(path, dump)


def update_marked_section(path, mark: str, text: str, heading: str) -> Path:
    """Put ``text`` between the markers ``<!-- mark:start -->`` and ``<!-- mark:end -->`` of the
    markdown file ``path`` (written atomically); where they are absent, append them under a new
    section ``heading``. The published studies keep their tables on their pages so."""
    doc = Path(path).read_text(encoding="utf-8")
    start, end = f"<!-- {mark}:start -->", f"<!-- {mark}:end -->"
    block = f"{start}\n{text}\n{end}"
    if start in doc and end in doc:
        doc = doc[:doc.index(start)] + block + doc[doc.index(end) + len(end):]
    else:
        doc = doc.rstrip() + f"\n\n## {heading}\n\n" + block + "\n"
    return atomic_write(path, lambda p: Path(p).write_text(doc, encoding="utf-8"))


def save_figure(fig, path) -> Path:
    """Save a matplotlib figure atomically (format from the suffix)."""
    suffix = Path(path).suffix.lstrip(".")
    import matplotlib  # keeps the CLI's start-up light: matplotlib loads with the first chart

    meta = {"Date": None} if suffix in ("svg", "pdf") else None

    def write(p):
        # no date and fixed element ids: the same figure gives the same bytes on every run
        with matplotlib.rc_context({"svg.hashsalt": "bezique"}):
            fig.savefig(p, format=suffix, dpi=120, bbox_inches="tight", metadata=meta)
    return atomic_write(path, write)
