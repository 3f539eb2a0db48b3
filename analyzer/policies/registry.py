"""Policy names the CLI accepts, with their compiled functions and parameters."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from .builtin import greedy_policy, random_policy
from .hints import HINT_TEXT, hints_policy
from .learned import (
    GAMES, ModelError, game_of, learned_policy, load_model, model_slot, shipped_model, untrained_reason,
)
from .params import (
    E_ENDGAME, E_EXACT, E_GATE, E_LATE, E_PRIOR, E_PRUNE_Z, E_ROLLOUT, E_SAMPLES, E_SWITCH_Z, E_TAIL, HINT_NAMES,
    N_HINTS, P_ENDGAME, PARAM_FULL_OBS, PROCESS_SLOTS, ROLLOUT_NAMES, hint_defaults, new_params, search_defaults,
)
from ..engine.layout import SEE_HANDS, SEE_TALON
from .presets import load_preset, preset_names
from .user import UserPolicyError, is_user_policy, load_user_policy

# the search's kernels take minutes to compile: loaded (and compiled) only when a run needs them
EXPERT_KERNEL = "analyzer.policies.expert:expert_policy"
EXPERT_CHUNK = 16           # an expert hand costs ~10^4 greedy ones: small batches
HINTS_EXACT_CHUNK = 1024    # an exact second stage costs ~10 hints hands
LEARNED_CHUNK = 1024        # the learned player: a network per decision and an exact second stage


class PolicyError(ValueError):
    """A policy name or file that cannot be used."""


@dataclass(frozen=True)
class PolicySpec:
    """A resolved policy: display name, compiled function (or where to import it from on first
    use, "module:name": :attr:`function`), parameter vector, for a slow policy the hands a
    batch should hold (the driver cuts its runs finer), and the most players it can play with
    (:func:`check_rules`)."""

    name: str
    kernel: object
    params: np.ndarray = field(default_factory=new_params)
    description: str = ""
    hands_per_chunk: int | None = None
    source: str | None = None     # what resolves to it in another process (default: name)
    max_players: int = 4          # expert: 2 (its search and solver are two-handed)
    games: tuple[str, ...] | None = None   # learned: the games it has a model for (None: any)
    refuses: Callable | None = None   # rules -> why it should not play them (None: it plays them)
    data: tuple = ()              # arrays the function reads by address (learned: its weights)
    cheats: bool = False          # a ceiling: it reads cards no player can see (CEILINGS)

    @property
    def function(self):
        """The compiled policy function, imported (and compiled, if not cached) on first use."""
        if isinstance(self.kernel, str):
            module, _, attr = self.kernel.partition(":")
            return getattr(importlib.import_module(module), attr)
        return self.kernel

    @property
    def user_file(self) -> str | None:
        """The .py file of a user policy (``path/file.py:function``), else None."""
        return self.source.rpartition(":")[0] if self.source and is_user_policy(self.source) else None

    def __reduce__(self):
        """Pickle by name: another process (a Dask worker) resolves the name and compiles the
        function itself, then takes these parameters. PolicyError for a policy made in
        Python that no name resolves to."""
        ref = self.source or self.name
        if self.source is None:
            try:
                portable = resolve_policy(ref).kernel == self.kernel
            except PolicyError:
                portable = False
            if not portable:
                raise PolicyError(f"policy {self.name!r} cannot be sent to another process: give a built-in "
                                  "name or path/to/file.py:function")
        return (_rebuild_spec, (ref, self.name, self.params, self.description, self.hands_per_chunk))


@lru_cache(maxsize=None)
def _resolved(ref: str) -> PolicySpec:
    return resolve_policy(ref)


def _rebuild_spec(ref: str, name: str, params, description: str, hands_per_chunk) -> PolicySpec:
    """A pickled PolicySpec, rebuilt: the function ``ref`` resolves to (once per process), with
    the sender's parameters except the addresses that are valid in one process only."""
    spec = _resolved(ref)
    params = np.array(params, dtype=np.float64)
    params[list(PROCESS_SLOTS)] = spec.params[list(PROCESS_SLOTS)]
    return replace(spec, name=name, params=params, description=description,
                   hands_per_chunk=hands_per_chunk, source=ref)


