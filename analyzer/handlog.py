"""One hand with its event log: trace (a simulated deal) and replay (a given deal).

A replay file is JSON (README, "Replay files"): the rules, the dealer, each
seat's hand, the turn-up, the talon top first, and the moves, each a line
such as ``"1 plays AS"``, ``"0 plays QS from table"``, ``"0 declares bezique
QS JD"`` or ``"0 exchanges 7H"``.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .actions import action_str
from .cards import (
    COMBO_NAMES,
    CardError,
    card_str,
    cards_str,
    combo_cards,
    combo_id,
    parse_card,
)
from .engine import layout as L
from .engine.batch import deal_deck, run_single
from .engine.layout import (
    E_BRISQUES,
    E_CARTE,
    E_CLAIM,
    E_DECLARE,
    E_DRAW,
    E_EXCHANGE,
    E_LAID,
    E_LAST_TRICK,
    E_PLAY,
    E_SEVEN,
    E_STAGE2,
    E_TRICK,
    E_TRUMP,
    E_TURNUP,
    E_TURNUP_SEVEN,
    G_ERR_ACTION,
    G_ERR_DETAIL,
    G_ERR_MOVE,
    G_ERR_RULE,
    G_ERR_SEAT,
    G_NEV,
    G_TRUMP,
    MAX_SEATS,
    P_SCORE,
    S_CARTE,
    S_CARDS,
    S_CLAIM,
    S_DECLARE,
    S_EXCHANGE,
    S_MAX_CARDS,
    S_PLAY,
    S_W,
    ST_DONE,
    ST_ILLEGAL_POLICY,
    ST_ILLEGAL_SCRIPT,
    ST_INCOMPLETE,
)
from .policies.registry import N_PARAMS, resolve_policy
from .rules import PRESETS, RuleError, RuleSet, from_dict

FORMAT = "bezique-replay/1"
MOVE_RE = re.compile(r"^\s*(\d+)\s+(plays|declares|exchanges|claims|shows)\b\s*(.*?)\s*$", re.I)


class ReplayError(ValueError):
    """A replay file that is malformed (exit code 1)."""


class RuleViolation(ValueError):
    """A move that breaks a rule (exit code 2); the message names the move and the rule."""


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

    def deck(self) -> np.ndarray:
        """The cards in the engine's deal order: eldest first, round the table, turn-up, talon."""
        n = self.rules.players
        order = []
        for i in range(n):
            order += self.hands[(self.dealer + 1 + i) % n]
        if self.turn_up is not None:
            order.append(self.turn_up)
        order += self.talon
        return np.array(order, dtype=np.int32)


def dealt_spec(rules: RuleSet, seed: int, hand: int = 0) -> HandSpec:
    """The deal of hand number ``hand`` of a run seeded ``seed`` (as :func:`simulate` deals it)."""
    deck = np.zeros(L.MAX_TALON, np.int32)
    deal_deck(rules.packs, np.uint64(seed), hand, deck, np.zeros(1, np.uint64))
    deck = [int(c) for c in deck[:rules.n_cards]]
    n, h = rules.players, rules.hand_size
    dealer = hand % n
    hands = [None] * n
    for i in range(n):
        hands[(dealer + 1 + i) % n] = deck[i * h:(i + 1) * h]
    k = n * h
    turn_up = deck[k] if rules.trump == "turn_up" else None
    talon = deck[k + 1:] if turn_up is not None else deck[k:]
    return HandSpec(rules, dealer, hands, turn_up, talon)


