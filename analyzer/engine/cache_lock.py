"""numba's kernel cache made safe for several processes compiling at once (a file lock per cache directory).

numba saves a compiled kernel in two steps that are not atomic together: it reads the cache's
index, picks a data file name not in it, writes the index, then the data. Two processes that
compile the same function at once (two commands started together on an empty cache, a cold Dask
cluster) can each pick ``f.1.nbc`` for a different signature: the index of one then names the data
of the other, and loading it runs machine code compiled for other argument types (a crash, or
wrong numbers; numba issues #4807, #10128). Here the whole save — index read, name chosen, data
written, then index written — runs under an exclusive ``fcntl`` lock on ``numba-cache.lock`` in
the cache's directory, and the data is written before the index names it. Loading needs no lock:
each file is replaced atomically and a data file only ever holds its own key's kernel. The
cache-dropping of ``engine/__init__.py`` takes the same lock (:func:`locked`). Without ``fcntl``
(Windows) nothing is locked, as numba does.
"""
from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows)
    fcntl = None

LOCK_NAME = "numba-cache.lock"


@contextlib.contextmanager
def locked(directory):
    """Hold the exclusive lock of the numba cache in ``directory`` (blocking) while the block runs;
    a directory that cannot hold the lock file (read-only, absent) is not locked."""
    if fcntl is None:
        yield
        return
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        handle = open(Path(directory) / LOCK_NAME, "a+b")
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _locked_save(self, key, data):
    """numba's ``IndexDataCacheFile.save`` under the cache directory's lock, the data written
    before the index that names it."""
    with locked(self._cache_path):
        overloads = self._load_index()
        data_name = overloads.get(key)
        if data_name is None:
            taken = set(overloads.values())
            data_name = next(n for n in (self._data_name(i) for i in itertools.count(1)) if n not in taken)
        self._save_data(data_name, data)
        if overloads.get(key) != data_name:
            overloads[key] = data_name
            self._save_index(overloads)


def install() -> bool:
    """Make numba's cache saves take the lock (once per process); False where numba's cache class
    is not the one this was written for (then numba runs as it is)."""
    from numba.core import caching
    cls = getattr(caching, "IndexDataCacheFile", None)
    needed = ("_load_index", "_save_index", "_save_data", "_data_name")
    if cls is None or fcntl is None or not all(hasattr(cls, n) for n in needed):
        return False
    cls.save = _locked_save
    return True
