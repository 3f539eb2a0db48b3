"""The suite's session. On a cold kernel cache (a fresh clone), the kernels most tests need are
compiled once, before the workers start, each set in a process of its own side by side
(run/compiling.compile_side_by_side), instead of by every pytest-xdist worker at once, each
compiling the same kernels as the other: first the batch kernel beside the policies, then the
later groups (the one-hand driver, the search), which call them, and after the driver, in its
process, the kernels some tests compile on their first call (tests/suite_warmup.py), on the core
the driver would leave idle while the search compiles; a warm cache is only looked at.

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
    if not kernels_cached():
        compile_side_by_side([(BATCH_MODULE,), POLICY_KERNEL_MODULES])
    # after the first two: the later groups load the engine's and the policies' kernels they
    # call from the cache instead of compiling them again beside them (a quarter less work)
    later = [group for group, kernels in zip(LATER_GROUPS, LATER_KERNELS)
             if not all(kernel_cached(package / source, function) for source, function in kernels)]
    if later:
        # the first group's process then compiles what some tests compile on their first call
        tests_path = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
        compile_side_by_side([(*later[0], "suite_warmup"), *later[1:]], env={"PYTHONPATH": tests_path, WARMING: "now"})
