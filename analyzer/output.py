"""Writing results atomically: a file appears whole or not at all."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def atomic_write(path, write) -> Path:
    """Call ``write(tmp_path)`` then move the file into place; return ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def write_table(df, out_dir, name: str, parquet: bool = True) -> list[Path]:
    """Write ``df`` as ``name.csv`` (and ``name.parquet``) in ``out_dir``."""
    out = Path(out_dir)
    paths = [atomic_write(out / f"{name}.csv", lambda p: df.to_csv(p, index=True))]
    if parquet:
        paths.append(atomic_write(out / f"{name}.parquet", lambda p: df.to_parquet(p)))
    return paths


def write_json(obj, path) -> Path:
    """Write ``obj`` as indented JSON."""
    def dump(p):
        with open(p, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return atomic_write(path, dump)


def save_figure(fig, path) -> Path:
    """Save a matplotlib figure atomically (format from the suffix)."""
    suffix = Path(path).suffix.lstrip(".")
    return atomic_write(path, lambda p: fig.savefig(p, format=suffix, dpi=120, bbox_inches="tight"))
