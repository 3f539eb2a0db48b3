"""Card and combination arithmetic has names (engine/codes.py, cards.py): no module of the
package does the bare arithmetic itself (issue 23: "grep finds no bare one")."""
from __future__ import annotations

import re
from pathlib import Path

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"
# where the names are defined: the only places the arithmetic may be written out
HOMES = {"engine/codes.py", "cards.py"}
BARE = re.compile(
    r"//\s*8\b|%\s*8\b|&\s*7\b|>>\s*3\b|<<\s*3\b|&\s*31\b|%\s*32\b"          # suit, rank, card of an action
    r"|\b(?:c|combo)\s*(?:>=|<|==|%)\s*(?:4|8|12)\b"                      # combination-id ranges
)


def bare_arithmetic(source: str) -> list[str]:
    """The lines of ``source`` (comments dropped) that do card or combination arithmetic bare."""
    return [line.strip() for line in source.splitlines() if BARE.search(line.split("#")[0])]


def test_no_module_does_card_or_combination_arithmetic_bare():
    found = {str(p.relative_to(ANALYZER)): bare_arithmetic(p.read_text()) for p in ANALYZER.rglob("*.py")
             if str(p.relative_to(ANALYZER)) not in HOMES}
    assert not {k: v for k, v in found.items() if v}


def test_the_check_finds_bare_arithmetic():
    assert bare_arithmetic("suit = card // 8\nrank = card & 7\n") == ["suit = card // 8", "rank = card & 7"]
    assert bare_arithmetic("if c >= 12:\n") == ["if c >= 12:"]
    assert bare_arithmetic("x = card_suit(card)   # not card // 8\n") == []
