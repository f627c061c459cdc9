"""Toy: a small game registered only in the tests, to show that a game plugs in through
its own folder alone. It plays through every front end (``umtali play``, ``umtali arena``,
``umtali replay``, the web API) and passes the conformance suite (tests/test_conformance.py)
with no edit anywhere else: the tests register it (``UMTALI_GAMES=tests.toy_game:SPEC`` for
a process they start, :func:`registered` in their own, for the while a test needs it).

Its rules are in :mod:`tests.toy_game.game`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from tests.toy_game.game import CARDS
from umtali import games
from umtali.games.api import GameSpec

SPEC: Final = GameSpec(
    name="toy",
    title="Toy",
    summary="Twelve cards, three in hand: beat the card on the pile.",
    seat_counts=(2,),
    variants=("standard", "hearts"),
    levels=("random", "greedy"),
    default_level="greedy",
    deck_size=12,
    deck_cards=CARDS,
    sessions="tests.toy_game.session:SESSIONS",
    record="tests.toy_game.record:BODY",
    events="tests.toy_game.replay:match_events",
    terminal="tests.toy_game.terminal:SCREEN",
    table="tests.toy_game.table:TABLE",
)


@contextmanager
def registered() -> Iterator[GameSpec]:
    """Toy in the registry for a while, and out of it again after: the other tests see the
    games built in alone."""
    games.register(SPEC, replace=True)
    try:
        yield SPEC
    finally:
        games.unregister(SPEC.name)


def every_game() -> tuple[GameSpec, ...]:
    """The games registered, Toy last, without registering it (for parametrizing tests)."""
    return (*(spec for spec in games.games() if spec.name != SPEC.name), SPEC)
