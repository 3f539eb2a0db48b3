"""Position analysis: every legal action of the seat to act, valued by the expert's search.

A position is a replay file's deal with a prefix of its moves played. In the first stage each
action is played out on the same ``samples`` assignments of the unseen cards (policies.expert):
its mean final value for the seat to act with a 95 % interval over the samples, and its chance
of winning the hand. By default the samples are played out by the learned player at both seats
(the strongest roll-out, docs/search.md), and in the last window of the first stage (the last
card to draw and the turn-up left) each sample is solved exactly instead. In a two-handed second
stage every card is known and the values are exact (engine.endgame). Values are the final
margin in points (ordinary) or net game points (Rubicon, R3.9), for the seat to act. How far an
action is behind the best is paired over the samples; its ``cost`` is the same measured apart
from the samples that choose the best (:func:`behind_the_choice`), the figure to add up.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ...actions import action_str, action_words
from ...cards import (
    FIRST_FOUR,
    FOUR_RANKS,
    N_COMBOS,
    SUIT_SYMBOLS,
    cards_str,
    combo_cards,
    is_four_combo,
    rank_of,
)
from ...engine import api
from ...engine import layout as L
from ...engine.endgame import solve_actions
from ...engine.rng import stream_state
from ...engine.scripted import replay_moves
from ...errors import BeziqueError
from ...hands.handlog import violation_message
from ...hands.replay_file import HandSpec, RuleViolation
from ...hands.view import SeatView, load_record, world
from ...numbers import difference, points, share
from ...policies.expert import in_last_window, search
from ...policies.params import ROLLOUT_NAMES
from ...policies.spec import PolicyError, resolve_policy
from ...tables.stats import sample_ci

DEFAULT_SAMPLES = 400
DEFAULT_ROLLOUT = "learned"
ROLLOUTS = (*ROLLOUT_NAMES, "tuned")      # tuned: the tuned hints of the position's game
MAX_SAMPLES = 100_000     # per action: more is memory, not precision
FOLDS = 5                 # behind_the_choice: the samples that choose are never those that measure
DECISIONS = {L.D_LEAD: "lead", L.D_FOLLOW: "follow", L.D_MELD: "declaration window",
             L.D_CARTE: "carte blanche", L.D_CLAIM: "claim of the game"}


class AnalysisError(BeziqueError, ValueError):
    """A position that cannot be analysed (the hand is over, --at out of range)."""


@dataclass
class ActionValue:
    """One legal action: its mean value for the seat to act with a 95 % interval, its chance
    of winning (a value of 0, e.g. a drawn Rubicon game, R3.9, counts half), and how far it is
    behind the best action (paired over the same samples, so much tighter than the two
    intervals suggest); and ``cost``, the same measured apart from the samples that choose the
    best (:func:`behind_the_choice`), for sums over many decisions."""

    action: str
    code: int
    mean: float
    lo: float
    hi: float
    win: float
    behind: float = 0.0
    behind_lo: float = 0.0
    behind_hi: float = 0.0
    words: str = ""
    cost: float = 0.0       # what choosing it costs against the search's choice, cross-checked
    cost_lo: float = 0.0    # (behind_the_choice): unbiased where a sum over many decisions is wanted
    cost_hi: float = 0.0


@dataclass
class Position:
    """What the seat to act sees, for people: its hand, both tables, the trumps (a suit, or
    None before they are fixed), the turn-up (None where there is none, or once drawn), the
    scores, the stage and the cards left to draw."""

    variant: str
    seat: int
    hand: list
    tables: list
    trumps: int | None
    turn_up: int | None
    scores: list
    stage: int
    to_draw: int

    def lines(self, symbols: bool = True) -> list[str]:
        """The position in a few lines of text, cards in symbols."""
        trumps = SUIT_SYMBOLS[self.trumps] if self.trumps is not None else "not fixed yet"
        up = f" (turn-up {cards_str([self.turn_up], symbols)})" if self.turn_up is not None else ""
        stage = (f"first stage, {self.to_draw} cards left to draw" if self.stage == 1
                 else "second stage (the talon is out: every card is known)")
        return [f"{stage}; trumps {trumps}{up}; scores: " + ", ".join(f"seat {s} {v:,}" for s, v in
                                                                           enumerate(self.scores)),
                f"seat {self.seat}'s hand: {cards_str(self.hand, symbols) or '–'}",
                *(f"seat {s}'s table: {cards_str(t, symbols) or '–'}" for s, t in enumerate(self.tables))]

    def to_dict(self) -> dict:
        """A JSON-ready dict of the position (cards in letters)."""
        return {"variant": self.variant, "seat": self.seat, "hand": cards_str(self.hand),
                "tables": [cards_str(t) for t in self.tables],
                "trumps": "SHDC"[self.trumps] if self.trumps is not None else None,
                "turn_up": cards_str([self.turn_up]) if self.turn_up is not None else None,
                "scores": list(self.scores), "stage": self.stage, "to_draw": self.to_draw}


def describe_position(spec: HandSpec, st, seat: int) -> Position:
    """The :class:`Position` of ``seat`` in the hand ``st`` of ``spec``'s rules."""
    G, P = st.G, st.P
    counts = lambda s, base: [t for t in range(32) for _ in range(int(P[s, base + t]))]      # noqa: E731
    left = int(G[L.G_TALON_LEN] - G[L.G_TALON_POS])
    turn_up = int(st.talon[G[L.G_TALON_LEN] - 1]) if spec.turn_up is not None and left > 0 else None
    trumps = int(G[L.G_TRUMP])
    return Position(spec.rules.name, seat, counts(seat, L.P_HAND), [counts(s, L.P_TABLE) for s in range(2)],
                    trumps if trumps >= 0 else None, turn_up, [int(P[s, L.P_SCORE]) for s in range(2)],
                    int(G[L.G_STAGE]), left)


