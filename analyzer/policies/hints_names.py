"""The names of the hints policy: ``hints``, ``hints:only=H2``, ``hints:no=H4``, ``hints:h2=0.5``,
a tuned preset ``hints:tuned-ordinary``, ``hints:endgame=exact``; and each hint's advice in words.
The kernel is policies/hints.py.
"""
from __future__ import annotations

from .hints import hints_policy
from .params import HINT_NAMES, RULEBOOK_HINTS, hint_defaults, hint_index
from .spec import PolicyError, PolicySpec, endgame_flag, register, settings_of, tuned_weights, weight_of

HINT_TEXT = (
    "declare the best combination after each trick won, win tricks to declare; Rubicon: claims",
    "make your aces and tens: win brisque tricks cheaply, never give brisques away",
    "do not throw away aces while four aces is still likely",
    "count the cards: stop keeping cards of combinations that became impossible",
    "keep bezique and sequence cards while completing them is likely (double bezique above all)",
    "spades or diamonds trumps: declare royal marriage, sequence, fours before bezique",
    "Rubicon: play to reach the rubicon limit (1000); when hopeless, score as little as possible",
    "second stage: lead sure winners, take tricks that hold a brisque",
    "lead the cards on your table before those in your hand",
    "keep your kings, queens and knaves in hand; lead a plain ace or ten rather than one",
    "win the last trick before the talon runs out (lead a trump no card can beat)",
    "keep your trump kings, queens and knaves: do not spend them to win a trick",
    "second stage: while the other holds trumps, lead a trump no card can beat, no winner he can trump",
)

HINTS_EXACT_CHUNK = 1024    # an exact second stage costs ~10 hints hands
HINTS_DESCRIPTION = ("the rulebook's Hints and Cautions H1-H8, all on; H9-H13, found by strong "
                     "play, off (see hints:...)")


def hints_spec(name: str) -> PolicySpec:
    """Parse ``hints:only=H2``, ``hints:no=H4``, ``hints:h2=0.5,h5=2``, ``hints:endgame=exact``
    (combinable with commas; ``only``/``no`` take several ids joined by ``+``)."""
    params = hint_defaults()
    if name == "hints":
        return PolicySpec("hints", hints_policy, params, description=HINTS_DESCRIPTION)
    for key, sep, value, item in settings_of(name):
        if not sep and key.startswith("tuned-"):          # a stored preset (bezique tune)
            params["hint"] = tuned_weights(name, key)
            continue
        if not sep:
            raise PolicyError(f"{name!r}: expected only=H2, no=H4, h2=0.5, endgame=exact or a tuned "
                              f"preset such as tuned-ordinary (got {item!r})")
        if key in ("only", "no"):
            ids = [v.strip().upper() for v in value.split("+")]
            bad = [v for v in ids if v not in HINT_NAMES]
            if bad:
                raise PolicyError(f"{name!r}: unknown hint {bad[0]!r}; hints are H1..H{len(HINT_NAMES)}")
            idx = [hint_index(v) for v in ids]
            if key == "only":
                params["hint"] = 0.0
                params["hint"][idx] = 1.0
            else:
                params["hint"][idx] = 0.0
        elif key == "endgame":
            params["endgame"] = endgame_flag(name, value)
        elif key.upper() in HINT_NAMES:
            params["hint"][hint_index(key)] = weight_of(name, value)
        else:
            raise PolicyError(f"{name!r}: unknown setting {key!r}; use only=, no=, h1..h{len(HINT_NAMES)}= or "
                              "endgame=exact")
    slow = bool(params["endgame"])
    return PolicySpec(name, hints_policy, params, description="hints with custom weights",
                      hands_per_chunk=HINTS_EXACT_CHUNK if slow else None, solver=slow)




def _describe() -> list[str]:
    """The lines of ``bezique policies`` for hints and its settings."""
    lines = [f"{'hints':<10} {HINTS_DESCRIPTION}",
             "hints parameters (weights; 0 = off, 1 = on; e.g. hints:only=H2, hints:no=H4, "
             "hints:h2=0.5,h5=2; a tuned preset: hints:tuned-ordinary, hints:tuned-rubicon):"]
    lines += [f"  {HINT_NAMES[i].lower():<8} {HINT_TEXT[i]}" + ("" if i < RULEBOOK_HINTS else " (found; off)")
              for i in range(len(HINT_NAMES))]
    lines.append("  endgame=exact  play the two-handed second stage with the exact solver")
    return lines


register("hints", hints_spec, _describe)
