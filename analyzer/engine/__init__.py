"""Numba kernels only: state arrays, deal, legal moves, tricks, melds, one hand.

Nothing here imports pandas, matplotlib or click (DESIGN.md).

numba's on-disk cache is checked per source file only: a kernel cached in
``hand.py`` keeps the old code of a function it inlined from ``melds.py`` after
``melds.py`` changes. So the cache of the engine and the built-in policies is
dropped whenever any of their sources (or the rule packing) changes.
"""
import hashlib
from pathlib import Path


def _drop_stale_numba_cache() -> None:
    pkg = Path(__file__).resolve().parent.parent
    dirs = [pkg / "engine", pkg / "policies"]
    sources = sorted(p for d in dirs for p in d.glob("*.py")) + [pkg / "rules.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    marker = pkg / "engine" / "__pycache__" / "numba-sources.sha256"
    try:
        if marker.read_text() == digest:
            return
    except OSError:
        pass
    for d in dirs:
        for f in list((d / "__pycache__").glob("*.nbi")) + list((d / "__pycache__").glob("*.nbc")):
            try:
                f.unlink()
            except OSError:
                pass
    try:
        marker.parent.mkdir(exist_ok=True)
        marker.write_text(digest)
    except OSError:
        pass     # read-only install: numba then compiles in memory


_drop_stale_numba_cache()
