"""The learned player (``learned``): the action of highest value under a network trained by
self-play (``bezique train``), one model per game, and the exact solver in a two-handed
second stage.

The weights are package data (``policies/learned/<game>.npz``) or a file given as
``learned:weights=FILE``. A model file holds the flat weight vector, the format version, the
network's sizes and the game it was trained for (ordinary: two or three packs; Rubicon: four),
with the facts of its training run. The policy reads the model of the game being played from its
seat's data (``SeatData.weights``: the driver hands each seat the model of the rules' game,
``PolicySpec.weights_for``), and works in the seat's working memory.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.policy_data import POLICY_SIG, new_params
from ..errors import BeziqueError
from .exact_endgame import exact_endgame_action, is_exact_decision
from .features import N_ACTION, N_STATE
from .learned_net import best_action
from .network import FORMAT_VERSION, LATE_HEADER, N_H1, N_H2, N_WEIGHTS, late_block, net_size
from .spec import PolicyError, PolicySpec, register, settings_of

MODEL_DIR = Path(__file__).parent / "learned"
GAMES = ("ordinary", "rubicon")


class ModelError(BeziqueError, ValueError):
    """A weights file that cannot be used (the message names the file)."""


@njit(POLICY_SIG, cache=True, _nrt=False)
def learned_policy(obs, legal, n_legal, rules, params, rng, data):
    """The legal action of highest Q under the seat's model (``data.weights``, the model of
    this game); a two-handed second stage by the exact solver. A seat given no model plays the
    first legal action (the registry refuses such a rule set before play)."""
    if is_exact_decision(obs):
        return exact_endgame_action(rules, obs, legal, n_legal, data)
    if data.weights.shape[0] < N_WEIGHTS:
        return legal[0]
    return legal[best_action(data.weights, obs, rules, legal, n_legal, rng, data)]


def untrained_reason(rules) -> str | None:
    """Why the shipped models should not play ``rules`` (None: they play it well). Measured on
    fresh deals against the tuned hints (results/learned/variants.csv): the ordinary model
    serves V1, V2, V3 and V6 (+29 to +55 points per hand) but only draws level with three packs
    (V7), and the Rubicon model serves ``redeclare=replace`` but not ``same_or_higher``."""
    if not rules.is_rubicon and rules.packs == 3:
        return ("the ordinary model was trained with two packs and plays three (V7) no better than "
                "hints:tuned-ordinary-h8")
    if rules.is_rubicon and rules.redeclare == "same_or_higher":
        return ("the Rubicon model was trained under redeclare=portland and plays redeclare=same_or_higher "
                "no better than hints:tuned-rubicon-h8")
    return None


def save_model(path, weights: np.ndarray, game: str, training: dict) -> None:
    """Write a model file (npz): the weights, the format, the sizes, the game and ``training``
    (the facts of the run that made it)."""
    meta = {"format": FORMAT_VERSION, "game": game, "n_state": N_STATE, "n_action": N_ACTION,
            "n_h1": N_H1, "n_h2": N_H2, "training": training}
    o, cards, h1, h2 = late_block(np.asarray(weights, np.float32))
    if o >= 0:
        meta["late"] = {"cards": cards, "n_h1": h1, "n_h2": h2}
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
    late = meta.get("late")
    want = N_WEIGHTS if late is None else N_WEIGHTS + LATE_HEADER + net_size(late.get("n_h1", 0), late.get("n_h2", 0))
    if sizes != (N_STATE, N_ACTION, N_H1, N_H2) or weights.shape != (want,):
        raise ModelError(f"{path}: a network of sizes {sizes} and {weights.size} weights; this "
                         f"version has {(N_STATE, N_ACTION, N_H1, N_H2)} and {want}"
                         + (" with its late network" if late else ""))
    if late is not None and tuple(late_block(weights)) != (N_WEIGHTS + LATE_HEADER, late["cards"], late["n_h1"],
                                                            late["n_h2"]):
        raise ModelError(f"{path}: its late network's block does not match what the file says of it ({late})")
    if meta.get("game") not in GAMES:
        raise ModelError(f"{path}: made for an unknown game {meta.get('game')!r}")
    if game is not None and meta["game"] != game:
        raise ModelError(f"{path}: made for {meta['game']}, not {game}")
    if not np.all(np.isfinite(weights)):
        raise ModelError(f"{path}: weights that are not finite numbers")
    return weights, meta


def shipped_model(game: str, player: int = 1) -> Path:
    """The package's model file of ``game``: the strongest (``player`` 1, what ``learned``
    plays), or another strong player trained apart from it (``learned:player=N``)."""
    return MODEL_DIR / (f"{game}.npz" if player == 1 else f"{game}-{player}.npz")


def shipped_players(game: str) -> list[int]:
    """The numbers of the package's strong players of ``game`` (1 first: ``learned``)."""
    return [p for p in range(1, MAX_PLAYERS + 1) if shipped_model(game, p).is_file()]


