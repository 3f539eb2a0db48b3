"""Readable names for engine action codes: short ones for error messages (``play QS from
table``, ``declare marriage_H``) and words for people (``play Q♠ from the table``, ``declare the
marriage in ♥ (K♥ Q♥)``)."""
from .cards import COMBO_NAMES, N_COMBOS, card_str, combo_cards, is_four_combo, parse_card
from .engine import layout as L
from .words import combination_name

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


def action_words(action: int, symbols: bool = True, cards=None, decision: int | None = None) -> str:
    """An action code in words, its cards in symbols (``symbols``) or letters: "play A♠", "play
    A♠ from the table", "declare the marriage in ♥ (K♥ Q♥)", "declare four aces", "exchange the
    seven of trumps", "stop declaring", "show carte blanche", "claim the marriage in ♠", "claim
    the game". ``cards`` (ids or notation) are the cards a declaration or claim lays, written
    after it; left out (None), a declaration whose cards its combination fixes (a marriage, a
    sequence, a bézique) names them, a four (whose suits the seat chooses) does not; ``()``
    names none. ``decision`` (layout.D_*) words a stop at a carte-blanche question ("keep carte
    blanche hidden") or at the claim of the game ("play on") rather than in a declaration
    window. A code that is no action is "action code N"."""
    a = int(action)
    card = lambda c: card_str(parse_card(c) if isinstance(c, str) else int(c), symbols)
    if 0 <= a < L.A_DECLARE:
        return f"play {card(a % L.A_PLAY_TABLE)}" + (" from the table" if a >= L.A_PLAY_TABLE else "")
    for base, verb in ((L.A_DECLARE, "declare"), (L.A_CLAIM, "claim")):
        if base <= a < base + N_COMBOS:
            combo = a - base
            if cards is None:
                cards = () if verb == "claim" or is_four_combo(combo) else combo_cards(combo)
            cards = tuple(cards)
            laid = f" ({' '.join(card(c) for c in cards)})" if cards else ""
            return f"{verb} {combination_name(COMBO_NAMES[combo])}{laid}"
    if a == L.A_STOP:
        return {L.D_CARTE: "keep carte blanche hidden", L.D_CLAIM: "play on"}.get(decision, "stop declaring")
    words = {L.A_EXCHANGE: "exchange the seven of trumps", L.A_CARTE_BLANCHE: "show carte blanche",
             L.A_PARTNER: "let the partner declare", L.A_CLAIM_GAME: "claim the game",
             L.A_CLAIM_CARDS: "claim, laying the cards named"}
    return words.get(a, f"action code {a}")
