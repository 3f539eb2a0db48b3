"""Training the learned player (learning/train.py, ``bezique train``): a few seconds of it.

The run depends on its seed alone, a killed run resumed gives the same weights as one never
stopped, a directory holding another run is refused, and the self-play runs on Dask workers
to the same weights."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.learning.rollouts import LabelRun
from analyzer.learning.train import CHECKPOINT, MODEL, TrainConfig, Trainer, TrainError, label_task, value_scale
from analyzer.policies.features import N_STATE, AF_HINT
from analyzer.policies.learned import load_model
from analyzer.policies.network import N_H1, O_HINT_BONUS, O_W1
from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset

TINY = dict(steps=3, hands=16, keep=0.3, fit_rows=20_000, window=2, eval_every=2, eval_deals=8, seed=4)
CLI_TINY = ["--variant", "ordinary", "--hands-per-step", "16", "--keep", "0.3", "--fit-rows", "20000",
            "--window", "2", "--eval-every", "2", "--eval-deals", "8", "--seed", "4", "--threads", "1", "-q"]


def _weights(out) -> np.ndarray:
    with np.load(Path(out) / CHECKPOINT) as z:
        return z["w"].copy()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A tiny run of TINY, never stopped: its directory and final state."""
    out = tmp_path_factory.mktemp("train_ref")
    state = Trainer(preset("ordinary"), TrainConfig(**TINY), out, threads=1).run()
    return out, state


def test_a_tiny_run_trains_a_model_that_plays(reference):
    out, state = reference
    assert state.step == 3 and len(state.curve) == 3
    assert [("vs_teacher" in r) for r in state.curve] == [False, True, True]   # every 2 steps and the last
    w, meta = load_model(out / MODEL, "ordinary")
    assert np.array_equal(w, state.w) and meta["training"]["steps"] == 3
    assert not np.array_equal(w, Trainer(preset("ordinary"), TrainConfig(**TINY), out / "x").new_state().w)
    import analyzer
    res = analyzer.simulate(preset("ordinary"), [f"learned:weights={out / MODEL}", "hints"], 16, seed=2)
    assert res.hands == 16


def test_the_same_seed_gives_the_same_weights_and_another_seed_others(reference, tmp_path):
    out, state = reference
    again = Trainer(preset("ordinary"), TrainConfig(**TINY), tmp_path / "a", threads=2).run()
    assert np.array_equal(again.w, state.w)                   # threads do not change the result
    other = Trainer(preset("ordinary"), TrainConfig(**{**TINY, "seed": 5}), tmp_path / "b", threads=1).run()
    assert not np.array_equal(other.w, state.w)


