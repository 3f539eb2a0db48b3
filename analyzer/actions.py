"""Readable names for engine action codes (for error messages and logs)."""
from .cards import COMBO_NAMES, card_str
from .engine import layout as L

DECISION_NAMES = {L.D_LEAD: "lead", L.D_FOLLOW: "follow", L.D_MELD: "declaration", L.D_CARTE: "carte blanche",
                  L.D_CLAIM: "claim of the game"}


def illegal_return(action: int, decision: int) -> str:
    """What a policy returned that it may not: ``'play 9S', which is not legal at that follow
    decision``, or ``999, which is no action``."""
    what = action_str(action)
    if what.startswith("action code"):
        return f"{int(action)}, which is no action"
    return f"'{what}', which is not legal at that {DECISION_NAMES.get(decision, decision)} decision"


def action_str(action: int) -> str:
    """Describe an action code: ``play QS``, ``play QS from table``, ``declare bezique`` …"""
    a = int(action)
    if 0 <= a < L.A_PLAY_TABLE:
        return f"play {card_str(a)}"
    if L.A_PLAY_TABLE <= a < L.A_DECLARE:
        return f"play {card_str(a - L.A_PLAY_TABLE)} from table"
    if L.A_DECLARE <= a < L.A_DECLARE + len(COMBO_NAMES):
        return f"declare {COMBO_NAMES[a - L.A_DECLARE]}"
    if a == L.A_EXCHANGE:
        return "exchange the seven of trumps"
    if a == L.A_STOP:
        return "stop declaring"
    if a == L.A_CARTE_BLANCHE:
        return "show carte blanche"
    if a == L.A_PARTNER:
        return "pass to partner"
    if a == L.A_CLAIM_GAME:
        return "claim the game"
    if L.A_CLAIM <= a < L.A_CLAIM + len(COMBO_NAMES):
        return f"claim {COMBO_NAMES[a - L.A_CLAIM]}"
    return f"action code {a}"
