"""The rulebook's hints against strong play (``bezique hints``).

Strong players (``learned``, ``expert``, self-play and against each other) play hands; at each of
their decisions with a choice the hints (``hints``, each as the rulebook describes it, weight 1;
or a preset such as ``hints:tuned-ordinary``) are asked too, with each hint on and off in turn,
the others as they are. A hint **applies** at a decision where switching it off changes the
hints' choice: there it prefers its choice (on: its weight, or 1 where the preset's is 0) to the
one made without it. The strong player **agrees** when it makes the hint's choice, **breaks** it
when it makes the choice without the hint, and otherwise does a third thing.

Where a hint applies, a search values the actions involved on the same sampled worlds
(``expert``'s search with the learned player's roll-outs, every action every sample, every
decision searched: VALUER): what following the hint is worth against the choice without it, and,
where the strong player does not follow it, what following it would cost against the strong
player's own choice. Values are points per ordinary hand, net game points per Rubicon game.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...engine import layout as L
from ...engine.batch import deal_hand
from ...engine.hand import apply, is_over, legal_actions, observe, to_act
from ...engine.policy_data import new_params
from ...engine.state import new_state
from ...policies.hints import hints_policy
from ...policies.params import HINT_NAMES
from ...policies.spec import resolve_policy
from ...rules import RuleSet
from ...run.records import policy_arrays
from ...tables.stats import mean_ci, wilson_ci

PAIRINGS = (("learned", "learned"), ("expert", "learned"), ("expert", "expert"))
KINDS = {L.D_LEAD: "lead", L.D_FOLLOW: "follow", L.D_MELD: "declare", L.D_CARTE: "carte blanche",
         L.D_CLAIM: "claim"}
VALUER = "expert:prior=0,rollout=learned,late=0,prune=0,samples={samples}"
ROW_COLUMNS = ["pairing", "pairing_index", "hand", "seat", "player", "hint", "stage", "kind", "talon_left",
               "agrees", "breaks", "gain", "gain_se", "cost", "cost_se"]
ALL_SEATS_PUBLIC = 0b1111          # every seat's public record filled (the search samples from it)


@dataclass(frozen=True)
class HintStudy:
    """What one study plays: the strong pairings, hands per pairing, the seed, the search's
    samples per valued decision."""

    pairings: tuple = PAIRINGS
    hands: int = 100
    seed: int = 1
    samples: int = 16
    base: str = "hints"      # the hints asked: the rulebook's as described (each weight 1), or a preset


def _value_scale(rules: RuleSet) -> float:
    """Search values (endgame.final_value) in the units the project reports: ordinary points; in
    Rubicon the winner's game score, which is half a net game point difference."""
    return 2.0 if rules.is_rubicon else 1.0


@dataclass
class Decision:
    """A strong player's decision with a choice: where it was, what it saw, what it did."""

    pairing: tuple
    pairing_index: int
    hand: int
    seat: int
    obs: np.ndarray          # the seat's observation, its public record filled
    legal: np.ndarray        # the legal actions
    rng: np.ndarray          # the seat's random stream before it chose (a heuristic asked here takes a copy)
    action: int              # what the strong player did

    def where(self) -> dict:
        """The decision's columns of a study's rows."""
        return dict(pairing=" vs ".join(self.pairing), pairing_index=self.pairing_index, hand=self.hand,
                    seat=self.seat, player=self.pairing[self.seat % len(self.pairing)],
                    stage=int(self.obs[L.OBS_STAGE]), kind=KINDS.get(int(self.obs[L.OBS_DECISION]), "other"),
                    talon_left=int(self.obs[L.OBS_TALON_LEFT]))


def strong_decisions(rules: RuleSet, study: HintStudy, progress=None):
    """Every decision with a choice of the study's strong pairings, hand by hand (``progress``
    called with 1 after each hand), as :class:`Decision`."""
    arr = rules.to_array()
    for p_index, pairing in enumerate(study.pairings):
        players = policy_arrays([resolve_policy(name) for name in pairing], arr)
        for hand in range(study.hands):
            st = _dealt(arr, study.seed, hand)
            while not is_over(st):
                nleg, _plays = legal_actions(arr, st)
                if nleg == 1:
                    apply(arr, st, st.legal[0])
                    continue
                s = to_act(st)
                observe(arr, st, s)
                obs, legal, rng = st.obs[s].copy(), st.legal[:nleg].copy(), st.rngs[s].copy()
                a = int(players.policies[s](st.obs[s], st.legal, nleg, arr, players.params[s], st.rngs[s],
                                            players.seats[s]))
                yield Decision(pairing, p_index, hand, s, obs, legal, rng, a)
                apply(arr, st, a)
            if progress is not None:
                progress(1)


class Valuer:
    """The study's search (VALUER): the values of a few actions at a decision on the same
    sampled worlds, in the project's units, each sample a row."""

    def __init__(self, rules: RuleSet, samples: int, seed: int):
        arr = rules.to_array()
        self.arr, self.samples, self.seed, self.calls = arr, samples, seed, 0
        self.players = policy_arrays([resolve_policy(VALUER.format(samples=samples))], arr)
        self.scale = _value_scale(rules)
        from ...policies.expert import search  # minutes to compile: only when a study runs
        self._search = search

    def values(self, d: Decision, actions) -> dict:
        """{action: its values over the samples} for the ``actions`` of decision ``d``."""
        acts = np.array(sorted(set(int(a) for a in actions)), np.int32)
        self.calls += 1
        rng = np.array([(self.seed * 1_000_003 + d.hand * 4099 + self.calls) % 2**63], np.uint64)
        _best, vals = self._search(self.arr, d.obs, acts, len(acts), self.players.params[d.seat], rng,
                                   (self.samples, 0.0), self.players.seats[d.seat])
        return {int(a): self.scale * vals[:, i] for i, a in enumerate(acts)}


