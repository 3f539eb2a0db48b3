"""The tuned presets stored in the package (``hints:tuned-ordinary`` …): the hint weights
that ``bezique tune`` found, one JSON file per variant in ``policies/tuned/``."""
from __future__ import annotations

import json
from pathlib import Path

TUNED_DIR = Path(__file__).parent / "tuned"
PRESET_VERSION = 1


def load_preset(name: str) -> dict:
    """A tuned preset stored in the package (``tuned-ordinary`` …), or KeyError."""
    path = TUNED_DIR / f"{name}.json"
    if not path.is_file():
        raise KeyError(name)
    return json.loads(path.read_text())


def preset_names() -> list[str]:
    """The tuned presets stored in the package."""
    return sorted(p.stem for p in TUNED_DIR.glob("*.json")) if TUNED_DIR.is_dir() else []
