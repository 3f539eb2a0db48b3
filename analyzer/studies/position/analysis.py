"""Position analysis: every legal action of the seat to act, valued by the expert's search.

A position is a replay file's deal with a prefix of its moves played. In the first stage each
action is played out on the same ``samples`` assignments of the unseen cards (policies.expert):
its mean final value for the seat to act with a 95 % interval over the samples, and its chance
of winning the hand. By default the samples are played out by the learned player at both seats
(the strongest roll-out, docs/search.md), and in the last window of the first stage (the last
card to draw and the turn-up left) each sample is solved exactly instead. In a two-handed second
stage every card is known and the values are exact (engine.endgame). Values are the final margin in points (ordinary) or net game points (Rubicon,
R3.9), for the seat to act.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...actions import action_str
from ...engine import api
from ...engine import layout as L
from ...engine.endgame import solve_actions
from ...engine.rng import stream_state
from ...engine.single import Deal, run_single
from ...errors import BeziqueError
from ...hands.handlog import violation_message
from ...hands.replay_file import HandSpec, RuleViolation, load_replay
from ...policies.expert import in_last_window, search
from ...policies.params import ROLLOUT_NAMES
from ...policies.spec import PolicyError, resolve_policy
from ...run.records import policy_arrays

DEFAULT_SAMPLES = 400
DEFAULT_ROLLOUT = "learned"
ROLLOUTS = (*ROLLOUT_NAMES, "tuned")      # tuned: the tuned hints of the position's game
MAX_SAMPLES = 100_000     # per action: more is memory, not precision
Z95 = 1.959963984540054
DECISIONS = {L.D_LEAD: "lead", L.D_FOLLOW: "follow", L.D_MELD: "declaration window",
             L.D_CARTE: "carte blanche", L.D_CLAIM: "claim of the game"}


class AnalysisError(BeziqueError, ValueError):
    """A position that cannot be analysed (the hand is over, --at out of range)."""


@dataclass
class ActionValue:
    """One legal action: its mean value for the seat to act with a 95 % interval, its chance
    of winning (a value of 0, e.g. a drawn Rubicon game, R3.9, counts half), and how far it is
    behind the best action (paired over the same samples, so much tighter than the two
    intervals suggest)."""

    action: str
    code: int
    mean: float
    lo: float
    hi: float
    win: float
    behind: float = 0.0
    behind_lo: float = 0.0
    behind_hi: float = 0.0


@dataclass
class Analysis:
    """The legal actions of the seat to act after ``moves`` moves, best first."""

    seat: int
    decision: str
    moves: int
    exact: bool
    samples: int
    unit: str
    actions: list = field(default_factory=list)
    method: str = ""        # how the values were found (the search's configuration)

    def to_dict(self) -> dict:
        """A JSON-ready dict (``bezique analyze --json``)."""
        return {"seat": self.seat, "decision": self.decision, "moves_played": self.moves,
                "exact": self.exact, "samples": self.samples, "unit": self.unit, "method": self.method,
                "actions": [vars(a) for a in self.actions]}


def position(spec: HandSpec, at: int | None = None):
    """The hand of ``spec`` after its first ``at`` moves (all of them when None), stopped at the
    next decision: (rules array, HandState, moves played)."""
    n_moves = len(spec.moves)
    at = n_moves if at is None else at
    if not 0 <= at <= n_moves:
        raise AnalysisError(f"--at must be between 0 and {n_moves} (the moves in the file), got {at}")
    arr = spec.rules.to_array()
    hold = np.zeros((1, L.S_W), np.int32)
    hold[0, 0] = L.S_HOLD                    # stop at the next decision, even a declaration window
    script = np.vstack([np.array(spec.moves[:at], dtype=np.int32).reshape(-1, L.S_W), hold])
    players = policy_arrays([resolve_policy("random")], arr)       # (unused by a script)
    st = run_single(arr, Deal(spec.deck(), spec.dealer, spec.totals()), players, np.uint64(0), 0,
                    np.ascontiguousarray(script), at + 1)
    status = int(st.G[L.G_STATUS])
    if status == L.ST_ILLEGAL_SCRIPT:
        raise RuleViolation(violation_message(st.G, spec))
    if api.is_over(st):
        raise AnalysisError(f"the hand is over after {at} moves: nothing to decide")
    return arr, st, at


def search_spec(rollout: str, rules):
    """The expert's settings an analysis searches with: ``rollout`` plays each sample out
    (``tuned``: the tuned hints of the rules' game)."""
    if rollout not in ROLLOUTS:
        raise AnalysisError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
    if rollout == "tuned":
        rollout = "tuned-rubicon" if rules.is_rubicon else "tuned-ordinary"
    try:
        return resolve_policy(f"expert:plain,rollout={rollout}")     # every action, every sample
    except PolicyError as e:          # the learned rollout without an installed model
        raise AnalysisError(str(e)) from None


def analyze_position(spec: HandSpec, at: int | None = None, samples: int = DEFAULT_SAMPLES,
                     seed: int = 1, rollout: str = DEFAULT_ROLLOUT) -> Analysis:
    """Value every legal action of the seat to act after the first ``at`` moves of ``spec``
    (see the module docstring); ``samples`` determinizations (first stage), drawn from
    ``seed``; ``rollout`` the policy that plays each sample out (one of ROLLOUTS)."""
    if not 2 <= samples <= MAX_SAMPLES:
        raise AnalysisError(f"--samples must be from 2 (an interval needs two) to {MAX_SAMPLES:,}, got {samples}")
    searcher = search_spec(rollout, spec.rules)
    if spec.rules.players != 2:
        raise AnalysisError(f"analyze values two-handed positions (its search and exact second stage are "
                            f"two-handed); this hand has {spec.rules.players} players")
    arr, st, at = position(spec, at)
    me = api.to_act(st)
    n, _ = api.legal_actions(arr, st)
    legal = st.legal[:n].copy()
    st.G[L.G_FULL_OBS] |= 1 << me
    api.observe(arr, st, me)
    unit = "net game points" if spec.rules.is_rubicon else "points"
    dec = int(api.decision(st))
    exact = spec.rules.players == 2 and st.G[L.G_STAGE] == 2 and dec in (L.D_LEAD, L.D_FOLLOW)
    if exact:
        values = np.zeros(n, np.int64)
        solve_actions(arr, st, values)
        rows = [ActionValue(action_str(a), int(a), float(v), float(v), float(v),
                            1.0 if v > 0 else 0.5 if v == 0 else 0.0)
                for a, v in zip(legal, values)]
        used = 0
        method = "exact (every card is known)"
    else:
        rng = np.array([stream_state(np.uint64(seed), 0, 99)], np.uint64)
        obs = st.obs[me].copy()
        seat = searcher.new_seat(arr)
        _best, vals = search(arr, obs, legal, n, searcher.params_for(arr), rng, (samples, 0.0), seat)
        tail = in_last_window(obs, searcher.params_for(arr))
        method = (f"{samples} samples of the unseen cards, each solved exactly (the last window)" if tail
                  else f"{samples} samples of the unseen cards, each played out by {rollout} at both seats "
                       "(second stage exact)")
        used = len(vals)
        rows = []
        for i, a in enumerate(legal):
            v = vals[:, i]
            half = Z95 * v.std(ddof=1) / np.sqrt(used)
            win = float(np.mean(np.where(v > 0, 1.0, np.where(v == 0, 0.5, 0.0))))
            rows.append(ActionValue(action_str(a), int(a), float(v.mean()), float(v.mean() - half),
                                    float(v.mean() + half), win))
    if not exact:
        best = int(np.argmax(vals.mean(axis=0)))
        for i, r in enumerate(rows):
            d = vals[:, best] - vals[:, i]
            half = Z95 * d.std(ddof=1) / np.sqrt(used)
            r.behind, r.behind_lo, r.behind_hi = float(d.mean()), float(d.mean() - half), float(d.mean() + half)
    elif exact:
        top = max(r.mean for r in rows)
        for r in rows:
            r.behind = r.behind_lo = r.behind_hi = top - r.mean
    rows.sort(key=lambda r: -r.mean)
    return Analysis(me, DECISIONS.get(dec, str(dec)), at, bool(exact), used, unit, rows, method)


def analyze_file(path, at: int | None = None, samples: int = DEFAULT_SAMPLES, seed: int = 1,
                 rollout: str = DEFAULT_ROLLOUT) -> Analysis:
    """:func:`analyze_position` of the replay file at ``path`` (a prefix of a hand is enough)."""
    return analyze_position(load_replay(path), at, samples, seed, rollout)


def format_analysis(a: Analysis) -> str:
    """The analysis as a table, best action first."""
    how = "exact" if a.exact else "95% intervals"
    lines = [f"seat {a.seat} to act ({a.decision}) after {a.moves} moves; values in {a.unit} for "
             f"seat {a.seat}, {how}", f"values: {a.method}",
             f"{'action':<30} {'mean':>8} {'95% interval':>18} {'win':>6}  {'behind the best (paired)':>24}"]
    for r in a.actions:
        interval = "exact" if a.exact else f"[{r.lo:+.1f}, {r.hi:+.1f}]"
        behind = f"{r.behind:.1f}" if a.exact else f"{r.behind:.1f} [{r.behind_lo:.1f}, {r.behind_hi:.1f}]"
        lines.append(f"{r.action:<30} {r.mean:>+8.1f} {interval:>18} {r.win:>6.1%}  {behind:>24}")
    return "\n".join(lines)