def play_study(rules: RuleSet, study: HintStudy, analyses, progress=None) -> list:
    """Play the study's strong hands once, give each decision to every one of ``analyses``
    (each with ``take(decision)`` and ``frame()``), and return their frames in order."""
    for d in strong_decisions(rules, study, progress):
        for analysis in analyses:
            analysis.take(d)
    return [analysis.frame() for analysis in analyses]


class HintRows:
    """The hints study's analysis (:func:`decision_rows`), one decision at a time."""

    def __init__(self, rules: RuleSet, study: HintStudy):
        self.arr = rules.to_array()
        base = policy_arrays([resolve_policy(study.base)], self.arr)
        self.params, self.data = base.params[0], base.seats[0]
        self.valuer = Valuer(rules, study.samples, study.seed)
        self.rows, self.decisions = [], 0

    def take(self, d: Decision) -> None:
        """A row for each hint that changes the hints' choice at ``d``."""
        self.decisions += 1
        a = d.action
        choices = _hint_choices(d.obs, d.legal, self.arr, self.params, self.data, d.rng)
        applied = [(k, on, off) for k, (on, off) in enumerate(choices) if off != on]
        if not applied:
            return
        v = self.valuer.values(d, [a, *[x for _k, on, off in applied for x in (on, off)]])
        for k, on, off in applied:
            gain = v[on] - v[off]
            cost = v[a] - v[on]
            self.rows.append(dict(d.where(), hint=HINT_NAMES[k], agrees=a == on, breaks=a == off,
                                  gain=gain.mean(), gain_se=_se(gain), cost=cost.mean(), cost_se=_se(cost)))

    def frame(self) -> pd.DataFrame:
        """The rows so far (:func:`decision_rows`)."""
        df = pd.DataFrame(self.rows, columns=ROW_COLUMNS)
        df.attrs["decisions"] = self.decisions
        return df


def decision_rows(rules: RuleSet, study: HintStudy, progress=None) -> pd.DataFrame:
    """One row per (decision, hint that applies there) of the study's hands: the pairing, the
    strong player, stage, decision kind, cards left to draw, whether it agrees with the hint or
    breaks it, and the search's paired means (with their standard errors) of following the hint
    against not (``gain``) and of the strong choice against the hint's (``cost``, 0 where it
    agrees). ``attrs["decisions"]``: the strong players' decisions with a choice."""
    return play_study(rules, study, [HintRows(rules, study)], progress)[0]


def _dealt(arr, seed, hand):
    """Hand ``hand`` of seed ``seed`` dealt as the batch kernel deals it, every seat's public
    record asked for."""
    st = new_state(False)
    deal_hand(arr, st, np.uint64(seed), hand, np.zeros(L.MAX_TALON, np.int32), np.zeros(1, np.uint64))
    st.G[L.G_FULL_OBS] = ALL_SEATS_PUBLIC
    return st


def _hint_choices(obs, legal, arr, params, data, rng):
    """Per hint, the hints' action with it on (its weight, or 1 where it is 0) and off, the
    others as in ``params`` (the same random stream for every call)."""
    n = len(legal)
    out = []
    for k in range(len(HINT_NAMES)):
        p = new_params(params)
        p["hint"][k] = params["hint"][k] if params["hint"][k] > 0 else 1.0
        on = int(hints_policy(obs, legal, n, arr, p, rng.copy(), data))
        p["hint"][k] = 0.0
        out.append((on, int(hints_policy(obs, legal, n, arr, p, rng.copy(), data))))
    return out


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def hint_table(rows: pd.DataFrame, decisions: int) -> pd.DataFrame:
    """Per hint, over all its decisions and split by stage and decision kind: how many decisions
    it applies at (and their share of the ``decisions`` with a choice), the strong players'
    agreement and breaking shares (Wilson 95 % intervals), the worth of following it against
    not (``gain``) and, at the decisions where the strong player did not follow it, what
    following it would cost (``cost_of_following``: the strong choice's value over the hint's),
    each a mean over decisions with a 95 % interval."""
    out = []
    for hint in HINT_NAMES:
        h = rows[rows.hint == hint] if len(rows) else rows
        out.append(_summary(h, hint, "all", "all", decisions))
        if len(h):
            for (stage, kind), g in h.groupby(["stage", "kind"]):
                out.append(_summary(g, hint, str(stage), kind, decisions))
    return pd.DataFrame(out)


def _summary(g: pd.DataFrame, hint: str, stage: str, kind: str, decisions: int) -> dict:
    n = len(g)
    row = dict(hint=hint, stage=stage, kind=kind, applies=n, applies_share=n / max(decisions, 1))
    agree = int(g.agrees.sum()) if n else 0
    broken = int(g.breaks.sum()) if n else 0
    for key, k in (("agree", agree), ("break", broken)):
        share, lo, hi = wilson_ci(k, n) if n else (np.nan, np.nan, np.nan)
        row.update({key: float(share), f"{key}_lo": float(lo), f"{key}_hi": float(hi)})
    for key, x in (("gain", g.gain if n else []), ("cost_of_following", g.cost[~g.agrees] if n else [])):
        x = np.asarray(x, float)
        if len(x) > 1:
            mean, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x))
        else:
            mean = lo = hi = np.nan
        row.update({key: float(mean), f"{key}_lo": float(lo), f"{key}_hi": float(hi), f"{key}_n": len(x)})
    return row
