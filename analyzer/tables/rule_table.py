"""``bezique rules``: the rule set in force, option by option, with the rules of docs/rules.md
each option implements and where docs/rules.md writes them.

What an option means is written once, in the comment beside its field of
:class:`analyzer.rules.RuleSet` ("``hand_size: int = 8  # R2.1/V6: 8, 9 or 10``"): the rule ids
are read from those comments (:func:`option_notes`), so a new option documented there shows up
here by itself. This module only adds where each rule id is written (:data:`PLACES`, checked
against docs/rules.md by tests/test_rules_command.py) and the ids of an option whose comment
names none (:data:`EXTRA_RULES`).
"""
from __future__ import annotations

import ast
import functools
import inspect
import io
import re
import tokenize
from dataclasses import fields

from .. import rules as rules_module
from ..rules import PRESETS, RuleSet

DOC = "docs/rules.md"
SECTION_2 = "2. Two-handed ordinary bézique (preset `ordinary`)"
SECTION_3 = "3. Rubicon bézique (preset `rubicon`)"

# Where docs/rules.md writes each rule: the headings above it (section, then subsection), and
# the rule ids written there.
PLACES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("1. Cards",), ("R1.1", "R1.2", "R1.3")),
    ((SECTION_2, "Deal"), ("R2.1", "R2.2")),
    ((SECTION_2, "First stage (while cards remain in the talon)"), tuple(f"R2.{i}" for i in range(3, 9))),
    ((SECTION_2, "Seven of trumps"), ("R2.9", "R2.10")),
    ((SECTION_2, "Table A — combinations of the ordinary game"), ("Table A",)),
    ((SECTION_2, "Re-use of cards"), tuple(f"R2.{i}" for i in range(11, 18))),
    ((SECTION_2, "End of the first stage"), ("R2.18",)),
    ((SECTION_2, "Second stage (the talon is empty)"), ("R2.19", "R2.20", "R2.21")),
    ((SECTION_2, "Scoring a hand and a game"), ("R2.22", "R2.23", "R2.24", "R2.25")),
    ((SECTION_3,), tuple(f"R3.{i}" for i in range(1, 10))),
    ((SECTION_3, "Table B — Rubicon scores"), ("Table B",)),
    (("4. Variants (options of the presets)",), tuple(f"V{i}" for i in range(1, 8))),
)

# The rules of an option whose comment in RuleSet names no rule id.
EXTRA_RULES = {
    "plain_sequence": ("Table A", "Table B"),   # not in Table A (ordinary); 150 in Table B (Rubicon)
}

RULE_ID = re.compile(r"\b(R\d+\.\d+|V\d+|Table [A-Z])\b")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens
    ("Table B — Rubicon scores" -> "table-b--rubicon-scores")."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def place_label(path: tuple[str, ...]) -> str:
    """A place's short name: its section number and subsection ("§2 Deal", "§3", "§3 Table B")."""
    label = "§" + path[0].split(".", 1)[0]
    if len(path) > 1:
        label += " " + path[-1].split(" — ")[0].split(" (")[0]
    return label


@functools.cache
def _places() -> dict[str, dict]:
    """Rule id -> its place: ``place`` (short name), ``heading`` (the headings' path) and
    ``anchor`` (``docs/rules.md#...``)."""
    out = {}
    for path, ids in PLACES:
        where = {"place": place_label(path), "heading": " › ".join(path), "anchor": f"{DOC}#{anchor(path[-1])}"}
        out.update({rule: where for rule in ids})
    return out


def place_of(rule: str) -> dict | None:
    """Where docs/rules.md writes ``rule`` (see :func:`_places`), or None if :data:`PLACES` lacks it."""
    return _places().get(rule)


def options() -> list[str]:
    """The rule options of RuleSet, in its order (``name``, the variant, is none)."""
    return [f.name for f in fields(RuleSet) if f.name != "name"]


