"""One hand of two-handed bézique as a game with chance nodes, over the engine's own state: the
dealer and the deck dealt card by card, then the engine's decisions, moves and scores (no second
rule implementation). The OpenSpiel game and the PettingZoo environment are adapters over it.

The chance nodes, in order: the dealer (seat 0 or 1, one half each), then every card of the deck
in the engine's deal order (engine/deals.py: the eldest hand's packet, the dealer's, the turn-up
where the rules turn one up, the talon from the top), each outcome a card type 0..31 drawn with
probability copies left / cards left. The draws are the talon's cards in that order, so they need
no chance node of their own. :func:`engine_deal` gives the outcomes of the engine's deal of hand
``hand`` of a run seeded ``seed`` (``api.deal``; seat ``hand % 2`` deals, as in every run).
"""
from __future__ import annotations

from functools import cache

import numpy as np

from ..cards import N_TYPES, SEVEN, card_id, suit_of
from ..engine import api
from ..engine import layout as L
from ..engine.codes import bezique_level, is_bezique
from ..engine.deals import deal_cards
from ..engine.game_score import game_value
from ..engine.hand import deal_into
from ..errors import BeziqueError
from ..hands.replay_file import HandSpec
from ..rules import (
    PRESETS,
    R_BRISQUE_POINTS,
    R_CARTE_POINTS,
    R_POINTS,
    R_ROYAL_POINTS,
    R_TRUMP_SEQ_POINTS,
    RuleSet,
)

FIELD_VARIANTS = tuple(name for name, rules in PRESETS.items() if rules.players == 2)
"""The rulebook's two-handed presets (analyzer.rules.PRESETS) the field's tools play."""
N_ACTIONS = L.A_CLAIM + L.N_COMBOS
"""Distinct action codes: the engine's codes 0 .. A_CLAIM + 15 (layout A_*)."""
CHANCE, TERMINAL = -1, -4           # OpenSpiel's player ids of a chance node and of the end
BOTH_SEATS_PUBLIC = 0b11            # G_FULL_OBS: fill both seats' public records when observed


class FieldError(BeziqueError, ValueError):
    """A game the field's tools cannot play (a variant that is not two-handed, a bad option), or
    an action that is not legal where it is applied."""


def check_margin(rules: RuleSet, margin) -> bool:
    """``margin`` if it is a bool that ``rules`` can return (FieldError otherwise): Rubicon's
    returns are net game points, already zero-sum."""
    if not isinstance(margin, bool):
        raise FieldError(f"margin is true or false, not {margin!r}")
    if margin and rules.is_rubicon:
        raise FieldError("margin=true is for the ordinary games: a Rubicon hand returns net game "
                         "points (R3.9), already zero-sum")
    return margin


def field_rules(variant: str) -> RuleSet:
    """The preset ``variant`` of the rulebook, if it is one of the two-handed games
    (FIELD_VARIANTS); FieldError otherwise."""
    if variant not in FIELD_VARIANTS:
        known = f"the two-handed games are {', '.join(FIELD_VARIANTS)}"
        if variant in PRESETS:
            raise FieldError(f"variant {variant!r} is {PRESETS[variant].players}-handed: {known}")
        raise FieldError(f"unknown variant {variant!r}: {known}")
    return PRESETS[variant]


@cache
def packed(rules: RuleSet) -> np.ndarray:
    """``rules.to_array()``, packed once per rule set (the array is shared: never write it)."""
    return rules.to_array()


@cache
def full_deck(rules: RuleSet) -> tuple[int, ...]:
    """The copies of each card type in the deck."""
    return tuple(rules.copies(t) for t in range(N_TYPES))


def engine_deal(rules: RuleSet, seed: int, hand: int) -> list[int]:
    """The chance outcomes of the engine's deal of hand ``hand`` of a run seeded ``seed``
    (``api.deal(rules.to_array(), seed, hand)``): the dealer, then the deck in deal order."""
    dealer = hand % rules.players
    deck = np.zeros(L.MAX_TALON, np.int32)
    deal_cards(packed(rules), np.uint64(seed), hand, dealer, deck, np.zeros(1, np.uint64))
    return [dealer] + [int(c) for c in deck[:rules.n_cards]]


