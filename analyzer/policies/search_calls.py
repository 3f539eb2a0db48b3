"""The kernels the search (expert.py, inference.py) calls by address (engine/by_address.py):
the engine's step and the players its roll-outs and its reading of a lead play. Each level of
the search that called them directly would generate their machine code again; by address it is
generated once, when they compile."""
from numba import types

from ..engine.by_address import by_address
from ..engine.hand import apply_once
from ..engine.policy_data import POLICY_SIG, SEAT_TYPE
from ..engine.state import STATE_TYPE
from .builtin import greedy_policy
from .hints import hints_policy
from .learned_net import best_action

RULES, INTS, RNG = types.int64[::1], types.int32[::1], types.uint64[::1]
"""The numba types of the rules, of an observation or the legal actions, and of a seat's stream."""

apply_once_at = by_address(apply_once, RULES, STATE_TYPE, types.int32)
hints_at = by_address(hints_policy, *POLICY_SIG.args)
greedy_at = by_address(greedy_policy, *POLICY_SIG.args)
best_action_at = by_address(best_action, types.float32[::1], INTS, RULES, INTS, types.int64, RNG, SEAT_TYPE)
