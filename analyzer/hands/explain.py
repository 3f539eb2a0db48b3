"""A traced hand explained (``bezique trace --explain``): at each decision of the chosen seats,
the learned player's best actions with their values, and the action the seat's policy played.

The hand is played again decision by decision with the engine's api (:mod:`analyzer.engine.api`),
as ``engine.play.play_out`` plays it: the same deal, the same random streams, each seat's policy
asked where it has a choice. At a decision of a chosen seat the learned network of the rules'
game (the ``learned`` player's model) values every legal action from that seat's observation
(``policies.learned_net.best_action``; the teacher's choice with its bonus, as the learned player
weighs it). Its values are advantages: the expected change of the seat's result to the end of the
hand against the decision's average action, in points of the hand's margin (the seat's points less
its opponent's), in Rubicon in game points of the game's score (R3.9: the winner's score, + when
the seat wins, - when it loses; half of ``compare``'s net game points), as
``policies.network.value_unit`` scales them. The replay's event log must be the trace's, or the hand is
not explained (a policy that does not play the same hand again).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine import api
from ..engine import layout as L
from ..engine.hand import deal_into
from ..engine.policy_data import SW_SCRATCH, new_seat_data
from ..engine.variant_moves import set_game_totals
from ..errors import BeziqueError
from ..policies.exact_endgame import is_exact_decision
from ..policies.learned_net import F_Q, I_IDX, best_action
from ..policies.network import value_unit
from ..policies.spec import PolicyError, model_for, resolve_policy
from ..run.driver import SimulationError
from ..run.records import policy_arrays, sight_bits, user_policies
from .handlog import HandOutcome, logged_events

TOP = 3                  # the learned player's best actions shown at a decision
ORDINARY_UNIT = "points of the hand's margin (the seat's points less its opponent's)"
RUBICON_UNIT = "game points of the Rubicon game's score (R3.9: the winner's, + when the seat wins)"


class ExplainError(BeziqueError, ValueError):
    """A hand that cannot be explained: no learned model for its rules, a seat that is not at
    the table, a hand not played by policies or not played again the same."""


@dataclass
class Valued:
    """One legal action: its code, its value (points; Rubicon: net game points) and its rank
    among the decision's legal actions (1: the best)."""

    code: int
    value: float
    rank: int


@dataclass
class Decision:
    """One decision of an explained seat: the seat, its kind (layout.D_*), how many events the
    log holds before it (where its lines go in the trace), the legal actions valued best first,
    the action played, and whether the learned player hands it to the exact solver (a two-handed
    second-stage play, where the network's values are not what it plays by)."""

    seat: int
    kind: int
    event: int
    actions: list
    played: int
    exact: bool

    def best(self, k: int = TOP) -> list[Valued]:
        """The ``k`` best actions, best first."""
        return self.actions[:k]

    def played_action(self) -> Valued:
        """The action the seat's policy played, with its value and rank."""
        return next(v for v in self.actions if v.code == self.played)


@dataclass
class HandExplanation:
    """The decisions of the explained ``seats``, in the order played, and the unit of their
    values for the seat to act (ORDINARY_UNIT or RUBICON_UNIT)."""

    seats: tuple
    unit: str
    decisions: list = field(default_factory=list)


def learned_model(rules) -> np.ndarray:
    """The weights of the learned player's model of ``rules``' game (ordinary or Rubicon);
    ExplainError in one line for a rule set it has no model for or does not play."""
    try:
        learned = resolve_policy("learned")
    except PolicyError as e:          # no model installed at all
        raise ExplainError(f"there is no learned model to explain with: {e}") from None
    if rules.players > learned.max_players:
        reason = f"the learned player plays two-handed games only, and this one has {rules.players} players"
    elif model_for(rules) not in learned.games:
        reason = f"none is installed for the {model_for(rules)} game"
    else:
        reason = learned.refuses(rules) if learned.refuses else None
    if reason:
        raise ExplainError(f"there is no learned model to explain {rules.name} bezique with: {reason}")
    return learned.weights_for(rules.to_array())


