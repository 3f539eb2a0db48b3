"""Bézique as a PettingZoo AEC environment, after PettingZoo's classic environments:
``env(variant="rubicon")`` (wrapped: an illegal action ends the hand with -1 to its seat, an
action out of range is refused, the AEC order is enforced) or ``raw_env``; agents ``player_0`` and
``player_1`` (seats 0 and 1).

Each agent observes a dict: ``observation``, the seat's observation (views: the engine's, float32,
as the OpenSpiel game's observation tensor) and ``action_mask`` (int8, one per engine action code:
1 where legal, all 0 when another agent acts). Actions are the engine's action codes
(``analyzer.actions.action_str`` names them). The reward comes at the end of the hand: the OpenSpiel
game's return (core.Hand.returns: the hand's points, or with ``margin`` the margin; Rubicon, net game
points). ``reset(seed=s)`` deals hand 0 of a run seeded ``s`` as the engine deals it, and each later
``reset()`` the run's next hand (the deal alternates); ``reset(options={"deal": outcomes})`` deals
the given chance outcomes (the dealer, then the deck in the engine's deal order). ``render`` is the
hand's trace so far, as ``bezique trace`` writes it (``render_mode`` "ansi" returns it, "human"
prints its new lines after each step).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import layout as L
from ..hands.handlog import HandOutcome, logged_events
from ..hands.log_text import format_log
from .core import N_ACTIONS, Hand, check_margin, engine_deal, field_rules
from .views import OBS_WIDTH, observation_vector

AGENTS = ("player_0", "player_1")
OBSERVATION_HIGH = 2.0 ** 24        # above every count, score and bit set the observation holds


def env(**kwargs):
    """The environment with PettingZoo's classic wrappers (see the module docstring)."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):
    """Two-handed bézique, one hand a game (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "bezique_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: str = "ordinary", margin: bool = False, render_mode: str | None = None):
        EzPickle.__init__(self, variant, margin, render_mode)
        super().__init__()
        self.rules = field_rules(variant)
        self.margin = check_margin(self.rules, margin)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=-1.0, high=OBSERVATION_HIGH, shape=(OBS_WIDTH,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8)}) for a in AGENTS}
        self.hand: Hand | None = None
        self.seed_now, self.next_hand, self.printed = None, 0, 0

    def observation_space(self, agent):
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """Discrete(112): the engine's action codes."""
        return self.action_spaces[agent]

    def observe(self, agent):
        """The seat's observation and its action mask."""
        return observation_with_mask(self.hand, AGENTS.index(agent))

    def reset(self, seed=None, options=None):
        """Deal a hand (see the module docstring) and select the agent of its first decision."""
        if seed is not None:
            self.seed_now, self.next_hand = int(seed), 0
        elif self.seed_now is None:
            self.seed_now = int(np.random.SeedSequence().entropy % 2**63)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = engine_deal(self.rules, self.seed_now, self.next_hand)
            self.next_hand += 1
        self.hand = Hand.replayed(self.rules, deal, margin=self.margin)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.hand.current_player()]
        self.printed = 0

    def step(self, action):
        """The selected agent does ``action``; at the end of the hand both get their returns."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.hand.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.hand.is_over():
            self.rewards = dict(zip(AGENTS, self.hand.returns()))
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[self.hand.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The hand's trace so far as text: returned ("ansi"), or its lines not yet printed
        printed ("human", after each step)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = trace_text(self.hand)
        if self.render_mode == "ansi":
            return text
        lines = text.splitlines()
        body = lines if self.hand.is_over() else lines[:-1]      # the last line: the hand's status
        if body[self.printed:]:
            print("\n".join(body[self.printed:]))
        self.printed = len(body)
        return None

    def close(self):
        """Nothing to release."""


def observation_with_mask(hand: Hand, seat: int) -> dict:
    """Seat ``seat``'s observation (float32) and its action mask (1 where legal; all 0 when
    another seat acts), as the environments' observation spaces hold them."""
    observation = np.zeros(OBS_WIDTH, np.float32)
    observation_vector(hand, seat, observation)
    mask = np.zeros(N_ACTIONS, np.int8)
    if hand.current_player() == seat:
        mask[hand.legal_actions()] = 1
    return {"observation": observation, "action_mask": mask}


def trace_text(hand: Hand) -> str:
    """The hand so far as ``bezique trace`` writes a hand (analyzer.hands.log_text)."""
    status = L.ST_DONE if hand.is_over() else L.ST_INCOMPLETE
    outcome = HandOutcome(hand.spec(), status, logged_events(hand.st), hand.scores(), trump=int(hand.st.G[L.G_TRUMP]))
    return format_log(outcome)
