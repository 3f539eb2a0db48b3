"""A hand as one seat saw it (a "view"): its own cards, dealt and drawn, the turn-up, every move
of both seats (the cards played, each declaration with its cards, the seven exchanged, the
claims), and nothing it could not see — no other hand, no talon order. The scores, the trumps
and the talon's size follow from the moves.

A view is typed as short text (one line a fact, ``#`` starts a comment)::

    variant ordinary          # or: variant rubicon; rule KEY=VALUE lines change a rule
    seat 0                    # the seat whose view this is
    dealer 1
    hand TC TS QH 7H 8S 8S TD 7C
    turn-up 8C                # (not in Rubicon)
    draws QS QC 8D            # the seat's draws so far, in order (one per trick it has drawn after)
    1 plays JH                # then the moves, as in a replay file
    0 plays 7C
    ...

or as JSON (``{"format": "bezique-view/1", "rules": ..., "seat": 0, "dealer": 1, "hand": "...",
"turn_up": "8C", "draws": "...", "moves": [...]}``); a full replay file (every hand and the talon)
still reads as one (:func:`load_record`). The other seat's cards are never asked for: a full deal
consistent with everything the seat saw is drawn (:func:`world`) — every card the other seat
played, declared or exchanged placed where it could have come from, the rest of the packs dealt
at random — and the engine replays the moves on it, so a view that cannot be (a card seen more
often than the packs hold, a declaration the table cannot make, a hand of the wrong size, a move
out of turn) is refused in one line naming what is wrong. Two-handed games only (the analysis
and the review are two-handed)."""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from ..cards import FIRST_FOUR, FIRST_SEQUENCE, KING, KNAVE, MARRIAGE, QUEEN, SEVEN, CardError, card_id, \
    card_str, combo_cards, parse_card, rank_of, suit_of
from ..engine.layout import G_ERR_MOVE, G_STATUS, G_TALON_POS, S_CARDS, S_CARTE, S_CLAIM, S_DECLARE, S_EXCHANGE, \
    S_PLAY, ST_ILLEGAL_SCRIPT
from ..engine.scripted import replay_moves
from ..engine.tricks import beats
from ..rules import RuleError, RuleSet, from_dict, preset, shown
from .replay_file import FORMAT as REPLAY_FORMAT
from .replay_file import HandSpec, ReplayError, parse_move, parse_replay

VIEW_FORMAT = "bezique-view/1"
COURTS = (KING, QUEEN, KNAVE)
CARTE_RE = re.compile(r"^\s*(\d+)\s+shows\s+carte[\s_]+blanche\b\s*(.*?)\s*$", re.I)


@dataclass
class SeatView:
    """What seat ``seat`` saw of a hand: its dealt ``hand`` and its ``draws`` in order (card
    types), the ``turn_up``, the ``moves`` of both seats (script rows, as a replay's, with their
    ``move_text``), the cards a seat showed with carte blanche (``shown``: seat -> cards), and
    the game totals before the hand (V3)."""

    rules: RuleSet
    seat: int
    dealer: int
    hand: list
    turn_up: int | None
    draws: list
    moves: list = field(default_factory=list)
    move_text: list = field(default_factory=list)
    shown: dict = field(default_factory=dict)
    game_totals: list | None = None


def _cards(text, what: str) -> list[int]:
    """Cards written as ``"QS JD 7H"`` (or a list of such); ReplayError naming ``what``."""
    words = text.split() if isinstance(text, str) else text if isinstance(text, list) else None
    if words is None:
        raise ReplayError(f"{what}: expected cards such as \"QS JD 7H\", got {shown(text)}")
    try:
        return [parse_card(w) for w in words]
    except CardError as e:
        raise ReplayError(f"{what}: {e}") from None


def _moves(lines, rules: RuleSet, seat: int) -> tuple[list, list, dict]:
    """The moves' script rows and texts, and the cards shown with carte blanche (the seat's own
    hand needs none; another seat's may be named after ``shows carte blanche``)."""
    rows, texts, carte = [], [], {}
    for i, line in enumerate(lines, start=1):
        m = CARTE_RE.match(line) if isinstance(line, str) else None
        if m and m.group(2):
            carte[int(m.group(1))] = _cards(m.group(2), f"move {i}")
            line = f"{m.group(1)} shows carte blanche"
        row, text = parse_move(line, i, rules)
        rows.append(row)
        texts.append(text)
    return rows, texts, carte


