"""A Rubicon game's score (R3.9) and the score unit's truncation, over engine/game_score.py's kernels."""
from __future__ import annotations

import numpy as np

from .engine.game_score import DRAW, rubicon_game, rubicon_games
from .engine.game_score import truncate as _truncate
from .rules import preset

GAME_FIELDS = ("winner", "points", "rubicon", "brisques_saved", "brisques_broke_tie")


def _rubicon_array(rules):
    return (rules or preset("rubicon")).to_array()


def truncate(points: int, rules=None) -> int:
    """``points`` without the fractions of the rule set's score unit (R3.9: 1290 -> 1200)."""
    return int(_truncate(_rubicon_array(rules), points))


def rubicon_result(totals, brisques, last_trick_winner=None, rules=None) -> dict:
    """Score one Rubicon game (R3.9, Laws 56-61) for two players (``rules``: the Rubicon
    preset unless given; its limit, bonuses, minimums and score unit).

    ``totals`` are the hand totals without brisques (the last trick's 50 included),
    ``brisques`` the brisque points each won. ``last_trick_winner`` decides nothing (a tie in
    totals and brisques is a draw, Law 61); it is accepted so that older calls still work.
    Returns ``winner`` (0 or 1; None when the game is drawn, null and void),
    ``points`` (the winner's game score; 0 for a draw), ``rubicon`` (the loser was
    rubiconed), ``brisques_saved`` (the player who lost on totals is under 1000 but reaches
    it with his brisques) and ``brisques_broke_tie`` (the totals were equal, the brisques
    were not).
    """
    values = rubicon_game(_rubicon_array(rules), int(totals[0]), int(totals[1]), int(brisques[0]),
                          int(brisques[1]))
    out = dict(zip(GAME_FIELDS, values))
    out["winner"] = None if out["winner"] == DRAW else int(out["winner"])
    for key in GAME_FIELDS[2:]:
        out[key] = bool(out[key])
    return out


def rubicon_results(totals, brisques, last_trick_winner=None, rules=None) -> dict:
    """:func:`rubicon_result` over many games (arrays [n, 2], [n, 2]; ``last_trick_winner``
    is not needed, as there): a dict of arrays, ``winner`` -1 for a drawn game (its
    ``points`` 0)."""

    t = np.ascontiguousarray(totals, dtype=np.int64)
    b = np.ascontiguousarray(brisques, dtype=np.int64)
    out = np.zeros((len(t), len(GAME_FIELDS)), np.int64)
    rubicon_games(_rubicon_array(rules), t, b, out)
    return {key: out[:, k].astype(bool) if k >= 2 else out[:, k] for k, key in enumerate(GAME_FIELDS)}
