"""An independent model of the play, for the rule tests of both variants.

``Deal`` plays a hand move by move in plain Python with its own bookkeeping of hands,
table, talon and trumps, from the rules as docs/rules.md states them: who wins a trick
(R2.5; in Rubicon no card is a trump before a marriage or sequence fixes them, R3.2), who
draws which card (R2.8, the winner first; the turn-up last, R2.1), the second stage
(R2.19-R2.20). It writes the move list for the engine and checks that the engine saw the
same trick winners and draws. It shares no code with the engine: only the deal
(HandSpec) and the move parser come from the package.
"""
from __future__ import annotations

from collections import Counter

from helpers import run

from analyzer.cards import card_str, parse_card
from analyzer.hands.replay_file import HandSpec, parse_move

RANKS = "ATKQJ987"


def beats(card: str, best: str, trump: str | None) -> bool:
    """R1.1/R2.5: does ``card``, played after ``best``, take the trick from it? With no trump
    fixed (``trump`` None, Rubicon before R3.2) no card is a trump."""
    if card[1] == best[1]:
        return RANKS.index(card[0]) < RANKS.index(best[0])   # identical card: first one wins
    return trump is not None and card[1] == trump


def legal_follows(hand: list[str], lead: str, trump: str | None) -> set[str]:
    """R2.20 for the second player of a two-handed trick: follow suit and win if you can,
    else trump if you can (no duty to trump while no trump is fixed), else anything."""
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        higher = [c for c in same if beats(c, lead, trump)]
        return set(higher or same)
    trumps = [c for c in hand if trump is not None and c[1] == trump]
    return set(trumps or hand)


def strength(card: str, trump: str | None) -> tuple:
    """Order of value for choosing a card: trumps above plain cards, then by rank."""
    return (card[1] == trump, -RANKS.index(card[0]))


