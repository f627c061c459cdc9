"""Learning in the browser: the lessons, the quiz and the replay of a record, served
from the same learning layer the terminal uses (:mod:`umtali.learn`,
:mod:`umtali.replaying`), and the three pages that show them (``/learn``, ``/quiz``,
``/replay``).

The routes only translate. A lesson is :func:`umtali.games.umtali.learn.lesson.steps` written out as
JSON events; an answer is read and graded by the question the script or the quiz built
(:class:`umtali.games.umtali.learn.question.Question`), its tries counted by
:class:`umtali.learn.answers.Attempts`, so the browser gives the verdicts the terminal
gives. Nothing is kept between requests: the script is built again for each one (a few
milliseconds), and the page sends back how many unreadable answers it has had.

A replay reads a record of any game with :func:`umtali.kernel.record.load_any_bytes` (every
check and message of ``umtali replay``) and tells it with
:func:`umtali.replaying.any_match_events`, grouped into the steps ``umtali replay
--step`` pauses at; Gin Rummy's boards and hand ends are written by
:mod:`umtali.web.gin_replay`.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> app.include_router(router)
>>> client = TestClient(app)
>>> [lesson["number"] for lesson in client.get("/api/lessons").json()["lessons"]]
[1, 2, 3, 4]
>>> client.post("/api/quiz/2/answer", json={"answer": "no"}).json()["verdict"]["correct"]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Final, Literal

import anyio
from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from umtali.games.gin.match import GinMatch
from umtali.games.gin.state import GinHand
from umtali.games.umtali.learn import lesson as script
from umtali.games.umtali.learn.notes import lesson_notes
from umtali.games.umtali.learn.question import Position, Question
from umtali.games.umtali.learn.quiz import build_questions, quiz_intro
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.state import Column, HandState, player_name
from umtali.kernel.cards import card_ascii, display_key
from umtali.kernel.record import RecordError, load_any_bytes
from umtali.learn.answers import MAX_TRIES, Attempts, Unanswered
from umtali.learn.verdict import Verdict
from umtali.replaying import (
    GameTotals,
    GinGameEnds,
    GinHandEnds,
    GinHandStops,
    GinMoved,
    GinTurnEnds,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    Moved,
    PartyHandBegins,
    PartyTotals,
    TurnBegins,
    TurnEnds,
    any_match_events,
)
from umtali.web.gin_replay import (
    gin_board_model,
    gin_deal_board,
    gin_hand_end,
    gin_hands,
    gin_sheet,
)
from umtali.web.learning_protocol import (
    AnswerReply,
    AnswerRequest,
    AnswerStatus,
    AskEvent,
    BoardEvent,
    BoardModel,
    ColumnModel,
    GinBoardModel,
    HandOverEvent,
    HoldsEvent,
    LessonEvent,
    LessonInfo,
    LessonList,
    LessonScript,
    NarrateEvent,
    OpeningEvent,
    PauseEvent,
    PileCard,
    PlayEvent,
    PositionModel,
    QuestionModel,
    QuizModel,
    ReplayHand,
    ReplayReply,
    ReplayStep,
    ScoreLineModel,
    ScoresEvent,
    ScoresModel,
    SideModel,
    SideScoreModel,
    SummaryEvent,
    TurnStartEvent,
    VerdictModel,
)
from umtali.web.pages import file_response
from umtali.web.protocol import Problem

__all__ = [
    "REPLAY_MAX_BYTES",
    "REPLAY_PATH",
    "board_model",
    "lesson_script",
    "replay_reply",
    "router",
]

REPLAY_PATH: Final = "/api/replay"
"""Where a record is sent to be replayed: the one route whose body may exceed the
application's usual limit (:data:`REPLAY_MAX_BYTES`)."""

REPLAY_MAX_BYTES: Final = 2 * 1024 * 1024
"""The largest record the browser may send. A game's record takes about 7 KiB and a long
session's a few tens of KiB, so this refuses only what is no game record, without
holding the server to the 16 MiB a record file may hold on disk."""

_PAGES: Final = Path(__file__).with_name("static") / "learn"

router = APIRouter()


# -- plain data to messages -------------------------------------------------------------------


def _cards(cards: Iterable[int]) -> list[str]:
    """Cards in ASCII, in the order of a hand (spades, hearts, diamonds, clubs; high first)."""
    return [card_ascii(c) for c in sorted(cards, key=display_key)]


def _column(column: Column) -> ColumnModel:
    return ColumnModel(
        kind=column.kind.label,
        cards=[card_ascii(c) for c in column.top_down()],
        played_off=None if column.played_off is None else card_ascii(column.played_off),
    )


