"""Klaberjass's table in the browser (layer 7): the registry's ``table`` hook
(``umtali.games.klaberjass.table:TABLE``), as :class:`umtali.web.tables.GameTable` reads
it. What a seat is sent (its :class:`~umtali.games.klaberjass.view.KlaberjassView`, the
moves and sentences as it saw them, the score sheet with the pot, and the end of the last
hand that ended) and a record told for the replay page; its browser code is
``umtali/web/static/games/klaberjass/``.

Every move of Klaberjass is public, and a finished hand is told by its own account
(:func:`~umtali.games.klaberjass.describe.hand_result`): nothing here reads the hand in
play but through the seat's view.

>>> from umtali.games.klaberjass.session import SESSIONS
>>> from umtali.web.tables import SeatContext
>>> session = SESSIONS.new(seed=3, humans={0}, level="greedy")
>>> _ = session.deal()
>>> table = TABLE.seat_table(session, 0, SeatContext(frozenset({0})))
>>> table["rules"], len(table["view"]["hand"]), table["klaberjass"].sheet.target
('book', 6, 500)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from umtali.games.klaberjass.describe import hand_result, scoring_sequences
from umtali.games.klaberjass.learn import howto
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.replay import KlaberjassBoard, KlaberjassSummary
from umtali.games.klaberjass.session import KlaberjassSession
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import NATURAL
from umtali.kernel.cards import (
    KING,
    QUEEN,
    SUIT_LETTERS,
    card_ascii,
    cards_of,
    make_card,
    rank_of,
    suit_of,
)
from umtali.replaying import GameEnds, HandEnds
from umtali.web.learning_protocol import ReplayHand, ReplayReply, ReplayStep
from umtali.web.protocol import (
    HandEnd,
    HandSide,
    Message,
    Problem,
    ScoreSheetModel,
    SeatState,
    hand_heading,
)
from umtali.web.replays import tell
from umtali.web.routers.pages import STATIC_ROOT, file_response
from umtali.web.tables import SeatContext, Table

__all__ = [
    "TABLE",
    "KlaberjassBoardModel",
    "KlaberjassDrawing",
    "KlaberjassHandEnd",
    "KlaberjassReplay",
    "KlaberjassSeatState",
    "KlaberjassSheet",
    "KlaberjassTable",
]


# -- models -----------------------------------------------------------------------------------


class KlaberjassHandEnd(Message):
    """How a hand of Klaberjass ended: who made trump (``None``: thrown in), how it went
    (``made``, ``failed``, ``tied``, ``thrown_in``), what each took in card points (the
    last trick's 10 included), in sequences and in bella, each player's total, what each
    scores before any pot, what goes to the pot, and the sentence that tells it."""

    hand_index: int
    maker: int | None
    how: str
    card_points: tuple[int, int]
    sequences: tuple[int, int]
    bella: tuple[int, int]
    totals: tuple[int, int]
    scores: tuple[int, int]
    to_pot: int
    result: str


class KlaberjassSheet(Message):
    """The score sheet of a game of Klaberjass: each finished hand's scores as added to
    the totals (a pot paid included) and how it went, the totals, the pot waiting, and
    the target."""

    hands: list[tuple[tuple[int, int], str]]
    totals: tuple[int, int]
    pot: int
    target: int


class KlaberjassTable(Message):
    """What a seat of Klaberjass is shown beyond its view: the card ranking, the score
    sheet, and the end of the last hand that ended."""

    ranking: str
    sheet: KlaberjassSheet
    hand_end: KlaberjassHandEnd | None


class KlaberjassSeatState(SeatState):
    """What a seat of Klaberjass is shown: the fields every game's seat has, ``view``
    being the seat's :class:`~umtali.games.klaberjass.view.KlaberjassView`, with
    Klaberjass's own table in ``klaberjass``."""

    game: Literal["klaberjass"] = "klaberjass"
    klaberjass: KlaberjassTable | None = None


class KlaberjassBoardModel(Message):
    """A hand of Klaberjass as it stands, every card face up: both hands, the trick on
    the table, the turned-up card, trump (a suit letter) and its maker, the last card of
    the stock once shown, each player's card points and tricks, the phase and who is to
    move."""

    game: Literal["klaberjass"] = "klaberjass"
    hands: tuple[list[str], list[str]]
    trick: list[str]
    turned: str
    trump: str | None
    maker: int | None
    bottom: str | None
    points: tuple[int, int]
    tricks: tuple[int, int]
    phase: str
    to_move: int | None


class KlaberjassStep(ReplayStep):
    """A step of a replay of Klaberjass: its board is Klaberjass's."""

    board: KlaberjassBoardModel


class KlaberjassReplayHand(ReplayHand):
    """A hand of a replay of Klaberjass; once over, its account (``klaberjass_end``)."""

    steps: Sequence[KlaberjassStep]
    klaberjass_end: KlaberjassHandEnd | None = None


class KlaberjassReplay(ReplayReply):
    """``POST /api/replay`` for a record of Klaberjass, with its score sheet
    (``klaberjass_sheet``)."""

    game: Literal["klaberjass"] = "klaberjass"
    hands: Sequence[KlaberjassReplayHand]
    klaberjass_sheet: KlaberjassSheet | None = None


# -- drawing ----------------------------------------------------------------------------------


def _names(mask: int) -> list[str]:
    """The cards of ``mask`` in ASCII, in the order of a hand: spades, hearts, diamonds,
    clubs, each from its ace down to its 7 (the natural order)."""
    cards = sorted(cards_of(mask), key=lambda card: (-suit_of(card), -NATURAL.index(rank_of(card))))
    return [card_ascii(card) for card in cards]


def _hand_end(summary: KlaberjassSummary, result: str, hand_index: int) -> KlaberjassHandEnd:
    score = summary.score
    return KlaberjassHandEnd(
        hand_index=hand_index,
        maker=score.maker,
        how=score.result,
        card_points=summary.card_points,
        sequences=summary.sequences,
        bella=summary.bella,
        totals=score.totals,
        scores=score.scores,
        to_pot=score.to_pot,
        result=result,
    )


def _sheet(match: KlaberjassMatch) -> KlaberjassSheet:
    """The score sheet as the match stands: its finished hands' scores as added."""
    standing = match.standing()
    hows = [outcome.result for hand in match.hands if (outcome := hand.outcome()) is not None]
    return KlaberjassSheet(
        hands=list(zip(standing.hands, hows, strict=False)),
        totals=standing.totals,
        pot=standing.pot,
        target=match.rules.game_target,
    )


def _board(board: KlaberjassBoard) -> KlaberjassBoardModel:
    return KlaberjassBoardModel(
        hands=(_names(board.hands[0]), _names(board.hands[1])),
        trick=[card_ascii(card) for card in board.trick],
        turned=card_ascii(board.turned),
        trump=None if board.trump is None else SUIT_LETTERS[board.trump],
        maker=board.maker,
        bottom=None if board.bottom is None else card_ascii(board.bottom),
        points=board.points,
        tricks=board.tricks,
        phase=board.phase,
        to_move=board.to_move,
    )


class KlaberjassDrawing:
    """How Klaberjass's replay draws (:class:`umtali.web.replays.Drawing`): the deal
    first, then every board face up, each hand's account and the score sheet."""

    def deals(self, match: KlaberjassMatch) -> Iterator[KlaberjassBoardModel]:
        for hand in match.hands:
            dealt = KlaberjassHand(hand.deck, hand.dealer, hand.rules)
            yield _board(KlaberjassBoard.of(dealt))

    def board(self, board: KlaberjassBoard) -> KlaberjassBoardModel:
        return _board(board)

    def hand_end(self, ended: HandEnds, hand_index: int) -> dict[str, Any]:
        summary = ended.summary
        assert isinstance(summary, KlaberjassSummary)
        return {"klaberjass_end": _hand_end(summary, ended.result, hand_index)}

    def ending(self, match: KlaberjassMatch, ended: GameEnds | None) -> dict[str, Any]:
        return {"klaberjass_sheet": _sheet(match)}


DRAWING: Final = KlaberjassDrawing()


# -- the seat ---------------------------------------------------------------------------------


def _sides(match: KlaberjassMatch, index: int, names: Sequence[str]) -> list[HandSide]:
    """Both players at the end of hand ``index`` as every table's panel shows them: the
    sequences that scored and bella, as cards (every card is played by then, in view;
    a losing sequence is not shown), who made trump, the points of the hand as added
    to the totals (a pot paid included) and the totals after it."""
    hand = match.hands[index]
    score = hand.outcome()
    assert score is not None
    owner, runs = scoring_sequences(hand)
    added = match.standing().hands[: index + 1]
    sides = []
    for player in (0, 1):
        melds = [[card_ascii(card) for card in run] for run in runs] if player == owner else []
        if hand.bella()[player]:
            trump = hand.trump
            melds.append([card_ascii(make_card(KING, trump)), card_ascii(make_card(QUEEN, trump))])
        sides.append(
            HandSide(
                name=names[player],
                melds=melds,
                note="made trump" if score.maker == player else "",
                points=added[-1][player],
                total=sum(points[player] for points in added),
            )
        )
    return sides


def _last_end(
    session: KlaberjassSession, seat: int, told: dict[Hashable, Any]
) -> tuple[HandEnd, KlaberjassHandEnd] | None:
    """How the last hand that ended is told to ``seat`` (``None`` before the first ends),
    kept in ``told``: a hand over never changes."""
    match = session.match
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if not ended:
        return None
    last = ended[-1]
    found = told.get(("hand end", seat, last))
    if found is None:
        hand = match.hands[last]
        sentence = hand_result(hand, session.names_for(seat))
        end = _hand_end(KlaberjassSummary.of(hand), sentence, last)
        names = session.names_for(seat)
        sides = _sides(match, last, names)
        added = (sides[0].points, sides[1].points)  # a pot paid included
        previous = HandEnd(
            hand_index=last,
            scores=end.scores,
            how=sentence,
            recap=[],
            heading=hand_heading(last, (names[0], names[1]), added),
            sides=sides,
        )
        found = told["hand end", seat, last] = (previous, end)
    previous, end = found
    assert isinstance(previous, HandEnd)
    assert isinstance(end, KlaberjassHandEnd)
    return previous, end


# -- how to play: its own routes --------------------------------------------------------------

HOWTO_PAGE: Final = "/learn/klaberjass"
"""The page of the "how to play" lessons (``static/games/klaberjass/howto.html``)."""


class HowToList(Message):
    """``GET /api/klaberjass/howto``: the "how to play" lessons, by number and title."""

    lessons: list[tuple[int, str]]


def _howto_routes() -> APIRouter:
    """The "how to play" page and its lessons, each sent whole, every choice it offers
    judged (:func:`umtali.games.klaberjass.learn.howto.page`): the page asks nothing
    more."""
    routes = APIRouter()

    @routes.get("/api/klaberjass/howto", response_model=HowToList)
    async def howto_list() -> HowToList:
        """The "how to play" lessons of Klaberjass."""
        return HowToList(lessons=list(howto.titles()))

    @routes.get(
        "/api/klaberjass/howto/{number}",
        response_model=howto.PageLesson,
        responses={404: {"model": Problem}},
    )
    async def howto_lesson(number: Annotated[int, PathParam(ge=0, le=1000)]) -> howto.PageLesson:
        """A "how to play" lesson: the deal, every move with the table before it, the
        choices offered judged, the lesson's move told and explained, and the score."""
        count = howto.lesson_count()
        if not 1 <= number <= count:
            raise HTTPException(
                404, f"there is no lesson {number}: the lessons are numbered 1 to {count}"
            )
        return howto.page(number)

    async def howto_page(request: Request) -> Response:
        return file_response(request, STATIC_ROOT / "games" / "klaberjass" / "howto.html")

    routes.add_api_route(HOWTO_PAGE, howto_page, methods=["GET", "HEAD"], include_in_schema=False)
    return routes


class KlaberjassTableHook(Table):
    """Klaberjass's :class:`~umtali.web.tables.GameTable`, with the "how to play"
    page and lessons as its own routes."""

    state = KlaberjassSeatState
    replay = KlaberjassReplay
    routes: APIRouter | None = _howto_routes()

    def seat_table(self, session: Any, seat: int, context: SeatContext) -> dict[str, Any]:
        assert isinstance(session, KlaberjassSession)
        match = session.match
        view = session.view(seat)
        names = session.names_for(seat)
        recap = session.recap(seat)
        previous, end = _last_end(session, seat, context.told) or (None, None)
        sheet = _sheet(match)
        over = match.is_over()
        return {
            "rules": match.rules.name,
            "names": names,
            "kind": "game",
            "title": session.hand_title(names),
            "hand_index": session.hand_index,
            "view": view.to_dict(),
            "legal": [move.text() for move in view.legal],
            "your_turn": session.to_move() == seat,
            "recap": list(recap.lines),
            "since_own_move": recap.since_own_move,
            "scores": ScoreSheetModel(
                games=[(1, [points for points, _how in sheet.hands], sheet.totals)],
                games_won=None,
                this_hand=None,
            ),
            "over": over,
            "result": session.result(names) if over else None,
            "previous": previous,
            "klaberjass": KlaberjassTable(ranking=view.ranking, sheet=sheet, hand_end=end),
        }

    def tell(self, match: Any) -> KlaberjassReplay:
        assert isinstance(match, KlaberjassMatch)
        return tell(match, DRAWING, KlaberjassReplay)


TABLE: Final = KlaberjassTableHook()
"""Klaberjass's browser table."""
