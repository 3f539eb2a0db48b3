"""Numba kernels only: state arrays, deal, legal moves, tricks, melds, one hand.

Nothing here imports pandas, matplotlib or click (docs/ARCHITECTURE.md, "Layers").

numba's on-disk cache is checked per source file only: a kernel cached in
``hand.py`` keeps the old code of a function it inlined from ``melds.py`` after
``melds.py`` changes. So the cache of the engine and the built-in policies is
dropped whenever any of their sources (or the rule packing) changes, wherever
numba keeps it (``NUMBA_CACHE_DIR``, ``__pycache__`` or the user-wide cache).
"""
import contextlib
import hashlib
import warnings
from pathlib import Path

from . import cache_lock

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


# modules of engine/, policies/ and learning/ that no kernel imports: a change to them compiles nothing
PYTHON_ONLY = ("__init__.py", "registry.py", "spec.py", "expert_names.py", "hints_names.py", "presets.py", "user.py", "train.py")


def drop_stale_numba_cache(pkg: Path) -> None:
    """Delete cached kernels compiled from sources other than those of now (a digest of them
    is kept beside the cache): any change to the engine, the built-in policies or the rule
    packing drops the kernels of all three and of the training (``learning/``); a change to
    the learned policy (``policies/learned.py``) or the training drops only the learned
    player's and the training's kernels, which nothing else calls (its features, network and
    decision, ``features.py``, ``network.py``, ``learned_net.py``, serve the search's prior too,
    so they count with the policies)."""
    learned = [pkg / "policies" / "learned.py"] + sorted(
        p for p in (pkg / "learning").glob("*.py") if p.name not in PYTHON_ONLY)
    dirs = [pkg / "engine", pkg / "policies", pkg / "learning"]
    base = sorted(p for d in dirs[:2] for p in d.glob("*.py")
                  if p not in learned and p.name not in PYTHON_ONLY) + [pkg / "rules.py"]
    caches = [numba_cache_dir(d / "__init__.py") for d in dirs]
    if caches[0] is None:
        return
    _drop_if_changed(base, caches[0] / "numba-sources.sha256", [(c, "") for c in caches if c])
    _drop_if_changed(learned, caches[0] / "numba-learned.sha256",
                     [(c, p) for c, p in zip(caches[1:], ("learned", "")) if c])


def _drop_if_changed(sources, marker: Path, caches) -> None:
    """Delete the files of each cache of ``caches`` (pairs: the directory, the prefix of the
    files to delete, "" for all) unless ``marker`` holds the digest of ``sources`` as now; under
    the caches' locks (engine/cache_lock.py), so that another process's fresh kernels are never
    dropped for a marker it has already updated."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    with contextlib.ExitStack() as held:
        for directory in sorted({str(marker.parent), *(str(c) for c, _p in caches)}):
            held.enter_context(cache_lock.locked(directory))
        _drop_unless_marked(digest, marker, caches)


def _drop_unless_marked(digest: str, marker: Path, caches) -> None:
    """:func:`_drop_if_changed`'s work, its locks held."""
    try:
        if marker.read_text() == digest:
            return
    except OSError:
        pass
    for cache, prefix in caches:
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            if f.name.startswith(prefix):
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
    return kernel_cached(Path(__file__).resolve().parent / "batch.py", "run_batch")


def kernel_cached(source: Path, function: str) -> bool:
    """Whether the kernel ``function`` of the module file ``source`` is in numba's cache."""
    cache = numba_cache_dir(source)
    return cache is not None and any(cache.glob(f"{source.stem}.{function}-*.nbi"))


cache_lock.install()
drop_stale_numba_cache(Path(__file__).resolve().parent.parent)