@dataclass
class Analysis:
    """The legal actions of the seat to act after ``moves`` moves, best first; the position
    they are of, the action the record played there (``played``, an action code, or None where
    the record ends) and, in words, whether the best can be told from the next."""

    seat: int
    decision: str
    moves: int
    exact: bool
    samples: int
    unit: str
    actions: list = field(default_factory=list)
    method: str = ""        # how the values were found (the search's configuration)
    position: Position | None = None
    played: int | None = None
    verdict: str = ""
    values: np.ndarray | None = field(default=None, repr=False)   # [samples, actions] in ``codes``' order
    codes: list = field(default_factory=list, repr=False)
    skip: int = 0           # decisions passed after the moves, as the record passed them (position)

    def to_dict(self) -> dict:
        """A JSON-ready dict (``bezique analyze --json``)."""
        return {"seat": self.seat, "decision": self.decision, "moves_played": self.moves, "skip": self.skip,
                "exact": self.exact, "samples": self.samples, "unit": self.unit, "method": self.method,
                "position": self.position.to_dict() if self.position else None,
                "played": action_words(self.played, False) if self.played is not None else None,
                "played_code": self.played,
                "verdict": self.verdict, "actions": [vars(a) for a in self.actions]}


PASSED = (L.D_MELD, L.D_CARTE, L.D_CLAIM)     # decisions a record passes with no move (a stop)