# --- parsing replay files ----------------------------------------------------

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
        raise ReplayError(f"move {index}: expected a string such as \"0 plays QS\", got {text!r}")
    m = MOVE_RE.match(text)
    if not m:
        raise ReplayError(f"move {index}: cannot read {text!r} (expected e.g. \"0 plays QS\", "
                          "\"0 plays QS from table\", \"1 declares bezique QS JD\", \"0 exchanges 7H\")")
    seat, verb, rest = int(m.group(1)), m.group(2).lower(), m.group(3).split()
    if seat >= rules.players:
        raise ReplayError(f"move {index}: there is no seat {seat} in a {rules.players}-handed game")
    row = [0] * S_W
    row[1] = seat
    row[S_CARDS:] = [-1] * S_MAX_CARDS
    try:
        if verb == "plays":
            src = " ".join(rest[1:]).lower()
            if not rest or src not in ("", "from table", "from hand"):
                raise ReplayError(f"move {index}: expected \"{seat} plays CARD [from table]\", got {text!r}")
            row[0], row[2], row[3] = S_PLAY, parse_card(rest[0]), int(src == "from table")
        elif verb == "exchanges":
            row[0], row[2] = S_EXCHANGE, parse_card(rest[0]) if rest else -1
        elif verb == "shows":
            if " ".join(rest).lower().replace("_", " ") != "carte blanche":
                raise ReplayError(f"move {index}: expected \"{seat} shows carte blanche\", got {text!r}")
            row[0] = S_CARTE
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
                                      f"combination, got {text!r}")
                try:
                    row[2] = combo_id(rest[0])
                except CardError:
                    raise ReplayError(f"move {index}: {rest[0]!r} is neither a card nor a combination "
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
                if c >= 12:
                    row[S_CARDS:S_CARDS + 4] = named
    except CardError as e:
        raise ReplayError(f"move {index}: {e}") from None
    return row, text


def _check_combo_cards(c: int, named: list[int], index: int, seat: int) -> None:
    where = "Table A"
    if c >= 12:
        rank = combo_cards(c)[0] % 8
        if len(named) != 4 or any(x % 8 != rank for x in named):
            raise RuleViolation(f"move {index}: seat {seat}: {cards_str(named)} is not {COMBO_NAMES[c]} "
                                f"(four cards of one rank) ({where})")
    elif Counter(named) != Counter(combo_cards(c)):
        raise RuleViolation(f"move {index}: seat {seat}: {cards_str(named)} do not make {COMBO_NAMES[c]} "
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
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ReplayError(f"dealer must be a seat number 0..{n - 1}, got {dealer!r}")
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
    wrong = [f"{card_str(t)} {all_cards.get(t, 0)}x" for t in range(32) if all_cards.get(t, 0) != rules.packs]
    if wrong:
        raise ReplayError(f"the cards are not exactly {rules.packs} packs (each card {rules.packs} times): "
                          + ", ".join(wrong[:8]) + (" …" if len(wrong) > 8 else ""))
    moves = obj.get("moves", [])
    if not isinstance(moves, list):
        raise ReplayError("moves must be a list of strings")
    rows, texts = [], []
    for i, m in enumerate(moves, start=1):
        row, text = parse_move(m, i, rules)
        rows.append(row)
        texts.append(text)
    return HandSpec(rules, dealer, hands, turn_up, talon, rows, texts)


def load_replay(path) -> HandSpec:
    """Read and validate a replay file (ReplayError if unreadable or malformed)."""
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except FileNotFoundError:
        raise ReplayError(f"no such file: {path}") from None
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path} is not valid JSON: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read {path}: {e}") from None
    return parse_replay(obj)


# --- playing and logging -----------------------------------------------------

@dataclass
class HandOutcome:
    """What happened: status, the events, the final scores and any rule violation."""

    spec: HandSpec
    status: int
    events: list
    scores: list
    error: str | None = None
    trump: int = -1
    tables: list = field(default_factory=list)    # each seat's table cards when play stopped


RULE_DETAILS = {
    L.X_NOT_HELD: "seat {s} does not hold {what}",
    L.X_NOT_ON_TABLE: "seat {s} has no {card} on the table",
    L.X_TABLE_TAKEN_BACK: "seat {s} took the table cards back into the hand; play {card} from the hand",
    L.X_MUST_FOLLOW: "seat {s} must follow suit",
    L.X_MUST_WIN: "seat {s} must win the trick",
    L.X_MUST_TRUMP: "seat {s} must trump",
    L.X_MUST_OVERTRUMP: "seat {s} must overtrump",
    L.X_NOT_YOUR_TURN: "it is not seat {s}'s turn to play",
    L.X_NOT_WINNER: "seat {s} may declare only right after winning a trick",
    L.X_ONE_PER_TRICK: "seat {s} has already declared after this trick",
    L.X_NO_NEW_CARD: "seat {s}: {what} needs at least one card new to the table",
    L.X_REUSE_CLASS: "seat {s}: a card of {what} was already declared in an equal or higher combination of its class",
    L.X_REUSE_FOUR: "seat {s}: a card of {what} was already in a four of that rank",
    L.X_AMERICAN: "seat {s}: a card declared in a bezique may not join another class",
    L.X_NOT_A_COMBINATION: "seat {s}: {what} is not a combination here",
    L.X_AFTER_LAST_DRAW: "seat {s}: no declaration or exchange after the last draw",
    L.X_NO_SEVEN: "seat {s} holds no seven of trumps to exchange",
    L.X_TURNUP_SEVEN: "seat {s}: the turn-up is a seven, there is no exchange",
    L.X_ALREADY_EXCHANGED: "seat {s}: the seven has already been exchanged in this hand",
    L.X_NOT_WHOLE_FOUR: "seat {s} does not hold {what}",
    L.X_NO_CARTE_BLANCHE: "seat {s} may not show carte blanche now",
    L.X_CLAIM_NOT_ALLOWED: "seat {s} may not claim {what} now (only after scoring in this window, "
                           "with cards from the hand that make the combination)",
    L.X_INFERIOR: "seat {s}: a card of {what} was already declared in a higher combination of its "
                  "class, and may never join an inferior one",
    L.X_STILL_WHOLE: "seat {s}: {what} was scored before with a card of this one, and that {what} "
                     "still lies whole on the table: one of its cards must be played first",
    L.X_NEW_AND_WHOLE: "seat {s}: {what} needs a card new to the table (or never yet scored), and "
                       "the {what} scored before still lies whole on the table",
    L.X_CLAIM_CARD: "seat {s}: {card} belongs to no combination that the cards on the table, with "
                    "those laid, form and that seat {s} could score now",
    L.X_NO_EXCHANGE: "seat {s}: Rubicon bezique has no exchange of the seven",
}


def rule_name(code: int) -> str:
    """``220`` -> ``R2.20``; 299 / 399 -> Table A / Table B."""
    if code == 299:
        return "Table A"
    if code == 399:
        return "Table B"
    return f"R{code // 100}.{code % 100}"


def _violation(G, spec: HandSpec) -> str:
    move = int(G[G_ERR_MOVE])
    seat = int(G[G_ERR_SEAT])
    action = int(G[G_ERR_ACTION])
    card = card_str(action % 32) if 0 <= action < L.A_DECLARE else ""
    what = card
    for base in (L.A_DECLARE, L.A_CLAIM):
        if base <= action < base + 16:
            what = COMBO_NAMES[action - base]
    detail = int(G[G_ERR_DETAIL])
    text = RULE_DETAILS.get(detail, "seat {s}: illegal move").format(s=seat, card=card, what=what)
    if detail == L.X_NO_NEW_CARD and int(G[G_ERR_RULE]) == 306:
        text += " or never yet part of a scored combination"
    return f"move {move + 1}: {text} ({rule_name(int(G[G_ERR_RULE]))})"


def _events(ev: np.ndarray, count: int) -> list[dict]:
    out = []
    for kind, seat, a, b, c, _d in ev[:count].tolist():
        if kind == E_TURNUP:
            out.append({"event": "turn_up", "seat": seat, "card": card_str(a)})
        elif kind == E_TURNUP_SEVEN:
            out.append({"event": "turn_up_seven", "seat": seat, "points": b})
        elif kind == E_PLAY:
            out.append({"event": "play", "seat": seat, "card": card_str(a),
                        "from": "table" if b else "hand", "trick": c + 1})
        elif kind == E_SEVEN:
            out.append({"event": "seven_played", "seat": seat, "card": card_str(a), "points": b})
        elif kind == E_TRICK:
            out.append({"event": "trick", "seat": seat, "trick": a + 1, "brisques": b})
        elif kind == E_DECLARE:
            if a >= 12:
                rank = combo_cards(a)[0] % 8
                cards = [s * 8 + rank for s in range(4) for _ in range((c >> (4 * s)) & 15)]
            else:
                cards = combo_cards(a)
            out.append({"event": "declare", "seat": seat, "combination": COMBO_NAMES[a],
                        "cards": [card_str(x) for x in cards], "points": b})
        elif kind == E_TRUMP:
            out.append({"event": "trumps_fixed", "seat": seat, "suit": "SHDC"[a]})
        elif kind == E_EXCHANGE:
            out.append({"event": "exchange", "seat": seat, "card": card_str(a),
                        "took": card_str(b), "points": c})
        elif kind == E_CARTE:
            out.append({"event": "carte_blanche", "seat": seat, "points": a,
                        "card": card_str(b) if b >= 0 else None})
        elif kind == E_CLAIM:
            out.append({"event": "claim", "seat": seat,
                        "combination": COMBO_NAMES[a] if a >= 0 else None, "laid": b, "cards": []})
        elif kind == E_LAID:
            out[-1]["cards"].append(card_str(a))
        elif kind == E_DRAW:
            out.append({"event": "draw", "seat": seat, "card": card_str(a)})
        elif kind == E_STAGE2:
            out.append({"event": "second_stage"})
        elif kind == E_LAST_TRICK:
            out.append({"event": "last_trick", "seat": seat, "points": a})
        elif kind == E_BRISQUES:
            out.append({"event": "brisques", "seat": seat, "count": a, "points": b})
    return out


def play_spec(spec: HandSpec, policies=None, seed: int = 0, hand: int = 0) -> HandOutcome:
    """Play ``spec``: with ``policies`` (names or specs) or, if None, its moves."""
    rules_arr = spec.rules.to_array()
    if policies is None:
        funcs = [resolve_policy("random").function] * MAX_SEATS
        params = np.zeros((MAX_SEATS, N_PARAMS))
        script = np.array(spec.moves, dtype=np.int32).reshape(-1, S_W)
        nscript = len(spec.moves)
        if nscript == 0:
            script = np.zeros((1, S_W), np.int32)
    else:
        specs = [p if not isinstance(p, str) else resolve_policy(p) for p in policies]
        funcs = [specs[s % len(specs)].function for s in range(MAX_SEATS)]
        params = np.zeros((MAX_SEATS, N_PARAMS))
        for s in range(MAX_SEATS):
            p = np.asarray(specs[s % len(specs)].params, float)
            params[s, :len(p)] = p
        script, nscript = np.zeros((1, S_W), np.int32), -1
    st = run_single(rules_arr, spec.deck(), spec.dealer, tuple(funcs), params, np.uint64(seed),
                    hand, np.ascontiguousarray(script), nscript)
    G, P = st.G, st.P
    status = int(G[L.G_STATUS])
    events = _events(st.ev, int(G[G_NEV]))
    scores = [int(P[s, P_SCORE]) for s in range(spec.rules.players)]
    tables = [[card_str(t) for t in range(32) for _ in range(int(P[s, L.P_TABLE + t]))]
              for s in range(spec.rules.players)]
    error = None
    if status == ST_ILLEGAL_SCRIPT:
        error = _violation(G, spec)
    elif status == ST_ILLEGAL_POLICY:
        error = (f"seat {int(G[G_ERR_SEAT])}'s policy returned an illegal action "
                 f"{action_str(int(G[G_ERR_ACTION]))}")
    return HandOutcome(spec, int(status), events, scores, error, int(G[G_TRUMP]), tables)


def status_name(status: int) -> str:
    """Readable hand status."""
    return {ST_DONE: "complete", ST_INCOMPLETE: "incomplete", ST_ILLEGAL_SCRIPT: "illegal move",
            ST_ILLEGAL_POLICY: "illegal policy action"}[status]


def format_log(outcome: HandOutcome, symbols: bool = False) -> str:
    """The event log as readable text, with the running score after each score."""
    spec = outcome.spec
    n = spec.rules.players
    cs = lambda c: card_str(parse_card(c), symbols)
    lines = [f"{spec.rules.name} bezique, {n} seats; dealer: seat {spec.dealer}"]
    for s in range(n):
        role = "dealer" if s == spec.dealer else ("eldest" if s == (spec.dealer + 1) % n else "")
        lines.append(f"  seat {s} {('(' + role + ')') if role else ''}: {cards_str(sorted(spec.hands[s]), symbols)}")
    score = [0] * n
    run = lambda: "   [score " + " - ".join(str(x) for x in score) + "]"
    move = 0
    for e in outcome.events:
        k = e["event"]
        if k == "turn_up":
            lines.append(f"turn-up {cs(e['card'])}: trumps are {'SHDC'[parse_card(e['card']) // 8]}")
        elif k == "turn_up_seven":
            score[e["seat"]] += e["points"]
            lines.append(f"  seat {e['seat']} (dealer) scores {e['points']} for the turned-up seven{run()}")
        elif k == "play":
            move += 1
            src = " from table" if e["from"] == "table" else ""
            lines.append(f"{move:4d}. seat {e['seat']} plays {cs(e['card'])}{src}")
        elif k == "seven_played":
            score[e["seat"]] += e["points"]
            lines.append(f"      seat {e['seat']} scores {e['points']} for the seven of trumps{run()}")
        elif k == "trick":
            lines.append(f"      trick {e['trick']} to seat {e['seat']}" +
                         (f" ({e['brisques']} brisque{'s' if e['brisques'] != 1 else ''})" if e["brisques"] else ""))
        elif k == "declare":
            move += 1
            score[e["seat"]] += e["points"]
            lines.append(f"{move:4d}. seat {e['seat']} declares {e['combination']} "
                         f"{' '.join(cs(c) for c in e['cards'])}  +{e['points']}{run()}")
        elif k == "trumps_fixed":
            lines.append(f"      trumps are now {e['suit']}")
        elif k == "exchange":
            move += 1
            score[e["seat"]] += e["points"]
            lines.append(f"{move:4d}. seat {e['seat']} exchanges {cs(e['card'])} for {cs(e['took'])}  +{e['points']}{run()}")
        elif k == "carte_blanche":
            move += 1
            score[e["seat"]] += e["points"]
            shown = f"the drawn {cs(e['card'])}" if e["card"] else "a hand without K, Q or J"
            lines.append(f"{move:4d}. seat {e['seat']} shows carte blanche ({shown})  +{e['points']}{run()}")
        elif k == "claim":
            move += 1
            what = f"{e['combination']}, laying" if e["combination"] else "laying"
            lines.append(f"{move:4d}. seat {e['seat']} claims ({what} "
                         f"{' '.join(cs(c) for c in e['cards'])} from the hand)")
        elif k == "draw":
            lines.append(f"      seat {e['seat']} draws {cs(e['card'])}")
        elif k == "second_stage":
            lines.append("-- talon exhausted: second stage, table cards back in hand (R2.19) --")
        elif k == "last_trick":
            score[e["seat"]] += e["points"]
            lines.append(f"      seat {e['seat']} scores {e['points']} for the last trick{run()}")
        elif k == "brisques":
            score[e["seat"]] += e["points"]
            lines.append(f"      seat {e['seat']} scores {e['points']} for {e['count']} brisques{run()}")
    lines.append(f"hand {status_name(outcome.status)}; scores: " +
                 ", ".join(f"seat {s} {outcome.scores[s]}" for s in range(n)))
    return "\n".join(lines)


def outcome_json(outcome: HandOutcome) -> dict:
    """The event log and scores as a JSON-ready dict."""
    return {"status": status_name(outcome.status), "scores": outcome.scores,
            "events": outcome.events, "error": outcome.error}


def replay_json(outcome: HandOutcome) -> dict:
    """The hand in replay-file form: deal plus every move, so it can be replayed."""
    spec = outcome.spec
    moves = []
    for e in outcome.events:
        if e["event"] == "play":
            moves.append(f"{e['seat']} plays {e['card']}" + (" from table" if e["from"] == "table" else ""))
        elif e["event"] == "declare":
            moves.append(f"{e['seat']} declares {e['combination']} {' '.join(e['cards'])}")
        elif e["event"] == "exchange":
            moves.append(f"{e['seat']} exchanges {e['card']}")
        elif e["event"] == "claim":
            moves.append(f"{e['seat']} claims {' '.join(e['cards'])}")
        elif e["event"] == "carte_blanche":
            moves.append(f"{e['seat']} shows carte blanche")
    rules = spec.rules.describe()
    base = PRESETS[spec.rules.name]
    rules = {"variant": rules.pop("name"), **{k: v for k, v in rules.items()
                                             if getattr(base, k) != v}}
    obj = {"format": FORMAT, "rules": rules, "dealer": spec.dealer,
           "hands": [cards_str(h) for h in spec.hands]}
    if spec.turn_up is not None:
        obj["turn_up"] = card_str(spec.turn_up)
    obj["talon"] = cards_str(spec.talon)
    obj["moves"] = moves
    return obj