def parse_view(obj) -> SeatView:
    """A view from its JSON object (see the module docstring); ReplayError if malformed."""
    if not isinstance(obj, dict):
        raise ReplayError("a view is one JSON object")
    for key in ("rules", "seat", "dealer", "hand"):
        if key not in obj:
            raise ReplayError(f"missing key {key!r} (a view needs rules, seat, dealer, hand, draws, moves)")
    try:
        rules = from_dict(obj["rules"]) if not isinstance(obj["rules"], str) else from_dict({"variant": obj["rules"]})
    except (RuleError, TypeError) as e:
        raise ReplayError(f"rules: {e}") from None
    return _checked(rules, obj["seat"], obj["dealer"], obj["hand"], obj.get("turn_up"), obj.get("draws", []),
                    obj.get("moves", []), obj.get("game_totals"))


def parse_view_text(text: str) -> SeatView:
    """Returns the view its short text form ``text`` writes (see the module docstring); ReplayError
    if malformed."""
    facts, moves, items = {}, [], []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        key = key.lower().replace("_", "-")
        if key[:1].isdigit() or key.startswith("-"):
            moves.append(line)
        elif key == "rule":
            items.append(rest.strip())
        elif key == "draws":
            facts["draws"] = facts.get("draws", "") + " " + rest
        elif key in ("variant", "seat", "dealer", "hand", "turn-up", "game-totals"):
            facts[key] = rest.strip()
        else:
            raise ReplayError(f"line {n}: cannot read {raw.strip()!r} (expected variant, rule, seat, dealer, hand, "
                              "turn-up, draws, or a move such as \"0 plays QS\")")
    try:
        rules = preset(facts.get("variant", "ordinary"), **_rule_items(items))
    except RuleError as e:
        raise ReplayError(f"rules: {e}") from None
    totals = facts.get("game-totals")
    return _checked(rules, _number(facts.get("seat"), "seat"), _number(facts.get("dealer"), "dealer"),
                    facts.get("hand", ""), facts.get("turn-up"), facts.get("draws", ""), moves,
                    [_number(x, "game-totals") for x in totals.split(",")] if totals else None)


def _rule_items(items) -> dict:
    """``["hand_size=9"]`` -> ``{"hand_size": 9}`` (numbers as numbers, true/false as booleans)."""
    out = {}
    for item in items:
        key, sep, value = (x.strip() for x in item.partition("="))
        if not sep:
            raise ReplayError(f"rule: expected KEY=VALUE, got {item!r}")
        low = value.lower()
        out[key] = int(value) if value.lstrip("-").isdigit() else low in ("true", "yes", "on") \
            if low in ("true", "yes", "on", "false", "no", "off") else value
    return out


def _number(text, what: str) -> int:
    if text is None:
        raise ReplayError(f"missing {what!r}: a view names its seat and the dealer")
    try:
        return int(str(text).strip())
    except ValueError:
        raise ReplayError(f"{what}: expected a whole number, got {text!r}") from None


def _checked(rules, seat, dealer, hand, turn_up, draws, moves, totals) -> SeatView:
    """A SeatView whose parts are each of the right kind and size (what the moves make of them
    is the engine's to check, :func:`world`)."""
    if rules.players != 2:
        raise ReplayError(f"a view is of a two-handed game; {rules.name} has {rules.players} players")
    for value, what in ((seat, "seat"), (dealer, "dealer")):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2:
            raise ReplayError(f"{what} must be 0 or 1, got {shown(value)}")
    hand = _cards(hand, "hand")
    if len(hand) != rules.hand_size:
        raise ReplayError(f"hand: {len(hand)} cards, but {rules.name} deals {rules.hand_size}")
    if rules.trump == "turn_up":
        if turn_up is None:
            raise ReplayError("missing the turn-up: this game turns up a trump card (R2.1)")
        turn_up = _cards([turn_up] if isinstance(turn_up, str) else turn_up, "turn-up")[0]
    elif turn_up is not None:
        raise ReplayError(f"{rules.name} turns up no card (R3.1): leave out the turn-up")
    if not isinstance(moves, list):
        raise ReplayError("moves must be a list of lines such as \"0 plays QS\"")
    rows, texts, carte = _moves(moves, rules, seat)
    view = SeatView(rules, seat, dealer, hand, turn_up, _cards(draws, "draws"), rows, texts, carte, totals)
    seen = Counter(hand + view.draws + ([turn_up] if turn_up is not None else []))
    over = [f"{card_str(c)} {n} times" for c, n in sorted(seen.items()) if n > rules.copies(c)]
    if over:
        raise ReplayError(f"the seat saw more copies than the packs hold ({rules.packs} of each card): "
                          + ", ".join(over))
    return view