def board_model(state: HandState, show_points: bool = True) -> BoardModel:
    """The hand ``state`` as it stands, every card face up."""
    return BoardModel(
        dealer=state.dealer,
        to_move=None if state.is_over() else state.player,
        turn=state.turn,
        stock=state.stock_size(),
        pile=[PileCard(card=card_ascii(c), face_down=down) for c, down in state.discard_pile()],
        hands=(_cards(state.hand(0)), _cards(state.hand(1))),
        tables=(
            [_column(c) for c in state.table(0)],
            [_column(c) for c in state.table(1)],
        ),
        points=(state.points[0], state.points[1]) if show_points else None,
    )


def _position(position: Position) -> PositionModel:
    return PositionModel(
        note=position.note,
        sides=[
            SideModel(caption=side.caption, columns=[_column(c) for c in side.columns])
            for side in position.sides
        ],
        hand=None if position.hand is None else _cards(position.hand),
        hand_caption=position.hand_caption,
        pile=None
        if position.pile is None
        else [None if c is None else card_ascii(c) for c in position.pile],
        pile_caption=position.pile_caption,
    )


def _question(question: Question) -> QuestionModel:
    """What a page needs to put ``question``: not its answer, nor its explanation."""
    return QuestionModel(
        prompt=question.prompt,
        kind=question.kind,
        answer_prompt=question.answer_prompt,
        expects=question.expects,
        format_first=question.format_first,
        choices=list(question.choices),
        position=None if question.position is None else _position(question.position),
        number=question.number,
        topic=question.topic,
    )


def _verdict(verdict: Verdict) -> VerdictModel:
    return VerdictModel(
        correct=verdict.correct,
        answer=verdict.answer,
        reasons=list(verdict.reasons),
        mistakes=list(verdict.mistakes),
        read_as=verdict.read_as,
    )


def _scores(scores: script.Scores) -> ScoresModel:
    first, second = (
        SideScoreModel(
            player=side.player,
            label=side.label,
            score=side.score,
            lines=[
                ScoreLineModel(what=x.what, cards=x.cards, values=x.values, points=x.points)
                for x in side.lines
            ],
        )
        for side in scores.sides
    )
    return ScoresModel(sides=(first, second), result=scores.result)


def answer_question(question: Question, request: AnswerRequest) -> AnswerReply:
    """Read one answer to ``question`` as the terminal reads it (:class:`Attempts`: a
    skip word passes, an unreadable answer uses a try, the last try shows the answer)
    and grade it."""
    attempts = Attempts(question.grade, question.expects, can_quit=False)  # a page is left
    attempts.tries = request.tries
    reply = attempts.offer(request.answer)
    result = reply.result
    verdict: Verdict | None
    status: AnswerStatus
    if result is None:
        status, verdict = "unreadable", None
    elif isinstance(result, Unanswered):
        status = "skipped" if result is Unanswered.SKIPPED else "no_valid_answer"
        verdict = question.reveal()
    else:
        status, verdict = "graded", result
    return AnswerReply(
        status=status,
        message=reply.message,
        tries=attempts.tries,
        tries_left=MAX_TRIES - attempts.tries,
        verdict=None if verdict is None else _verdict(verdict),
        why=question.why if verdict is not None else "",
    )


# -- lessons ----------------------------------------------------------------------------------


def _lesson_number(number: int) -> int:
    if not 1 <= number <= len(LESSONS):
        raise HTTPException(
            404, f"there is no lesson {number}: the lessons are numbered 1 to {len(LESSONS)}"
        )
    return number


def lesson_script(number: int) -> tuple[list[LessonEvent], list[Question]]:
    """Lesson ``number``'s events as messages, and its questions in the order asked (an
    :class:`AskEvent`'s ``index`` counts them from 1)."""
    events: list[LessonEvent] = []
    questions: list[Question] = []
    for step in script.steps(number):
        if isinstance(step, script.Opening):
            events.append(OpeningEvent(number=step.number, title=step.title, intro=step.intro))
        elif isinstance(step, script.TurnStart):
            events.append(
                TurnStartEvent(
                    number=step.number, player=step.player, label=step.label, note=step.note
                )
            )
        elif isinstance(step, script.Play):
            events.append(PlayEvent(move=step.move.text(ascii=True), sentence=step.sentence))
        elif isinstance(step, script.Holds):
            events.append(
                HoldsEvent(
                    player=step.player, name=player_name(step.player), hand=_cards(step.hand)
                )
            )
        elif isinstance(step, script.Board):
            events.append(
                BoardEvent(board=board_model(step.state, step.show_points), caption=step.caption)
            )
        elif isinstance(step, script.Ask):
            questions.append(step.question)
            events.append(AskEvent(index=len(questions), question=_question(step.question)))
        elif isinstance(step, script.Narrate):
            events.append(NarrateEvent(points=list(step.points)))
        elif isinstance(step, script.Pause):
            events.append(PauseEvent())
        elif isinstance(step, script.HandOver):
            events.append(HandOverEvent())
        elif isinstance(step, script.Scores):
            events.append(ScoresEvent(scores=_scores(step)))
        else:
            events.append(
                SummaryEvent(
                    number=step.number,
                    totals=step.totals,
                    points=list(step.points),
                    next_lesson=step.next_lesson,
                )
            )
    return events, questions


