"""What a policy name resolves to (:class:`PolicySpec`), the catalog every policy registers its
names in (:func:`register`), and the parsing of the settings after a name's colon that several
policies share.

A policy's own module registers it (``builtin.py``: random, greedy; ``hints.py``; ``learned.py``;
``expert_names.py``: the search and the ceilings, apart from the search's kernels, which compile
on first use; ``user.py``: ``file.py:function``), so adding a policy touches its own file, its
docs page and the one line of :data:`POLICY_MODULES` that names its module. The modules are loaded
by name (:func:`load_policies`), as a spec names the search's kernel, so that this module, which
every layer above imports, imports no policy.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from ..engine.layout import SEE_OWN
from ..engine.policy_data import SeatData, new_params, new_seat_data
from ..errors import BeziqueError
from ..rules import R_PACKS, R_PLAYERS
from .params import HINT_NAMES
from .presets import load_preset, preset_names


class PolicyError(BeziqueError, ValueError):
    """A policy name or file that cannot be used."""


@dataclass(frozen=True)
class PolicySpec:
    """A resolved policy: display name, compiled function (or where to import it from on first
    use, "module:name": :attr:`function`), settings (a record, engine/policy_data.PARAMS_DTYPE),
    for a slow policy the hands a batch should hold (the driver cuts its runs finer), the most
    players it can play with (:func:`check_rules`) and what its seat may see."""

    name: str
    kernel: object
    params: np.void = field(default_factory=new_params)
    description: str = ""
    hands_per_chunk: int | None = None
    source: str | None = None     # what resolves to it in another process (default: name)
    max_players: int = 4          # expert: 2 (its search and solver are two-handed)
    games: tuple[str, ...] | None = None   # learned: the games it has a model for (None: any)
    refuses: Callable | None = None   # rules -> why it should not play them (None: it plays them)
    models: tuple = ()            # (game, float32 weights) pairs: the model its seat is given per game
    game_params: tuple = ()       # (game, settings) pairs: its settings where they depend on the game
    solver: bool = False          # it solves two-handed second stages: its seat gets the solver's table
    cheats: bool = False          # a ceiling: it reads cards no player can see (CEILINGS)
    sees: int = SEE_OWN           # what its seat is shown beside its observation (layout.SEE_*): the engine's

    @property
    def function(self):
        """The compiled policy function, imported (and compiled, if not cached) on first use."""
        if isinstance(self.kernel, str):
            module, _, attr = self.kernel.partition(":")
            return getattr(importlib.import_module(module), attr)
        return self.kernel

    def weights_for(self, rules_arr) -> np.ndarray | None:
        """The model its seat reads under the packed rules ``rules_arr`` (None: none)."""
        game = model_for_packed(rules_arr)
        return next((w for g, w in self.models if g == game), None)

    def params_for(self, rules_arr) -> np.void:
        """Its settings under the packed rules ``rules_arr`` (those of their game, if
        they depend on it)."""
        game = model_for_packed(rules_arr)
        return next((p for g, p in self.game_params if g == game), self.params)

    def new_seat(self, rules_arr) -> SeatData:
        """Fresh data for a seat it plays under the packed rules ``rules_arr``: the model of
        their game, working memory (with the exact solver's table if it solves)."""
        return new_seat_data(self.weights_for(rules_arr), self.solver)

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


@dataclass(frozen=True)
class Entry:
    """A name in the catalog: ``resolve`` turns the whole name (with any settings after the
    colon) into a PolicySpec; ``describe`` gives its lines of ``bezique policies``; ``matches``,
    for names not of the form NAME or NAME:settings (a user's ``file.py:function``), says whether
    a name is this entry's."""

    name: str
    resolve: Callable[[str], PolicySpec]
    describe: Callable[[], list[str]] = lambda: []
    settings: bool = True                # takes settings after a colon
    matches: Callable[[str], bool] | None = None
    listed: bool = True                  # named among the built-in policies in an error


CATALOG: dict[str, Entry] = {}


def register(name: str, resolve_name: Callable[[str], PolicySpec], describe: Callable[[], list[str]] = lambda: [],
             settings: bool = True, matches: Callable[[str], bool] | None = None, listed: bool = True) -> None:
    """Put ``name`` in the catalog (its module calls this once, when imported)."""
    CATALOG[name] = Entry(name, resolve_name, describe, settings, matches, listed)


def entry_of(name: str) -> Entry | None:
    """The catalog entry a policy name belongs to (None: no policy of that name)."""
    base = name.partition(":")[0]
    entry = CATALOG.get(name) or CATALOG.get(base)
    if entry is not None and (entry.settings or name == entry.name):
        return entry
    return next((e for e in CATALOG.values() if e.matches is not None and e.matches(name)), None)


def resolve_policy(name: str) -> PolicySpec:
    """The PolicySpec of a policy as the command line and the library name it: a built-in name
    (with settings after a colon), or a user's ``path/to/file.py:function``; PolicyError if no
    policy is called so."""
    load_policies()
    entry = entry_of(name)
    if entry is None:
        raise PolicyError(f"unknown policy {name!r}; built-in policies: "
                          f"{', '.join(sorted(e.name for e in CATALOG.values() if e.listed))}; "
                          "or give path/to/file.py:function")
    return entry.resolve(name)


POLICY_MODULES = ("analyzer.policies.builtin", "analyzer.policies.hints_names", "analyzer.policies.learned",
                  "analyzer.policies.expert_names", "analyzer.policies.user")


def load_policies() -> None:
    """Import every policy module (each registers its names in CATALOG when imported)."""
    for module in POLICY_MODULES:
        importlib.import_module(module)


@lru_cache(maxsize=None)
def _resolved(ref: str) -> PolicySpec:
    return resolve_policy(ref)


def _rebuild_spec(ref: str, name: str, params, description: str, hands_per_chunk) -> PolicySpec:
    """A pickled PolicySpec, rebuilt: the function ``ref`` resolves to (once per process, with
    its models), with the sender's parameters."""
    spec = _resolved(ref)
    params = new_params(params)
    return replace(spec, name=name, params=params, description=description,
                   hands_per_chunk=hands_per_chunk, source=ref)


def model_for(rules) -> str:
    """The model (learned network, tuned preset) a rule set needs: ``rubicon`` or ``ordinary``."""
    return "rubicon" if rules.is_rubicon else "ordinary"


def model_for_packed(rules_arr) -> str:
    """:func:`model_for` of a packed rule set (RuleSet.to_array): four packs two-handed are Rubicon."""
    return "rubicon" if int(rules_arr[R_PACKS]) == 4 and int(rules_arr[R_PLAYERS]) == 2 else "ordinary"


def is_user_policy(ref: str) -> bool:
    """Whether ``ref`` names a function in a .py file (``file.py:function``)."""
    path, sep, name = ref.rpartition(":")
    return bool(sep) and path.endswith(".py")


# --- the settings after a name's colon --------------------------------------------------------

def settings_of(name: str):
    """The ``key=value`` items after the colon of ``name``, keys lower-cased."""
    body = name.split(":", 1)[1] if ":" in name else ""
    for item in filter(None, (x.strip() for x in body.split(","))):
        key, sep, value = item.partition("=")
        yield key.strip().lower(), sep, value.strip(), item


def weight_of(name: str, value: str) -> float:
    """A setting's number (PolicyError naming ``name`` unless it is a finite number)."""
    try:
        w = float(value)
    except ValueError:
        raise PolicyError(f"{name!r}: weight {value!r} is not a number") from None
    if not np.isfinite(w):
        raise PolicyError(f"{name!r}: weight {value!r} is not a finite number")
    return w


def endgame_flag(name: str, value: str) -> bool:
    """``endgame=exact`` (True) or ``endgame=heuristic`` (False); PolicyError otherwise."""
    if value.lower() in ("exact", "solver"):
        return True
    if value.lower() in ("rollout", "heuristic", "own"):
        return False
    raise PolicyError(f"{name!r}: endgame is 'exact' or 'heuristic' (got {value!r})")


def tuned_weights(name: str, key: str) -> list[float]:
    """The weights of every hint (in HINT_NAMES order) of the tuned preset ``key`` stored in the
    package; a hint the preset does not name (one found after it was tuned) is off."""
    try:
        preset = load_preset(key)
    except KeyError:
        raise PolicyError(f"{name!r}: no tuned preset {key!r}; stored: "
                          f"{', '.join(preset_names()) or 'none'}") from None
    return [float(preset["weights"].get(h, 0.0)) for h in HINT_NAMES]


def describe_policies() -> list[str]:
    """The lines of ``bezique policies``: each policy, its settings, the ceilings, the learned
    player's models (each policy's own lines, in the order they registered)."""
    load_policies()
    return [line for entry in CATALOG.values() for line in entry.describe()]


def check_rules(specs, rules) -> None:
    """PolicyError naming the first of ``specs`` that cannot play ``rules`` (a RuleSet): a
    two-handed policy (expert) with three or four players (V4, V5)."""
    for spec in specs:
        if rules.players > spec.max_players:
            plays = ("two-handed games only (V1-V3)" if spec.max_players == 2
                     else f"games of at most {spec.max_players} players")
            raise PolicyError(f"{spec.name} plays {plays}; {rules.name} has {rules.players} players")
        if spec.games is not None and model_for(rules) not in spec.games:
            raise PolicyError(f"{spec.name} has a model for {' and '.join(spec.games)} only, not for "
                              f"{model_for(rules)} ({rules.name})")
        reason = spec.refuses(rules) if spec.refuses else None
        if reason:
            raise PolicyError(f"{spec.name} does not play this rule set: {reason} (results/learned/variants.csv); "
                              "learned:rules=any plays it anyway")
