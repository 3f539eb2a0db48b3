"""Replay files: a fully given deal (HandSpec) read from JSON, and the deal a run plays.

A replay file is JSON (docs/commands.md, "Replay file format"): the rules, the dealer, each
seat's hand, the turn-up, the talon top first, and the moves, each a line
such as ``"1 plays AS"``, ``"0 plays QS from table"``, ``"0 declares bezique
QS JD"`` or ``"0 exchanges 7H"``. Parsing checks the file's shape and the cards;
whether the moves are legal is for the engine to say when the hand is played.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..cards import (
    COMBO_NAMES,
    CardError,
    card_str,
    cards_str,
    combo_cards,
    combo_id,
    is_four_combo,
    parse_card,
    rank_of,
)
from ..engine.deals import Deal, deal_deck, packet_seat
from ..engine.layout import (
    MAX_TALON,
    S_CARDS,
    S_CARTE,
    S_CLAIM,
    S_DECLARE,
    S_EXCHANGE,
    S_GAME_CLAIM,
    S_MAX_CARDS,
    S_PARTNER,
    S_PLAY,
    S_W,
)
from ..errors import BeziqueError
from ..rules import RuleError, RuleSet, from_dict, shown
from ..words import combination_name

FORMAT = "bezique-replay/1"
MOVE_RE = re.compile(r"^\s*(-?\d+)\s+(plays|declares|exchanges|claims|shows|passes)\b\s*(.*?)\s*$", re.I)


class ReplayError(BeziqueError, ValueError):
    """A replay file that is malformed (exit code 1)."""


class RuleViolation(BeziqueError, ValueError):
    """A move that breaks a rule (exit code 2); the message names the move and the rule."""

    exit_code = 2


@dataclass
class HandSpec:
    """A fully given deal: rules, dealer, hands by seat, turn-up, talon and moves."""

    rules: RuleSet
    dealer: int
    hands: list
    turn_up: int | None
    talon: list
    moves: list = field(default_factory=list)     # script rows (kind, seat, a, b, four cards)
    move_text: list = field(default_factory=list)
    game_totals: list | None = None     # each seat's game total before this hand (V3's claim)

    def totals(self) -> np.ndarray:
        """The game totals before the hand as the engine takes them (zeros when not given)."""
        t = np.zeros(4, np.int64)
        t[:len(self.game_totals or [])] = self.game_totals or []
        return t

    def deck(self) -> np.ndarray:
        """The cards in the engine's deal order: eldest first, round the table, turn-up, talon."""
        n = self.rules.players
        order = []
        for i in range(n):
            order += self.hands[packet_seat(self.dealer, n, i)]
        if self.turn_up is not None:
            order.append(self.turn_up)
        order += self.talon
        return np.array(order, dtype=np.int32)

    def deal(self) -> Deal:
        """The hand as the one-hand entry points take it (engine.single, engine.scripted): the
        deck in deal order, the dealer and the game totals."""
        return Deal(self.deck(), self.dealer, self.totals())


def dealt_spec(rules: RuleSet, seed: int, hand: int = 0) -> HandSpec:
    """The deal of hand number ``hand`` of a run seeded ``seed`` (as :func:`simulate` deals it)."""
    deck = np.zeros(MAX_TALON, np.int32)
    deal_deck(rules.n_cards, np.uint64(seed), hand, deck, np.zeros(1, np.uint64))
    deck = [int(c) for c in deck[:rules.n_cards]]
    n, h = rules.players, rules.hand_size
    dealer = hand % n
    hands = [None] * n
    for i in range(n):
        hands[packet_seat(dealer, n, i)] = deck[i * h:(i + 1) * h]
    k = n * h
    turn_up = deck[k] if rules.trump == "turn_up" else None
    talon = deck[k + 1:] if turn_up is not None else deck[k:]
    return HandSpec(rules, dealer, hands, turn_up, talon)


