"""The batch driver: chunks merged in order whatever the threads, early stops, errors."""
import threading

import pytest

from analyzer.studies.play.compare import compare_pair
from analyzer.run.backends import default_threads, thread_count
from analyzer.run.checks import RunError
from analyzer.run.driver import run_chunks
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset


class Collect:
    """An accumulator that keeps every result, and stops after ``stop_after`` of them."""

    def __init__(self, stop_after=None):
        self.merged, self.stop_after = [], stop_after

    def merge(self, result):
        self.merged.append(result)
        return self.stop_after is not None and len(self.merged) == self.stop_after


def start_and_count(start, count):
    return start, count


def collect(total, chunk, threads, stop_after=None, play=None):
    progress = []
    acc = run_chunks(play or start_and_count, total, chunk, Collect(stop_after), threads, progress.append)
    return sum(progress), acc.merged, progress


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_chunks_cover_every_item_once_in_order(threads):
    n, merged, progress = collect(10_001, 1000, threads)
    assert merged == [(s, min(1000, 10_001 - s)) for s in range(0, 10_001, 1000)]
    assert n == 10_001 and progress == [c for _, c in merged]


def test_a_chunk_finishing_early_waits_for_the_ones_before_it():
    """Chunk 0 cannot finish before chunk 1 has: the merge order is still 0, 1, 2."""
    one_done = threading.Event()

    def play(start, count):
        if start == 0:
            assert one_done.wait(10), "chunk 1 never ran beside chunk 0"
        elif start == 10:
            one_done.set()
        return start

    _, merged, _ = collect(30, 10, 2, play=play)
    assert merged == [0, 10, 20]


@pytest.mark.parametrize("threads", [1, 3])
def test_stop_drops_the_chunks_after_it(threads):
    n, merged, progress = collect(100, 10, threads, stop_after=3)
    assert [s for s, _ in merged] == [0, 10, 20] and n == 30 and progress == [10, 10, 10]


def test_an_error_in_a_chunk_is_raised():
    def play(start, count):
        if start == 20:
            raise RuntimeError("chunk 20 failed")
        return start

    with pytest.raises(RuntimeError, match="chunk 20 failed"):
        collect(50, 10, 2, play=play)


def test_thread_count_default_and_check():
    assert thread_count(None) == default_threads() >= 1
    assert thread_count(3) == 3
    with pytest.raises(RunError, match="threads must be from 1 to 1024, got 0"):
        thread_count(0)
    with pytest.raises(RunError, match="threads must be from 1 to 1024, got 1025"):
        thread_count(1025)


def test_sprt_stops_at_the_same_deal_for_any_thread_count():
    """hints against hints without H3 needs several chunks before the test decides."""
    rules = preset("ordinary")
    a, b = resolve_policy("hints"), resolve_policy("hints:no=H3")
    one = compare_pair(rules, a, b, 60_000, seed=6, threads=1, sprt=(-5, 5))
    two = compare_pair(rules, a, b, 60_000, seed=6, threads=2, sprt=(-5, 5))
    assert one.sprt["sprt_result"] != "undecided" and 4096 < one.tally.deals < 60_000
    assert one.row() == two.row()


def test_chunks_are_submitted_lazily_so_any_count_fits_in_memory():
    """2^63 - 1 items: only a window of chunks (two per thread) is ever submitted ahead of the
    merge, so memory does not depend on the total (issue 13, part 3)."""
    submitted = []

    def play(start, count):
        submitted.append(start)
        return start

    n, merged, _ = collect(2**63 - 1, 1000, 2, stop_after=5, play=play)
    assert merged == [0, 1000, 2000, 3000, 4000] and n == 5000
    assert len(submitted) <= 5 + 2 * 2


class ChunkResult:
    """A chunk's result that counts how many are alive at once."""

    live = peak = 0

    def __init__(self):
        ChunkResult.live += 1
        ChunkResult.peak = max(ChunkResult.peak, ChunkResult.live)

    def __del__(self):
        ChunkResult.live -= 1


def make_result(start, count):
    return ChunkResult()


class Drop:
    def merge(self, result):
        return None


@pytest.mark.parametrize("threads", [1, 2])
def test_merged_results_are_not_kept(threads):
    """Memory stays that of the window however many chunks run: nothing holds a chunk's result
    once it is merged (a backend that kept its futures would keep them all)."""
    ChunkResult.live = ChunkResult.peak = 0
    run_chunks(make_result, 500, 1, Drop(), threads)
    assert ChunkResult.peak <= 2 * threads + 2


def test_a_stop_asked_for_ends_a_wait_even_when_the_interrupt_was_lost():
    """Ctrl-C/SIGTERM set backends.STOP beside raising KeyboardInterrupt: a wait for a chunk
    that will never finish ends (KeyboardInterrupt) even if a library swallowed the interrupt
    (seen once: a SIGTERM during the compile of a user policy left the command running). The
    wait runs on a thread; its end is the event waited for, the 60 s join a failsafe only."""
    import threading
    from concurrent.futures import Future

    from analyzer.run.backends import wait_for
    from analyzer.stop import STOP
    raised = []

    def waiting():
        try:
            wait_for(Future())               # a chunk that never finishes
        except KeyboardInterrupt:
            raised.append(True)

    STOP.set()
    try:
        thread = threading.Thread(target=waiting, daemon=True)
        thread.start()
        thread.join(60)
        assert not thread.is_alive(), "the wait did not end"
        assert raised == [True]
    finally:
        STOP.clear()
