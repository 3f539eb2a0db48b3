"""What a reader reads: every combination, event and hint named in words, with card symbols
(``marriage_H`` is "the marriage in ♥", ``dealt_four_aces`` is "four aces in a dealt hand", H4 is
"counting the cards (H4)"). The tables (CSV, Parquet) keep their machine names; the pages, the
charts and the terminal say these (docs/tables.md maps one to the other)."""
from __future__ import annotations

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
LEVELS = {"bezique": "bézique", "double_bezique": "double bézique", "treble_bezique": "treble bézique",
          "quadruple_bezique": "quadruple bézique"}
FOURS = {"aces": "four aces", "kings": "four kings", "queens": "four queens", "knaves": "four knaves"}

# A hint's name in a few words, in the order H1..H13 (its advice in full: policies/hints_names.HINT_TEXT)
HINT_WORDS = (
    "declaring the best combination",
    "making your aces and tens",
    "keeping aces for four aces",
    "counting the cards",
    "keeping bézique and sequence cards",
    "royal marriage and sequence before bézique",
    "playing to the rubicon limit",
    "leading sure winners in the second stage",
    "leading from the table first",
    "keeping court cards in hand",
    "winning the last trick before the talon",
    "keeping trump court cards",
    "leading unbeatable trumps in the second stage",
)


def hint_name(hint: str) -> str:
    """``"H4"`` -> "counting the cards (H4)"; a name that is no hint as it is."""
    try:
        k = int(hint.upper().removeprefix("H")) - 1
    except ValueError:
        return hint
    return f"{HINT_WORDS[k]} ({hint.upper()})" if 0 <= k < len(HINT_WORDS) else hint


def combination_name(key: str) -> str:
    """A combination's machine name in words: ``marriage_H`` "the marriage in ♥", ``sequence_S``
    "the sequence in ♠", ``double_bezique`` "double bézique", ``four_aces`` "four aces",
    ``panache_four_kings`` "a panache four of kings"; any other as it is, underscores as spaces."""
    kind, _, suit = key.rpartition("_")
    if kind in ("marriage", "sequence") and suit in SUIT_SYMBOL:
        return f"the {kind} in {SUIT_SYMBOL[suit]}"
    if key in ("trump_sequence", "sequence"):
        return "the sequence in trumps"
    if key in ("royal_marriage", "trump_marriage"):
        return "the royal marriage"
    if key == "common_marriage":
        return "a common marriage"
    if key in LEVELS:
        return LEVELS[key]
    if key.startswith("four_") and key[5:] in FOURS:
        return FOURS[key[5:]]
    if key.startswith("panache_four_") and key[13:] in FOURS:
        return f"a panache four of {key[13:]}"
    return key.replace("_", " ")


def event_name(key: str) -> str:
    """An odds event's machine name in words: ``dealt_four_aces`` "four aces in a dealt hand",
    ``receives_double_bezique`` "double bézique received over the hand", ``turn_up_seven`` "the
    turn-up a seven", ``partners_bezique`` "bézique in two partners' hands together"."""
    for prefix, where in (("dealt_", "in a dealt hand"), ("receives_", "received over the hand"),
                          ("partners_", "in two partners' hands together"),
                          ("some_player_dealt_", "in some player's dealt hand")):
        if key.startswith(prefix):
            return f"{combination_name(key[len(prefix):])} {where}"
    return {"turn_up_seven": "the turn-up a seven", "carte_blanche": "carte blanche dealt (no king, queen or knave)",
            "turn_up": "the turn-up"}.get(key, key.replace("_", " "))
