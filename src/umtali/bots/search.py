"""The ``search`` level: determinized Monte Carlo over the choices that matter.

At a draw or a discard, with more than one choice, it deals the cards it cannot see at
random in agreement with its view (:func:`umtali.view.determinize`), plays each candidate
out to the end of the hand with the expert policy for both players, and keeps the
candidate with the best mean score difference (its hand score minus the opponent's).
Candidates are tried in turn until the budget is spent: a number of playouts, and a
time limit. Meld-phase choices (which only reorder plays, or pick between overlapping
melds) are left to the expert, which scores them directly.
"""

from __future__ import annotations

import random
import time

from umtali.bots.expert import ExpertBot
from umtali.moves import Move, MoveKind
from umtali.state import HandState
from umtali.view import PlayerView, determinize

__all__ = ["SearchBot"]


class SearchBot:
    """Determinized playouts with the expert policy; see the module docstring.

    Args:
        playouts: the most playouts per decision (over all candidates).
        max_ms: the most time per decision, in milliseconds.
    """

    name = "search"

    def __init__(self, playouts: int = 240, max_ms: float = 900.0) -> None:
        if playouts < 1 or max_ms <= 0:
            raise ValueError("the search bot needs at least one playout and some time")
        self.playouts = playouts
        self.max_ms = max_ms
        self.policy = ExpertBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        legal = view.legal
        if not legal:
            raise ValueError("the search bot was asked to move when it has no legal move")
        kinds = {m.kind for m in legal}
        searchable = kinds & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO} or (
            MoveKind.DISCARD in kinds and not kinds & {MoveKind.MELD, MoveKind.SOLO}
        )
        candidates = _distinct(legal)
        if len(candidates) == 1 or not searchable:
            return self.policy.choose(view, rng)
        return self._search(view, candidates, rng)

    def _search(self, view: PlayerView, candidates: list[Move], rng: random.Random) -> Move:
        deadline = time.perf_counter() + self.max_ms / 1000
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        done = 0
        while done < self.playouts:
            # One determinization serves every candidate: their comparison is paired.
            world = determinize(view, rng)
            for i, move in enumerate(candidates):
                totals[i] += self._playout(world.clone(), move, view.player, rng)
                counts[i] += 1
                done += 1
            if time.perf_counter() > deadline:
                break
        best = max(range(len(candidates)), key=lambda i: totals[i] / max(1, counts[i]))
        return candidates[best]

    def _playout(self, state: HandState, move: Move, me: int, rng: random.Random) -> float:
        state.push(move)
        policy = self.policy
        while not state.is_over():
            actions = state.legal_actions()
            if len(actions) == 1:
                state.push(actions[0])
                continue
            p = state.player
            state.push(policy.choose(PlayerView.of(state, p, with_history=False), rng))
        outcome = state.outcome()
        assert outcome is not None
        return float(outcome.scores[me] - outcome.scores[1 - me])


def _distinct(legal: tuple[Move, ...]) -> list[Move]:
    """The legal moves with solos that differ only in the card played off merged."""
    seen: set[tuple[MoveKind, tuple[int, ...]]] = set()
    out = []
    for m in legal:
        key = (m.kind, m.cards) if m.kind is MoveKind.SOLO else (m.kind, (m.action,))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out
