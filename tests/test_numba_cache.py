"""The compiled-kernel cache is dropped when any engine or policy source changes, wherever
numba keeps it: a kernel inlines functions from other files, and numba only checks the
file the kernel itself is in."""
from __future__ import annotations

import shutil
from pathlib import Path

import numba
import pytest

from analyzer.engine import drop_stale_numba_cache, numba_cache_dir

PKG = Path(__file__).resolve().parent.parent / "analyzer"


@pytest.fixture
def package_copy(tmp_path):
    """The engine and policy sources (and rules.py) in a throwaway package tree."""
    root = tmp_path / "pkg"
    for sub in ("engine", "policies"):
        (root / sub).mkdir(parents=True)
        for f in (PKG / sub).glob("*.py"):
            shutil.copy(f, root / sub / f.name)
    shutil.copy(PKG / "rules.py", root / "rules.py")
    return root


def fake_kernels(root):
    files = []
    for sub in ("engine", "policies"):
        cache = numba_cache_dir(root / sub / "__init__.py")
        cache.mkdir(parents=True, exist_ok=True)
        for name in ("hand.play_hand-1.py311.nbi", "hand.play_hand-1.py311.1.nbc"):
            (cache / name).write_text("compiled")
            files.append(cache / name)
    return files


@pytest.mark.parametrize("where", ["__pycache__", "NUMBA_CACHE_DIR"])
def test_cached_kernels_dropped_after_a_source_change_and_kept_otherwise(package_copy, tmp_path,
                                                                         monkeypatch, where):
    if where == "NUMBA_CACHE_DIR":
        monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba-cache"))
        assert str(tmp_path / "numba-cache") in str(numba_cache_dir(package_copy / "engine" / "__init__.py"))
    else:
        monkeypatch.setattr(numba.config, "CACHE_DIR", "")
        assert numba_cache_dir(package_copy / "engine" / "__init__.py") == package_copy / "engine" / "__pycache__"
    drop_stale_numba_cache(package_copy)              # first run: records the sources
    files = fake_kernels(package_copy)
    drop_stale_numba_cache(package_copy)              # unchanged sources: cache kept
    assert all(f.exists() for f in files)
    melds = package_copy / "engine" / "melds.py"
    melds.write_text(melds.read_text() + "\n# changed\n")
    drop_stale_numba_cache(package_copy)              # a changed source: every kernel goes
    assert not any(f.exists() for f in files)


def test_a_change_to_the_learned_player_drops_only_its_kernels_and_the_trainings(tmp_path, monkeypatch):
    """The learned policy and the training's kernels are called by nothing else: a change to
    them drops their cache alone (the engine's stays); a change to a module no kernel imports
    (train.py, registry.py) drops nothing; a change to the network, which the expert's search
    calls too, drops every kernel."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    root = tmp_path / "pkg"
    for sub in ("engine", "policies", "learning"):
        (root / sub).mkdir(parents=True)
        for f in (PKG / sub).glob("*.py"):
            shutil.copy(f, root / sub / f.name)
    shutil.copy(PKG / "rules.py", root / "rules.py")
    drop_stale_numba_cache(root)
    names = {"engine": "hand.play_hand-1.py311.nbi", "policies": "hints.hints_policy-1.py311.nbi"}
    learned = {"policies": "learned.learned_policy-1.py311.nbi", "learning": "rollouts.label_chunk-1.py311.nbi"}

    def make():
        files = {}
        for group in (names, learned):
            for sub, name in group.items():
                cache = numba_cache_dir(root / sub / "__init__.py")
                cache.mkdir(parents=True, exist_ok=True)
                (cache / name).write_text("compiled")
                files[name] = cache / name
        return files

    files = make()
    for quiet in ("learning/train.py", "policies/spec.py"):
        (root / quiet).write_text((root / quiet).read_text() + "\n# changed\n")
        drop_stale_numba_cache(root)
        assert all(f.exists() for f in files.values()), quiet
    policy = root / "policies" / "learned.py"
    policy.write_text(policy.read_text() + "\n# changed\n")
    drop_stale_numba_cache(root)
    assert all(files[n].exists() for n in names.values())
    assert not any(files[n].exists() for n in learned.values())
    files = make()
    net = root / "policies" / "learned_net.py"
    net.write_text(net.read_text() + "\n# changed\n")
    drop_stale_numba_cache(root)
    assert not any(f.exists() for f in files.values())
    files = make()
    hints = root / "policies" / "hints.py"
    hints.write_text(hints.read_text() + "\n# changed\n")
    drop_stale_numba_cache(root)
    assert not any(f.exists() for f in files.values())


SAVER = """
import sys, time
from pathlib import Path
import analyzer.engine                      # installs the cache lock (engine/cache_lock.py)
from numba.core.caching import IndexDataCacheFile
cache, worker, go = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
index = IndexDataCacheFile(str(cache), "kernel", "stamp")
(go.parent / f"ready-{worker}").touch()     # imported and about to wait for the signal
while not go.exists():
    time.sleep(0.001)
for i in range(40):
    index.save((worker, i), ("compiled for", worker, i))
"""


def test_kernels_saved_by_several_processes_at_once_each_load_as_their_own(tmp_path):
    """Six processes saving 40 kernels each into one numba cache at the same moment (as two
    commands on a cold cache, or a cold Dask cluster, compile at once): every kernel is in the
    index and loads as its own. numba alone loses index entries and lets one signature's entry
    name another's data file (numba #4807); the lock of engine/cache_lock.py serializes saves."""
    import subprocess
    import sys
    import time
    from numba.core.caching import IndexDataCacheFile
    go = tmp_path / "go"
    (tmp_path / "cache").mkdir()             # numba makes it before it saves
    procs = [subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path / "cache"), str(w), str(go)])
             for w in range(6)]
    deadline = time.monotonic() + 120        # a failsafe: the event is every process saying it is ready
    while not all((tmp_path / f"ready-{w}").exists() for w in range(6)):
        assert all(p.poll() is None for p in procs), [p.poll() for p in procs]
        assert time.monotonic() < deadline, "the saving processes never got ready"
        time.sleep(0.01)
    go.touch()                               # every process imported numba and waits for the signal
    assert [p.wait(120) for p in procs] == [0] * 6
    index = IndexDataCacheFile(str(tmp_path / "cache"), "kernel", "stamp")
    for w in range(6):
        for i in range(40):
            assert index.load((w, i)) == ("compiled for", w, i), (w, i)
    assert not list((tmp_path / "cache").glob("*.tmp.*"))
