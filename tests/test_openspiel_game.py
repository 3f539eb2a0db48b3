"""The OpenSpiel game (analyzer/field/openspiel_game.py): it loads through pyspiel for every
two-handed game and refuses the others by pyspiel's own error path, passes OpenSpiel's random
simulation test, deals the engine's deal, plays recorded hands move for move as the engine does,
shows a seat only what it has seen (R2.7, R2.8, R3.5: docs/rules.md section 3, item 20), and draws
worlds a seat cannot tell from the true one. The examples of docs/field-tools.md run."""
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from analyzer.cards import rank_of
from analyzer.engine import api
from analyzer.engine import layout as L
from analyzer.engine.hand import deal_into
from analyzer.engine.observe import PUB_KNOWN
from analyzer.field import openspiel_game as og
from analyzer.field.core import FIELD_VARIANTS, Hand, engine_deal, field_rules
from analyzer.field.replays import chance_outcomes, replay_actions
from analyzer.field.views import info_state_string, names
from analyzer.hands.handlog import logged_events, play_spec
from analyzer.hands.replay_file import dealt_spec, load_replay
from analyzer.rubicon_score import rubicon_result
from analyzer.rules import PRESETS, preset
from helpers import claim_hand, played_hand

ROOT = Path(__file__).parent.parent
REPLAYS = ROOT / "tests" / "replays"


def random_play(state, rng, decisions: int) -> list[int]:
    """Play ``decisions`` random actions (chance by its odds) from ``state``, or to its end; the
    actions of the seats."""
    played = []
    while not state.is_terminal() and len(played) < decisions:
        if state.is_chance_node():
            outcomes, p = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=p)))
        else:
            played.append(int(rng.choice(state.legal_actions())))
            state.apply_action(played[-1])
    return played


def dealt_state(game, chance):
    state = game.new_initial_state()
    for outcome in chance:
        state.apply_action(outcome)
    return state


# --- loading, parameters, OpenSpiel's own checks ---------------------------------------------

def test_every_two_handed_preset_loads_and_only_those():
    assert set(FIELD_VARIANTS) == {name for name, rules in PRESETS.items() if rules.players == 2}
    assert {"ordinary", "rubicon", "no_trump", "panache", "fixed_point"} <= set(FIELD_VARIANTS)
    for variant in FIELD_VARIANTS:
        game = pyspiel.load_game(f"bezique(variant={variant})")
        assert game.rules == preset(variant) and game.num_players() == 2
        assert game.num_distinct_actions() == L.A_CLAIM + L.N_COMBOS      # every engine action code
        assert game.max_chance_outcomes() == 32


@pytest.mark.parametrize("text, words", [("bezique(variant=three_handed)", "3-handed"),
                                         ("bezique(variant=four_handed)", "4-handed"),
                                         ("bezique(variant=piquet)", "unknown variant"),
                                         ("bezique(variant=rubicon,margin=true)", "already zero-sum")])
def test_a_bad_parameter_is_refused_by_pyspiel_load_game(text, words):
    """The game's constructor refuses it, as OpenSpiel's Python games do: load_game raises the
    ValueError."""
    with pytest.raises(ValueError, match=words):
        pyspiel.load_game(text)


@pytest.mark.parametrize("text, words", [("bezique(players=3)", "Unknown parameter 'players'"),
                                         ("bezique(margin=1)", "Wrong type for parameter margin")])
def test_a_parameter_pyspiel_does_not_know_is_refused_by_pyspiel(text, words):
    with pytest.raises(pyspiel.SpielError, match=re.escape(words)):
        pyspiel.load_game(text)


def test_the_game_declares_its_utility_honestly():
    """Rubicon and the margin are zero-sum; the points of a hand are not (R2.22, R3.9)."""
    zero, general = pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.GENERAL_SUM
    assert og.load("rubicon").get_type().utility == zero
    assert og.load("ordinary", margin=True).get_type().utility == zero
    assert og.load("ordinary").get_type().utility == general and og.load("ordinary").min_utility() == 0


