"""engine/by_address.py: a kernel called by address returns and raises what a plain call does,
its caller's machine code does not hold the callee, and a new process loads the caller from the
cache and runs it (the search calls its roll-outs so: docs/performance.md, "Calls by address")."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import by_address_kernels as K

TESTS = Path(__file__).parent


def test_a_call_by_address_returns_what_the_plain_call_returns():
    x = np.arange(1.0, 6.0)
    assert K.twice_the_sum(x, 3) == pytest.approx(2.0 * K.weighted_sum(x, 3))


def test_an_exception_raised_by_the_callee_reaches_the_caller():
    with pytest.raises(ValueError, match="negative weight"):
        K.twice_the_sum(np.ones(2), -1)


def test_the_callers_code_names_the_callee_and_does_not_hold_it():
    """The callee is declared in the caller's module, not defined there: its machine code is
    generated once, when it compiles (a caller compiled here, not loaded from the cache, whose
    code numba cannot show)."""
    from numba import njit

    @njit(cache=False)
    def caller(x):
        return K.weighted_sum_at(x, 1)

    caller(np.ones(2))
    callee = K.weighted_sum.overloads[K.weighted_sum.signatures[0]].fndesc.mangled_name
    lines = next(iter(caller.inspect_llvm().values())).splitlines()
    assert not any(line.startswith("define") and callee in line for line in lines)
    assert any(line.startswith("declare") and "bezique.by_address_kernels.weighted_sum." in line for line in lines)


def test_a_new_process_loads_the_caller_from_the_cache_and_runs_it(tmp_path):
    """The first process compiles and caches both kernels; the second loads the caller from the
    cache (no compile) and its call resolves the callee's registered name."""
    code = ("import numpy as np, by_address_kernels as K; r = K.twice_the_sum(np.arange(4.0), 2); "
            "print(r, sum(K.twice_the_sum.stats.cache_hits.values()))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(TESTS)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]
    expected = 2.0 * 2.0 * sum(np.sqrt(np.arange(4.0)))
    assert [float(r[0]) for r in runs] == pytest.approx([expected, expected])
    assert runs[0][1] == "0" and runs[1][1] == "1"
