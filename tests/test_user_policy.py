"""User policies from .py files: the example plays; every failure is one clear error."""
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.policies.registry import PolicyError, resolve_policy
from analyzer.rules import preset
from analyzer.run.driver import SimulationError
from analyzer.studies.simulate import simulate

EXAMPLE = Path(__file__).parent.parent / "examples" / "my_policy.py"
HEADER = ("from numba import njit\nfrom analyzer.engine.layout import A_STOP\n"
          "from analyzer.engine.policy_data import POLICY_SIG\n")


def write(tmp_path, body: str, name: str = "pol.py") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def test_example_policy_plays_and_never_exchanges():
    res = simulate(preset("ordinary"), [f"{EXAMPLE}:no_exchange", "greedy"], 3000, seed=1,
                   threads=1, keep_records=True)
    from analyzer.engine.layout import REC_EXCHANGES
    assert res.policies[0].endswith("my_policy.py:no_exchange")
    assert res.tallies.declarations[0].sum() > 0
    # the example never exchanges: every exchange in these hands is greedy's
    assert res.records[:, REC_EXCHANGES].sum() > 0


def test_example_policy_on_the_command_line(tmp_path):
    for command in (["simulate", "--hands", "2000", "--threads", "1"], ["trace"]):
        res = CliRunner().invoke(main, command + ["--policy", f"{EXAMPLE}:no_exchange", "--policy", "random"])
        assert res.exit_code == 0, res.output
    out = tmp_path / "compare"
    res = CliRunner().invoke(main, ["compare", f"{EXAMPLE}:no_exchange", "random", "--hands", "500",
                                    "--threads", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "pairs.csv").exists()


def test_one_user_policy_at_every_seat_plays(tmp_path):
    """The same file:function at both seats, one returning an int64 (kept as compiled, not
    recompiled with the signature): a dispatcher still open to compiles is typed as itself, and
    a tuple of those at every seat matched no kernel signature (the run stopped)."""
    path = write(tmp_path, """
        def first(obs, legal, n_legal, rules, params, rng, data):
            return legal[0] + 0 * n_legal
    """)
    res = simulate(preset("ordinary"), [f"{path}:first", f"{path}:first"], 500, seed=1, threads=1)
    assert res.tallies.hands == 500
    res = CliRunner().invoke(main, ["simulate", "--policy", f"{EXAMPLE}:no_exchange", "--hands", "300",
                                    "--threads", "1", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output


def test_plain_python_function_is_compiled_once(tmp_path):
    """A function of the six arguments without the seat's data is taken too (wrapped)."""
    path = write(tmp_path, """
        def first(obs, legal, n_legal, rules, params, rng):
            return legal[0]
    """)
    spec = resolve_policy(f"{path}:first")
    res = simulate(preset("ordinary"), [spec, "random"], 500, seed=1, threads=1)
    assert res.tallies.hands == 500


def test_a_policy_keeps_its_own_memory_in_its_seat_data(tmp_path):
    """``data.work`` is the seat's own for the whole run of a chunk: a policy that counts its
    decisions there sees the count grow, and plays (here: the last legal action every tenth
    decision) by it."""
    path = write(tmp_path, """
        @njit(POLICY_SIG)
        def counting(obs, legal, n_legal, rules, params, rng, data):
            data.work[0] += 1
            return legal[n_legal - 1] if data.work[0] % 10 == 0 else legal[0]
    """)
    rules = preset("ordinary")
    mine = simulate(rules, [f"{path}:counting", "random"], 200, seed=1, threads=1, keep_records=True)
    first = write(tmp_path, """
        def first(obs, legal, n_legal, rules, params, rng, data):
            return legal[0]
    """, "first.py")
    plain = simulate(rules, [f"{first}:first", "random"], 200, seed=1, threads=1, keep_records=True)
    assert not (mine.records == plain.records).all()


@pytest.mark.parametrize("body,ref,needle", [
    ("", "missing.py:f", "not found"),
    ("def f(:\n", "{path}:f", "cannot load"),
    ("raise RuntimeError('boom')\n", "{path}:f", "RuntimeError: boom"),
    ("x = 1\n", "{path}:f", "has no function 'f'"),
    ("f = 3\n", "{path}:f", "not a function"),
    ("def f(obs, legal):\n    return legal[0]\n", "{path}:f", "takes 2 arguments"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return 'x'\n", "{path}:f", "not an integer"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return undefined_name\n", "{path}:f", "does not compile"),
    ("import sys\nsys.exit(0)\n", "{path}:f", "SystemExit: 0"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return 1.5\n", "{path}:f", "returns float64, not an integer"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return legal[0] + 0.5\n", "{path}:f",
     "returns float64, not an integer"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return n_legal > 0\n", "{path}:f", "returns bool"),
    ("def f(obs, legal, n_legal, rules, params, rng):\n    return 2**70\n", "{path}:f",
     "returned 1180591620717411303424 at the first decision of a sample hand, which is no action"),
])
def test_bad_policy_files(tmp_path, body, ref, needle):
    path = write(tmp_path, body) if body else Path("missing.py")
    with pytest.raises(PolicyError, match=needle):
        resolve_policy(ref.format(path=path))
    res = CliRunner().invoke(main, ["simulate", "--hands", "10", "--policy", ref.format(path=path),
                                    "--policy", "random"])
    assert res.exit_code == 1 and needle.split("'")[0] in res.output and "Traceback" not in res.output


def test_illegal_action_stops_the_run_naming_policy_decision_action(tmp_path):
    path = write(tmp_path, """
        @njit(POLICY_SIG)
        def cheat(obs, legal, n_legal, rules, params, rng, data):
            return 5          # play the king of... whatever: card 5, held or not
    """)
    with pytest.raises(SimulationError) as e:
        simulate(preset("ordinary"), [f"{path}:cheat", "random"], 200, seed=1, threads=1)
    msg = str(e.value)
    assert "cheat" in msg and "returned 'play 9S', which is not legal at that follow decision (hand 0)" in msg
    res = CliRunner().invoke(main, ["simulate", "--hands", "50", "--policy", f"{path}:cheat",
                                    "--policy", "random"])
    assert res.exit_code == 1 and "which is not legal" in res.output and "Traceback" not in res.output


def test_a_return_value_that_is_no_action_reads_naturally(tmp_path):
    path = write(tmp_path, """
        def nonsense(obs, legal, n_legal, rules, params, rng):
            return 999
    """)
    with pytest.raises(SimulationError, match=r"returned 999, which is no action \(hand 0\)$"):
        simulate(preset("ordinary"), [f"{path}:nonsense", "random"], 20, seed=1, threads=1)


@pytest.mark.parametrize("body, needle", [
    ("return legal[n_legal + 10**8]", "IndexError: index is out of bounds"),
    ("raise ValueError('my policy is broken')", "ValueError: my policy is broken"),
])
def test_a_policy_that_reads_out_of_range_or_raises_is_one_error_naming_it(tmp_path, body, needle):
    path = write(tmp_path, f"""
        def broken(obs, legal, n_legal, rules, params, rng):
            if n_legal > 0:
                {body}
            return legal[0]
    """)
    with pytest.raises(SimulationError, match=f"policy '{path}:broken' stopped the run: {needle}"):
        simulate(preset("ordinary"), [f"{path}:broken", "random"], 20, seed=1, threads=1)
    for command in (["simulate", "--hands", "20"], ["trace"]):
        res = CliRunner().invoke(main, [*command, "--policy", f"{path}:broken", "--policy", "random"])
        errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
        assert res.exit_code == 1 and len(errors) == 1 and needle in errors[0], res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)


def test_a_policy_that_never_returns_is_stopped_by_sigterm(tmp_path):
    """Ctrl-C or SIGTERM stops the run within 2 s although the kernel never comes back."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from helpers import first_progress_line
    path = write(tmp_path, """
        def hang(obs, legal, n_legal, rules, params, rng):
            x = 1
            while x > 0:
                x = (x * 3) % 1000 + 1
            return legal[0]
    """)
    exe = Path(sys.executable).with_name("bezique")
    for command in (["simulate", "--hands", "1000"], ["trace"]):
        proc = subprocess.Popen([str(exe), *command, "--policy", f"{path}:hang", "--policy", "random"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "BEZIQUE_PROGRESS_EVERY": "0"})
        try:
            if command[0] == "simulate":
                assert proc.stderr.readline().startswith("simulate: 1,000 hands to play")
            time.sleep(5)       # compiled and inside the policy's loop (a signal during the compile
                                # is lost in llvmlite's callback; backends.STOP then stops the
                                # run at its next wait, within a few seconds, not 2)
            t0 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)
            assert time.perf_counter() - t0 < 2 and proc.returncode in (1, 130)
        finally:
            proc.kill()                              # never left spinning after a failure
