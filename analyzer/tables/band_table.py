"""The headline figures under strong play as a band: each figure per strong player (their
self-play) and the band over them, with a verdict on whether the figure is the same for every
strong player or differs between them, built from a study's tables.

The verdicts the report says and draws come from here, one function each, so that the words and
the charts cannot disagree: a band figure's (:func:`figure_verdict`, over :func:`verdict`) and a
hint's worth against the strong player (:func:`worth_verdict`). What ``bezique study strongest``
found of the strongest player beside the band is shipped beside this module (strongest.json,
:func:`strongest_beside`)."""
from __future__ import annotations

import hashlib
import itertools
import json
import math
from pathlib import Path

import pandas as pd

NEAR = 0.05      # "agree": every two players' difference within ±5 % of the figure
# (key, what it is, unit, game: "both" / "ordinary" / "rubicon")
FIGURES = (
    ("mean_total", "mean total per seat", "points", "both"),
    ("received_double", "receives the cards of a double bézique", "share of seat-hands", "both"),
    ("scored_double", "scores a double bézique", "share of seat-hands", "both"),
    ("margin_per_brisque", "margin per brisque won", "points", "both"),
    ("hands_to_1000", "hands to reach 1,000 points", "hands", "ordinary"),
    ("rubicon_rate", "games ending in a rubicon", "share of games", "rubicon"),
    ("winner_game_score", "the winner's game score", "game points", "rubicon"),
)
# a band figure's verdict in words, by its key in the table's ``verdict`` column
SAME = f"the same for every strong player, within {100 * NEAR:.0f} %"
DIFFERS = f"differs between strong players by more than {100 * NEAR:.0f} %"
OPEN = "not settled by these hands"
VERDICTS = {"game": SAME, "players": DIFFERS, "open": OPEN}
# a hint's worth in words, by what its 95 % interval says
WORTH = "worth having"
COSTING = "costing"
UNTOLD = "not told apart from nothing"
NEVER = "never changing a deal's result here"
STRONGEST_FILE = Path(__file__).with_name("strongest.json")   # written by bezique study strongest


def is_share(unit: str) -> bool:
    """Whether a band figure's unit is a share (a fraction, shown in per cent)."""
    return unit.startswith("share")


def band_figures(rubicon: bool) -> list[tuple[str, str, str]]:
    """(key, what, unit) of the band's figures for a game."""
    game = "rubicon" if rubicon else "ordinary"
    return [(k, what, unit) for k, what, unit, g in FIGURES if g in ("both", game)]


def player_figures(tables: dict, player: str, rubicon: bool) -> dict[str, tuple[float, float, float]]:
    """(value, lo, hi) of each band figure for ``player``'s self-play, from a study's tables."""
    pairing = f"{player} vs {player}"
    summary = tables["summary"][tables["summary"].pairing == pairing]
    # both seats of one self-play: their mean, its interval the mean of theirs (which allows
    # for any correlation between the seats)
    out = {"mean_total": tuple(float(summary[c].mean()) for c in ("mean_score", "mean_score_lo", "mean_score_hi"))}
    db = tables["double_bezique"].set_index("policy").loc[player]
    for key in ("received_double", "scored_double"):
        out[key] = (float(db[key]), float(db[key + "_lo"]), float(db[key + "_hi"]))
    b = tables["brisques"].set_index("pairing").loc[pairing]
    out["margin_per_brisque"] = tuple(float(b[c]) for c in ("margin_per_brisque", "margin_per_brisque_lo",
                                                           "margin_per_brisque_hi"))
    if rubicon:
        r = tables["rubicon"].set_index("pairing").loc[pairing]
        for key in ("rubicon_rate", "winner_game_score"):
            out[key] = (float(r[key]), float(r[key + "_lo"]), float(r[key + "_hi"]))
    else:
        gl = tables["game_length"]
        r = gl[(gl.policy == player) & (gl.target == 1000)]
        # too few hands to finish one game to 1,000: no estimate (the verdict then says "open")
        out["hands_to_1000"] = ((float(r.mean_hands.iloc[0]), float(r.mean_hands_lo.iloc[0]),
                                 float(r.mean_hands_hi.iloc[0])) if len(r) else (math.nan,) * 3)
    return out


def tolerance(estimates: list[tuple[float, float, float]], near: float = NEAR) -> float:
    """How far two players' estimates (value, lo, hi) of one figure may differ and still agree:
    ``near`` (5 %) of the figure's mean over the players, in the figure's unit."""
    return near * abs(sum(v for v, _lo, _hi in estimates) / len(estimates))


def verdict(estimates: list[tuple[float, float, float]], near: float = NEAR) -> str:
    """Whether players' estimates (value, lo, hi) of one figure agree: "game" when every two
    players' difference has its 95 % interval (the half-widths added in quadrature) inside
    ±``near`` of the figure's mean, "players" when some two differ surely by more than that
    (the interval of their difference outside it), else "open" (more hands would tell).
    Two players may thus differ surely and still agree: by less than 5 % of the figure."""
    scale = tolerance(estimates, near)
    inside, outside = True, False
    for (a, alo, ahi), (b, blo, bhi) in itertools.combinations(estimates, 2):
        d = a - b
        half = math.hypot((ahi - alo) / 2, (bhi - blo) / 2)
        inside &= abs(d) + half <= scale
        outside |= abs(d) - half > scale
    return "game" if inside else "players" if outside else "open"


