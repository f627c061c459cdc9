"""A recorded hand or match, told turn by turn as a stream of events (layer 5).

``umtali replay`` and ``umtali demo`` show a game with both hands visible: each hand's
dealer, each turn and who plays it, every move as a sentence, the board after each turn,
who won each hand, each game's totals, and, for a record saved before its end, where it
stopped and who was to move. :func:`match_events` and :func:`hand_events` work all of
that out by replaying the moves on a fresh :class:`~umtali.games.umtali.state.HandState`, and yield it
in order; a front end only draws each event (the terminal prints them, and may pause
after a :class:`TurnEnds` or a :class:`HandEnds` whose ``more`` is true).

>>> from umtali.games.umtali.lessons import LESSONS
>>> events = list(hand_events(LESSONS[0].state_at()))
>>> events[0].title, events[1].sentence
('Player 2 deals', 'Player 2 deals and keeps the 11th card')
>>> [e.title for e in events if isinstance(e, TurnBegins)][:2]
['turn 1 · Player 2', 'turn 2 · Player 1']
>>> events[-1].result
'Player 1 wins the hand, 31 to 28.'

A record of Gin Rummy is told by :func:`gin_match_events` (or :func:`any_match_events`,
for a record of either game) with events of its own where the games differ: its moves
(:class:`GinMoved`), its boards (:class:`GinTurnEnds`, a :class:`GinBoard` each), the
end of each hand with both sides' melds, layoffs, deadwood and points
(:class:`GinHandEnds`), and the game's end with its bonuses (:class:`GinGameEnds`).

A record of three- or four-hand Gin Rummy is told by :func:`party_match_events`: the
draw for places or the teams, then every hand as a game of two tells it, each begun by
who plays whom at it and who deals (:class:`PartyHandBegins`, whose ``names`` the
hand's board is drawn with), the running totals after each hand or deal
(:class:`PartyTotals`), and the winners with their bonuses.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from umtali.games.gin.match import GinMatch, GinPartyMatch, PartyGame, tables_of
from umtali.games.gin.party import FourHandGame, FourHandSeats, Table, ThreeHandGame, ThreeHandSeats
from umtali.games.gin.party_session import (
    deal_sentence,
    draw_sentence,
    result_sentence,
    seating_sentence,
    teams_sentence,
    totals_sentence,
)
from umtali.games.gin.session import (
    GinHandSummary,
    GinScoreSheet,
    gin_result_sentence,
    gin_variant,
    summarize_gin_hand,
    tell_gin_move,
)
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.umtali.describe import describe_move
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState, player_name
from umtali.kernel.english import object_name
from umtali.kernel.record import AnyRecord

__all__ = [
    "AnyEvent",
    "Event",
    "GameTotals",
    "GinBoard",
    "GinEvent",
    "GinGameEnds",
    "GinHandEnds",
    "GinHandStops",
    "GinMoved",
    "GinTurnEnds",
    "HandBegins",
    "HandEnds",
    "HandStops",
    "Heading",
    "MatchEnds",
    "Moved",
    "PartyEvent",
    "PartyHandBegins",
    "PartyTotals",
    "TurnBegins",
    "TurnEnds",
    "any_match_events",
    "gin_hand_events",
    "gin_match_events",
    "hand_events",
    "hand_result",
    "match_events",
    "party_match_events",
    "seat_labels",
]


_MoveT = TypeVar("_MoveT")


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

    @classmethod
    def of(cls, number: int | None, dealer: int, labels: tuple[str, str]) -> HandBegins:
        """Hand ``number`` (``None``: told alone) dealt by ``dealer``, the players called
        ``labels``.

        >>> HandBegins.of(2, 0, ("Ann", "Bob")).title
        'Hand 2 · Ann deals'
        """
        deals = f"{labels[dealer]} deals"
        return cls(number, dealer, deals if number is None else f"Hand {number} · {deals}")


@dataclass(frozen=True)
class TurnBegins:
    """A turn begins (the dealer's choice of the 11th card comes before turn 1):
    ``"turn 3 · Player 2"``."""

    turn: int
    player: int
    title: str


@dataclass(frozen=True)
class _MoveTold(Generic[_MoveT]):
    """A move of either game, told as a sentence: who played it, and the move."""

    player: int
    move: _MoveT
    sentence: str


class Moved(_MoveTold[Move]):
    """A move, told as a sentence (both hands are visible: nothing is hidden)."""


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
"""Any event of a replay of Umtali."""


# -- Gin Rummy's events ----------------------------------------------------------------------


@dataclass(frozen=True)
class GinBoard:
    """A hand of Gin Rummy at one moment, every card shown (a replay hides nothing):
    both players' cards (masks), the discard pile (the top last), the cards left in the
    stock, the hand's knock limit and its multiplier (2 under Oklahoma's spade upcard)."""

    hands: tuple[int, int]
    pile: tuple[int, ...]
    stock: int
    knock_limit: int
    multiplier: int

    @classmethod
    def of(cls, hand: GinHand) -> GinBoard:
        return cls(hand.hands, hand.pile, hand.stock_size(), hand.knock_limit, hand.multiplier)


class GinMoved(_MoveTold[GinMove]):
    """A move of Gin Rummy, told as a sentence with every card named."""


@dataclass(frozen=True)
class GinTurnEnds:
    """A move passed the turn to the other player; ``board`` is the hand then."""

    board: GinBoard


@dataclass(frozen=True)
class GinHandEnds:
    """The hand is over: ``board`` as it ended, ``summary`` how (both sides' melds,
    layoffs, deadwood and points, and a sentence), ``more`` whether hands follow."""

    board: GinBoard
    summary: GinHandSummary
    more: bool


@dataclass(frozen=True)
class GinHandStops:
    """The record stops in the middle of this hand; ``board`` is the hand there."""

    board: GinBoard


@dataclass(frozen=True)
class GinGameEnds:
    """The game is over: its score sheet (each hand's points, the totals, the line and
    game bonuses and any shutout) and the sentence that tells who won."""

    sheet: GinScoreSheet
    text: str


GinEvent = (
    Heading
    | HandBegins
    | TurnBegins
    | GinMoved
    | GinTurnEnds
    | GinHandEnds
    | GinHandStops
    | GinGameEnds
    | MatchEnds
)
"""Any event of a replay of Gin Rummy: the heading, a hand's and a turn's beginning and
the last word are the same events as Umtali's."""


