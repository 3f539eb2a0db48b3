"""One hand played with its event log: a simulated deal (trace) or a given one (replay).

Reading replay files is :mod:`analyzer.hands.replay_file`, the log as text
:mod:`analyzer.hands.log_text`, as JSON :mod:`analyzer.hands.hand_json` ; the latter two import
:class:`HandOutcome` from here, and this module imports only :class:`HandSpec` of the first.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..actions import illegal_return
from ..cards import COMBO_NAMES, card_id, card_str, combo_cards, is_four_combo, rank_of
from ..engine import layout as L
from ..engine.single import play_single
from ..policies.spec import resolve_policy
from ..run.backends import run_interruptibly
from ..run.driver import SimulationError
from ..run.records import policy_arrays, user_policies
from ..words import combination_name
from .replay_file import HandSpec


@dataclass
class HandOutcome:
    """What happened: status, the events, the final scores and any rule violation; a hand played
    by policies (``trace``) also keeps them (``players``: a PolicySpec per seat), the seed and
    the hand number that name their random streams, and with ``--explain`` the learned player's
    values at its decisions (``explanation``, :mod:`analyzer.hands.explain`)."""

    spec: HandSpec
    status: int
    events: list
    scores: list
    error: str | None = None
    trump: int = -1
    tables: list = field(default_factory=list)    # each seat's table cards when play stopped
    players: tuple = ()            # a PolicySpec per seat (a replay: none)
    seed: int = 0
    hand: int = 0
    explanation: object = None     # explain.HandExplanation

    def policy_names(self) -> list[str]:
        """Each seat's policy by name (empty for a replayed hand)."""
        return [p.name for p in self.players]


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
    L.X_STILL_WHOLE: "seat {s}: {what} was scored before with a card of this one, and the earlier one "
                     "still lies whole on the table: one of its cards must be played first",
    L.X_NEW_AND_WHOLE: "seat {s}: {what} needs a card new to the table (or never yet scored), and "
                       "the one scored before still lies whole on the table",
    L.X_NO_RESTORATION: "seat {s}: {what} was scored before with a card of this one, and no card has "
                        "been played from the earlier one since: a card played from it "
                        "(while it lay whole) is needed before the same combination scores again",
    L.X_SCORED_SET: "seat {s}: this set of cards has scored {what} already; a restored {what} "
                    "needs another card in place of one of them",
    L.X_CLAIM_CARD: "seat {s}: {card} belongs to no combination that the cards on the table, with "
                    "those laid, form and that seat {s} could score now",
    L.X_NO_EXCHANGE: "seat {s}: Rubicon bezique has no exchange of the seven",
    L.X_PANACHE: "seat {s}: under panache {what} needs one card of each suit",
    L.X_NO_PARTNER: "seat {s} may not let his partner declare now (only the trick winner, before "
                    "he declares, with the option partner_declares)",
    L.X_NO_GAME_CLAIM: "seat {s} may not claim the game now (only in a game limited to a fixed "
                       "point, before playing a card)",
}


def rule_name(code: int) -> str:
    """``220`` -> ``R2.20``; 299 / 399 -> Table A / Table B."""
    if code == 299:
        return "Table A"
    if code == 399:
        return "Table B"
    if 900 < code < 1000:
        return f"V{code - 900}"
    return f"R{code // 100}.{code % 100}"


def violation_message(G, spec: HandSpec) -> str:
    """The error of a replay stopped by an illegal move (G_ERR_*): the move, the seat and the
    rule it breaks."""
    move = int(G[L.G_ERR_MOVE])
    seat = int(G[L.G_ERR_SEAT])
    action = int(G[L.G_ERR_ACTION])
    card = card_str(action % L.A_PLAY_TABLE) if 0 <= action < L.A_DECLARE else ""   # a play, from hand or table
    what = card
    for base in (L.A_DECLARE, L.A_CLAIM):
        if base <= action < base + 16:
            what = combination_name(COMBO_NAMES[action - base])
    detail = int(G[L.G_ERR_DETAIL])
    if detail == L.X_AFTER_END:
        after = len(spec.moves) - move
        return (f"move {move + 1}: the hand is over: it ended with move {move}, the last card played "
                f"({after} move{'s' if after > 1 else ''} after it) ({rule_name(int(G[L.G_ERR_RULE]))})")
    text = RULE_DETAILS.get(detail, "seat {s}: illegal move").format(s=seat, card=card, what=what)
    if detail == L.X_NO_NEW_CARD and int(G[L.G_ERR_RULE]) == 306:
        text += " or never yet part of a scored combination"
    return f"move {move + 1}: {text} ({rule_name(int(G[L.G_ERR_RULE]))})"


def logged_events(st) -> list[dict]:
    """The event log of the HandState ``st`` (one logging its events) as dicts."""
    return _events(st.ev, int(st.G[L.G_NEV]))