def first_stage_tricks(rules: RuleSet) -> int:
    """Tricks of the first stage: one per round of draws (the talon, turn-up included)."""
    return (rules.n_cards - 2 * rules.hand_size) // 2


def points_bound(rules: RuleSet) -> int:
    """A bound on one seat's points in a hand (brisques included): one scoring declaration per
    first-stage trick at most (R2.16; declare_all: every combination) at the highest value a
    combination can have with these packs, every seven of trumps, a carte blanche at the deal and
    after every draw, the last trick and every brisque. Not reached; it only bounds."""
    arr = packed(rules)
    values = [40, int(arr[R_ROYAL_POINTS]), int(arr[R_TRUMP_SEQ_POINTS])]
    values += [int(arr[R_POINTS + c]) for c in range(L.N_COMBOS)
               if not (is_bezique(c) and bezique_level(c) > rules.packs)]      # a level the packs cannot make
    per_window = L.N_COMBOS if rules.declare_all else 1
    tricks = first_stage_tricks(rules)
    bound = tricks * per_window * max(values) + rules.last_trick + 8 * rules.packs * rules.brisque_points
    if rules.seven_scores:
        bound += rules.seven_points * (rules.packs + 2)      # the turn-up, the exchange, each played
    if rules.carte_blanche != "off":
        bound += int(arr[R_CARTE_POINTS]) * (tricks + 1)
    return bound


def utility_range(rules: RuleSet, margin: bool) -> tuple[float, float]:
    """The (min, max) of a seat's return: Rubicon's net game points (R3.9: at most both totals
    with their brisques and the rubicon's 1300, a minimum counted as 100), else the hand's
    points (``margin``: the seat's points less its opponent's)."""
    bound = points_bound(rules)
    if rules.is_rubicon:
        top = 2 * bound + rules.rubicon_bonus + rules.rubicon_minimum + rules.game_bonus
        return -float(top), float(top)
    return (-float(bound), float(bound)) if margin else (0.0, float(bound))


def max_decisions(rules: RuleSet) -> int:
    """A bound on the decisions of a hand: every card played, and in each declaration window a
    declaration (or every combination with declare_all), the exchange, every claim (R3.7) and the
    stop; a carte-blanche question to each seat at the deal and after each draw (R3.5); a claim
    of the game before each card (V3)."""
    tricks = first_stage_tricks(rules)
    window = (L.N_COMBOS if rules.declare_all else 1) + 1 + (L.N_COMBOS if rules.claims else 0) + 1
    total = rules.n_cards + tricks * window
    if rules.carte_blanche != "off":
        total += 2 * (tricks + 1)
    if rules.fixed_point:
        total += rules.n_cards
    return total


