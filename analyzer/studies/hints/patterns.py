"""Where strong play parts from the tuned hints (``bezique hints --patterns``): the kinds of
decision at which the strong players choose otherwise than ``hints:tuned-GAME``, how often, and
the points each kind carries by a search's values — the raw material of new hints.

An action is named by its kind (hint_patterns.action_class): a card played by trump or plain
suit and rank (a brisque: ace or ten; a court card: king, queen, knave; a low card: nine, eight,
seven; the bézique cards Q♠ and J♦ by name), led, or following (winning the trick or not), from
the hand or the table; a declaration by its combination. A pattern is a (stage, decision kind,
the tuned hints' kind of action, the strong player's) with the decisions that show it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...cards import COMBO_NAMES
from ...engine import layout as L
from ...engine.carte import is_court
from ...engine.codes import JD, QS, card_suit, is_brisque, played_card
from ...engine.tricks import beats
from ...policies.hints import hints_policy
from ...policies.spec import model_for, resolve_policy
from ...rules import RuleSet
from ...run.records import policy_arrays
from ...tables.stats import interval_text, mean_ci
from .study import Decision, HintStudy, Valuer, _se, play_study

TOP = 12         # patterns a page lists
MIN_DECISIONS = 20   # ... each seen at this many decisions at least


def card_class(card: int, trump: int) -> str:
    """A card by kind: "the Q♠", "a trump brisque", "a plain low card" …"""
    if card in (QS, JD):
        return "the Q♠" if card == QS else "the J♦"
    kind = "brisque" if is_brisque(card) else "court card" if is_court(card) else "low card"
    return f"a {'trump' if trump >= 0 and card_suit(card) == trump else 'plain'} {kind}"


def action_class(obs: np.ndarray, a: int) -> str:
    """The kind of action ``a`` at the decision seen in ``obs`` (the module's docstring)."""
    kind = int(obs[L.OBS_DECISION])
    trump = int(obs[L.OBS_TRUMP])
    if kind in (L.D_LEAD, L.D_FOLLOW) and 0 <= a < 2 * L.A_PLAY_TABLE:
        card = int(played_card(a))
        where = " from the table" if a >= L.A_PLAY_TABLE else ""
        if kind == L.D_LEAD:
            return f"lead {card_class(card, trump)}{where}"
        wins = bool(beats(card, int(obs[L.OBS_BEST_CARD]), trump))
        return f"{'win' if wins else 'lose'} with {card_class(card, trump)}{where}"
    if a == L.A_STOP:
        return "declare nothing more"
    if a == L.A_EXCHANGE:
        return "exchange the seven"
    if L.A_DECLARE <= a < L.A_DECLARE + len(COMBO_NAMES):
        return f"declare {COMBO_NAMES[a - L.A_DECLARE]}"
    if L.A_CLAIM <= a < L.A_CLAIM + len(COMBO_NAMES):
        return f"claim {COMBO_NAMES[a - L.A_CLAIM]}"
    return {L.A_CARTE_BLANCHE: "show carte blanche", L.A_CLAIM_GAME: "claim the game"}.get(a, f"action {a}")


class Disagreements:
    """Where strong play parts from the tuned hints (:func:`disagreement_rows`), one decision at
    a time."""

    def __init__(self, rules: RuleSet, study: HintStudy):
        self.arr = rules.to_array()
        tuned = policy_arrays([resolve_policy(f"hints:tuned-{model_for(rules)}")], self.arr)
        self.params, self.data = tuned.params[0], tuned.seats[0]
        self.valuer = Valuer(rules, study.samples, study.seed)
        self.seat_hands = 2 * study.hands * len(study.pairings)
        self.rows, self.decisions = [], 0

    def take(self, d: Decision) -> None:
        """A row if the tuned hints, asked with the seat's stream as it was, choose otherwise."""
        self.decisions += 1
        t = int(hints_policy(d.obs, d.legal, len(d.legal), self.arr, self.params, d.rng.copy(), self.data))
        if t == d.action:
            return
        v = self.valuer.values(d, [d.action, t])
        gain = v[d.action] - v[t]
        self.rows.append(dict(d.where(), tuned=action_class(d.obs, t), strong=action_class(d.obs, d.action),
                              gain=gain.mean(), gain_se=_se(gain)))

    def frame(self) -> pd.DataFrame:
        """The rows so far (:func:`disagreement_rows`)."""
        df = pd.DataFrame(self.rows, columns=["pairing", "pairing_index", "hand", "seat", "player", "stage",
                                              "kind", "talon_left", "tuned", "strong", "gain", "gain_se"])
        df.attrs.update(decisions=self.decisions, seat_hands=self.seat_hands)
        return df


def disagreement_rows(rules: RuleSet, study: HintStudy, progress=None) -> pd.DataFrame:
    """One row per strong decision where the tuned hints (``hints:tuned-GAME``, asked with the
    seat's stream as it was) choose otherwise: where it was, both kinds of action and the
    search's paired mean (and standard error) of the strong choice over the tuned hints'
    (``gain``). ``attrs``: the decisions with a choice, and the seat-hands played."""
    return play_study(rules, study, [Disagreements(rules, study)], progress)[0]


def pattern_table(rows: pd.DataFrame, seat_hands: int) -> pd.DataFrame:
    """The disagreements grouped by (stage, decision kind, tuned hints' kind of action, strong
    player's): how many, their share of all disagreements, the strong choice's mean gain a
    decision with its 95 % interval, and what the pattern carries per seat-hand (the gains
    summed over its decisions, per seat-hand played), largest first."""
    out = []
    for (stage, kind, tuned, strong), g in rows.groupby(["stage", "kind", "tuned", "strong"]):
        x = g.gain.to_numpy(float)
        mean, lo, hi = mean_ci(x.sum(), (x * x).sum(), len(x)) if len(x) > 1 else (x.mean(), np.nan, np.nan)
        out.append(dict(stage=stage, kind=kind, tuned=tuned, strong=strong, decisions=len(x),
                        share=len(x) / max(len(rows), 1), gain=float(mean), gain_lo=float(lo), gain_hi=float(hi),
                        per_seat_hand=float(x.sum()) / max(seat_hands, 1)))
    cols = ["stage", "kind", "tuned", "strong", "decisions", "share", "gain", "gain_lo", "gain_hi", "per_seat_hand"]
    return pd.DataFrame(out, columns=cols).sort_values("per_seat_hand", ascending=False, ignore_index=True)


def patterns_markdown(table: pd.DataFrame, rows: pd.DataFrame, unit: str) -> str:
    """A section of ``hints.md``: the patterns that carry the most, one line each."""
    stage = {1: "first stage", 2: "second stage"}
    lines = ["", "## Where strong play parts from the tuned hints", "",
             f"At {len(rows):,} of {rows.attrs['decisions']:,} decisions the strong player chose otherwise than "
             f"the tuned hints; grouped by what each did, the {TOP} patterns of at least {MIN_DECISIONS} decisions "
             f"that carry the most ({unit} per seat-hand: the search's gain of the strong choice, summed over the "
             "pattern's decisions, per seat-hand played; `patterns.csv` has them all):", ""]
    for _, r in table[table.decisions >= MIN_DECISIONS].head(TOP).iterrows():
        lines.append(f"- {stage.get(r.stage, r.stage)}, {r.kind}: the tuned hints {r.tuned}, strong play "
                     f"{r.strong} — {r.decisions:,} decisions ({r.share:.1%}), {interval_text(r, 'gain')} a "
                     f"decision, {r.per_seat_hand:+.2f} per seat-hand")
    return "\n".join(lines) + "\n"
