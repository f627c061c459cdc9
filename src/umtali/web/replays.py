"""A record told for the replay page, whatever its game: the events of
:mod:`umtali.replaying` grouped into the steps ``umtali replay --step`` pauses at (the
deal, then each turn, each with the board after it), each hand closed with its result,
and the last word.

What only the game knows it draws itself, through a :class:`Drawing` its table gives:
a board as a model of its own, the board of a hand as it was dealt, a hand's end and
what its replay adds at the end (a score sheet, say). :func:`tell` writes it all in
the game's replay model, which checks it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol, TypeVar

from umtali import replaying
from umtali.kernel.players import seat_names
from umtali.kernel.record import record_of
from umtali.web.learning_protocol import ReplayReply
from umtali.web.protocol import Message

__all__ = ["Drawing", "tell"]

ReplyT = TypeVar("ReplyT", bound=ReplayReply)


class Drawing(Protocol):
    """How a game draws what its replay shows."""

    def deals(self, match: Any) -> Iterator[Message | None]:
        """For each hand of ``match``, in the order its replay tells them, the board as
        it was dealt, shown as the step "The deal" (``None``: the events show it)."""

    def board(self, board: Any) -> Message:
        """A board of the game's replay events (every card face up)."""

    def hand_end(self, ended: replaying.HandEnds, hand_index: int) -> dict[str, Any]:
        """What a hand that ended adds to its model (its score, its end as laid), from
        its :class:`~umtali.replaying.HandEnds`; ``hand_index`` counts from 0."""

    def ending(self, match: Any, ended: replaying.GameEnds | None) -> dict[str, Any]:
        """What the replay adds at its end (a score sheet, the sentence that ends the
        game with its bonuses), given the game's end if it ended."""


class _Telling:
    """The replay being written: the hands closed, and the hand and step being told."""

    def __init__(self, drawing: Drawing, match: Any, players: Sequence[str]) -> None:
        self.drawing = drawing
        self.deals = drawing.deals(match)
        self.players = (players[0], players[1])
        self.hands: list[dict[str, Any]] = []
        self.hand: dict[str, Any] = {}
        self.steps: list[dict[str, Any]] = []
        self.title = ""
        self.player: int | None = None
        self.sentences: list[str] = []

    def close_step(self, board: Message) -> None:
        step = {
            "title": self.title,
            "player": self.player,
            "sentences": self.sentences,
            "board": board,
        }
        self.steps.append(step)
        self.sentences = []

    def begin_hand(self, begins: replaying.HandBegins) -> None:
        names = begins.names if begins.names is not None else self.players
        self.hand = {
            "number": begins.number,
            "title": begins.title,
            "dealer": begins.dealer,
            "names": (names[0], names[1]),
        }
        self.title, self.player = "The deal", None
        dealt = next(self.deals)
        if dealt is not None:
            self.close_step(dealt)

    def close_hand(self, **last: Any) -> None:
        fields = {"result": None, "totals": None, "stopped": False, **last}
        self.hands.append({**self.hand, "steps": self.steps, **fields})
        self.steps = []


def tell(match: Any, drawing: Drawing, model: type[ReplyT]) -> ReplyT:
    """The record ``match`` told step by step in ``model``, the game's replay model,
    its boards and hands' ends drawn by ``drawing``; its players named as a record
    names them now (:func:`~umtali.kernel.players.seat_names`: no "You")."""
    players = seat_names(record_of(match)["players"])
    telling = _Telling(drawing, match, players)
    headings: list[str] = []
    end: str | None = None
    ended: replaying.GameEnds | None = None
    for event in replaying.events(match, players):
        if isinstance(event, replaying.Heading):
            headings.append(event.text)
        elif isinstance(event, replaying.HandBegins):
            telling.begin_hand(event)
        elif isinstance(event, replaying.TurnBegins):
            telling.title, telling.player = event.title[0].upper() + event.title[1:], event.player
        elif isinstance(event, replaying.Moved):
            telling.sentences.append(event.sentence)
        elif isinstance(event, replaying.TurnEnds):
            telling.close_step(drawing.board(event.board))
        elif isinstance(event, replaying.HandEnds):
            telling.close_step(drawing.board(event.board))
            extra = drawing.hand_end(event, len(telling.hands))
            telling.close_hand(result=event.result, **extra)
        elif isinstance(event, replaying.HandStops):
            telling.close_step(drawing.board(event.board))
            telling.close_hand(stopped=True)
        elif isinstance(event, replaying.Totals):
            telling.hands[-1]["totals"] = event.text
        elif isinstance(event, replaying.GameEnds):
            ended = event
        else:  # MatchEnds: who won, or where an unfinished record stops
            end = event.text
    return model.model_validate(
        {
            "heading": headings[0],
            "seating": headings[1] if len(headings) > 1 else None,
            "names": list(players),
            "hands": telling.hands,
            "end": end,
            **drawing.ending(match, ended),
        }
    )
