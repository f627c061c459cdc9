"""Shared helpers for the tests: fingerprints of a state and random play."""

from __future__ import annotations

import random

from umtali.cards import ALL_CARDS
from umtali.state import HandState, Phase


def fingerprint(state: HandState) -> tuple[object, ...]:
    """Everything that defines a state, bar the legal-move cache."""
    snap = state._snapshot()[:-1]
    return (*snap, tuple(state.history), state.stock)


def all_cards_accounted_for(state: HandState) -> bool:
    """Hands, stock, discard pile and tables hold each of the 52 cards exactly once
    (before the deal, the deck does)."""
    if state.phase == Phase.CHOOSE:
        return sorted(state.deck) == list(range(52))
    seen = 0
    count = 0
    parts = [state.hands[0], state.hands[1]]
    parts += [1 << c for c in state.stock_cards()]
    parts += [1 << c for c, _ in state.discard_pile()]
    parts += [column.cards.mask for p in (0, 1) for column in state.table(p)]
    for mask in parts:
        if seen & mask:
            return False
        seen |= mask
        count += mask.bit_count()
    return seen == ALL_CARDS and count == 52


def random_hand(seed: int, dealer: int | None = None) -> HandState:
    rng = random.Random(seed)
    return HandState.from_seed(seed, rng.randrange(2) if dealer is None else dealer)


def play_randomly(state: HandState, rng: random.Random, max_moves: int = 10_000) -> int:
    """Push uniformly random legal moves until the hand ends; return the number played."""
    moves = 0
    while not state.is_over() and moves < max_moves:
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
        moves += 1
    return moves
