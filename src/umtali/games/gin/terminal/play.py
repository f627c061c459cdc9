"""``umtali play --game gin``: a game of Gin Rummy (or Oklahoma Gin) against the
computer, or two people hot-seat.

The game (seats, turns, the computer's seeded decisions, hints, refusals and their
reasons, the end of each hand) is a :class:`umtali.games.gin.session.GinPlaySession`, and
the file it is kept in a :class:`umtali.session.kept.KeptGame`; this module is its
screen. It draws each board from the mover's :class:`~umtali.games.gin.view.GinView` and
offers the moves; in hot-seat the screen is cleared and handed over between the two
players. The prompts are :class:`~umtali.cli.prompting.TurnPrompt`'s; starting,
resuming, stopping and saving are :mod:`umtali.cli.play`'s, the same for every game.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from umtali.cli.kept import session_of
from umtali.cli.prompting import TurnPrompt
from umtali.cli.terminal import Terminal, printable
from umtali.games.gin.session import GinPlaySession, gin_variant
from umtali.games.gin.state import GinMove
from umtali.games.gin.terminal.render import (
    gin_board,
    gin_hand_line,
    gin_hand_summary,
    gin_score_sheet,
)
from umtali.kernel.cards import card_name
from umtali.kernel.english import possessive
from umtali.session.kept import KeptGame

__all__ = ["GIN_HELP_FILE", "GinGame"]

GIN_HELP_FILE: Final = "umtali.games.gin:help.toml"
"""The rules in brief and the play help of Gin Rummy, package data laid out as Umtali's
help is, read by :func:`umtali.learn.reference.rules_summary` and
:func:`~umtali.learn.reference.play_help`."""


class GinGame(TurnPrompt[GinMove]):
    """A :class:`GinPlaySession` at a terminal, kept in a file (:class:`KeptGame`): its
    boards, its moves offered, and the hand-over in hot-seat; the prompts are
    :class:`~umtali.cli.prompting.TurnPrompt`'s."""

    session: GinPlaySession
    why_example = "knock Kd"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        self.session = session_of(kept, GinPlaySession)
        self.at_keyboard: int | None = None
        """Hot-seat: the seat that looked last in this hand (the screen is his)."""
        self.shown_turn: tuple[int, int] | None = None
        """(hand, moves played) whose board was drawn last: drawn again only when it
        changed."""

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        """The first line: what is played (the seed only when the player gave it: it
        would reveal the deal), or which saved game is resumed."""
        if resumed is not None:
            self.term.say(
                Text(f"Resuming the game of {self.variant()} saved in {printable(resumed)}."),
                whole=True,
            )
            return
        names = self.names()
        shown_seed = f" Seed {seed}." if seed is not None else ""
        self.term.say(
            Text.assemble(
                f"A game of {self.variant()} to {self.session.match.rules.game_target}:"
                f" {names[0]} against {names[1]}.{shown_seed} Type ",
                ("help", "bold"),
                " at any prompt.",
            )
        )

    def variant(self) -> str:
        return gin_variant(self.session.match.rules)

    def help_file(self) -> str:
        return GIN_HELP_FILE

    def dealt(self) -> None:
        self.at_keyboard = None

    def show_hand_end(self) -> None:
        self.term.say(*gin_hand_summary(self.session.summarize_hand(self.names())))
        self.show_score()

    def show_score(self) -> None:
        """``score``: the score sheet of the game."""
        self.term.say(*gin_score_sheet(self.session.score_sheet(), self.names()))

    def human_turn(self, seat: int) -> None:
        session = self.session
        if session.hotseat and self.at_keyboard != seat:
            self.hand_over(seat)
        self.at_keyboard = seat
        view = session.view(seat)
        here = (session.hand_index, len(view.history))
        if self.shown_turn != here:
            name = self.names()[seat]
            self.term.blank()
            self.term.say(
                gin_board(
                    view,
                    self.names(),
                    heading=f"{self.hand_title(dealer=False)} · {possessive(name)} move",
                    totals=session.match.game.totals() if session.hand_index else None,
                    target=session.match.rules.game_target,
                )
            )
            self.shown_turn = here
        else:
            self.term.say(gin_hand_line(view))
        self.offer(view.legal)
        self.read_moves(seat, view.legal)

    def offer(self, legal: tuple[GinMove, ...]) -> None:
        """The moves to choose from: each numbered while there are few (the draw); in
        the discard, the cards that may be knocked with, if any."""
        if len(legal) <= 4:
            for i, move in enumerate(legal, start=1):
                self.term.say(f"  [bold]{i}[/bold]  {self.move_text(move)}", style=None)
            return
        knocks = [card_name(m.card) for m in legal if m.kind == "knock" and m.card is not None]
        line = "Discard a card ([bold]discard CARD[/bold])"
        if knocks:
            line += f", or knock with one of {' '.join(knocks)} ([bold]knock CARD[/bold])"
        self.term.say(line + "; [bold]moves[/bold] numbers them, [bold]hint[/bold] suggests one.")

    def move_text(self, move: GinMove) -> str:
        """A move as the list shows it: ``take`` names the card it takes."""
        hand = self.session.hand
        if move.kind == "take" and hand is not None and hand.pile:
            return f"take {card_name(hand.pile[-1])}"
        return move.text() if move.card is None else f"{move.kind} {card_name(move.card)}"

    def hand_over(self, seat: int) -> None:
        """Hot-seat: hide the other player's hand, wait for ``seat``'s player, then tell
        him what the other did since his last turn."""
        name = self.names()[seat]
        if self.at_keyboard is not None:
            self.term.clear()
            self.term.say(Text(self.hand_title(), style="bold"))
        self.pause(f"Hand the terminal to {name}, then press Enter")
        self.term.clear()
        self.shown_turn = None
        self.tell_recap(seat)