def shipped_player_name(player: int, policy: str = "learned") -> str:
    """The name of the package's strong player number ``player``: ``learned`` for 1 (``policy``
    itself), else ``learned:player=N`` (``policy`` with ``:player=N``)."""
    return policy if player == 1 else f"{policy}:player={player}"


def shipped_player_number(name: str) -> int | None:
    """The number of the shipped strong player named ``name`` (:func:`shipped_player_name`:
    ``learned`` 1, ``learned:player=N`` N); returns None for any other name."""
    number = "1" if name == "learned" else name.removeprefix("learned:player=")
    return int(number) if number.isdigit() else None


# --- the names: learned, learned:SETTINGS -----------------------------------------------------

LEARNED_CHUNK = 1024        # the learned player: a network per decision and an exact second stage
MAX_PLAYERS = 9             # shipped strong players per game: learned, learned:player=2 …


def learned_spec(name: str) -> PolicySpec:
    """Parse ``learned`` (the package's strongest models, one per game), ``learned:player=N``
    (the package's N-th strong player, trained apart from the first), ``learned:weights=FILE``
    (one model file, e.g. a checkpoint of ``bezique train``, for the game it was made for) and
    ``learned:rules=any`` (play rule sets it was not trained for and does not play well)."""
    given = None                         # (game, weights, meta) of weights=FILE
    player = 1
    refuses = untrained_reason
    try:
        for key, sep, value, item in settings_of(name):
            if key == "rules" and value == "any":
                refuses = None
                continue
            if key == "player" and sep:
                if not value.isdigit() or not 1 <= int(value) <= MAX_PLAYERS:
                    raise PolicyError(f"{name!r}: player is a number from 1 to {MAX_PLAYERS} (got {value!r})")
                player = int(value)
                continue
            if key != "weights" or not sep or not value:
                raise PolicyError(f"{name!r}: settings are player=N, weights=FILE and rules=any (got {item!r})")
            w, meta = load_model(value)
            given = (meta["game"], w, meta)
            name = name.replace(item, f"weights={Path(value).resolve()}")
        if given and player != 1:
            raise PolicyError(f"{name!r}: give player=N or weights=FILE, not both")
        # the shipped models: a game without one is refused by check_rules
        models = [given] if given else [(g, *load_model(shipped_model(g, player), g))
                                        for g in GAMES if shipped_model(g, player).is_file()]
    except ModelError as e:
        raise PolicyError(str(e)) from None
    games = tuple(game for game, _w, _meta in models)
    runs = [f"{game}: {meta.get('training', {}).get('summary', 'trained by bezique train')}"
            for game, _w, meta in models]
    if not games:
        have = ", ".join(f"{g}: {', '.join(map(str, shipped_players(g))) or 'none'}" for g in GAMES)
        raise PolicyError(f"{name!r}: no learned model {shipped_model(GAMES[0], player).name} is installed "
                          f"(the package's strong players by game: {have})")
    return PolicySpec(name, learned_policy, new_params(),
                      description="learned by self-play (" + "; ".join(runs) + ")",
                      hands_per_chunk=LEARNED_CHUNK, max_players=2, games=games,
                      models=tuple((game, w) for game, w, _meta in models), solver=True,
                      refuses=refuses, source=name if refuses is None or given else None)



def _describe() -> list[str]:
    """The lines of ``bezique policies`` for the learned player and its models."""
    lines = ["learned      the player learned by self-play (bezique train), one model per game:"]
    for game in GAMES:
        path = shipped_model(game)
        try:
            meta = load_model(path, game)[1]
            lines.append(f"  {game:<12} {meta.get('training', {}).get('summary', '')} ({path.name})")
        except ModelError:
            lines.append(f"  {game:<12} no model installed")
    others = [(g, p) for g in GAMES for p in shipped_players(g) if p > 1]
    if others:
        lines.append("  player=N       another strong player trained apart from the first (the report's band):")
        for game, p in others:
            meta = load_model(shipped_model(game, p), game)[1]
            lines.append(f"    {game} {p}: {meta.get('training', {}).get('summary', '')}")
    lines.append("  weights=FILE   play with the model in FILE (a checkpoint of bezique train)")
    lines.append("  rules=any      also play the rule sets it plays no better than the tuned hints (three packs, "
                 "Rubicon redeclare=same_or_higher)")
    return lines


register("learned", learned_spec, _describe)