@functools.cache
def option_notes() -> dict[str, str]:
    """Each field of RuleSet -> the comment beside it in analyzer/rules.py ("" if none)."""
    try:
        source = inspect.getsource(rules_module)
    except (OSError, TypeError):            # no source shipped: no notes, only EXTRA_RULES
        return {}
    comments = {tok.start[0]: tok.string.lstrip("#").strip()
                for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.COMMENT}
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == RuleSet.__name__)
    return {n.target.id: comments.get(n.lineno, "") for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def rules_of(option: str) -> list[str]:
    """The rule ids ``option`` implements: those its RuleSet comment names and its
    :data:`EXTRA_RULES`, in the order of docs/rules.md."""
    found = RULE_ID.findall(option_notes().get(option, "")) + list(EXTRA_RULES.get(option, ()))
    return sorted(dict.fromkeys(found), key=lambda rule: _order().get(rule, len(_order())))


@functools.cache
def _order() -> dict[str, int]:
    """Rule id -> its place in docs/rules.md (the order of PLACES)."""
    return {rule: i for i, rule in enumerate(rule for _, ids in PLACES for rule in ids)}


def value_text(value) -> str:
    """A value as ``--rule KEY=VALUE`` takes it (true/false for a switch)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_table(rules: RuleSet) -> dict:
    """The rule set in force as plain data (``bezique rules --json``): the variant, its cards,
    the ``--rule`` items that make it from its preset, and for each option its value, the
    preset's, whether it changed, the rule ids it implements and where each is written."""
    base = PRESETS.get(rules.name, PRESETS["ordinary"])
    base_name = rules.name if rules.name in PRESETS else "ordinary"
    rows = []
    for option in options():
        value, was = getattr(rules, option), getattr(base, option)
        ids = rules_of(option)
        rows.append({"option": option, "value": value, "preset": was, "changed": value != was, "rules": ids,
                     "where": [{"rule": r, **(place_of(r) or {"place": "?", "heading": None, "anchor": None})}
                               for r in ids],
                     "note": option_notes().get(option, "")})
    changed = [r for r in rows if r["changed"]]
    used = {rule for r in rows for rule in r["rules"]}
    places = [{**place_of(ids[0]), "rules": [rule for rule in ids if rule in used]}
              for _, ids in PLACES if used.intersection(ids)]     # in the order of docs/rules.md
    return {"variant": rules.name, "preset": base_name, "cards": rules.n_cards, "sides": rules.sides,
            "rule_items": [f"{r['option']}={value_text(r['value'])}" for r in changed],
            "changed": [r["option"] for r in changed], "options": rows, "places": places}


def format_rule_table(table: dict) -> str:
    """:func:`rule_table` as text: a line per option (``*`` where it differs from the preset),
    then where docs/rules.md writes each rule named."""
    by = {r["option"]: r["value"] for r in table["options"]}
    lines = [(f"Rules in force: {table['variant']} ({by.get('players')} players, {by.get('packs')} packs: "
              f"{table['cards']} cards, {by.get('hand_size')} cards each, game to {by.get('target')})")]
    if table["rule_items"]:
        lines.append(f"Changed from the preset {table['preset']} (marked *): "
                     + " ".join(f"--rule {item}" for item in table["rule_items"]))
    else:
        lines.append(f"As the preset {table['preset']}: no option changed.")
    head = ("option", "value", "rules", "written in docs/rules.md")
    cells = []
    for r in table["options"]:
        value = value_text(r["value"]) + (f" (preset {value_text(r['preset'])})" if r["changed"] else "")
        places = ", ".join(dict.fromkeys(w["place"] for w in r["where"])) or "?"
        cells.append((r["option"], ("* " if r["changed"] else "  ") + value, " ".join(r["rules"]) or "?", places))
    widths = [max(len(row[i]) for row in [head, *cells]) for i in range(3)]
    lines.append("")
    for row in [(head[0], "  " + head[1], *head[2:]), *cells]:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3])
    lines += ["", "Where docs/rules.md writes them:"]
    width = max((len(p["place"]) for p in table["places"]), default=0)
    for p in table["places"]:
        lines.append(f"  {p['place'].ljust(width)}  {p['anchor']}  ({', '.join(p['rules'])})")
    return "\n".join(line.rstrip() for line in lines)
