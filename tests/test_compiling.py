"""The first run says what numba compiles while it compiles (analyzer/run/compiling.py), and the
progress bar's rate and time left are measured after the compile, never across it."""
from __future__ import annotations

from analyzer.cli import console
from analyzer.run.compiling import CompileWatch


def test_a_long_compile_is_named_every_interval_and_summed_up_at_its_end():
    said = []
    watch = CompileWatch(said.append, every=30.0, first=5.0)
    watch.on_start("analyzer.engine.batch.run_batch")
    t0 = watch.burst_start
    watch.tick(t0 + 1)                              # a short compile stays silent
    assert said == [] and watch.busy
    watch.on_start("analyzer.engine.play.play_out")
    watch.on_end()                                  # play_out done: one function
    watch.on_start("analyzer.engine.hand.apply")
    watch.tick(t0 + 6)
    assert len(said) == 1
    assert "now engine.batch.run_batch > engine.hand.apply" in said[0] and "1 functions done" in said[0]
    assert "6 s so far" in said[0]
    watch.tick(t0 + 20)                             # not yet 30 s since the last line
    assert len(said) == 1
    watch.tick(t0 + 37)
    assert len(said) == 2 and "37 s so far" in said[1]
    watch.on_end()
    watch.on_end()
    assert not watch.busy
    watch.tick(watch.quiet_since + 2)
    assert said[2].startswith("compiled 3 functions in ")
    watch.tick(watch.quiet_since + 60)              # said once
    assert len(said) == 3


def test_a_compile_that_never_spoke_ends_silently():
    said = []
    watch = CompileWatch(said.append, every=30.0, first=5.0)
    watch.on_start("analyzer.policies.builtin.greedy_policy")
    watch.on_end()
    watch.tick(watch.quiet_since + 2)
    assert said == [] and watch.burst_start is None


def test_the_watch_hears_numba_compile():
    from numba import njit
    said = []
    watch = CompileWatch(said.append, every=0.0, first=0.0).start()
    try:
        before = watch.quiet_since

        @njit(cache=False)
        def plus_one(x):
            return x + 1

        assert plus_one(1) == 2
        assert watch.functions >= 1 and not watch.busy and watch.quiet_since > before
    finally:
        watch.stop()
    assert said == [] or said[-1].startswith("compiled ")    # spoke only if a tick fell inside


class _Clock:
    def __init__(self):
        self.t = 1000.0

    def monotonic(self):
        return self.t


class _Watch:
    busy = False
    quiet_since = 0.0


