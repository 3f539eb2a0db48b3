"""The learned player (``learned``): the action of highest value under a network trained by
self-play (``bezique train``), one model per game, and the exact solver in a two-handed
second stage.

The weights are package data (``policies/learned/<game>.npz``) or a file given as
``learned:weights=FILE``. A model file holds the flat weight vector, the format version, the
network's sizes and the game it was trained for (ordinary: two or three packs; Rubicon: four),
with the facts of its training run. The policy kernel finds the weights at an address kept in
its parameter vector (``L_WEIGHTS_ORDINARY``, ``L_WEIGHTS_RUBICON``); the PolicySpec keeps the
arrays alive, and a process that receives a spec by pickling resolves the name again and so
gets addresses of its own (registry._rebuild_spec).
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.layout import OBS_PACKS, POLICY_SIG
from .endgame import exact_endgame_action, is_exact_decision
from .learned_net import (
    FORMAT_VERSION,
    MAX_ACTION_NZ,
    N_ACTION,
    N_H1,
    N_H2,
    N_STATE,
    N_WEIGHTS,
    SCRATCH,
    best_action,
    weights_at,
)
from .params import L_WEIGHTS_ORDINARY, L_WEIGHTS_RUBICON

MODEL_DIR = Path(__file__).parent / "learned"
GAMES = ("ordinary", "rubicon")


class ModelError(ValueError):
    """A weights file that cannot be used (the message names the file)."""


@njit(POLICY_SIG, cache=True)
def learned_policy(obs, legal, n_legal, rules, params, rng):
    """The legal action of highest Q under the model of this game (four packs: Rubicon's);
    a two-handed second stage by the exact solver. A game whose model is missing plays the
    first legal action (the registry refuses such a rule set before play)."""
    if is_exact_decision(obs):
        return exact_endgame_action(rules, obs, legal, n_legal)
    address = np.int64(params[L_WEIGHTS_RUBICON] if obs[OBS_PACKS] == 4 else params[L_WEIGHTS_ORDINARY])
    if address == 0:
        return legal[0]
    scratch = np.empty(SCRATCH, np.float32)
    idx = np.empty(MAX_ACTION_NZ, np.int64)
    return legal[best_action(weights_at(address), obs, rules, legal, n_legal, scratch, idx, rng)]


def untrained_reason(rules) -> str | None:
    """Why the shipped models should not play ``rules`` (None: they play it well). Measured on
    fresh deals against the tuned hints (results/learned/variants.csv): the ordinary model
    serves V1, V2, V3 and V6 (+29 to +55 points per hand) but only draws level with three packs
    (V7), and the Rubicon model serves ``redeclare=replace`` but not ``same_or_higher``."""
    if not rules.is_rubicon and rules.packs == 3:
        return ("the ordinary model was trained with two packs and plays three (V7) no better than "
                "hints:tuned-ordinary")
    if rules.is_rubicon and rules.redeclare == "same_or_higher":
        return ("the Rubicon model was trained under redeclare=portland and plays redeclare=same_or_higher "
                "no better than hints:tuned-rubicon")
    return None


def game_of(rules) -> str:
    """The model a rule set needs: ``rubicon`` or ``ordinary``."""
    return "rubicon" if rules.is_rubicon else "ordinary"


def save_model(path, weights: np.ndarray, game: str, training: dict) -> None:
    """Write a model file (npz): the weights, the format, the sizes, the game and ``training``
    (the facts of the run that made it)."""
    meta = {"format": FORMAT_VERSION, "game": game, "n_state": N_STATE, "n_action": N_ACTION,
            "n_h1": N_H1, "n_h2": N_H2, "training": training}
    with open(path, "wb") as f:
        np.savez(f, weights=np.asarray(weights, np.float32), meta=np.array(json.dumps(meta)))


def load_model(path, game: str | None = None) -> tuple[np.ndarray, dict]:
    """(weights, meta) of the model file ``path``; ModelError naming the file when it is
    missing, unreadable or truncated, of another format version or size, or (``game`` given)
    made for another game."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such weights file")
    try:
        with np.load(path, allow_pickle=False) as z:
            weights = np.ascontiguousarray(z["weights"], np.float32)
            meta = json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, json.JSONDecodeError) as e:
        raise ModelError(f"{path}: not a readable weights file ({type(e).__name__}: {e})") from None
    if meta.get("format") != FORMAT_VERSION:
        raise ModelError(f"{path}: weights of format {meta.get('format')!r}; this version reads "
                         f"format {FORMAT_VERSION}")
    sizes = (meta.get("n_state"), meta.get("n_action"), meta.get("n_h1"), meta.get("n_h2"))
    if sizes != (N_STATE, N_ACTION, N_H1, N_H2) or weights.shape != (N_WEIGHTS,):
        raise ModelError(f"{path}: a network of sizes {sizes} and {weights.size} weights; this "
                         f"version has {(N_STATE, N_ACTION, N_H1, N_H2)} and {N_WEIGHTS}")
    if meta.get("game") not in GAMES:
        raise ModelError(f"{path}: made for an unknown game {meta.get('game')!r}")
    if game is not None and meta["game"] != game:
        raise ModelError(f"{path}: made for {meta['game']}, not {game}")
    if not np.all(np.isfinite(weights)):
        raise ModelError(f"{path}: weights that are not finite numbers")
    return weights, meta


def shipped_model(game: str) -> Path:
    """The package's model file of ``game``."""
    return MODEL_DIR / f"{game}.npz"


def model_slot(game: str) -> int:
    """The parameter slot holding the address of ``game``'s weights."""
    return L_WEIGHTS_RUBICON if game == "rubicon" else L_WEIGHTS_ORDINARY
