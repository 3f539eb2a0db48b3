"""The shared play model (tests/model.py) on scripted hands of both variants: it must agree
with the engine, and its check must catch a disagreement."""
import pytest
from helpers import DONE, make_spec, run
from model import Deal, beats, legal_follows
from rubicon_helpers import LOW1
from rubicon_helpers import make_spec as rubicon_spec


def test_trick_rules_with_and_without_a_trump():
    assert beats("TS", "KS", "C") and not beats("KS", "TS", "C")
    assert not beats("AS", "AS", "C")                   # an identical card: the first one wins
    assert beats("7C", "AS", "C") and not beats("7C", "AS", None)   # Rubicon before trumps (R3.2)
    assert legal_follows(["KS", "7S", "7C"], "QS", "C") == {"KS"}   # follow and win (R2.20)
    assert legal_follows(["7H", "7C"], "QS", "C") == {"7C"}         # else trump
    assert legal_follows(["7H", "7C"], "QS", None) == {"7H", "7C"}  # no trump fixed: anything


def test_ordinary_hand_exchange_then_play_out():
    d = Deal(make_spec("AS 7C 8H 9H 8D 9D JD JS", "7D 7D 7H 7H 8C 8C QD QD", "KC"))
    assert d.trump == "C" and d.stock[-1] == "KC" and d.leader == 0
    assert d.trick("AS", "7D") == 0
    d.exchange(0)
    d.auto().finish()
    assert len(d.winners) == 32 and len(d.draws) == 48 and d.draws[-1][1] == "7C"   # the seven drawn last
    o = d.check(d.run())
    assert o.status == DONE
    assert [e["took"] for e in o.events if e["event"] == "exchange"] == ["KC"]


def test_rubicon_hand_trumps_fixed_by_the_first_marriage_then_play_out():
    d = Deal(rubicon_spec("AS KH QH AS TS 9S 9S 8S 8S", LOW1))
    assert d.trump is None and d.turn_up is None and len(d.stock) == 110
    assert d.trick("AS", "7D") == 0
    d.declare(0, "marriage_H", "KH QH")
    assert d.trump == "H" and d.table[0] == ["KH", "QH"]
    d.auto().finish()
    assert len(d.first_stage_winners) == 55 and len(d.winners) == 64 and len(d.draws) == 110
    o = d.check(d.run())
    assert o.status == DONE
    assert [e["suit"] for e in o.events if e["event"] == "trumps_fixed"] == ["H"]


@pytest.mark.parametrize("tamper", ["winner", "draw", "missing draws"])
def test_check_catches_a_disagreement(tamper):
    d = Deal(make_spec("AS 7C 8H 9H 8D 9D JD JS", "7D 7D 7H 7H 8C 8C QD QD", "KC"))
    d.auto(4)
    o = d.check(d.run())
    if tamper == "winner":
        d.winners[2] = 1 - d.winners[2]
    elif tamper == "draw":
        d.draws[0] = (d.draws[0][0], "AS")
    else:
        o = run(d.spec(d.moves[:2]))      # the engine three tricks behind the model
    with pytest.raises(AssertionError):
        d.check(o)
