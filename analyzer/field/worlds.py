"""A whole hand consistent with what one seat has seen (OpenSpiel's ``resample_from_infostate``):
the cards it cannot place drawn by the engine's own sampler, the hand played again on them.

Now: the engine's sampler (``api.sample_hidden``, as the search players draw their worlds) deals
the other hand as it is now (its cards known to every seat kept) and the talon still to draw,
uniformly over the cards the seat cannot place. Before: the other seat's dealt hand and its draws
are arranged to fit its moves — each card it played, declared, claimed or exchanged from its hand
put in a place it had reached by then (its deal, or a draw before the move), in the order of its
moves; what it showed stays (carte blanche, R3.5), a dealt hand it was asked about carte blanche
with gets no K, Q or J, and so does a draw after which it was asked, free to show its draws, while
a draw after which it was not asked is a court card (the drawn cards of those places are drawn
again among the plain or the court cards the seat cannot place). The deck so made is dealt and
every move replayed by the engine; a world in which a move is not legal, or in which the seat
would have seen something else (the engine laying other copies for a declaration, a seat asked
about carte blanche that was not), is drawn again. The world is not weighted by how likely the
other seat's moves are in it.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..cards import KING, KNAVE, N_TYPES, SEVEN, card_id, rank_of, suit_of
from ..engine import api
from ..engine import layout as L
from .core import FieldError, Hand
from .views import deal_showed, info_state_string, seat_observation

MAX_TRIES = 1000         # worlds drawn before giving up (a few dozen at most in the tests)


def is_court(card: int) -> bool:
    """K, Q or J (R3.5)."""
    return KING <= rank_of(card) <= KNAVE


def resample(hand: Hand, seat: int, rng: np.random.Generator) -> Hand:
    """A new Hand, played to the same moves, in which seat ``seat`` has seen exactly what it has
    seen in ``hand`` (the same information state) and every card it cannot place is drawn anew
    (see the module docstring), with the same seat to act at the same kind of decision (a
    world where the other seat would be asked about carte blanche first, R3.5, is drawn again);
    FieldError if no such world is found in MAX_TRIES draws."""
    if hand.st is None:
        return _redealt(hand, seat, rng)
    mine = info_state_string(hand, seat)
    for _ in range(MAX_TRIES):
        deck = candidate_deck(hand, seat, rng)
        world = replay_on(hand, deck) if deck is not None else None
        if (world is not None and world.current_player() == hand.current_player()
                and world.decision() == hand.decision() and info_state_string(world, seat) == mine):
            return world
    raise FieldError(f"no world consistent with seat {seat}'s information was found in {MAX_TRIES} draws")


def _redealt(hand: Hand, seat: int, rng: np.random.Generator) -> Hand:
    """While dealing: the cards dealt so far that the seat has not seen drawn from the cards it
    has not seen."""
    seen = {k for k in range(len(hand.deck)) if hand.packet_seat(k) == seat}
    if hand.turn_up() >= 0:
        seen.add(2 * hand.rules.hand_size)
    pool = Counter({t: hand.rules.copies(t) for t in range(N_TYPES)})
    pool.subtract(hand.deck[k] for k in seen)
    cards = [t for t, n in pool.items() for _ in range(n)]
    rng.shuffle(cards)
    deck = [c if k in seen else cards.pop() for k, c in enumerate(hand.deck)]
    return Hand.replayed(hand.rules, [hand.dealer] + deck, margin=hand.margin)


def talon_position(hand: Hand, j: int) -> int:
    """The deck position of talon card ``j`` (0: the first drawn; with a turn-up the turn-up is
    drawn last, R2.1)."""
    h2, talon = 2 * hand.rules.hand_size, hand.rules.n_cards - 2 * hand.rules.hand_size
    if hand.rules.trump != "turn_up":
        return h2 + j
    return h2 if j == talon - 1 else h2 + 1 + j


def _engine_sample(hand: Hand, seat: int, rng: np.random.Generator):
    """The engine's draw of the other hand now (32 counts) and of the talon still to draw."""
    obs = seat_observation(hand, seat)
    hidden = np.zeros((L.MAX_SEATS, N_TYPES), np.int32)
    talon = np.zeros(L.MAX_TALON, np.int32)
    drawn = np.zeros(L.MAX_SEATS, np.int32)
    pool = np.zeros(N_TYPES * hand.rules.packs, np.int32)
    sizes = np.zeros(L.MAX_SEATS, np.int64)
    state = np.array([rng.integers(1, 2**63)], np.uint64)
    api.sample_hidden(hand.arr, obs, state, hidden, talon, drawn, pool, sizes)
    return hidden[1 - seat], talon[:int(sizes[0])]