# -- three- and four-hand Gin Rummy's events -------------------------------------------------


@dataclass(frozen=True)
class PartyHandBegins:
    """A hand of a party game begins: its ``number`` (from 1), its ``table`` (the party's
    players at its seats 0 and 1, and who deals), the ``names`` of those two as the
    hand's moves and board call them, and a ``title`` that says it all."""

    number: int
    table: Table
    names: tuple[str, str]
    title: str


@dataclass(frozen=True)
class PartyTotals:
    """A hand (three-hand) or a deal (four-hand) is counted: each player's totals (each
    team's in four-hand), and ``text``, what the deal scored and the totals in words."""

    totals: tuple[int, ...]
    text: str


PartyEvent = GinEvent | PartyHandBegins | PartyTotals
"""Any event of a replay of three- or four-hand Gin Rummy: its hands are told as a game
of two tells them (each begun by a :class:`PartyHandBegins`, not a
:class:`HandBegins`)."""

AnyEvent = Event | GinEvent | PartyEvent
"""Any event of a replay of any game."""


# -- the words ---------------------------------------------------------------------------


def hand_result(hand: HandState) -> str:
    """Who won a finished hand, and the score, the winner's first.

    >>> from umtali.games.umtali.lessons import LESSONS
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
    if hand is None:
        return _between_hands(what, match, seats)
    where = "it" if match.kind == "hand" else f"hand {len(match.hands)}"
    turn = f"turn {hand.turn}" if hand.turn else "the deal"
    return f"{what}: {where} stops at {turn}, with {seats[hand.player]} to move."


class _Dealing(Protocol):
    @property
    def hands(self) -> Sequence[object]: ...
    def next_dealer(self) -> int: ...


def _between_hands(what: str, match: _Dealing, seats: tuple[str, str]) -> str:
    """Where the record of a match of either game stops between two hands (or before
    the first): ``what`` is unfinished, and who deals next."""
    done = f" after hand {len(match.hands)}" if match.hands else ""
    return f"{what}{done}, with {seats[match.next_dealer()]} to deal the next hand."


# -- the streams --------------------------------------------------------------------------


def hand_events(
    recorded: HandState, number: int | None = None, *, more: bool = False
) -> Iterator[Event]:
    """The moves of ``recorded`` (finished or not) replayed on a fresh hand, as events:
    its beginning, each turn's, every move, the board after each turn, and its result or
    where it stops. ``number``: the hand's place in its match; ``more``: other hands
    follow it."""
    hand = HandState(recorded.deck, recorded.dealer, recorded.rules)
    yield HandBegins.of(number, hand.dealer, (player_name(0), player_name(1)))
    shown = hand.turn
    if shown and recorded.moves_played():
        # With no dealer's choice (the practical rules' upcard) turn 1 begins at the deal.
        yield TurnBegins(shown, hand.player, f"turn {shown} · {player_name(hand.player)}")
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

    >>> from umtali.games.umtali.lessons import LESSONS
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


# -- Gin Rummy's stream ----------------------------------------------------------------------


def gin_hand_events(
    recorded: GinHand,
    number: int | None = None,
    *,
    more: bool = False,
    labels: tuple[str, str] = (player_name(0), player_name(1)),
) -> Iterator[GinEvent]:
    """The moves of the Gin Rummy hand ``recorded`` (finished or not) replayed on a
    fresh hand, as events: its beginning, each turn's (a turn is one player's moves
    until the other's), every move, the board after each turn, and its end or where it
    stops. The players are told by seat, as in Umtali's replay, unless ``labels``
    names them.

    >>> hand = GinHand.from_seed(7)
    >>> for text in ("pass", "pass", "draw", "discard Kh"):
    ...     hand.push_text(text)
    >>> events = list(gin_hand_events(hand))
    >>> [e.title for e in events if isinstance(e, (HandBegins, TurnBegins))]
    ['Player 1 deals', 'turn 1 · Player 2', 'turn 2 · Player 1', 'turn 3 · Player 2']
    >>> [e.sentence for e in events if isinstance(e, GinMoved)][2:]
    ['Player 2 draws 5♠ from the stock', 'Player 2 discards K♥']
    >>> type(events[-1]).__name__
    'GinHandStops'
    """
    hand = GinHand(recorded.deck, recorded.dealer, recorded.rules)
    yield HandBegins.of(number, hand.dealer, labels)
    turn = 0
    for index, (player, action) in enumerate(recorded.history):
        if index == 0 or recorded.history[index - 1][0] != player:
            turn += 1
            yield TurnBegins(turn, player, f"turn {turn} · {labels[player]}")
        hand.push(action)
        yield GinMoved(player, GinMove.of_action(action), tell_gin_move(hand, index, labels))
        if hand.is_over():
            yield GinHandEnds(GinBoard.of(hand), summarize_gin_hand(hand, labels), more)
        elif hand.to_move() != player:
            yield GinTurnEnds(GinBoard.of(hand))
    if not hand.is_over():
        yield GinHandStops(GinBoard.of(hand))


def gin_match_events(match: GinMatch, names: tuple[str, str] | None = None) -> Iterator[GinEvent]:
    """A whole record of Gin Rummy as events: the heading, every hand
    (:func:`gin_hand_events`), the game's end with its bonuses once it is over, and the
    last word. ``names``: the players' names as the front end shows them.

    >>> match = GinMatch(first_dealer=1, players=("Ann", "Bob"))
    >>> match.new_hand(GinHand.from_seed(7).deck).push_text("take")
    >>> events = list(gin_match_events(match))
    >>> events[0].text
    'Gin Rummy between Ann (Player 1) and Bob (Player 2), to 100'
    >>> events[-1].text
    'The game is unfinished: hand 1 stops at turn 1, with Ann (Player 1) to move.'
    """
    shown = names if names is not None else match.players
    seats = seat_labels(shown)
    rules = match.rules
    yield Heading(f"{gin_variant(rules)} between {seats[0]} and {seats[1]}, to {rules.game_target}")
    for number, recorded in enumerate(match.hands, start=1):
        yield from gin_hand_events(recorded, number, more=number < len(match.hands))
    result = match.result()
    if result is None:
        yield MatchEnds(False, _gin_unfinished(match, seats))
        return
    yield GinGameEnds(GinScoreSheet.of(match), gin_result_sentence(result, shown))
    yield MatchEnds(True, f"The game is over: won by {shown[result.winner]}.")


def _gin_unfinished(match: GinMatch, seats: tuple[str, str]) -> str:
    """Where the record of a game of Gin Rummy that is not over stops, and who is to
    move there."""
    hand = match.current
    if hand is None:
        return _between_hands("The game is unfinished", match, seats)
    return f"The game is unfinished: {_stops_at(hand, len(match.hands), seats)}."


def _stops_at(hand: GinHand, number: int, names: tuple[str, str]) -> str:
    """Where the unfinished Gin Rummy ``hand`` stops: its turn, and who is to move."""
    mover = hand.to_move()
    assert mover is not None
    turn = 1 + sum(
        1 for i in range(1, len(hand.history)) if hand.history[i][0] != hand.history[i - 1][0]
    )
    if hand.history and hand.history[-1][0] != mover:
        turn += 1
    return f"hand {number} stops at turn {turn}, with {names[mover]} to move"


# -- three- and four-hand Gin Rummy's stream ---------------------------------------------------


def party_match_events(
    match: GinPartyMatch, names: Sequence[str] | None = None
) -> Iterator[PartyEvent]:
    """A whole record of three- or four-hand Gin Rummy as events: the heading, the draw
    for places or the teams, every hand (:func:`gin_hand_events`, the players called by
    name) begun by its table, the totals after each hand or deal counted, and the last
    word: the winners with the bonuses, or where an unfinished record stops. The party
    game is played again from its start, so each total is the one of that moment.
    ``names``: the players' names as the front end shows them.

    >>> from umtali.kernel.cards import parse_cards
    >>> from umtali.kernel.deck import seeded_deck
    >>> game = ThreeHandGame(drawn=tuple(parse_cards("4h Kc 9s")))
    >>> match = GinPartyMatch(game, players=("Ann", "Bob", "Cy"))
    >>> match.deal_next(seeded_deck(7)).hand.push_text("take")
    >>> events = list(party_match_events(match))
    >>> [event.text for event in events if isinstance(event, Heading)]
    ['Three-hand Gin Rummy between Ann, Bob and Cy, to 100', 'Bob drew K♣ and plays alone first; Cy drew 9♠ and sits out; Ann drew 4♥ and plays for the team.']
    >>> events[2].title
    'Hand 1: Bob alone against Ann, Ann to deal; Cy sits out'
    >>> events[-1].text
    'The game is unfinished: hand 1 stops at turn 1, with Bob to move.'
    """
    shown = tuple(names if names is not None else match.players)
    rules = match.rules
    size = "Three-hand" if match.size == 3 else "Four-hand"
    everyone = f"{', '.join(shown[:-1])} and {shown[-1]}"
    yield Heading(f"{size} {gin_variant(rules)} between {everyone}, to {rules.game_target}")
    game: PartyGame
    if isinstance(match.game, ThreeHandGame):
        game = ThreeHandGame(match.game.drawn, rules)
    else:
        game = FourHandGame(rules, match.game.first_dealers)
    places = draw_sentence(game, shown) or teams_sentence(game, shown)
    if places is not None:
        yield Heading(places)
    per_deal = 2 if isinstance(game, FourHandGame) else 1
    stops: list[str] = []
    for first in range(0, len(match.hands), per_deal):
        seats = game.next_seats()
        deal = match.hands[first : first + per_deal]
        for index, seated in enumerate(deal):
            a, b = seated.table.players
            labels = (shown[a], shown[b])
            if isinstance(seats, FourHandSeats):
                one, other, dealer = (
                    object_name(shown[player]) for player in (a, b, seated.table.dealer)
                )
                title = (
                    f"Hand {seated.number} · deal {seats.deal}, table {index + 1}: {one}"
                    f" against {other}, {dealer} to deal"
                )
            else:
                title = seating_sentence(seats, shown).rstrip(".")
            yield PartyHandBegins(seated.number, seated.table, labels, title)
            told = gin_hand_events(
                seated.hand, seated.number, more=seated.number < len(match.hands), labels=labels
            )
            next(told)  # its own beginning: the table's title above says more
            yield from told
            if not seated.hand.is_over():
                stops.append(_stops_at(seated.hand, seated.number, labels))
        if stops:
            break
        assert tables_of(seats) == tuple(seated.table for seated in deal)
        if isinstance(game, FourHandGame):
            assert isinstance(seats, FourHandSeats)
            game.record(seats, [seated.hand for seated in deal])
        else:
            assert isinstance(seats, ThreeHandSeats)
            game.record(seats, deal[0].hand)
        scored = deal_sentence(game, shown)
        totals = totals_sentence(game, shown)
        yield PartyTotals(game.totals(), totals if scored is None else f"{scored} {totals}")
    if game.is_over():
        yield MatchEnds(True, result_sentence(game, shown))
    elif stops:
        yield MatchEnds(False, f"The game is unfinished: {'; '.join(stops)}.")
    else:
        yield MatchEnds(
            False, f"The game is unfinished: next, {seating_sentence(game.next_seats(), shown)}"
        )


def any_match_events(match: AnyRecord, names: Sequence[str] | None = None) -> Iterator[AnyEvent]:
    """A record of any game as events: :func:`match_events` for Umtali's,
    :func:`gin_match_events` for Gin Rummy's, :func:`party_match_events` for three- or
    four-hand Gin Rummy's."""
    if isinstance(match, GinPartyMatch):
        yield from party_match_events(match, names)
        return
    two = None if names is None else (names[0], names[1])
    if isinstance(match, GinMatch):
        yield from gin_match_events(match, two)
    else:
        yield from match_events(match, two)