def test_the_rate_and_time_left_leave_the_compile_out(monkeypatch, capsys):
    clock, watch = _Clock(), _Watch()
    monkeypatch.setattr(console, "time", clock)
    monkeypatch.setattr(console, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(console, "WATCH", [watch])
    with console.progress_bar(1000, "hand", "simulate") as update:
        watch.busy = True                          # 100 s of compiling, then the first chunk
        clock.t += 100
        watch.busy, watch.quiet_since = False, clock.t
        clock.t += 1
        update(100)                                # no rate across the compile
        clock.t += 1
        update(100)                                # 100 hands in the 1 s since
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[1] == "simulate: 200 of 1,000 hands (20%), 100 hands/s, about 8 s left"


def loaded_after(code: str, modules: tuple[str, ...], also: str = "None") -> list[str]:
    """Run ``code`` in a fresh interpreter; the ``modules`` it loaded (sorted), then ``also``
    evaluated there, as the words printed."""
    import subprocess
    import sys
    probe = f"; import sys; print(sorted(m for m in {modules!r} if m in sys.modules), {also})"
    return subprocess.run([sys.executable, "-c", code + probe], capture_output=True, text=True,
                          check=True).stdout.split()


def test_a_batch_run_loads_neither_the_search_nor_the_one_hand_driver():
    """The kernels with explicit signatures compile when their module is imported: a command
    that plays batches of the built-in heuristics must not import the search player's
    (policies/expert.py) nor the replay's (engine/single.py), which cost minutes cold."""
    out = loaded_after("from analyzer.policies.spec import resolve_policy; import analyzer.run.records; "
                       "spec = resolve_policy('expert:samples=8'); resolve_policy('hints')",
                       ("analyzer.policies.expert", "analyzer.engine.single", "analyzer.engine.scripted",
                        "analyzer.engine.replay"), also="spec.kernel")
    assert out == ["[]", "analyzer.policies.expert:expert_policy"]


def test_trace_loads_neither_the_replay_nor_the_games_kernel_nor_the_search():
    """The first trace after the main job compiles only the one-hand driver (engine/single.py, a
    few seconds cold): its command's module must not import the replay's checks
    (engine/scripted.py, engine/replay.py: half a minute cold), the games kernel or the search."""
    out = loaded_after("import analyzer.cli.play", ("analyzer.engine.scripted", "analyzer.engine.replay",
                                                    "analyzer.engine.game_kernel", "analyzer.policies.expert"),
                       also="'analyzer.engine.single' in sys.modules")
    assert out == ["[]", "True"]


def test_the_suites_warmup_loads_no_search():
    """On a cold cache tests/conftest.py runs tests/suite_warmup.py beside the search's compile:
    if its tests' modules loaded the search, that process would compile it a second time (a
    minute); importing suite_warmup alone runs nothing."""
    import suite_warmup
    modules = sorted({test.split(".py")[0] for test in suite_warmup.TESTS})
    out = loaded_after(f"import sys; sys.path.insert(0, 'tests'); import suite_warmup, {', '.join(modules)}",
                       ("analyzer.policies.expert", "analyzer.learning.steps"), also="'WARMING' in dir(suite_warmup)")
    assert out == ["[]", "True"]


def test_the_search_loads_on_first_use():
    from analyzer.policies.expert import expert_policy
    from analyzer.policies.spec import resolve_policy
    assert resolve_policy("expert").function is expert_policy
    assert resolve_policy("cheat-sees-hand").function is expert_policy


def test_compile_profile_counts_a_callee_compiled_apart_once():
    """run/compiling.CompileProfile (scripts/compile_profile.py): a function's own time leaves out a
    callee compiled apart, its time with callees includes it, and each compile is counted."""
    from numba import njit

    from analyzer.run.compiling import CompileProfile

    @njit(cache=False)
    def inner(x):
        return x * 3

    @njit(cache=False)
    def outer(x):
        return inner(x) + 1

    with CompileProfile() as prof:
        assert outer(2) == 7
    outer_name = next(n for n in prof.count if n.endswith("outer"))
    inner_name = next(n for n in prof.count if n.endswith("inner"))
    assert prof.count[outer_name] == 1 and prof.count[inner_name] == 1
    assert prof.total[outer_name] >= prof.total[inner_name] > 0
    assert abs(prof.own[outer_name] - (prof.total[outer_name] - prof.total[inner_name])) < 1e-6
    assert outer(3) == 10 and sum(prof.count.values()) == 2          # the block is over: nothing more counted


def test_compile_beside_imports_one_set_here_and_the_other_in_a_second_process(tmp_path, monkeypatch):
    """run/compiling.compile_beside: the modules ``here`` load in this process, those ``beside``
    in another one that has ended when it returns; a helper that fails costs nothing."""
    import os
    import sys

    from analyzer.run.compiling import compile_beside

    (tmp_path / "mod_here.py").write_text("import os\nPID = os.getpid()\n")
    (tmp_path / "mod_beside.py").write_text(
        f"import os, pathlib\npathlib.Path({str(tmp_path / 'beside.pid')!r}).write_text(str(os.getpid()))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    assert compile_beside(["mod_here"], ["mod_beside"]) is True
    assert sys.modules["mod_here"].PID == os.getpid()
    assert "mod_beside" not in sys.modules
    assert int((tmp_path / "beside.pid").read_text()) != os.getpid()
    assert compile_beside(["mod_here"], ["no_such_module_here"]) is False


def test_the_policies_compiled_beside_compile_at_import_and_leave_the_batch_kernel_alone():
    """What the cold start compiles in its second process (console.POLICY_KERNEL_MODULES): policy
    modules (spec.POLICY_MODULES, or the kernels of one: hints_names.py names hints.py's) whose
    kernels have explicit signatures, so importing them
    compiles them, and which do not import the batch kernel, which this process compiles
    meanwhile (else both would compile it)."""
    import subprocess
    import sys

    from analyzer.policies import spec
    mods = console.POLICY_KERNEL_MODULES
    assert all(m in spec.POLICY_MODULES or f"{m}_names" in spec.POLICY_MODULES for m in mods)
    code = (f"import sys, importlib; ms = [importlib.import_module(m) for m in {list(mods)!r}]; "
            "print('analyzer.engine.batch' in sys.modules, "
            "all(any(getattr(v, 'signatures', None) and v.py_func.__module__ == m.__name__ "
            "for v in vars(m).values()) for m in ms))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
    import importlib
    assert hasattr(importlib.import_module(console.BATCH_MODULE), "run_batch")


def test_a_detached_compile_runs_each_group_in_its_own_process_and_is_waited_for(tmp_path, monkeypatch):
    """run/compiling.compile_detached: each group is imported in a process of its own, the marker
    names the running process from the moment it starts and goes when it ends; wait_for_detached
    waits for it (and returns at once when none runs)."""
    import os
    import time

    from analyzer.run.compiling import compile_detached, detached_running, wait_for_detached

    for name in ("slow_a", "slow_b"):
        (tmp_path / f"{name}.py").write_text(
            f"import os, pathlib, time\ntime.sleep(0.5)\npathlib.Path({str(tmp_path / name)!r}).write_text(str(os.getpid()))\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    marker = tmp_path / "compiling.pid"
    t0 = time.monotonic()
    proc = compile_detached([["slow_a"], ["slow_b"]], marker)
    assert detached_running(marker) and int(marker.read_text()) == proc.pid
    assert wait_for_detached(marker) > 0.3 and not marker.exists() and not detached_running(marker)
    assert time.monotonic() - t0 < 5                      # side by side, not one after the other
    pids = {int((tmp_path / n).read_text()) for n in ("slow_a", "slow_b")}
    assert len(pids) == 2 and os.getpid() not in pids and proc.pid not in pids
    proc.wait()
    assert wait_for_detached(marker) == 0


def test_the_first_run_compiles_the_later_kernels_beside_it_and_their_commands_wait(tmp_path, monkeypatch, capsys):
    """cli/console: a run that found the cache cold starts the detached compile of the kernels of
    trace, replay, analyze and review (and says so; test_output: as it starts); a warm run, or one whose
    later kernels are cached, starts none; those commands wait while it runs, saying so."""
    import subprocess
    import sys
    import time

    from analyzer.cli import LATER_COMMANDS
    from analyzer.engine import kernel_cached

    started = []
    monkeypatch.setattr(console, "compile_detached", lambda groups, marker: started.append((groups, marker)))
    cached = [True]
    monkeypatch.setattr(console, "later_kernels", lambda: (tmp_path / "later.pid", cached[0]))
    monkeypatch.setattr(console, "COLD", [])
    assert console.compile_later() is False and not started             # a warm run
    console.COLD.append(True)
    assert console.compile_later() is False and not started             # cached already
    cached[0] = False
    assert console.compile_later() is True and started == [(console.LATER_GROUPS, tmp_path / "later.pid")]
    assert "compile in the background as well, at the lowest priority" in capsys.readouterr().err
    # the kernels named are those the groups' modules compile when imported
    package = console.Path(console.__file__).resolve().parent.parent
    for modules, kernels in zip(console.LATER_GROUPS, console.LATER_KERNELS, strict=True):
        for module, (source, function) in zip(modules, kernels, strict=True):
            assert module.replace(".", "/").removeprefix("analyzer/") + ".py" == source
            assert getattr(__import__(module, fromlist=[function]), function).signatures
            assert kernel_cached(package / source, function)     # imported: compiled, or loaded, and cached
    assert set(LATER_COMMANDS) == {"trace", "replay", "analyze", "review"}
    assert all(set(needs) <= set(console.EVERY_LATER_KERNEL) for needs in LATER_COMMANDS.values())
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1)"])
    (tmp_path / "later.pid").write_text(str(sleeper.pid))
    monkeypatch.setattr("analyzer.engine.kernels_cached", lambda: True)
    monkeypatch.setattr(console, "later_cached", lambda functions: False)
    t0 = time.monotonic()
    console.watch_compiles(later=console.EVERY_LATER_KERNEL)
    sleeper.wait()
    assert time.monotonic() - t0 > 0.5 and "waiting for those this command needs" in capsys.readouterr().err


def test_trace_waits_for_the_one_hand_driver_alone(tmp_path, monkeypatch, capsys):
    """cli/console: the one-hand driver of trace compiles first in the detached compile; a trace
    started while the rest (the replay's checks, the search) still compiles does not wait for them."""
    import subprocess
    import sys
    import time

    from analyzer.cli import LATER_COMMANDS

    assert console.LATER_GROUPS[0][0] == "analyzer.engine.single"        # compiled first
    assert LATER_COMMANDS["trace"] == ("play_single",)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    (tmp_path / "later.pid").write_text(str(sleeper.pid))
    monkeypatch.setattr(console, "later_kernels", lambda: (tmp_path / "later.pid", False))
    monkeypatch.setattr("analyzer.engine.kernels_cached", lambda: True)
    asked = []
    monkeypatch.setattr(console, "later_cached", lambda functions: asked.append(functions) or functions == ("play_single",))
    t0 = time.monotonic()
    console.watch_compiles(later=LATER_COMMANDS["trace"])
    assert time.monotonic() - t0 < 2 and asked == [("play_single",)] and "waiting" not in capsys.readouterr().err
    ready = time.monotonic() + 1                       # replay's kernel cached a second from now
    monkeypatch.setattr(console, "later_cached", lambda functions: time.monotonic() > ready)
    console.watch_compiles(later=LATER_COMMANDS["replay"])
    waited = time.monotonic() - t0
    assert 0.8 < waited < 4 and "waiting for those this command needs" in capsys.readouterr().err
    sleeper.kill()
    sleeper.wait()


def test_a_commands_help_compiles_nothing_on_a_cold_cache(tmp_path):
    """``bezique simulate --help`` and ``analyze --help`` on an empty kernel cache answer at once:
    the command's module is imported with numba's compiler off (each would compile its kernels
    at import, a minute or more, for a page of help), so no kernel is cached and none said so."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    for command in ("simulate", "analyze"):
        run = subprocess.run([sys.executable, "-m", "analyzer.cli", command, "--help"], env=env,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "Example:" in run.stdout, run.stdout + run.stderr
        assert "compiling" not in run.stdout + run.stderr
    assert not list(tmp_path.rglob("*.nbi")) and not list(tmp_path.rglob("*.nbc"))
