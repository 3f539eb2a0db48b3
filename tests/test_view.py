"""A seat's view as input (analyzer.hands.view, issue 57): the short text and JSON forms, a full
deal drawn consistent with it (R2.7's table plays, R2.9's exchange, R3.6's re-declarations and
R3.7's claims in it), the same analysis as the full record's, and each view that cannot be
refused in one line, exit 1."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cards import card_str, cards_str
from analyzer.cli import main
from analyzer.engine import api
from analyzer.hands.hand_json import replay_json
from analyzer.hands.handlog import play_spec
from analyzer.hands.replay_file import dealt_spec, parse_replay
from analyzer.hands.view import SeatView, load_record, parse_view, parse_view_text, view_of, view_text, world
from analyzer.rules import preset
from analyzer.studies.position.analysis import analyze_position, analyze_record, position

REPLAYS = Path(__file__).parent / "replays"
EXAMPLE = REPLAYS / "example_hand.json"
ORDINARY_VIEW = REPLAYS / "example_view.txt"
RUBICON_VIEW = REPLAYS / "rubicon_view.txt"


def self_play(variant: str, player: str, seed: int, hand: int = 0):
    """A whole hand of ``player`` at both seats, as a parsed replay file."""
    out = play_spec(dealt_spec(preset(variant), seed, hand), [player, player], seed=seed, hand=hand)
    return parse_replay(replay_json(out))


def cut(spec, n: int):
    """The record's first ``n`` moves."""
    return dataclasses.replace(spec, moves=spec.moves[:n], move_text=spec.move_text[:n])


def observations(spec, seat: int) -> list:
    """The seat's observation at each of its decisions in ``spec`` (what the search sees)."""
    out = []
    for at in range(len(spec.moves)):
        arr, st, _ = position(spec, at)
        if api.to_act(st) == seat:
            api.observe(arr, st, seat)
            out.append(st.obs[seat].copy())
    return out


def test_the_example_views_read_and_are_what_the_seat_saw():
    """The documented examples: seat 0's view of the example hand (an exchange, R2.9, and cards
    played from the table, R2.7) and of a Rubicon hand (a claim, R3.7, and a marriage declared
    again after four queens, R3.6)."""
    ordinary = load_record(ORDINARY_VIEW)
    assert isinstance(ordinary, SeatView) and ordinary.seat == 0 and len(ordinary.moves) == 24
    full = cut(load_record(EXAMPLE), 24)
    assert ordinary.hand == full.hands[0] and ordinary.turn_up == full.turn_up
    assert ordinary == view_of(full, 0)
    rubicon = load_record(RUBICON_VIEW)
    assert rubicon.rules.is_rubicon and rubicon.turn_up is None
    texts = rubicon.move_text
    assert "0 claims KD QD" in texts and texts.count("0 declares marriage_D KD QD") == 1


@pytest.mark.parametrize("variant,player,seed", [("ordinary", "greedy", 3), ("rubicon", "learned", 5)])
def test_a_view_reads_back_from_its_text_and_its_json(variant, player, seed):
    spec = self_play(variant, player, seed)
    for seat in (0, 1):
        view = view_of(spec, seat)
        assert parse_view_text(view_text(view)) == view
        obj = {"format": "bezique-view/1", "rules": variant, "seat": seat, "dealer": view.dealer,
               "hand": cards_str(view.hand), "draws": cards_str(view.draws), "moves": view.move_text}
        if view.turn_up is not None:
            obj["turn_up"] = card_str(view.turn_up)
        assert parse_view(obj) == view


@pytest.mark.parametrize("variant,player,seed", [("ordinary", "greedy", 11), ("ordinary", "hints", 12),
                                                 ("rubicon", "learned", 13), ("rubicon", "greedy", 14)])
def test_the_world_drawn_for_a_view_shows_the_seat_exactly_what_it_saw(variant, player, seed):
    """At every decision of the seat, its observation in a deal drawn for its view (three seeds)
    equals its observation in the real deal: the search sees the same position."""
    spec = self_play(variant, player, seed)
    for seat in (0, 1):
        want = observations(spec, seat)
        for draw in (1, 2, 3):
            got = observations(world(view_of(spec, seat), draw), seat)
            assert len(got) == len(want) and all(np.array_equal(a, b) for a, b in zip(got, want))


