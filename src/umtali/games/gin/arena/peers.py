"""Gin Rummy in ``umtali bench --peers`` (:mod:`umtali.sim.peers`): our engine, and the
Gin Rummy engines of OpenSpiel and RLCard, each playing uniform-random hands through its
own public Python interface.

* ``umtali gin_rummy`` (action ints): :meth:`GinHand.legal_actions` and
  :meth:`GinHand.push`, the same game as the peers below, so its ratio to them compares
  like with like.
* ``open_spiel gin_rummy`` through ``pyspiel``: ``legal_actions``, a random choice,
  ``apply_action``; chance nodes (the deal and every stock draw) sampled from
  ``chance_outcomes``. Only player actions count as moves.
* ``rlcard gin-rummy``: the environment's step loop, ``env.reset()`` then
  ``env.step(action)`` with the action drawn from the state's ``legal_actions``. Its
  legal-move call is ``env._get_legal_actions()``, the one ``step`` itself makes.

The peers are optional (``pip install -e '.[bench]'``). The rules of our Gin Rummy and
OpenSpiel's differ in a few details (docs/RULES.md, Part 7).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from umtali.games.gin.state import GinHand
from umtali.kernel.deck import shuffled_deck
from umtali.sim.peers import HandEngine, OneHandEngine

__all__ = ["OpenSpielGin", "RLCardGin", "UmtaliGin"]


class UmtaliGin(HandEngine):
    """Our Gin Rummy's engine on action ints (see the module)."""

    name = "umtali gin_rummy"
    read_legal: Callable[[GinHand], Sequence[int]] = staticmethod(GinHand.legal_actions)

    def deal(self, rng: random.Random) -> GinHand:
        return GinHand(shuffled_deck(rng), rng.randrange(2))


def _pick_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn with its probability (OpenSpiel's deals are uniform, so
    the common case is one ``randrange``)."""
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[rng.randrange(len(outcomes))][0]
    actions = [a for a, _ in outcomes]
    return rng.choices(actions, weights=[p for _, p in outcomes])[0]


class OpenSpielGin(OneHandEngine):
    name = "open_spiel gin_rummy"

    def __init__(self) -> None:
        from importlib.metadata import version

        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self.version = version("open_spiel")
        self.game = pyspiel.load_game("gin_rummy")

    def play_hand(self, rng: random.Random) -> int:
        state = self.game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_pick_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_pick_outcome(state.chance_outcomes(), rng))
            else:
                t0 = clock()
                legal = state.legal_actions()
                times.append(clock() - t0 - overhead)
                state.apply_action(legal[rng.randrange(len(legal))])


class RLCardGin(OneHandEngine):
    name = "rlcard gin-rummy"

    def __init__(self, seed: int) -> None:
        from importlib.metadata import version

        import rlcard  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self.version = version("rlcard")
        self.env: Any = rlcard.make("gin-rummy", config={"seed": seed})

    def play_hand(self, rng: random.Random) -> int:
        env = self.env
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        env = self.env
        env.reset()
        while not env.is_over():
            t0 = clock()
            legal = list(env._get_legal_actions())
            times.append(clock() - t0 - overhead)
            env.step(legal[rng.randrange(len(legal))])