@pytest.mark.parametrize("variant, margin, games", [("ordinary", False, 100), ("rubicon", False, 100),
                                                    ("ordinary", True, 20), ("no_trump", False, 100),
                                                    ("panache", False, 100), ("fixed_point", False, 20)])
def test_openspiels_random_simulation_test_passes(variant, margin, games):
    """pyspiel.random_sim_test: clones, serialization, legal actions sorted and masked, chance
    outcomes, returns within the declared utilities (and summing to 0 where zero-sum), tensors
    of the declared shapes. The margin game differs from the ordinary one only in its returns
    (its random games are the ordinary test's first 20, its seed being fixed), so 20 games; so
    does the game limited to a fixed point, whose claim (V3) no random hand comes near
    (test_random_play_never_reaches_the_fixed_point_claim)."""
    pyspiel.random_sim_test(og.load(variant, margin), num_sims=games, serialize=True, verbose=False)


def test_random_play_never_reaches_the_fixed_point_claim():
    """Random play of one hand scores a few hundred points, far below the target of 1,000 that a
    claim of the game (V3) needs, so the fixed-point game's random games are move for move and
    return for return the ordinary game's: its random simulation need not play 100 of them."""
    games = {}
    for variant in ("ordinary", "fixed_point"):
        game, rng, games[variant] = og.load(variant), np.random.default_rng(20261207), []
        for _ in range(20):
            state = game.new_initial_state()
            random_play(state, rng, 10**4)
            games[variant].append((state.history(), state.returns()))
    assert games["fixed_point"] == games["ordinary"]
    assert max(max(returns) for _history, returns in games["ordinary"]) < 1000


def test_a_serialized_or_pickled_state_plays_on_the_same():
    game = og.load("rubicon")
    state = game.new_initial_state()
    random_play(state, np.random.default_rng(3), 40)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    unpickled = pickle.loads(pickle.dumps(state))
    for copy in (again, unpickled, state.clone()):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.information_state_string(0) == state.information_state_string(0)



@pytest.mark.parametrize("variant", ["ordinary", "rubicon"])
def test_a_clone_and_its_original_play_on_apart(variant):
    """A clone shares nothing that play changes: the original and its clone, each asked for its
    views before and after, play on with their own moves, and each then shows what a state
    replayed from its own history shows (views.py keeps each seat's history made so far; a
    clone takes its own copy)."""
    game = og.load(variant)
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    random_play(state, rng, 30)
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))

    def views(s):
        out = []
        for seat in (0, 1):
            info.set_from(s, seat)
            out.append((info.tensor.copy(), s.information_state_string(seat), s.observation_string(seat), str(s)))
        return out

    views(state)
    clone = state.clone()
    for s in (state, clone):
        random_play(s, rng, 12)
        views(s)
    for s in (state, clone):
        again = game.new_initial_state()
        for action in s.history():
            again.apply_action(action)
        for (t, *texts), (t_again, *texts_again) in zip(views(s), views(again)):
            assert np.array_equal(t, t_again) and texts == texts_again

