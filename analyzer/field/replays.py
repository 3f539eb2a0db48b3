"""A replay file's hand (analyzer.hands.replay_file.HandSpec) as the field's chance outcomes and
action codes, so that a recorded hand can be played through the OpenSpiel game or the PettingZoo
environment: the moves are read as the engine's replay reads them (engine/replay.py: a declaration
window ends at the first move that is not one of the winner's declarations, the carte-blanche
shows of a round are listed at its start, a seat asked to claim the game that does not plays on).
"""
from __future__ import annotations

from ..engine import layout as L
from ..hands.replay_file import HandSpec
from .core import FieldError, Hand


def chance_outcomes(spec: HandSpec) -> list[int]:
    """The dealer, then the deck in the engine's deal order."""
    return [spec.dealer] + [int(c) for c in spec.deck()]


def replay_actions(spec: HandSpec) -> list[int]:
    """The action codes that play the moves of ``spec``, decision by decision, up to the last move
    (to the end of the hand when the moves reach it); FieldError for a move that no action code
    plays (a claim of the game where none is asked, a claim laying cards no combination lays) or that
    is not legal."""
    hand = Hand.replayed(spec.rules, chance_outcomes(spec))
    rows, pos, actions, shows, round_read = spec.moves, 0, [], set(), None
    while not hand.is_over():
        kind, seat, at = hand.decision(), hand.current_player(), pos
        row = rows[pos] if pos < len(rows) else None
        if kind == L.D_CARTE:
            this_round = (int(hand.st.G[L.G_TRICK]), int(hand.st.G[L.G_TALON_POS]))
            if this_round != round_read:         # the round's shows are listed at its start
                round_read, shows = this_round, set()
                while pos < len(rows) and rows[pos][0] == L.S_CARTE:
                    shows.add(rows[pos][1])
                    pos += 1
            action = L.A_CARTE_BLANCHE if seat in shows else L.A_STOP
        elif row is None and kind != L.D_MELD:
            break
        elif kind == L.D_CLAIM:
            action = L.A_CLAIM_GAME if row[0] == L.S_GAME_CLAIM else L.A_STOP
            pos += action == L.A_CLAIM_GAME
        elif kind == L.D_MELD:
            action = _window_action(hand, row, seat)
            pos += action != L.A_STOP
        elif row[0] == L.S_PLAY:
            action = row[2] + L.A_PLAY_TABLE * row[3]
            pos += 1
        else:
            raise FieldError(f"move {pos + 1} ({spec.move_text[pos] if spec.move_text else row}) is not "
                             "a play, and a card is to be played")
        if action not in hand.legal_actions():
            raise FieldError(f"move {at + 1} of the replay is not legal at decision {len(actions) + 1}")
        hand.apply(action)
        actions.append(action)
    return actions


def _window_action(hand: Hand, row, seat: int) -> int:
    """The action of the declaration window that the replay's next move ``row`` (None: no more)
    makes: a declaration, an exchange or a claim of the window's seat, else the window ends. A
    claim that names its cards (R3.7) is the claim of a combination that lays those cards."""
    if row is None or row[1] != seat:
        return L.A_STOP
    if row[0] == L.S_DECLARE:
        return L.A_DECLARE + row[2]
    if row[0] == L.S_EXCHANGE:
        return L.A_EXCHANGE
    if row[0] == L.S_CLAIM and row[2] >= 0:
        return L.A_CLAIM + row[2]
    if row[0] == L.S_CLAIM:
        named = sorted(c for c in row[L.S_CARDS:] if c >= 0)
        for action in (a for a in hand.legal_actions() if a >= L.A_CLAIM):
            trial = hand.copy()
            trial.apply(action)
            if sorted(trial.shown[-1]) == named:
                return action
        raise FieldError("no claim of a combination lays the cards the replay's claim names")
    return L.A_STOP
