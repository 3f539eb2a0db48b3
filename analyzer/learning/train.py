"""A training run of the learned player (``bezique train``): steps of labelled self-play and a
fit of the network, a checkpoint after each step, a learning curve on held-out deals.

Each step plays ``hands`` hands (step k: hands k * hands .. of the run's seed), the network
itself at both seats (at step 0 the teacher, ``hints:tuned-<game>``, as there is no network
yet), with a random move now and then (``eps``). At a share ``keep`` of the first-stage
decisions with a choice every legal action is tried from the true state and the hand played
out by the roll-out policy (learning/rollouts.py); the network is then fitted to ``fit_rows``
sample rows drawn from the last ``window`` steps. The roll-out policy is the teacher until
step ``net_rollouts`` and from then on the network as it was at that step (a second round of
policy improvement).

A run may start from a model (``start``: its weights, the teacher and bonus it holds) and make
its roll-outs play that model from the first step (``rollout_start``: a new round of policy
iteration over it, its second stage exact as the learned player's is); with ``opponent`` a
frozen model holds one seat of every hand (the other seat alternates with the hand) and only
the learner's decisions are labelled: a best response to it. Without ``teacher_input`` the
network never sees the teacher's choice (no AF_HINT feature, no bonus).

Everything depends on the seed alone: the deals, the exploration, the order of the fit. The
checkpoint after step k holds the weights, Adam's moments and the weights each step of the
window played with; a resumed run plays the window's steps again from those (their samples
come out the same) and goes on as if never stopped, to the same weights.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..engine.policy_data import NO_WEIGHTS, SeatData, new_params, seat_work
from ..errors import BeziqueError
from ..policies.expert_names import EXPERT_KERNEL
from ..policies.features import AF_HINT, MAX_ACTION_NZ, N_STATE
from ..policies.hints import hints_policy
from ..policies.learned import ModelError, load_model, save_model
from ..policies.network import (
    N_H1,
    N_WEIGHTS,
    O_HINT_BONUS,
    O_W1,
    UNIT_ORDINARY,
    UNIT_RUBICON,
    init_weights,
    late_block,
    model_teacher,
    stored_teacher,
    with_late_net,
)
from ..policies.spec import PolicyError, model_for, resolve_policy
from ..policies.stage2_value import load_value_model
from ..rules import RuleSet
from ..run.backends import open_backend, wait_for
from ..run.output import atomic_write
from ..stop import check_stop
from .rollouts import LabelRun, Players, Samples, Search, label_chunk
from .selfplay import match_chunk
from .sgd import decision_regret, fit_epoch

CHECKPOINT = "checkpoint.npz"
MODEL = "model.npz"
CURVE = "curve.csv"
STATE_VERSION = 1
EVAL_SEED_OFFSET = 1_000_003        # held-out deals: another seed than the training's
ROWS_PER_DECISION = 24              # buffer sizing: actions per labelled decision, at most on average
HELD_SHARE = 8                      # the search's held-out hands: one per this many eval deals
MAX_LATE_CARDS = 24                 # a late network plays the decisions with at most this many cards left


class TrainError(BeziqueError, ValueError):
    """Training settings or an output directory that cannot be used."""


@dataclass(frozen=True)
class TrainConfig:
    """What a training run does; with the seed it decides the weights completely."""

    steps: int = 60
    hands: int = 1000            # hands played per step
    keep: float = 1.0            # share of decisions labelled by roll-outs
    eps: float = 0.05            # share of moves played at random (exploration)
    fit_rows: int = 2_000_000    # sample rows drawn from the window for each step's fit
    window: int = 40             # steps whose samples are fitted
    batch: int = 256
    lr: float = 1e-3
    net_rollouts: int = 0        # from this step on the roll-outs play the network (0: never)
    hint_bonus: float | None = None   # points added to the teacher's choice (None: the game's default)
    start: str | None = None     # a model file: the run starts from its weights
    rollout_start: bool = False  # the roll-outs play the start model from the first step
    opponent: str | None = None  # a model file: a frozen opponent at one seat (a best response)
    search: str | None = None    # an expert (``expert``, ``expert:samples=32`` …) over the start model:
    #                              it labels and plays the decisions it searches (expert iteration)
    late_net: int = 0            # > 0: fit only a late network, for the decisions with at most this many
    #                              cards left to draw, to the search's labels of them (added if the start has none)
    teacher_input: bool = True   # the network sees the teacher's choice (AF_HINT) and its bonus
    late_from: str | None = None  # a model file: the start model takes its late network (a model made of
    #                              two runs' networks: one's main network, the other's late network)
    teacher: str | None = None   # a hints policy taught from (None: teacher_name(game)); a new network
    #                              keeps it; the learning curve still measures against teacher_name(game)
    eval_every: int = 5          # learning-curve points: every this many steps, and the last
    eval_deals: int = 2000       # held-out deals per point (each played twice, seats swapped)
    seed: int = 1

    def check(self) -> None:
        """TrainError for settings out of range."""
        ints = {"steps": 1, "hands": 1, "fit_rows": 1, "window": 1, "batch": 1, "eval_every": 1,
                "eval_deals": 0, "net_rollouts": 0, "seed": 0}
        for name, low in ints.items():
            if getattr(self, name) < low:
                raise TrainError(f"{name} must be at least {low} (got {getattr(self, name)})")
        if not 0 < self.keep <= 1:
            raise TrainError(f"keep is a share in (0, 1] (got {self.keep})")
        if not 0 <= self.eps < 1:
            raise TrainError(f"eps is a share in [0, 1) (got {self.eps})")
        if self.hint_bonus is not None and not 0 <= self.hint_bonus <= 10_000:
            raise TrainError(f"hint_bonus is a number of points from 0 to 10,000 (got {self.hint_bonus})")
        if not 0 < self.lr < 1:
            raise TrainError(f"lr must be in (0, 1) (got {self.lr})")
        if self.rollout_start and not self.start:
            raise TrainError("roll-outs by the start model need a start model")
        if self.net_rollouts and self.rollout_start:
            raise TrainError("roll-outs play either the start model or the network from a step, not both")
        if self.search and not self.rollout_start:
            raise TrainError("the search's labels need a round over a model (--round-of MODEL): its network")
        if self.search and self.opponent:
            raise TrainError("the search labels self-play; a best response (--opponent) is labelled by roll-outs")
        if self.late_from and not self.start:
            raise TrainError("--late-from gives the start model another late network: it needs a start model")
        if self.teacher and self.start:
            raise TrainError("a model keeps the teacher it was trained from: --teacher is for a new network")
        if self.late_net and not self.search:
            raise TrainError("a late network learns from the search's labels: give --search")
        if not 0 <= self.late_net <= MAX_LATE_CARDS:
            raise TrainError(f"late_net is a number of cards left to draw from 0 to {MAX_LATE_CARDS} (got {self.late_net})")


DEFAULT_HINT_BONUS = {"ordinary": 0.0, "rubicon": 100.0}   # points; see docs/learned.md


def talon_at_deal(rules: RuleSet) -> int:
    """The cards of the talon at the deal (turn-up included): the share SF_TALON of the state
    features is of these."""
    return rules.n_cards - 2 * rules.hand_size


def value_scale(rules: RuleSet) -> float:
    """The unit of the targets: 100 points per hand, in Rubicon 1000 game points
    (learned_net.value_unit)."""
    return UNIT_RUBICON if rules.is_rubicon else UNIT_ORDINARY


@dataclass
class TrainState:
    """A run between two steps: what the checkpoint holds."""

    step: int                    # steps done
    w: np.ndarray
    m: np.ndarray
    v: np.ndarray
    t: int                       # Adam steps
    played: list                 # the weights each step of the window played with (None: teacher)
    rollout: np.ndarray | None   # the roll-out network once net_rollouts is reached
    curve: list                  # learning-curve rows
    seconds: float               # wall time spent so far
    hands_played: int
    samples: int


class Trainer:
    """One training run of ``config`` under ``rules`` into ``out`` (a directory)."""

    def __init__(self, rules: RuleSet, config: TrainConfig, out, threads: int | None = None,
                 progress: Callable[[str], object] | None = None,
                 advance: Callable[[int], object] | None = None):
        config.check()
        if rules.players != 2:
            raise TrainError(f"the learned player is two-handed; {rules.name} has {rules.players} players")
        self.rules = rules
        self.config = config
        self.out = Path(out)
        self.threads = threads
        self.say = progress or (lambda text: None)         # a line per step
        self.advance = advance or (lambda steps: None)     # steps done (a progress bar)
        self.game = model_for(rules)
        self.rules_arr = rules.to_array()
        self.dealt = talon_at_deal(rules)
        self.scale = value_scale(rules)
        # float32 as the model file keeps it: the teacher's choice is the same in training and play
        self.yardstick = stored_teacher(resolve_policy(teacher_name(self.game)).params)
        self.start_w = self._model(config.start, "start")
        # the teacher whose choice the samples mark: a start model's own (the one its network sees
        # in play), else --teacher or the yardstick for a new network
        if self.start_w is not None:
            self.teacher = model_teacher(self.start_w)
        else:
            self.teacher = self._teacher(config.teacher) if config.teacher else self.yardstick
        if config.late_from:
            self.start_w = with_late_of(self.start_w, self._model(config.late_from, "late-from"))
        self.opponent_w = self._model(config.opponent, "opponent")
        self.search = self._search(config.search)
        self.held = None             # the search's labels of held-out decisions (the curve's regret)
        self.window: list = []       # per step of the window: (dec_xs, row_dec, row_ai, row_av, row_y)

    def _model(self, path: str | None, role: str) -> np.ndarray | None:
        """The weights of the model file ``path`` for this game (None: none); TrainError if it
        cannot be used."""
        if path is None:
            return None
        try:
            return load_model(path, self.game)[0]
        except ModelError as e:
            raise TrainError(f"{role} model: {e}") from None

    def _teacher(self, name: str) -> np.void:
        """The settings of the hints policy ``name`` as a model keeps its teacher's; TrainError
        for another policy."""
        try:
            spec = resolve_policy(name)
        except PolicyError as e:
            raise TrainError(f"teacher: {e}") from None
        if spec.kernel is not hints_policy:
            raise TrainError(f"teacher: {name!r} is not a hints policy; give hints or hints:SETTINGS")
        return stored_teacher(spec.params_for(self.rules_arr))

    def _search(self, name: str | None) -> tuple[np.ndarray, np.ndarray] | None:
        """The labelling search's (parameters, seat weights): ``name``, an ``expert``, whose
        network is the start model (the value network after it where the search ends its
        roll-outs with it); TrainError for another policy."""
        if name is None:
            return None
        try:
            spec = resolve_policy(name)
        except PolicyError as e:
            raise TrainError(f"search: {e}") from None
        if spec.kernel != EXPERT_KERNEL or spec.cheats:
            raise TrainError(f"search: {name!r} is not a fair search; give expert or expert:SETTINGS")
        params = new_params(spec.params_for(self.rules_arr))
        if self.config.late_net:
            params["late"] = self.config.late_net       # it labels exactly the late network's decisions
        weights = self.start_w
        if params["leaf"]:
            weights = np.concatenate([weights, load_value_model()[0]])
        return params, weights

    # --- the run's identity, for --resume ----------------------------------------------------
    def identity(self) -> dict:
        """What must match for a checkpoint to be resumed: everything but the number of steps
        (a finished run can be resumed with more)."""
        config = {k: v for k, v in asdict(self.config).items()
                  if k != "steps" and not (k in ("teacher", "late_from") and v is None)}   # older runs resume
        return {"version": STATE_VERSION, "game": self.game, "rules": self.rules.describe(), "config": config}

    def new_state(self) -> TrainState:
        """Step 0: the start model's weights (its teacher's bonus unless ``hint_bonus`` is
        given), or fresh ones from the seed (without the teacher's input: its feature's weights
        and its bonus 0, so that it has no effect in play)."""
        c = self.config
        if self.start_w is not None:
            w = self.start_w.copy()
            if c.hint_bonus is not None:
                w[O_HINT_BONUS] = c.hint_bonus / self.scale
        else:
            bonus = c.hint_bonus
            bonus = DEFAULT_HINT_BONUS[self.game] if bonus is None else bonus
            w = init_weights(np.random.default_rng([c.seed, 0]), self.teacher, bonus / self.scale)
        if not c.teacher_input:
            row = O_W1 + (N_STATE + AF_HINT) * N_H1
            w[row:row + N_H1] = 0.0
            w[O_HINT_BONUS] = 0.0
        if c.late_net and late_block(w)[0] < 0:
            w = with_late_net(w, c.late_net, np.random.default_rng([c.seed, 2]))
        elif c.late_net:
            w[N_WEIGHTS + 1] = c.late_net            # the start's late network, for these decisions
        rollout = self.start_w.copy() if c.rollout_start else None
        return TrainState(0, w, np.zeros_like(w), np.zeros_like(w), 0, [], rollout, [], 0.0, 0, 0)

    # --- one step ------------------------------------------------------------------------------
    def label(self, step: int, behaviour: np.ndarray | None, state: TrainState):
        """The samples of step ``step``, played by ``behaviour`` (None: the teacher)."""
        c = self.config
        roll = state.rollout if state.rollout is not None and (c.rollout_start or step >= c.net_rollouts > 0) else None
        chunks = _chunks(step * c.hands, c.hands, 250)
        backend = open_backend(self.threads)
        try:
            keep = 0.0 if c.late_net else c.keep      # a late network's run labels only its decisions
            futures = [backend.submit(label_task, self.rules_arr,
                                      LabelRun(self.rules.is_rubicon, np.uint64(c.seed), s, n, c.eps, keep,
                                               self.scale, c.teacher_input),
                                      behaviour, roll, self.opponent_w, self.teacher, self.search)
                       for s, n in chunks]
            parts = [wait_for(f) for f in futures]
        finally:
            backend.close()
        return _concat(parts)

    def fit(self, step: int, state: TrainState) -> float:
        """Fit the network to the window's samples; returns the last pass's mean loss."""
        c = self.config
        xs = np.concatenate([p[0] for p in self.window])
        offsets = np.cumsum([0] + [p[0].shape[0] for p in self.window[:-1]])
        row_dec = np.concatenate([p[1] + off for p, off in zip(self.window, offsets)])
        ai = np.concatenate([p[2] for p in self.window])
        av = np.concatenate([p[3] for p in self.window])
        y = np.concatenate([p[4] for p in self.window])
        order = np.random.default_rng([c.seed, step, 1]).permutation(y.shape[0])[:c.fit_rows]
        state.t, loss = fit_epoch((state.w, state.m, state.v), state.t, Samples(xs, row_dec, ai, av, y), order,
                                  c.batch, c.lr, self.dealt)
        return float(loss)

    def evaluate(self, w: np.ndarray) -> tuple[float, float, float]:
        """The network against the yardstick (teacher_name(game)) on held-out deals, seats
        swapped: mean result per deal (points per hand; Rubicon net game points) with its 95 % interval."""
        c = self.config
        chunks = _chunks(0, c.eval_deals, 100)
        backend = open_backend(self.threads)
        try:
            futures = [backend.submit(_match_task, self.rules_arr, self.rules.is_rubicon,
                                      c.seed + EVAL_SEED_OFFSET, s, n, w, self.yardstick) for s, n in chunks]
            diffs = np.concatenate([wait_for(f) for f in futures])
        finally:
            backend.close()
        mean = float(diffs.mean())
        half = 1.96 * float(diffs.std(ddof=1)) / np.sqrt(diffs.size) if diffs.size > 1 else float("nan")
        return mean, mean - half, mean + half

    def search_gain(self, w: np.ndarray) -> tuple[float, float]:
        """At the decisions the search labels in held-out hands (the eval's deals played by the
        search over the round's model, every action given every sample so that no label is
        biased by pruning; labelled once a run): how much more the search values the network's
        choice than the round's model's, in points (Rubicon: game points) per decision, and the
        share of decisions where the network makes the search's choice."""
        if self.held is None:
            c = self.config
            run = LabelRun(self.rules.is_rubicon, np.uint64(c.seed + EVAL_SEED_OFFSET), 0,
                           max(c.eval_deals // HELD_SHARE, 1), 0.0, 0.0, self.scale, c.teacher_input)
            params, weights = self.search
            params = new_params(params)
            params["prune_z"] = 0.0
            samples, picks = _labelled(self.rules_arr, run, self.start_w, self.start_w, None, self.teacher,
                                       (params, weights))
            gaps = np.zeros(picks.shape[0])
            self.held = (Samples(*samples), picks,
                         decision_regret(self.start_w, Samples(*samples), picks, gaps, self.dealt)[0])
        samples, picks, start_regret = self.held
        regret, agree = decision_regret(w, samples, picks, np.zeros(picks.shape[0]), self.dealt)
        return float(start_regret - regret) * self.scale, float(agree)

    def run(self, resume: bool = False) -> TrainState:
        """Train to ``config.steps`` steps (from the checkpoint in ``out`` with ``resume``)."""
        c = self.config
        state = self.resume() if resume else self.start()
        self.advance(min(state.step, c.steps))
        while state.step < c.steps:
            check_stop()
            t0 = time.monotonic()
            k = state.step
            behaviour = None if k == 0 and self.start_w is None else state.w.copy()
            part = self.label(k, behaviour, state)
            self.window.append(part)
            state.played.append(behaviour)
            del self.window[:-c.window]
            del state.played[:-c.window]
            loss = self.fit(k, state)
            state.step = k + 1
            if c.net_rollouts > 0 and state.step == c.net_rollouts:
                state.rollout = state.w.copy()
            state.hands_played += c.hands
            state.samples += int(part[4].shape[0])
            row = {"step": state.step, "hands": state.hands_played, "samples": state.samples,
                   "decisions": int(part[0].shape[0]), "loss": loss}
            if c.eval_deals > 0 and (state.step % c.eval_every == 0 or state.step == c.steps):
                mean, lo, hi = self.evaluate(state.w)
                row.update(vs_teacher=mean, vs_teacher_lo=lo, vs_teacher_hi=hi)
                if self.search is not None:
                    gain, agree = self.search_gain(state.w)
                    row.update(search_gain=gain, search_agree=agree)
            state.seconds += time.monotonic() - t0
            row["seconds"] = round(state.seconds, 1)
            state.curve.append(row)
            self.save(state)
            self.say(_step_text(row, c.steps, self.game))
            self.advance(1)
        return state

    # --- files ---------------------------------------------------------------------------------
    def start(self) -> TrainState:
        """A new run: TrainError if ``out`` holds another run's state."""
        if (self.out / CHECKPOINT).exists():
            raise TrainError(f"{self.out} holds a training run already: give --resume to continue it, "
                             "or another --out")
        self.out.mkdir(parents=True, exist_ok=True)
        return self.new_state()

    def resume(self) -> TrainState:
        """The run in ``out`` at its last checkpoint, its window's samples played again."""
        path = self.out / CHECKPOINT
        if not path.is_file():
            raise TrainError(f"{self.out}: no checkpoint to resume ({CHECKPOINT} is missing)")
        try:
            with np.load(path, allow_pickle=False) as z:
                ident = json.loads(str(z["identity"]))
                meta = json.loads(str(z["meta"]))
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError, KeyError) as e:
            raise TrainError(f"{path}: not a readable checkpoint ({type(e).__name__}: {e})") from None
        if ident != self.identity():
            raise TrainError(f"{path} was made by another run (other rules, settings or version); "
                             "resume it with the same arguments, or train into another --out")
        played = [arrays[f"played_{i}"] if f"played_{i}" in arrays else None for i in range(meta["n_played"])]
        state = TrainState(meta["step"], arrays["w"].copy(), arrays["m"].copy(), arrays["v"].copy(), meta["t"],
                           played, arrays["rollout"].copy() if "rollout" in arrays else None, meta["curve"],
                           meta["seconds"], meta["hands_played"], meta["samples"])
        first = state.step - len(played)
        self.say(f"resuming at step {state.step}: playing the last {len(played)} steps' samples again")
        for i, behaviour in enumerate(played):
            self.window.append(self.label(first + i, behaviour, state))
        return state

    def save(self, state: TrainState) -> None:
        """The checkpoint, the current model, the learning curve (each written atomically)."""
        meta = {"step": state.step, "t": state.t, "n_played": len(state.played), "curve": state.curve,
                "seconds": state.seconds, "hands_played": state.hands_played, "samples": state.samples}
        arrays = {"w": state.w, "m": state.m, "v": state.v}
        arrays.update({f"played_{i}": p for i, p in enumerate(state.played) if p is not None})
        if state.rollout is not None:
            arrays["rollout"] = state.rollout

        def write(tmp):
            with open(tmp, "wb") as f:
                np.savez(f, identity=np.array(json.dumps(self.identity())), meta=np.array(json.dumps(meta)),
                         **arrays)

        atomic_write(self.out / CHECKPOINT, write)
        atomic_write(self.out / MODEL, lambda tmp: save_model(tmp, state.w, self.game, self.training_facts(state)))

    def training_facts(self, state: TrainState) -> dict:
        """What a model file says about the run that made it."""
        c = self.config
        last = next((r for r in reversed(state.curve) if "vs_teacher" in r), None)
        start = f"{Path(c.start).parent.name}/{Path(c.start).name}" if c.start else ""
        late = f" for a late network of {c.late_net} cards" if c.late_net else ""
        how = (f"expert iteration over {start} (labels by {c.search}{late}), " if c.rollout_start and c.search
               else f"a round of policy iteration over {start}, " if c.rollout_start
               else f"from {start}, " if c.start else "")
        how += f"best response to {Path(c.opponent).parent.name}/{Path(c.opponent).name}, " if c.opponent else ""
        how += "no teacher input, " if not c.teacher_input else ""
        how += f"taught by {c.teacher}, " if c.teacher else ""
        how += f"the late network of {Path(c.late_from).parent.name}/{Path(c.late_from).name}, " if c.late_from else ""
        summary = (f"{how}seed {c.seed}, {state.step} steps, {state.hands_played:,} hands"
                   + (f", {last['vs_teacher']:+.1f} vs {teacher_name(self.game)} at step {last['step']}" if last else ""))
        return {"summary": summary, "rules": self.rules.describe(), "config": asdict(c), "steps": state.step,
                "hands": state.hands_played, "samples": state.samples, "seconds": round(state.seconds, 1)}


def with_late_of(main: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The model ``main`` with the late network of the model ``other`` (its main network, teacher
    and bonus kept); TrainError if ``other`` has none."""
    if late_block(other)[0] < 0:
        raise TrainError("late-from model: it has no late network")
    return np.concatenate([main[:N_WEIGHTS], other[N_WEIGHTS:]])


def teacher_name(game: str) -> str:
    """The hints policy a network is trained from and measured against: the tuned H1..H8 of the
    shipped models' training (``hints:tuned-<game>`` until H9..H13 were found, kept as
    ``-h8`` so that training reproduces them)."""
    return f"hints:tuned-{game}-h8"


def _step_text(row: dict, steps: int, game: str) -> str:
    text = (f"step {row['step']}/{steps}: {row['hands']:,} hands, {row['samples']:,} samples, "
            f"loss {row['loss']:.4f}, {row['seconds']:.0f} s")
    if "vs_teacher" in row:
        text += (f"; against {teacher_name(game)} {row['vs_teacher']:+.1f} "
                 f"[{row['vs_teacher_lo']:+.1f}, {row['vs_teacher_hi']:+.1f}]")
    if "search_gain" in row:
        text += (f"; at the search's held-out decisions {row['search_gain']:+.2f} points a decision over the "
                 f"round's model by the search's values, its choice {row['search_agree']:.1%} of the time")
    return text


def _chunks(start: int, total: int, size: int) -> list[tuple[int, int]]:
    """(start, count) pieces of ``total`` hands from ``start``; the cut never depends on threads."""
    return [(start + s, min(size, total - s)) for s in range(0, total, size)]


def _seat(weights: np.ndarray | None) -> SeatData:
    """A seat of the training's kernels: a network (None: the teacher), working memory."""
    return SeatData(NO_WEIGHTS if weights is None else weights, seat_work(True))


def label_task(rules_arr, run: LabelRun, behaviour, roll, opponent, teacher, search=None):
    """One chunk of labelled hands (learning/rollouts.label_chunk), trimmed: the learner's seats
    play ``behaviour`` (None: the teacher), its roll-outs ``roll`` (None: the teacher), the other
    seat ``opponent`` (None: none, self-play); ``search`` (parameters, seat weights) labels and
    plays the decisions it searches (None: none)."""
    return _labelled(rules_arr, run, behaviour, roll, opponent, teacher, search)[0]


def _labelled(rules_arr, run: LabelRun, behaviour, roll, opponent, teacher, search):
    """:func:`label_task`'s samples, and each decision's row of the search's choice (-1: a
    decision labelled by roll-outs)."""
    cap_d = run.count * 64 if not run.rubicon else run.count * 160
    cap_d = max(int(cap_d * (1.0 if search is not None else run.keep) * 1.5) + 64, 64)
    cap_r = cap_d * ROWS_PER_DECISION
    out = Samples(np.zeros((cap_d, N_STATE), np.float32), np.zeros(cap_r, np.int64),
                  np.zeros((cap_r, MAX_ACTION_NZ), np.int8), np.zeros((cap_r, MAX_ACTION_NZ), np.float32),
                  np.zeros(cap_r, np.float32))
    srch = Search(new_params(), _seat(None)) if search is None else \
        Search(search[0], SeatData(search[1], seat_work(True)))
    picks = np.full(cap_d, -1, np.int64)
    nd, nr = label_chunk(rules_arr, run, Players(_seat(behaviour), _seat(roll), _seat(opponent), teacher), srch, out,
                         picks)
    return (out.dec_xs[:nd].copy(), out.row_dec[:nr].copy(), out.row_ai[:nr].copy(), out.row_av[:nr].copy(),
            out.row_y[:nr].copy()), picks[:nd].copy()


def _match_task(rules_arr, rubicon, seed, start, count, w, opponent):
    out = np.zeros(count)
    match_chunk(rules_arr, rubicon, np.uint64(seed), start, count, w, opponent, out)
    return out


def _concat(parts):
    """The chunks' samples as one step's arrays (row_dec re-based)."""
    offsets = np.cumsum([0] + [p[0].shape[0] for p in parts[:-1]])
    return (np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] + off for p, off in zip(parts, offsets)]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]),
            np.concatenate([p[4] for p in parts]))
