"""The built-in policies: ``random`` and ``greedy``.

Both play every variant of docs/rules.md section 4: ``random`` is uniform over whatever is
legal (a claim of the game, V3, and the pass to the partner, V5, included); ``greedy`` always
claims the game when asked (V3: it is only asked when the claim is right), passes the
declaration window to its partner when it has nothing to declare itself (V5 option), never
overtakes its partner's winning card (V5: the partner is relative seat 2), and under panache
(V2) counts the suits held of a rank, not the copies, toward a four.
"""
from numba import njit

from ..engine import layout as L
from ..engine.policy_data import POLICY_SIG
from ..engine.codes import (
    ACE,
    FOUR_RANKS,
    JD,
    KINGS,
    QS,
    QUEENS,
    SEVEN,
    card_of,
    card_rank,
    card_suit,
    claimed_combo,
    declared_combo,
    is_brisque,
    is_claim,
    is_declare,
    played_card,
)
from ..engine.combos import combo_points
from ..engine.rng import below
from ..engine.tricks import beats
from ..rules import R_PANACHE
from .spec import PolicySpec, register


@njit(POLICY_SIG, cache=True, _nrt=False)
def random_policy(obs, legal, n_legal, rules, params, rng, data):
    """Uniform among the legal actions at every decision."""
    return legal[below(rng, n_legal)]


@njit(cache=True, _nrt=False, inline="always")
def partner_winning(obs):
    """Whether the card winning the trick so far is my partner's (four-handed, V5: the
    partner sits opposite, relative seat 2)."""
    return obs[L.OBS_N_SEATS] == 4 and obs[L.OBS_BEST_REL] == 2


@njit(cache=True, _nrt=False, inline="always")
def court_holdings(obs, panache):
    """(``pairs``: bit r when two or more cards of rank r are held (hand + table), r in A,
    K, Q, J -- with ``panache`` (V2) two or more different suits, as a duplicate does not
    help a four; ``married``: bit t for a king or queen t whose marriage partner is held)."""
    pairs = 0
    held = 0
    for rank in FOUR_RANKS:
        n = 0
        for suit in range(4):
            t = card_of(suit, rank)
            copies = obs[L.OBS_HAND + t] + obs[L.OBS_TABLE + t]
            n += min(copies, 1) if panache else copies
            if copies > 0:
                held |= 1 << t
        if n >= 2:
            pairs |= 1 << rank
    married = ((held & QUEENS) >> 1) | ((held & KINGS) << 1)   # K <-> Q of a suit (adjacent ranks)
    return pairs, married


@njit(cache=True, _nrt=False, inline="always")
def keep_value(card, stage, trump, pairs, married):
    """How much the holder loses by giving up ``card`` (greedy's play heuristic).

    Rank strength, +10 for a brisque, +8 for a trump; in the first stage +5
    for Q♠/J♦ (bézique), +4 for a K or Q whose marriage partner is held, +3
    for a K/Q/J/A of which two or more are held (fours), and -6 for the
    seven of trumps, which scores 10 when played in the first stage.
    ``pairs`` and ``married`` come from :func:`court_holdings` (once per decision).
    """
    rank = card_rank(card)
    suit = card_suit(card)
    v = SEVEN - rank
    if is_brisque(card):
        v += 10
    if suit == trump:
        v += 8
    if stage == 1:
        if card == QS or card == JD:
            v += 5
        v += 4 * ((married >> card) & 1) + 3 * ((pairs >> rank) & 1)
        if suit == trump and rank == SEVEN:
            v -= 6
    return v


@njit(cache=True, _nrt=False)
def _greedy_meld(obs, legal, n_legal, rules):
    """Greedy's declaration window: the exchange first, then the best combination (a
    declaration counted double against a Rubicon claim); with none, the pass to the partner
    when it is offered (V5 option), else A_STOP."""
    best = L.A_STOP
    best_pts = -1
    partner = False
    for i in range(n_legal):
        a = legal[i]
        if a == L.A_EXCHANGE:
            return a
        if a == L.A_PARTNER:
            partner = True
        elif is_declare(a) or is_claim(a):
            c = declared_combo(a) if a < L.A_CLAIM else claimed_combo(a)
            # declaring now beats claiming for later
            pts = combo_points(rules, obs[L.OBS_TRUMP], c) * (2 if a < L.A_CLAIM else 1)
            if pts > best_pts:
                best_pts = pts
                best = a
    return L.A_PARTNER if best == L.A_STOP and partner else best


@njit(POLICY_SIG, cache=True, _nrt=False)
def greedy_policy(obs, legal, n_legal, rules, params, rng, data):
    """Greedy: score now, take brisques cheaply.

    Declaration window: exchange the seven of trumps first (the card taken may
    complete a combination), then declare the highest-scoring legal
    combination; in Rubicon then lay down every claim it can (highest first),
    and always show carte blanche. With nothing to declare, a four-handed
    trick winner lets his partner declare (V5 option). Claim the game
    whenever asked (V3). Leading: the card of least :func:`keep_value`,
    except that in the second stage a plain ace is led first. Following: if
    the trick holds a brisque (or the cheapest winning card costs little),
    win it with the cheapest card that wins -- unless the partner's card
    already wins it (V5); otherwise play the cheapest card.
    Ties go to the first legal action, so the policy is deterministic.
    """
    decision = obs[L.OBS_DECISION]
    if decision == L.D_CARTE:
        return L.A_CARTE_BLANCHE
    if decision == L.D_CLAIM:
        return L.A_CLAIM_GAME
    if decision == L.D_MELD:
        return _greedy_meld(obs, legal, n_legal, rules)
    stage = obs[L.OBS_STAGE]
    trump = obs[L.OBS_TRUMP]
    lead = obs[L.OBS_LEAD_CARD]
    if lead < 0 and stage == 2:
        for i in range(n_legal):
            card = played_card(legal[i])
            if card_rank(card) == ACE and card_suit(card) != trump:
                return legal[i]
    pairs, married = court_holdings(obs, rules[R_PANACHE]) if stage == 1 else (0, 0)
    cheapest = legal[0]
    cheapest_v = 1000
    if lead < 0:
        for i in range(n_legal):
            v = keep_value(played_card(legal[i]), stage, trump, pairs, married)
            if v < cheapest_v:
                cheapest_v = v
                cheapest = legal[i]
        return cheapest
    top = obs[L.OBS_BEST_CARD]
    win = -1
    win_v = 1000
    for i in range(n_legal):
        card = played_card(legal[i])
        v = keep_value(card, stage, trump, pairs, married)
        if v < cheapest_v:
            cheapest_v = v
            cheapest = legal[i]
        if v < win_v and beats(card, top, trump):
            win_v = v
            win = legal[i]
    if win >= 0 and not partner_winning(obs) and (is_brisque(top) or is_brisque(lead)
                                                  or win_v <= cheapest_v + 2):
        return win
    return cheapest


register("random", lambda name: PolicySpec("random", random_policy, description="uniform among the legal actions"),
         lambda: [f"{'random':<10} uniform among the legal actions"], settings=False)
GREEDY_TEXT = "declares the best combination, exchanges the seven, takes brisques cheaply"
register("greedy", lambda name: PolicySpec("greedy", greedy_policy, description=GREEDY_TEXT),
         lambda: [f"{'greedy':<10} {GREEDY_TEXT}"], settings=False)
