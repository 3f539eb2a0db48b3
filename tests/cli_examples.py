"""The example command lines of ``bezique --help``, every command's help, the README and the
pages under docs/, ready to run small (the examples show real sizes; the tests only check that
they run)."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli import all_commands, main

ROOT = Path(__file__).parent.parent


def help_examples() -> list[str]:
    """The command lines under "Example:" in ``bezique --help`` and every command's help."""
    found = []
    for args in [["--help"]] + [[name, "--help"] for name in sorted(all_commands())]:
        text = CliRunner().invoke(main, args).output
        block = text.split("Example:", 1)[1].split("Options:", 1)[0]
        found += [line.strip() for line in block.splitlines() if line.strip().startswith("bezique ")]
    return found


def doc_pages() -> list[Path]:
    """The README and every page under docs/, whose bash blocks hold examples."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def doc_examples() -> list[str]:
    """Every ``bezique`` command line in the bash blocks of the README and the docs/ pages
    (comments dropped; ``sh`` blocks, which need an interrupted run or a cluster, are not run)."""
    found = []
    for page in doc_pages():
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(), re.S):
            for line in block.splitlines():
                m = re.search(r"(?:^|&& )(?:\.venv/bin/)?(bezique [^#]*)", line)
                if m:
                    found.append(m.group(1).strip())
    return found


def small(command: str, hands: int) -> list[str]:
    """The example's arguments with ``--hands`` set to ``hands`` (added where the default applies;
    a fifth of it where a search plays, a hundredth for the hints study; ``--games`` becomes a
    tenth of it; a search's ``--samples`` 8)."""
    args = shlex.split(command)[1:]
    if "--games" in args:
        args[args.index("--games") + 1] = str(max(hands // 10, 1))
    if args[0] == "tune":                     # the smallest search, a short confirmation
        args[args.index("--budget") + 1] = "100000"
        args += ["--confirm", "512"]
        return args
    if args[0] == "train":                    # two tiny steps
        for flag, value in (("--steps", "2"), ("--hands-per-step", "16"), ("--keep", "0.3"),
                            ("--fit-rows", "20000"), ("--eval-every", "1"), ("--eval-deals", "16")):
            if flag in args:
                args[args.index(flag) + 1] = value
            else:
                args += [flag, value]
        return args
    if args[0] in ("analyze", "review") and "--samples" in args:     # each sample is a hand played out
        args[args.index("--samples") + 1] = "8"
    if any(a.startswith(("expert", "cheat")) for a in args):      # a search plays tens of hands/s, not thousands
        hands = max(hands // 5, 2)
    if args[0] == "hints":                    # strong pairings and a search at most decisions: a few hands/s
        hands = max(hands // 100, 2)
    if "--hands" in args:
        args[args.index("--hands") + 1] = str(hands)
    elif any(p.name == "hands" for p in all_commands()[args[0]].params):
        args += ["--hands", str(hands)]
    return args


def examples(hands: int) -> list[list[str]]:
    """Every example of the help, the README and docs/ as arguments run with ``hands``, one of
    each run that differs in more than its --out directory."""
    runs = {}
    for command in help_examples() + doc_examples():
        args = small(command, hands)
        ctx = all_commands()[args[0]].make_context(args[0], args[1:], resilient_parsing=True)
        key = (args[0], tuple(sorted((k, str(v)) for k, v in ctx.params.items() if k != "out")))
        runs.setdefault(key, args)
    return list(runs.values())


SMALL_REPORT = {"ordinary": (1500, 300), "rubicon": (600, 120)}
"""A report's small size per game: its hands (Rubicon: games, each four times an ordinary hand's
work) and the deals against the strong player."""


def report_examples() -> list[list[str]]:
    """The report examples of the help, the README and docs/ at the suite's small size, each
    without its --out (``bezique report --out results/quickstart`` is the ordinary one)."""
    found = []
    for args in examples(SMALL_REPORT["ordinary"][0]):
        if args[0] != "report":
            continue
        args = args[:args.index("--out")] + args[args.index("--out") + 2:] if "--out" in args else list(args)
        hands, deals = SMALL_REPORT[report_variant(args)]
        args[args.index("--hands") + 1] = str(hands)
        found.append(args + ["--learned-hands", str(2 * deals), "--learned-deals", str(deals),
                             "--ablation-deals", str(deals // 3)])        # strong play, small
    return found


def report_variant(args: list[str]) -> str:
    """The game a report's arguments play."""
    return args[args.index("--variant") + 1] if "--variant" in args else "ordinary"


def run_once(tmp_path_factory, args: list[str]) -> tuple[Path, int, str]:
    """``bezique ARGS --out DIR -q`` run once for the whole suite, by whichever pytest-xdist
    worker asks first (the others wait on a lock for it): DIR, the exit code and what it printed.
    The tests that read one small report (its files, its page) then pay for it once."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base     # shared by the workers
    key = hashlib.sha1(" ".join(args).encode()).hexdigest()[:12]
    out, done = root / f"run-{key}", root / f"run-{key}.json"
    with open(root / f"run-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            res = CliRunner().invoke(main, [*args, "--out", str(out), "-q"])
            done.write_text(json.dumps({"exit_code": res.exit_code, "output": res.output}))
    ran = json.loads(done.read_text())
    return out, ran["exit_code"], ran["output"]


def small_report(tmp_path_factory, variant: str) -> tuple[Path, str]:
    """The suite's small report of ``variant``'s example (the README's quickstart; the Rubicon
    one), run once for every test that reads it (:func:`run_once`): its directory and what it
    printed; the run must have succeeded."""
    args = next(a for a in report_examples() if report_variant(a) == variant)
    out, exit_code, output = run_once(tmp_path_factory, args)
    assert exit_code == 0, output
    return out, output