@pytest.mark.parametrize("variant,player,seed,at", [("ordinary", "greedy", 21, 31), ("rubicon", "learned", 22, 40)])
def test_a_view_gives_the_full_records_analysis(variant, player, seed, at):
    """Same position, samples and seed: the same values, action by action, from the view of the
    seat to act as from the full record."""
    spec = self_play(variant, player, seed)
    full = analyze_position(spec, at, samples=24, seed=7)
    seen = analyze_record(view_of(cut(spec, at), full.seat), None, samples=24, seed=7)
    assert [(r.code, r.mean, r.lo, r.hi, r.behind) for r in seen.actions] == \
        [(r.code, r.mean, r.lo, r.hi, r.behind) for r in full.actions]
    assert full.played is not None and seen.played is None      # the view ends before the move


def test_the_cli_analyses_a_view_file():
    run = CliRunner().invoke(main, ["analyze", str(RUBICON_VIEW), "--samples", "16"])
    assert run.exit_code == 0, run.output
    assert "seat 0's hand: A♠ A♠ A♦ A♦" in run.output and "seat 1's table: Q♠ J♦" in run.output
    assert "play Q♦ from the table" in run.output and "net game points" in run.output


ORDINARY_TEXT = ORDINARY_VIEW.read_text(encoding="utf-8")


def refused(tmp_path, text: str) -> str:
    """`bezique analyze` of the view ``text``: it must fail in one line, exit 1; its message."""
    path = tmp_path / "view.txt"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["analyze", str(path), "--samples", "4"])
    assert run.exit_code == 1, run.output
    assert "Traceback" not in run.output and len(run.output.strip().splitlines()) == 1, run.output
    return run.output


def test_a_card_seen_more_often_than_the_packs_hold_is_refused(tmp_path):
    text = ORDINARY_TEXT.replace("hand TC TS QH 7H 8S 8S TD 7C", "hand TC TS QH 7H 8S 8S 8S 7C")
    assert "more copies than the packs hold" in refused(tmp_path, text) and "8S 3 times" in refused(tmp_path, text)
    # seen across the hand and the other seat's plays: three eights of spades
    text = ORDINARY_TEXT.replace("1 plays QC\n", "1 plays 8S\n")
    assert "more copies seen than the packs hold" in refused(tmp_path, text)


def test_a_hand_of_the_wrong_size_is_refused(tmp_path):
    text = ORDINARY_TEXT.replace("hand TC TS QH 7H 8S 8S TD 7C", "hand TC TS QH 7H 8S 8S TD")
    assert "hand: 7 cards, but ordinary deals 8" in refused(tmp_path, text)
    rubicon = RUBICON_VIEW.read_text(encoding="utf-8").replace("hand AD 8D QH 7C 7H QD AH 7S 8S",
                                                               "hand AD 8D QH 7C 7H QD AH 7S")
    assert "hand: 8 cards, but rubicon deals 9" in refused(tmp_path, rubicon)


def test_a_move_out_of_turn_is_refused(tmp_path):
    text = ORDINARY_TEXT.replace("1 plays JH\n0 plays 7C\n", "0 plays 7C\n1 plays JH\n", 1)
    assert "move 1" in refused(tmp_path, text) and "R2.3" in refused(tmp_path, text)


def test_a_declaration_the_table_cannot_make_is_refused(tmp_path):
    """Seat 0 declares the marriage in ♦ with a K♦ it never held: its hand, draws and table do
    not have it (R2.13)."""
    text = ORDINARY_TEXT.replace("draws QS KD 9D", "draws QS 9H 9D")
    message = refused(tmp_path, text)
    assert "move 13: seat 0 does not hold the marriage in ♦" in message


def test_a_view_missing_draws_or_turn_up_is_refused(tmp_path):
    lines = ORDINARY_TEXT.splitlines()
    short = "\n".join(line for line in lines if not line.startswith("draws")) + "\ndraws QS KD\n"
    assert "name every card it drew" in refused(tmp_path, short)
    no_turn = "\n".join(line for line in lines if not line.startswith("turn-up")) + "\n"
    assert "missing the turn-up" in refused(tmp_path, no_turn)
    assert "cannot read" in refused(tmp_path, ORDINARY_TEXT + "talon 7S 8S\n")


def test_a_view_of_the_other_seats_decision_is_refused(tmp_path):
    """A view analyses its own seat's decisions: after the exchange seat 1 is to lead."""
    text = ORDINARY_TEXT.rsplit("1 plays 8C", 1)[0]
    assert "seat 1 is to act: a view of seat 0 analyses its own decisions" in refused(tmp_path, text)