class Hand:
    """One hand in play: the chance outcomes so far (``dealer``, ``deck``), then, once the deck
    is whole, the engine's HandState ``st`` (with its event log) and the moves made, each with
    what it showed the other seat. Change it only with :meth:`apply`; copy it with :meth:`copy`.

    Per move ``k``: ``moves[k]`` = (seat, action, decision kind layout.D_*); ``shown[k]`` the
    cards it laid face up from the hand (a declaration or a claim: what went from the hand to the
    table) or showed (carte blanche: the dealt hand, or the card drawn); ``drawn[k]`` the (seat,
    card) draws that followed it. ``player``: the seat to act (CHANCE while dealing, TERMINAL
    once over). ``known[seat]``: the cards every seat knows are in ``seat``'s hand now (32
    counts; see :meth:`_learn`). ``memo`` keeps what the views derive from the moves so far
    (moves are only ever added), shallow-copied with the hand: an entry is replaced, never
    changed, though the list or buffer it names may be appended to (see views._lines);
    ``now`` what is derived from the position now (legal actions, views: values never changed in
    place), shared by every copy at this position; a move takes the next position's (that of
    another copy which made the same move from here last: OpenSpiel plays each move on a clone
    too, and asks both for the same text).
    """

    def __init__(self, rules: RuleSet, margin: bool = False):
        self.rules = rules
        self.margin = margin
        self.arr = packed(rules)
        self.dealer = -1
        self.deck: list[int] = []
        self.left = list(full_deck(rules))
        self.moves: list[tuple[int, int, int]] = []
        self.shown: list[tuple[int, ...]] = []
        self.drawn: list[tuple[tuple[int, int], ...]] = []
        self.known = ([0] * N_TYPES, [0] * N_TYPES)
        self.player = CHANCE
        self.st = None
        self.memo: dict = {}
        self.now: dict = {}

    # --- chance -------------------------------------------------------------------------------

    def is_chance(self) -> bool:
        """Whether the next step is a chance outcome (the dealer or a card of the deck)."""
        return self.st is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The possible outcomes of the chance node and their probabilities, outcome ascending."""
        if self.dealer < 0:
            return [(0, 0.5), (1, 0.5)]
        outcomes = self.now.get("chance")
        if outcomes is None:
            remaining = self.rules.n_cards - len(self.deck)
            outcomes = self.now["chance"] = tuple((t, n / remaining) for t, n in enumerate(self.left) if n)
        return list(outcomes)

    def apply_chance(self, outcome: int) -> None:
        """Take chance outcome ``outcome``: the dealer, then the next card of the deck; the last
        card deals the hand into the engine, which stops at the first decision."""
        outcome = int(outcome)
        if self.dealer < 0:
            if outcome not in (0, 1):
                raise FieldError(f"the dealer is seat 0 or 1, not {outcome}")
            self._step(outcome)
            self.dealer = outcome
            return
        if not 0 <= outcome < N_TYPES or self.left[outcome] == 0:
            raise FieldError(f"chance outcome {outcome} is no card left in the deck")
        self._step(outcome)
        self.left[outcome] -= 1
        self.deck.append(outcome)
        if len(self.deck) == self.rules.n_cards:
            self.st = api.new_state(True)
            deal_into(self.arr, self.st, np.array(self.deck, np.int32), self.dealer)
            self.st.G[L.G_FULL_OBS] = BOTH_SEATS_PUBLIC
            self._next_player()

    def packet_seat(self, position: int) -> int:
        """The seat dealt deck position ``position`` (-1: the turn-up or the talon)."""
        h = self.rules.hand_size
        return (self.dealer + 1 + position // h) % 2 if position < 2 * h else -1

    def turn_up(self) -> int:
        """The turned-up card once dealt (-1: none, or not yet)."""
        k = 2 * self.rules.hand_size
        return self.deck[k] if self.rules.trump == "turn_up" and len(self.deck) > k else -1

    # --- decisions ----------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act; CHANCE (-1) while dealing, TERMINAL (-4) once over."""
        return self.player

    def _next_player(self) -> None:
        """Read who acts next from the engine (OpenSpiel asks often, the engine changes it only
        when a move is made)."""
        self.player = TERMINAL if api.is_over(self.st) else int(api.to_act(self.st))

    def is_over(self) -> bool:
        """Whether the hand has been played to its end."""
        return self.player == TERMINAL

    def decision(self) -> int:
        """The kind of the next decision (layout.D_*; -1 while dealing or once over)."""
        return -1 if self.st is None else int(api.decision(self.st))

    def legal_actions(self) -> list[int]:
        """The engine's legal actions of the seat to act, ascending (empty unless a seat acts)."""
        if self.player < 0:
            return []
        legal = self.now.get("legal")
        if legal is None:
            n, _plays = api.legal_actions(self.arr, self.st)
            legal = self.now["legal"] = tuple(sorted(self.st.legal[:n].tolist()))
        return list(legal)

    def apply(self, action: int) -> None:
        """The seat to act does ``action`` (FieldError if it is not legal), and the engine carries
        the hand on to the next decision."""
        st, action = self.st, int(action)
        if self.player < 0:
            raise FieldError("no seat is to act: " + ("the deal is not over" if st is None else "the hand is over"))
        # computed on this state even where ``now`` holds them: in a declaration window the
        # engine's legal actions also narrow the seat's combinations worth checking
        # (P_MELD_CAND), as its own driver has them do before every move; a clone that read them
        # from ``now`` has not done that on its own state, which would then hold a wider set than
        # the engine's own (the same legal actions; reading them from ``now`` was no faster)
        n, _plays = api.legal_actions(self.arr, st)
        legal = st.legal[:n].tolist()
        if action not in legal:
            raise FieldError(f"action {action} is not legal here (legal: {sorted(legal)})")
        seat, kind = self.player, int(api.decision(st))
        self._step(action)
        lays = kind == L.D_MELD and (L.A_DECLARE <= action < L.A_DECLARE + L.N_COMBOS or action >= L.A_CLAIM)
        table = st.P[seat, L.P_TABLE:L.P_TABLE + N_TYPES].copy() if lays else None
        shown: tuple[int, ...] = ()
        g = st.G.tolist()                   # plain ints: several times faster to read than the array's
        if kind == L.D_CARTE and action == L.A_CARTE_BLANCHE:
            card = g[L.G_DRAWN + g[L.G_CARTE_I]]
            shown = (card,) if card >= 0 else self.hand_cards(seat)
        events = g[L.G_NEV]
        last_draws = g[L.G_STAGE] == 1 and g[L.G_TALON_LEN] - g[L.G_TALON_POS] <= 2
        tables = st.P[:2, L.P_TABLE:L.P_TABLE + N_TYPES].copy() if last_draws else None
        api.apply(self.arr, st, action)
        self._next_player()
        if lays:
            delta = (st.P[seat, L.P_TABLE:L.P_TABLE + N_TYPES] - table).tolist()
            shown = tuple(t for t in range(N_TYPES) for _ in range(max(delta[t], 0)))
        self.moves.append((seat, action, kind))
        self.shown.append(shown)
        rows = st.ev[events:int(st.G[L.G_NEV])].tolist()
        self.drawn.append(tuple((r[1], r[2]) for r in rows if r[0] == L.E_DRAW))
        self._learn(tables if tables is not None and st.G[L.G_STAGE] == 2 else None)

    def _step(self, step: int) -> None:
        """Take ``now`` of the position that ``step`` (this position's action or chance outcome)
        leads to: the one a copy took last with the same step from here, else a new one."""
        last = self.now.get("next")
        if last is None or last[0] != step:
            last = self.now["next"] = (step, {})
        self.now = last[1]

    def _learn(self, tables) -> None:
        """What the last move told every seat of the cards in a hand (``known``): a card the
        seat played, laid or exchanged from its hand is one fewer known copy (if any was known:
        it may have been an unknown copy); the turn-up it took, the dealt hand or the card it
        showed with carte blanche, the face-up last card of the talon it drew and, at the second
        stage, its table cards (``tables``, taken back, R2.19) are known. The engine keeps its
        own count of such cards (P_KNOWN), which lowers a count only when the hand holds fewer
        copies: a fact of the hidden cards, which no view here shows."""
        seat, action, kind = self.moves[-1]
        mine, shown = self.known[seat], self.shown[-1]
        spent = list(shown) if kind == L.D_MELD else []
        if kind in (L.D_LEAD, L.D_FOLLOW) and action < L.A_PLAY_TABLE:
            spent = [action]
        elif action == L.A_EXCHANGE:
            spent = [card_id(suit_of(self.turn_up()), SEVEN)]
            mine[self.turn_up()] += 1
        elif kind == L.D_CARTE and action == L.A_CARTE_BLANCHE:
            for c in shown:
                mine[c] = shown.count(c) if len(shown) > 1 else mine[c] + 1
        for c in spent:
            mine[c] = max(mine[c] - 1, 0)
        draws = self.drawn[-1]
        if draws and self.turn_up() >= 0 and self.st.G[L.G_TALON_POS] == self.st.G[L.G_TALON_LEN]:
            last_seat, last_card = draws[-1]
            self.known[last_seat][last_card] += 1
        if tables is not None:
            for s in (0, 1):
                for t in range(N_TYPES):
                    self.known[s][t] += int(tables[s, t])

    # --- reading ------------------------------------------------------------------------------

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """The cards seat ``seat`` holds now (not its table), ascending; while dealing, those
        dealt to it so far."""
        if self.st is None:
            return self.dealt_cards(seat)
        row = self.st.P[seat, L.P_HAND:L.P_HAND + N_TYPES]
        return tuple(t for t in range(N_TYPES) for _ in range(int(row[t])))

    def dealt_cards(self, seat: int) -> tuple[int, ...]:
        """The cards dealt to seat ``seat`` (so far), ascending."""
        cards = self.memo.get(("dealt", seat))
        if cards is None:
            cards = tuple(sorted(c for k, c in enumerate(self.deck[:2 * self.rules.hand_size])
                                 if self.packet_seat(k) == seat))
            if self.st is not None:
                self.memo["dealt", seat] = cards
        return cards

    def scores(self) -> list[int]:
        """Each seat's points so far (the engine's; at the end, the hand's score)."""
        return [0, 0] if self.st is None else [int(x) for x in api.scores(self.st)]

    def returns(self) -> list[float]:
        """Each seat's return once the hand is over (zeros before): Rubicon, the net game points
        of the game the hand is (R3.9: the winner's game score, + to him and - to the loser, 0 for
        a drawn game); the other games, the hand's points as the engine scores them (with
        ``margin``, the seat's points less its opponent's)."""
        if not self.is_over():
            return [0.0, 0.0]
        p = self.st.P
        if self.rules.is_rubicon:
            unit = int(self.arr[R_BRISQUE_POINTS])
            v = float(game_value(self.arr, int(p[0, L.P_SCORE]), int(p[1, L.P_SCORE]),
                                 unit * int(p[0, L.P_BRISQ]), unit * int(p[1, L.P_BRISQ])))
            return [v, -v]
        s = self.scores()
        return [float(s[0] - s[1]), float(s[1] - s[0])] if self.margin else [float(x) for x in s]

    def events(self) -> np.ndarray:
        """The engine's event log so far (rows of layout E_*; empty while dealing)."""
        return np.zeros((0, L.E_W), np.int32) if self.st is None else self.st.ev[:int(self.st.G[L.G_NEV])]

    def spec(self) -> HandSpec:
        """The deal as a replay file's HandSpec (hands by seat, turn-up, talon; no moves)."""
        h = self.rules.hand_size
        hands = [[], []]
        for k in range(2 * h):
            hands[self.packet_seat(k)].append(self.deck[k])
        up = self.turn_up()
        talon = self.deck[2 * h + 1:] if up >= 0 else self.deck[2 * h:]
        return HandSpec(self.rules, self.dealer, hands, up if up >= 0 else None, talon)

    def chance_history(self) -> list[int]:
        """The chance outcomes taken so far: the dealer, then the deck."""
        return ([self.dealer] if self.dealer >= 0 else []) + list(self.deck)

    # --- copies and pickles -------------------------------------------------------------------

    def copy(self) -> Hand:
        """An independent copy (the engine's state's arrays copied)."""
        new = Hand.__new__(Hand)
        new.rules, new.margin, new.arr, new.dealer = self.rules, self.margin, self.arr, self.dealer
        new.deck, new.left = list(self.deck), list(self.left)
        new.moves, new.shown, new.drawn = list(self.moves), list(self.shown), list(self.drawn)
        new.known = (list(self.known[0]), list(self.known[1]))
        new.memo = dict(self.memo)
        new.now = self.now
        new.player = self.player
        # every array copied whole: cheaper from Python than a new state and api.copy_into
        new.st = None if self.st is None else api.HandState(*(a.copy() for a in self.st))
        return new

    def __deepcopy__(self, memo) -> Hand:
        return self.copy()

    def __getstate__(self) -> dict:
        """The rules, the chance outcomes and the actions: the hand is played again to unpickle."""
        return {"rules": self.rules, "margin": self.margin, "chance": self.chance_history(),
                "actions": [a for _s, a, _k in self.moves]}

    def __setstate__(self, state: dict) -> None:
        replayed = Hand.replayed(state["rules"], state["chance"], state["actions"], state["margin"])
        self.__dict__.update(replayed.__dict__)

    @classmethod
    def replayed(cls, rules: RuleSet, chance, actions=(), margin: bool = False) -> Hand:
        """A hand with the chance outcomes ``chance`` taken, then ``actions`` applied."""
        hand = cls(rules, margin)
        for outcome in chance:
            hand.apply_chance(outcome)
        for a in actions:
            hand.apply(a)
        return hand