class Deal:
    """A hand of ``spec`` (either variant) played move by move, with its own hands, table,
    talon and trump; ``moves`` is the move list so far and ``run()`` replays it."""

    def __init__(self, spec: HandSpec):
        deck = Counter(int(c) for c in spec.deck())
        assert len(spec.deck()) == spec.rules.n_cards and all(
            deck[t] == spec.rules.packs for t in range(32)), "test setup: not whole packs"
        self.rules = spec.rules
        self.dealer = spec.dealer
        self.deal_hands = [[card_str(c) for c in h] for h in spec.hands]
        self.hands = [list(h) for h in self.deal_hands]
        self.turn_up = card_str(spec.turn_up) if spec.turn_up is not None else None
        self.talon = [card_str(c) for c in spec.talon]
        self.stock = self.talon + ([self.turn_up] if self.turn_up else [])    # R2.1: the turn-up last
        self.trump = self.turn_up[1] if self.turn_up else None                # R3.2: fixed later
        self.table = [[], []]
        self.leader = (self.dealer + 1) % 2           # R2.3: the eldest hand leads
        self.moves: list[str] = []
        self.stage = 1
        self.pending = False                          # a trick won, its draws not yet made
        self.winners: list[int] = []
        self.first_stage_winners: list[int] = []
        self.draws: list[tuple[int, str]] = []
        self.last_winner = None

    def spec(self, moves=None) -> HandSpec:
        """The deal with ``moves`` (default: the moves played so far), for the engine."""
        spec = HandSpec(self.rules, self.dealer, [[parse_card(c) for c in h] for h in self.deal_hands],
                        parse_card(self.turn_up) if self.turn_up else None,
                        [parse_card(c) for c in self.talon])
        for i, m in enumerate(self.moves if moves is None else moves, start=1):
            row, text = parse_move(m, i, self.rules)
            spec.moves.append(row)
            spec.move_text.append(text)
        return spec

    def draw(self):
        """Make the draws of the last trick, if not made yet (R2.8: the winner first); when
        the talon is gone, the table cards go back to the hands (R2.19)."""
        if not self.pending:
            return
        w = self.winners[-1]
        for s in (w, 1 - w):
            card = self.stock.pop(0)
            self.hands[s].append(card)
            self.draws.append((s, card))
        self.pending = False
        if not self.stock:
            self.stage = 2
            for s in (0, 1):
                self.hands[s] += self.table[s]
                self.table[s] = []

    def trick(self, lead: str, follow: str, lead_table=False, follow_table=False) -> int:
        """Play one trick (the draws of the one before first); return its winner."""
        self.draw()
        first, second = self.leader, 1 - self.leader
        for s, c, tab in ((first, lead, lead_table), (second, follow, follow_table)):
            src = self.table[s] if tab else self.hands[s]
            assert c in src, f"test setup: seat {s} has no {c} {'on the table' if tab else 'in hand'}"
            src.remove(c)
            self.moves.append(f"{s} plays {c}" + (" from table" if tab else ""))
        w = second if beats(follow, lead, self.trump) else first
        self.winners.append(w)
        self.leader = w
        if self.stage == 1:
            self.first_stage_winners.append(w)
            self.pending = True
        elif not self.hands[w]:
            self.last_winner = w
        return w

    def declare(self, seat: int, combo: str, cards: str):
        """Seat ``seat``, which won the last trick, declares ``combo`` with ``cards`` (those not
        already on its table are laid from the hand); in Rubicon the first marriage or
        sequence fixes trumps (R3.2)."""
        assert self.pending and self.winners[-1] == seat, "test setup: not the trick winner"
        on_table = Counter(self.table[seat])
        for c in cards.split():
            if on_table[c] > 0:
                on_table[c] -= 1
            else:
                self.hands[seat].remove(c)
                self.table[seat].append(c)
        if self.trump is None and combo.split("_")[0] in ("marriage", "sequence"):
            self.trump = combo[-1]
        self.moves.append(f"{seat} declares {combo} {cards}")

    def exchange(self, seat: int):
        """The exchange of the seven of trumps for the turn-up (R2.9)."""
        seven = "7" + self.trump
        self.hands[seat].remove(seven)
        self.hands[seat].append(self.stock[-1])
        self.stock[-1] = seven
        self.moves.append(f"{seat} exchanges {seven}")

    def show(self, seat: int):
        """Seat ``seat`` shows carte blanche (R3.5), after the pending draws."""
        self.draw()
        self.moves.append(f"{seat} shows carte blanche")

    def held(self, s: int) -> list[str]:
        """Seat ``s``'s cards in hand and on the table."""
        return self.hands[s] + self.table[s]

    def choose(self, s, lead, keep, want) -> str:
        """The card seat ``s`` plays to lead (``lead`` None) or follow ``lead``: its strongest
        (``want[s] == "win"``) or weakest card that does it, never one of ``keep[s]`` in the
        first stage, and by R2.20 in the second."""
        reserve = Counter(keep[s].split())
        free = []
        for c in self.hands[s]:
            if reserve[c] > 0:
                reserve[c] -= 1
            else:
                free.append(c)
        if self.stage == 2:
            free = list(self.hands[s]) if lead is None else [
                c for c in self.hands[s] if c in legal_follows(self.hands[s], lead, self.trump)]
        assert free, f"test setup: seat {s} has nothing to play"
        key = lambda c: strength(c, self.trump)
        if lead is None:
            return max(free, key=key) if want[s] == "win" else min(free, key=key)
        winning = sorted([c for c in free if beats(c, lead, self.trump)], key=key)
        losing = sorted([c for c in free if not beats(c, lead, self.trump)], key=key)
        if want[s] == "win":
            return (winning or losing)[0]
        return (losing or winning)[0]

    def auto(self, n=None, keep=("", ""), want=("win", "lose")):
        """Play ``n`` tricks (default: to the last first-stage trick, its draws not made)."""
        count = 0
        while n is None or count < n:
            if n is None and self.stage == 1 and self.pending and len(self.stock) == 2:
                break
            self.draw()
            if self.stage == 2 and (n is None or not self.hands[self.leader]):
                break
            lead = self.choose(self.leader, None, keep, want)
            follow = self.choose(1 - self.leader, lead, keep, want)
            self.trick(lead, follow)
            count += 1
        return self

    def finish(self, want=("win", "lose")):
        """Play to the end of the hand (second stage by R2.20)."""
        self.draw()
        while self.hands[self.leader]:
            self.auto(1, want=want)
        return self

    def check(self, o):
        """Assert that the engine saw the same trick winners and draws as this model, as far
        as both got, and made every draw the model made but those of the last trick (the
        engine makes them only at the next move; moves run beyond the model's may add
        more); return ``o``."""
        tricks = [e["seat"] for e in o.events if e["event"] == "trick"]
        assert tricks == self.winners[:len(tricks)]
        draws = [(e["seat"], e["card"]) for e in o.events if e["event"] == "draw"]
        n = min(len(draws), len(self.draws))
        assert draws[:n] == self.draws[:n]
        assert len(draws) >= len(self.draws) - 2, f"the engine made {len(draws)} draws, the model {len(self.draws)}"
        return o

    def run(self, extra=()):
        """Replay the moves so far and ``extra`` in the engine; the HandOutcome."""
        return run(self.spec(self.moves + list(extra)))