# --- the deal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["ordinary", "rubicon", "no_trump"])
def test_a_seed_deal_through_the_chance_outcomes_is_the_engines(variant):
    """R2.1, R3.1: the chance outcomes of deal_outcomes(seed, hand) deal exactly what
    api.deal(rules, seed, hand) deals: the dealer (hand % 2), both hands, the turn-up, the talon."""
    game = og.load(variant)
    arr = game.rules.to_array()
    for seed, hand in ((1, 0), (1, 1), (12345, 7)):
        state = dealt_state(game, og.deal_outcomes(game, seed, hand))
        st, mine = api.deal(arr, seed, hand, log_events=True), state.hand.st
        assert state.hand.dealer == hand % 2 == st.G[L.G_DEALER]
        assert np.array_equal(mine.G[:L.G_FULL_OBS], st.G[:L.G_FULL_OBS])
        assert np.array_equal(mine.G[L.G_FULL_OBS + 1:], st.G[L.G_FULL_OBS + 1:])
        assert np.array_equal(mine.P[:2], st.P[:2]) and np.array_equal(mine.T[:2], st.T[:2])
        assert np.array_equal(mine.talon, st.talon) and logged_events(mine) == logged_events(st)
        assert np.array_equal(mine.obs[:2, :L.OBS_CORE], st.obs[:2, :L.OBS_CORE])
        spec = dealt_spec(game.rules, seed, hand)
        assert state.hand.spec().deck().tolist() == spec.deck().tolist()


def test_the_chance_nodes_deal_card_by_card_with_the_odds_of_the_cards_left():
    """R1.2: each card type as often as the packs hold it; copies left over cards left."""
    state = og.load("ordinary").new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    assert state.chance_outcomes() == [(t, 2 / 64) for t in range(32)]
    for card in (5, 5, 9):
        state.apply_action(card)
    odds = dict(state.chance_outcomes())
    assert 5 not in odds and odds[9] == pytest.approx(1 / 61) and odds[0] == pytest.approx(2 / 61)
    assert sum(odds.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="no card left"):
        state.apply_action(5)


# --- recorded hands, move for move ----------------------------------------------------------

def recorded_hands():
    """(id, spec, outcome played): replay files, hands the greedy player played, and a hand that
    ends in a claim of the game (V3)."""
    out = []
    for name in ("example_hand.json", "ordinary_exchange_royal_marriage.json"):
        spec = load_replay(REPLAYS / name)
        out.append((name, spec, play_spec(spec)))
    for variant in ("ordinary", "rubicon", "no_trump", "panache", "fixed_point"):
        for seed, hand in ((0, 0), (7, 3)):
            out.append((f"{variant}-{seed}-{hand}", *played_hand(variant, seed, hand)))
    out.append(("fixed_point-claim", *claim_hand()))     # ends in a claim of the game (V3)
    return out


RECORDED = recorded_hands()


def expected_returns(rules, st) -> list[float]:
    """Rubicon: net game points (R3.9, analyzer.rubicon_score); else the points of the hand."""
    scores = [int(x) for x in api.scores(st)]
    if not rules.is_rubicon:
        return [float(x) for x in scores]
    game = rubicon_result(scores, [rules.brisque_points * int(st.P[s, L.P_BRISQ]) for s in (0, 1)], rules=rules)
    points = 0 if game["winner"] is None else game["points"] * (1 if game["winner"] == 0 else -1)
    return [float(points), float(-points)]


@pytest.mark.parametrize("name, spec, played", RECORDED, ids=[r[0] for r in RECORDED])
def test_a_recorded_hand_plays_move_for_move_as_the_engine_plays_it(name, spec, played):
    """The hand replayed through pyspiel offers the engine's legal actions at every decision and
    ends with the engine's events, scores and returns (R3.9 in Rubicon)."""
    actions = replay_actions(spec)
    arr = spec.rules.to_array()
    st = api.new_state(True)
    deal_into(arr, st, spec.deck(), spec.dealer)
    state = dealt_state(og.load(spec.rules.name), chance_outcomes(spec))
    for action in actions:
        n, _plays = api.legal_actions(arr, st)
        assert state.legal_actions() == sorted(st.legal[:n].tolist())
        assert state.current_player() == api.to_act(st)
        state.apply_action(action)
        api.apply(arr, st, action)
    assert logged_events(state.hand.st) == logged_events(st) == played.events
    assert state.hand.scores() == played.scores
    assert state.is_terminal() == (played.status == L.ST_DONE)
    if state.is_terminal():
        assert state.returns() == expected_returns(spec.rules, st)


