"""The prompts of a game at the terminal, whichever the game: the loop of a turn (a move
typed, or a number, or one of the words every game knows) and the wait between hands.

:class:`Pausing` waits for Enter between hands (``quit``, ``save``, ``score`` and
``help`` answered meanwhile); every screen of a game is one, a game of three or four
players' too. :class:`TurnPrompt` is a game of two played on a
:class:`~umtali.session.shared.TwoSeatSession`: the hands dealt and played to the end,
the computer's moves told, and a person's turn read line by line: a move, its number,
``moves``, ``hint``, ``why MOVE``, ``undo``, ``rules``, ``help``, ``score``, ``save``
and ``quit``, refusals told with their reason. Each game's screen
(``umtali.games.<game>.terminal``) draws its own boards and offers its own moves;
everything else is here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from umtali.cli.kept import KeptPlay
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, printable
from umtali.kernel.english import sentence
from umtali.learn.answers import whole_number
from umtali.learn.reference import play_help, rules_summary, typed_spans
from umtali.session.shared import Accepted, MoveT, Refused, TwoSeatSession

__all__ = ["Pausing", "TurnPrompt", "help_told", "rules_told"]

HELP_WORDS = frozenset({"help", "?", "h"})
"""What asks for help at any prompt."""


def _markup(text: str) -> str:
    """Help text as rich markup: what is typed at the prompt in bold."""
    return "".join(
        f"[bold]{escape(span)}[/bold]" if typed else escape(span)
        for span, typed in typed_spans(text)
    )


def _rows(title: str, rows: Sequence[tuple[str, str]]) -> Group:
    """A title (rich markup) and rows of (label, text): the text wraps beside its label."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, text in rows:
        grid.add_row(label, text)
    return Group(title, grid)


def rules_told(file: str) -> Group:
    """``rules``: the rules in brief, from the game's help ``file``."""
    summary = rules_summary(file)
    rows = tuple((label or "•", _markup(text)) for label, text in summary.rows)
    return _rows(f"[bold]{escape(summary.title)}[/bold]", rows)


def help_told(file: str) -> Group:
    """``help``: what may be typed at the prompt, from the game's help ``file``."""
    reference = play_help(file)
    rows = tuple((label, _markup(text)) for label, text in reference.rows)
    return _rows(_markup(reference.title), rows)


class Pausing(KeptPlay, ABC):
    """A game's screen that waits between hands; ``score_told`` says what ``score``
    shows there (:meth:`show_score`)."""

    score_told: ClassVar[str] = "shows the score sheet"

    @abstractmethod
    def show_score(self) -> None:
        """``score``: the score sheet (or the totals) of the game so far."""

    def pause(self, prompt: str, undo: Callable[[], str | None] | None = None) -> bool:
        """Wait for Enter; ``quit`` saves and stops, ``save``, ``score`` and ``help``
        answer and wait again; anything else goes on. ``undo``, when given, lets
        ``undo`` be typed too: it says why the last move may not be taken back (then
        told, and the wait goes on), or ``None`` when it may: then True."""
        while True:
            reply = self.term.ask(f"{prompt} (or type quit)> ").lower()
            if reply in QUIT_WORDS:
                raise QuitRequested
            if reply == "save":
                self.save_and_play_on()
            elif reply == "score":
                self.show_score()
            elif reply == "undo" and undo is not None:
                refusal = undo()
                if refusal is None:
                    return True
                self.term.say(Text(printable(refusal), style="yellow"))
            elif reply in HELP_WORDS:
                self.term.say(
                    f"Press Enter to go on; [bold]score[/bold] {self.score_told},"
                    " [bold]save[/bold] saves the game, [bold]quit[/bold] saves it and stops."
                )
            else:
                return False