POLICIES = {
    "random": PolicySpec("random", random_policy, description="uniform among the legal actions"),
    "greedy": PolicySpec("greedy", greedy_policy,
                         description="declares the best combination, exchanges the seven, "
                                     "takes brisques cheaply"),
    "hints": PolicySpec("hints", hints_policy, hint_defaults(),
                        description="the rulebook's Hints and Cautions H1-H8, all on (see hints:...)"),
    "expert": PolicySpec("expert", EXPERT_KERNEL, search_defaults(),
                         description="strong reference player: determinized search (samples of the "
                                     "unseen cards played out), exact second stage (see expert:...)",
                         hands_per_chunk=EXPERT_CHUNK, max_players=2),
}
MAX_SAMPLES = 100_000
EXPERT_TEXT = (
    ("samples=N", "determinizations per decision (default 32; more is stronger and slower)"),
    ("rollout=P", "how each sample is played out: greedy (default), random, hints, learned (the "
                  "learned player, both seats) or a tuned preset (tuned-ordinary)"),
    ("endgame=exact", "finish each rollout's second stage with the exact solver (slower)"),
    ("prune=Z", "drop an action Z standard errors behind the best after each 8 samples "
                "(default 2; 0 = all actions get every sample)"),
    ("exact=0", "decide its own second stage by sampling too, not by the exact solver"),
    ("tail=0", "roll out the last window of the first stage too, instead of solving each sample "
               "exactly (the default)"),
    ("prior=K", "let the learned network choose: only its K best actions are searched"),
    ("switch=Z", "with prior: leave the network's choice only for an action Z standard errors "
                 "better (default 1)"),
    ("gate=G", "with prior: do not search a decision whose best network value leads the second by G "
               "points or more (Rubicon: game points, the winner's score)"),
    ("late=N", "with prior: search only the decisions with at most N cards left to draw"),
)
# the ceilings: searches that read cards no player can see (study tools, never players), each
# resolved only by its full name; they take the expert's settings (cheat-sees-hand:samples=64)
CEILINGS = {
    "cheat-clairvoyant": (SEE_TALON, "CHEATS: sees every card, the talon's order too, and so "
                                     "steers its own draws; searches the one true world"),
    "cheat-sees-hand": (SEE_HANDS, "CHEATS: sees the other hand (not the talon's order); searches "
                                   "worlds of the talon only"),
}
# their default settings (before any given after the colon): learned roll-outs, which serve
# both games; the one that samples searches as the best search does (docs/search.md)
CEILING_DEFAULTS = {"cheat-clairvoyant": "rollout=learned",
                    "cheat-sees-hand": "prior=3,rollout=learned,samples=16,switch=2,late=12"}
DEFAULT_SWITCH_Z = 1.0


def hints_spec(name: str) -> PolicySpec:
    """Parse ``hints:only=H2``, ``hints:no=H4``, ``hints:h2=0.5,h5=2``, ``hints:endgame=exact``
    (combinable with commas; ``only``/``no`` take several ids joined by ``+``)."""
    params = hint_defaults()
    for key, sep, value, item in _settings(name):
        if not sep and key.startswith("tuned-"):          # a stored preset (bezique tune)
            params[:N_HINTS] = _tuned_weights(name, key)
            continue
        if not sep:
            raise PolicyError(f"{name!r}: expected only=H2, no=H4, h2=0.5, endgame=exact or a tuned "
                              f"preset such as tuned-ordinary (got {item!r})")
        if key in ("only", "no"):
            ids = [v.strip().upper() for v in value.split("+")]
            bad = [v for v in ids if v not in HINT_NAMES]
            if bad:
                raise PolicyError(f"{name!r}: unknown hint {bad[0]!r}; hints are H1..H8")
            idx = [HINT_NAMES.index(v) for v in ids]
            if key == "only":
                params[:N_HINTS] = 0.0
                params[idx] = 1.0
            else:
                params[idx] = 0.0
        elif key == "endgame":
            params[P_ENDGAME] = _endgame_flag(name, value)
        elif key.upper() in HINT_NAMES:
            params[HINT_NAMES.index(key.upper())] = _weight(name, value)
        else:
            raise PolicyError(f"{name!r}: unknown setting {key!r}; use only=, no=, h1..h8= or "
                              "endgame=exact")
    slow = params[P_ENDGAME] > 0
    return PolicySpec(name, hints_policy, params, description="hints with custom weights",
                      hands_per_chunk=HINTS_EXACT_CHUNK if slow else None)


