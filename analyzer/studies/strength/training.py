"""``bezique train`` from start to end: the training run (analyzer/learning/train.py) with its
checkpoints, then its learning curve as a table and a chart, run.json and, when asked, the model
installed as the package's learned player of its game."""
from __future__ import annotations

import shutil
from dataclasses import asdict

import pandas as pd

from ...learning.train import CHECKPOINT, CURVE, MODEL, TrainConfig, Trainer, teacher_name
from ... import plots
from ...policies.learned import shipped_model
from ...policies.spec import model_for
from ...rules import RuleSet
from ..files import write_files
from ..play.compare import points_unit


def train_player(rules: RuleSet, config: TrainConfig, out, threads: int | None = None, resume: bool = False,
                 notice=None, advance=None):
    """Run the training of ``config`` into ``out`` (``resume``: from its checkpoint), then write
    its learning curve (curve.csv, curve.png/.svg) and run.json beside the model and checkpoint;
    ``notice`` takes lines about the run, ``advance`` the steps done. Returns (the training's
    final state, the files written)."""
    state = Trainer(rules, config, out, threads, progress=notice, advance=advance).run(resume=resume)
    curve = pd.DataFrame(state.curve)
    title = f"learned player, {rules.name} bézique: learning curve (seed {config.seed})"
    chart = (plots.learning_curve_chart(curve, points_unit(rules), title, teacher_name(model_for(rules)))
             if "vs_teacher" in curve else None)
    written = write_files(out, threads, tables={CURVE.removesuffix(".csv"): curve},
                          charts={"curve": chart} if chart is not None else {},
                          files=[f"{out}/{MODEL}", f"{out}/{CHECKPOINT}"], rules=rules.describe(), seed=config.seed,
                          config=asdict(config), steps=state.step)
    return state, written


def install_model(rules: RuleSet, out) -> str:
    """Copy the model trained in ``out`` into the package as the learned player of its game;
    returns where it went."""
    target = shipped_model(model_for(rules))
    shutil.copyfile(f"{out}/{MODEL}", target)
    return str(target)
