"""A plain reading of the re-use rules (R2.11-R2.17, R3.6, R3.7) over explicit histories, for
tests: every table copy remembers each declared instance it was part of, every instance its
copies and whether it still lies whole on the table. Nothing here is shared with the engine,
which keeps only what the rules need (levels, whole instances and, under the Portland reading,
restorations per combination).

The Portland reading (R3.6 (a)-(d)) is read as written: a declaration that shares a copy with
an instance of the same combination scored before needs a restoration, one gained for each card
played from a scored instance still whole on the table, and spends it; no set of copies scores
one combination twice; a card never joins an inferior combination of a class it was declared in.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from analyzer.cards import combo_cards

FOUR_RANKS = (0, 2, 3, 4)


@cache
def combo_class(c: int) -> str:
    """R2.11: M (marriages, sequences), B (béziques) or F (fours, one class per rank)."""
    return "M" if c < 8 else ("B" if c < 12 else f"F{FOUR_RANKS[c - 12]}")


@cache
def combo_level(c: int) -> int:
    """Step within the class: marriage 1, sequence 2, bézique n, a four 1."""
    return 1 if c < 4 else 2 if c < 8 else c - 7 if c < 12 else 1


@cache
def combo_types(c: int) -> frozenset[int]:
    """The card types that may be part of ``c`` (a four: its rank in every suit)."""
    return frozenset(combo_cards(c)) if c < 12 else frozenset(s * 8 + FOUR_RANKS[c - 12] for s in range(4))


@cache
def combo_needs(c: int) -> tuple:
    """(card type, copies) for each card type of marriage, sequence or bézique ``c``."""
    return tuple(Counter(combo_cards(c)).items())


def classes_of(card: int) -> set[str]:
    """The classes a card type can be declared in."""
    return {combo_class(c) for c in range(16) if card in combo_types(c)}


@dataclass
class Copy:
    card: int
    history: list = field(default_factory=list)      # instance ids, oldest first


@dataclass
class Instance:
    combo: int
    members: list                                     # Copy objects
    whole: bool = True


@dataclass
class Seat:
    """One player's hand and table under one reading of the rules."""

    reading: str                  # higher | same_or_higher | replace | portland
    claims: bool                  # R3.7: a never-scored table copy is new
    american: bool = False
    hand: Counter = field(default_factory=Counter)
    table: list = field(default_factory=list)        # Copy objects in the engine's slot order
    instances: list = field(default_factory=list)
    restore: Counter = field(default_factory=Counter)    # portland: restorations by combination

    def clone(self) -> "Seat":
        """A deep copy (copies and instances rebuilt)."""
        new = Seat(self.reading, self.claims, self.american, Counter(self.hand))
        new.restore = Counter(self.restore)
        copies = {id(c): Copy(c.card, list(c.history)) for c in self.table}
        new.table = [copies[id(c)] for c in self.table]
        new.instances = [Instance(i.combo, [copies.get(id(m), m) for m in i.members], i.whole)
                         for i in self.instances]
        return new

    # --- what a copy's history allows -------------------------------------------------
    def level(self, copy: Copy, cls: str) -> int:
        lv = [combo_level(self.instances[i].combo) for i in copy.history
              if combo_class(self.instances[i].combo) == cls]
        return max(lv, default=0)

    def scored(self, copy: Copy) -> bool:
        return bool(copy.history)

    def eligible(self, copy: Copy, c: int) -> bool:
        cls, lvl = combo_class(c), combo_level(c)
        if self.reading == "portland":    # R3.6 (b): never in an inferior combination of its class
            return not any(combo_class(self.instances[i].combo) == cls and combo_level(self.instances[i].combo) > lvl
                           for i in copy.history)
        have = self.level(copy, cls)
        ok = have < lvl if self.reading == "higher" else have <= lvl          # R2.14 / R3.6
        if self.american and cls != "B" and self.level(copy, "B") > 0:         # R2.17
            ok = False
        if self.reading == "replace":     # R3.6: no earlier whole instance of c shares it
            ok &= not any(self.instances[i].combo == c and self.instances[i].whole
                          for i in copy.history)
        return ok

    def shares(self, copy: Copy, c: int) -> bool:
        """R3.6 (c): the copy was in an instance of ``c`` scored before."""
        return any(self.instances[i].combo == c for i in copy.history)

    def portland_ok(self, c: int, ks, hand: Counter) -> bool:
        """R3.6 (c), (d): a set sharing a copy with a scored ``c`` needs a restoration, and a set
        of copies that scored ``c`` never scores it again."""
        members = [self.table[k] for k in ks]
        if not any(self.shares(cp, c) for cp in members):
            return True
        if self.restore[c] < 1:
            return False
        ids = {id(cp) for cp in members}
        return bool(hand) or not any(inst.combo == c and {id(m) for m in inst.members} == ids
                                     for inst in self.instances)

    def is_new(self, copy: Copy) -> bool:
        return self.claims and not self.scored(copy)                            # R3.7

    # --- choices --------------------------------------------------------------------------
    def choices(self, c: int, table_only: bool = False):
        """Every legal way to declare ``c`` now: (table indices, Counter of hand cards)."""
        types = combo_types(c)
        elig = [k for k, cp in enumerate(self.table) if cp.card in types and self.eligible(cp, c)]
        if c < 12:
            per_type = []
            for t, n in combo_needs(c):
                opts = []
                ks = [k for k in elig if self.table[k].card == t]
                for m in range(min(n, len(ks)) + 1):
                    if n - m > (0 if table_only else self.hand[t]):
                        continue
                    for sub in combinations(ks, m):
                        opts.append((sub, t, n - m))
                per_type.append(opts)
            for parts in product(*per_type):
                ks = tuple(k for sub, _, _ in parts for k in sub)
                hand = Counter({t: n for _, t, n in parts if n})
                if self.reading == "portland":
                    if self.portland_ok(c, ks, hand):
                        yield ks, hand
                elif hand or any(self.is_new(self.table[k]) for k in ks):         # R2.12 / R3.6
                    yield ks, hand
        else:
            cards = sorted(types)
            for m in range(min(4, len(elig)) + 1):
                draws = _hand_draws(Counter() if table_only else self.hand, cards, 4 - m)
                for sub in combinations(elig, m):
                    for hand in draws:
                        if self.reading == "portland":
                            if self.portland_ok(c, sub, hand):
                                yield sub, hand
                        elif hand or any(self.is_new(self.table[k]) for k in sub):
                            yield sub, hand

    def legal(self, c: int) -> bool:
        return next(self.choices(c), None) is not None

    def declare(self, c: int, ks, hand: Counter, hand_order=None) -> None:
        """Score ``c`` with table copies ``ks`` and ``hand`` cards (laid in ``hand_order``)."""
        inst = len(self.instances)
        members = [self.table[k] for k in ks]
        if self.reading == "portland" and any(self.shares(cp, c) for cp in members):
            self.restore[c] -= 1                 # R3.6 (c): a restoration spent
        for t in hand_order if hand_order is not None else sorted(hand.elements()):
            self.hand[t] -= 1
            cp = Copy(t)
            self.table.append(cp)
            members.append(cp)
        for cp in members:
            cp.history.append(inst)
        self.instances.append(Instance(c, members))

    # --- claims (R3.7) and plays --------------------------------------------------------
    def claim_legal(self, cards: list[int]) -> bool:
        """Each card laid belongs to a combination formed with the table cards, those laid
        included, that could be scored now."""
        if any(n > self.hand[t] for t, n in Counter(cards).items()):
            return False
        after = self.clone()
        laid = []
        for t in cards:
            after.hand[t] -= 1
            after.table.append(Copy(t))
            laid.append(len(after.table) - 1)
        for k in laid:
            t = after.table[k].card
            if not any(k in ks for c in range(16) if t in combo_types(c)
                       for ks, _ in after.choices(c, table_only=True)):
                return False
        return True

    def claim(self, cards: list[int]) -> None:
        for t in cards:
            self.hand[t] -= 1
            self.table.append(Copy(t))

    def rank(self, copy: Copy, cls: str) -> int:
        """How used up ``copy`` is in ``cls`` (the engine's play order, as documented)."""
        lvl = self.level(copy, cls)
        if self.reading == "higher":
            return lvl
        if self.reading == "same_or_higher":
            return max(lvl, 1)
        blocked = any(self.instances[i].whole and combo_class(self.instances[i].combo) == cls
                      and combo_level(self.instances[i].combo) == lvl for i in copy.history)
        return max(2 * lvl + blocked, 2)

    def gains(self, copy: Copy) -> set:
        """The combinations of the whole instances ``copy`` is in: one restoration each when it
        is played (R3.6 (c), portland)."""
        return {self.instances[i].combo for i in copy.history if self.instances[i].whole}

    def slot_to_play(self, card: int) -> int:
        """The copy given up when ``card`` is played from the table: the most used one (portland:
        the one that gives the most restorations, then the most used)."""
        best, best_key = -1, None
        for k, cp in enumerate(self.table):
            if cp.card != card:
                continue
            if self.reading == "portland":
                key = (len(self.gains(cp)), sum(self.level(cp, cls) for cls in _classes(cp)))
            elif self.reading == "higher":
                key = (sum(self.level(cp, cls) for cls in _classes(cp)) + self.scored(cp),)
            else:
                ranks = sum(self.rank(cp, cls) for cls in _classes(cp))
                whole = sum(self.instances[i].whole for i in cp.history) if self.reading == "replace" else 0
                key = (self.scored(cp), ranks, whole)
            if best_key is None or key > best_key:
                best, best_key = k, key
        return best

    def play_table(self, k: int) -> None:
        cp = self.table[k]
        if self.reading == "portland":
            for c in self.gains(cp):
                self.restore[c] += 1
        for i in cp.history:
            self.instances[i].whole = False
        self.table[k] = self.table[-1]
        self.table.pop()

    def signature(self) -> tuple:
        """The state up to renaming of copies and instances (in slot order)."""
        names: dict = {}
        out = []
        for cp in self.table:
            hist = []
            for i in cp.history:
                inst = self.instances[i]
                if inst.whole:
                    hist.append((inst.combo, names.setdefault(i, len(names))))
                else:
                    hist.append((inst.combo, -1))
            out.append((cp.card, tuple(hist)))
        return tuple(sorted(self.hand.elements())), tuple(out), tuple(sorted((+self.restore).items()))


def _classes(copy: Copy) -> tuple:
    """Classes M, B and the four class of the copy's rank (the engine's three level fields)."""
    return "M", "B", f"F{copy.card % 8}"


def _hand_draws(hand: Counter, cards: list[int], n: int) -> tuple:
    """Every Counter of ``n`` cards of types ``cards`` that ``hand`` holds (shared by every call
    with the same holding: none is ever changed)."""
    return _draws(tuple((t, hand[t]) for t in cards if hand[t] > 0), n)


@cache
def _draws(avail: tuple, n: int) -> tuple:
    """Every Counter of ``n`` cards from ``avail``, (card type, copies held) pairs."""
    def rec(i, left):
        if left == 0:
            yield Counter()
            return
        if i == len(avail):
            return
        t, have = avail[i]
        for m in range(min(have, left), -1, -1):
            for rest in rec(i + 1, left - m):
                yield Counter({t: m}) + rest if m else rest

    return tuple(rec(0, n))