def _cards(value, what: str) -> list[int]:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise ReplayError(f"{what} must be a list of cards such as [\"QS\", \"TD\"]")
    try:
        return [parse_card(c) for c in value]
    except CardError as e:
        raise ReplayError(f"{what}: {e}") from None


def parse_move(text: str, index: int, rules: RuleSet) -> tuple[list[int], str]:
    """Parse one move line into a script row; ReplayError if malformed, RuleViolation if
    the cards named cannot make the combination."""
    if not isinstance(text, str):
        raise ReplayError(f"move {index}: expected a string such as \"0 plays QS\", got {shown(text)}")
    m = MOVE_RE.match(text)
    if not m:
        raise ReplayError(f"move {index}: cannot read {shown(text)} (expected e.g. \"0 plays QS\", "
                          "\"0 plays QS from table\", \"1 declares bezique QS JD\", \"0 exchanges 7H\", "
                          "\"1 claims the game\", \"2 passes to partner\")")
    if len(m.group(1)) > 2 or not 0 <= int(m.group(1)) < rules.players:     # "-1": no seat, not a misreading
        raise ReplayError(f"move {index}: there is no seat {shown(m.group(1))[1:-1]} in a "
                          f"{rules.players}-handed game")
    seat, verb, rest = int(m.group(1)), m.group(2).lower(), m.group(3).split()
    row = [0] * S_W
    row[1] = seat
    row[S_CARDS:] = [-1] * S_MAX_CARDS
    try:
        if verb == "plays":
            src = " ".join(rest[1:]).lower()
            if not rest or src not in ("", "from table", "from hand"):
                raise ReplayError(f"move {index}: expected \"{seat} plays CARD [from table]\", got {shown(text)}")
            row[0], row[2], row[3] = S_PLAY, parse_card(rest[0]), int(src == "from table")
        elif verb == "exchanges":
            row[0], row[2] = S_EXCHANGE, parse_card(rest[0]) if rest else -1
        elif verb == "shows":
            if " ".join(rest).lower().replace("_", " ") != "carte blanche":
                raise ReplayError(f"move {index}: expected \"{seat} shows carte blanche\", got {shown(text)}")
            row[0] = S_CARTE
        elif verb == "passes":             # V5 option
            if " ".join(rest).lower() != "to partner":
                raise ReplayError(f"move {index}: expected \"{seat} passes to partner\", got {shown(text)}")
            row[0] = S_PARTNER
        elif verb == "claims" and " ".join(rest).lower() == "the game":     # V3
            row[0] = S_GAME_CLAIM
        elif verb == "claims":
            if not rest:
                raise ReplayError(f"move {index}: name the cards laid or the combination, e.g. "
                                  f"\"{seat} claims KS QS\" or \"{seat} claims four_kings\"")
            row[0] = S_CLAIM
            try:
                laid = [parse_card(x) for x in rest]
            except CardError:
                laid = None
            if laid is None:
                if len(rest) > 1:
                    raise ReplayError(f"move {index}: a claim names either its cards or one "
                                      f"combination, got {shown(text)}")
                try:
                    row[2] = combo_id(rest[0])
                except CardError:
                    raise ReplayError(f"move {index}: {shown(rest[0])} is neither a card nor a combination "
                                      f"(e.g. \"{seat} claims KS QS\" or \"{seat} claims four_kings\")") from None
            elif len(laid) > S_MAX_CARDS:
                raise ReplayError(f"move {index}: a claim lays at most {S_MAX_CARDS} cards")
            else:
                row[2] = -1
                row[S_CARDS:S_CARDS + len(laid)] = laid
        else:
            if not rest:
                raise ReplayError(f"move {index}: name the combination, e.g. \"{seat} declares bezique QS JD\"")
            c = combo_id(rest[0])
            row[0], row[2] = S_DECLARE, c
            named = [parse_card(x) for x in rest[1:]]
            if named:
                _check_combo_cards(c, named, index, seat)
                if is_four_combo(c):
                    row[S_CARDS:S_CARDS + 4] = named
    except CardError as e:
        raise ReplayError(f"move {index}: {e}") from None
    return row, text


