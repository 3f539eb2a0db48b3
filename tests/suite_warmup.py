"""The kernels some tests compile on their first call, compiled on a cold cache before the tests
by tests/conftest.py, in the one-hand driver's process once the driver is compiled, while the
search compiles beside it on the other core: the exact second stage's solver and the minimax it
is checked against, the engine's functions the field's games call one move at a time, the value
network's samples and the tally of a run. :func:`run` plays a run of each game and runs a few
small tests (each warm in under a second), their output thrown away: they call those kernels with
exactly the types the suite does. None of them may load the search, which compiles beside this
process (tests/test_compiling.py checks their modules).

Imported with ``BEZIQUE_SUITE_WARMING=now`` in the environment (and ``tests`` on the path), as
conftest.py's compile process does, the module runs :func:`run`; imported otherwise, nothing."""
from __future__ import annotations

import os
from pathlib import Path

# small tests that compile the kernels their larger neighbours share
TESTS = ("test_endgame.py::test_R2_20_solver_equals_minimax_with_six_cards",
         "test_stage2_value.py::test_the_network_is_close_to_the_exact_solver_on_unseen_positions",
         "test_pettingzoo_env.py::test_a_recorded_hand_steps_as_the_engine_and_the_openspiel_game_play_it")
WARMING = "BEZIQUE_SUITE_WARMING"       # "now": run on import; any other value: a session that compiles nothing first


def run() -> int:
    """Compile the kernels: a tiny run of each game, then :data:`TESTS`; pytest's exit code."""
    import pytest

    from analyzer.studies.play.simulate import warm

    for _variant, _policy, _seconds in warm(("greedy",)):
        pass
    os.environ[WARMING] = "running"
    return pytest.main(["-q", "-n", "0", "-p", "no:cacheprovider", *(str(Path(__file__).parent / t) for t in TESTS)])


if os.environ.get(WARMING) == "now":
    run()
