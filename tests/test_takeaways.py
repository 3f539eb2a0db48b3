"""The report's takeaways (studies/report/takeaways.py) say what their intervals support: the hint
most worth having is the largest whose interval is above zero, the one that costs most the
lowest below zero, a seat's advantage is "no measurable difference" when its interval holds
zero; every takeaway carries its interval and links its section; there are at most six."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from analyzer.rules import preset
from analyzer.studies.report import takeaways as tk


def study(hint_rows=None, seat=(-1.3, -5.6, 3.1)):
    """A study-like value with the tables the takeaways read."""
    tables = {
        "hint_worth": pd.DataFrame(hint_rows or [], columns=["hint", "mean_diff", "mean_diff_lo", "mean_diff_hi"]),
        "seat_advantage": pd.DataFrame([{"pairing": "learned vs learned", "eldest_minus_dealer": seat[0],
                                         "eldest_minus_dealer_lo": seat[1], "eldest_minus_dealer_hi": seat[2]}]),
        "double_bezique": pd.DataFrame([{"policy": "learned", "scored_double": 0.0382, "scored_double_lo": 0.0362,
                                         "scored_double_hi": 0.0404, "received_double": 0.0525,
                                         "received_double_lo": 0.0501, "received_double_hi": 0.0550,
                                         "received_double_exact": 0.0566}]),
        "brisques": pd.DataFrame([{"pairing": "learned vs learned", "margin_per_brisque": 28.7,
                                   "margin_per_brisque_lo": 27.0, "margin_per_brisque_hi": 30.4,
                                   "winner_changes": 0.0836, "winner_changes_lo": 0.0794, "winner_changes_hi": 0.088}]),
        "game_length": pd.DataFrame([{"policy": "learned", "target": 1000, "mean_hands": 3.599, "mean_hands_lo": 3.575,
                                      "mean_hands_hi": 3.622, "games": 4446}]),
        "pairwise": pd.DataFrame([{"policy_a": "learned", "policy_b": "hints", "mean_diff": 124.5, "mean_diff_lo": 120.6,
                                   "mean_diff_hi": 128.3, "score_a": 0.765, "score_a_lo": 0.755, "score_a_hi": 0.774}]),
    }
    return SimpleNamespace(rules=preset("ordinary"), tables=tables, strong=SimpleNamespace(policy="learned"),
                           headline="learned vs learned", results={"learned vs learned": None})


HINTS = [("H1", 3.8, -3.4, 11.0), ("H2", 11.6, 1.5, 21.6), ("H4", 17.2, 11.1, 23.4), ("H3", -5.6, -10.2, -1.0),
         ("H6", -6.0, -8.5, -3.4), ("H7", 0.0, 0.0, 0.0)]


def test_the_hint_worth_having_and_the_one_costing_most_follow_their_intervals():
    t = tk.hint_takeaway(study(HINTS))
    assert t.text.startswith("Counting the cards (H4) is the hint most worth having") and "+17.2 [+11.1, +23.4]" in t.text
    assert "royal marriage and sequence before bézique (H6) costs most, 6.00 [3.40, 8.50]" in t.text
    assert t.anchor == tk.HINT_WORTH


def test_no_hint_told_apart_says_so_with_the_largest_interval():
    t = tk.hint_takeaway(study([("H1", 3.8, -3.4, 11.0), ("H5", -7.0, -15.0, 1.0)]))
    assert t.text.startswith("No hint of the rulebook can be told from nothing") and "(H5): -7.0 [-15.0, +1.0]" in t.text


def test_the_seat_advantage_is_no_measurable_difference_when_its_interval_holds_zero():
    assert "no measurable difference" in tk.seat_takeaway(study(seat=(-1.3, -5.6, 3.1))).text
    worth = tk.seat_takeaway(study(seat=(4.0, 1.0, 7.0))).text
    assert "is worth +4.00 [+1.00, +7.00]" in worth
    assert "costs 2.05 [1.49, 2.60] points" in tk.seat_takeaway(study(seat=(-2.05, -2.60, -1.49))).text


def test_at_most_six_each_with_an_interval_and_a_link():
    found = tk.takeaways(study(HINTS))
    assert len(found) == tk.MAX_TAKEAWAYS
    assert all("[" in t.text and t.markdown().endswith(f"(#{t.anchor}))") for t in found)