def test_a_run_killed_with_sigkill_resumes_to_the_same_weights(tmp_path):
    """``bezique train`` killed (SIGKILL) after a checkpoint, then ``--resume``: the weights of
    a run that was never stopped. The killed run is asked for 200 steps, so that it is still
    running when its checkpoint of step 2 appears (the event waited for: the deadline is a
    failsafe); resumed to 8 steps (the number of steps is not part of a run's identity) it
    must give the 8-step run's weights."""
    steps = ["--steps", "8"]
    CliRunner().invoke(main, ["train", *CLI_TINY, *steps, "--out", str(tmp_path / "whole")], catch_exceptions=False)
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", "from analyzer.cli import bezique; bezique()", "train", *CLI_TINY,
                             "--steps", "200", "--out", str(out)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        step = 0
        while step < 2:
            assert proc.poll() is None, "the run ended before its second checkpoint"
            assert time.monotonic() < deadline, "no checkpoint of step 2"
            try:
                with np.load(out / CHECKPOINT) as z:
                    step = json.loads(str(z["meta"]))["step"]
            except (OSError, ValueError, KeyError):
                step = 0
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it was killed"
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(60) == -signal.SIGKILL
    finally:
        proc.kill()
    with np.load(out / CHECKPOINT) as z:
        step = json.loads(str(z["meta"]))["step"]
    assert 2 <= step < 8, step                   # killed part-way through the steps resumed below
    r = CliRunner().invoke(main, ["train", *CLI_TINY, *steps, "--out", str(out), "--resume"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert np.array_equal(_weights(out), _weights(tmp_path / "whole"))


def test_another_runs_directory_is_refused_unless_resumed_with_its_settings(reference, tmp_path):
    out, _ = reference
    r = CliRunner().invoke(main, ["train", *CLI_TINY, "--steps", "3", "--out", str(out)])
    assert r.exit_code == 1 and "files that no bezique command wrote (checkpoint.npz" in r.output   # no manifest
    r = CliRunner().invoke(main, ["train", *CLI_TINY, "--steps", "3", "--out", str(out), "--force"])
    assert r.exit_code == 1 and "holds a training run already: give --resume" in r.output
    r = CliRunner().invoke(main, ["train", *CLI_TINY, "--steps", "3", "--eps", "0.2", "--out", str(out), "--resume"])
    assert r.exit_code == 1 and "made by another run" in r.output
    r = CliRunner().invoke(main, ["train", *CLI_TINY, "--steps", "3", "--out", str(tmp_path / "none"), "--resume"])
    assert r.exit_code == 1 and "no checkpoint to resume" in r.output
    r = CliRunner().invoke(main, ["train", *CLI_TINY, "--steps", "3", "--keep", "0", "--out", str(tmp_path / "k")])
    assert r.exit_code == 1 and "keep is a share" in r.output
    with pytest.raises(TrainError, match="two-handed"):
        Trainer(preset("three_handed"), TrainConfig(**TINY), tmp_path / "t")


def test_resume_with_more_steps_continues_a_finished_run(reference, tmp_path):
    out, state = reference
    short = Trainer(preset("ordinary"), TrainConfig(**{**TINY, "steps": 2}), tmp_path / "s", threads=1)
    short.run()
    longer = Trainer(preset("ordinary"), TrainConfig(**TINY), tmp_path / "s", threads=1).run(resume=True)
    assert np.array_equal(longer.w, state.w) and [r["step"] for r in longer.curve] == [1, 2, 3]


def test_the_self_play_runs_on_dask_workers_to_the_same_weights(reference, tmp_path, monkeypatch):
    """``--workers 2``: every labelling task (the self-play) and every evaluation was sent to
    the cluster and finished there, in worker processes that are not this one (the scheduler's
    task stream names the worker of each; the workers' own process ids, asked of them), and
    the weights are the threaded run's. A run that fell back to threads sends nothing."""
    pytest.importorskip("distributed")
    from contextlib import contextmanager

    from distributed import get_task_stream

    import analyzer.cli.options
    from analyzer.run.backends import connect_dask, use_backend
    seen = {"sent": []}

    @contextmanager
    def recorded_dask(workers, scheduler):
        backend = connect_dask(workers, scheduler)
        submit = backend.submit

        def recording(task, *args):
            future = submit(task, *args)
            seen["sent"].append((task.__name__, future.key))
            return future

        backend.submit = recording
        try:
            with get_task_stream(backend.client) as stream, use_backend(backend):
                yield backend
            seen["pids"] = backend.client.run(os.getpid)         # worker address -> its process id
        finally:
            backend.shutdown()
        seen["finished"] = {t["key"]: t["worker"] for t in stream.data if t["status"] == "OK"}

    monkeypatch.setattr(analyzer.cli.options, "dask_backend", recorded_dask)
    out, _ = reference
    args = [a for a in CLI_TINY if a not in ("--threads", "1")]       # Dask brings its own workers
    r = CliRunner().invoke(main, ["train", *args, "--steps", "3", "--workers", "2", "--out", str(tmp_path / "d")],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    names = [name for name, _ in seen["sent"]]
    assert names.count("label_task") == 3 and names.count("_match_task") == 2, names   # 3 steps, 2 evaluations
    workers = {seen["finished"].get(key) for _, key in seen["sent"]}
    assert None not in workers and workers <= set(seen["pids"]), (workers, seen["pids"])
    assert os.getpid() not in seen["pids"].values()
    assert np.array_equal(_weights(tmp_path / "d"), _weights(out))


def test_the_learned_spec_of_a_checkpoint_names_its_file(reference):
    out, _ = reference
    spec = resolve_policy(f"learned:weights={out / MODEL}")
    assert spec.source == f"learned:weights={(out / MODEL).resolve()}"


def test_a_round_starts_from_its_model_and_its_roll_outs_play_it(reference, tmp_path):
    """``--round-of MODEL``: step 0 is MODEL's weights (its teacher's bonus, or ``hint_bonus`` when
    given) and the roll-outs play MODEL; ``--start`` alone keeps the teacher's roll-outs."""
    out, _ = reference
    model = str(out / MODEL)
    w, _meta = load_model(model, "ordinary")
    rnd = Trainer(preset("ordinary"), TrainConfig(**{**TINY, "start": model, "rollout_start": True}), tmp_path / "r")
    s = rnd.new_state()
    assert np.array_equal(s.w, w) and np.array_equal(s.rollout, w)
    bonus = Trainer(preset("ordinary"), TrainConfig(**{**TINY, "start": model, "rollout_start": True,
                                                       "hint_bonus": 50.0}), tmp_path / "b").new_state()
    assert bonus.w[O_HINT_BONUS] == np.float32(50.0 / value_scale(preset("ordinary")))
    assert np.array_equal(np.delete(bonus.w, O_HINT_BONUS), np.delete(w, O_HINT_BONUS))
    assert Trainer(preset("ordinary"), TrainConfig(**{**TINY, "start": model}), tmp_path / "s").new_state().rollout is None
    with pytest.raises(TrainError, match="start model"):
        Trainer(preset("ordinary"), TrainConfig(**{**TINY, "start": str(tmp_path / "none.npz")}), tmp_path / "n")


def test_without_the_teacher_input_the_network_never_reads_the_teachers_choice(tmp_path):
    """``--no-teacher-input``: the teacher feature's weights and the bonus are 0 at the start and
    stay 0 after training (no sample ever sets the feature), so the teacher has no effect in play."""
    row = O_W1 + (N_STATE + AF_HINT) * N_H1
    state = Trainer(preset("ordinary"), TrainConfig(**{**TINY, "teacher_input": False}), tmp_path / "n",
                    threads=1).run()
    assert not state.w[row:row + N_H1].any() and state.w[O_HINT_BONUS] == 0
    with_input = Trainer(preset("ordinary"), TrainConfig(**TINY), tmp_path / "w").new_state()
    assert with_input.w[row:row + N_H1].any()          # the check can fail: by default the input is there


def test_a_best_response_labels_only_the_learners_seat(reference):
    """With a frozen opponent (``--opponent``) only the learner's decisions are labelled: about
    half of self-play's on the same hands (the learner holds one seat, alternating by hand)."""
    out, _ = reference
    w, _meta = load_model(out / MODEL, "ordinary")
    rules = preset("ordinary")
    trainer = Trainer(rules, TrainConfig(**TINY), out / "unused")
    run = LabelRun(False, np.uint64(9), 0, 40, 0.0, 1.0, value_scale(rules), True)
    both = label_task(trainer.rules_arr, run, w, w, None, trainer.teacher)
    one = label_task(trainer.rules_arr, run, w, w, w, trainer.teacher)
    assert 0.35 < len(one[0]) / len(both[0]) < 0.65, (len(one[0]), len(both[0]))


def test_another_teacher_is_kept_by_a_new_network_and_the_curve_keeps_its_yardstick(tmp_path):
    """``--teacher HINTS``: a new network keeps that teacher's settings (its AF_HINT input and the
    roll-outs of round 1 play it), the learning curve still plays hints:tuned-GAME-h8; a model
    keeps its own teacher, so --teacher with a start model is refused, as is a teacher that is not
    hints."""
    from analyzer.learning.train import teacher_name
    from analyzer.policies.network import O_TEACHER, TEACHER_W, teacher_vector
    rules = preset("rubicon")
    other = Trainer(rules, TrainConfig(**{**TINY, "teacher": "hints:tuned-rubicon"}), tmp_path / "t")
    w = other.new_state().w
    tuned = resolve_policy("hints:tuned-rubicon").params_for(rules.to_array())
    h8 = resolve_policy(teacher_name("rubicon")).params_for(rules.to_array())
    assert np.array_equal(w[O_TEACHER:O_TEACHER + TEACHER_W], teacher_vector(tuned))
    assert not np.array_equal(teacher_vector(tuned), teacher_vector(h8))    # the two teachers differ
    assert np.array_equal(other.yardstick["hint"], Trainer(rules, TrainConfig(**TINY), tmp_path / "d").teacher["hint"])
    with pytest.raises(TrainError, match="not a hints policy"):
        Trainer(rules, TrainConfig(**{**TINY, "teacher": "greedy"}), tmp_path / "g")
    with pytest.raises(TrainError, match="keeps the teacher"):
        TrainConfig(**{**TINY, "teacher": "hints", "start": "x.npz"}).check()


def test_a_start_model_may_take_another_models_late_network(reference, tmp_path):
    """``--late-from MODEL``: the start model keeps its main network, teacher and bonus and takes
    MODEL's late network (the search then labels over the two together); a MODEL without a late
    network, or no start model, is refused."""
    from analyzer.policies.learned import save_model
    from analyzer.policies.network import N_WEIGHTS, late_block, with_late_net
    out, _ = reference
    main, _meta = load_model(out / MODEL, "ordinary")
    other = with_late_net(main, 6, np.random.default_rng(1))
    other[:N_WEIGHTS] += 1.0                             # another main network beside that late one
    save_model(tmp_path / "late.npz", other, "ordinary", {})
    config = {**TINY, "start": str(out / MODEL), "rollout_start": True, "late_from": str(tmp_path / "late.npz")}
    w = Trainer(preset("ordinary"), TrainConfig(**config), tmp_path / "r").start_w
    assert np.array_equal(w[:N_WEIGHTS], main[:N_WEIGHTS]) and np.array_equal(w[N_WEIGHTS:], other[N_WEIGHTS:])
    assert late_block(w)[1] == 6
    with pytest.raises(TrainError, match="no late network"):
        Trainer(preset("ordinary"), TrainConfig(**{**config, "late_from": str(out / MODEL)}), tmp_path / "n")
    with pytest.raises(TrainError, match="needs a start model"):
        TrainConfig(**{**TINY, "late_from": str(tmp_path / "late.npz")}).check()
