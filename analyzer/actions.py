"""Readable names for engine action codes (for error messages and logs)."""
from .cards import COMBO_NAMES, card_str
from .engine.layout import (
    A_CARTE_BLANCHE,
    A_CLAIM,
    A_CLAIM_GAME,
    A_DECLARE,
    A_EXCHANGE,
    A_PARTNER,
    A_PLAY_TABLE,
    A_STOP,
    D_CARTE,
    D_CLAIM,
    D_FOLLOW,
    D_LEAD,
    D_MELD,
)

DECISION_NAMES = {D_LEAD: "lead", D_FOLLOW: "follow", D_MELD: "declaration", D_CARTE: "carte blanche",
                  D_CLAIM: "claim of the game"}


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
    if 0 <= a < A_PLAY_TABLE:
        return f"play {card_str(a)}"
    if A_PLAY_TABLE <= a < A_DECLARE:
        return f"play {card_str(a - A_PLAY_TABLE)} from table"
    if A_DECLARE <= a < A_DECLARE + len(COMBO_NAMES):
        return f"declare {COMBO_NAMES[a - A_DECLARE]}"
    if a == A_EXCHANGE:
        return "exchange the seven of trumps"
    if a == A_STOP:
        return "stop declaring"
    if a == A_CARTE_BLANCHE:
        return "show carte blanche"
    if a == A_PARTNER:
        return "pass to partner"
    if a == A_CLAIM_GAME:
        return "claim the game"
    if A_CLAIM <= a < A_CLAIM + len(COMBO_NAMES):
        return f"claim {COMBO_NAMES[a - A_CLAIM]}"
    return f"action code {a}"