LessonNumber = Annotated[int, PathParam(description="the lesson hand, 1 to 4")]


@router.get("/api/lessons")
def lessons() -> LessonList:
    """The four lesson hands: number, title, what each is about, how many questions."""
    return LessonList(
        lessons=[
            LessonInfo(
                number=number,
                title=notes.title,
                intro=notes.intro,
                questions=sum(isinstance(s, script.Ask) for s in script.steps(number)),
            )
            for number, notes in enumerate(lesson_notes(), start=1)
        ]
    )


@router.get("/api/lessons/{number}", responses={404: {"model": Problem}})
def lesson(number: LessonNumber) -> LessonScript:
    """A lesson's script, event by event: the hand laid out move by move, our notes, the
    questions (answered one by one at the answer route), the score and the summary."""
    events, _ = lesson_script(_lesson_number(number))
    return LessonScript(number=number, title=lesson_notes()[number - 1].title, events=events)


@router.post("/api/lessons/{number}/questions/{index}/answer", responses={404: {"model": Problem}})
def lesson_answer(number: LessonNumber, index: int, request: AnswerRequest) -> AnswerReply:
    """Grade an answer to the lesson's question ``index`` (from 1, as the script's
    :class:`AskEvent` numbers it)."""
    _, questions = lesson_script(_lesson_number(number))
    if not 1 <= index <= len(questions):
        raise HTTPException(
            404,
            f"lesson {number} has no question {index}: its questions are numbered 1 to"
            f" {len(questions)}",
        )
    return answer_question(questions[index - 1], request)


# -- the quiz ---------------------------------------------------------------------------------


@router.get("/api/quiz")
def quiz() -> QuizModel:
    """The quiz: its title, its opening words and its twelve questions."""
    questions = build_questions()
    title, intro = quiz_intro(len(questions), can_quit=False)
    return QuizModel(title=title, intro=intro, questions=[_question(q) for q in questions])


@router.post("/api/quiz/{number}/answer", responses={404: {"model": Problem}})
def quiz_answer(number: int, request: AnswerRequest) -> AnswerReply:
    """Grade an answer to quiz question ``number`` (1 to 12)."""
    questions = build_questions()
    if not 1 <= number <= len(questions):
        raise HTTPException(
            404,
            f"there is no quiz question {number}: the questions are numbered 1 to {len(questions)}",
        )
    return answer_question(questions[number - 1], request)


# -- replays ----------------------------------------------------------------------------------


