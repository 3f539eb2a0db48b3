"""Rule values typed and range-checked wherever they enter: --rule, a replay file's rules, the
Python API (issue 14, part 1). Each bad value is one line naming the rule and what it takes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.rules import NUMBERS, WORDS, RuleError, from_dict, preset

BAD = [
    ("ordinary", "last_trick=abc", "last_trick='abc': use a whole number from 0 to 100000"),
    ("ordinary", "declare_all=maybe", "declare_all='maybe': use true or false"),
    ("ordinary", "seven_scores=abc", "seven_scores='abc': use true or false"),
    ("ordinary", "last_trick=10.5", "last_trick='10.5': use a whole number from 0 to 100000"),
    ("ordinary", "last_trick=10**20", "last_trick='10**20': use a whole number"),
    ("ordinary", f"last_trick={10**20}", f"last_trick={10**20}: use a whole number"),
    ("ordinary", "last_trick=-1000", "last_trick=-1000: use a whole number from 0 to 100000"),
    ("ordinary", "declare_all=5", "declare_all='5': use true or false"),
    ("rubicon", "carte_blanche=off", None),                      # a word option keeps its word
    ("rubicon", "plain_sequence=abc", "plain_sequence='abc': use a whole number"),
    ("ordinary", "name=rubicon", "the variant is not a rule option"),
    ("ordinary", "trump=7", "trump='7': use one of turn_up, first_marriage, marriage_or_sequence"),
]


@pytest.mark.parametrize("command", [["simulate", "--hands", "10"], ["odds", "--hands", "10"]])
@pytest.mark.parametrize("variant, item, message", BAD, ids=[b[1] for b in BAD])
def test_a_bad_rule_value_is_one_line(command, variant, item, message):
    res = CliRunner().invoke(main, [*command, "--variant", variant, "--rule", item])
    if message is None:                                   # a good value given as a word
        assert res.exit_code == 0, res.output
        return
    assert res.exit_code == 1 and res.output.startswith(f"Error: {message}"), res.output
    assert res.output.count("\n") == 1 and res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("key", sorted(NUMBERS))
def test_every_number_option_refuses_a_bool_a_float_and_its_bounds_neighbours(key):
    lo, hi = NUMBERS[key]
    for value in (True, 1.5, lo - 1, hi + 1, "7"):
        with pytest.raises(RuleError, match=f"^{key}="):
            preset("ordinary", **{key: value})


@pytest.mark.parametrize("key", sorted(WORDS))
def test_every_word_option_refuses_other_words(key):
    with pytest.raises(RuleError, match=f"^{key}='nonsense': use one of"):
        preset("ordinary", **{key: "nonsense"})


def test_a_replay_files_rules_are_checked_too(tmp_path):
    with pytest.raises(RuleError, match="last_trick='x'"):
        from_dict({"variant": "ordinary", "last_trick": "x"})
    doc = json.loads((__import__("pathlib").Path(__file__).parent / "replays" / "example_hand.json").read_text())
    doc["rules"] = {"variant": "ordinary", "last_trick": "x"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code in (1, 2) and "last_trick='x': use a whole number" in res.output
    assert [line for line in res.output.splitlines() if not line.startswith("compiling")] == [
        "Error: rules: last_trick='x': use a whole number from 0 to 100000"], res.output
