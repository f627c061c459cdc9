"""What a seat of Umtali is shown in the browser (layer 7): built from its
:class:`~umtali.games.umtali.view.PlayerView` of the last hand dealt, the other
player's moves told as it saw them (R11) and the session's sentences, and from nothing
else about the hand in play.

>>> from umtali.games.umtali.session import PlaySession, summarize_hand
>>> from umtali.web.tables import SeatContext
>>> session = PlaySession.new(seed=3, humans={0}, bot="greedy")
>>> _ = session.deal()
>>> table = seat_table(session, 0, SeatContext(frozenset({0})))
>>> table["kind"], table["hand_index"], "opponent_excluded" in table["view"]
('game', 0, False)
"""

from __future__ import annotations

from typing import Any

from umtali.games.umtali.describe import how_hand_ended
from umtali.games.umtali.session import PlaySession, summarize_hand
from umtali.games.umtali.table.boards import cards
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_ascii
from umtali.web.protocol import HandEnd, HandSide, ScoreSheetModel, hand_heading
from umtali.web.tables import SeatContext

__all__ = ["seat_table", "sent_view"]


def sent_view(view: PlayerView) -> dict[str, Any]:
    """The view as a seat is sent it: all of it but ``opponent_excluded``, the cards
    the rules show the other player cannot hold. That list is worked out from what the
    seat saw, so it tells him nothing new, but it names cards whose place he does not
    know; leaving it out keeps the rule simple: no message names a card hidden from
    its seat."""
    data = view.to_dict()
    del data["opponent_excluded"]
    return data


def _scores(session: PlaySession) -> ScoreSheetModel:
    sheet = session.score_sheet(running=True)
    return ScoreSheetModel(
        games=[(number, list(hands), totals) for number, hands, totals in sheet.games],
        games_won=sheet.games_won,
        this_hand=sheet.this_hand,
    )


def _previous(session: PlaySession, seat: int, context: SeatContext) -> HandEnd | None:
    """The last hand that ended, as ``seat`` is told it (``None`` before the first
    ends): worked out once, since a hand over never changes."""
    match = session.match
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if not ended:
        return None
    key = ("hand end", seat, ended[-1])
    told = context.told.get(key)
    if told is None:
        outcome = match.hands[ended[-1]].outcome()
        assert outcome is not None
        names = session.names_for(seat)
        told = context.told[key] = HandEnd(
            hand_index=ended[-1],
            scores=outcome.scores,
            how=how_hand_ended(outcome, names),
            recap=list(session.recap(seat, ended[-1]).lines),
            heading=hand_heading(ended[-1], names, outcome.scores),
            sides=_sides(session, seat, ended[-1]),
        )
    assert isinstance(told, HandEnd)
    return told


def _sides(session: PlaySession, seat: int, index: int) -> list[HandSide]:
    """Both players at the end of hand ``index``, as the game's own account of a
    finished hand tells them (:func:`summarize_hand`, the terminal's too): the columns
    each laid, and the cards left in each hand, shown now that the hand is over (they
    are forfeited to the player who went out and counted, or score for nobody); a card
    discarded face down is in neither. With each one's points and game total after it."""
    match = session.match
    hand = match.hands[index]
    summary = summarize_hand(hand, session.names_for(seat))
    outcome = hand.outcome()
    assert outcome is not None
    per = match.rules.hands_per_game
    so_far = match.finished_outcomes()[index - index % per : index + 1]  # its game's
    return [
        HandSide(
            name=side.name,
            melds=[[card_ascii(card) for card in column.cards] for column in side.columns],
            left=list(cards(side.left)),
            left_label=side.left_label[:1].upper() + side.left_label[1:] if side.left else "",
            note="went out" if player in outcome.went_out else "",
            points=side.score,
            total=sum(done.scores[player] for done in so_far),
        )
        for player, side in enumerate(summary.sides)
    ]


def seat_table(session: PlaySession, seat: int, context: SeatContext) -> dict[str, Any]:
    """What ``seat`` is shown of the game now, as :class:`UmtaliSeatState`'s fields but
    those the server fills in (:mod:`umtali.web.tables`)."""
    match = session.match
    hand = match.hands[-1]
    view = session.view(seat) if match.current is not None else PlayerView.of(hand, seat)
    names = session.names_for(seat)
    recap = session.recap(seat, view=view)
    over = match.is_over()
    return {
        "rules": match.rules.name,
        "names": names,
        "kind": match.kind,
        "title": session.hand_title(names),
        "hand_index": session.hand_index,
        "view": sent_view(view),
        "legal": [move.text() for move in view.legal],
        "your_turn": session.to_move() == seat,
        "recap": list(recap.lines),
        "since_own_move": recap.since_own_move,
        "scores": _scores(session),
        "over": over,
        "result": session.result(names) if over else None,
        "previous": _previous(session, seat, context),
    }
