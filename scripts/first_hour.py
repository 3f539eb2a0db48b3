"""A newcomer's first hour, timed: the main job from an empty kernel cache, then the commands a
user types next, each the moment the one before it ends (issue 59: each within 10 s of the
main job). The repository's committed HEAD (or --commit) is cloned into a temporary directory and run from
there with this interpreter (``PYTHONPATH``), so that numba's cache, kept beside the sources,
starts empty; the install (``pip install -e .``) is not counted. Minutes: it compiles everything.

Example:
    python scripts/first_hour.py
    python scripts/first_hour.py --keep /tmp/first-hour      # keep the clone and each command's output
    python scripts/first_hour.py --commit HEAD~1              # an earlier commit, to compare
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEZIQUE = [sys.executable, "-m", "analyzer.cli"]
# (name, arguments): the main job first, then what a new user tries
COMMANDS = (
    ("report", ["report", "--out", "results/quickstart"]),
    ("trace", ["trace", "--policy", "learned", "--policy", "hints"]),
    ("replay", ["replay", "tests/replays/example_hand.json"]),
    ("analyze", ["analyze", "tests/replays/example_view.txt", "--samples", "200"]),
    ("odds", ["odds"]),
    ("value", ["value", "--hold", "QS JD AH"]),
    ("compare", ["compare", "hints", "greedy", "--hands", "2000"]),
    ("trace again", ["trace", "--seed", "2"]),
)


def timed(clone: Path, name: str, args: list[str]) -> float:
    """Run ``bezique args`` in ``clone`` (its output to ``clone/first-hour-NAME.txt``); seconds taken.
    A command that fails stops the script with its output."""
    env = {**os.environ, "PYTHONPATH": str(clone)}
    env.pop("NUMBA_CACHE_DIR", None)            # the cache beside the clone's sources: empty
    log = clone / f"first-hour-{name.replace(' ', '-')}.txt"
    start = time.perf_counter()
    with open(log, "w") as out:
        rc = subprocess.run(BEZIQUE + args, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    seconds = time.perf_counter() - start
    if rc != 0:
        sys.exit(f"{name} failed (exit {rc}):\n{log.read_text()}")
    return seconds


def main() -> None:
    """Clone HEAD, run the commands one after another, print each one's seconds."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="clone into this new directory and keep it (default: a temporary one)")
    ap.add_argument("--commit", default="HEAD", help="the commit to time (default HEAD; compare two in alternation)")
    ns = ap.parse_args()
    if ns.keep is not None and ns.keep.exists():
        ap.error(f"--keep {ns.keep}: already exists; name a new directory")
    clone = ns.keep or Path(tempfile.mkdtemp(prefix="first-hour-")) / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", ns.commit], check=True)
    try:
        for name, args in COMMANDS:
            print(f"{name:12} {timed(clone, name, args):6.1f} s   bezique {' '.join(args)}", flush=True)
    finally:
        if ns.keep is None:
            shutil.rmtree(clone.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
