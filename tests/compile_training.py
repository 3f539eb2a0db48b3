"""Imported by tests/conftest.py in a process of its own, on a cold kernel cache only: two steps
of a tiny training run (the first example of docs/learned.md's kind, 16 hands a step, its
learning curve included) compile the training's kernels (analyzer/learning/: the self-play, the
roll-outs' labels and the fit), which compile at their first call rather than when imported.
They then compile here, beside the search's compile, instead of inside one test while every
other test waits for the cores."""
import tempfile

from click.testing import CliRunner

from analyzer.cli import main

with tempfile.TemporaryDirectory() as out:
    CliRunner().invoke(main, ["train", "--variant", "ordinary", "--steps", "2", "--seed", "1", "--hands-per-step", "16",
                              "--keep", "0.3", "--fit-rows", "20000", "--eval-every", "1", "--eval-deals", "16",
                              "--threads", "1", "--out", out, "--force", "-q"])
