"""A played hand's event log (HandOutcome.events) as readable text: each seat's policy, every
combination in words (analyzer/words.py), and with ``--explain`` the learned player's best
actions at each explained decision."""
from __future__ import annotations

import textwrap

from ..actions import action_words
from ..cards import SUIT_SYMBOLS, SUITS, card_str, cards_str, parse_card, suit_of
from ..engine import layout as L
from ..numbers import difference
from ..words import combination_name
from .handlog import HandOutcome, status_name

TO_DECIDE = {L.D_LEAD: "to lead", L.D_FOLLOW: "to follow", L.D_MELD: "to declare or stop",
             L.D_CARTE: "to show carte blanche or not", L.D_CLAIM: "to claim the game or play on"}
ORDINALS = {1: "best", 2: "2nd best", 3: "3rd best"}
WIDTH = 100              # the explanation's header, wrapped


def format_log(outcome: HandOutcome, symbols: bool = False) -> str:
    """The event log as readable text, with the running score after each score; the seats'
    policies when the hand was played by policies, and the explanation (HandOutcome.explanation)
    before each decision it explains."""
    spec = outcome.spec
    n = spec.rules.players
    cs = lambda c: card_str(parse_card(c), symbols)
    suit = lambda letter: SUIT_SYMBOLS[SUITS.index(letter)] if symbols else letter
    names = outcome.policy_names()
    lines = [f"{spec.rules.name} bezique, {n} seats; dealer: seat {spec.dealer}"]
    if names:
        lines.append(", ".join(f"seat {s}: {name}" for s, name in enumerate(names)))
    for s in range(n):
        role = "dealer" if s == spec.dealer else ("eldest" if s == (spec.dealer + 1) % n else "")
        lines.append(f"  seat {s} {('(' + role + ')') if role else ''}: {cards_str(sorted(spec.hands[s]), symbols)}")
    explanation = outcome.explanation
    if explanation is not None:
        lines += explained_header(explanation)
    decisions = list(explanation.decisions) if explanation is not None else []
    score = [0] * n
    run = lambda: "   [score " + " - ".join(str(x) for x in score) + "]"
    move = 0
    for i, e in enumerate(outcome.events):
        while decisions and decisions[0].event <= i:
            lines += decision_lines(decisions.pop(0), outcome, symbols)
        k = e["event"]
        if k == "turn_up":
            lines.append(f"turn-up {cs(e['card'])}: trumps are {suit(SUITS[suit_of(parse_card(e['card']))])}")
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
            table = ", table cards only" if e.get("from_hand", 1) == 0 else ""
            lines.append(f"{move:4d}. seat {e['seat']} declares {combination_name(e['combination'])} "
                         f"({' '.join(cs(c) for c in e['cards'])}{table})  +{e['points']}{run()}")
        elif k == "trumps_fixed":
            lines.append(f"      trumps are now {suit(e['suit'])}")
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
            what = f"{combination_name(e['combination'])}, laying" if e["combination"] else "laying"
            lines.append(f"{move:4d}. seat {e['seat']} claims ({what} "
                         f"{' '.join(cs(c) for c in e['cards'])} from the hand)")
        elif k == "partner_declares":
            move += 1
            lines.append(f"{move:4d}. seat {e['seat']} lets his partner, seat {e['partner']}, declare")
        elif k == "game_claim":
            move += 1
            verdict = "right: he wins the game" if e["right"] else "wrong: his opponent wins the game"
            lines.append(f"{move:4d}. seat {e['seat']} claims the game (V3) - {verdict}")
        elif k == "draw":
            lines.append(f"      seat {e['seat']} draws {cs(e['card'])}")
        elif k == "second_stage":
            lines.append("-- talon exhausted: second stage, table cards back in hand (R2.19) --")
        elif k == "last_trick":
            score[e["seat"]] += e["points"]
            lines.append(f"      seat {e['seat']} scores {e['points']} for the last trick{run()}")
        elif k == "brisques":
            score[e["seat"]] += e["points"]
            lines.append(f"      seat {e['seat']} scores {e['points']} for {e['count']} "
                         f"brisque{'s' if e['count'] != 1 else ''}{run()}")
    for d in decisions:                 # none but after an illegal action
        lines += decision_lines(d, outcome, symbols)
    lines.append(f"hand {status_name(outcome.status)}; scores: " +
                 ", ".join(f"seat {s} {outcome.scores[s]}" for s in range(n)))
    return "\n".join(lines)


def explained_header(explanation) -> list[str]:
    """The lines that say what the explanation's values are."""
    seats = " and ".join(str(s) for s in explanation.seats)
    text = (f"explained: seat{'s' if len(explanation.seats) > 1 else ''} {seats}, by the learned player's "
            f"network: an action's value is in {explanation.unit}, for the seat to act (only the differences "
            "between a decision's actions matter); * marks the action played")
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ")


def decision_lines(d, outcome: HandOutcome, symbols: bool) -> list[str]:
    """One explained decision: the seat and its policy, the learned player's best actions with
    their values, and the one played (after them, with its rank, when it is not among them)."""
    policy = outcome.policy_names()[d.seat] if outcome.players else "?"
    shown = d.best()
    which = (f"values of its {len(d.actions)} actions" if len(shown) == len(d.actions)
             else f"{len(shown)} best of {len(d.actions)} actions")
    note = " (a second-stage play: the learned player solves it exactly instead)" if d.exact else ""
    lines = [f"      seat {d.seat} ({policy}) {TO_DECIDE.get(d.kind, 'to act')}: the learned player's {which}{note}"]
    played = d.played_action()
    if played not in shown:
        shown = shown + [played]
    words = [_words(v.code, d, outcome, symbols) for v in shown]
    values = [difference(v.value) for v in shown]
    width, vwidth = max(map(len, words)), max(map(len, values))
    for v, w, x in zip(shown, words, values):
        mark = "*" if v.code == d.played else " "
        rank = f"  ({ORDINALS.get(v.rank, f'{v.rank}th best')})" if v.rank > len(d.best()) else ""
        lines.append(f"      {mark} {w:<{width}}  {x:>{vwidth}}{rank}")
    return lines


def _words(code: int, d, outcome: HandOutcome, symbols: bool) -> str:
    """An action of decision ``d`` in words; the one played names the cards its declaration or
    claim laid (the log's next event)."""
    cards = None
    if code == d.played and d.event < len(outcome.events):
        e = outcome.events[d.event]
        if e["event"] in ("declare", "claim") and e["seat"] == d.seat:
            cards = e["cards"]
    return action_words(code, symbols, cards, d.kind)
