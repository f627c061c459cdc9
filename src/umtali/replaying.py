"""A record of any game told turn by turn (layer 5): ``umtali replay``, ``umtali demo``
and the browser's replay page draw these events.

:func:`events` asks the registry which game the record is of and lets that game tell it
(:attr:`umtali.games.api.GameSpec.events`), in the one vocabulary of
:mod:`umtali.games.events`: the heading, each hand's beginning, each turn's, every move
as a sentence, the board after each turn, each hand's end, the totals, and the last
word. A front end draws each event, and asks the game's own screen or table to draw a
``board`` or a hand's ``summary``.

>>> from umtali.games.umtali.lessons import LESSONS
>>> from umtali.games.umtali.match import Match
>>> match = Match(kind="game", first_dealer=1, players=("Ann", "Player 2"))
>>> _ = match.new_hand(LESSONS[0].deck()).push_text("keep")
>>> told = list(events(match))
>>> told[0].text
'Game between Ann (Player 1) and Player 2, rules: standard'
>>> told[-1].text
'The game is unfinished: hand 1 stops at turn 1, with Player 2 to move.'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from umtali import games
from umtali.games.events import (
    Event,
    GameEnds,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    MatchEnds,
    Moved,
    Totals,
    TurnBegins,
    TurnEnds,
)

__all__ = [
    "Event",
    "GameEnds",
    "HandBegins",
    "HandEnds",
    "HandStops",
    "Heading",
    "MatchEnds",
    "Moved",
    "Totals",
    "TurnBegins",
    "TurnEnds",
    "events",
]


def events(match: object, names: Sequence[str] | None = None) -> Iterator[Event]:
    """The record ``match`` (of any registered game) told as events; ``names``: the
    players' names as the front end shows them (a terminal escapes control characters),
    the record's own by default."""
    return games.spec_of(match).tell(match, names)
