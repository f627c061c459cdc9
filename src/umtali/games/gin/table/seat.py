"""What a seat of Gin Rummy between two is shown in the browser (layer 7): built from
the seat's :class:`~umtali.games.gin.view.GinView` and the session's sentences, and
from nothing else about the hand in play.

The view holds no hidden card: when the other player knocks, his discard lies face
down, and the view leaves it off the pile and out of the knock in its history;
:func:`sent_view` shows a face-down card (``null``) on the pile for it, and the recap
tells that knock without its card. A finished hand's summary shows both hands as they
were laid, never the knock's discard: it lies outside both sides' melds and deadwood.

>>> from umtali.games.gin.session import GinPlaySession
>>> from umtali.web.tables import SeatContext
>>> session = GinPlaySession.new(seed=3, humans={0}, bot="greedy")
>>> _ = session.deal()
>>> table = seat_table(session, 0, SeatContext(frozenset({0})))
>>> table["rules"], table["gin"].knock_limit, len(table["view"]["hand"])
('standard', 10, 10)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from umtali.games.gin.melds import best_arrangement
from umtali.games.gin.session import GinPlaySession, gin_variant, summarize_gin_hand
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.gin.table.boards import hand_end as hand_end_model
from umtali.games.gin.table.boards import meld, sheet
from umtali.games.gin.table.models import GinHandEnd, GinTable
from umtali.games.gin.view import GinView
from umtali.kernel.english import plural, possessive
from umtali.web.protocol import HandEnd, HandSide, ScoreSheetModel, hand_heading

__all__ = ["hand_end", "seat_table", "sent_view"]


def _knocked_face_down(hand: GinHand, seat: int) -> bool:
    """Whether the hand ended with the other player's knock, whose discard ``seat``
    may not see."""
    if not hand.history:
        return False
    player, action = hand.history[-1]
    return player != seat and GinMove.of_action(action).kind == "knock"


def sent_view(view: GinView, hand: GinHand) -> dict[str, Any]:
    """The view as ``view.seat`` is sent it: :meth:`GinView.to_dict`, with the other
    player's knock discard shown face down (``null`` on the pile; the view's history
    tells that knock without its card), as Umtali's face-down discards are."""
    data = view.to_dict()
    if _knocked_face_down(hand, view.seat):
        data["pile"] = [*data["pile"], None]  # the view leaves the card off the pile
    return data


def _side(end: GinHandEnd, player: int, total: int) -> HandSide:
    """``player``'s side of the hand's end as every table's panel shows it: his melds
    (the knocker's marked where the other laid off on them), his deadwood."""
    side, other = end.sides[player], end.sides[1 - player]
    note = ("gin" if end.how == "gin" else "knocked") if side.knocked else ""
    if side.laid_off:
        note = f"laid off {plural(len(side.laid_off), 'card')} on {possessive(other.name)} melds"
    return HandSide(
        name=side.name,
        melds=side.melds,
        marked=other.laid_off,
        left=list(side.deadwood),
        left_label=f"Deadwood {side.deadwood_points}" if side.deadwood else "",
        note=note,
        points=side.score,
        total=total,
    )


def hand_end(
    session: GinPlaySession, seat: int, told: dict[Hashable, Any], key: Hashable = ()
) -> tuple[HandEnd, GinHandEnd] | None:
    """How the last hand that ended is told to ``seat`` (``None`` before the first
    ends): kept in ``told`` (under ``key``, the hand's own, with the seat and the hand's
    index), since a hand over never changes."""
    match = session.match
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if not ended:
        return None
    last = ended[-1]
    found = told.get(("hand end", key, seat, last))
    if found is None:
        names = session.names_for(seat)
        summary = summarize_gin_hand(match.hands[last], names)
        outcome = match.hands[last].outcome
        assert outcome is not None
        end = hand_end_model(summary, last)
        totals = [hand.outcome.scores for hand in match.hands[: last + 1] if hand.outcome]
        found = told["hand end", key, seat, last] = (
            HandEnd(
                hand_index=last,
                scores=outcome.scores,
                how=summary.result,
                recap=[],
                heading=hand_heading(last, names, outcome.scores),
                sides=[
                    _side(end, player, sum(scores[player] for scores in totals))
                    for player in (0, 1)
                ],
            ),
            end,
        )
    previous, end = found
    assert isinstance(previous, HandEnd)
    assert isinstance(end, GinHandEnd)
    return previous, end


def seat_table(
    session: GinPlaySession, seat: int, told: dict[Hashable, Any], key: Hashable = ()
) -> dict[str, Any]:
    """What ``seat`` is shown of a game of Gin Rummy now, as :class:`GinSeatState`'s
    fields but those the server fills in: its view of the last hand dealt, the other
    player's moves told as it saw them, its hand laid out in melds, the score sheet,
    and the end of the last hand that ended (kept in ``told`` under ``key``)."""
    match = session.match
    hand = match.hands[-1]
    view = session.view(seat)
    names = session.names_for(seat)
    recap = session.recap(seat)  # a knock told without its face-down card
    previous, end = hand_end(session, seat, told, key) or (None, None)
    laid = best_arrangement(view.hand)
    scores = sheet(match)
    over = match.is_over()
    rules = match.rules
    return {
        "rules": rules.name,
        "names": names,
        "kind": "game",
        "title": session.hand_title(names),
        "hand_index": session.hand_index,
        "view": sent_view(view, hand),
        "legal": [move.text() for move in view.legal],
        "your_turn": session.to_move() == seat,
        "recap": list(recap.lines),
        "since_own_move": recap.since_own_move,
        # The shared score sheet (one game, its hands' points): what a page that knows
        # only the fields every game has can show; ``gin.sheet`` has the rest.
        "scores": ScoreSheetModel(
            games=[(1, [points for points, _how in scores.hands], scores.totals)],
            games_won=None,
            this_hand=None,
        ),
        "over": over,
        "result": session.result(names) if over else None,
        "previous": previous,
        "gin": GinTable(
            variant=gin_variant(rules),
            melds=[meld(cards) for cards in laid.melds],
            deadwood=meld(laid.deadwood),
            deadwood_points=laid.points,
            knock_limit=view.knock_limit,
            sheet=scores,
            hand_end=end,
        ),
    }