def position(spec: HandSpec, at: int | None = None, skip: int = 0):
    """The hand of ``spec`` after its first ``at`` moves (all of them when None), stopped at the
    next decision with a choice, ``skip`` declaration windows (or carte-blanche or claim
    questions) passed first as the record passed them, with no move of their own (a decision
    whose only legal action is to stop is no decision, and is passed too): (rules array,
    HandState, moves played)."""
    n_moves = len(spec.moves)
    at = n_moves if at is None else at
    if not 0 <= at <= n_moves:
        raise AnalysisError(f"--at must be between 0 and {n_moves} (the moves in the file), got {at}")
    if skip < 0:
        raise AnalysisError(f"--skip must be 0 or more, got {skip}")
    arr = spec.rules.to_array()
    # stop at the next decision, even a declaration window
    st = replay_moves(arr, spec.deal(), spec.moves[:at], hold=True)
    status = int(st.G[L.G_STATUS])
    if status == L.ST_ILLEGAL_SCRIPT:
        raise RuleViolation(violation_message(st.G, spec))
    for k in range(skip + 1):
        _pass_forced_stops(arr, st)
        if api.is_over(st):
            raise AnalysisError(f"the hand is over after {at} moves: nothing to decide")
        if k == skip:
            break
        dec, seat = int(api.decision(st)), api.to_act(st)
        played = played_action(spec, at, seat, dec)
        if dec not in PASSED or played not in (None, L.A_STOP):
            how = (f"and the record's next move decides it ({spec.move_text[at]})" if played is not None
                   else "not a window to pass")
            raise AnalysisError(f"--skip {skip}: after {at} moves the next decision is seat {seat}'s "
                                f"{DECISIONS.get(dec, dec)}, {how}: --skip passes only windows the record "
                                "closed without a move")
        api.apply(arr, st, L.A_STOP)
    return arr, st, at


def _pass_forced_stops(arr, st) -> None:
    """Pass the decisions whose only legal action is to stop (a window with nothing to declare)."""
    while not api.is_over(st):
        n, _ = api.legal_actions(arr, st)
        if n != 1 or st.legal[0] != L.A_STOP:
            return
        api.apply(arr, st, L.A_STOP)


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
                     seed: int = 1, rollout: str = DEFAULT_ROLLOUT, skip: int = 0) -> Analysis:
    """Value every legal action of the seat to act after the first ``at`` moves of ``spec``
    and ``skip`` decisions passed (:func:`position`; see the module docstring); ``samples``
    determinizations (first stage), drawn from ``seed``; ``rollout`` the policy that plays each
    sample out (one of ROLLOUTS)."""
    if not 2 <= samples <= MAX_SAMPLES:
        raise AnalysisError(f"--samples must be from 2 (an interval needs two) to {MAX_SAMPLES:,}, got {samples}")
    searcher = search_spec(rollout, spec.rules)
    if spec.rules.players != 2:
        raise AnalysisError(f"analyze values two-handed positions (its search and exact second stage are "
                            f"two-handed); this hand has {spec.rules.players} players")
    arr, st, at = position(spec, at, skip)
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
            mean, lo, hi = (float(x) for x in sample_ci(v))
            win = float(np.mean(np.where(v > 0, 1.0, np.where(v == 0, 0.5, 0.0))))
            rows.append(ActionValue(action_str(a), int(a), mean, lo, hi, win))
    if not exact:
        best = int(np.argmax(vals.mean(axis=0)))
        cost = behind_the_choice(vals)
        for i, r in enumerate(rows):
            r.behind, r.behind_lo, r.behind_hi = (float(x) for x in sample_ci(vals[:, best] - vals[:, i]))
            r.cost, r.cost_lo, r.cost_hi = (float(x) for x in cost[:, i])
    else:
        top = max(r.mean for r in rows)
        for r in rows:
            r.behind = r.behind_lo = r.behind_hi = r.cost = r.cost_lo = r.cost_hi = top - r.mean
    rows.sort(key=lambda r: -r.mean)
    for r in rows:
        r.words = action_words(r.code, decision=dec)
    played = played_action(spec, at, me, dec)
    if played is not None and played not in legal:
        played = _same_effect(spec, at, arr, st, legal, played)
    return Analysis(me, DECISIONS.get(dec, str(dec)), at, bool(exact), used, unit, rows, method,
                    describe_position(spec, st, me), played, told_apart(rows, bool(exact), unit),
                    None if exact else vals, [int(a) for a in legal], skip)


