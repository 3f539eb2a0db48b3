"""A played hand as JSON: its event log and scores, or a replay file that plays it again."""
from __future__ import annotations

from ..cards import card_str, cards_str
from ..rules import PRESETS
from .handlog import HandOutcome, status_name
from .replay_file import FORMAT


def outcome_json(outcome: HandOutcome) -> dict:
    """The event log and scores as a JSON-ready dict."""
    return {"status": status_name(outcome.status), "scores": outcome.scores,
            "events": outcome.events, "error": outcome.error}


def replay_json(outcome: HandOutcome) -> dict:
    """The hand in replay-file form: deal plus every move, so it can be replayed."""
    spec = outcome.spec
    moves = []
    for e in outcome.events:
        if e["event"] == "play":
            moves.append(f"{e['seat']} plays {e['card']}" + (" from table" if e["from"] == "table" else ""))
        elif e["event"] == "declare":
            moves.append(f"{e['seat']} declares {e['combination']} {' '.join(e['cards'])}")
        elif e["event"] == "exchange":
            moves.append(f"{e['seat']} exchanges {e['card']}")
        elif e["event"] == "claim":
            moves.append(f"{e['seat']} claims {' '.join(e['cards'])}")
        elif e["event"] == "carte_blanche":
            moves.append(f"{e['seat']} shows carte blanche")
        elif e["event"] == "partner_declares":
            moves.append(f"{e['seat']} passes to partner")
        elif e["event"] == "game_claim":
            moves.append(f"{e['seat']} claims the game")
    rules = spec.rules.describe()
    base = PRESETS[spec.rules.name]
    rules = {"variant": rules.pop("name"), **{k: v for k, v in rules.items()
                                             if getattr(base, k) != v}}
    obj = {"format": FORMAT, "rules": rules, "dealer": spec.dealer,
           "hands": [cards_str(h) for h in spec.hands]}
    if spec.turn_up is not None:
        obj["turn_up"] = card_str(spec.turn_up)
    obj["talon"] = cards_str(spec.talon)
    if any(spec.game_totals or []):
        obj["game_totals"] = list(spec.game_totals)
    obj["moves"] = moves
    return obj
