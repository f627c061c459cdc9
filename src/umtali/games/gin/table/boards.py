"""Gin Rummy drawn for the browser (layer 7): a board with every card face up, the end
of a hand as it was laid, and the score sheet of a game of two, as the models of
:mod:`umtali.games.gin.table.models`. The seat's table and the replay both draw with
these.

Nothing is judged here. Each hand laid out in melds is
:func:`umtali.games.gin.melds.best_arrangement`'s, the end of a hand is
:func:`umtali.games.gin.session.summarize_gin_hand`'s, and the score sheet is the
game's own totals and result; this module only turns card masks into the ASCII names
the pages draw.

>>> from umtali.games.gin.state import GinHand
>>> from umtali.games.gin.replay import GinBoard
>>> board = board_model(GinBoard.of(GinHand.from_seed(7)))
>>> len(board.hands[0].cards), board.stock, board.knock_limit, len(board.pile)
(10, 31, 10, 1)
"""

from __future__ import annotations

from umtali.games.gin.match import GinMatch
from umtali.games.gin.melds import best_arrangement
from umtali.games.gin.replay import GinBoard
from umtali.games.gin.session import GinHandSummary
from umtali.games.gin.session import GinSide as Side
from umtali.games.gin.state import GinHand
from umtali.games.gin.table.models import (
    GinBoardModel,
    GinHandEnd,
    GinHandModel,
    GinResult,
    GinScoreSheet,
    GinSide,
)
from umtali.kernel.cards import card_ascii, cards_of, display_key

__all__ = ["board_model", "deal_board", "hand_end", "meld", "names", "sheet"]


def names(mask: int) -> list[str]:
    """The cards of ``mask`` in ASCII, in the order of a hand (suits as the book orders
    them, high cards first), as every board of the replay shows a hand."""
    return [card_ascii(card) for card in sorted(cards_of(mask), key=display_key)]


def meld(mask: int) -> list[str]:
    """A meld's (or any cards') ASCII names low to high, so that a run reads as it runs
    (``5♥ 6♥ 7♥``)."""
    return [card_ascii(card) for card in cards_of(mask)]


def _hand(mask: int) -> GinHandModel:
    laid = best_arrangement(mask)
    return GinHandModel(
        cards=names(mask),
        melds=[meld(cards) for cards in laid.melds],
        deadwood=names(laid.deadwood),
        deadwood_points=laid.points,
    )


def board_model(board: GinBoard) -> GinBoardModel:
    """The hand ``board`` shows, every card face up, each player's cards also laid out
    in the melds that leave him the least deadwood."""
    return GinBoardModel(
        hands=(_hand(board.hands[0]), _hand(board.hands[1])),
        pile=[card_ascii(card) for card in board.pile],
        stock=board.stock,
        knock_limit=board.knock_limit,
        multiplier=board.multiplier,
    )


def deal_board(recorded: GinHand) -> GinBoardModel:
    """The board of ``recorded`` as it was dealt, before its first move: the replay's
    events begin a hand with its first turn, and the page shows the deal first, as it
    does Umtali's.

    >>> hand = GinHand.from_seed(7)
    >>> for text in ("pass", "pass", "draw", "discard Kh"):
    ...     hand.push_text(text)
    >>> board = deal_board(hand)  # as dealt: the upcard alone on the pile
    >>> [len(cards.cards) for cards in board.hands], board.pile, board.stock
    ([10, 10], ['9d'], 31)
    """
    return board_model(GinBoard.of(GinHand(recorded.deck, recorded.dealer, recorded.rules)))


def _side(side: Side) -> GinSide:
    return GinSide(
        name=side.name,
        melds=[meld(cards) for cards in side.melds],
        deadwood=names(side.deadwood),
        deadwood_points=side.deadwood_points,
        laid_off=names(side.laid_off),
        knocked=side.knocked,
        score=side.score,
    )


def hand_end(summary: GinHandSummary, hand_index: int) -> GinHandEnd:
    """How hand ``hand_index`` (from 0) ended, as :func:`summarize_gin_hand` tells it:
    gin, knock, undercut or dead, both sides' melds (the knocker's with the cards laid
    off on them), layoffs, deadwood and points, and the sentence that says it."""
    first, second = summary.sides
    return GinHandEnd(
        hand_index=hand_index,
        how=summary.how,
        winner=summary.winner,
        multiplier=summary.multiplier,
        sides=(_side(first), _side(second)),
        result=summary.result,
    )


def sheet(match: GinMatch) -> GinScoreSheet:
    """The score sheet of a game of Gin Rummy between two as its record stands: each
    finished hand's points and how it ended, the totals, the target and, once the game
    is over, its line bonuses, game bonus (doubled by a shutout) and final scores: the
    replay's sheet and the seat's table's."""
    result = match.result()
    return GinScoreSheet(
        hands=[
            (hand.outcome.scores, hand.outcome.how)
            for hand in match.hands
            if hand.outcome is not None
        ],
        totals=match.game.totals(),
        target=match.rules.game_target,
        result=None
        if result is None
        else GinResult(
            winner=result.winner,
            points=result.points,
            line=result.line,
            game_bonus=result.game_bonus,
            shutout=result.shutout,
            final=result.final,
        ),
    )
