"""Toy at the server: what a seat is sent and a record told for the replay page (the
``table`` hook). Toy has no browser code of its own; the tests play it by the web API."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final, Literal

from tests.toy_game.game import ToyMatch
from tests.toy_game.replay import ToyBoard
from tests.toy_game.session import ToySession
from umtali.kernel.cards import card_ascii, cards_of
from umtali.replaying import GameEnds, HandEnds
from umtali.web.learning_protocol import ReplayHand, ReplayReply, ReplayStep
from umtali.web.protocol import Message, ScoreSheetModel, SeatState
from umtali.web.replays import tell
from umtali.web.tables import SeatContext, Table


class ToySeatState(SeatState):
    game: Literal["toy"] = "toy"


class ToyBoardModel(Message):
    game: Literal["toy"] = "toy"
    hands: tuple[list[str], list[str]]
    pile: list[str]
    points: tuple[int, int]


class ToyStep(ReplayStep):
    board: ToyBoardModel


class ToyReplayHand(ReplayHand):
    steps: Sequence[ToyStep]


class ToyReplay(ReplayReply):
    game: Literal["toy"] = "toy"
    hands: Sequence[ToyReplayHand]


class ToyDrawing:
    def deals(self, match: ToyMatch) -> Iterator[Message | None]:
        return iter([None] * len(match.hands))

    def board(self, board: ToyBoard) -> ToyBoardModel:
        hands = tuple([card_ascii(c) for c in cards_of(mask)] for mask in board.hands)
        return ToyBoardModel(
            hands=(hands[0], hands[1]),
            pile=[card_ascii(c) for c in board.pile],
            points=board.points,
        )

    def hand_end(self, ended: HandEnds, hand_index: int) -> dict[str, Any]:
        return {}

    def ending(self, match: ToyMatch, ended: GameEnds | None) -> dict[str, Any]:
        return {}


class ToyTable(Table):
    state = ToySeatState
    replay = ToyReplay

    def seat_table(self, session: Any, seat: int, context: SeatContext) -> dict[str, Any]:
        assert isinstance(session, ToySession)
        match = session.match
        names = session.names_for(seat)
        view = session.view(seat)
        recap = session.recap(seat)
        over = match.is_over()
        scores: Sequence[tuple[int, int]] = [h.points for h in match.hands if h.is_over()]
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
                games=[(1, list(scores), match.totals())], games_won=None, this_hand=None
            ),
            "over": over,
            "result": session.result(names) if over else None,
            "previous": None,
        }

    def tell(self, match: Any) -> ToyReplay:
        return tell(match, ToyDrawing(), ToyReplay)


TABLE: Final = ToyTable()
