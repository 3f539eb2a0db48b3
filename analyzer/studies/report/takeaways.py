"""What a player can use, first: at most six sentences in plain words, each with its 95 %
interval and the section of the report that shows it (``[…](#anchor)``), in a fixed order of
interest — the hints worth having against strong play, how strongly strong play beats the
rulebook's hints, double bézique, the brisques, the seats, the length of a game (Rubicon: the
rubicon and the game score). Each takeaway comes from the study's tables; one whose table the
study has not (no strong play, no head to head) is left out."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ...numbers import difference, points, share
from ...tables.band_table import COSTING, WORTH, worth_verdicts
from ...words import hint_name
from ..play.compare import points_unit

MAX_TAKEAWAYS = 6

# the report's sections a takeaway links to: (anchor, heading); the anchors are the headings'
# ids in report.md on GitHub and in report.html alike (lower case, spaces as hyphens)
HINT_WORTH = "the-hints-worth-against-strong-play"
HEAD_TO_HEAD = "head-to-head"
DOUBLE_BEZIQUE = "double-bézique"
BRISQUES = "brisques"
SEATS = "scores-and-seats"
GAME_LENGTH = "hands-to-reach-1000-1500-2000"
RUBICONS = "rubicons"


@dataclass(frozen=True)
class Takeaway:
    """One finding in a sentence, and the anchor of the section that shows it."""

    text: str
    anchor: str

    def markdown(self) -> str:
        """The sentence with a link to its section."""
        return f"{self.text} ([see below](#{self.anchor}))"


def _who(st) -> tuple[str, str]:
    """(the pairing the figures come from, how a sentence names it): strong play's self-play
    when the study has it, else its first self-play pairing."""
    if st.strong is not None:
        return st.headline, "under strong play"
    label = next((k for k in st.results if k.split(" vs ")[0] == k.split(" vs ")[1]), next(iter(st.results)))
    return label, f"in {label}"


def hint_takeaway(st) -> Takeaway | None:
    """The hint most worth having against the strong player, and the one that costs most."""
    df = st.tables.get("hint_worth")
    if df is None or not len(df):
        return None
    unit = points_unit(st.rules)
    said = pd.Series(worth_verdicts(df), index=df.index)          # the verdict the chart draws
    best = df[said == WORTH].sort_values("mean_diff", ascending=False)
    worst = df[said == COSTING].sort_values("mean_diff")
    parts = []
    if len(best):
        r = best.iloc[0]
        parts.append(f"{_capital(hint_name(r.hint))} is the hint most worth having against strong play: "
                     f"{difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)} {unit}")
    if len(worst):
        r = worst.iloc[0]
        parts.append(f"{hint_name(r.hint)} costs most, {points(-r.mean_diff, -r.mean_diff_hi, -r.mean_diff_lo)} "
                     f"{unit}")
    if not parts:
        r = df.loc[df.mean_diff.abs().idxmax()]
        return Takeaway(f"No hint of the rulebook can be told from nothing against strong play in these deals "
                        f"(the largest, {hint_name(r.hint)}: {difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)} "
                        f"{unit}).", HINT_WORTH)
    return Takeaway(_capital("; ".join(parts)) + ".", HINT_WORTH)


def strength_takeaway(st) -> Takeaway | None:
    """How much the strongest player of the head-to-head table beats the rulebook's hints by."""
    pw = st.tables.get("pairwise")
    if pw is None:
        return None
    strong = st.strong.policy if st.strong is not None else pw.policy_a.iloc[0]
    rows = pw[(pw.policy_a == strong) & (pw.policy_b == "hints")]
    if not len(rows):
        rows = pw[pw.policy_a == strong]
    if not len(rows):
        return None
    r = rows.iloc[0]
    who = f"Strong play ({strong})" if st.strong is not None else f"Head to head, {strong}"
    what = "the rulebook's hints" if r.policy_b == "hints" else r.policy_b
    verb = "beats" if r.mean_diff_lo > 0 else "loses to" if r.mean_diff_hi < 0 else "cannot be told from"
    things = "games" if st.rules.is_rubicon else "hands"
    return Takeaway(f"{who} {verb} {what} by {difference(r.mean_diff, r.mean_diff_lo, r.mean_diff_hi)} "
                    f"{points_unit(st.rules)}, taking {share(r.score_a, r.score_a_lo, r.score_a_hi)} of the "
                    f"{things}, draws counted half.", HEAD_TO_HEAD)


