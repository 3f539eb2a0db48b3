"""The suite's session. On a cold kernel cache (a fresh clone), the kernels most tests need are
compiled once, before the workers start, in two processes side by side
(run/compiling.compile_side_by_side), instead of by every pytest-xdist worker at once, each
compiling the same kernels as the other: one compiles the batch kernel, then the one-hand driver
and the kernels some tests compile on their first call (tests/suite_warmup.py); the other the
policies, then the search, which calls them and loads them from the cache. Each process goes on
as soon as what it needs is compiled: the search does not wait for the batch kernel, which it
does not call (100-110 s on 2 cores from an empty cache, against 116-135 s when both waited for
the batch kernel and the policies). A warm cache is only looked at.

Each process of the suite keeps its compiled test modules (pytest's assertion rewriting) and the
package's modules in __pycache__ even where PYTHONDONTWRITEBYTECODE is set, as on this project's
CI machines: otherwise the controller and every worker rewrite and compile them all again on every
run (collection 6.6 s instead of 3.4 s on 2 cores)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from suite_warmup import WARMING

sys.dont_write_bytecode = False


def pytest_configure(config):
    if hasattr(config, "workerinput") or os.environ.get(WARMING):
        return                  # a pytest-xdist worker, or suite_warmup's session: done by the controller
    import analyzer
    from analyzer.cli.console import BATCH_MODULE, LATER_GROUPS, LATER_KERNELS, POLICY_KERNEL_MODULES
    from analyzer.engine import kernel_cached, kernels_cached
    from analyzer.run.compiling import compile_side_by_side

    package = Path(analyzer.__file__).parent
    cold = not kernels_cached()
    driver, search = (not all(kernel_cached(package / source, function) for source, function in kernels)
                      for kernels in LATER_KERNELS)
    first = ([BATCH_MODULE] if cold else []) + (list(LATER_GROUPS[0]) if driver else [])
    first += ["suite_warmup"] if driver or search else []
    second = (list(POLICY_KERNEL_MODULES) if cold else []) + (list(LATER_GROUPS[1]) if search else [])
    groups = [group for group in (first, second) if group]
    if groups:
        tests_path = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
        compile_side_by_side(groups, env={"PYTHONPATH": tests_path, WARMING: "now"})