def _tuned_weights(name: str, key: str) -> list[float]:
    """The weights H1..H8 of the tuned preset ``key`` stored in the package."""
    try:
        preset = load_preset(key)
    except KeyError:
        raise PolicyError(f"{name!r}: no tuned preset {key!r}; stored: "
                          f"{', '.join(preset_names()) or 'none'}") from None
    return [float(preset["weights"][h]) for h in HINT_NAMES]


def _settings(name: str):
    """The ``key=value`` items after the colon of ``name``, keys lower-cased."""
    body = name.split(":", 1)[1] if ":" in name else ""
    for item in filter(None, (x.strip() for x in body.split(","))):
        key, sep, value = item.partition("=")
        yield key.strip().lower(), sep, value.strip(), item


def _endgame_flag(name: str, value: str) -> float:
    if value.lower() in ("exact", "solver"):
        return 1.0
    if value.lower() in ("rollout", "heuristic", "own"):
        return 0.0
    raise PolicyError(f"{name!r}: endgame is 'exact' or 'heuristic' (got {value!r})")


def expert_spec(name: str, settings: str | None = None) -> PolicySpec:
    """Parse ``expert:samples=64``, ``expert:rollout=hints``, ``expert:endgame=exact``,
    ``expert:exact=0``, ``expert:prior=3,rollout=learned`` (combinable with commas; a hints
    rollout also takes h1..h8=, or the weights of a tuned preset: ``expert:rollout=tuned-ordinary``).
    ``settings`` replaces the part after the colon (the ceilings' defaults and their own)."""
    params = search_defaults()
    keys = "samples, rollout, endgame, prune, exact, tail, prior, switch, gate, late, h1..h8"
    params[E_SWITCH_Z] = DEFAULT_SWITCH_Z
    for key, sep, value, item in _settings(name if settings is None else ":" + settings):
        if not sep:
            raise PolicyError(f"{name!r}: expected key=value (got {item!r}); keys: {keys}")
        if key == "samples":
            if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
                raise PolicyError(f"{name!r}: samples is a whole number from 1 to {MAX_SAMPLES:,} "
                                  f"(got {value!r})")
            params[E_SAMPLES] = int(value)
        elif key == "rollout" and value.lower().startswith("tuned-"):     # hints with tuned weights
            params[E_ROLLOUT] = ROLLOUT_NAMES.index("hints")
            params[:N_HINTS] = _tuned_weights(name, value.lower())
        elif key == "rollout":
            if value.lower() not in ROLLOUT_NAMES:
                raise PolicyError(f"{name!r}: rollout is one of {', '.join(ROLLOUT_NAMES)} or a tuned "
                                  f"preset such as tuned-ordinary (got {value!r})")
            params[E_ROLLOUT] = ROLLOUT_NAMES.index(value.lower())
        elif key == "endgame":
            params[E_ENDGAME] = _endgame_flag(name, value)
        elif key in ("prune", "switch", "gate"):
            z = _weight(name, value)
            if z < 0:
                raise PolicyError(f"{name!r}: {key} is a number >= 0 (got {value!r})")
            params[{"prune": E_PRUNE_Z, "switch": E_SWITCH_Z, "gate": E_GATE}[key]] = z
        elif key in ("exact", "tail"):
            if value not in ("0", "1"):
                raise PolicyError(f"{name!r}: {key} is 0 or 1 (got {value!r})")
            params[E_EXACT if key == "exact" else E_TAIL] = float(value)
        elif key in ("prior", "late"):
            if not value.isdigit() or int(value) < 1:
                raise PolicyError(f"{name!r}: {key} is a whole number >= 1 (got {value!r})")
            params[E_PRIOR if key == "prior" else E_LATE] = int(value)
        elif key.upper() in HINT_NAMES:
            params[HINT_NAMES.index(key.upper())] = _weight(name, value)
        else:
            raise PolicyError(f"{name!r}: unknown setting {key!r}; keys: {keys}")
    spec = PolicySpec(name, EXPERT_KERNEL, params, description="expert with custom search settings",
                      hands_per_chunk=EXPERT_CHUNK, max_players=2)
    if params[E_PRIOR] > 0 or params[E_ROLLOUT] == ROLLOUT_NAMES.index("learned"):
        net = learned_spec("learned")              # the shipped networks, by game
        params[list(PROCESS_SLOTS)] = net.params[list(PROCESS_SLOTS)]
        spec = replace(spec, games=net.games, data=net.data)
    return spec


