"""A dealt hand's value (``bezique value``): the hand given (analyzer/given_deal.py), the other seat's
cards and the talon dealt fairly, played out by strong play at every seat; the given seat's
expected margin (ordinary: points per hand; Rubicon: net game points per game) and its share of
hands won, each with a 95 % interval; written as value.csv/.parquet and run.json (:func:`write_value`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...given_deal import DealError, GivenDeal, dealing
from ...numbers import difference, share
from ...policies.spec import model_for
from ...rules import RuleSet
from ...tables.stats import mean_ci, wilson_ci
from ..files import write_files
from ..play.compare import points_unit, seat_points
from ..play.simulate import simulate

VALUE_HANDS = {"ordinary": 20_000, "rubicon": 5_000}     # seconds of learned self-play on two cores


@dataclass(frozen=True)
class HoldingValue:
    """What :func:`holding_value` measured: the given hand, the policy at every seat, the hands
    and seed, the seat's mean margin with its interval, and its share of hands won and tied."""

    given: GivenDeal
    policy: str
    hands: int
    seed: int
    unit: str
    margin: tuple[float, float, float]      # mean, low, high
    won: tuple[float, float, float]         # share, low, high
    tied: float


def holding_value(rules: RuleSet, hold: str | None = None, seat: int = 0, turn_up: str | None = None,
               hands: int | None = None, seed: int = 1, policy: str = "learned", threads: int | None = None,
               progress=None) -> HoldingValue:
    """Return the value of the hand ``hold`` dealt to ``seat`` (and the turn-up ``turn_up``; none
    of them: the hand an enclosing :func:`analyzer.given_deal.given_deal` gives) under ``policy`` at
    every seat: ``hands`` hands (default VALUE_HANDS of the game) dealt with it, the rest
    fairly. The margin is the seat's points less the best other seat's. DealError when no hand
    is given."""
    hands = value_hands(rules, hands)
    with dealing(rules, hold, seat, turn_up) as given:
        if given is None:
            raise DealError('give the hand to value: --hold "CARDS" (and --seat, --turn-up; in Python hold=, seat=, '
                            "turn_up=)")
        res = simulate(rules, [policy] * rules.players, hands, seed, threads=threads, progress=progress,
                       keep_records=True)
    pts = seat_points(rules, res.records)
    mine = pts[:, given.seat]
    best_other = np.delete(pts, given.seat, axis=1).max(1)
    margin = (mine - best_other).astype(float)
    mean, lo, hi = (float(v) for v in mean_ci(margin.sum(), (margin ** 2).sum(), len(margin)))
    won = int((margin > 0).sum())
    share, wlo, whi = (float(v) for v in wilson_ci(won, len(margin)))
    return HoldingValue(given, policy, hands, seed, points_unit(rules), (mean, lo, hi), (share, wlo, whi),
                     float((margin == 0).mean()))


def value_hands(rules: RuleSet, hands: int | None = None) -> int:
    """The hands :func:`holding_value` plays: ``hands``, or by default VALUE_HANDS of the game."""
    return hands or VALUE_HANDS[model_for(rules)]


def value_record(v: HoldingValue) -> dict:
    """The value as JSON: the hand given, the policy, hands and seed, the unit, the margin and the
    share of hands won with their 95 % intervals, and the share tied."""
    (mean, lo, hi), (won, wlo, whi) = v.margin, v.won
    return {"given": v.given.describe(), "policy": v.policy, "hands": v.hands, "seed": v.seed, "unit": v.unit,
            "margin": {"mean": mean, "lo": lo, "hi": hi}, "won": {"share": won, "lo": wlo, "hi": whi},
            "tied": v.tied}


def value_table(v: HoldingValue) -> pd.DataFrame:
    """The value as a table, a row per figure (``margin``, ``won``, ``tied``): its ``value``, the
    95 % interval (``lo``, ``hi``; none for ``tied``) and its ``unit`` (a share: a fraction 0 to 1)."""
    (mean, lo, hi), (won, wlo, whi) = v.margin, v.won
    return pd.DataFrame([{"figure": "margin", "value": mean, "lo": lo, "hi": hi, "unit": v.unit},
                         {"figure": "won", "value": won, "lo": wlo, "hi": whi, "unit": "share"},
                         {"figure": "tied", "value": v.tied, "lo": np.nan, "hi": np.nan, "unit": "share"}]).set_index("figure")


def write_value(v: HoldingValue, rules: RuleSet, out, threads: int | None = None) -> list:
    """Write the value (value.csv, value.parquet: :func:`value_table`) and run.json (the rules and
    :func:`value_record`) into ``out``; returns the files written."""
    return write_files(out, threads, {"value": value_table(v)}, rules=rules.describe(), value=value_record(v))


def format_value(v: HoldingValue) -> str:
    """The value as the terminal shows it."""
    told = v.given.describe()
    up = f", {told['turn_up']} turned up" if told["turn_up"] else ""
    return (f"seat {v.given.seat} dealt {told['hold'] or 'no card named'}{up} (the rest fairly), {v.policy} at every "
            f"seat, {v.hands:,} hands, seed {v.seed}:\n"
            f"  expected margin {difference(*v.margin)} {v.unit}\n"
            f"  {'games' if 'game' in v.unit else 'hands'} won {share(*v.won)} (tied {share(v.tied)})")