# --- what a seat sees ---------------------------------------------------------------------------

def unseen_swap(hand: Hand, seat: int):
    """Two deck positions whose cards seat ``seat`` has not seen in ``hand``, of different types:
    one of the other seat's dealt cards of a type it has not played, laid or exchanged, and a talon
    card not yet drawn (not the turn-up)."""
    other = 1 - seat
    used = {a % L.A_PLAY_TABLE for s, a, kind in hand.moves if s == other and kind in (L.D_LEAD, L.D_FOLLOW)}
    used |= {c for k, (s, _a, _d) in enumerate(hand.moves) if s == other for c in hand.shown[k]}
    used |= {c for c in range(32) if rank_of(c) == 7}                    # the sevens (R2.9)
    mine = [k for k in range(2 * hand.rules.hand_size) if hand.packet_seat(k) == other and hand.deck[k] not in used]
    h2, turn_up = 2 * hand.rules.hand_size, hand.turn_up() >= 0
    start = h2 + turn_up + int(hand.st.G[L.G_TALON_POS]) + 2           # a round of draws to spare
    for x in mine:
        for y in range(start, hand.rules.n_cards):
            if hand.deck[y] != hand.deck[x] and hand.deck[y] not in used:
                return x, y
    raise AssertionError("no unseen pair")


@pytest.mark.parametrize("variant, seed", [("ordinary", 11), ("rubicon", 12), ("no_trump", 13)])
@pytest.mark.parametrize("seat", [0, 1])
def test_an_information_state_does_not_change_when_only_unseen_cards_are_swapped(variant, seed, seat):
    """R2.7, R2.8, R3.5 (what a player may know): swapping a card of the other hand with a card
    of the talon the seat has not seen leaves its information state, string and tensor, the same
    at every step, and its observation too; the other seat's changes."""
    game = og.load(variant)
    state = dealt_state(game, engine_deal(game.rules, seed, 0))
    actions = random_play(state, np.random.default_rng(seed), 30)
    x, y = unseen_swap(state.hand, seat)
    chance = state.hand.chance_history()
    chance[1 + x], chance[1 + y] = chance[1 + y], chance[1 + x]
    true, swapped = dealt_state(game, state.hand.chance_history()), dealt_state(game, chance)
    for action in [None] + actions:
        if action is not None:
            true.apply_action(action)
            swapped.apply_action(action)
        assert swapped.information_state_string(seat) == true.information_state_string(seat)
        assert swapped.information_state_tensor(seat) == true.information_state_tensor(seat)
        assert swapped.observation_string(seat) == true.observation_string(seat)
        assert swapped.observation_tensor(seat) == true.observation_tensor(seat)
    assert swapped.information_state_string(1 - seat) != true.information_state_string(1 - seat)


def test_an_information_state_recalls_every_move_and_its_seats_draws():
    """Perfect recall: two different moves from one state give each seat another information
    state (string and tensor); the card a seat drew is in its own information state only."""
    game = og.load("ordinary")
    state = dealt_state(game, engine_deal(game.rules, 5, 0))
    first, second = state.clone(), state.clone()
    a, b = state.legal_actions()[:2]
    first.apply_action(a)
    second.apply_action(b)
    for seat in (0, 1):
        assert first.information_state_string(seat) != second.information_state_string(seat)
        assert first.information_state_tensor(seat) != second.information_state_tensor(seat)
    while not state.hand.drawn or not state.hand.drawn[-1]:
        state.apply_action(state.legal_actions()[-1])
    (winner, card), (loser, other_card) = state.hand.drawn[-1]
    assert state.information_state_string(winner).endswith(f"stop; draws {names([card])}")
    assert state.information_state_string(loser).endswith(f"stop; draws {names([other_card])}")


