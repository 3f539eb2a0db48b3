"""``bezique tune``: the hint weights searched by CMA-ES (:mod:`analyzer.studies.hints.cmaes`), each candidate
playing an opponent on common deals with the seats swapped, on the parallel backend; then a
confirmation on deals the search never saw, against hand-set ``hints`` and a strong player.
"""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...policies.params import HINT_NAMES
from ...policies.presets import PRESET_VERSION, load_preset, preset_names
from ...policies.spec import PolicyError, resolve_policy
from ...rules import RuleSet
from ...run.driver import run_chunks
from ...run.task import RunTask, check_policies, check_run
from ..play.compare import PairTally, compare_pair, play_pair
from .cmaes import (
    DEAL_CHUNK,
    DEALS0,
    MAX_WEIGHT,
    MIN_BUDGET,
    SearchState,
    TuneError,
    best_weights,
    generation_seed,
    search,
)


def tunable(rules: RuleSet) -> tuple[str, ...]:
    """The hints whose weights the search moves: all of them in Rubicon; in the ordinary game
    all but H7, which only acts in Rubicon (its weight would be a flat direction)."""
    return HINT_NAMES if rules.is_rubicon else tuple(h for h in HINT_NAMES if h != "H7")


def candidate_name(weights, names) -> str:
    """The policy name of a weight vector: ``hints:h1=0.8312,h2=1.2`` (4 decimals, so that a
    Dask worker resolves exactly the policy the search scored)."""
    return "hints:" + ",".join(f"{h.lower()}={w:.4f}" for h, w in zip(names, weights))


def tune_chunk(task: RunTask, start: int, count: int):
    """Items ``start`` .. ``start + count - 1`` of a generation (``task.policies``: the
    candidates, then their opponent): item i is candidate i // ``task.deal_chunks`` on its
    (i % ``task.deal_chunks``)-th chunk of deals, against the opponent with the seats swapped.
    Returns [(candidate, PairTally)]. A RunTask's play."""
    *candidates, opponent = task.policies
    out = []
    for i in range(start, start + count):
        k, j = divmod(i, task.deal_chunks)
        out.append((k, play_pair(task, candidates[k], opponent, j * DEAL_CHUNK, DEAL_CHUNK)))
    return out


class GenerationTotals:
    """A generation's tallies, one PairTally per candidate."""

    def __init__(self, k: int):
        self.tallies = [PairTally() for _ in range(k)]

    def merge(self, items) -> None:
        """Add one chunk's (candidate, PairTally) items."""
        for k, t in items:
            self.tallies[k].add(t)


def play_objective(rules: RuleSet, names: tuple[str, ...], opponent, seed: int, threads):
    """The objective of :func:`analyzer.studies.hints.cmaes.search`: each candidate's mean advantage per deal
    over ``opponent`` (points per hand; Rubicon: net game points per game), all candidates on
    the generation's deals."""
    def objective(weights: np.ndarray, deals: int, generation: int):
        cands = tuple(resolve_policy(candidate_name(w, names)) for w in weights)
        n_chunks = deals // DEAL_CHUNK
        task = RunTask(tune_chunk, rules, generation_seed(seed, generation), (*cands, opponent), deal_chunks=n_chunks)
        acc = run_chunks(task, len(cands) * n_chunks, 1, GenerationTotals(len(cands)), threads)
        stats = np.array([t.mean_diff() for t in acc.tallies])
        return stats[:, 0], stats[:, 1], stats[:, 2], 2 * deals * len(cands)
    return objective


@dataclass
class TuneResult:
    """A finished tuning: the search state, the tuned weights (every hint), the names of the
    hints searched, and the confirmation rows (tuned against hints and the strong player)."""

    rules: RuleSet
    opponent: str
    seed: int
    budget: int
    state: SearchState
    names: tuple[str, ...]
    weights: dict[str, float]
    confirmation: list[dict]
    command: str = ""
    start: str | None = None
    switched_off: list[str] = field(default_factory=list)   # by the pass after the search (switch_off)

    def preset(self) -> dict:
        """The tuned weights as a named, versioned preset (``hints:tuned-<variant>``)."""
        return {"name": f"tuned-{self.rules.name}", "version": PRESET_VERSION, "variant": self.rules.name,
                "weights": self.weights, "searched": list(self.names), "opponent": self.opponent,
                "seed": self.seed, "budget": self.budget, "hands_spent": self.state.hands,
                "generations": len(self.state.generations), "start": self.start,
                "switched_off": self.switched_off, "command": self.command,
                "confirmation": self.confirmation}


def check_request(rules: RuleSet, policy: str, opponent: str, budget: int, confirm_deals: int = 0,
                  expert_deals: int = 0) -> None:
    """TuneError for what cannot be tuned: another policy than ``hints`` (the only one with
    weights), a game of more than two players, a budget below MIN_BUDGET hands, a negative
    confirmation, an opponent that is no policy or cannot play these rules."""
    if policy != "hints":
        raise TuneError(f"--policy {policy}: only hints has weights to tune (H1..H8)")
    if rules.players != 2:
        raise TuneError(f"{rules.name} has {rules.players} players: tuning plays two-handed games")
    if not MIN_BUDGET <= budget <= 10**12:
        raise TuneError(f"--budget must be from {MIN_BUDGET:,} to 10^12 hands, got {budget:,}")
    if confirm_deals < 0 or expert_deals < 0:
        raise TuneError("--confirm and --confirm-expert take 0 or more deals")
    try:
        check_policies(rules, [opponent], by_seat=False)
    except PolicyError as e:
        raise TuneError(str(e)) from None


