"""User policies from .py files: the example plays; every failure is one clear error."""
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.policies.spec import PolicyError, resolve_policy
from analyzer.rules import preset
from analyzer.run.driver import SimulationError
from analyzer.studies.play.simulate import simulate

EXAMPLE = Path(__file__).parent.parent / "examples" / "my_policy.py"
HEADER = ("from numba import njit\nfrom analyzer.engine.layout import A_STOP\n"
          "from analyzer.engine.policy_data import POLICY_SIG\n")


def write(tmp_path, body: str, name: str = "pol.py") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(body))
    return path


@pytest.mark.parametrize("mine", [0, 1])
def test_example_policy_plays_and_never_exchanges(mine):
    """In either seat the example never exchanges the seven, while greedy at the other seat
    does. A hand's record counts its exchanges but not whose they were: each hand with one is
    played again one by one (handlog.play_spec, the same hand as the record's: the same scores),
    and its exchange event names the seat."""
    from analyzer.engine import layout as L
    from analyzer.hands.handlog import play_spec
    from analyzer.hands.replay_file import dealt_spec
    from analyzer.policies.spec import resolve_policy
    rules = preset("ordinary")
    policies = [resolve_policy("greedy"), resolve_policy(f"{EXAMPLE}:no_exchange")]
    if mine == 0:
        policies.reverse()
    res = simulate(rules, policies, 2000, seed=1, threads=1, keep_records=True)
    assert res.policies[mine].endswith("my_policy.py:no_exchange")
    assert res.tallies.declarations[mine].sum() > 0
    by_seat = [0, 0]
    for hand in np.flatnonzero(res.records[:, L.REC_EXCHANGES]):
        o = play_spec(dealt_spec(rules, 1, int(hand)), policies, seed=1, hand=int(hand))
        rec = res.records[hand]
        assert o.scores == [int(rec[L.REC_SEAT + s * L.REC_SEAT_W + L.RS_SCORE]) for s in (0, 1)], hand
        for e in o.events:
            if e["event"] == "exchange":
                by_seat[e["seat"]] += 1
    assert sum(by_seat) == res.records[:, L.REC_EXCHANGES].sum()
    assert by_seat[mine] == 0, by_seat
    assert by_seat[1 - mine] > 50, by_seat          # greedy exchanges: the check sees exchanges


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
    """Ctrl-C or SIGTERM stops the run although the kernel never comes back. The signal goes
    once the compiled policy is inside its endless loop (it writes a file on the way in: the
    event waited for, not a clock; the loader's plain-Python trial of it writes none), and the
    command ends with exit code 1 or 130: a stop that waited for the kernel would never end.
    The time limits are failsafes only."""
    import os
    import signal
    import subprocess
    import sys
    import time

    inside = tmp_path / "inside"
    path = write(tmp_path, f"""
        from numba import objmode
        from numba.extending import overload


        def compiled():
            return False


        @overload(compiled)
        def _compiled():
            return lambda: True


        def hang(obs, legal, n_legal, rules, params, rng):
            if compiled():
                with objmode():
                    open({str(inside)!r}, "a").write("in the loop\\n")
            x = 1
            while x > 0:
                x = (x * 3) % 1000 + 1
            return legal[0]
    """)
    exe = Path(sys.executable).with_name("bezique")
    for command in (["simulate", "--hands", "1000"], ["trace"]):
        inside.unlink(missing_ok=True)
        proc = subprocess.Popen([str(exe), *command, "--policy", f"{path}:hang", "--policy", "random"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "BEZIQUE_PROGRESS_EVERY": "0"})
        try:
            if command[0] == "simulate":
                assert proc.stderr.readline().startswith("simulate: 1,000 hands to play")
            deadline = time.monotonic() + 300
            while not inside.exists():          # compiled, and the kernel in the policy's loop
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the policy was never called"
                time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
            assert proc.returncode in (1, 130), err
            assert "Traceback" not in err, err
        finally:
            proc.kill()                              # never left spinning after a failure
