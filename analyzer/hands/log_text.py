"""A played hand's event log (HandOutcome.events) as readable text."""
from __future__ import annotations

from ..cards import SUITS, card_str, cards_str, parse_card, suit_of
from .handlog import HandOutcome, status_name


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
            lines.append(f"turn-up {cs(e['card'])}: trumps are {SUITS[suit_of(parse_card(e['card']))]}")
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
            table = " (table cards only)" if e.get("from_hand", 1) == 0 else ""
            lines.append(f"{move:4d}. seat {e['seat']} declares {e['combination']} "
                         f"{' '.join(cs(c) for c in e['cards'])}{table}  +{e['points']}{run()}")
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
            lines.append(f"      seat {e['seat']} scores {e['points']} for {e['count']} brisques{run()}")
    lines.append(f"hand {status_name(outcome.status)}; scores: " +
                 ", ".join(f"seat {s} {outcome.scores[s]}" for s in range(n)))
    return "\n".join(lines)
