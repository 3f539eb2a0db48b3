"""The names of the search player and of the ceilings: ``expert`` (the strongest search of each
game, BEST_SEARCH), ``expert:SETTINGS``, ``expert:plain,...``, ``cheat-clairvoyant``,
``cheat-sees-hand``. The search's kernels (policies/expert.py) take minutes to compile, so this
module names them by module (``PolicySpec.kernel``) and they are imported on first use.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..engine.layout import SEE_HANDS, SEE_PUBLIC, SEE_TALON
from .learned import GAMES, learned_spec
from .params import (
    DEFAULT_BLOCK, HINT_NAMES, ROLLOUT_HINTS, ROLLOUT_LEARNED, ROLLOUT_NAMES, hint_index, search_defaults,
)
from .stage2_value import load_value_model
from .spec import PolicyError, PolicySpec, endgame_flag, register, settings_of, tuned_weights, weight_of

# the search's kernels take minutes to compile: loaded (and compiled) only when a run needs them
EXPERT_KERNEL = "analyzer.policies.expert:expert_policy"
EXPERT_CHUNK = 16           # an expert hand costs ~10^4 greedy ones: small batches
MAX_SAMPLES = 100_000
EXPERT_TEXT = (
    ("(none)", "the strongest search of the game (docs/search.md): in both games "
               "prior=0,rollout=learned,samples=48,switch=2,late=12,prune=0.5,block=4, and in the ordinary "
               "game leaf=net. Settings change it:"),
    ("samples=N", "determinizations per decision (more is stronger and slower)"),
    ("rollout=P", "how each sample is played out: greedy, random, hints, learned (the learned player, both "
                  "seats) or a tuned preset (tuned-ordinary)"),
    ("prior=K", "let the learned network choose: only its K best actions are searched (0: no prior)"),
    ("switch=Z", "the anchor (the prior's choice, or with guard=1 the roll-out policy's own) stands unless "
                 "another action is Z standard errors better (default 2)"),
    ("guard=0", "without a prior, do not anchor on the roll-out policy's choice (the unanchored search: "
                "it can be weaker than the policy it rolls out with)"),
    ("late=N", "search only the decisions with at most N cards left to draw; the anchor plays the rest (0: all)"),
    ("gate=G", "with prior: do not search a decision whose best network value leads the second by G "
               "points or more (Rubicon: game points, the winner's score)"),
    ("infer=T", "read the other seat's lead: when following it, the sampled worlds are weighted by how "
                "likely that lead is in each under the learned player (a softmax of its action values, "
                "temperature T points; 0: off, the default; docs/search.md)"),
    ("endgame=exact", "finish each rollout's second stage with the exact solver (slower)"),
    ("prune=Z", "drop an action Z standard errors behind the best at each look (block=N) "
                "(expert: 0.5; plain: 2; 0 = all actions get every sample)"),
    ("block=N", f"look at the actions' differences (and prune) after every N samples (expert: 4; plain: "
                f"{DEFAULT_BLOCK})"),
    ("leaf=net", "end each roll-out at the second stage with the value network's estimate instead of the "
                 "exact solve (the ordinary game: faster; Rubicon keeps the exact solve; docs/search.md)"),
    ("exact=0", "decide its own second stage by sampling too, not by the exact solver"),
    ("tail=0", "roll out the last window of the first stage too, instead of searching each sample to the "
               "second stage"),
    ("plain", "start from the plain search instead (greedy roll-outs, 32 samples, every decision, anchored on "
              "its roll-out policy's choice)"),
)
# the ceilings: searches that read cards no player can see (study tools, never players), each
# resolved only by its full name; they take the expert's settings (cheat-sees-hand:samples=64)
CEILINGS = {
    "cheat-clairvoyant": (SEE_TALON, "CHEATS: sees every card, the talon's order too, and so "
                                     "steers its own draws; searches the one true world"),
    "cheat-sees-hand": (SEE_HANDS, "CHEATS: sees the other hand (not the talon's order); searches "
                                   "worlds of the talon only"),
}
# their settings are the expert's (BEST_SEARCH of the game, anchored on the learned player),
# so that each extends the fair search by what it sees and by nothing else (docs/search.md)
DEFAULT_SWITCH_Z = 1.0      # the plain search's (with prior=K); the best search's is 2


# the strongest search of each game (docs/search.md: chosen on deals of seeds 61 and 81): what
# ``expert`` plays, and the base its settings change
BEST_SEARCH = {"ordinary": "prior=0,rollout=learned,samples=48,switch=2,late=12,prune=0.5,block=4,leaf=net",
               "rubicon": "prior=0,rollout=learned,samples=48,switch=2,late=12,prune=0.5,block=4"}
EXPERT_KEYS = "plain, samples, rollout, endgame, leaf, prune, block, exact, tail, prior, switch, guard, gate, late, infer, h1..h8"


def expert_spec(name: str, settings: str | None = None, base: str = "best") -> PolicySpec:
    """Parse ``expert`` (the strongest search of the game played, BEST_SEARCH) and its settings,
    which change it: ``expert:samples=64``, ``expert:rollout=learned``, ``expert:prior=0`` (no
    prior), ``expert:endgame=exact``, ``expert:exact=0`` … (combinable with commas; a hints
    rollout also takes h1..h8=, or the weights of a tuned preset: ``expert:rollout=tuned-ordinary``).
    ``expert:plain,...`` changes the plain search instead (greedy roll-outs, 32 samples, every
    decision searched: the expert before it took the learned prior). Every search is anchored
    on its roll-out policy's choice (guard) unless ``guard=0`` is given, so that where it
    cannot tell the actions apart it plays as that policy would. ``settings`` replaces the part
    after the colon; ``base`` "plain" starts from the plain search. The spec's
    parameters depend on the game (``PolicySpec.params_for``)."""
    items = list(settings_of(name if settings is None else ":" + settings))
    if any(key == "plain" and not sep for key, sep, _v, _i in items):
        base = "plain"
        items = [it for it in items if not (it[0] == "plain" and not it[1])]
    by_game = []
    for game in GAMES:
        params = search_defaults()
        params["switch_z"] = DEFAULT_SWITCH_Z
        if base == "best":
            for item in settings_of(":" + BEST_SEARCH[game]):
                _expert_setting(name, params, *item)
        params["guard"] = True
        for item in items:
            _expert_setting(name, params, *item)
        by_game.append((game, params))
    params = by_game[0][1]
    described = "the strongest search of each game (see docs/search.md)" if name == "expert" else \
        "expert with custom search settings"
    spec = PolicySpec(name, EXPERT_KERNEL, params, description=described, hands_per_chunk=EXPERT_CHUNK,
                      max_players=2, solver=True, game_params=tuple(by_game), sees=SEE_PUBLIC)
    if any(p["prior"] > 0 or p["rollout"] == ROLLOUT_LEARNED or p["leaf"] or p["infer"] > 0 for _g, p in by_game):
        net = learned_spec("learned")              # the shipped networks, by game
        models = net.models
        if any(p["leaf"] for _g, p in by_game):  # the ordinary model, the value network after it
            value, _info = load_value_model()
            models = tuple((g, np.concatenate([w, value]) if g == "ordinary" else w) for g, w in models)
        spec = replace(spec, games=net.games, models=models)
    return spec


def _expert_setting(name: str, params: np.void, key: str, sep: str, value: str, item: str) -> None:
    """Apply one ``key=value`` setting of an expert to ``params``; PolicyError if it is wrong."""
    if not sep:
        raise PolicyError(f"{name!r}: expected key=value or plain (got {item!r}); keys: {EXPERT_KEYS}")
    if key == "samples":
        if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
            raise PolicyError(f"{name!r}: samples is a whole number from 1 to {MAX_SAMPLES:,} (got {value!r})")
        params["samples"] = int(value)
    elif key == "rollout" and value.lower().startswith("tuned-"):     # hints with tuned weights
        params["rollout"] = ROLLOUT_HINTS
        params["hint"] = tuned_weights(name, value.lower())
    elif key == "rollout":
        if value.lower() not in ROLLOUT_NAMES:
            raise PolicyError(f"{name!r}: rollout is one of {', '.join(ROLLOUT_NAMES)} or a tuned "
                              f"preset such as tuned-ordinary (got {value!r})")
        params["rollout"] = ROLLOUT_NAMES.index(value.lower())
    elif key == "endgame":
        params["rollout_endgame"] = endgame_flag(name, value)
    elif key in ("prune", "switch", "gate", "infer"):
        z = weight_of(name, value)
        if z < 0:
            raise PolicyError(f"{name!r}: {key} is a number >= 0 (got {value!r})")
        params[{"prune": "prune_z", "switch": "switch_z"}.get(key, key)] = z
    elif key == "leaf":
        if value.lower() not in ("exact", "net"):
            raise PolicyError(f"{name!r}: leaf is exact or net (got {value!r})")
        params["leaf"] = value.lower() == "net"
    elif key in ("exact", "tail", "guard"):
        if value not in ("0", "1"):
            raise PolicyError(f"{name!r}: {key} is 0 or 1 (got {value!r})")
        params[key] = value == "1"
    elif key in ("prior", "late", "block"):
        if not value.isdigit():
            raise PolicyError(f"{name!r}: {key} is a whole number >= 0 (0: "
                              f"{f'every {DEFAULT_BLOCK} samples' if key == 'block' else 'off'}; got {value!r})")
        params[key] = int(value)
    elif key.upper() in HINT_NAMES:
        params["hint"][hint_index(key)] = weight_of(name, value)
    else:
        raise PolicyError(f"{name!r}: unknown setting {key!r}; keys: {EXPERT_KEYS}")


def ceiling_spec(name: str) -> PolicySpec:
    """A ceiling by its full name (CEILINGS): ``expert``'s search given the hidden cards, its
    settings changed as the expert's are after a colon (``cheat-sees-hand:samples=64``,
    ``cheat-clairvoyant:late=0``)."""
    see, text = CEILINGS[name.partition(":")[0]]
    return replace(expert_spec(name), description=text, cheats=True, sees=see)




def _describe_expert() -> list[str]:
    """The lines of ``bezique policies`` for the search."""
    lines = [f"{'expert':<10} the strongest search (the late first stage searched with the learned player's "
             "roll-outs, anchored on its choice; the second stages they reach valued by a value network "
             "in the ordinary game, solved in Rubicon; its own second stage exact); per game: "
             + "; ".join(f"{g} {v}" for g, v in BEST_SEARCH.items()),
             "expert settings (e.g. expert:samples=64,rollout=hints):"]
    return lines + [f"  {k:<14} {text}" for k, text in EXPERT_TEXT]


def _describe_ceilings() -> list[str]:
    """The lines of ``bezique policies`` for the ceilings."""
    lines = ["ceilings (study tools that CHEAT: they read hidden cards; full names only): expert's search and "
             "settings, which change after a colon as expert's do:"]
    return lines + [f"  {k:<18} {text}" for k, (_see, text) in CEILINGS.items()]


def _refuse_partial_cheat(name: str) -> PolicySpec:
    raise PolicyError(f"unknown policy {name!r}; the ceilings, which read hidden cards, are asked for by "
                      f"their full names: {', '.join(CEILINGS)}")


register("expert", expert_spec, _describe_expert)
for _name in CEILINGS:
    register(_name, ceiling_spec, _describe_ceilings if _name == next(iter(CEILINGS)) else (lambda: []),
             listed=False)
register("cheat", _refuse_partial_cheat, settings=False, listed=False,
         matches=lambda name: name.startswith("cheat") and name.partition(":")[0] not in CEILINGS)
