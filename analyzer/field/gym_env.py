"""Bézique as a Gymnasium single-agent environment: one seat of a two-handed hand, the other
played by one of the project's players (``bots.ProjectBot``: ``learned``, ``hints:tuned-GAME``,
``greedy`` …). ``gymnasium.make`` is not needed: ``BeziqueEnv(variant="ordinary",
opponent="learned", seat=0)``.

The observation is the PettingZoo environment's (a dict: the seat's ``observation``, float32, and
its ``action_mask`` over the 112 engine action codes); the action is an engine action code. The
reward comes at the end of the hand: the OpenSpiel game's return to the seat — the margin (its
points less the opponent's) in the ordinary games by default (``margin=False``: its points),
Rubicon's net game points. An action that is not legal ends the hand with the lowest return the
game has (``core.utility_range``) and ``info["illegal"]``: a seat can never gain by it.
``reset(seed=s)`` deals hand 0 of a run seeded ``s`` as the engine deals it (the opponent with its
stream of that hand), each later ``reset()`` the run's next hand; ``render()`` is the trace so far.
"""
from __future__ import annotations

import gymnasium

from .bots import ProjectBot
from .core import N_ACTIONS, FieldError, Hand, engine_deal, field_rules, utility_range
from .pettingzoo_env import observation_with_mask, raw_env, trace_text


class BeziqueEnv(gymnasium.Env):
    """One seat of a bézique hand against a project player (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: str = "ordinary", opponent: str = "learned", seat: int = 0,
                 margin: bool | None = None, render_mode: str | None = None):
        rules = field_rules(variant)
        if seat not in (0, 1):
            raise FieldError(f"the agent's seat is 0 or 1, not {seat}")
        self.rules, self.seat, self.opponent, self.render_mode = rules, seat, opponent, render_mode
        self.margin = (not rules.is_rubicon) if margin is None else margin
        spaces = raw_env(variant=variant, margin=self.margin).observation_space("player_0")
        self.observation_space = spaces
        self.action_space = gymnasium.spaces.Discrete(N_ACTIONS)
        self.worst = utility_range(rules, self.margin)[0]
        self._game = _GameRules(rules)
        self.hand: Hand | None = None
        self.bot: ProjectBot | None = None
        self.seed_now, self.next_hand = None, 0

    def reset(self, *, seed=None, options=None):
        """Deal the next hand (see the module docstring); the opponent plays until the agent acts."""
        super().reset(seed=seed)
        if seed is not None:
            self.seed_now, self.next_hand = int(seed), 0
        elif self.seed_now is None:
            self.seed_now = int(self.np_random.integers(2**62))
        hand = self.next_hand
        self.next_hand += 1
        self.hand = Hand.replayed(self.rules, engine_deal(self.rules, self.seed_now, hand), margin=self.margin)
        self.bot = ProjectBot(self._game, 1 - self.seat, self.opponent, self.seed_now, hand)
        self._opponent_plays()
        return self._observation(), {}

    def step(self, action):
        """The agent does ``action``; the opponent answers until the agent acts again or the hand ends."""
        if self.hand is None or self.hand.is_over():
            raise FieldError("the hand is over: reset() deals the next")
        if int(action) not in self.hand.legal_actions():
            return self._observation(), float(self.worst), True, False, {"illegal": True}
        self.hand.apply(int(action))
        self._opponent_plays()
        over = self.hand.is_over()
        reward = self.hand.returns()[self.seat] if over else 0.0
        return self._observation(), float(reward), over, False, {}

    def render(self):
        """The hand's trace so far as text (render_mode "ansi")."""
        return trace_text(self.hand) if self.render_mode == "ansi" else None

    def _opponent_plays(self) -> None:
        while self.hand.current_player() == 1 - self.seat:
            self.hand.apply(self.bot.action_at(self.hand))

    def _observation(self) -> dict:
        return observation_with_mask(self.hand, self.seat)


class _GameRules:
    """What a ProjectBot reads of its game: the rules."""

    def __init__(self, rules):
        self.rules = rules