def played_action(spec: HandSpec, at: int, seat: int, decision: int) -> int | None:
    """The action the record played at the decision after its first ``at`` moves (an action
    code; a declaration window, or a carte-blanche or claim question, ended by anything but the
    seat's own declaration is its stop), or None where the record ends there."""
    if at >= len(spec.moves):
        return None
    kind, who, a = spec.moves[at][:3]
    own = who == seat
    if decision in (L.D_LEAD, L.D_FOLLOW):
        return a + (L.A_PLAY_TABLE if spec.moves[at][3] else 0) if kind == L.S_PLAY else None
    if own and kind == L.S_DECLARE:
        return L.A_DECLARE + a
    if own and kind == L.S_EXCHANGE:
        return L.A_EXCHANGE
    if own and kind == L.S_CARTE:
        return L.A_CARTE_BLANCHE
    if own and kind == L.S_CLAIM:
        return L.A_CLAIM + (a if a >= 0 else _claimed(spec.moves[at][L.S_CARDS:]))
    if own and kind == L.S_GAME_CLAIM:
        return L.A_CLAIM_GAME
    return L.A_STOP


def _claimed(cards) -> int:
    """The combination a claim's laid ``cards`` make (R3.7: a claim names its cards)."""
    laid = Counter(int(c) for c in cards if c >= 0)
    for combo in range(N_COMBOS):
        need = Counter(combo_cards(combo)) if not is_four_combo(combo) else None
        if need == laid or need is None and len(laid) == sum(laid.values()) == 4 and \
                len({rank_of(c) for c in laid}) == 1 and rank_of(next(iter(laid))) == FOUR_RANKS[combo - FIRST_FOUR]:
            return combo
    return L.A_CLAIM_CARDS - L.A_CLAIM


def behind_the_choice(vals: np.ndarray, folds: int = FOLDS) -> np.ndarray:
    """How far each action is behind the search's choice, [mean, lo, hi] x actions (95 %), from
    ``vals`` [samples, actions]: the samples are cut into ``folds``; on each, the choice is the
    action with the highest mean on the other folds, and each action's shortfall against it is
    measured on this one (paired). So the samples that choose never measure: the best of several
    close actions does not look better than it is (the winner's curse), and the shortfalls add
    up without that bias over many decisions."""
    n = len(vals)
    k = max(2, min(folds, n))
    fold = np.arange(n) % k
    d = np.empty_like(vals, dtype=float)
    for f in range(k):
        mine = fold == f
        choice = int(np.argmax(vals[~mine].mean(axis=0)))
        d[mine] = vals[mine][:, [choice]] - vals[mine]
    return np.stack(sample_ci(d))


def _same_effect(spec: HandSpec, at: int, arr, st, legal, played: int) -> int:
    """The legal action that leaves the hand as the record's move at ``at`` left it: a claim that
    names only its cards (R3.7) lays those of one combination the engine's claim actions name."""
    _arr, after, _ = position(spec, at + 1)
    seat = api.to_act(st)
    trial = api.new_state(False)
    for a in legal:
        api.copy_into(trial, st)
        api.apply(arr, trial, a)
        _pass_forced_stops(arr, trial)           # as position() passes them
        if np.array_equal(trial.P[seat, :L.P_REC], after.P[seat, :L.P_REC]) and \
                np.array_equal(trial.P[seat, L.P_NTABLE:L.P_NTABLE + 1], after.P[seat, L.P_NTABLE:L.P_NTABLE + 1]):
            return int(a)
    return played


