"""Independent runs side by side (run/backends.side_by_side): each run's result is the one it
gives alone, their chunks share one set of worker threads, and an error in one is raised."""
from __future__ import annotations

import numpy as np
import pytest

from analyzer.rules import preset
from analyzer.run.backends import open_backend, side_by_side
from analyzer.studies.play.simulate import simulate

ORD = preset("ordinary")


def test_runs_side_by_side_give_what_they_give_alone():
    calls = [lambda: simulate(ORD, ["hints", "greedy"], 20_000, 5, threads=2),
             lambda: simulate(ORD, ["random", "greedy"], 9_000, 6, threads=2)]
    together = side_by_side(calls, threads=2)
    for got, call in zip(together, calls):
        assert np.array_equal(got.tallies.buffer, call().tallies.buffer)


def test_the_runs_share_the_blocks_threads():
    seen = side_by_side([lambda: open_backend(7).slots] * 3, threads=2)
    assert seen == [2, 2, 2]                      # not 7: the block's threads, not a run's own
    own = open_backend(3)                         # outside the block a run has its own again
    assert own.slots == 3
    own.close()


def test_an_error_in_one_run_is_raised():
    def bad():
        raise ValueError("no such run")
    with pytest.raises(ValueError, match="no such run"):
        side_by_side([lambda: 1, bad], threads=2)