def test_a_move_shows_the_cards_it_laid_in_both_information_states():
    """R2.6, R2.11: a declaration lays its cards face up; the history row of the move holds the
    cards it took from the hand (four to a number, each + 1 in base 33), as the text does."""
    spec = load_replay(REPLAYS / "ordinary_exchange_royal_marriage.json")
    state = dealt_state(og.load("ordinary"), chance_outcomes(spec))
    for action in replay_actions(spec)[:4]:
        state.apply_action(action)
    king, queen = spec.turn_up, spec.hands[0][2]                    # KC (the exchanged turn-up), QC
    rows = og.BeziqueObserver(preset("ordinary"), pyspiel.IIGObservationType(perfect_recall=True))
    for seat in (0, 1):
        rows.set_from(state, seat)
        assert rows.dict["history"][3].tolist() == [1, L.A_DECLARE + 3 + 1, 0, (king + 1) + 33 * (queen + 1), 0]
        assert state.information_state_string(seat).endswith("0 declare marriage_C (KC QC)")
        assert rows.tensor.tolist() == state.information_state_tensor(seat)


def known_in(state, seat: int, of: int) -> list[int]:
    """The cards ``seat``'s observation tensor says are known to be in seat ``of``'s hand."""
    obs = state.observation_tensor(seat)
    at = L.OBS_PUBLIC + ((of - seat) % 2) * L.OBS_PUBLIC_W + PUB_KNOWN
    return [t for t in range(32) for _ in range(int(obs[at + t]))]


def test_the_cards_known_to_be_in_a_hand_are_those_seen_going_there():
    """R2.9: the turn-up taken for the seven is known to be in the hand until a copy of it leaves
    the hand; R2.19, R2.1: at the second stage the table cards taken back and the face-up last card
    drawn are known too."""
    spec = load_replay(REPLAYS / "ordinary_exchange_royal_marriage.json")
    state = dealt_state(og.load("ordinary"), chance_outcomes(spec))
    lead, follow, exchange, marriage, _stop = replay_actions(spec)
    for action in (lead, follow, exchange):
        state.apply_action(action)
    king = spec.turn_up
    assert known_in(state, 1, 0) == [king] and "known in hand 0: KC" in state.observation_string(1)
    state.apply_action(marriage)                       # the KC goes from the hand to the table
    assert known_in(state, 1, 0) == [] and "known in hand 0: -" in state.observation_string(1)
    state, rng = dealt_state(og.load("ordinary"), engine_deal(preset("ordinary"), 8, 0)), np.random.default_rng(8)
    while state.hand.st.G[L.G_STAGE] == 1:
        before = [state.hand.st.P[s, L.P_TABLE:L.P_TABLE + 32].copy() for s in (0, 1)]
        known = [list(k) for k in state.hand.known]
        random_play(state, rng, 1)
    last_seat, last_card = state.hand.drawn[-1][-1]
    for s in (0, 1):
        expected = [known[s][t] + int(before[s][t]) + (s == last_seat and t == last_card) for t in range(32)]
        assert state.hand.known[s] == expected
        assert known_in(state, 1 - s, s) == [t for t in range(32) for _ in range(expected[t])]


# --- worlds ---------------------------------------------------------------------------------

def courtless_deal(rules, rng) -> list[int]:
    """Seat 1 deals; seat 0's dealt hand has no K, Q or J (carte blanche, R3.5)."""
    deck = [t for t in range(32) for _ in range(rules.copies(t))]
    plain = [c for c in deck if not 2 <= rank_of(c) <= 4]
    packet = list(rng.choice(plain, rules.hand_size, replace=False))
    for c in packet:
        deck.remove(c)
    rng.shuffle(deck)
    return [1] + [int(c) for c in packet] + deck