def _check_combo_cards(c: int, named: list[int], index: int, seat: int) -> None:
    where, name = "Table A", combination_name(COMBO_NAMES[c])
    if is_four_combo(c):
        rank = rank_of(combo_cards(c)[0])
        if len(named) != 4 or any(rank_of(x) != rank for x in named):
            raise RuleViolation(f"move {index}: seat {seat}: {cards_str(named)} is not {name} "
                                f"(four cards of one rank) ({where})")
    elif Counter(named) != Counter(combo_cards(c)):
        raise RuleViolation(f"move {index}: seat {seat}: {cards_str(named)} do not make {name} "
                            f"({cards_str(combo_cards(c))}) ({where})")


def parse_replay(obj) -> HandSpec:
    """Validate a replay object (already JSON-decoded) and return its :class:`HandSpec`."""
    if not isinstance(obj, dict):
        raise ReplayError("a replay file holds one JSON object")
    for key in ("rules", "dealer", "hands", "talon"):
        if key not in obj:
            raise ReplayError(f"missing key {key!r} (a replay needs rules, dealer, hands, turn_up, talon, moves)")
    try:
        rules = from_dict(obj["rules"]) if not isinstance(obj["rules"], str) else from_dict({"variant": obj["rules"]})
    except (RuleError, TypeError) as e:
        raise ReplayError(f"rules: {e}") from None
    n = rules.players
    dealer = obj["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ReplayError(f"dealer must be a seat number 0..{n - 1}, got {shown(dealer)}")
    hands = obj["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise ReplayError(f"hands must list {n} hands, one per seat")
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
    for i, h in enumerate(hands):
        if len(h) != rules.hand_size:
            raise ReplayError(f"hands[{i}] has {len(h)} cards; this rule set deals {rules.hand_size}")
    turn_up = obj.get("turn_up")
    if rules.trump == "turn_up":
        if turn_up is None:
            raise ReplayError("missing 'turn_up': this rule set turns up a trump card (R2.1)")
        turn_up = _cards([turn_up], "turn_up")[0]
    elif turn_up is not None:
        raise ReplayError("this rule set has no turn-up (R3.1); remove 'turn_up'")
    talon = _cards(obj["talon"], "talon")
    all_cards = Counter(sum(hands, []) + talon + ([turn_up] if turn_up is not None else []))
    wrong = [f"{card_str(t)} {all_cards.get(t, 0)}x" for t in range(32) if all_cards.get(t, 0) != rules.copies(t)]
    if wrong:
        short = ", less one 8C (V4)" if rules.short_pack else ""
        raise ReplayError(f"the cards are not exactly {rules.packs} packs{short} (each card {rules.packs} times): "
                          + ", ".join(wrong[:8]) + (" …" if len(wrong) > 8 else ""))
    totals = obj.get("game_totals")
    if totals is not None and (not isinstance(totals, list) or len(totals) != n or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 10**6 for x in totals)):
        raise ReplayError(f"game_totals must list {n} whole numbers from 0 to 999999, one per seat "
                          "(the game scores before this hand), got " + shown(totals))
    moves = obj.get("moves", [])
    if not isinstance(moves, list):
        raise ReplayError("moves must be a list of strings")
    rows, texts = [], []
    for i, m in enumerate(moves, start=1):
        row, text = parse_move(m, i, rules)
        rows.append(row)
        texts.append(text)
    return HandSpec(rules, dealer, hands, turn_up, talon, rows, texts, totals)


def load_replay(path) -> HandSpec:
    """Read and validate a replay file (ReplayError if unreadable or malformed)."""
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except FileNotFoundError:
        raise ReplayError(f"no such file: {path}") from None
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path} is not valid JSON: {e}") from None
    except RecursionError:
        raise ReplayError(f"{path} is nested too deeply to be a replay file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {e}") from None
    except ValueError as e:           # e.g. a number of more than 4300 digits
        raise ReplayError(f"{path} is not a replay file: {e}") from None
    return parse_replay(obj)