class TurnPrompt(Pausing, Generic[MoveT]):
    """A game of two at the terminal, played on its ``session``: each game draws its own
    board and hand's end, and offers its own moves; the loop of the game and of a
    person's turn is this one.

    ``why_example`` is a move of the game written after ``why`` in the reminder of how
    to ask it.
    """

    session: TwoSeatSession[Any, Any, Any, MoveT]
    why_example: ClassVar[str]

    # -- what each game draws ----------------------------------------------------------
    @abstractmethod
    def human_turn(self, seat: int) -> None:
        """A person's turn: his board, then his moves read (:meth:`read_moves`)."""

    @abstractmethod
    def show_hand_end(self) -> None:
        """The end of the hand just played, and the score sheet."""

    @abstractmethod
    def help_file(self) -> str:
        """The help of the game being played (a file of ``learn/content``)."""

    def dealt(self) -> None:
        """A new hand was dealt (a game that remembers what was shown forgets it)."""

    def move_text(self, move: MoveT) -> str:
        """A move as the lists and hints show it."""
        return move.text()

    def refused(self, move: MoveT | str) -> None:
        """After the refusal of ``move`` is told: anything more to say."""

    # -- the game ----------------------------------------------------------------------
    def names(self) -> tuple[str, str]:
        """The players' names as they are shown: a record's names are checked when it is
        read, and shown with any control character escaped all the same."""
        first, second = self.session.match.players
        return printable(first), printable(second)

    def hand_title(self, dealer: bool = True) -> str:
        """The hand being played (and who deals, unless ``dealer`` is false)."""
        return self.session.hand_title(self.names(), dealer)

    def run(self) -> int:
        """Play the game to its end, hand after hand, saved after each; the exit
        status, 0."""
        session = self.session
        if session.hand is not None:  # resumed in the middle of a hand
            self.term.blank()
            self.term.say(Text(self.hand_title(), style="bold"))
            if not session.hotseat:  # (hot-seat: the hand-over before the first turn tells it)
                self.tell_recap(next(iter(session.humans)))
        while not session.is_over():
            if session.needs_deal():
                session.deal()
                self.dealt()
                self.term.blank()
                self.term.say(Text(self.hand_title(), style="bold"))
            self.play_hand()
            # Saved before anything about the hand is printed: if printing fails, the
            # hand is kept all the same.
            self.autosave()
            self.term.blank()
            self.show_hand_end()
            if not session.is_over():
                self.pause("Press Enter for the next hand")
        self.term.blank()
        self.term.say(Text(session.result(self.names()), style="bold"))
        self.say_where_kept()
        return 0

    def play_hand(self) -> None:
        """Play the hand under way to its end: the people's turns at the keyboard, the
        computer's told as the other player saw them."""
        session = self.session
        seat = session.to_move()
        while seat is not None:
            if seat in session.humans:
                self.human_turn(seat)
            else:
                self.computer_move()
            seat = session.to_move()

    def computer_move(self) -> None:
        self.term.flush()  # the screen is up to date while the computer thinks
        played = self.session.bot_move()
        # Told as the other player saw it: his view decides what he may know of it (R11).
        sentence = self.session.tell(1 - played.seat, played.index)
        self.term.say(Text("  " + printable(sentence), style="cyan"))

    def tell_recap(self, reader: int) -> None:
        """The other player's moves since ``reader``'s last move in this hand, told from
        ``reader``'s view: what he saw of them (R11, as the view decides)."""
        recap = self.session.recap(reader)
        if not recap.lines:
            return
        title = "Since your last turn" if recap.since_own_move else "So far in this hand"
        if self.session.hotseat:
            title += f" ({self.names()[reader]})"
        self.term.blank()
        self.term.say(Text.assemble((title, "bold"), ":"))
        for line in recap.lines:
            self.term.say(Text("  " + printable(line), style="cyan"))

    # -- a person's turn ---------------------------------------------------------------
    def read_moves(self, seat: int, legal: Sequence[MoveT]) -> None:
        """Read lines from ``seat``'s player until one plays a move or takes one back."""
        name = self.names()[seat]
        while not self.handle(self.term.ask(f"{name}> "), seat, legal):
            pass

    def list_moves(self, legal: Sequence[MoveT]) -> None:
        for i, move in enumerate(legal, start=1):
            self.term.say(f"  [bold]{i:>2}[/bold]  {self.move_text(move)}", style=None)

    def handle(self, line: str, seat: int, legal: Sequence[MoveT]) -> bool:
        """Act on one line of input; True when the turn's screen must be drawn again (a
        move was played or taken back)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            if len(legal) == 1:
                return self.submit(seat, legal[0])
            self.term.say("Type a move, a number, or [bold]help[/bold].")
            return False
        number = whole_number(line)
        if number is not None:
            if 1 <= number <= len(legal):
                return self.submit(seat, legal[number - 1])
            self.term.say(
                f"There is no move {number}: choose 1 to {len(legal)}"
                " ([bold]moves[/bold] lists them)."
            )
            return False
        if word in HELP_WORDS:
            self.term.say(help_told(self.help_file()))
        elif word in ("moves", "m"):
            self.list_moves(legal)
        elif word == "hint":
            self.give_hint(seat)
        elif word == "rules":
            self.term.say(rules_told(self.help_file()))
        elif word == "score":
            self.show_score()
        elif word == "save":
            self.save_and_play_on()
        elif word in QUIT_WORDS:
            raise QuitRequested
        elif word == "undo":
            reply = self.session.undo(seat)
            self.say_reply(reply)
            return not isinstance(reply, Refused)
        elif word == "why":
            if not rest.strip():
                self.term.say(
                    f"Write the move after 'why', e.g. [bold]why {self.why_example}[/bold]."
                )
            else:
                self.say_reply(self.session.check(seat, rest))
        else:
            return self.submit(seat, line)
        return False

    def give_hint(self, seat: int) -> None:
        """``hint``: the move the hint level would make, and why (or why none is given)."""
        hint = self.session.hint(seat)
        if isinstance(hint, Refused):
            self.say_reply(hint)
            return
        self.term.say(
            Text(
                f"Hint: {self.move_text(hint.move)}. {sentence(hint.why)}"
                f" (The {hint.level} level would play this.)"
            )
        )

    def submit(self, seat: int, move: MoveT | str) -> bool:
        """Play ``move``; True when it was played, else its refusal is told."""
        reply = self.session.submit(seat, move)
        if isinstance(reply, Refused):
            self.say_reply(reply)
            self.refused(move)
            return False
        self.term.say(Text("  " + printable(reply.sentence), style="green"))
        return True

    def say_reply(self, reply: Accepted[MoveT] | Refused) -> None:
        style = "yellow" if isinstance(reply, Refused) else ""
        self.term.say(Text(printable(reply.sentence), style=style))
