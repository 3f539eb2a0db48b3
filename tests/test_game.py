"""R2.24: a game to a target over several hands."""


def settle_hand(totals, hand_points, brisques, last_trick_winner: int, target: int = 1000):
    """Add one hand to the running ``totals`` and decide the game if it is over (R2.24): the
    rule read plainly, hand by hand, against which the engine's chain of games is checked.

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


def test_R2_24_brisques_not_counted_when_target_reached_by_declarations():
    # A reaches 1000 without brisques: brisques are ignored, so B's 120 brisques
    # cannot lift him above A.
    totals, winner = settle_hand([900, 930], [120, 50], [20, 120], last_trick_winner=1)
    assert totals == [1020, 980]
    assert winner == 0


def test_R2_24_brisques_decide_when_nobody_reached_target_without_them():
    totals, winner = settle_hand([900, 920], [40, 30], [80, 40], last_trick_winner=0)
    assert totals == [1020, 990]
    assert winner == 0


def test_R2_24_no_one_at_target_deals_again():
    totals, winner = settle_hand([100, 200], [50, 60], [60, 100], last_trick_winner=1)
    assert totals == [210, 360]
    assert winner is None


def test_R2_24_tie_goes_to_winner_of_last_trick():
    _, winner = settle_hand([950, 950], [60, 60], [0, 0], last_trick_winner=1)
    assert winner == 1
    _, winner = settle_hand([950, 950], [60, 60], [0, 0], last_trick_winner=0)
    assert winner == 0


def test_R2_24_other_targets():
    _, winner = settle_hand([1400, 1000], [50, 40], [60, 0], last_trick_winner=1, target=1500)
    assert winner == 0
    _, winner = settle_hand([1400, 1000], [50, 40], [60, 0], last_trick_winner=1, target=2000)
    assert winner is None


def test_R2_24_chained_games_match_settle_hand():
    """The numba chain over many hands agrees with settle_hand hand by hand."""
    import numpy as np

    from analyzer.engine.game_score import chain_games

    rng = np.random.default_rng(1)
    n = 3000
    points = rng.integers(0, 40, size=(n, 2)) * 10
    brisques = rng.integers(0, 17, size=(n, 2)) * 10
    last = rng.integers(0, 2, size=n)
    for target in (1000, 1500, 2000):
        state = np.zeros(3, np.int64)
        hands = np.zeros(n, np.int64)
        winners = np.zeros(n, np.int64)
        # two calls: the unfinished game carries over
        g1 = chain_games(points[:1234], brisques[:1234], last[:1234], target, state, hands, winners)
        g2 = chain_games(points[1234:], brisques[1234:], last[1234:], target, state, hands[g1:], winners[g1:])
        expected = []
        totals, count = [0, 0], 0
        for i in range(n):
            totals, winner = settle_hand(totals, list(points[i]), list(brisques[i]), int(last[i]), target)
            count += 1
            if winner is not None:
                expected.append((count, winner))
                totals, count = [0, 0], 0
        assert list(zip(hands[:g1 + g2], winners[:g1 + g2])) == expected
