"""One format for each kind of figure (analyzer/numbers.py) and names in words (analyzer/words.py):
what a reader reads, held here kind by kind."""
from __future__ import annotations

import pytest

from analyzer.numbers import count, difference, points, share
from analyzer.words import combination_name, event_name, hint_name


@pytest.mark.parametrize("p, lo, hi, text", [
    (0.4953, None, None, "49.5 %"),
    (0.0525, 0.0501, 0.0550, "5.25 % [5.01, 5.50]"),           # the interval with the figure's decimals
    (0.00213, None, None, "0.213 %"),
    (0.00027, 0.0002, 0.00035, "0.0270 % [0.0200, 0.0350]"),
    (1.0, 0.98, 1.0, "100.0 % [98.0, 100.0]"),
    (0.0, None, None, "0.0 %"),
])
def test_a_share_is_in_percent_with_three_significant_digits(p, lo, hi, text):
    assert share(p, lo, hi) == text


@pytest.mark.parametrize("x, lo, hi, text", [
    (0.5120, 0.48, 0.55, "0.512 [0.480, 0.550]"),             # below 1: three decimals
    (3.599, 3.575, 3.622, "3.60 [3.58, 3.62]"),               # below 10: two
    (279.8, 277.84, 282.17, "279.8 [277.8, 282.2]"),          # below 1,000: one
    (2032.4, 1884.0, 2179.0, "2,032 [1,884, 2,179]"),         # from 1,000: none, thousands separated
])
def test_points_take_their_decimals_from_their_size(x, lo, hi, text):
    assert points(x, lo, hi) == text


def test_a_difference_signs_both_bounds():
    assert difference(-1.3, -5.6, 3.1) == "-1.30 [-5.60, +3.10]"
    assert difference(-0.28, -4.1, 3.6) == "-0.28 [-4.10, +3.60]"          # the bounds set the decimals
    assert difference(-0.0001, -48.0, 48.0) == "+0.0 [-48.0, +48.0]"        # never a negative zero
    assert difference(17.24, 11.1, 23.38) == "+17.2 [+11.1, +23.4]"
    assert difference(2032.4, 1884.0, 2179.0) == "+2,032 [+1,884, +2,179]"


def test_a_missing_figure_is_a_dash_and_a_count_is_whole():
    assert share(float("nan")) == points(float("nan")) == "–"
    assert count(16000) == "16,000"


@pytest.mark.parametrize("key, words", [
    ("marriage_H", "the marriage in ♥"), ("sequence_S", "the sequence in ♠"), ("double_bezique", "double bézique"),
    ("four_aces", "four aces"), ("royal_marriage", "the royal marriage"), ("common_marriage", "a common marriage"),
    ("trump_sequence", "the sequence in trumps"), ("panache_four_kings", "a panache four of kings")])
def test_a_combination_is_named_in_words(key, words):
    assert combination_name(key) == words


@pytest.mark.parametrize("key, words", [
    ("dealt_four_aces", "four aces in a dealt hand"), ("dealt_sequence_S", "the sequence in ♠ in a dealt hand"),
    ("receives_double_bezique", "double bézique received over the hand"), ("turn_up_seven", "the turn-up a seven")])
def test_an_event_is_named_in_words(key, words):
    assert event_name(key) == words


def test_a_hint_is_named_by_what_it_says():
    assert hint_name("H4") == "counting the cards (H4)"
    assert hint_name("H13").endswith("(H13)") and hint_name("H14") == "H14"
