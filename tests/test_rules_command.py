"""``bezique rules``: the rule set in force, each option with its value, the rule ids it implements
and where docs/rules.md writes them; and every ``bezique X`` a help text mentions is a command."""
import json
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import all_commands, main
from analyzer.rules import PRESETS, RuleSet, preset
from analyzer.tables import rule_table as rt

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs" / "rules.md"
OPTIONS = [f.name for f in fields(RuleSet) if f.name != "name"]   # RuleSet's own list, not the table's
RULE_ID = re.compile(r"^(R\d+\.\d+|V\d+|Table [A-Z])$")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def text_of(*args) -> str:
    res = invoke("rules", *args)
    assert res.exit_code == 0, res.output
    return res.output


def json_of(*args) -> dict:
    return json.loads(text_of(*args, "--json"))


def option_lines(text: str) -> dict[str, str]:
    """The option rows of the text: option name -> the rest of its line."""
    rows = {}
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word in OPTIONS:
            assert word not in rows, f"{word} printed twice"
            rows[word] = rest
    return rows


def shown(value) -> str:
    """A value as --rule takes it."""
    return {True: "true", False: "false"}.get(value, str(value)) if isinstance(value, bool) else str(value)


# -- docs/rules.md, read here on its own (GitHub's anchors: lower case, punctuation dropped, spaces to -)

def slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def doc_headings() -> list[tuple[int, int, str]]:
    """(line number, level, text) of every heading of docs/rules.md outside code blocks."""
    out, fenced = [], False
    for i, line in enumerate(DOCS.read_text(encoding="utf-8").splitlines()):
        fenced ^= line.startswith("```")
        m = None if fenced else re.match(r"(#+) (.*)", line)
        if m:
            out.append((i, len(m.group(1)), m.group(2)))
    return out