def open_at(estimates: list[tuple[float, float, float]], narrow: list[float], near: float = NEAR) -> bool:
    """Whether the verdict on ``estimates`` (value, lo, hi) would still be "open" with each
    interval narrowed around its value by its factor in ``narrow`` (as more hands would narrow
    it, the values staying where they are)."""
    return verdict([(v, v - (v - lo) * f, v + (hi - v) * f) for (v, lo, hi), f in zip(estimates, narrow)],
                   near) == "open"


def band_needs_more(band: pd.DataFrame, hands: int, first: int, near: float = NEAR) -> bool:
    """Whether the band's other players, having played ``first`` of the headline player's
    ``hands`` hands, should play all of them: some figure of ``band`` (:func:`band_table`; its
    first player the headline one) is "open" now and would be settled with their intervals
    narrowed to ``hands`` hands (by sqrt(first / hands), their values where they are). A figure
    already settled, or that more hands would leave open, needs no more."""
    for key in dict.fromkeys(band.figure):
        rows = band[band.figure == key]
        est = estimates(rows)
        if verdict(est, near) == "open":
            narrow = [1.0] + [math.sqrt(first / hands)] * (len(est) - 1)
            if not open_at(est, narrow, near):
                return True
    return False


def estimates(rows: pd.DataFrame) -> list[tuple[float, float, float]]:
    """(value, lo, hi) of each player in one figure's rows of :func:`band_table`."""
    return list(zip(rows.value.astype(float), rows.value_lo.astype(float), rows.value_hi.astype(float)))


def figure_verdict(rows: pd.DataFrame, near: float = NEAR) -> str:
    """One band figure's verdict in words (:data:`SAME`, :data:`DIFFERS` or :data:`OPEN`), from
    its rows of :func:`band_table` (:func:`verdict`): what the report's text and its chart say."""
    return VERDICTS[verdict(estimates(rows), near)]


def worth_verdict(lo: float, hi: float) -> str:
    """A hint's worth in words from its 95 % interval (``lo``, ``hi``): :data:`WORTH` when the
    interval is above zero, :data:`COSTING` when below, :data:`NEVER` when it is 0 [0, 0] (no
    deal played otherwise without the hint), else :data:`UNTOLD` (touching zero included)."""
    if lo == 0 and hi == 0:
        return NEVER
    return WORTH if lo > 0 else COSTING if hi < 0 else UNTOLD


def worth_verdicts(df: pd.DataFrame) -> list[str]:
    """:func:`worth_verdict` of each row of a hints' worth table (``mean_diff_lo``, ``mean_diff_hi``)."""
    return [worth_verdict(lo, hi) for lo, hi in zip(df.mean_diff_lo, df.mean_diff_hi)]


def band_table(tables: dict, players: list[str], rubicon: bool, near: float = NEAR) -> pd.DataFrame:
    """Per band figure: each strong player's estimate with its 95 % interval (columns
    ``<player>``, ``<player>_lo``, ``<player>_hi`` in long form: one row per figure and
    player) and the deals of its self-play it rests on, the band (the lowest and highest
    estimate) and the verdict (:func:`verdict`)."""
    est = {p: player_figures(tables, p, rubicon) for p in players}
    summary = tables["summary"]
    deals = {p: int(summary[summary.pairing == f"{p} vs {p}"].hands.iloc[0]) for p in players}
    rows = []
    for key, what, unit in band_figures(rubicon):
        values = [est[p][key] for p in players]
        v = verdict(values, near)
        lo, hi = min(x[0] for x in values), max(x[0] for x in values)
        for p, (value, vlo, vhi) in zip(players, values):
            rows.append({"figure": key, "what": what, "unit": unit, "player": p, "deals": deals[p], "value": value,
                         "value_lo": vlo, "value_hi": vhi, "band_lo": lo, "band_hi": hi, "verdict": v,
                         "verdict_text": VERDICTS[v]})
    return pd.DataFrame(rows)


def file_fingerprint(path: Path) -> str:
    """The SHA-256 of the file at ``path``, its first 16 hex digits: which network a figure was
    measured with."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def band_models(game: str, players: list[str]) -> dict[str, str]:
    """Each of the package's strong ``players`` of ``game`` (``learned``, ``learned:player=N``)
    -> the SHA-256 of its model file (its first 16 hex digits), so that what was measured of a
    band is said only of the same networks; returns {} if a player is not a shipped one."""
    from ..policies.learned import shipped_model, shipped_player_number   # here: the tables load no engine
    files = {}
    for name in players:
        number = shipped_player_number(name)
        path = None if number is None else shipped_model(game, number)
        if path is None or not path.is_file():
            return {}
        files[name] = file_fingerprint(path)
    return files


def shipped_strongest() -> dict:
    """What ``bezique study strongest`` last shipped (:data:`STRONGEST_FILE`): game -> its record
    (:func:`strongest_beside`); returns {} where there is none or it cannot be read."""
    try:
        return json.loads(STRONGEST_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def strongest_beside(game: str, players: list[str]) -> dict | None:
    """What ``bezique study strongest`` measured of the strongest player's self-play beside the
    band of ``players`` in ``game`` (shipped as :data:`STRONGEST_FILE`): a dict of ``strongest``
    (its name), ``deals``, ``unit`` (games or hands), ``seed``, ``models`` (:func:`band_models`
    when measured) and ``figures`` (key -> {``what``, ``where``: "inside", "above, clear of it",
    ...}); returns None where that band was not measured, or not with the networks shipped now."""
    got = shipped_strongest().get(game)
    if not got or got["players"] != list(players) or got.get("models") != band_models(game, players):
        return None
    return got
