"""Moves per second of random hands through each interface (``python scripts/bench.py --field``):
OpenSpiel's game (pyspiel's ``apply_action``, the chance nodes of the deal included), the
PettingZoo environment (``env.last()`` and ``env.step`` for every agent, the wrapped ``env()``),
and the engine's own loop (``simulate`` with ``random`` at both seats, on one thread). A move is one
seat's action, a forced one included; the engine's rate is its hands per second times the
moves a random hand has (counted through the OpenSpiel game on the same deals)."""
from __future__ import annotations

import time

import numpy as np

from analyzer.policies.spec import resolve_policy
from analyzer.rules import preset
from analyzer.studies.play.simulate import simulate


def openspiel_moves(variant: str, hands: int, seed: int) -> tuple[float, float]:
    """(moves per second, moves per hand) of ``hands`` random hands through pyspiel."""
    from analyzer.field import openspiel_game as og
    game, rng, moves = og.load(variant), np.random.default_rng(seed), 0
    t0 = time.perf_counter()
    for hand in range(hands):
        state = game.new_initial_state()
        for outcome in og.deal_outcomes(game, seed, hand):
            state.apply_action(outcome)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            moves += 1
    return moves / (time.perf_counter() - t0), moves / hands


def pettingzoo_moves(variant: str, hands: int, seed: int) -> float:
    """Moves per second of ``hands`` random hands through the wrapped PettingZoo environment."""
    from analyzer.field import pettingzoo_env
    env, rng, moves = pettingzoo_env.env(variant=variant), np.random.default_rng(seed), 0
    t0 = time.perf_counter()
    for hand in range(hands):
        env.reset(seed=seed) if hand == 0 else env.reset()
        for agent in env.agent_iter():
            _obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(_obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            moves += 1
    return moves / (time.perf_counter() - t0)


def engine_hands(variant: str, hands: int, seed: int) -> float:
    """Hands per second of ``simulate`` with random at both seats, one thread (after a warm-up)."""
    rules, specs = preset(variant), [resolve_policy("random")] * 2
    simulate(rules, specs, 200, seed, threads=1)
    t0 = time.perf_counter()
    simulate(rules, specs, hands, seed, threads=1)
    return hands / (time.perf_counter() - t0)


def field_speed(variants=("ordinary", "rubicon"), hands: int = 200, seed: int = 1) -> None:
    """Print each interface's moves per second for each variant (random play, one core)."""
    for variant in variants:
        openspiel_moves(variant, 2, seed)                       # compile / load the cache
        spiel, per_hand = openspiel_moves(variant, hands, seed)
        zoo = pettingzoo_moves(variant, hands, seed)
        engine = engine_hands(variant, 200_000 // (2 if variant == "rubicon" else 1), seed) * per_hand
        print(f"{variant}: {per_hand:.0f} moves a random hand; moves per second through pyspiel {spiel:,.0f}, "
              f"PettingZoo {zoo:,.0f}, the engine's own loop {engine:,.0f} ({engine / spiel:,.0f}x pyspiel)")