def start_weights(names: tuple[str, ...], start: str | None) -> np.ndarray:
    """The search's first mean for the hints ``names``: the weights of the stored preset
    ``start`` (``tuned-ordinary-h8``), a hint it does not name at 1; every hint at 1 (as
    written) without one. TuneError for a preset that is not stored."""
    if start is None:
        return np.ones(len(names))
    try:
        weights = load_preset(start)["weights"]
    except KeyError:
        raise TuneError(f"--start {start}: no such preset; stored: {', '.join(preset_names())}") from None
    return np.array([min(float(weights.get(h, 1.0)), MAX_WEIGHT) for h in names])


def switch_off(objective, weights: np.ndarray, names: tuple[str, ...], deals: int, generation: int):
    """``weights`` with the hints switched off that the search could not: several hints act as
    switches (any weight above 0 is fully on: H1's declaration order, H6, H8's and H13's leads),
    and CMA-ES reaches 0 only at the edge of [0, MAX_WEIGHT]. Each hint is tried at 0 beside the
    answer on ``deals`` deals (the search's last generation's number; beyond its budget) of
    ``generation`` (after the search's last); those scoring above the
    answer by more than half its interval are switched off together, and kept so if together
    they beat the answer on the next generation's deals. Returns (weights, the hints switched
    off, hands played)."""
    on = [k for k in range(len(names)) if weights[k] > 0]
    trials = np.array([weights] + [np.where(np.arange(len(names)) == k, 0.0, weights) for k in on])
    mean, lo, hi, spent = objective(trials, deals, generation)
    off = [k for k, m in zip(on, mean[1:]) if m - mean[0] > (hi[0] - lo[0]) / 2]
    if not off:
        return weights, [], spent
    both = np.array([weights, np.where(np.isin(np.arange(len(names)), off), 0.0, weights)])
    mean, _lo, _hi, more = objective(both, deals, generation + 1)
    if mean[1] <= mean[0]:
        return weights, [], spent + more
    return both[1], [names[k] for k in off], spent + more


def tune(rules: RuleSet, opponent: str, budget: int, seed: int, out: Path | None = None,
         threads: int | None = None, progress: Callable[[int], object] | None = None,
         confirm_deals: int = 50_000, expert_deals: int = 0, stop_after: int | None = None,
         command: str = "", start: str | None = None) -> TuneResult | None:
    """Search the hint weights of ``hints`` against ``opponent`` with ``budget`` hands (seed
    ``seed``), from the weights of the preset ``start`` (:func:`start_weights`), then confirm
    the answer on the deals of ``seed`` itself, never used by the search: ``confirm_deals``
    deals against hand-set hints and against ``opponent`` when it is another policy, and
    ``expert_deals`` against ``expert`` (0: none). With ``out`` the search keeps its state in
    ``out/.tune/`` and a rerun resumes it. ``stop_after`` stops after that many generations
    and returns None (tests)."""
    check_request(rules, "hints", opponent, budget, confirm_deals, expert_deals)
    try:
        opp, = check_run(rules, [opponent], seed, threads, by_seat=False)
    except PolicyError as e:
        raise TuneError(str(e)) from None
    names = tunable(rules)
    x0 = start_weights(names, start) / MAX_WEIGHT
    state_path = Path(out) / ".tune" / "state.pkl" if out else None
    if state_path:
        _check_resume(state_path.parent, rules, opponent, budget, seed, start)
    state = search(play_objective(rules, names, opp, seed, threads), len(names), x0, budget, seed,
                   state_path, progress, stop_after)
    if stop_after is not None:
        return None
    weights, off, extra = switch_off(play_objective(rules, names, opp, seed, threads), best_weights(state), names,
                                     state.generations[-1].deals if state.generations else DEALS0,
                                     len(state.generations))
    if progress:
        progress(extra)
    tuned = dict(zip(HINT_NAMES, [1.0] * len(HINT_NAMES)))
    tuned.update({h: round(float(w), 4) for h, w in zip(names, weights)})
    spec = resolve_policy(candidate_name(tuned.values(), HINT_NAMES))
    rows = []
    against = [("hints", confirm_deals)] + ([(opponent, confirm_deals)] if opponent != "hints" else [])
    for other, deals in (*against, ("expert", expert_deals)):
        if deals:
            r = compare_pair(rules, spec, resolve_policy(other), deals, seed, threads).row()
            rows.append({"against": other, **{k: v for k, v in r.items() if k not in ("policy_a", "policy_b")}})
    return TuneResult(rules, opponent, seed, budget, state, names, tuned, rows, command, start, off)


def forget_search(out) -> bool:
    """Remove the search state kept in ``out/.tune`` (a new search starts over); True if there
    was one."""
    folder = Path(out) / ".tune"
    if not folder.exists():
        return False
    shutil.rmtree(folder)
    return True


def _check_resume(folder: Path, rules: RuleSet, opponent: str, budget: int, seed: int,
                  start: str | None) -> None:
    """A saved search in ``folder`` must be of the same request (rules, opponent, budget,
    seed, start); the request is written there on the first run."""
    request = {"rules": rules.describe(), "opponent": opponent, "budget": budget, "seed": seed, "start": start}
    path = folder / "request.json"
    if path.exists():
        saved = json.loads(path.read_text())
        if saved != request:
            differ = sorted(k for k in request if saved.get(k) != request[k])
            raise TuneError(f"{folder} holds a search with other arguments ({', '.join(differ)}); "
                            "use another --out or the same arguments")
    else:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(request, indent=1))