def load_record(path) -> HandSpec | SeatView:
    """Returns a hand's record from ``path``: a replay file (every card given, a HandSpec), or a
    seat's view in JSON or in the short text form (a SeatView). ReplayError if unreadable or
    malformed."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise ReplayError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {e}") from None
    if not text.lstrip().startswith("{"):
        return parse_view_text(text)
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise ReplayError(f"{path} is not valid JSON: {e}") from None
    if isinstance(obj, dict) and (obj.get("format") == VIEW_FORMAT or "seat" in obj and "hand" in obj):
        return parse_view(obj)
    if isinstance(obj, dict) and obj.get("format", REPLAY_FORMAT) != REPLAY_FORMAT:
        raise ReplayError(f"{path}: unknown format {shown(obj.get('format'))} (a replay file or a view)")
    return parse_replay(obj)


# --- what the moves tell: the tricks, who drew which talon card, what the other seat showed -----

@dataclass
class Walk:
    """The moves of a record read without an engine: per completed first-stage trick its winner,
    and every card each seat showed (played from its hand, declared from its hand, exchanged,
    shown with carte blanche) with the number of draws done before it."""

    winners: list = field(default_factory=list)
    shown: list = field(default_factory=list)       # (seat, card, draws done, move index)
    received: list = field(default_factory=list)    # (seat, card, draws done): the turn-up taken by the seven


def first_stage_tricks(rules: RuleSet) -> int:
    """Tricks played before the talon is out: a draw each per trick."""
    return (rules.n_cards - rules.players * rules.hand_size) // rules.players


def walk(rules: RuleSet, dealer: int, turn_up: int | None, moves: list, carte: dict | None = None,
         extra: dict | None = None) -> Walk:
    """:class:`Walk` of ``moves`` (script rows; ``carte``: the cards each seat showed with carte
    blanche). Trick winners follow R2.5 with the trumps of R2.1 (the turn-up), V1 (the first
    marriage) or R3.2 (the first marriage or sequence). A declaration takes from the table what
    the table holds of its cards and the rest from the hand; ``extra`` (move, 1-based -> a Counter of
    cards) names cards that came from the hand though the table held them (a re-declaration the
    table alone could not make, R2.15, R3.6)."""
    out = Walk()
    trump = suit_of(turn_up) if rules.trump == "turn_up" and turn_up is not None else -1
    table = [Counter(), Counter()]
    trick, stage1 = [], first_stage_tricks(rules)
    for i, row in enumerate(moves, start=1):
        kind, seat = row[0], row[1]
        done = len(out.winners)
        drawn = min(done, stage1)                      # a trick's draws come before the next lead,
        window = max(min(done - 1, stage1), 0)         # after the declarations won by it (R2.6, R2.8)
        if kind == S_PLAY:
            card, from_table = row[2], row[3]
            if from_table or (done >= stage1 and table[seat][card] > 0):    # R2.19: the table back in hand
                table[seat][card] -= 1
            else:
                out.shown.append((seat, card, drawn, i))
            trick.append((seat, card))
            if len(trick) == 2:
                (lead_seat, lead), (follow_seat, follow) = trick
                out.winners.append(follow_seat if beats(follow, lead, trump) else lead_seat)
                trick = []
        elif kind == S_DECLARE:
            combo = row[2]
            if trump < 0 and rules.trump != "turn_up" and (combo < FIRST_SEQUENCE + 4 and combo >= MARRIAGE):
                if combo < FIRST_SEQUENCE or rules.trump == "marriage_or_sequence":
                    trump = (combo - MARRIAGE) % 4
            cards = [c for c in row[S_CARDS:] if c >= 0] if combo >= FIRST_FOUR else combo_cards(combo)
            if combo >= FIRST_FOUR and not cards:
                raise ReplayError(f"move {i}: name the four cards declared (e.g. \"{seat} declares four_aces "
                                  "AS AH AD AC\"): the seat saw them")
            more = (extra or {}).get(i, Counter())
            for card, need in Counter(cards).items():
                new = min(need, max(0, need - table[seat][card]) + more[card])
                for _ in range(new):
                    out.shown.append((seat, card, window, i))
                table[seat][card] += new
        elif kind == S_CLAIM:
            laid = [c for c in row[S_CARDS:] if c >= 0]
            for card in laid:
                out.shown.append((seat, card, window, i))
                table[seat][card] += 1
        elif kind == S_EXCHANGE:
            if turn_up is not None and trump >= 0:
                out.shown.append((seat, card_id(trump, SEVEN), window, i))
                out.received.append((seat, turn_up, window))
        elif kind == S_CARTE:
            for card in (carte or {}).get(seat, []):
                out.shown.append((seat, card, 0, i))
    return out


def draw_slots(rules: RuleSet, winners: list, turn_up: int | None) -> dict:
    """Which talon card each seat drew after each completed first-stage trick: (trick, seat) ->
    the talon index (the winner's first, R2.8), or "turn-up" for the last card of a game with a
    turn-up (the loser of the last trick takes it)."""
    talon = rules.n_cards - 2 * rules.hand_size - (1 if turn_up is not None else 0)
    out = {}
    for k, winner in enumerate(winners[:first_stage_tricks(rules)], start=1):
        first = 2 * (k - 1)
        out[k, winner] = first
        out[k, 1 - winner] = first + 1 if first + 1 < talon else "turn-up"
    return out


# --- a full deal consistent with a view ---------------------------------------------------------

def last_card(rules: RuleSet, turn_up: int | None, w: Walk) -> int | None:
    """The card the loser of the last first-stage trick takes (R2.8): the turn-up, or the seven of
    trumps that was exchanged for it (R2.9)."""
    if turn_up is None:
        return None
    return card_id(suit_of(turn_up), SEVEN) if w.received else turn_up


def world(view: SeatView, seed: int = 0) -> HandSpec:
    """A full deal (a HandSpec) consistent with everything ``view`` saw, the rest drawn from
    ``seed``: the seat's dealt hand and draws where the moves put them, every card the other
    seat showed in its dealt hand or in a draw of its own that came before it was shown, the
    other cards of the packs dealt at random. ReplayError naming what cannot be so; what the
    engine finds on replaying the moves (a move out of turn, a declaration the table cannot
    make) it says when the hand is played (RuleViolation).

    A declaration takes from the other seat's table what the table holds of its cards; where the
    engine refuses it (the same cards cannot score it again, R2.15, R3.6), the fewest of its
    cards that make it new are dealt to that seat's hand instead, and the deal drawn again."""
    extra: dict = {}
    while True:
        spec = _deal(view, seed, extra)
        refused, drawn = _replayed(spec)
        _check_draws(view, drawn, refused)   # (by the move refused, if one is: a draw left out shows there)
        if refused is None:
            return spec
        if refused in extra or not _others_declaration(view, refused):
            return spec
        for cards in _fewest_first(view.moves[refused - 1]):
            try:
                trial = _deal(view, seed, {**extra, refused: cards})
            except ReplayError:
                continue
            later, _ = _replayed(trial)
            if later is None or later > refused:
                extra[refused] = cards
                break
        else:
            return spec


def _fewest_first(row) -> list:
    """The sets of a declaration's cards that could have come new from the hand, fewest first."""
    combo = row[2]
    cards = [c for c in row[S_CARDS:] if c >= 0] if combo >= FIRST_FOUR else combo_cards(combo)
    subsets = {tuple(sorted(c for c, keep in zip(cards, mask) if keep))
               for mask in product((0, 1), repeat=len(cards))}
    return [Counter(s) for s in sorted(subsets, key=lambda s: (len(s), s)) if s]


def _check_draws(view: SeatView, drawn: int, refused: int | None = None) -> None:
    """ReplayError unless the view names every card its seat drew by the end of its moves, or by
    the move ``refused`` (1-based) where the engine stopped (the talon cards ``drawn`` by then
    tell how many)."""
    w = walk(view.rules, view.dealer, view.turn_up, view.moves, view.shown)
    slots = draw_slots(view.rules, w.winners, view.turn_up)
    talon = view.rules.n_cards - 2 * view.rules.hand_size - (1 if view.turn_up is not None else 0)
    had = [k for (k, s) in slots if s == view.seat and (slots[k, s] < drawn if slots[k, s] != "turn-up"
                                                         else drawn > talon)]
    if len(view.draws) < len(had):
        when = f"move {refused}" if refused else "the end of the moves"
        raise ReplayError(f"draws: by {when} the seat had drawn {len(had)} cards (one after each trick), the view "
                          f"names {len(view.draws)}: name every card it drew")


def _others_declaration(view: SeatView, move: int) -> bool:
    row = view.moves[move - 1]
    return row[1] != view.seat and row[0] in (S_DECLARE, S_CLAIM)


def _replayed(spec: HandSpec) -> tuple[int | None, int]:
    """``spec``'s moves replayed by the engine, stopping at the next decision: (the move, 1-based,
    at which the engine refuses them, or None; the talon cards drawn by then, the last card of
    a game with a turn-up counted)."""
    st = replay_moves(spec.rules.to_array(), spec.deal(), spec.moves, hold=True)
    refused = int(st.G[G_ERR_MOVE]) + 1 if int(st.G[G_STATUS]) == ST_ILLEGAL_SCRIPT else None
    return refused, int(st.G[G_TALON_POS])


def _deal(view: SeatView, seed: int, extra: dict) -> HandSpec:
    """:func:`world`'s deal, the cards of ``extra`` (see :func:`walk`) from the hand."""
    rules, me = view.rules, view.seat
    other = 1 - me
    w = walk(rules, view.dealer, view.turn_up, view.moves, view.shown, extra)
    slots = draw_slots(rules, w.winners, view.turn_up)
    end = last_card(rules, view.turn_up, w)
    talon = [None] * (rules.n_cards - 2 * rules.hand_size - (1 if view.turn_up is not None else 0))
    pool = Counter({c: rules.copies(c) for c in range(32)})
    pool.subtract(view.hand + ([view.turn_up] if view.turn_up is not None else []))
    _place_my_draws(view, slots, end, talon, pool)
    places = _other_places(rules, slots, other)
    filled = _show_other(view, w, slots, end, places, pool)
    over = [f"{card_str(c)} {rules.copies(c) - n} times" for c, n in sorted(pool.items()) if n < 0]
    if over:
        raise ReplayError(f"more copies seen than the packs hold ({rules.packs} of each card): " + ", ".join(over))
    rest = [c for c, n in sorted(pool.items()) for _ in range(n)]
    np.random.default_rng(seed).shuffle(rest)
    if other not in view.shown and any(r[0] == S_CARTE and r[1] == other for r in view.moves):
        rest.sort(key=lambda c: rank_of(c) in COURTS)        # it showed carte blanche: no court dealt to it
    for i, (kind, k) in enumerate(places):
        if filled[i] is None:
            filled[i] = rest.pop(0)
        if kind == "draw":
            talon[slots[k, other]] = filled[i]
    talon = [c if c is not None else rest.pop() for c in talon]
    hands = [None, None]
    hands[me], hands[other] = list(view.hand), filled[:rules.hand_size]
    return HandSpec(rules, view.dealer, hands, view.turn_up, talon, list(view.moves), list(view.move_text),
                    view.game_totals)


def _place_my_draws(view: SeatView, slots: dict, end, talon: list, pool: Counter) -> None:
    """Put the seat's draws where the tricks say it drew them; the last card of the first stage
    (the turn-up, or the seven exchanged) is not a talon card and is counted already."""
    mine = sorted(k for (k, s) in slots if s == view.seat)
    if len(view.draws) > len(mine):
        raise ReplayError(f"draws: {len(view.draws)} cards, but the seat has drawn after {len(mine)} tricks so far")
    for k, card in zip(mine, view.draws):
        if slots[k, view.seat] == "turn-up":
            if card != end:
                raise ReplayError(f"draws: after trick {k} the seat took the last card, {card_str(end)}, not "
                                  f"{card_str(card)}")
        else:
            talon[slots[k, view.seat]] = card
            pool[card] -= 1


def _other_places(rules: RuleSet, slots: dict, other: int) -> list:
    """Where the other seat's unseen cards came from: its dealt hand, then each talon card it drew
    (the last card of the first stage is seen by all, so not among them)."""
    return [("hand", i) for i in range(rules.hand_size)] + [
        ("draw", k) for (k, s) in sorted(slots) if s == other and slots[k, s] != "turn-up"]


def _show_other(view: SeatView, w: Walk, slots: dict, end, places: list, pool: Counter) -> list:
    """Each card the other seat showed, put in a place of its own that it held before showing it
    (its dealt hand, or a draw after an earlier trick), the earliest free one first; the turn-up
    it took by the seven and the last card it drew account for themselves."""
    other = 1 - view.seat
    known = [(c, d) for s, c, d in w.received if s == other]         # (card, draws done when it came)
    last_trick = first_stage_tricks(view.rules)
    if slots.get((last_trick, other)) == "turn-up":
        known.append((end, last_trick))
    filled = [None] * len(places)
    times = [0 if kind == "hand" else k for kind, k in places]
    for seat, card, drawn, move in sorted(w.shown, key=lambda x: (x[2], x[3])):
        if seat != other:
            continue
        had = next((j for j, (c, d) in enumerate(known) if c == card and d <= drawn), None)
        if had is not None:
            known.pop(had)
            continue
        free = next((i for i, t in enumerate(times) if t <= drawn and filled[i] is None), None)
        if free is None:
            raise ReplayError(f"move {move} ({view.move_text[move - 1]}): seat {other} shows {card_str(card)}, "
                              "more cards than it could have held by then")
        filled[free] = card
        pool[card] -= 1
    return filled


def view_of(spec: HandSpec, seat: int) -> SeatView:
    """Returns what ``seat`` saw of the full record ``spec``: its dealt hand, the turn-up, its draws
    after every trick the moves complete, and every move."""
    w = walk(spec.rules, spec.dealer, spec.turn_up, spec.moves)
    slots = draw_slots(spec.rules, w.winners, spec.turn_up)
    end = last_card(spec.rules, spec.turn_up, w)
    draws = [spec.talon[slots[k, seat]] if slots[k, seat] != "turn-up" else end
             for k in sorted(k for (k, s) in slots if s == seat)]
    return SeatView(spec.rules, seat, spec.dealer, list(spec.hands[seat]), spec.turn_up, draws, list(spec.moves),
                    list(spec.move_text), {}, spec.game_totals)


def view_text(view: SeatView, per_line: int = 8) -> str:
    """``view`` in the short text form :func:`parse_view_text` reads (the rules as a preset and
    the options that differ from it; the draws ``per_line`` to a line)."""
    base = preset(view.rules.name)
    lines = [f"variant {view.rules.name}"]
    lines += [f"rule {k}={str(v).lower() if isinstance(v, bool) else v}"
              for k, v in view.rules.describe().items() if k != "name" and getattr(base, k) != v]
    lines += [f"seat {view.seat}", f"dealer {view.dealer}", "hand " + " ".join(card_str(c) for c in view.hand)]
    if view.turn_up is not None:
        lines.append(f"turn-up {card_str(view.turn_up)}")
    if view.game_totals and any(view.game_totals):
        lines.append("game-totals " + ",".join(str(t) for t in view.game_totals))
    for i in range(0, len(view.draws), per_line):
        lines.append("draws " + " ".join(card_str(c) for c in view.draws[i:i + per_line]))
    shown_by = {s: " " + " ".join(card_str(c) for c in cards) for s, cards in view.shown.items()}
    for row, text in zip(view.moves, view.move_text):
        lines.append(text + shown_by.get(row[1], "") if row[0] == S_CARTE else text)
    return "\n".join(lines) + "\n"
