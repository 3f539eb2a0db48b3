"""A report leads with what it found (analyzer/studies/report/findings.py): each headline figure a
sentence with its interval and pairing, the policies, the rules in force, the sample sizes said
alike at the start and the end, shares in percent for people."""
from __future__ import annotations

import re

import pytest

from analyzer.numbers import share
from analyzer.rules import preset
from analyzer.studies.report.study import format_study, hands_played, study, write_report
from analyzer.studies.report.findings import findings, policy_lines, rules_rows, sample_text
from analyzer.tables.study_tables import difference_ci

INTERVAL = re.compile(r"[-+]?[\d,.]+ (?:% )?\[[-+]?[\d,.]+, [-+]?[\d,.]+\]")


@pytest.fixture(scope="module")
def small():
    return study(preset("ordinary", hand_size=9), 300, 5)


def test_difference_of_two_independent_means_adds_half_widths_in_quadrature():
    diff, lo, hi = difference_ci((10.0, 8.0, 12.0), (4.0, 1.0, 7.0))
    assert diff == 6.0 and lo == pytest.approx(6 - 13 ** 0.5) and hi == pytest.approx(6 + 13 ** 0.5)


def test_every_finding_has_an_interval_and_names_where_it_comes_from(small):
    found = findings(small)
    pairs = len(small.pairwise)
    assert len(found) >= pairs + 3
    for sentence in found:
        assert INTERVAL.search(sentence) or "deal-time events" in sentence, sentence
    for sentence, (_, r) in zip(found, small.pairwise.iterrows()):
        assert r.policy_a in sentence and r.policy_b in sentence
        assert share(r.score_a, r.score_a_lo, r.score_a_hi) in sentence          # a share in per cent
        verb = "beats" if r.mean_diff_lo > 0 else "loses to" if r.mean_diff_hi < 0 else "cannot be told apart"
        assert verb in sentence
    assert all("hints vs hints" in s for s in found[pairs:-1])


def test_the_sample_sizes_agree_with_the_total_the_run_announces(small):
    text = sample_text(small)
    announced = hands_played(300, players=2)          # what the CLI's progress line says first
    assert f"{announced:,} hands in all" in text and "300 hands for each of 4 pairings" in text


def test_changed_rules_are_shown_with_their_preset_value(small):
    rows = dict(rules_rows(small.rules))
    assert rows["`hand_size`"].startswith("9 (preset 8") and "R2.1" in rows["`hand_size`"]
    assert "9 cards each" in rows["players and cards"]


def test_the_terminal_says_the_takeaways_and_verbose_every_finding(small):
    text = format_study(small)
    assert text.startswith("Ordinary bézique, hand_size=9: what the study found")
    assert "**" not in text and "](#" not in text and len(text) < 2000
    assert not re.search(r"(?<![\d.])0\.\d{3,}(?! \[)", text)     # no share left as a fraction
    full = format_study(small, verbose=True)
    assert full.startswith("What this study found (ordinary bézique, hand_size=9")
    assert "Policies:" in full and "hand_size 9 (preset 8" in full
    assert full.splitlines()[-1].startswith("Played: ") and sample_text(small) in full
    assert all(line.replace("**", "") in full for line in policy_lines(small))


def test_report_md_opens_with_what_it_found_and_ends_with_how_it_was_made(small, tmp_path):
    write_report(small, tmp_path, "bezique report --rule hand_size=9 --hands 300 --seed 5")
    md = (tmp_path / "report.md").read_text()
    heads = [line for line in md.splitlines() if line.startswith("## ")]
    assert heads[0] == "## What this study found" and heads[-2:] == ["## How this study was made", "## Files"]
    assert md.splitlines()[0] == "# Ordinary bézique, hand_size=9: what the study found"
    assert [line for line in md.splitlines() if line.startswith("### ")] == [
        "### Policies", "### Rules in force", "### How it was played"]          # no strong play here
    assert "| `hand_size` | 9 (preset 8" in md and "bezique rules --variant ordinary --rule hand_size=9" in md
    assert "eldest less dealer (points)" in md and "receives the cards in" in md
    db = small.tables["double_bezique"].iloc[0]
    assert share(db.received_double, db.received_double_lo, db.received_double_hi) in md   # the interval beside the exact
