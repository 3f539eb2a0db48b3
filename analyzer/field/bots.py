"""The project's players as OpenSpiel bots: ``learned``, ``expert``, ``hints:tuned-GAME``, ``greedy``
(any policy name the command line takes), so that anyone's algorithm can play them.

A bot decides as the engine's own loop does (engine/play.py ``play_out``): where the seat has one
legal action it takes it, else the policy function is asked at the seat's observation, with what
the policy may see (its public record for a search player, never the hidden cards) and its own
random stream. The stream is the one ``simulate`` gives the seat in hand ``hand`` of a run seeded
``seed``, so two bots on the engine's deal of that hand (``openspiel_game.deal_outcomes``) play the
hand ``simulate`` plays, move for move.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from ..engine import api
from ..engine import layout as L
from ..policies.spec import resolve_policy
from ..run.records import policy_arrays, sight_bits
from .core import FieldError, engine_deal, packed


class ProjectBot(pyspiel.Bot):
    """Seat ``player_id`` played by the project's policy ``policy`` (a name as the command line
    takes it, e.g. ``learned`` or ``hints:tuned-rubicon``) in ``game`` (an OpenSpiel ``bezique``
    game), with the random stream of hand ``hand`` of a run seeded ``seed``."""

    def __init__(self, game, player_id: int, policy: str, seed: int = 0, hand: int = 0):
        pyspiel.Bot.__init__(self)
        if player_id not in (0, 1):
            raise FieldError(f"a bézique bot sits at seat 0 or 1, not {player_id}")
        self.player_id, self.name = player_id, policy
        self.arr = packed(game.rules)
        self.spec = resolve_policy(policy)
        self.policies, self.params, self.data, sees = policy_arrays([self.spec], self.arr)
        self.full_obs = sight_bits(int(sees[player_id]), player_id)
        self.scratch = api.new_state(True)            # with the event log: a search reads its public record from it
        self.streams = self.scratch.rngs.copy()
        api.seed_policies(self.streams, np.uint64(seed), hand)

    def step(self, state) -> int:
        """The policy's action at ``state`` (the seat of this bot must be to act)."""
        return self.action_at(state.hand)

    def action_at(self, hand) -> int:
        """The policy's action in ``hand`` (a :class:`~analyzer.field.core.Hand`, the state's own)."""
        if hand.current_player() != self.player_id:
            raise FieldError(f"seat {self.player_id}'s bot was asked to act where "
                             f"{'no seat' if hand.current_player() < 0 else f'seat {hand.current_player()}'} acts")
        st, s = self.scratch, self.player_id
        api.copy_into(st, hand.st)
        st.G[L.G_FULL_OBS] = self.full_obs
        n, _plays = api.legal_actions(self.arr, st)
        if n == 1:
            return int(st.legal[0])
        api.observe(self.arr, st, s)
        return int(self.policies[s](st.obs[s], st.legal, n, self.arr, self.params[s], self.streams[s], self.data[s]))

    def restart_at(self, state) -> None:
        """Nothing to forget: the bot decides from the position alone."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to note: the bot reads every move from the state."""

    def provides_policy(self) -> bool:
        """A bot of the project's players gives an action, not a distribution."""
        return False


def project_bots(game, policies, seed: int = 0, hand: int = 0) -> list[ProjectBot]:
    """A bot per seat: seat ``s`` played by ``policies[s]``, with the streams of hand ``hand`` of a
    run seeded ``seed``."""
    return [ProjectBot(game, s, name, seed, hand) for s, name in enumerate(policies)]


def play_deal(game, seed: int, hand: int, bots) -> list[float]:
    """Play the engine's deal of hand ``hand`` of a run seeded ``seed`` with ``bots`` (one per
    seat, any pyspiel bots); each seat's return."""
    state = game.new_initial_state()
    for outcome in engine_deal(game.rules, seed, hand):
        state.apply_action(outcome)
    while not state.is_terminal():
        state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())