def candidate_deck(hand: Hand, seat: int, rng: np.random.Generator) -> list[int] | None:
    """A deck for a world of seat ``seat`` (see the module docstring), or None when the draw
    cannot be arranged to fit the other seat's moves."""
    other, rules = 1 - seat, hand.rules
    now, talon_rest = _engine_sample(hand, seat, rng)
    deck = list(hand.deck)
    talon = rules.n_cards - 2 * rules.hand_size
    drawn_so_far = int(hand.st.G[L.G_TALON_POS])
    undrawn = [talon_position(hand, j) for j in range(drawn_so_far, drawn_so_far + len(talon_rest))]
    places = _Places(rng)
    showed_dealt = any(s == other and deal_showed(hand, k) for k, (s, _a, _d) in enumerate(hand.moves))
    for k in range(2 * rules.hand_size):
        if hand.packet_seat(k) == other and showed_dealt:
            places.known[deck[k]] += 1
        elif hand.packet_seat(k) == other:
            places.open(k)
    up = hand.turn_up()
    seven = card_id(suit_of(up), SEVEN) if up >= 0 else -1
    table, j, exchanged, last_place, played, repeating = Counter(), 0, False, -1, False, False
    for k, (s, action, kind) in enumerate(hand.moves):
        played |= kind in (L.D_LEAD, L.D_FOLLOW)
        exchanged |= action == L.A_EXCHANGE
        spent = []
        if s == other and kind in (L.D_LEAD, L.D_FOLLOW):
            if action < L.A_PLAY_TABLE:
                spent = [action]
            else:
                table[action - L.A_PLAY_TABLE] -= 1
        elif s == other and action == L.A_EXCHANGE:
            spent = [seven]
            places.known[up] += 1
        elif s == other and kind == L.D_MELD:
            spent = list(hand.shown[k])
            table.update(spent)
        elif s == other and kind == L.D_CARTE and action == L.A_CARTE_BLANCHE:
            if played:
                places.fix(last_place, hand.shown[k][0])
            repeating = rules.carte_blanche == "repeat"
        elif s == other and kind == L.D_CARTE and not played:    # a dealt hand without K, Q or J
            places.must.update((p, False) for p in places.free)
        if not all(places.spend(c) for c in spent):
            return None
        for s_drew, _card in hand.drawn[k]:
            if s_drew == other and up >= 0 and j == talon - 1:      # the last card, face up
                places.known[seven if exchanged else up] += 1
            elif s_drew == other:
                last_place = talon_position(hand, j)
                places.open(last_place)
                asked = asked_about_draw(hand, k, other) if repeating else None
                if asked is not None:                    # asked: not a court; not asked: a court
                    places.must[last_place] = not asked
                    repeating = asked
            j += 1
        if hand.drawn[k] and j == talon:            # R2.19: the table taken back into the hand
            places.known.update(table)
            table.clear()
    if not places.fill(now, talon_rest, undrawn):
        return None
    for p, c in places.cards.items():
        deck[p] = c
    whole = Counter(deck) == Counter({t: rules.copies(t) for t in range(N_TYPES)})
    return deck if whole else None


