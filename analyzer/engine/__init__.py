"""Numba kernels only: state arrays, deal, legal moves, tricks, melds, one hand.

Nothing here imports pandas, matplotlib or click (docs/ARCHITECTURE.md, "Layers").

numba's on-disk cache is checked per source file only: a kernel cached in
``hand.py`` keeps the old code of a function it inlined from ``melds.py`` after
``melds.py`` changes. So the cache of the engine and the built-in policies is
dropped whenever any of their sources (or the rule packing) changes, wherever
numba keeps it (``NUMBA_CACHE_DIR``, ``__pycache__`` or the user-wide cache).
"""
import hashlib
import warnings
from pathlib import Path

# Policies are first-class numba functions by design (docs/ARCHITECTURE.md, "Policies"); numba still calls the
# feature experimental and would say so at every run.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def numba_cache_dir(source: Path) -> Path | None:
    """The directory where numba caches the kernels of ``source``, found with numba's own
    chain of cache locators; None when it cannot cache them."""
    from numba.core.caching import CacheImpl
    for locator in CacheImpl._locator_classes:
        try:
            found = locator.from_function(numba_cache_dir, str(source))
        except Exception:  # a locator that does not apply (IPython, zip files)
            continue
        if found is not None:
            return Path(found.get_cache_path())
    return None


def drop_stale_numba_cache(pkg: Path) -> None:
    """Delete the cached kernels of ``pkg``'s engine and policies unless they were compiled
    from the sources as they are now (a digest of them is kept beside the cache)."""
    dirs = [pkg / "engine", pkg / "policies"]
    sources = sorted(p for d in dirs for p in d.glob("*.py")) + [pkg / "rules.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    caches = [c for c in (numba_cache_dir(d / "__init__.py") for d in dirs) if c is not None]
    if not caches:
        return
    marker = caches[0] / "numba-sources.sha256"
    try:
        if marker.read_text() == digest:
            return
    except OSError:
        pass
    for cache in caches:
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            try:
                f.unlink()
            except OSError:
                pass
    try:
        marker.write_text(digest)
    except OSError:
        pass     # read-only cache: numba then compiles in memory


def kernels_cached() -> bool:
    """Whether the batch kernel is compiled and cached (else the next run compiles the engine
    first: a minute or two)."""
    cache = numba_cache_dir(Path(__file__).resolve().parent / "batch.py")
    return cache is not None and any(cache.glob("batch.run_batch-*.nbi"))


drop_stale_numba_cache(Path(__file__).resolve().parent.parent)
