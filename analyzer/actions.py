"""Readable names for engine action codes (for error messages and logs)."""
from .cards import COMBO_NAMES, card_str
from .engine.layout import (
    A_CARTE_BLANCHE,
    A_CLAIM,
    A_DECLARE,
    A_EXCHANGE,
    A_PLAY_TABLE,
    A_STOP,
)


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
    if A_CLAIM <= a < A_CLAIM + len(COMBO_NAMES):
        return f"claim {COMBO_NAMES[a - A_CLAIM]}"
    return f"action code {a}"
