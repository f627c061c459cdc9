"""Toy at the terminal: its screen, its replay board, its help (the ``terminal`` hook)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from tests.toy_game.game import ToyMove
from tests.toy_game.replay import ToyBoard
from tests.toy_game.session import ToySession
from umtali.cli.cards import cards_text
from umtali.cli.hook import GameTerminal
from umtali.cli.kept import session_of
from umtali.cli.prompting import TurnPrompt
from umtali.cli.terminal import Terminal
from umtali.kernel.cards import card_name, cards_of
from umtali.session.kept import KeptGame


class ToyScreen(TurnPrompt[ToyMove]):
    session: ToySession
    why_example = "play 4h"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        self.session = session_of(kept, ToySession)

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        names = self.names()
        self.term.say(Text(f"Toy: {names[0]} against {names[1]}. Type help at any prompt."))

    def help_file(self) -> str:
        return "tests.toy_game:help.toml"

    def show_hand_end(self) -> None:
        self.show_score()

    def show_score(self) -> None:
        a, b = self.session.match.totals()
        self.term.say(Text(f"Totals: {a} to {b} (to {self.session.match.rules.target})."))

    def human_turn(self, seat: int) -> None:
        view = self.session.view(seat)
        top = card_name(view.pile[-1]) if view.pile else "nothing"
        self.term.say(Text(f"On the pile: {top}. Your cards: "), cards_text(cards_of(view.hand)))
        self.read_moves(seat, view.legal)


def board(shown: ToyBoard, names: Sequence[str] | None) -> str:
    seats = names or ("Player 1", "Player 2")
    hands = "; ".join(
        f"{seats[p]}: {' '.join(card_name(c) for c in cards_of(shown.hands[p]))}" for p in (0, 1)
    )
    return f"{hands}; pile: {' '.join(card_name(c) for c in shown.pile)}; points {shown.points}"


SCREEN: Final = GameTerminal(screen=ToyScreen, board=board)
