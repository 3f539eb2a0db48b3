"""The rulebook's "Hints and Cautions to Young Players" as one weighted policy.

Each hint H1..H8 is a component switched on by a weight in the policy's settings
(``params.hint[HINT_*]``, params.py names them; 0 = off, 1 = as described, other
values scale it), so a sweep over weights never recompiles. With every weight 0 the policy is a plain
baseline: it exchanges the seven, declares the first combination offered, leads
and follows with its lowest-ranking card.

- H1 declare the most valuable combination first, one per trick; win tricks when
  a combination is waiting to be declared; Rubicon: lay down claims.
- H2 make your aces and tens: win tricks holding brisques cheaply (small trumps,
  the ace of the suit led); never give your own brisques away.
- H3 keep aces while four aces is still likely.
- H4 count the cards: a combination made impossible by the cards played and the
  opponent's table no longer makes its cards worth keeping.
- H5 keep bézique and sequence cards while completing them is reasonably likely
  (double bézique above all).
- H6 spades or diamonds trumps: declare the royal marriage, sequence or fours
  before the bézique (and hold the bézique back while the talon is long).
- H7 Rubicon: play to reach 1000; when that is hopeless (behind by more than
  ``params.rubicon_gap`` and 1000 out of reach at ``params.rubicon_rate``
  points per card left to draw), declare nothing more and hide carte blanche.
- H8 second stage: lead sure winners (the highest card left in a suit, the lowest such
  first), and value winning a trick that holds a brisque.

The names (``hints``, ``hints:SETTINGS``) and each hint's words are in hints_names.py.

H9..H13 are not the rulebook's: they were read from the decisions where strong play parts from
the tuned hints (``bezique hints --patterns``; docs/policies.md gives each one's sentence and
worth). ``hints`` plays them off (weight 0); the tuned presets weigh them.

- H9 lead the cards on your table before those in your hand (first stage).
- H10 keep your kings, queens and knaves in hand; lead a plain ace or ten rather than one.
- H11 win the last trick before the talon runs out: it declares once more and leads the
  second stage (lead a trump no card can beat; follow to win).
- H12 keep your trump kings, queens and knaves: do not spend them to win a trick.
- H13 second stage: while the other hand holds trumps, lead a trump no card can beat before
  your other winners, and no winner of a suit he could trump.

The variants (docs/rules.md section 4): a claim of the game is always made when offered (V3:
the engine asks only when it is right); with three or four players a card's chance to be drawn
is the talon's share of one player in n; four-handed (V5) the partner (relative seat 2) is a
friend: his winning card is not overtaken and a brisque may go to his trick when it is sure
to be his (I play last), and a trick winner with nothing to declare now (none legal, or the
bézique held back by H6) lets his partner declare when the V5 option allows it; under panache
(V2) a four counts the suits of a rank one can hold, not the copies.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine import layout as L
from ..engine.policy_data import POLICY_SIG
from ..engine.codes import (
    ACE,
    BEZIQUE,
    COMBO_CARDS,
    DIAMONDS,
    FOUR_RANKS,
    JD,
    KING,
    KINGS,
    KNAVE,
    MARRIAGE,
    QS,
    QUEENS,
    SEVEN,
    SPADES,
    bezique_of,
    card_of,
    card_rank,
    card_suit,
    declared_combo,
    four_of,
    is_brisque,
    is_claim,
    is_declare,
    pack_count,
    packed_count,
    played_card,
    plays_from_table,
    rank_bits,
    sequence_bits,
)
from ..engine.carte import is_court
from ..engine.combos import combo_points
from ..engine.tricks import beats
from .builtin import partner_winning
from .params import (
    HINT_BEZIQUE_LAST,
    HINT_COUNT_CARDS,
    HINT_DECLARE_BEST,
    HINT_DRAW_TRUMPS,
    HINT_KEEP_ACES,
    HINT_KEEP_BEZIQUE,
    HINT_KEEP_COURT,
    HINT_KEEP_TRUMP_COURT,
    HINT_LEAD_WINNERS,
    HINT_MAKE_BRISQUES,
    HINT_PLAY_FOR_RUBICON,
    HINT_TABLE_FIRST,
    HINT_WIN_LAST_TRICK,
)
from .exact_endgame import exact_endgame_action, is_exact_decision
from ..rules import (
    R_BRISQUE_POINTS,
    R_BRISQUES_SCORED,
    R_PANACHE,
    R_POINTS,
    R_ROYAL_POINTS,
    R_RUBICON_LIMIT,
    R_TRUMP_SEQ_POINTS,
)

# What the hints weigh, before their weights scale them; a card's baseline keep value is its
# rank strength, 7 for an ace down to 0 for a seven (keep_value)
ACE_KEEP = 15.0          # H3: keeping an ace while four aces is likely
TRUMP_KEEP = 4.0         # H2: keeping a trump, which wins brisques later
DEAD_CARD_COST = 2.0     # H4: what a card loses when every combination it could join is dead
POINT_UNIT = 20.0        # H5: its bonuses in units of a common marriage's 20 points
BEZIQUE_DEFER = 1000.0   # H6: taken off the bézique's points, so that any other declaration is first
BRISQUE_SWING = 2        # H2: a brisque in the trick taken is one won and one the other does not win
PENDING_SHARE = 4.0      # H1: winning a trick is worth a pending declaration's points over this
TABLE_LEAD = 4.0         # H9: taken off the keep value of a card led from the table
COURT_KEEP = 4.0         # H10: added to the keep value of a court card in hand
BRISQUE_LEAD = 10.0      # H10: taken off the keep value of a plain ace or ten led from the hand
LAST_TRICK = 20.0        # H11: what winning the first stage's last trick is worth
TRUMP_COURT_KEEP = 4.0   # H12: added to the keep value of a trump king, queen or knave
TRUMP_DRAW = 10.0        # H13: taken off the keep value of a trump led to draw the others'


@njit(cache=True, _nrt=False, inline="always")
def _held(obs, t):
    return obs[L.OBS_HAND + t] + obs[L.OBS_TABLE + t]


@njit(cache=True, _nrt=False, inline="always")
def live_copies(obs, t, counting):
    """Copies of ``t`` I may still get: not held, not played, not on another player's
    table when ``counting`` (H4; four-handed the partner's table counts too: his cards are
    not mine to declare); only 'not held' otherwise."""
    n = obs[L.OBS_PACKS] - _held(obs, t)
    if counting:
        n -= obs[L.OBS_PLAYED + t]
        for r in range(1, 4):
            n -= obs[L.OBS_TABLE + 32 * r + t]
    return max(n, 0)


@njit(cache=True, _nrt=False, inline="always")
def bezique_chance(obs, k, counting, share):
    """Rough chance to complete a bézique of multiplicity ``k`` (k Q♠ and k J♦):
    ``share`` ** (cards missing), or 0 if a missing card has too few live copies
    (with counting, H4)."""
    missing = 0
    for t in (QS, JD):
        need = k - _held(obs, t)
        if need > 0:
            if live_copies(obs, t, counting) < need:
                return 0.0
            missing += need
    return share ** missing


@njit(cache=True, _nrt=False, inline="always")
def _scan(obs, counting):
    """Every card type t at once: copies held, and held or still to be had (as
    :func:`live_copies`), summed per rank (8 bits per rank); bit sets of the types held,
    of those held or still to be had, and of those in my hand; and the number of cards
    seen (held, played or on a table). Branch-free, so LLVM vectorizes the loop."""
    packs = np.int64(obs[L.OBS_PACKS])
    have = np.int64(0)
    total = np.int64(0)
    held = np.int64(0)
    obtainable = np.int64(0)
    in_hand = np.int64(0)
    seen = np.int64(0)
    for t in range(32):
        in_hand |= np.int64(obs[L.OBS_HAND + t] > 0) << t
        h = np.int64(obs[L.OBS_HAND + t] + obs[L.OBS_TABLE + t])
        gone = np.int64(obs[L.OBS_PLAYED + t] + obs[L.OBS_TABLE + 32 + t]
                        + obs[L.OBS_TABLE + 64 + t] + obs[L.OBS_TABLE + 96 + t])
        seen += h + gone
        n = max(packs - gone, h) if counting else max(packs, h)     # h + live_copies
        have += pack_count(h, card_rank(t))
        total += pack_count(n, card_rank(t))
        held |= np.int64(h > 0) << t
        obtainable |= np.int64(n > 0) << t
    return have, total, held, obtainable, in_hand, max(32 * packs - seen, 1)


@njit(cache=True, _nrt=False, inline="always")
def _suits_per_rank(bits):
    """For a bit set over card types: how many suits of each rank it holds, 8 bits per rank
    (the per-rank counts of :func:`_scan`, every copy after a suit's first ignored)."""
    counts = np.int64(0)
    for t in range(32):
        counts += pack_count((np.int64(bits) >> t) & 1, card_rank(t))
    return counts


@njit(cache=True, _nrt=False)
def outlook(obs, counting, panache=False):
    """What can still be made, from one pass over the cards (live copies counted as
    :func:`live_copies` does). Returns (``fours``: bit i when four of FOUR_RANKS[i] can
    still be completed (H3/H4); ``held``: bit t for a card type I hold; ``obtainable``:
    bit t for one I hold or may still get; ``in_hand``: bit t for one in my hand;
    ``have``: copies held of each rank, 8 bits per rank; the cards I have not seen, at
    least 1). With ``panache`` (V2, a four of four different suits) ``have`` and the
    fours count suits, not copies: a duplicate of a suit does not help."""
    if counting:            # two call sites, so each loop is compiled for one case
        have, total, held, obtainable, in_hand, unseen = _scan(obs, True)
    else:
        have, total, held, obtainable, in_hand, unseen = _scan(obs, False)
    if panache:
        have = _suits_per_rank(held)
        total = _suits_per_rank(obtainable)
    fours = 0
    for i in range(4):
        if packed_count(total, FOUR_RANKS[i]) >= 4 and packed_count(have, FOUR_RANKS[i]) >= 1:
            fours |= 1 << i
    return fours, held, obtainable, in_hand, have, unseen


@njit(cache=True, _nrt=False, inline="always")
def _dead_cards(fours, obtainable, seq_open, seq_cards):
    """H4: bit t for an ace, ten, king, queen or knave every combination of which has
    become impossible (four, marriage partner, bézique partner, trump sequence)."""
    alive = 0
    for i in range(4):
        if (fours >> i) & 1:
            alive |= rank_bits(FOUR_RANKS[i])
    alive |= (obtainable & QUEENS) >> 1            # a king whose queen can still be had
    alive |= (obtainable & KINGS) << 1             # a queen whose king can still be had
    if (obtainable >> JD) & 1:
        alive |= 1 << QS                           # Q♠ while a J♦ can be had
    if (obtainable >> QS) & 1:
        alive |= 1 << JD
    if seq_open:
        alive |= seq_cards
    return COMBO_CARDS & ~alive


@njit(cache=True, _nrt=False, inline="always")
def pending_declaration(rules, trump, held, in_hand, have):
    """Points of a combination I hold with a card still in my hand (H1's reason to win; a
    marriage counts as royal only once trumps are fixed); the bit sets and counts of
    :func:`outlook`."""
    best = 0
    marriages = held & (held >> 1) & (in_hand | (in_hand >> 1)) & KINGS   # bit of the K
    if marriages:
        royal = trump >= 0 and (marriages >> card_of(trump, KING)) & 1
        best = rules[R_ROYAL_POINTS] if royal else rules[R_POINTS + MARRIAGE]
    if (held >> QS) & (held >> JD) & ((in_hand >> QS) | (in_hand >> JD)) & 1:
        best = rules[R_POINTS + BEZIQUE]
    for i in range(4):
        rank = FOUR_RANKS[i]
        if packed_count(have, rank) >= 4 and in_hand & rank_bits(rank):
            best = max(best, rules[R_POINTS + four_of(i)])
    return best


class Bonuses(NamedTuple):
    """What the hints add to a card's keep value at one decision (:func:`hint_bonuses`)."""

    ace: float          # H3: an ace, while four aces is likely
    bez: float          # H5: the Q♠ or J♦, by the chance of bézique and double bézique
    seq: float          # H5: a card of the trump sequence, by the chance of completing it
    dead: int           # H4: bit t set when every combination card type t could join is dead
    pending: int        # H1: the points of the best declaration a trick won would allow


@njit(cache=True, _nrt=False)
def hint_bonuses(obs, rules, params):
    """The :class:`Bonuses` of one decision (H1, H3, H4, H5); all 0 in the second stage."""
    counting = params.hint[HINT_COUNT_CARDS] > 0
    ace = 0.0
    bez = 0.0
    seq = 0.0
    if obs[L.OBS_STAGE] != 1:
        return Bonuses(ace, bez, seq, 0, 0)
    trump = obs[L.OBS_TRUMP]
    fours, held, obtainable, in_hand, have, unseen = outlook(obs, counting, rules[R_PANACHE] != 0)
    seats = max(obs[L.OBS_N_SEATS], 2)                # (0 in an observation built by hand: 2)
    share = min(1.0, obs[L.OBS_TALON_LEFT] / (seats * unseen))    # of the unseen cards, my draws
    aces = packed_count(have, ACE)
    seq_cards = sequence_bits(trump) if trump >= 0 else 0
    seq_open = trump >= 0 and obtainable & seq_cards == seq_cards
    dead = _dead_cards(fours, obtainable, seq_open, seq_cards) if counting else 0
    if params.hint[HINT_KEEP_ACES] > 0 and aces >= 2 and fours & 1:
        ace = ACE_KEEP * params.hint[HINT_KEEP_ACES]
    keep_bezique = params.hint[HINT_KEEP_BEZIQUE]
    if keep_bezique > 0:
        bez = keep_bezique * (float(rules[R_POINTS + BEZIQUE]) * bezique_chance(obs, 1, counting, share)
                              + float(rules[R_POINTS + bezique_of(2)]) * bezique_chance(obs, 2, counting, share)
                              ) / POINT_UNIT
        if seq_open:                               # always open without counting
            missing = 0
            for r in range(KNAVE + 1):             # A, 10, K, Q, J
                if (held >> card_of(trump, r)) & 1 == 0:
                    missing += 1
            seq = keep_bezique * float(rules[R_TRUMP_SEQ_POINTS]) * share ** missing / POINT_UNIT
    return Bonuses(ace, bez, seq, dead, pending_declaration(rules, trump, held, in_hand, have))


@njit(cache=True, _nrt=False, inline="always")
def keep_value(obs, rules, params, t, bonus):
    """What keeping card ``t`` is worth to me (play heuristics), with the decision's
    :class:`Bonuses`."""
    trump = obs[L.OBS_TRUMP]
    v = float(SEVEN) - card_rank(t)                # baseline: rank strength, ace 7 .. seven 0
    if is_brisque(t):
        v += float(rules[R_BRISQUE_POINTS]) * params.hint[HINT_MAKE_BRISQUES]    # H2: a brisque given away costs 20
    if card_suit(t) == trump:
        v += TRUMP_KEEP * params.hint[HINT_MAKE_BRISQUES]               # trumps win brisques later
    if obs[L.OBS_STAGE] != 1:
        return v
    if card_rank(t) == ACE:
        v += bonus.ace
    if t == QS or t == JD:
        v += bonus.bez
    if card_suit(t) == trump and card_rank(t) <= KNAVE:
        v += bonus.seq
    if params.hint[HINT_COUNT_CARDS] > 0 and (bonus.dead >> t) & 1:
        v -= DEAD_CARD_COST * params.hint[HINT_COUNT_CARDS]           # H4: every combination it could join is dead
    if card_suit(t) == trump and is_court(t):
        v += TRUMP_COURT_KEEP * params.hint[HINT_KEEP_TRUMP_COURT]
    return v


@njit(cache=True, _nrt=False, inline="always")
def play_value(obs, rules, params, a, bonus):
    """What keeping the card of play action ``a`` is worth: :func:`keep_value`, and in the
    first stage a court card in hand kept (H10)."""
    card = played_card(a)
    v = keep_value(obs, rules, params, card, bonus)
    if obs[L.OBS_STAGE] == 1 and not plays_from_table(a) and is_court(card):
        v += COURT_KEEP * params.hint[HINT_KEEP_COURT]
    return v


@njit(cache=True, _nrt=False, inline="always")
def last_trick(obs):
    """Whether this is the first stage's last trick: its winner draws the talon's last card,
    may declare once more and leads the second stage (H11)."""
    return obs[L.OBS_STAGE] == 1 and 0 < obs[L.OBS_TALON_LEFT] <= max(obs[L.OBS_N_SEATS], 2)


@njit(cache=True, _nrt=False)
def _sure_winner(obs, card):
    """No higher card of its suit is left out of my hand (played or on my side)."""
    for t in range(card_of(card_suit(card), ACE), card):
        if obs[L.OBS_PACKS] - obs[L.OBS_PLAYED + t] - obs[L.OBS_HAND + t] > 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def out_against(obs, suit):
    """Cards of ``suit`` I have not seen: in a two-handed second stage, the other hand's."""
    n = 0
    for t in range(card_of(suit, ACE), card_of(suit, SEVEN) + 1):
        n += max(obs[L.OBS_PACKS] - obs[L.OBS_HAND + t] - obs[L.OBS_PLAYED + t], 0)
    return n


@njit(cache=True, _nrt=False)
def lead_value(obs, rules, params, a, bonus, drawing):
    """What leading play action ``a`` costs (the lowest is led): :func:`play_value`, less the
    reasons to lead a card: in the first stage H9 (a table card), H10 (a plain ace or ten from
    the hand) and H11 (a trump no card can beat at the last trick); in the second, when
    ``drawing`` the other's trumps (H13), a trump."""
    v = play_value(obs, rules, params, a, bonus)
    card = played_card(a)
    trump = obs[L.OBS_TRUMP]
    if obs[L.OBS_STAGE] != 1:
        if drawing and card_suit(card) == trump:
            v -= TRUMP_DRAW * params.hint[HINT_DRAW_TRUMPS]
        return v
    if plays_from_table(a):
        v -= TABLE_LEAD * params.hint[HINT_TABLE_FIRST]
    elif is_brisque(card) and card_suit(card) != trump:
        v -= BRISQUE_LEAD * params.hint[HINT_KEEP_COURT]
    last = params.hint[HINT_WIN_LAST_TRICK]
    if last > 0 and last_trick(obs) and card_suit(card) == trump and _sure_winner(obs, card):
        v -= LAST_TRICK * last
    return v


@njit(cache=True, _nrt=False)
def _rubicon_hopeless(obs, rules, params):
    """H7: Rubicon (two-handed only, so relative seat 1 is the opponent), and the rubicon
    limit is out of reach while the opponent is far ahead."""
    if rules[R_BRISQUES_SCORED] or params.hint[HINT_PLAY_FOR_RUBICON] <= 0:
        return False
    mine = obs[L.OBS_SCORE]
    other = obs[L.OBS_SCORE + 1]
    reach = mine + params.rubicon_rate / params.hint[HINT_PLAY_FOR_RUBICON] * obs[L.OBS_TALON_LEFT]
    return reach < rules[R_RUBICON_LIMIT] and other - mine > params.rubicon_gap


@njit(cache=True, _nrt=False)
def _meld_choice(obs, legal, n_legal, rules, params):
    """The declaration window (H1, H6, H7); when it would declare nothing now and the V5
    option offers it, the window goes to the partner (A_PARTNER), who may have something."""
    choice = _own_meld_choice(obs, legal, n_legal, rules, params)
    if choice == L.A_STOP:
        for i in range(n_legal):
            if legal[i] == L.A_PARTNER:
                return L.A_PARTNER
    return choice


@njit(cache=True, _nrt=False)
def _own_meld_choice(obs, legal, n_legal, rules, params):
    """The window for the seat itself: exchange, declare (H1, H6) or stop (H6, H7)."""
    if _rubicon_hopeless(obs, rules, params):
        return L.A_STOP                                 # H7: every point helps the winner
    trump = obs[L.OBS_TRUMP]
    first = L.A_STOP
    best = L.A_STOP
    best_v = -1.0
    bezique = -1
    for i in range(n_legal):
        a = legal[i]
        if a == L.A_EXCHANGE:
            return a
        if is_declare(a):
            c = declared_combo(a)
            if first == L.A_STOP:
                first = a
            v = float(combo_points(rules, trump, c))
            if c == BEZIQUE and params.hint[HINT_BEZIQUE_LAST] > 0 and (trump == SPADES or trump == DIAMONDS):
                bezique = a
                v -= BEZIQUE_DEFER                    # H6: everything else first
            if v > best_v:
                best_v = v
                best = a
        elif is_claim(a) and params.hint[HINT_DECLARE_BEST] > 0 and best == L.A_STOP:
            best = a                                  # H1 (Rubicon): "and ... to score"
    if params.hint[HINT_DECLARE_BEST] <= 0:
        return first
    if best == bezique and obs[L.OBS_TALON_LEFT] > params.defer_talon:
        return L.A_STOP                                 # H6: hold the bézique back for now
    return best


@njit(cache=True, _nrt=False)
def _follow_partner(obs, legal, n_legal, rules, params, bonus):
    """Following when my partner's card wins the trick (V5): the trick is ours already, so
    winning it gains nothing (H1's and H2's reasons to win are dropped) and the card I keep
    least is played. A brisque counts as given away (H2) unless I play last, when it goes to
    my partner's trick for sure. (In the second stage the legal plays may force a win.)"""
    brisque = float(rules[R_BRISQUE_POINTS]) * params.hint[HINT_MAKE_BRISQUES]
    last = obs[L.OBS_TRICK_POS] == obs[L.OBS_N_SEATS] - 1
    best = legal[0]
    best_v = -1e9
    for i in range(n_legal):
        card = played_card(legal[i])
        v = -keep_value(obs, rules, params, card, bonus)
        if is_brisque(card):
            v += brisque if last else -brisque
        if v > best_v:
            best_v = v
            best = legal[i]
    return best


@njit(cache=True, _nrt=False)
def _lead(obs, legal, n_legal, rules, params, bonus):
    """Leading: the card of lowest :func:`lead_value`; in the second stage a sure winner first
    (H8: the lowest plain one; H13, while the other holds trumps: a trump no card can beat,
    and no plain winner of a suit he could trump)."""
    stage = obs[L.OBS_STAGE]
    trump = obs[L.OBS_TRUMP]
    drawing = stage == 2 and params.hint[HINT_DRAW_TRUMPS] > 0 and trump >= 0 and out_against(obs, trump) > 0
    best = legal[0]
    best_v = 1e9
    sure = -1
    sure_v = -1e9
    sure_trump = -1
    for i in range(n_legal):
        card = played_card(legal[i])
        v = lead_value(obs, rules, params, legal[i], bonus, drawing)
        if v < best_v:
            best_v = v
            best = legal[i]
        if stage == 2 and params.hint[HINT_LEAD_WINNERS] > 0 and _sure_winner(obs, card):
            if card_suit(card) == trump:
                if drawing:
                    sure_trump = legal[i]
            elif card_rank(card) > sure_v and not (drawing and out_against(obs, card_suit(card)) == 0):
                sure = legal[i]
                sure_v = card_rank(card)
    if sure_trump >= 0:
        return sure_trump                              # H13: draw his trumps with a sure one
    if sure >= 0:
        return sure                                    # H8: cash a sure winner, the lowest one
    return best


@njit(POLICY_SIG, cache=True, _nrt=False)
def hints_policy(obs, legal, n_legal, rules, params, rng, data):
    """The hints policy (module docstring); weights in ``params.hint``; with ``params.endgame``
    its two-handed second stage is exact (policies.exact_endgame)."""
    if params.endgame and is_exact_decision(obs):
        return exact_endgame_action(rules, obs, legal, n_legal, data)
    decision = obs[L.OBS_DECISION]
    if decision == L.D_CLAIM:
        return L.A_CLAIM_GAME                            # V3: asked only when the claim is right
    if decision == L.D_CARTE:
        return L.A_STOP if _rubicon_hopeless(obs, rules, params) else L.A_CARTE_BLANCHE
    if decision == L.D_MELD:
        return _meld_choice(obs, legal, n_legal, rules, params)
    bonus = hint_bonuses(obs, rules, params)
    stage = obs[L.OBS_STAGE]
    trump = obs[L.OBS_TRUMP]
    lead = obs[L.OBS_LEAD_CARD]
    if lead < 0:
        return _lead(obs, legal, n_legal, rules, params, bonus)
    if partner_winning(obs):
        return _follow_partner(obs, legal, n_legal, rules, params, bonus)
    # following: compare winning cheaply with giving the cheapest card
    top = obs[L.OBS_BEST_CARD]
    brisque = float(rules[R_BRISQUE_POINTS])
    trick_brisques = 1 if is_brisque(top) else 0
    gain = brisque * params.hint[HINT_MAKE_BRISQUES] * trick_brisques * BRISQUE_SWING   # taking it swings 20 a brisque
    if stage == 1 and params.hint[HINT_DECLARE_BEST] > 0:
        gain += params.hint[HINT_DECLARE_BEST] * bonus.pending / PENDING_SHARE
    if stage == 2 and params.hint[HINT_LEAD_WINNERS] > 0:
        gain += brisque * params.hint[HINT_LEAD_WINNERS] * trick_brisques
    if params.hint[HINT_WIN_LAST_TRICK] > 0 and last_trick(obs):
        gain += LAST_TRICK * params.hint[HINT_WIN_LAST_TRICK]
    best = legal[0]
    best_v = -1e9
    for i in range(n_legal):
        card = played_card(legal[i])
        v = -play_value(obs, rules, params, legal[i], bonus)
        if beats(card, top, trump):
            v += gain + (brisque * params.hint[HINT_MAKE_BRISQUES] if is_brisque(card) else 0.0)
        elif is_brisque(card):
            v -= brisque * params.hint[HINT_MAKE_BRISQUES]                    # H2: never give a brisque away
        if v > best_v:
            best_v = v
            best = legal[i]
    return best
