"""A hand reviewed from one seat (``bezique review``), as a backgammon program reviews a match:
every decision of the seat with a choice valued by the search (the analysis of
:mod:`.analysis`, the same samples and seed), what the move played lost against the best with
its paired interval, each loss graded; then the hand's result told as what the cards gave, what
the play cost and what is left.

Grades (points of the hand's margin; Rubicon: net game points, ten times as many, as a Rubicon
game's stakes are about ten times an ordinary hand's): a loss is graded only when its paired
interval is above zero — the samples tell the move from the best — and then by its size:
an **inaccuracy** from 5 points (half a brisque: the smallest unit the score moves by that
a player notices), a **mistake** from 20 (a marriage, two brisques), a **blunder** from 50 (a
bézique or more). Below 5, or not told apart, a move is **good**.

Luck apart from skill: the value of the seat's expected margin under strong play at each of its
decisions (the best action's value) is what it holds then. Between two of its decisions the value
moves by what it did not choose: the cards it received (named) and the other seat's moves; at
its decisions it moves by what it chose (minus the loss). So a hand's result is: what the deal
gave (the value at the first decision), plus what came between the seat's decisions (the cards
and the other's play), minus what its play cost, plus what is left (the result against the
value of the move it played last). Luck has no skill in it and averages zero over many hands if
the values are right (``bezique study review`` measures that on learned self-play).

A loss is analyze's "behind the best" for the move played, paired over the same samples: what
each line shows and grades. Where several moves are close, the best of them on these samples
looks better than it is (the winner's curse), so the figures that add losses up — the loss per
decision and per hand, the cost of the play among the parts, the players' baselines — take each
decision's ``cost`` instead: the same shortfall measured apart from the samples that choose the
best (analysis.behind_the_choice), without that bias. The best's value in the parts is the
played move's plus that cost, so the parts of a result add up exactly."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...cards import card_str
from ...engine import api
from ...engine import layout as L
from ...hands.handlog import play_spec
from ...hands.replay_file import HandSpec
from ...hands.view import SeatView, draw_slots, last_card, load_record, walk, world
from ...numbers import count, difference, points
from ...rubicon_score import rubicon_result
from ...run.output import atomic_write, check_writable, write_json
from ...tables.markdown import shown_table
from ...tables.page import write_page
from ...tables.stats import Z95, mean_ci
from .analysis import (
    DEFAULT_ROLLOUT,
    DEFAULT_SAMPLES,
    PASSED,
    AnalysisError,
    analyze_position,
    played_action,
    position,
)

REVIEW_SAMPLES = DEFAULT_SAMPLES
BASELINES = Path(__file__).with_name("baselines.json")      # the players' losses (bezique study review)
GRADES = (("blunder", 50.0), ("mistake", 20.0), ("inaccuracy", 5.0))        # points of the margin (ordinary)
RUBICON_SCALE = 10.0                                                         # Rubicon: net game points


@dataclass
class Decision:
    """One decision of the reviewed seat with a choice: where it was (``move``: the moves played
    before it), what it was, the best action and its value, the action played and its value,
    the loss (analyze's "behind the best") with its interval, its grade, the cards the seat
    received since its previous decision, and the ``cost``: the loss measured apart from the
    samples that chose the best (the figure sums take; the best's value is played + cost)."""

    move: int
    decision: str
    best: str
    best_value: float
    played: str
    played_value: float
    loss: float
    loss_lo: float
    loss_hi: float
    grade: str
    exact: bool
    received: list = field(default_factory=list)
    stage: int = 1
    skip: int = 0           # decisions passed after ``move`` moves without a move (analysis.position)
    cost: float = 0.0       # the loss measured apart from the samples that choose the best: to add up

    @property
    def kind(self) -> str:
        """The kind of position, as the baselines are kept: the decision and the stage."""
        return f"{self.decision}, stage {self.stage}"

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return dict(vars(self))


@dataclass
class Review:
    """The reviewed seat's decisions, the hand's result and its parts (see the module docstring)."""

    variant: str
    seat: int
    unit: str
    samples: int
    seed: int
    decisions: list
    result: float | None
    deal: float = 0.0
    between: float = 0.0
    cost: float = 0.0
    left: float = 0.0

    @property
    def per_decision(self) -> tuple[float, float, float]:
        """The mean cost per decision with its 95 % interval (over the decisions)."""
        costs = np.array([d.cost for d in self.decisions], dtype=float)
        if len(costs) < 2:
            mean = float(costs.mean()) if len(costs) else 0.0
            return mean, mean, mean
        return tuple(float(x) for x in mean_ci(costs.sum(), (costs * costs).sum(), len(costs)))

    def costliest(self, n: int = 3) -> list:
        """The ``n`` decisions that lost the most."""
        return sorted(self.decisions, key=lambda d: -d.loss)[:n]

    def to_dict(self) -> dict:
        """A JSON-ready dict (``bezique review --json``)."""
        mean, lo, hi = self.per_decision
        return {"variant": self.variant, "seat": self.seat, "unit": self.unit, "samples": self.samples,
                "seed": self.seed, "result": self.result,
                "parts": {"deal": self.deal, "between": self.between, "cost": self.cost, "left": self.left},
                "loss_per_decision": {"mean": mean, "lo": lo, "hi": hi}, "loss_per_hand": self.cost,
                "decisions": [d.to_dict() for d in self.decisions]}


def grade(loss_lo: float, loss: float, rubicon: bool) -> str:
    """A loss's grade (GRADES; Rubicon's thresholds ten times as many): graded only when its
    paired interval is above zero."""
    if loss_lo <= 0:
        return "good"
    scale = RUBICON_SCALE if rubicon else 1.0
    return next((name for name, at in GRADES if loss >= at * scale), "good")


def review_record(record: HandSpec | SeatView, seat: int | None = None, samples: int = REVIEW_SAMPLES,
                  seed: int = 1, rollout: str = DEFAULT_ROLLOUT, progress=None) -> Review:
    """Review ``seat``'s decisions in ``record`` (a full record, or a seat's view: then its own
    seat); ``progress`` is called with 1 after each decision valued."""
    if isinstance(record, SeatView):
        if seat is not None and seat != record.seat:
            raise AnalysisError(f"a view of seat {record.seat} reviews seat {record.seat}, not {seat}")
        seat, spec = record.seat, world(record, seed)
    else:
        if seat is None or seat not in (0, 1):
            raise AnalysisError("a replay file holds both seats: say which to review, --seat 0 or --seat 1"
                                if seat is None else f"--seat must be 0 or 1, got {seat}")
        spec = record
    rubicon = spec.rules.is_rubicon
    decisions, had = [], []
    for at, skip, st in _decisions(spec):
        if api.to_act(st) != seat:
            continue
        drawn = _drawn(spec, seat, st)
        received, had = drawn[len(had):], drawn
        a = analyze_position(spec, at, samples, seed, rollout, skip)
        if progress:
            progress(1)
        if len(a.actions) < 2 or a.played is None:
            continue
        best, played = a.actions[0], next(r for r in a.actions if r.code == a.played)
        decisions.append(Decision(at, a.decision, best.words, played.mean + played.cost, played.words, played.mean,
                                  played.behind, played.behind_lo, played.behind_hi,
                                  grade(played.behind_lo, played.behind, rubicon), a.exact,
                                  [int(c) for c in received], a.position.stage, skip, played.cost))
    result = _result(spec, seat)
    return _parts(Review(spec.rules.name, seat, "net game points" if rubicon else "points", samples, seed,
                         decisions, result))


def review_file(record, seat: int | None = None, samples: int = REVIEW_SAMPLES, seed: int = 1,
                rollout: str = DEFAULT_ROLLOUT) -> Review:
    """Returns :func:`review_record` of ``record``: a replay file's or a seat's view's path, or a
    parsed HandSpec or SeatView (the package's ``review``)."""
    if not isinstance(record, (HandSpec, SeatView)):
        record = load_record(record)
    return review_record(record, seat, samples, seed, rollout)


def decisions_of(record: HandSpec | SeatView, seat: int | None = None) -> int:
    """How many decisions ``seat`` (a view: its own) made in ``record``: an upper bound on those
    the review values, for a progress bar."""
    seat = record.seat if isinstance(record, SeatView) else seat
    return sum(1 for row in record.moves if row[1] == seat) + len(record.moves) // 4 + 1


def write_review(r: Review, out) -> list:
    """Write review.md, review.html (the same page, as report.html is) and review.json into
    ``out``; returns the files written."""
    out = Path(out)
    check_writable(out)
    text = review_markdown(r)
    page = atomic_write(out / "review.md", lambda p: Path(p).write_text(text, encoding="utf-8"))
    data = write_json(r.to_dict(), out / "review.json")
    return [page, write_page(page, out / "review.html"), data]


def review_markdown(r: Review) -> str:
    """The review as a page: the summary first, then every decision in a table."""
    mean, lo, hi = r.per_decision
    rows = [(d.move, d.decision, d.played, "the best" if d.played == d.best else d.best,
             "–" if d.played == d.best else points(d.loss) if d.exact else difference(d.loss, d.loss_lo, d.loss_hi),
             d.grade, " ".join(map(_card, d.received))) for d in r.decisions]
    summary = format_review(r).split("\n\n", 1)[1] if "\n\n" in format_review(r) else ""
    return (f"# Review of seat {r.seat}: {r.variant} bézique\n\n"
            f"Every decision of seat {r.seat} with a choice, valued by the search ({r.samples} samples of the "
            f"unseen cards, seed {r.seed}); a move's loss is the best action's value less the played one's, paired "
            f"over the same samples ({r.unit}); graded only where its interval is above zero. The totals take "
            f"each loss measured apart from the samples that chose the best, so that they add up without "
            f"the winner's curse.\n\n"
            f"## Summary\n\nLost per decision: {difference(mean, lo, hi)} {r.unit}; per hand: {points(r.cost)} "
            f"{r.unit}.\n\n" + "".join(f"- {line}\n" for line in summary.splitlines()[1:]) +
            "\n## Every decision\n\n" + shown_table(rows, [
                ("after move", lambda x: str(x[0])), ("decision", lambda x: x[1]), ("played", lambda x: x[2]),
                ("best", lambda x: x[3]), (f"lost ({r.unit})", lambda x: x[4]), ("grade", lambda x: x[5]),
                ("drawn since", lambda x: x[6] or "–")]))


def _decisions(spec: HandSpec):
    """Every decision of the record with a choice, in order: (moves played before it, decisions
    passed after them without a move, the HandState there). Between two moves there may be
    several: a declaration window the record closed, then the lead."""
    for at in range(len(spec.moves)):
        skip = 0
        while True:
            try:
                _arr, st, _ = position(spec, at, skip)
            except AnalysisError:             # the hand is over
                return
            yield at, skip, st
            dec = int(api.decision(st))
            if dec not in PASSED or played_action(spec, at, api.to_act(st), dec) != L.A_STOP:
                break
            skip += 1


def _drawn(spec: HandSpec, seat: int, st) -> list:
    """The cards ``seat`` has drawn in the hand ``st`` of ``spec`` (the talon cards drawn so far
    that were its, and the last card if it took it)."""
    w = walk(spec.rules, spec.dealer, spec.turn_up, spec.moves)
    slots = draw_slots(spec.rules, w.winners, spec.turn_up)
    drawn = int(st.G[L.G_TALON_POS])
    out = []
    for k in sorted(k for (k, s) in slots if s == seat):
        at = slots[k, seat]
        if at == "turn-up":
            if drawn > len(spec.talon):
                out.append(last_card(spec.rules, spec.turn_up, w))
        elif at < drawn:
            out.append(spec.talon[at])
    return out


def _result(spec: HandSpec, seat: int) -> float | None:
    """The hand's final margin for ``seat`` where the record plays it to its end (ordinary:
    points; Rubicon: net game points, R3.9), else None."""
    outcome = play_spec(spec)
    if outcome.status != L.ST_DONE:
        return None
    if not spec.rules.is_rubicon:
        return float(outcome.scores[seat] - outcome.scores[1 - seat])
    brisques = [0, 0]
    for e in outcome.events:
        if e["event"] == "brisques":
            brisques[e["seat"]] = e["points"]
    game = rubicon_result(outcome.scores[:2], brisques, rules=spec.rules)       # R3.9: one deal, one game
    if game["winner"] is None:
        return 0.0
    return float(game["points"] if game["winner"] == seat else -game["points"])


def _parts(r: Review) -> Review:
    """Fill the result's parts: the deal (the value at the first decision), what came between
    the decisions, what the play cost, what is left."""
    if not r.decisions:
        return r
    ds = r.decisions
    r.deal = ds[0].best_value
    r.cost = sum(d.cost for d in ds)
    r.between = sum(nxt.best_value - d.played_value for d, nxt in zip(ds, ds[1:]))
    r.left = (r.result - ds[-1].played_value) if r.result is not None else 0.0
    return r


def baseline_losses(r: Review) -> dict:
    """What each of the project's players loses per decision (results/review, shipped as
    BASELINES) on positions of the review's kinds, in the review's mix of them: player -> (mean,
    lo, hi). Empty where nothing is shipped for the game."""
    try:
        shipped = json.loads(BASELINES.read_text(encoding="utf-8"))
    except OSError:
        return {}
    kinds = Counter(d.kind for d in r.decisions)
    out = {}
    for player in dict.fromkeys(k.split("|")[1] for k in shipped if k.startswith(r.variant + "|")):
        parts = [(n, shipped.get(f"{r.variant}|{player}|{kind}") or shipped[f"{r.variant}|{player}|all"])
                 for kind, n in kinds.items()]
        total = sum(n for n, _ in parts)
        if not total:
            continue
        mean = sum(n * v[1] for n, v in parts) / total
        se = sum((n / total * (v[3] - v[2]) / (2 * Z95)) ** 2 for n, v in parts) ** 0.5
        out[player] = (mean, mean - Z95 * se, mean + Z95 * se)
    return out


def format_review(r: Review) -> str:
    """The review as text: each decision (the costly ones graded), the summary and the parts."""
    mean, lo, hi = r.per_decision
    lines = [f"{r.variant} bézique, seat {r.seat}: {count(len(r.decisions))} decisions with a choice, each valued "
             f"by the search ({r.samples} samples); losses in {r.unit}"]
    for d in r.decisions:
        mark = f"  {d.grade.upper()}" if d.grade != "good" else ""
        got = f" (drew {' '.join(map(_card, d.received))})" if d.received else ""
        if d.played == d.best or d.loss <= 0 and d.exact:
            verdict = "the best" if d.played == d.best else f"as good as the best ({d.best})"
        else:
            loss = points(d.loss) if d.exact else difference(d.loss, d.loss_lo, d.loss_hi)
            verdict = f"best {d.best}; lost {loss}{mark}"
        lines.append(f"  after move {d.move}{got}, {d.decision}: {d.played}: {verdict}")
    lines += ["", f"lost per decision: {difference(mean, lo, hi)} {r.unit}; per hand: {points(r.cost)} {r.unit} "
                  "(each loss measured apart from the samples that chose the best, so that they add up)"]
    players = baseline_losses(r)
    if players:
        lines.append("on positions of the same kinds the project's players lose per decision: " + "; ".join(
            f"{p} {difference(*v)}" for p, v in players.items()))
    worst = [d for d in r.costliest() if d.loss > 0]
    if worst:
        lines.append("the costliest: " + "; ".join(f"after move {d.move}, {d.played} (better: {d.best}, "
                                                    f"{points(d.loss)} more)" for d in worst))
    if r.result is not None:
        lines.append(f"the result, {difference(r.result)} {r.unit}: the deal gave {difference(r.deal)}, what came "
                     f"between the decisions (the cards and the other's play) {difference(r.between)}, the play "
                     f"cost {points(r.cost)}, what is left {difference(r.left)}")
    return "\n".join(lines)


def _card(c: int) -> str:
    return card_str(c, True)