def ceiling_spec(name: str) -> PolicySpec:
    """A ceiling by its full name (CEILINGS), with expert settings after a colon
    (``cheat-sees-hand:samples=64``): the expert's search given the hidden cards."""
    base, _, own = name.partition(":")
    see, text = CEILINGS[base]
    spec = expert_spec(name, ",".join(filter(None, (CEILING_DEFAULTS[base], own))))
    spec.params[PARAM_FULL_OBS] = see
    return replace(spec, description=text, cheats=True)


def learned_spec(name: str) -> PolicySpec:
    """Parse ``learned`` (the package's models, one per game), ``learned:weights=FILE`` (one
    model file, e.g. a checkpoint of ``bezique train``, for the game it was made for) and
    ``learned:rules=any`` (play rule sets it was not trained for and does not play well)."""
    given = None                         # (game, weights, meta) of weights=FILE
    refuses = untrained_reason
    try:
        for key, sep, value, item in _settings(name):
            if key == "rules" and value == "any":
                refuses = None
                continue
            if key != "weights" or not sep or not value:
                raise PolicyError(f"{name!r}: settings are weights=FILE and rules=any (got {item!r})")
            w, meta = load_model(value)
            given = (meta["game"], w, meta)
            name = name.replace(item, f"weights={Path(value).resolve()}")
        # the shipped models: a game without one is refused by check_rules
        models = [given] if given else [(g, *load_model(shipped_model(g), g))
                                        for g in GAMES if shipped_model(g).is_file()]
    except ModelError as e:
        raise PolicyError(str(e)) from None
    params = new_params()
    arrays, games, runs = [], [], []
    for game, w, meta in models:
        params[model_slot(game)] = float(w.ctypes.data)
        arrays.append(w)
        games.append(game)
        runs.append(f"{game}: {meta.get('training', {}).get('summary', 'trained by bezique train')}")
    if not games:
        raise PolicyError(f"{name!r}: no learned model is installed (expected {shipped_model(GAMES[0])})")
    return PolicySpec(name, learned_policy, params, description="learned by self-play (" + "; ".join(runs) + ")",
                      hands_per_chunk=LEARNED_CHUNK, max_players=2, games=tuple(games), data=tuple(arrays),
                      refuses=refuses, source=name if refuses is None or given else None)


def _weight(name: str, value: str) -> float:
    try:
        w = float(value)
    except ValueError:
        raise PolicyError(f"{name!r}: weight {value!r} is not a number") from None
    if not np.isfinite(w):
        raise PolicyError(f"{name!r}: weight {value!r} is not a finite number")
    return w


