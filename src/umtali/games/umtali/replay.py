"""A record of Umtali told turn by turn (layer 5), in the events every game's replay
speaks (:mod:`umtali.games.events`): its heading, every hand replayed on a fresh
:class:`~umtali.games.umtali.state.HandState` (each turn, every move as a sentence, the
board after each turn as a copy of the hand, its result or where it stops), each
game's totals, and the last word.

>>> from umtali.games.umtali.lessons import LESSONS
>>> events = list(hand_events(LESSONS[0].state_at()))
>>> events[0].title, events[1].sentence
('Player 2 deals', 'Player 2 deals and keeps the 11th card')
>>> [e.title for e in events if isinstance(e, TurnBegins)][:2]
['turn 1 · Player 2', 'turn 2 · Player 1']
>>> events[-1].result
'Player 1 wins the hand, 31 to 28.'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from umtali.games.events import (
    Event,
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
from umtali.games.umtali.describe import describe_move
from umtali.games.umtali.match import Match
from umtali.games.umtali.state import HandState
from umtali.kernel.players import player_name

__all__ = ["hand_events", "hand_result", "match_events"]


def _hand_begins(number: int | None, dealer: int) -> HandBegins:
    """Hand ``number`` (``None``: told alone) dealt by ``dealer``.

    >>> _hand_begins(2, 0).title
    'Hand 2 · Player 1 deals'
    """
    deals = f"{player_name(dealer)} deals"
    return HandBegins(number, dealer, deals if number is None else f"Hand {number} · {deals}")


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


def _unfinished(match: Match, seats: Sequence[str]) -> str:
    """Where the record of a match that is not over stops, and who is to move there."""
    hand = match.current
    what = f"The {match.kind} is unfinished"
    if hand is None:
        return between_hands(what, match, seats)
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
    yield _hand_begins(number, hand.dealer)
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
            yield HandEnds(hand.clone(), hand_result(hand), None, more)
        elif hand.turn != before:
            yield TurnEnds(hand.clone())
    if not hand.is_over():
        yield HandStops(hand.clone())


def match_events(match: Match, names: Sequence[str] | None = None) -> Iterator[Event]:
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
            yield Totals(totals, f"game {game} totals: {totals[0]}–{totals[1]}", game)
    if not match.is_over():
        yield MatchEnds(False, _unfinished(match, seats))
    elif match.kind != "hand":
        winner = match.winner()
        result = "drawn" if winner is None else f"won by {shown[winner]}"
        yield MatchEnds(True, f"The {match.kind} is over: {result}.")
