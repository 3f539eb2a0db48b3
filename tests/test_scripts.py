"""The scripts of scripts/ (benchmarks, profiles, checks) still import: a module of the package
moved or renamed breaks them silently otherwise, as it had broken scripts/scaling.py (bench.py
--scaling) and scripts/train_methods.py."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def test_every_script_imports():
    names = sorted(p.stem for p in SCRIPTS.glob("*.py"))
    code = f"import sys; sys.path.insert(0, {str(SCRIPTS)!r}); import " + ", ".join(names)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert len(names) >= 14
