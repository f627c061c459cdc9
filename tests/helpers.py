"""Shared helpers for the tests: fingerprints of a state, random play, and the examples
loaded as modules."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.state import HandState, Phase
from umtali.kernel.cards import ALL_CARDS, CardSet, parse_card

NOT_THE_STATE: frozenset[str] = frozenset({"_legal", "_undo"})
"""Slots of a HandState that are no part of what it is: the legal-move cache, and what pop
needs to undo the moves (which the history already names)."""


def fingerprint(state: HandState) -> tuple[object, ...]:
    """Everything that defines a state: every slot of it, read from ``__slots__`` (not from
    the engine's own undo list, which is what this checks) less ``NOT_THE_STATE``."""
    return tuple(
        (name, tuple(value) if isinstance(value, list) else value)
        for name in HandState.__slots__
        if name not in NOT_THE_STATE
        for value in (getattr(state, name),)
    )


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


def deal(
    dealer_hand: str,
    other_hand: str,
    stock: str = "",
    *,
    dealer: int,
    rules: RuleSet = STANDARD,
) -> HandState:
    """A hand dealt from a stacked deck; the dealer keeps the 11th card and starts."""
    hand = HandState(stacked_deck(dealer_hand, other_hand, stock), dealer=dealer, rules=rules)
    hand.push_text("keep")
    assert hand.player == dealer
    return hand


def play(hand: HandState, *moves: str) -> None:
    """Push moves given in notation."""
    for text in moves:
        hand.push_text(text)


def c(text: str) -> int:
    """One card from its text."""
    return parse_card(text)


def cards(text: str) -> CardSet:
    """A card set from its text."""
    return CardSet.parse(text)


def snapshot(hand: HandState) -> tuple[object, ...]:
    """What a refused move must leave unchanged, read through the public API."""
    return (
        hand.hand(0),
        hand.hand(1),
        [str(col) for col in hand.table(0)],
        [str(col) for col in hand.table(1)],
        list(hand.legal_actions()),
        hand.discard_pile(),
        hand.player,
        hand.phase,
        hand.played_points(),
        hand.stock_size(),
        hand.taken_this_turn(),
        hand.moves_played(),
    )


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
"""The repository's examples/ folder."""
BENCHMARKS = EXAMPLES.parent / "benchmarks"
"""The repository's benchmarks/ folder."""


def load_example(name: str) -> ModuleType:
    """The script ``examples/<name>.py`` imported as the module ``name``."""
    return _load_script(EXAMPLES / f"{name}.py", name)


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` imported as the module ``name``."""
    return _load_script(BENCHMARKS / f"{name}.py", name)


def _load_script(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
