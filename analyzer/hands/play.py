"""One hand from the command line: a dealt hand played by policies and logged (``bezique
trace``, optionally written as a replay file) and a replay file played back (``bezique
replay``). The bad input of either is a one-line error of the library's (RunError, ReplayError,
RuleViolation, OutputError, and ExplainError where the learned player cannot explain it)."""
from __future__ import annotations

from ..rules import RuleSet
from ..run.checks import RunError, check_hand_number, check_seed
from ..run.output import check_text_path, check_writable, write_json
from .explain import check_seats, explain_hand, learned_model
from .hand_json import replay_json
from .handlog import HandOutcome, play_spec
from .replay_file import dealt_spec, load_replay

MAX_GAME_TOTAL = 999_999


def trace_hand(rules: RuleSet, policies, seed: int, hand: int = 0, game_totals=None,
               replay_path=None, explain: bool = False, explain_seats=None) -> HandOutcome:
    """Hand number ``hand`` of a run seeded ``seed`` (the deal ``simulate`` plays as that hand),
    played by ``policies`` (PolicySpecs or names, one per seat) with every event logged; with
    ``game_totals`` (one per seat) the game scores before it (V3's claims); with
    ``replay_path`` the hand is also written there as a replay file (the folder is checked
    before the hand is played); with ``explain`` the learned player's values at each decision
    of ``explain_seats`` (None: every seat) are its ``explanation`` (:mod:`.explain`; the model
    and the seats are checked before the hand is played)."""
    check_seed(seed)
    check_hand_number(hand)
    if game_totals is not None and (len(game_totals) != rules.players
                                    or not all(0 <= x <= MAX_GAME_TOTAL for x in game_totals)):
        raise RunError(f"the game totals are {rules.players} whole numbers from 0 to {MAX_GAME_TOTAL}, "
                       f"one per seat, got {list(game_totals)}")
    if replay_path is not None:
        check_writable(check_text_path(replay_path).parent)
    if explain:
        learned_model(rules)
        check_seats(rules, explain_seats)
    spec = dealt_spec(rules, seed, hand)
    if game_totals is not None:
        spec.game_totals = list(game_totals)
    outcome = play_spec(spec, policies, seed=seed, hand=hand)
    if replay_path is not None and not outcome.error:
        write_json(replay_json(outcome), replay_path)
    if explain:
        outcome.explanation = explain_hand(outcome, explain_seats)
    return outcome


def replay_hand(path) -> HandOutcome:
    """The hand of the replay file ``path`` played back move by move (ReplayError for a
    malformed file; a move that breaks a rule is the outcome's ``error``)."""
    return play_spec(load_replay(path))
