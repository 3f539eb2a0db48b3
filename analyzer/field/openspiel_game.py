"""Bézique as an OpenSpiel game, registered with pyspiel as ``bezique`` when this module is
imported (as OpenSpiel's own Python games are): ``pyspiel.load_game("bezique(variant=rubicon)")``.

Parameters: ``variant``, one of the rulebook's two-handed games (core.FIELD_VARIANTS: ordinary,
rubicon, no_trump, panache, fixed_point; another is refused by the game's constructor, which
pyspiel.load_game raises as the ValueError it is), and ``margin`` (the ordinary games' return: a
seat's points, or with ``margin=true`` its points less its opponent's). Returns: Rubicon, the net
game points of the game the hand is (R3.9), zero-sum; the other games, the hand's points as the
engine scores them (general-sum), or the margin (zero-sum). The chance nodes deal the hand (the
dealer, then the deck card by card: core); :func:`deal_outcomes` gives those of the engine's deal
of a run's hand. Information states and observations are a seat's own view (views), from the
game's observers as OpenSpiel's Python games make them; ``resample_from_infostate`` draws a world
with the engine's sampler (worlds). Serialization is pyspiel's for Python games: the history,
with the hand pickled as its chance outcomes and actions.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from ..cards import N_TYPES, card_str
from ..engine import layout as L
from ..rules import RuleSet
from .core import (
    CHANCE,
    FIELD_VARIANTS,
    N_ACTIONS,
    TERMINAL,
    Hand,
    check_margin,
    engine_deal,
    field_rules,
    max_decisions,
    utility_range,
)
from .views import (
    CARD_NAMES,
    MOVE_NAMES,
    OBS_WIDTH,
    array_names,
    count_names,
    info_state_shapes,
    info_state_string,
    info_state_tensor,
    move_name,
    names,
    observation_string,
    observation_vector,
)
from .worlds import resample

SHORT_NAME = "bezique"
PARAMETERS = {"variant": "ordinary", "margin": False}
PLAYER_IDS = {CHANCE: pyspiel.PlayerId.CHANCE, TERMINAL: pyspiel.PlayerId.TERMINAL}
DEAL_NAMES = tuple(f"deal {name}" for name in CARD_NAMES)


def game_type(utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The game's GameType with ``utility`` (each game states its own: zero-sum or general-sum)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="Bezique (two-handed: " + ", ".join(FIELD_VARIANTS) + ")",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMETERS)


class BeziqueGame(pyspiel.Game):
    """One hand of two-handed bézique, played by the project's engine (see the module docstring)."""

    def __init__(self, params=None):
        params = {**PARAMETERS, **(params or {})}
        rules = field_rules(params["variant"])
        margin = check_margin(rules, params["margin"])
        zero_sum = rules.is_rubicon or margin
        low, high = utility_range(rules, margin)
        info = pyspiel.GameInfo(num_distinct_actions=N_ACTIONS, max_chance_outcomes=32, num_players=2,
                                min_utility=low, max_utility=high, utility_sum=0.0 if zero_sum else None,
                                max_game_length=max_decisions(rules))
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(game_type(utility), info, params)
        self.rules: RuleSet = rules
        self.margin = margin
        self.undealt = Hand(rules, margin)

    def new_initial_state(self):
        """The hand before the deal (a chance node: the dealer)."""
        return BeziqueState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The dealer and every card of the deck."""
        return 1 + self.rules.n_cards

    def make_py_observer(self, iig_obs_type=None, params=None):
        """A seat's information state (``perfect_recall``) or observation (views)."""
        return BeziqueObserver(self.rules, iig_obs_type, params)


