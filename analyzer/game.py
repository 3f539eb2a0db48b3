"""A game over several hands to an agreed target (R2.24)."""
from __future__ import annotations


def settle_hand(totals, hand_points, brisques, last_trick_winner: int, target: int = 1000):
    """Add one hand to the running ``totals`` and decide the game if it is over (R2.24).

    ``hand_points`` are this hand's points without brisques, ``brisques`` its brisque
    points. If a player reached ``target`` without this hand's brisques, the
    brisques are not counted and the higher total wins; otherwise they are added and
    the higher total at or over the target wins. A tie goes to the winner of the last
    trick. Returns ``(new_totals, winner)``; ``winner`` is None while nobody is at the
    target (deal again).
    """
    without = [t + h for t, h in zip(totals, hand_points)]
    if max(without) >= target:
        new = without
    else:
        new = [w + b for w, b in zip(without, brisques)]
        if max(new) < target:
            return new, None
    best = max(new)
    leaders = [i for i, v in enumerate(new) if v == best]
    winner = leaders[0] if len(leaders) == 1 else last_trick_winner
    return new, winner