def doc_region(anchor: str) -> tuple[str, str]:
    """The heading whose GitHub anchor is ``anchor`` and the text under it (to the next heading
    of its level or higher); fails unless exactly one heading has that anchor."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    heads = doc_headings()
    hits = [k for k, (_, _, text) in enumerate(heads) if slug(text) == anchor]
    assert len(hits) == 1, f"docs/rules.md#{anchor}: {len(hits)} headings have this anchor"
    start, level, text = heads[hits[0]]
    end = next((i for i, lv, _ in heads[hits[0] + 1:] if lv <= level), len(lines))
    return text, "\n".join(lines[start + 1:end])


def written_there(rule: str, anchor: str) -> bool:
    """Whether docs/rules.md states ``rule`` under the heading of ``anchor``: a bold rule id
    opening a list item (``- **R2.20** ...``), or the heading itself (``Table A — ...``)."""
    heading, body = doc_region(anchor)
    return heading.startswith(rule + " ") or re.search(rf"^\s*- \*\*{re.escape(rule)}\*\*", body, re.MULTILINE) is not None


# -- the text

def test_the_text_names_every_option_with_its_value_and_rule_ids():
    rows = option_lines(text_of())
    assert sorted(rows) == sorted(OPTIONS)
    ordinary = PRESETS["ordinary"]
    for option, rest in rows.items():
        cells = rest.split()
        assert cells[0] == shown(getattr(ordinary, option)), (option, rest)
        assert "*" not in rest, f"{option} marked changed in the preset itself"
        ids = re.findall(r"\b(R\d+\.\d+|V\d+|Table [A-Z])\b", rest)
        assert ids, f"{option}: no rule id printed"
    # what docs/rules.md says each of these options is (read off the page, not off the table)
    for option, rule in (("hand_size", "V6"), ("last_trick", "R2.21"), ("redeclare", "R3.6"),
                         ("panache", "V2"), ("fixed_point", "V3"), ("rubicon_bonus", "R3.9"),
                         ("declare_all", "R2.16"), ("meld_reuse", "R2.17"), ("carte_blanche", "R3.5"),
                         ("claims", "R3.7"), ("partner_declares", "V5"), ("target", "R2.24")):
        assert re.search(rf"\b{re.escape(rule)}\b", rows[option]), (option, rule, rows[option])


def test_rule_changes_are_shown_and_marked():
    text = text_of("--rule", "hand_size=9", "--rule", "declare_all=true", "--rule", "trump=first_marriage")
    rows = option_lines(text)
    assert rows["hand_size"].split()[:4] == ["*", "9", "(preset", "8)"]
    assert rows["declare_all"].split()[:4] == ["*", "true", "(preset", "false)"]
    assert rows["trump"].split()[:2] == ["*", "first_marriage"]
    assert rows["seven_scores"].split()[:2] == ["*", "false"]      # implied by trump=first_marriage (V1)
    changed = {"hand_size", "declare_all", "trump", "seven_scores"}
    for option, rest in rows.items():
        assert (rest.lstrip().startswith("*")) == (option in changed), (option, rest)
    line = next(x for x in text.splitlines() if "--rule" in x)
    items = re.findall(r"--rule (\S+)", line)
    # the items printed make the same rule set again, as every command reads them
    from analyzer.cli.options import rules_from
    assert rules_from("ordinary", items) == preset("ordinary", hand_size=9, declare_all=True, trump="first_marriage")


def test_the_preset_unchanged_says_so():
    for variant in sorted(PRESETS):
        text = text_of("--variant", variant)
        assert f"Rules in force: {variant} " in text
        assert f"As the preset {variant}: no option changed." in text


def test_rubicon_differs_from_the_ordinary_game_where_it_should():
    ordinary, rubicon = option_lines(text_of()), option_lines(text_of("--variant", "rubicon"))
    differ = {o for o in OPTIONS if ordinary[o].split()[0] != rubicon[o].split()[0]}
    # R1.2/R3.1 four packs, nine cards, no turn-up; R3.2 trumps; R3.4 no sevens; R3.6 Portland;
    # Table B last trick 50, plain sequence 150; R3.5 carte blanche; R3.7 claims; R3.8 brisques
    expected = {"packs": "4", "hand_size": "9", "trump": "marriage_or_sequence", "seven_scores": "false",
                "redeclare": "portland", "last_trick": "50", "plain_sequence": "150",
                "carte_blanche": "repeat", "claims": "true", "brisques": "tiebreak"}
    assert differ == set(expected)
    assert {o: rubicon[o].split()[0] for o in differ} == expected
    assert differ == {o for o in OPTIONS if getattr(PRESETS["rubicon"], o) != getattr(PRESETS["ordinary"], o)}
    assert "128 cards" in text_of("--variant", "rubicon")


# -- the JSON

@pytest.mark.parametrize("args", [(), ("--variant", "rubicon"), ("--variant", "three_handed", "--rule", "packs=3"),
                                  ("--variant", "four_handed", "--rule", "partner_declares=yes"),
                                  ("--rule", "trump=first_marriage", "--rule", "hand_size=10")], ids=" ".join)
def test_json_agrees_with_the_rule_set(args):
    data = json_of(*args)
    variant = args[args.index("--variant") + 1] if "--variant" in args else "ordinary"
    from analyzer.cli.options import parse_rule_options
    rules = preset(variant, **parse_rule_options([args[i + 1] for i, a in enumerate(args) if a == "--rule"]))
    base = PRESETS[variant]
    assert data["variant"] == rules.name == variant
    assert data["cards"] == rules.n_cards
    assert [row["option"] for row in data["options"]] == OPTIONS
    for row in data["options"]:
        value = getattr(rules, row["option"])
        assert row["value"] == value and type(row["value"]) is type(value), row
        assert row["preset"] == getattr(base, row["option"])
        assert row["changed"] == (value != getattr(base, row["option"]))
        assert row["rules"] and all(RULE_ID.match(r) for r in row["rules"]), row
        assert [w["rule"] for w in row["where"]] == row["rules"]
    assert data["changed"] == [o for o in OPTIONS if getattr(rules, o) != getattr(base, o)]
    assert preset(variant, **parse_rule_options(data["rule_items"])) == rules


def test_json_and_text_say_the_same():
    args = ("--variant", "rubicon", "--rule", "carte_blanche=once")
    data, rows = json_of(*args), option_lines(text_of(*args))
    for row in data["options"]:
        cells = rows[row["option"]].split()
        value = cells[1] if row["changed"] else cells[0]
        assert value == shown(row["value"])
        for rule in row["rules"]:
            assert rule.split()[-1] in cells
        for where in row["where"]:
            assert where["place"].split()[0] in rows[row["option"]]


# -- the options cannot go stale, and every place printed is on the page

def test_every_option_has_rule_ids_and_each_a_place():
    """A RuleSet option whose comment names no rule id (and that EXTRA_RULES does not give one),
    or a rule id without a place in docs/rules.md, fails here: document the option there."""
    assert set(rt.EXTRA_RULES) <= set(OPTIONS), "EXTRA_RULES names an option RuleSet no longer has"
    for option in OPTIONS:
        ids = rt.rules_of(option)
        assert ids, f"RuleSet.{option}: give its rule ids in its comment in analyzer/rules.py"
        for rule in ids:
            assert rt.place_of(rule) is not None, f"{option}: {rule} has no place in PLACES"
    notes = rt.option_notes()
    assert set(OPTIONS) <= set(notes) and notes["hand_size"].startswith("R2.1")   # read from rules.py


def test_every_place_of_the_table_is_written_in_docs_rules_md():
    headings = {text for _, _, text in doc_headings()}
    for path, ids in rt.PLACES:
        assert all(h in headings for h in path), path
        for rule in ids:
            assert written_there(rule, slug(path[-1])), f"{rule} is not written under {path[-1]!r}"
    # every rule id docs/rules.md defines has a place
    text = DOCS.read_text(encoding="utf-8")
    defined = set(re.findall(r"^\s*- \*\*(R\d+\.\d+|V\d+)\*\*", text, re.MULTILINE))
    assert defined and defined <= {r for _, ids in rt.PLACES for r in ids}


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_docs_location_printed_exists(variant):
    text = text_of("--variant", variant)
    anchors = re.findall(r"docs/rules\.md#(\S+)", text)
    assert anchors
    for a in anchors:
        doc_region(a)                                           # exactly one heading has it
    legend = dict(re.findall(r"^  (§\d[^\n]*?)\s{2,}docs/rules\.md#(\S+)", text, re.MULTILINE))
    for rest in option_lines(text).values():                    # each place of a row is in the legend
        for place in re.findall(r"§\d(?: [A-Za-z][\w -]*?)?(?=,|$)", rest.strip()):
            assert place.strip() in legend, (place, legend)
    for row in json_of("--variant", variant)["options"]:
        for where in row["where"]:
            assert where["anchor"].startswith("docs/rules.md#")
            assert written_there(where["rule"], where["anchor"].split("#", 1)[1]), where
            assert legend[where["place"]] == where["anchor"].split("#", 1)[1]


# -- bad input

@pytest.mark.parametrize("args,needle", [
    (["--rule", "hand_size=7"], "hand_size=7: use a whole number from 8 to 10"),
    (["--rule", "nonsense"], "KEY=VALUE"),
    (["--rule", "colour=red"], "unknown rule option 'colour'"),
    (["--rule", "panache=maybe"], "panache='maybe': use true or false"),
    (["--variant", "pinochle"], "unknown variant 'pinochle'"),
    (["--variant", "rubicon", "--rule", "players=3"], "players=3 and the rubicon variant"),
    (["--rule", "name=rubicon"], "the variant is not a rule option"),
    (["--json", "--rule", "trump=marriage_or_sequence"], "trump=marriage_or_sequence is Rubicon's"),
])
def test_a_bad_rule_is_one_line_and_a_non_zero_exit(args, needle):
    res = invoke("rules", *args)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0], res.output


def test_a_bad_rule_from_the_installed_command_has_no_traceback():
    exe = Path(sys.executable).with_name("bezique")
    res = subprocess.run([str(exe), "rules", "--rule", "packs=5"], capture_output=True, text=True, check=False)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr == "Error: packs=5: use a whole number from 2 to 4\n"


# -- the help texts name only commands that exist

def help_texts() -> dict[str, str]:
    texts = {"bezique --help": CliRunner().invoke(main, ["--help"], prog_name="bezique").output}
    for name in sorted(all_commands()):
        texts[f"bezique {name} --help"] = CliRunner().invoke(main, [name, "--help"], prog_name="bezique").output
    return texts


def dangling_references(text: str) -> list[str]:
    """What ``text`` names that does not exist: ``bezique X`` with X not a command, an option in a
    quoted ``\\`bezique X --opt\\``` that X does not take, a docs/*.md file that is not there."""
    bad = []
    for m in re.finditer(r"\bbezique\s+([a-z][\w-]*)", text):
        if m.group(1) not in all_commands():
            bad.append(f"bezique {m.group(1)}: no such command")
    for m in re.finditer(r"`bezique\s+([^`]*)`", text):
        words = m.group(1).split()
        command = all_commands().get(words[0]) if words else None
        if command is None:
            continue                                            # reported above
        flags = {o for p in command.params for o in p.opts + p.secondary_opts}
        bad += [f"bezique {words[0]} {w}: no such option" for w in words[1:]
                if w.startswith("-") and w.split("=")[0] not in flags]
    for m in re.finditer(r"\bdocs/[\w./-]*\w", text):
        if not (ROOT / m.group(0)).exists():
            bad.append(f"{m.group(0)}: no such file")
    return bad


def test_the_reference_checker_finds_what_is_missing():
    assert dangling_references("see `bezique rules` and `bezique policies`; bezique simulate --hands 9") == []
    assert dangling_references("(see `bezique\n   nosuch`)") == ["bezique nosuch: no such command"]
    assert dangling_references("see `bezique rules --colour`") == ["bezique rules --colour: no such option"]
    assert dangling_references("docs/nothing.md") == ["docs/nothing.md: no such file"]


def test_every_help_text_names_only_commands_that_exist():
    texts = help_texts()
    assert "(see `bezique rules`)" in " ".join(texts["bezique simulate --help"].split())
    assert "rules" in texts["bezique --help"].split("Commands:", 1)[1]
    bad = {where: found for where, text in texts.items() if (found := dangling_references(text))}
    assert not bad, bad