def double_bezique_takeaway(st) -> Takeaway | None:
    """How often a player scores a double bézique, and receives its cards, against the exact chance."""
    label, where = _who(st)
    db = st.tables["double_bezique"].set_index("policy")
    policy = label.split(" vs ")[0]
    if policy not in db.index:
        return None
    r = db.loc[policy]
    games = "games" if st.rules.is_rubicon else "hands"
    return Takeaway(f"{_capital(where)} a player scores a double bézique in "
                    f"{share(r.scored_double, r.scored_double_lo, r.scored_double_hi)} of {games}; its four "
                    f"cards reach him in {share(r.received_double, r.received_double_lo, r.received_double_hi)} "
                    f"(a blind share of the pack: {share(r.received_double_exact)}).",
                    DOUBLE_BEZIQUE)


def brisque_takeaway(st) -> Takeaway | None:
    """What a brisque won goes with, in the hand's margin (Rubicon: in game points)."""
    label, where = _who(st)
    b = st.tables["brisques"].set_index("pairing")
    if label not in b.index:
        return None
    r = b.loc[label]
    per = points(r.margin_per_brisque, r.margin_per_brisque_lo, r.margin_per_brisque_hi)
    if st.rules.is_rubicon:
        return Takeaway(f"{_capital(where)} each brisque won goes with {per} net game points more for its "
                        f"winner; counting brisques changes the winner in "
                        f"{share(r.winner_changes, r.winner_changes_lo, r.winner_changes_hi)} of games.", BRISQUES)
    return Takeaway(f"{_capital(where)} each brisque won moves the hand's margin by {per} points (20 its "
                    f"own); counting brisques changes the winner in "
                    f"{share(r.winner_changes, r.winner_changes_lo, r.winner_changes_hi)} of hands.", BRISQUES)


def seat_takeaway(st) -> Takeaway | None:
    """What leading first (the eldest hand) is worth, both seats pooled."""
    label, where = _who(st)
    seat = st.tables["seat_advantage"]
    seat = seat[seat.pairing == label]
    if not len(seat):
        return None
    v, lo, hi = (seat[k].mean() for k in ("eldest_minus_dealer", "eldest_minus_dealer_lo", "eldest_minus_dealer_hi"))
    unit = "points" if not st.rules.is_rubicon else "points of the game's total"
    if lo <= 0 <= hi:
        return Takeaway(f"{_capital(where)} leading first (the eldest hand) makes no measurable difference: "
                        f"{difference(v, lo, hi)} {unit} against the dealer.", SEATS)
    if v < 0:
        return Takeaway(f"{_capital(where)} leading first (the eldest hand) costs {points(-v, -hi, -lo)} {unit} "
                        "against the dealer.", SEATS)
    return Takeaway(f"{_capital(where)} leading first (the eldest hand) is worth {difference(v, lo, hi)} {unit} "
                    "against the dealer.", SEATS)


def game_takeaway(st) -> Takeaway | None:
    """Ordinary: the hands a game to 1,000 takes; Rubicon: the rubicon rate and the winner's score."""
    label, where = _who(st)
    if st.rules.is_rubicon:
        rub = st.tables["rubicon"].set_index("pairing")
        if label not in rub.index:
            return None
        r = rub.loc[label]
        return Takeaway(f"{_capital(where)} the loser is rubiconed (under 1,000 even with his brisques) in "
                        f"{share(r.rubicon_rate, r.rubicon_rate_lo, r.rubicon_rate_hi)} of games, and the "
                        f"winner scores {points(r.winner_game_score, r.winner_game_score_lo, r.winner_game_score_hi)} "
                        "game points.", RUBICONS)
    gl = st.tables["game_length"]
    gl = gl[(gl.policy == label.split(" vs ")[0]) & (gl.target == 1000)]
    if not len(gl):
        return None
    r = gl.iloc[0]
    return Takeaway(f"{_capital(where)} a game to 1,000 points takes "
                    f"{points(r.mean_hands, r.mean_hands_lo, r.mean_hands_hi)} hands.", GAME_LENGTH)


ORDER = (hint_takeaway, strength_takeaway, double_bezique_takeaway, brisque_takeaway, seat_takeaway, game_takeaway)


def takeaways(st) -> list[Takeaway]:
    """The study's takeaways, at most MAX_TAKEAWAYS, in ORDER."""
    found = [t for t in (f(st) for f in ORDER) if t is not None]
    return found[:MAX_TAKEAWAYS]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