def replay_reply(raw: bytes) -> ReplayReply:
    """The record in ``raw`` (a record file's bytes) read, raising :class:`RecordError`
    as ``umtali replay`` would refuse it, and told hand by hand, in the steps ``umtali
    replay --step`` pauses at: the deal, then each turn, each with the hand after it.

    Every record the project writes is read (:func:`umtali.kernel.record.load_any_bytes`):
    Umtali's, under any rules, and Gin Rummy's, between two (standard or Oklahoma) or in
    a party of three or four, whose hands are each told with the two players at its
    table."""
    match = load_any_bytes(raw, parties=True)
    game: Literal["umtali", "gin"] = "umtali" if isinstance(match, Match) else "gin"
    headings: list[str] = []
    end: str | None = None
    gin_result: str | None = None
    hands: list[ReplayHand] = []
    # The hand being told: its fields, and the step being gathered.
    hand: dict[str, object] = {}
    steps: list[ReplayStep] = []
    title, player, sentences = "", None, list[str]()
    # The two players of the hand being told: a party game's each hand names its own.
    names = (match.players[0], match.players[1])
    # The hands the record holds, in the order they are told, for their deals (below).
    recorded: Iterator[HandState | GinHand] = iter(
        match.hands if isinstance(match, Match) else gin_hands(match)
    )

    def close_step(board: BoardModel | GinBoardModel) -> None:
        nonlocal sentences
        steps.append(ReplayStep(title=title, player=player, sentences=sentences, board=board))
        sentences = []

    def begin_hand(number: int | None, title_: str, dealer: int) -> None:
        nonlocal hand, title, player
        hand = {"number": number, "title": title_, "dealer": dealer, "names": names}
        title, player = "The deal", None
        dealt = next(recorded)
        if isinstance(dealt, GinHand):
            # Gin Rummy's events begin a hand with its first turn: the deal is shown
            # first all the same, as Umtali's is.
            close_step(gin_deal_board(dealt))
            return
        fresh = HandState(dealt.deck, dealt.dealer, dealt.rules)
        if fresh.turn:
            # With no dealer's choice (the practical rules' upcard), turn 1 begins at
            # the deal: its board is shown here, before the events begin turn 1.
            close_step(board_model(fresh))

    def close_hand(**last: object) -> None:
        fields = {"result": None, "totals": None, "stopped": False, **last}
        hands.append(ReplayHand.model_validate({**hand, "steps": list(steps), **fields}))
        steps.clear()

    for event in any_match_events(match):
        if isinstance(event, Heading):
            headings.append(event.text)
        elif isinstance(event, PartyHandBegins):
            names = event.names
            begin_hand(event.number, event.title, event.table.dealer_seat)
        elif isinstance(event, HandBegins):
            begin_hand(event.number, event.title, event.dealer)
        elif isinstance(event, TurnBegins):
            title, player = event.title[0].upper() + event.title[1:], event.player
        elif isinstance(event, (Moved, GinMoved)):
            sentences.append(event.sentence)
        elif isinstance(event, TurnEnds):
            close_step(board_model(event.state))
        elif isinstance(event, GinTurnEnds):
            close_step(gin_board_model(event.board))
        elif isinstance(event, HandEnds):
            close_step(board_model(event.state))
            close_hand(result=event.result, scores=_scores(script.score_breakdown(event.state)))
        elif isinstance(event, GinHandEnds):
            close_step(gin_board_model(event.board))
            close_hand(
                result=event.summary.result,
                gin_end=gin_hand_end(event.summary, len(hands)),
            )
        elif isinstance(event, HandStops):
            close_step(board_model(event.state))
            close_hand(stopped=True)
        elif isinstance(event, GinHandStops):
            close_step(gin_board_model(event.board))
            close_hand(stopped=True)
        elif isinstance(event, (GameTotals, PartyTotals)):
            hands[-1] = hands[-1].model_copy(update={"totals": event.text})
        elif isinstance(event, GinGameEnds):
            gin_result = event.text
        else:  # MatchEnds: who won, or where an unfinished record stops
            end = event.text
    return ReplayReply(
        game=game,
        heading=headings[0],
        seating=headings[1] if len(headings) > 1 else None,
        names=list(match.players),
        hands=hands,
        end=end,
        gin_sheet=gin_sheet(match) if isinstance(match, GinMatch) else None,
        gin_result=gin_result,
    )


@router.post(
    REPLAY_PATH,
    responses={413: {"model": Problem}, 422: {"model": Problem}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
            "description": "a game record, as `umtali replay` reads it",
        }
    },
)
async def replay(request: Request) -> ReplayReply:
    """Replay a record (the JSON text of a saved terminal game or of the browser game's
    download): every hand, turn by turn, all cards face up. A record that cannot be
    read is refused with 422 and what is wrong with it; one over
    :data:`REPLAY_MAX_BYTES`, with 413."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > REPLAY_MAX_BYTES:
            raise HTTPException(
                413,
                f"the record is too large: at most {REPLAY_MAX_BYTES // (1024 * 1024)} MiB"
                " are read (a game's record takes a few KiB)",
            )
    try:
        # Reading a record replays every move: kept off the event loop.
        return await anyio.to_thread.run_sync(replay_reply, bytes(raw))
    except RecordError as e:
        raise HTTPException(422, f"cannot replay this record: {e}") from None


# -- the pages --------------------------------------------------------------------------------


@router.get("/learn", include_in_schema=False)
def learn_page(request: Request) -> Response:
    """The lessons: choose one, step through it, answer its questions."""
    return file_response(request, _PAGES / "learn.html")


@router.get("/quiz", include_in_schema=False)
def quiz_page(request: Request) -> Response:
    """The quiz: twelve questions, graded, and the score."""
    return file_response(request, _PAGES / "quiz.html")


@router.get("/replay", include_in_schema=False)
def replay_page(request: Request) -> Response:
    """The replay of a record opened from the disk."""
    return file_response(request, _PAGES / "replay.html")