class _Places:
    """The other seat's unseen places (deck positions) in the order they reached its hand, the
    cards known to have reached it otherwise (``known``), and the cards placed so far."""

    def __init__(self, rng):
        self.rng = rng
        self.free: list[int] = []
        self.must: dict[int, bool] = {}        # place -> whether it holds a court card (R3.5)
        self.known: Counter = Counter()
        self.cards: dict[int, int] = {}

    def open(self, place: int) -> None:
        """A place has reached the hand."""
        self.free.append(place)

    def fix(self, place: int, card: int) -> None:
        """A place's card has been shown."""
        self.free.remove(place)
        self.cards[place] = card
        self.known[card] += 1

    def spend(self, card: int) -> bool:
        """The card has left the hand: a known copy, else a free place it may have been in."""
        if self.known[card] > 0:
            self.known[card] -= 1
            return True
        court = is_court(card)
        fits = [p for p in self.free if self.must.get(p, court) == court]
        if not fits:
            return False
        place = fits[self.rng.integers(len(fits))]
        self.free.remove(place)
        self.cards[place] = card
        return True

    def fill(self, now, talon_rest, undrawn: list[int]) -> bool:
        """Place the cards the seat cannot place: the other hand now (32 counts: the known
        copies left, and a card for each free place) and the talon still to draw (``talon_rest``
        for the places ``undrawn``), as the engine drew them; where places known to hold a court
        card or none (R3.5) are still in the hand, those cards are drawn again, such a place's
        among the court or the plain cards (uniformly, given that). False if they do not fit."""
        rest = Counter({t: int(now[t]) for t in range(N_TYPES) if now[t]})
        rest.subtract(self.known)
        if min(rest.values(), default=0) < 0 or sum(rest.values()) != len(self.free):
            return False
        hand = [t for t, n in rest.items() for _ in range(n)]
        self.rng.shuffle(hand)
        strict = [p for p in self.free if p in self.must]
        talon = [int(c) for c in talon_rest]
        if not strict:
            self.cards.update(zip(self.free + undrawn, hand + talon))
            return True
        pool, taken = hand + talon, set()
        for court in (False, True):
            wanting = [p for p in strict if self.must[p] == court]
            fitting = [i for i, c in enumerate(pool) if is_court(c) == court]
            if len(fitting) < len(wanting):
                return False
            chosen = self.rng.choice(fitting, len(wanting), replace=False).tolist() if wanting else []
            self.cards.update((p, pool[i]) for p, i in zip(wanting, chosen))
            taken.update(chosen)
        others = [c for i, c in enumerate(pool) if i not in taken]
        self.rng.shuffle(others)
        self.cards.update(zip([p for p in self.free if p not in self.must] + undrawn, others))
        return True


def asked_about_draw(hand: Hand, k: int, other: int) -> bool | None:
    """Whether seat ``other``, free to show the cards it draws (R3.5), was asked about carte
    blanche after the draws of move ``k`` (it is, unless the card it drew is a court card); None
    while the round has not reached it."""
    j = k + 1
    while j < len(hand.moves) and hand.moves[j][2] == L.D_CARTE:
        if hand.moves[j][0] == other:
            return True
        j += 1
    if j < len(hand.moves) or hand.decision() != L.D_CARTE:
        return False
    if hand.current_player() == other:
        return True
    return False if int(hand.st.G[L.G_CARTE_FIRST]) == other else None


def replay_on(hand: Hand, deck: list[int]) -> Hand | None:
    """``hand``'s moves played again on ``deck`` dealt by the same dealer; None when a move is
    not legal there or another seat would be to act."""
    world = Hand.replayed(hand.rules, [hand.dealer] + deck, margin=hand.margin)
    for s, action, _kind in hand.moves:
        if world.current_player() != s or action not in world.legal_actions():
            return None
        world.apply(action)
    return world