def check_seats(rules, seats) -> tuple:
    """The seats to explain, sorted (None or empty: every seat); ExplainError for a seat not at
    the table."""
    if not seats:
        return tuple(range(rules.players))
    wrong = [s for s in seats if not 0 <= s < rules.players]
    if wrong:
        raise ExplainError(f"there is no seat {wrong[0]} to explain in a {rules.players}-handed game "
                           f"(seats 0 to {rules.players - 1})")
    return tuple(sorted(set(seats)))


def explain_hand(outcome: HandOutcome, seats=None) -> HandExplanation:
    """The learned player's values at each decision of ``seats`` (None: every seat) of the hand
    ``outcome`` (one played by policies: ``trace_hand``), with the action each seat's policy
    played; see the module docstring."""
    spec = outcome.spec
    weights = learned_model(spec.rules)
    seats = check_seats(spec.rules, seats)
    if not outcome.players:
        raise ExplainError("only a hand played by policies can be explained (a replayed hand names no policies)")
    arr = spec.rules.to_array()
    explained = HandExplanation(seats, RUBICON_UNIT if spec.rules.is_rubicon else ORDINARY_UNIT)
    st = _dealt(arr, outcome)
    _play(arr, st, outcome.players, seats, weights, explained.decisions)
    if logged_events(st) != outcome.events:
        raise ExplainError("the hand played again is not the hand traced (a policy that does not play "
                           "the same way from the same seed): it cannot be explained")
    return explained


def _dealt(arr, outcome: HandOutcome):
    """The outcome's hand dealt afresh, at its first decision, as ``engine.single.play_single``
    deals it: its cards, dealer and game totals, the policies' streams of its seed and hand."""
    spec = outcome.spec
    st = api.new_state(True)
    deal_into(arr, st, spec.deck(), spec.dealer)
    set_game_totals(arr, st, spec.totals())
    api.seed_policies(st.rngs, np.uint64(outcome.seed), outcome.hand)
    return st


def _play(arr, st, specs, seats, weights, out: list) -> None:
    """Play ``st`` to its end as play_out does, each seat by its PolicySpec of ``specs``,
    appending a :class:`Decision` to ``out`` at each choice of a seat of ``seats``; stop at an
    illegal action (the trace has said it)."""
    policies, params, data, sees = policy_arrays(list(specs), arr)
    for s, see in enumerate(sees[:int(st.G[L.G_NSEATS])]):      # what each seat sees, as play_out sets it
        st.G[L.G_FULL_OBS] |= sight_bits(int(see), s)
    net = new_seat_data(weights)           # the network's own working memory
    while not api.is_over(st):
        n, _plays = api.legal_actions(arr, st)
        if n == 1:
            api.apply(arr, st, st.legal[0])
            continue
        s = int(api.to_act(st))
        api.observe(arr, st, s)
        obs, legal, rng = st.obs[s].copy(), st.legal[:n].copy(), st.rngs[s].copy()
        try:
            a = int(policies[s](st.obs[s], st.legal, n, arr, params[s], st.rngs[s], data[s]))
        except Exception as e:          # raised in a user policy (built-in ones raise nothing)
            raise SimulationError(f"{user_policies(list(specs))} stopped the hand: {type(e).__name__}: {e}") from None
        if a not in legal:
            return
        if s in seats:
            out.append(Decision(s, int(api.decision(st)), int(st.G[L.G_NEV]),
                                _values(weights, obs, arr, legal, rng, net), a, bool(is_exact_decision(obs))))
        api.apply(arr, st, a)


def _values(weights, obs, arr, legal, rng, net) -> list[Valued]:
    """Every legal action valued by the network ``weights`` at the observation ``obs``, best
    first (equals in the order legal lists them), in points (Rubicon: net game points);
    ``rng`` is a copy of the seat's stream, which the teacher's choice may draw on."""
    n = len(legal)
    best_action(weights, obs, arr, legal, n, rng, net)
    # learned_net.action_q's slots, read here: a kernel may not hand Python a view of its scratch
    q = net.work[SW_SCRATCH:SW_SCRATCH + I_IDX].view(np.float32)[F_Q:F_Q + n] * value_unit(int(obs[L.OBS_PACKS]))
    order = sorted(range(n), key=lambda i: -q[i])
    return [Valued(int(legal[i]), float(q[i]), r + 1) for r, i in enumerate(order)]