def _events(ev: np.ndarray, count: int) -> list[dict]:
    out = []
    for kind, seat, a, b, c, d in ev[:count].tolist():      # d: a declaration's cards from the hand
        if kind == L.E_TURNUP:
            out.append({"event": "turn_up", "seat": seat, "card": card_str(a)})
        elif kind == L.E_TURNUP_SEVEN:
            out.append({"event": "turn_up_seven", "seat": seat, "points": b})
        elif kind == L.E_PLAY:
            out.append({"event": "play", "seat": seat, "card": card_str(a),
                        "from": "table" if b else "hand", "trick": c + 1})
        elif kind == L.E_SEVEN:
            out.append({"event": "seven_played", "seat": seat, "card": card_str(a), "points": b})
        elif kind == L.E_TRICK:
            out.append({"event": "trick", "seat": seat, "trick": a + 1, "brisques": b})
        elif kind == L.E_DECLARE:
            if is_four_combo(a):
                rank = rank_of(combo_cards(a)[0])
                cards = [card_id(s, rank) for s in range(4) for _ in range((c >> (4 * s)) & 15)]
            else:
                cards = combo_cards(a)
            out.append({"event": "declare", "seat": seat, "combination": COMBO_NAMES[a],
                        "cards": [card_str(x) for x in cards], "points": b, "from_hand": d})
        elif kind == L.E_TRUMP:
            out.append({"event": "trumps_fixed", "seat": seat, "suit": "SHDC"[a]})
        elif kind == L.E_EXCHANGE:
            out.append({"event": "exchange", "seat": seat, "card": card_str(a),
                        "took": card_str(b), "points": c})
        elif kind == L.E_CARTE:
            out.append({"event": "carte_blanche", "seat": seat, "points": a,
                        "card": card_str(b) if b >= 0 else None})
        elif kind == L.E_CLAIM:
            out.append({"event": "claim", "seat": seat,
                        "combination": COMBO_NAMES[a] if a >= 0 else None, "laid": b, "cards": []})
        elif kind == L.E_LAID:
            out[-1]["cards"].append(card_str(a))
        elif kind == L.E_DRAW:
            out.append({"event": "draw", "seat": seat, "card": card_str(a)})
        elif kind == L.E_STAGE2:
            out.append({"event": "second_stage"})
        elif kind == L.E_PARTNER:
            out.append({"event": "partner_declares", "seat": seat, "partner": a})
        elif kind == L.E_GAME_CLAIM:
            out.append({"event": "game_claim", "seat": seat, "right": bool(a)})
        elif kind == L.E_LAST_TRICK:
            out.append({"event": "last_trick", "seat": seat, "points": a})
        elif kind == L.E_BRISQUES:
            out.append({"event": "brisques", "seat": seat, "count": a, "points": b})
    return out


def play_spec(spec: HandSpec, policies=None, seed: int = 0, hand: int = 0) -> HandOutcome:
    """Play ``spec``: with ``policies`` (names or specs) or, if None, its moves."""
    rules_arr = spec.rules.to_array()
    deal = spec.deal()
    if policies is None:
        from ..engine.scripted import replay_moves   # the replay's checks compile only for a replay
        task, args = replay_moves, (rules_arr, deal, spec.moves)
    else:
        policies = [p if not isinstance(p, str) else resolve_policy(p) for p in policies]
        task, args = play_single, (rules_arr, deal, policy_arrays(policies, rules_arr), np.uint64(seed), hand)
    try:
        st = run_interruptibly(task, *args)
    except Exception as e:         # raised in a user policy (built-in ones raise nothing)
        raise SimulationError(f"{user_policies(policies or [])} stopped the hand: {type(e).__name__}: {e}") from None
    G, P = st.G, st.P
    status = int(G[L.G_STATUS])
    events = logged_events(st)
    scores = [int(P[s, L.P_SCORE]) for s in range(spec.rules.players)]
    tables = [[card_str(t) for t in range(32) for _ in range(int(P[s, L.P_TABLE + t]))]
              for s in range(spec.rules.players)]
    error = None
    if status == L.ST_ILLEGAL_SCRIPT:
        error = violation_message(G, spec)
    elif status == L.ST_ILLEGAL_POLICY:
        error = (f"seat {int(G[L.G_ERR_SEAT])}'s policy returned "
                 f"{illegal_return(int(G[L.G_ERR_ACTION]), int(G[L.G_ERR_DECISION]))}")
    players = () if policies is None else tuple(policies[s % len(policies)] for s in range(spec.rules.players))
    return HandOutcome(spec, int(status), events, scores, error, int(G[L.G_TRUMP]), tables, players, seed, hand)


def status_name(status: int) -> str:
    """Readable hand status."""
    return {L.ST_DONE: "complete", L.ST_INCOMPLETE: "incomplete", L.ST_ILLEGAL_SCRIPT: "illegal move",
            L.ST_ILLEGAL_POLICY: "illegal policy action"}[status]