@pytest.mark.parametrize("variant, courtless", [("ordinary", False), ("rubicon", False), ("rubicon", True)])
def test_a_resampled_world_is_one_the_player_cannot_tell_from_the_true_one(variant, courtless):
    """resample_from_infostate: the player's information state (string and tensor) is the same,
    the same seat acts with the same legal actions, the world plays on to its end, and the other
    hand is drawn anew (Rubicon with a dealt carte blanche: R3.5)."""
    game, rng = og.load(variant), np.random.default_rng(21)
    sampler = pyspiel.UniformProbabilitySampler(21, 0.0, 1.0)         # seeded: the same worlds every run
    points = drawn_anew = 0
    for deal in range(4):
        chance = courtless_deal(game.rules, rng) if courtless else engine_deal(game.rules, 21, deal)
        state = dealt_state(game, chance)
        while not state.is_terminal():
            random_play(state, rng, int(rng.integers(1, 40)))
            for player in (0, 1):
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.information_state_tensor(player) == state.information_state_tensor(player)
                assert world.current_player() == state.current_player()
                if state.current_player() == player:
                    assert world.legal_actions() == state.legal_actions()
                if state.hand.st.G[L.G_TALON_POS] < state.hand.st.G[L.G_TALON_LEN] - 4:
                    points += 1
                    drawn_anew += world.hand.hand_cards(1 - player) != state.hand.hand_cards(1 - player)
                random_play(world, rng, 10**4)
                assert world.is_terminal()
    assert points >= 10 and drawn_anew > 0.8 * points


def test_a_world_never_asks_the_other_seat_about_a_carte_blanche_it_was_not_asked_about():
    """R3.5: at the first decision of a Rubicon hand, a seat that was not asked about carte
    blanche holds none, so no world of the other seat's may give it one (one in ~70 would)."""
    game = og.load("rubicon")
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    state = dealt_state(game, engine_deal(game.rules, 1, 0))
    player = state.current_player()
    assert state.hand.decision() != L.D_CARTE
    for _ in range(400):
        world = state.resample_from_infostate(player, sampler)
        assert (world.current_player(), world.hand.decision()) == (player, state.hand.decision())


def test_a_world_resampled_while_dealing_keeps_the_seats_cards_and_the_turn_up():
    game = og.load("ordinary")
    chance = engine_deal(game.rules, 4, 0)
    state = dealt_state(game, chance[:1 + 17])                 # the packets and the turn-up
    sampler = pyspiel.UniformProbabilitySampler(4, 0.0, 1.0)
    worlds = [state.resample_from_infostate(0, sampler) for _ in range(5)]
    for world in worlds:
        assert world.is_chance_node() and len(world.history()) == len(state.history())
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.hand.turn_up() == state.hand.turn_up()
    assert len({w.hand.dealt_cards(1) for w in worlds}) > 1


def test_openspiels_ismcts_plays_with_resampled_worlds():
    """IS-MCTS checks that every world it draws has the root's information state."""
    game = og.load("rubicon")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=8, random_state=np.random.RandomState(0))
    state = dealt_state(game, engine_deal(game.rules, 3, 0))
    for _ in range(12):
        state.apply_action(bot.step(state))
    assert len(state.history()) == 1 + 128 + 12


# --- the package and its documentation ----------------------------------------------------------

def test_the_main_job_never_imports_the_field_tools():
    code = ("import sys, analyzer, analyzer.cli, analyzer.field, analyzer.studies.report.study\n"
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'open_spiel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_python_examples_of_the_field_tools_page_run(capsys):
    """docs/field-tools.md's ```python blocks, each run as it is written."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "field-tools.md").read_text(), re.DOTALL)
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "docs/field-tools.md", "exec"), {})
    out = capsys.readouterr().out
    assert "bezique rubicon; seat" in out and "hand complete; scores:" in out


def test_a_rule_set_is_checked_before_a_hand_is_made():
    with pytest.raises(ValueError, match="3-handed"):
        field_rules("three_handed")
    hand = Hand(preset("ordinary"))
    assert hand.is_chance() and info_state_string(hand, 0).startswith("bezique ordinary; seat 0; dealer ?")