class BeziqueState(pyspiel.State):
    """A hand in progress: a :class:`~analyzer.field.core.Hand` behind OpenSpiel's State."""

    def __init__(self, game):
        super().__init__(game)
        # a copy: a new Hand looks its rules up (hashes them), and OpenSpiel makes a new state for
        # every tensor it sizes; the copy takes a position cache of its own, not every game's
        self.hand = game.undealt.copy()
        self.hand.now = {}

    def current_player(self):
        """The seat to act, or pyspiel's CHANCE while dealing and TERMINAL once over."""
        p = self.hand.player
        return p if p >= 0 else PLAYER_IDS[p]

    def _legal_actions(self, player):
        """The engine's legal actions (its action codes), ascending."""
        return self.hand.legal_actions()

    def chance_outcomes(self):
        """The dealer (one half each), then the next card: copies left / cards left."""
        return self.hand.chance_outcomes()

    def _apply_action(self, action):
        """A chance outcome, or the seat's action carried out by the engine."""
        if self.hand.is_chance():
            self.hand.apply_chance(action)
        else:
            self.hand.apply(action)

    def _action_to_string(self, player, action):
        """``dealer 1``, ``deal QS``; a seat's action in short words (views.move_name)."""
        if player == CHANCE:
            if self.hand.dealer < 0:
                return f"dealer {action}"
            return DEAL_NAMES[action] if 0 <= action < N_TYPES else f"deal {card_str(action)}"
        return MOVE_NAMES[action] if 0 <= action < N_ACTIONS else move_name(action)

    def is_terminal(self):
        """Whether the hand has been played to its end."""
        return self.hand.is_over()

    def returns(self):
        """Each seat's return: zeros until the end (core.Hand.returns)."""
        return self.hand.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A new state with ``player_id``'s information state, the cards it cannot place drawn
        anew by the engine's sampler (worlds.resample); ``probability_sampler`` (a callable
        returning numbers in [0, 1), e.g. pyspiel.UniformProbabilitySampler) seeds the draw."""
        rng = np.random.default_rng([int(probability_sampler() * 2**32) for _ in range(4)])
        world = resample(self.hand, player_id, rng)
        state = self.get_game().new_initial_state()
        for outcome in world.chance_history():
            state.apply_action(outcome)
        for _seat, action, _kind in world.moves:
            state.apply_action(action)
        return state

    def __str__(self):
        """The whole hand (both hands, the tables and the talon), for debugging."""
        text = self.hand.now.get("text")
        if text is None:                # OpenSpiel asks a position for it again and again
            text = self.hand.now["text"] = self._text()
        return text

    def _text(self) -> str:
        """The text of :meth:`__str__`, made afresh."""
        h = self.hand
        if h.st is None:
            return f"bezique {h.rules.name}; dealer {h.dealer if h.dealer >= 0 else '?'}; dealt {names(h.deck)}"
        lines = [f"bezique {h.rules.name}; dealer {h.dealer}; moves {len(h.moves)}"]
        for seat in (0, 1):
            hand, table = (count_names(h.st.P[seat, at:at + N_TYPES]) for at in (L.P_HAND, L.P_TABLE))
            lines.append(f"seat {seat}: hand {hand}; table {table}")
        g = h.st.G
        lines.append("talon: " + array_names(h.st.talon[int(g[L.G_TALON_POS]):int(g[L.G_TALON_LEN])]))
        who = "over" if h.is_over() else f"seat {h.player} to act"
        scores = h.scores()
        lines.append(f"scores {scores[0]} {scores[1]}; {who}")
        return "\n".join(lines)


class BeziqueObserver:
    """OpenSpiel's Python observer (``tensor``, ``dict``, ``set_from``, ``string_from``) of a
    seat's own view: its information state with ``perfect_recall``, else its observation. Other
    kinds (a public-only or an all-seeing observer) are not offered."""

    def __init__(self, rules: RuleSet, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("bezique observes one seat's own view only (public_info=True, "
                             "private_info=SINGLE_PLAYER)")
        self.perfect_recall = kind.perfect_recall
        shapes = info_state_shapes(rules) if self.perfect_recall else [("observation", (OBS_WIDTH,))]
        self.tensor = np.zeros(sum(int(np.prod(s)) for _n, s in shapes), np.float32)
        self.dict, start = {}, 0
        for name, shape in shapes:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size
        self.undealt: dict[int, np.ndarray] = {}

    def set_from(self, state, player):
        """Write ``player``'s view of ``state`` into ``tensor`` (and so ``dict``)."""
        hand = state.hand
        if hand.dealer >= 0:
            self._write(hand, player)
        elif player in self.undealt:        # OpenSpiel sizes every tensor it asks for by a new state's
            self.tensor[:] = self.undealt[player]
        else:
            self._write(hand, player)
            self.undealt[player] = self.tensor.copy()

    def _write(self, hand, player) -> None:
        """Write ``player``'s view of ``hand`` into ``tensor``, made afresh."""
        if self.perfect_recall:
            info_state_tensor(hand, player, self.dict)
        else:
            observation_vector(hand, player, self.dict["observation"])

    def string_from(self, state, player):
        """``player``'s view of ``state`` as text."""
        return info_state_string(state.hand, player) if self.perfect_recall else observation_string(state.hand, player)


def load(variant: str = "ordinary", margin: bool = False) -> pyspiel.Game:
    """``pyspiel.load_game`` of the bezique game ``variant``."""
    return pyspiel.load_game(SHORT_NAME, {"variant": variant, "margin": margin})


def deal_outcomes(game: BeziqueGame, seed: int, hand: int) -> list[int]:
    """The chance outcomes that deal hand ``hand`` of a run seeded ``seed`` as the engine deals
    it (core.engine_deal): apply them to a new state to play that deal."""
    return engine_deal(game.rules, seed, hand)


pyspiel.register_game(game_type(), BeziqueGame)