def describe_policies() -> list[str]:
    """One line per built-in policy and per hints parameter (``bezique policies``)."""
    lines = [f"{n:<10} {s.description}" for n, s in sorted(POLICIES.items())]
    lines.append("hints parameters (weights; 0 = off, 1 = on; e.g. hints:only=H2, hints:no=H4, "
                 "hints:h2=0.5,h5=2; a tuned preset: hints:tuned-ordinary, hints:tuned-rubicon):")
    lines += [f"  {HINT_NAMES[i].lower():<8} {HINT_TEXT[i]}" for i in range(N_HINTS)]
    lines.append("  endgame=exact  play the two-handed second stage with the exact solver")
    lines.append("expert settings (e.g. expert:samples=64,rollout=hints):")
    lines += [f"  {k:<14} {text}" for k, text in EXPERT_TEXT]
    lines.append("ceilings (study tools that CHEAT: they read hidden cards; full names only, with expert "
                 "settings after a colon):")
    lines += [f"  {k:<18} {text} (default {CEILING_DEFAULTS[k]})" for k, (_see, text) in CEILINGS.items()]
    lines.append("learned      the player learned by self-play (bezique train), one model per game:")
    for game in GAMES:
        path = shipped_model(game)
        try:
            meta = load_model(path, game)[1]
            lines.append(f"  {game:<12} {meta.get('training', {}).get('summary', '')} ({path.name})")
        except ModelError:
            lines.append(f"  {game:<12} no model installed")
    lines.append("  weights=FILE   play with the model in FILE (a checkpoint of bezique train)")
    lines.append("  rules=any      also play the rule sets it plays no better than the tuned hints (three packs, "
                 "Rubicon redeclare=same_or_higher)")
    return lines


def check_rules(specs, rules) -> None:
    """PolicyError naming the first of ``specs`` that cannot play ``rules`` (a RuleSet): a
    two-handed policy (expert) with three or four players (V4, V5)."""
    for spec in specs:
        if rules.players > spec.max_players:
            plays = ("two-handed games only (V1-V3)" if spec.max_players == 2
                     else f"games of at most {spec.max_players} players")
            raise PolicyError(f"{spec.name} plays {plays}; {rules.name} has {rules.players} players")
        if spec.games is not None and game_of(rules) not in spec.games:
            raise PolicyError(f"{spec.name} has a model for {' and '.join(spec.games)} only, not for "
                              f"{game_of(rules)} ({rules.name})")
        reason = spec.refuses(rules) if spec.refuses else None
        if reason:
            raise PolicyError(f"{spec.name} does not play this rule set: {reason} (results/learned/variants.csv); "
                              "learned:rules=any plays it anyway")


def resolve_policy(name: str) -> PolicySpec:
    """Return the :class:`PolicySpec` for a policy given on the command line: a built-in
    name, or ``path/to/file.py:function`` for a user policy."""
    if name in POLICIES:
        return POLICIES[name]
    if name.startswith("hints:"):
        return hints_spec(name)
    if name.startswith("expert:"):
        return expert_spec(name)
    if name.partition(":")[0] in CEILINGS:
        return ceiling_spec(name)
    if name.startswith("cheat"):
        raise PolicyError(f"unknown policy {name!r}; the ceilings, which read hidden cards, are asked for by "
                          f"their full names: {', '.join(CEILINGS)}")
    if name == "learned" or name.startswith("learned:"):
        return learned_spec(name)
    if is_user_policy(name):
        try:
            path, _, function = name.rpartition(":")
            return PolicySpec(name, load_user_policy(name), description="user policy",
                              source=f"{Path(path).resolve()}:{function}")
        except UserPolicyError as e:
            raise PolicyError(str(e)) from None
    raise PolicyError(f"unknown policy {name!r}; built-in policies: {', '.join(sorted(POLICIES))}; "
                      "or give path/to/file.py:function")
