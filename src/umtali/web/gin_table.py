"""What a seat of Gin Rummy is shown in the browser: the sibling of Umtali's
:func:`umtali.web.server.seat_table`, built from the seat's
:class:`~umtali.games.gin.view.GinView` and the session's sentences, and from nothing else
about the hand in play.

The view holds no hidden card: when the other player knocks, his discard lies face
down, and the view leaves it off the pile and out of the knock in its history;
:func:`sent_gin_view` shows a face-down card (``null``) on the pile for it, and the
recap tells that knock without its card. A finished
hand's summary shows both hands as they were laid, never the knock's discard: it lies
outside both sides' melds and deadwood.

>>> from umtali.games.gin.session import GinPlaySession
>>> session = GinPlaySession.new(seed=3, humans={0}, bot="greedy")
>>> _ = session.deal()
>>> table = gin_seat_table(session, 0, game_id=1, version=1, commitment="c",
...                        played_by_computer=False, hand_ends={})
>>> table["game"], table["rules"], table["gin"].knock_limit, len(table["view"]["hand"])
('gin', 'standard', 10, 10)
"""

from __future__ import annotations

from typing import Any

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.match import GinMatch
from umtali.games.gin.melds import best_arrangement
from umtali.games.gin.session import (
    DEFAULT_GIN_BOT,
    GinPlaySession,
    gin_variant,
    summarize_gin_hand,
)
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import card_ascii, cards_of
from umtali.session.shared import Seats
from umtali.web import gin_replay
from umtali.web.protocol import GinHandEnd, GinTable, HandEnd, ScoreSheetModel

__all__ = [
    "gin_hand_end",
    "gin_last_move",
    "gin_seat_table",
    "gin_seats",
    "gin_session_of",
    "sent_gin_view",
]

"""The knock as the seat that did not lay it reads it in the history: without its card,
which lies face down."""


def _names(mask: int) -> list[str]:
    return [card_ascii(card) for card in cards_of(mask)]


def gin_seats(match: GinMatch) -> Seats:
    """The seats a game of Gin Rummy keeps in its ``meta``, its levels Gin Rummy's."""
    return Seats.of(match.meta, GIN_BOTS)


def gin_session_of(
    match: GinMatch, handed_over: frozenset[int] = frozenset(), hint_level: str = DEFAULT_GIN_BOT
) -> GinPlaySession:
    """The session of a stored game of Gin Rummy, the seats ``handed_over`` played by
    the computer. As for Umtali (:func:`umtali.web.server._session_of`), its decks come
    from a secure shuffle, so it is built directly, not by ``of_match``, which checks
    them against the seed. ``hint_level`` is used when it is one of Gin Rummy's levels,
    and its strongest otherwise (the server's hint level may name an Umtali level)."""
    seats = gin_seats(match)
    people = seats.humans - handed_over
    levels = tuple(None if seat in people else seats.bot for seat in (0, 1))
    hints = hint_level if hint_level in GIN_BOTS else DEFAULT_GIN_BOT
    return GinPlaySession(match, seats.seed, (levels[0], levels[1]), hint_level=hints)


def gin_last_move(match: GinMatch) -> tuple[int, int, str, tuple[int, int] | None]:
    """The move just played, as the store keeps it: its hand, its index in the hand, its
    text, and the hand's scores when it ended the hand."""
    hand_index = len(match.hands) - 1
    hand = match.hands[hand_index]
    move_index = len(hand.history) - 1
    text = GinMove.of_action(hand.history[move_index][1]).text()
    scores = None if hand.outcome is None else hand.outcome.scores
    return hand_index, move_index, text, scores


def _knocked_face_down(hand: GinHand, seat: int) -> bool:
    """Whether the hand ended with the other player's knock, whose discard ``seat``
    may not see."""
    if not hand.history:
        return False
    player, action = hand.history[-1]
    return player != seat and GinMove.of_action(action).kind == "knock"


def sent_gin_view(view: GinView, hand: GinHand) -> dict[str, Any]:
    """The view as ``view.seat`` is sent it: :meth:`GinView.to_dict`, with the other
    player's knock discard shown face down (``null`` on the pile; the view's history
    tells that knock without its card), as Umtali's face-down discards are."""
    data = view.to_dict()
    if _knocked_face_down(hand, view.seat):
        data["pile"] = [*data["pile"], None]  # the view leaves the card off the pile
    return data


def gin_hand_end(
    session: GinPlaySession,
    seat: int,
    hand_ends: dict[tuple[int, int], tuple[HandEnd, GinHandEnd]],
) -> tuple[HandEnd, GinHandEnd] | None:
    """How the last hand that ended is told to ``seat`` (``None`` before the first
    ends): kept in ``hand_ends``, by seat and hand, since a hand over never changes."""
    match = session.match
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if not ended:
        return None
    last = ended[-1]
    told = hand_ends.get((seat, last))
    if told is None:
        summary = summarize_gin_hand(match.hands[last], session.names_for(seat))
        outcome = match.hands[last].outcome
        assert outcome is not None
        told = hand_ends[seat, last] = (
            HandEnd(hand_index=last, scores=outcome.scores, how=summary.result, recap=[]),
            gin_replay.gin_hand_end(summary, last),
        )
    return told


def gin_seat_table(
    session: GinPlaySession,
    seat: int,
    *,
    game_id: int,
    version: int,
    commitment: str,
    played_by_computer: bool,
    hand_ends: dict[tuple[int, int], tuple[HandEnd, GinHandEnd]],
) -> dict[str, Any]:
    """What ``seat`` is shown of a game of Gin Rummy now, as :class:`SeatState`'s fields
    but who is present: its view of the last hand dealt, the other player's moves told
    as it saw them, its hand laid out in melds, the score sheet, and the end of the last
    hand that ended (kept in ``hand_ends``, by seat and hand: a hand over never
    changes)."""
    match = session.match
    hand = match.hands[-1]
    view = session.view(seat)
    names = session.names_for(seat)
    recap = session.recap(seat)  # a knock told without its face-down card
    previous, gin_end = gin_hand_end(session, seat, hand_ends) or (None, None)
    laid = best_arrangement(view.hand)
    sheet = gin_replay.gin_sheet(match)
    over = match.is_over()
    rules = match.rules
    return {
        "game": "gin",
        "rules": rules.name,
        "game_id": game_id,
        "seat": seat,
        "version": version,
        "names": names,
        "kind": "game",
        "title": session.hand_title(names),
        "hand_index": session.hand_index,
        "commitment": commitment,
        "view": sent_gin_view(view, hand),
        "legal": [] if played_by_computer else [move.text() for move in view.legal],
        "your_turn": session.to_move() == seat,
        "recap": list(recap.lines),
        "since_own_move": recap.since_own_move,
        # The shared score sheet (one game, its hands' points): what a page that knows
        # only Umtali's sheet can show; ``gin.sheet`` has the rest.
        "scores": ScoreSheetModel(
            games=[(1, [scores for scores, _how in sheet.hands], sheet.totals)],
            games_won=None,
            this_hand=None,
        ),
        "over": over,
        "result": session.result(names) if over else None,
        "previous": previous,
        "gin": GinTable(
            variant=gin_variant(rules),
            melds=[_names(meld) for meld in laid.melds],
            deadwood=_names(laid.deadwood),
            deadwood_points=laid.points,
            knock_limit=view.knock_limit,
            sheet=sheet,
            hand_end=gin_end,
        ),
    }
