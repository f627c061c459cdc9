"""A game of Umtali at the terminal (``umtali play``): against the computer, or two
people hot-seat.

The game itself (seats, turns, the computer's seeded decisions, hints, undo, recaps) is a
:class:`umtali.games.umtali.session.PlaySession`, what each seat has seen of it a
:class:`~umtali.games.umtali.session.SeatsSeen`, and the file it is kept in (locked while
it is played) a :class:`umtali.session.kept.KeptGame`. This module is its screen: it
draws each board from the mover's :class:`~umtali.games.umtali.view.PlayerView` (so it
never shows a hidden card) and hands the board over between two people. Starting,
resuming, saving and stopping are :mod:`umtali.cli.play`'s, the same for every game; the
prompts are :class:`~umtali.cli.prompting.TurnPrompt`'s.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from rich.text import Text

from umtali.cli.kept import session_of
from umtali.cli.prompting import TurnPrompt
from umtali.cli.terminal import Terminal, printable
from umtali.games.umtali.learn.help import help_file
from umtali.games.umtali.moves import Move
from umtali.games.umtali.notation import VERBS
from umtali.games.umtali.session import (
    PlaySession,
    Refused,
    SeatsSeen,
    rules_label,
    summarize_hand,
)
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terminal.render import board, hand_line, hand_summary, score_sheets
from umtali.kernel.english import possessive
from umtali.session.kept import KeptGame

__all__ = ["Game"]

UNKNOWN_WORD: Final = (
    "Type [bold]moves[/bold] to list the moves you may make, [bold]hint[/bold] for a"
    " suggestion, or [bold]help[/bold] for everything you can type."
)

YES: Final = frozenset({"y", "yes"})


class Game(TurnPrompt[Move]):
    """A :class:`PlaySession` at a terminal, kept in a file (:class:`KeptGame`): its
    boards, what is new to each seat, and the hand-over in hot-seat (where a move may be
    taken back with the other player's leave); the prompts are
    :class:`~umtali.cli.prompting.TurnPrompt`'s."""

    session: PlaySession
    why_example = "play 8♦ off 8♥"

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        self.session = session_of(kept, PlaySession)
        self.match = self.session.match
        self.seen = SeatsSeen(self.session)
        """What each seat has been shown: the whole board once a turn, new cards marked."""
        self.private_shown = False
        """Hot-seat: whether a player's hand has been shown since the screen was cleared."""

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        """The first line: what is played (the seed only when the player gave it: it
        would reveal the deal, R11), or which saved game is resumed."""
        match = self.match
        if resumed is not None:
            shown = printable(resumed)
            self.term.say(Text(f"Resuming the {match.kind} saved in {shown}."), whole=True)
            return
        shown_seed = f" Seed {seed}." if seed is not None else ""
        names = self.names()
        label = rules_label(match.rules)
        rules = "" if label is None else f" ({label})"
        self.term.say(
            Text.assemble(
                f"A {match.kind} of Umtali{rules}: {names[0]} against {names[1]}.{shown_seed}"
                " Type ",
                ("help", "bold"),
                " at any prompt.",
            )
        )

    def help_file(self) -> str:
        return help_file(self.match.rules.name)

    def show_hand_end(self) -> None:
        self.term.say(*hand_summary(summarize_hand(self.match.hands[-1], self.names())))
        self.term.say(*score_sheets(self.session.score_sheet(running=False), self.names()))

    def show_score(self) -> None:
        """``score``: the score sheet, with the points of the hand under way."""
        self.term.say(*score_sheets(self.session.score_sheet(running=True), self.names()))

    def refused(self, move: Move | str) -> None:
        if isinstance(move, str) and move.split()[0].lower() not in VERBS:
            self.term.say(UNKNOWN_WORD)

    def human_turn(self, seat: int) -> None:
        session = self.session
        if self.seen.hand_over_due(seat) and self._hand_over(seat):
            return  # the other player took his move back: his turn again
        hand = session.hand
        assert hand is not None
        view = session.view(seat)
        look = self.seen.look(seat)
        if look.whole:
            self._show_board(seat, hand, look.new)
        else:  # later in the same turn: only what changed (the move was just told)
            self.term.say(hand_line(view))
        if len(view.legal) <= 10:
            self.list_moves(view.legal)
        else:
            self.term.say(f"{len(view.legal)} legal moves: type [bold]moves[/bold] to list them.")
        self.read_moves(seat, view.legal)

    def _show_board(self, seat: int, hand: HandState, new: int) -> None:
        view = self.session.view(seat)
        name = self.names()[seat]
        self.term.blank()
        self.term.say(
            board(
                view,
                self.names(),
                heading=f"{self.hand_title(dealer=False)} · "
                + (f"turn {hand.turn}" if hand.turn else "the deal")
                + f" · {possessive(name)} move",
                game_so_far=self.session.game_so_far(),
                new=new,
            )
        )
        self.private_shown = True

    def _hand_over(self, seat: int) -> bool:
        """Hot-seat: hide the screen, wait for the next player, then tell him what the
        other player did since his last turn, as far as he was allowed to see it. Here
        the player who just moved may take his move back, if the next one agrees: then
        True (and the next player's turn has not begun)."""
        names = self.names()
        name, other = names[seat], 1 - seat
        if self.private_shown:  # (the opening screen stays until the first Enter)
            self.term.clear()
            self.private_shown = False
            self.term.say(Text(self.hand_title(), style="bold"))
        if self.session.undo_refusal(other, consent=True) is None:
            self.term.say(
                f"({names[other]} may type [bold]undo[/bold] here to take back"
                f" the last move, if {name} agrees.)"
            )
        prompt = f"Hand the terminal to {name}, then press Enter"
        while self.pause(prompt, undo=partial(self.session.undo_refusal, other, consent=True)):
            answer = self.term.ask(
                f"{name}: may {names[other]} take the last move back? (yes/no)> "
            )
            if answer.lower() in YES:
                reply = self.session.undo(other, consent=True)
                self.term.say(printable(reply.sentence), style=None)
                if not isinstance(reply, Refused):
                    # Back to the player whose turn it is again, his whole board unseen.
                    self.pause(f"Hand the terminal back to {names[other]}, then press Enter")
                    self.term.clear()
                    self.seen.forget_turn()
                    return True
            else:
                self.term.say("The move stands.")
        self.term.clear()
        self.tell_recap(seat)
        return False
