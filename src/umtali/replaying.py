"""A recorded hand or match, told turn by turn as a stream of events (layer 5).

``umtali replay`` and ``umtali demo`` show a game with both hands visible: each hand's
dealer, each turn and who plays it, every move as a sentence, the board after each turn,
who won each hand, each game's totals, and, for a record saved before its end, where it
stopped and who was to move. :func:`match_events` and :func:`hand_events` work all of
that out by replaying the moves on a fresh :class:`~umtali.state.HandState`, and yield it
in order; a front end only draws each event (the terminal prints them, and may pause
after a :class:`TurnEnds` or a :class:`HandEnds` whose ``more`` is true).

>>> from umtali.lessons import LESSONS
>>> events = list(hand_events(LESSONS[0].state_at()))
>>> events[0].title, events[1].sentence
('Player 2 deals', 'Player 2 deals and keeps the 11th card')
>>> [e.title for e in events if isinstance(e, TurnBegins)][:2]
['turn 1 · Player 2', 'turn 2 · Player 1']
>>> events[-1].result
'Player 1 wins the hand, 31 to 28.'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from umtali.describe import describe_move
from umtali.match import Match
from umtali.moves import Move
from umtali.state import HandState, player_name

__all__ = [
    "Event",
    "GameTotals",
    "HandBegins",
    "HandEnds",
    "HandStops",
    "Heading",
    "MatchEnds",
    "Moved",
    "TurnBegins",
    "TurnEnds",
    "hand_events",
    "hand_result",
    "match_events",
    "seat_labels",
]


# -- the events ------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """What the record holds: ``"Game between Ann (Player 1) and Player 2, rules: standard"``."""

    text: str


@dataclass(frozen=True)
class HandBegins:
    """A hand begins: its number in the match (``None`` for a hand told alone), its
    dealer, and a title naming them (``"Hand 2 · Player 1 deals"``)."""

    number: int | None
    dealer: int
    title: str


@dataclass(frozen=True)
class TurnBegins:
    """A turn begins (the dealer's choice of the 11th card comes before turn 1):
    ``"turn 3 · Player 2"``."""

    turn: int
    player: int
    title: str


@dataclass(frozen=True)
class Moved:
    """A move, told as a sentence (both hands are visible: nothing is hidden)."""

    player: int
    move: Move
    sentence: str


@dataclass(frozen=True)
class TurnEnds:
    """A move passed the turn; ``state`` is a copy of the hand at that moment."""

    state: HandState


@dataclass(frozen=True)
class HandEnds:
    """The hand is over: ``state`` a copy of it, ``result`` who won it and the score
    (:func:`hand_result`), ``more`` whether other hands follow it in the record."""

    state: HandState
    result: str
    more: bool


@dataclass(frozen=True)
class HandStops:
    """The record stops in the middle of this hand; ``state`` a copy of it there."""

    state: HandState


@dataclass(frozen=True)
class GameTotals:
    """A game of the match is finished: its number (from 1) and its totals."""

    game: int
    totals: tuple[int, int]
    text: str


@dataclass(frozen=True)
class MatchEnds:
    """The last word on the match: who won it (``over``), or where an unfinished record
    stops and who is to move there. A single finished hand has none: its
    :class:`HandEnds` says it all."""

    over: bool
    text: str


Event = (
    Heading
    | HandBegins
    | TurnBegins
    | Moved
    | TurnEnds
    | HandEnds
    | HandStops
    | GameTotals
    | MatchEnds
)
"""Any event of a replay."""


# -- the words ---------------------------------------------------------------------------


def hand_result(hand: HandState) -> str:
    """Who won a finished hand, and the score, the winner's first.

    >>> from umtali.lessons import LESSONS
    >>> hand_result(LESSONS[2].state_at())  # 33 to 52, Player 1's score first
    'Player 2 wins the hand, 52 to 33.'
    """
    outcome = hand.outcome()
    if outcome is None:
        raise ValueError("the hand is not over")
    scores, winner = outcome.scores, outcome.winner
    if winner is None:
        return f"The hand is drawn, {scores[0]} to {scores[1]}."
    return f"{player_name(winner)} wins the hand, {scores[winner]} to {scores[1 - winner]}."


def seat_labels(names: tuple[str, str]) -> tuple[str, str]:
    """The players as a replay names them: by name, with the seat after a name that is
    not the seat's own (the moves are told by seat).

    >>> seat_labels(("Ann", "Player 2"))
    ('Ann (Player 1)', 'Player 2')
    """
    first, second = (
        name if name == player_name(seat) else f"{name} ({player_name(seat)})"
        for seat, name in enumerate(names)
    )
    return first, second


def _unfinished(match: Match, seats: tuple[str, str]) -> str:
    """Where the record of a match that is not over stops, and who is to move there."""
    hand = match.current
    what = f"The {match.kind} is unfinished"
    if hand is None:  # the record stops between two hands
        done = f" after hand {len(match.hands)}" if match.hands else ""
        return f"{what}{done}, with {seats[match.next_dealer()]} to deal the next hand."
    where = "it" if match.kind == "hand" else f"hand {len(match.hands)}"
    turn = f"turn {hand.turn}" if hand.turn else "the deal"
    return f"{what}: {where} stops at {turn}, with {seats[hand.player]} to move."


# -- the streams --------------------------------------------------------------------------


def hand_events(
    recorded: HandState, number: int | None = None, *, more: bool = False
) -> Iterator[Event]:
    """The moves of ``recorded`` (finished or not) replayed on a fresh hand, as events:
    its beginning, each turn's, every move, the board after each turn, and its result or
    where it stops. ``number``: the hand's place in its match; ``more``: other hands
    follow it."""
    hand = HandState(recorded.deck, recorded.dealer, recorded.rules)
    dealer = f"{player_name(hand.dealer)} deals"
    yield HandBegins(number, hand.dealer, dealer if number is None else f"Hand {number} · {dealer}")
    shown = hand.turn
    for move in recorded.moves_played():
        if hand.turn != shown:
            shown = hand.turn
            if shown:
                yield TurnBegins(shown, hand.player, f"turn {shown} · {player_name(hand.player)}")
        yield Moved(hand.player, move, describe_move(hand, move))
        before = hand.turn
        hand.push(move)
        if hand.is_over():
            yield HandEnds(hand.clone(), hand_result(hand), more)
        elif hand.turn != before:
            yield TurnEnds(hand.clone())
    if not hand.is_over():
        yield HandStops(hand.clone())


def match_events(match: Match, names: tuple[str, str] | None = None) -> Iterator[Event]:
    """A whole record as events: the heading, every hand (:func:`hand_events`), each
    finished game's totals, and the last word (:class:`MatchEnds`). ``names``: the
    players' names as the front end shows them (a terminal escapes control characters);
    the record's own by default.

    >>> from umtali.lessons import LESSONS
    >>> match = Match(kind="game", first_dealer=1, players=("Ann", "Player 2"))
    >>> _ = match.new_hand(LESSONS[0].deck()).push_text("keep")
    >>> events = list(match_events(match))
    >>> events[0].text
    'Game between Ann (Player 1) and Player 2, rules: standard'
    >>> events[-1].text
    'The game is unfinished: hand 1 stops at turn 1, with Player 2 to move.'
    """
    shown = names if names is not None else match.players
    seats = seat_labels(shown)
    yield Heading(
        f"{match.kind.capitalize()} between {seats[0]} and {seats[1]}, rules: {match.rules.name}"
    )
    per = match.rules.hands_per_game
    for number, recorded in enumerate(match.hands, start=1):
        yield from hand_events(recorded, number, more=number < len(match.hands))
        if number % per == 0 and recorded.is_over():
            game = number // per
            totals = match.game_totals(game - 1)
            yield GameTotals(game, totals, f"game {game} totals: {totals[0]}–{totals[1]}")
    if not match.is_over():
        yield MatchEnds(False, _unfinished(match, seats))
    elif match.kind != "hand":
        winner = match.winner()
        result = "drawn" if winner is None else f"won by {shown[winner]}"
        yield MatchEnds(True, f"The {match.kind} is over: {result}.")
