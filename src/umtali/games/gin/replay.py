"""A record of Gin Rummy told turn by turn (layer 5), in the events every game's replay
speaks (:mod:`umtali.games.events`): the heading, every hand (each turn, every move as a
sentence with its cards, a :class:`GinBoard` after each turn, the end of each hand with
both sides' melds, layoffs, deadwood and points), the game's end with its bonuses, and
the last word. A game of three or four tells the draw for places or the teams, begins
each hand with who plays whom at it, and gives the totals after each hand or deal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

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
    between_hands,
    seat_labels,
)
from umtali.games.gin.match import GinMatch, GinPartyMatch, PartyGame, tables_of
from umtali.games.gin.party import FourHandGame, FourHandSeats, ThreeHandGame, ThreeHandSeats
from umtali.games.gin.party_session import (
    deal_sentence,
    draw_sentence,
    result_sentence,
    seating_sentence,
    teams_sentence,
    totals_sentence,
)
from umtali.games.gin.session import (
    GinScoreSheet,
    gin_result_sentence,
    gin_variant,
    summarize_gin_hand,
    tell_gin_move,
)
from umtali.games.gin.state import GinHand, GinMove
from umtali.kernel.english import object_name
from umtali.kernel.players import player_name

__all__ = ["GinBoard", "gin_hand_events", "gin_match_events", "party_match_events", "record_events"]


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


def _hand_begins(number: int | None, dealer: int, labels: Sequence[str]) -> HandBegins:
    deals = f"{labels[dealer]} deals"
    return HandBegins(number, dealer, deals if number is None else f"Hand {number} · {deals}")


def record_events(
    match: GinMatch | GinPartyMatch, names: Sequence[str] | None = None
) -> Iterator[Event]:
    """A record of Gin Rummy as events, for two (:func:`gin_match_events`) or for three
    or four (:func:`party_match_events`)."""
    if isinstance(match, GinPartyMatch):
        return party_match_events(match, names)
    return gin_match_events(match, names)


def gin_hand_events(
    recorded: GinHand,
    number: int | None = None,
    *,
    more: bool = False,
    labels: Sequence[str] = (player_name(0), player_name(1)),
) -> Iterator[Event]:
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
    >>> [e.sentence for e in events if isinstance(e, Moved)][2:]
    ['Player 2 draws 5♠ from the stock', 'Player 2 discards K♥']
    >>> type(events[-1]).__name__
    'HandStops'
    """
    hand = GinHand(recorded.deck, recorded.dealer, recorded.rules)
    two = (labels[0], labels[1])
    yield _hand_begins(number, hand.dealer, labels)
    turn = 0
    for index, (player, action) in enumerate(recorded.history):
        if index == 0 or recorded.history[index - 1][0] != player:
            turn += 1
            yield TurnBegins(turn, player, f"turn {turn} · {labels[player]}")
        hand.push(action)
        yield Moved(player, GinMove.of_action(action), tell_gin_move(hand, index, two))
        if hand.is_over():
            summary = summarize_gin_hand(hand, two)
            yield HandEnds(GinBoard.of(hand), summary.result, summary, more)
        elif hand.to_move() != player:
            yield TurnEnds(GinBoard.of(hand))
    if not hand.is_over():
        yield HandStops(GinBoard.of(hand))


def gin_match_events(match: GinMatch, names: Sequence[str] | None = None) -> Iterator[Event]:
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
    yield GameEnds(GinScoreSheet.of(match), gin_result_sentence(result, (shown[0], shown[1])))
    yield MatchEnds(True, f"The game is over: won by {shown[result.winner]}.")


def _gin_unfinished(match: GinMatch, seats: Sequence[str]) -> str:
    """Where the record of a game of Gin Rummy that is not over stops, and who is to
    move there."""
    hand = match.current
    if hand is None:
        return between_hands("The game is unfinished", match, seats)
    return f"The game is unfinished: {_stops_at(hand, len(match.hands), seats)}."


def _stops_at(hand: GinHand, number: int, names: Sequence[str]) -> str:
    """Where the unfinished Gin Rummy ``hand`` stops: its turn, and who is to move."""
    mover = hand.to_move()
    assert mover is not None
    turn = 1 + sum(
        1 for i in range(1, len(hand.history)) if hand.history[i][0] != hand.history[i - 1][0]
    )
    if hand.history and hand.history[-1][0] != mover:
        turn += 1
    return f"hand {number} stops at turn {turn}, with {names[mover]} to move"


# -- three- and four-hand ---------------------------------------------------------------------


def party_match_events(match: GinPartyMatch, names: Sequence[str] | None = None) -> Iterator[Event]:
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
            deals = seated.table.players.index(seated.table.dealer)
            yield HandBegins(seated.number, deals, title, seated.table.players, labels)
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
        yield Totals(tuple(game.totals()), totals if scored is None else f"{scored} {totals}")
    if game.is_over():
        yield MatchEnds(True, result_sentence(game, shown))
    elif stops:
        yield MatchEnds(False, f"The game is unfinished: {'; '.join(stops)}.")
    else:
        yield MatchEnds(
            False, f"The game is unfinished: next, {seating_sentence(game.next_seats(), shown)}"
        )
