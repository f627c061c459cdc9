"""Umtali's lessons and quiz in the browser (layer 7): the routes ``/api/lessons`` and
``/api/quiz`` that the server adds for the game's table (its ``routes``), served from
the same teaching the terminal uses (:mod:`umtali.games.umtali.learn`).

The routes only translate. A lesson is :func:`umtali.games.umtali.learn.lesson.steps`
written out as JSON events; an answer is read and graded by the question the script or
the quiz built, as :func:`umtali.web.teaching.answer_question` reads it, so the browser
gives the verdicts the terminal gives. Nothing is kept between requests: the script is
built again for each one (a few milliseconds).

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

from typing import Annotated

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam

from umtali.games.umtali.learn import lesson as script
from umtali.games.umtali.learn.notes import lesson_notes
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.learn.quiz import build_questions, quiz_intro
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.state import player_name
from umtali.games.umtali.table.boards import board_model, cards, question_model, scores_model
from umtali.games.umtali.table.models import (
    AskEvent,
    BoardEvent,
    HandOverEvent,
    HoldsEvent,
    LessonEvent,
    LessonInfo,
    LessonList,
    LessonScript,
    NarrateEvent,
    OpeningEvent,
    PauseEvent,
    PlayEvent,
    QuizModel,
    ScoresEvent,
    SummaryEvent,
    TurnStartEvent,
)
from umtali.web.learning_protocol import AnswerReply, AnswerRequest
from umtali.web.protocol import Problem
from umtali.web.teaching import answer_question

__all__ = ["lesson_script", "router"]

router = APIRouter()
"""The lessons' and the quiz's routes."""


def _lesson_number(number: int) -> int:
    if not 1 <= number <= len(LESSONS):
        raise HTTPException(
            404, f"there is no lesson {number}: the lessons are numbered 1 to {len(LESSONS)}"
        )
    return number


def _event(step: script.Step) -> LessonEvent | None:
    """One step of a lesson's script as its message (``None`` for a question, which
    :func:`lesson_script` numbers itself)."""
    if isinstance(step, script.Opening):
        return OpeningEvent(number=step.number, title=step.title, intro=step.intro)
    if isinstance(step, script.TurnStart):
        return TurnStartEvent(
            number=step.number, player=step.player, label=step.label, note=step.note
        )
    if isinstance(step, script.Play):
        return PlayEvent(move=step.move.text(ascii=True), sentence=step.sentence)
    if isinstance(step, script.Holds):
        return HoldsEvent(player=step.player, name=player_name(step.player), hand=cards(step.hand))
    if isinstance(step, script.Board):
        return BoardEvent(board=board_model(step.state, step.show_points), caption=step.caption)
    if isinstance(step, script.Ask):
        return None
    if isinstance(step, script.Narrate):
        return NarrateEvent(points=list(step.points))
    if isinstance(step, script.Pause):
        return PauseEvent()
    if isinstance(step, script.HandOver):
        return HandOverEvent()
    if isinstance(step, script.Scores):
        return ScoresEvent(scores=scores_model(step))
    return SummaryEvent(
        number=step.number,
        totals=step.totals,
        points=list(step.points),
        next_lesson=step.next_lesson,
    )


def lesson_script(number: int) -> tuple[list[LessonEvent], list[Question]]:
    """Lesson ``number``'s events as messages, and its questions in the order asked (an
    :class:`AskEvent`'s ``index`` counts them from 1)."""
    events: list[LessonEvent] = []
    questions: list[Question] = []
    for step in script.steps(number):
        event = _event(step)
        if event is None:
            assert isinstance(step, script.Ask)
            questions.append(step.question)
            event = AskEvent(index=len(questions), question=question_model(step.question))
        events.append(event)
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


@router.get("/api/quiz")
def quiz() -> QuizModel:
    """The quiz: its title, its opening words and its twelve questions."""
    questions = build_questions()
    title, intro = quiz_intro(len(questions), can_quit=False)
    return QuizModel(title=title, intro=intro, questions=[question_model(q) for q in questions])


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