def told_apart(rows: list, exact: bool, unit: str) -> str:
    """Whether the best action can be told from the next, in words (the paired interval of how
    far each is behind the best: it holds 0 where the samples cannot tell them apart)."""
    if len(rows) < 2:
        return f"{_capital(rows[0].words)} is the only legal action." if rows else ""
    best, second = rows[0], rows[1]
    if exact:
        if best.mean == second.mean:
            return f"{_capital(best.words)} and {second.words} are worth the same (exactly)."
        return f"{_capital(best.words)} is best by {points(best.mean - second.mean)} {unit} (exactly)."
    same = [r for r in rows[1:] if r.behind_lo <= 0]
    gap = f"{difference(second.behind, second.behind_lo, second.behind_hi)} {unit}"
    if not same:
        return (f"{_capital(best.words)} is best: the next, {second.words}, is {gap} behind it (a paired "
                "interval above zero).")
    names = ", ".join(r.words for r in same[:3]) + (f" and {len(same) - 3} more" if len(same) > 3 else "")
    return (f"The samples cannot tell the best, {best.words}, from {names}: "
            f"{'the next' if len(same) > 1 else 'it'} is {gap} behind, a paired interval that holds zero.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def analyze_record(record: HandSpec | SeatView, at: int | None = None, samples: int = DEFAULT_SAMPLES,
                   seed: int = 1, rollout: str = DEFAULT_ROLLOUT, skip: int = 0) -> Analysis:
    """:func:`analyze_position` of a full record, or of a seat's view (a deal consistent with it
    drawn from ``seed``; the search sees only the seat's own view, so the result is the full
    record's); a view analyses its own seat's decisions only."""
    if isinstance(record, SeatView):
        spec = world(record, seed)
        try:
            _arr, st, _at = position(spec, at, skip)
        except RuleViolation as e:             # a view that cannot be: bad input, one line, exit 1
            raise AnalysisError(f"the view cannot be: {e}") from None
        if api.to_act(st) != record.seat:
            moves = len(spec.moves) if at is None else at
            raise AnalysisError(f"after {moves} moves seat {api.to_act(st)} is to act: a view of seat "
                                f"{record.seat} analyses its own decisions (give --at a move before one of them)")
        record = spec
    return analyze_position(record, at, samples, seed, rollout, skip)


def analyze_file(path, at: int | None = None, samples: int = DEFAULT_SAMPLES, seed: int = 1,
                 rollout: str = DEFAULT_ROLLOUT, skip: int = 0) -> Analysis:
    """:func:`analyze_record` of the record at ``path``: a replay file or a seat's view (a prefix
    of a hand is enough)."""
    return analyze_record(load_record(path), at, samples, seed, rollout, skip)


def format_analysis(a: Analysis, symbols: bool = True) -> str:
    """The analysis as text: the position, every action in words with its value and how far it
    is behind the best (the record's own move marked *), and whether the best can be told apart."""
    how = "exact" if a.exact else "95 % intervals"
    passed = f" and {a.skip} decision{'s' if a.skip > 1 else ''} passed without a move" if a.skip else ""
    lines = [f"{a.position.variant} bézique, seat {a.seat} to act ({a.decision}) after {a.moves} moves{passed}"]
    lines += [f"  {line}" for line in a.position.lines(symbols)] if a.position else []
    lines += ["", f"values in {a.unit} for seat {a.seat}, {how}: {a.method}"]
    width = max(len(r.words) for r in a.actions) + 2
    lines.append(f"   {'action':<{width}} {'value':>22} {'wins':>8}  behind the best (paired)")
    for r in a.actions:
        mark = "*" if r.code == a.played else " "
        value = points(r.mean) if a.exact else difference(r.mean, r.lo, r.hi)
        behind = ("best" if r is a.actions[0] else points(r.behind) if a.exact
                  else difference(r.behind, r.behind_lo, r.behind_hi))
        lines.append(f" {mark} {r.words:<{width}} {value:>22} {share(r.win):>8}  {behind}")
    if a.played is not None:
        lines.append("   (* the move the record played)")
    lines += ["", a.verdict]
    return "\n".join(lines)
