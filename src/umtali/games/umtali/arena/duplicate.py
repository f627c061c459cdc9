"""Duplicate single hands of Umtali, for the benchmarks that measure a change to a
computer player against another (``benchmarks/tune_expert.py``,
``benchmarks/hidden_cards.py``).

Each deal is played twice, the challenger in each seat, as a hand inside a game with the
totals level (``hands_left`` hands to come; two, the second hand of a four-hand game,
unless told), so that neither player plays it as the game's last. A deal's figure is
the challenger's mean margin over its two seats (its hand score minus the other's), so
the luck of the cards cancels as far as the two players play alike. Unlike the arena's ``--single-hands``, a player here is handed the
state as well as its view: a benchmark that bounds what knowledge is worth needs to
give a player what the rules hide; a fair player reads only the view.

>>> import random
>>> from umtali.games.umtali.bots import ExpertBot
>>> expert = ExpertBot()
>>> def by_view(state, view, rng):
...     return expert.choose(view, rng)
>>> duplicate_margins(by_view, by_view, "doc", range(3))
[0.0, 0.0, 0.0]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandOutcome, HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import seeded_deck
from umtali.learn.review import play_to_end

__all__ = ["Chooser", "by_deal", "duplicate_last_hands", "duplicate_margins"]

Chooser = Callable[[HandState, PlayerView, random.Random], Move]
"""A player: the move for the player to move, from the state, his view and an RNG."""


def duplicate_margins(
    challenger: Chooser,
    other: Chooser,
    label: str,
    deals: range,
    *,
    hands_left: int = 2,
    with_history: bool = True,
) -> list[float]:
    """For each deal of ``deals``, the challenger's mean margin over its two seats.

    Deal ``d`` is ``seeded_deck(f"{label}/{d}")`` with player ``d % 2`` dealing. Both
    players draw on one RNG seeded 0, so a run gives the same figures anywhere.
    ``with_history=False`` leaves the move history out of the views (quicker, for
    players that do not read it)."""
    rng = random.Random(0)
    out = []
    for d in deals:
        deck = seeded_deck(f"{label}/{d}")
        total = 0
        for seat in (0, 1):
            played = _play(
                challenger, other, deck, d % 2, seat, (0, 0), hands_left, with_history, rng
            )
            total += played.scores[seat] - played.scores[1 - seat]
        out.append(total / 2)
    return out


def duplicate_last_hands(
    challenger: Chooser,
    other: Chooser,
    label: str,
    deals: range,
    lead: Callable[[int], int],
    *,
    with_history: bool = True,
) -> list[float]:
    """For each deal of ``deals``, the challenger's mean game result over its two seats
    (a game won 1, drawn ½, lost 0) when the deal is the game's last hand and the
    challenger leads the game's totals by ``lead(d)`` points (trails, if negative).

    Deals as :func:`duplicate_margins`; the lead is the challenger's in both seats, so
    the two plays of a deal differ only in who holds which cards.

    >>> import random
    >>> from umtali.games.umtali.bots import ExpertBot
    >>> expert = ExpertBot()
    >>> def by_view(state, view, rng):
    ...     return expert.choose(view, rng)
    >>> duplicate_last_hands(by_view, by_view, "doc", range(3), lambda d: 200)
    [1.0, 1.0, 1.0]
    """
    rng = random.Random(0)
    out = []
    for d in deals:
        deck = seeded_deck(f"{label}/{d}")
        ahead = lead(d)
        total = 0.0
        for seat in (0, 1):
            scores = (ahead, 0) if seat == 0 else (0, ahead)
            played = _play(challenger, other, deck, d % 2, seat, scores, 0, with_history, rng)
            final = ahead + played.scores[seat] - played.scores[1 - seat]
            total += 1.0 if final > 0 else 0.5 if final == 0 else 0.0
        out.append(total / 2)
    return out


def _play(
    challenger: Chooser,
    other: Chooser,
    deck: tuple[int, ...],
    dealer: int,
    seat: int,
    game_scores: tuple[int, int],
    hands_left: int,
    with_history: bool,
    rng: random.Random,
) -> HandOutcome:
    """One hand of ``deck``, the challenger in ``seat``, played to its end."""
    hand = HandState(deck, dealer=dealer)

    def choose(state: HandState) -> Move:
        player = state.player
        view = PlayerView.of(state, player, game_scores, hands_left, with_history=with_history)
        return (challenger if player == seat else other)(state, view, rng)

    play_to_end(hand, choose)
    outcome = hand.outcome()
    assert outcome is not None
    return outcome


def by_deal(work: Callable[[range], list[float]], deals: int, jobs: int) -> list[float]:
    """``work`` over ``range(deals)``, shared among ``jobs`` worker processes (``work``
    must pickle: a module's function, or a ``functools.partial`` of one), its figures
    put back in deal order. Each worker's call starts its RNG afresh, so players that
    draw on it give other figures with other ``jobs`` (the expert does not)."""
    if jobs == 1:
        return work(range(deals))
    chunks = [range(i, deals, jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(work, chunks))
    out = [0.0] * deals
    for chunk, part in zip(chunks, parts, strict=True):
        for d, m in zip(chunk, part, strict=True):
            out[d] = m
    return out
