"""The hand as a resumable state, in one place (for search players, notebooks and tests).

A :class:`~analyzer.engine.state.HandState` is one hand between two decisions. Deal one with
:func:`deal`, ask :func:`to_act`, :func:`decision` and :func:`legal_actions`, change it only
with :func:`apply`, copy it with :func:`copy_into` (no allocation), play it to the end with
:func:`play_out`; :func:`scores` and :func:`is_over` read it. :func:`observe` fills a seat's
observation (with its public record when its bit of ``G[G_FULL_OBS]`` is set), from which
:func:`rebuild` makes a whole state again with the cards that seat cannot see
(:func:`sample_hidden` draws them). Rule sets are passed packed: ``RuleSet.to_array()``;
the players of :func:`play_out` as :func:`analyzer.run.records.policy_arrays` gives them (a
:class:`~analyzer.engine.policy_data.Players`). Everything here is numba code
callable from Python and from other kernels.
"""
import numpy as np

# the names of this module are its interface: the imports below are re-exports
from .batch import deal_hand, seed_policies, write_record  # noqa: F401 (re-exported)
from .hand import apply, decision, is_over, legal_actions, observe, scores, to_act  # noqa: F401 (re-exported)
from .layout import MAX_TALON
from .observe import hidden_sizes, rebuild, sample_hidden, unseen_cards  # noqa: F401 (re-exported)
from .play import is_legal, play_out  # noqa: F401 (re-exported)
from .state import HandState, copy_into, new_state  # noqa: F401 (re-exported)


def deal(rules_arr, seed: int, hand: int, log_events: bool = False) -> HandState:
    """A new HandState with hand ``hand`` of a run seeded ``seed`` dealt, exactly as
    ``simulate`` deals it, stopped at its first decision."""
    st = new_state(log_events)
    deal_hand(rules_arr, st, np.uint64(seed), hand, np.zeros(MAX_TALON, np.int32),
              np.zeros(1, np.uint64))
    return st


__all__ = ["HandState", "apply", "copy_into", "deal", "deal_hand", "decision", "hidden_sizes",
           "is_legal", "is_over", "legal_actions", "new_state", "observe", "play_out", "rebuild",
           "sample_hidden", "scores", "seed_policies", "to_act", "unseen_cards", "write_record"]
