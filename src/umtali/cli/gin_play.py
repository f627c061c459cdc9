"""``umtali play --game gin``: a game of Gin Rummy (or Oklahoma Gin) against the
computer, or two people hot-seat.

The game (seats, turns, the computer's seeded decisions, hints, refusals and their
reasons, the end of each hand) is a :class:`umtali.gin_session.GinPlaySession`, and the
file it is kept in a :class:`umtali.session_file.KeptGame`, as for Umtali; this module
is its terminal. It draws each screen from the mover's
:class:`~umtali.gin.view.GinView` and reads what is typed. In hot-seat the screen is
cleared and handed over between the two players, as in Umtali. Starting, resuming,
stopping and saving are :mod:`umtali.cli.play`'s, the same for both games.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from umtali.cards import card_name
from umtali.cli.gin_render import gin_board, gin_hand_line, gin_hand_summary, gin_score_sheet
from umtali.cli.kept import KeptPlay
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal, printable
from umtali.describe import possessive
from umtali.gin.state import GinMove
from umtali.gin_session import DEFAULT_GIN_BOT, GinAccepted, GinPlaySession, rules_named
from umtali.learn.answers import whole_number
from umtali.learn.reference import play_help, rules_summary, typed_spans
from umtali.session import Refused
from umtali.session_file import KeptGame
from umtali.session_shared import Guard

__all__ = ["GIN_HELP_FILE", "GinGame", "new_gin_session"]

GIN_HELP_FILE: Final = "gin_help.toml"
"""The rules in brief and the play help of Gin Rummy, package data laid out as Umtali's
``help.toml`` is, read by :func:`umtali.learn.reference.rules_summary` and
:func:`~umtali.learn.reference.play_help`."""


def _markup(text: str) -> str:
    """Help text as rich markup: what is typed at the prompt in bold."""
    return "".join(
        f"[bold]{escape(span)}[/bold]" if typed else escape(span)
        for span, typed in typed_spans(text)
    )


def _rows(title: str, rows: Sequence[tuple[str, str]]) -> Group:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for label, text in rows:
        grid.add_row(label, text)
    return Group(Text.from_markup(title, style="bold"), grid)


class GinGame(KeptPlay):
    """A :class:`GinPlaySession` at a terminal, kept in a file (:class:`KeptGame`)."""

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        super().__init__(term, kept)
        assert isinstance(kept.session, GinPlaySession), "a game of Umtali is a Game"
        self.session = kept.session
        self.at_keyboard: int | None = None
        """Hot-seat: the seat that looked last in this hand (the screen is his)."""
        self.shown_turn: tuple[int, int] | None = None
        """(hand, moves played) whose board was drawn last: drawn again only when it
        changed."""

    def names(self) -> tuple[str, str]:
        first, second = self.session.match.players
        return printable(first), printable(second)

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
        return "Oklahoma Gin" if self.session.match.rules.oklahoma else "Gin Rummy"

    def hand_title(self, dealer: bool = True) -> str:
        """The hand being played (and who deals, unless ``dealer`` is false)."""
        return self.session.hand_title(self.names(), dealer)

    def run(self) -> int:
        session = self.session
        if session.hand is not None:  # resumed in the middle of a hand
            self.term.blank()
            self.term.say(Text(self.hand_title(), style="bold"))
            if not session.hotseat:  # (hot-seat: the hand-over tells it)
                self.tell_recap(next(iter(session.humans)))
        while not session.is_over():
            if session.needs_deal():
                session.deal()
                self.at_keyboard = None
                self.term.blank()
                self.term.say(Text(self.hand_title(), style="bold"))
            self.play_hand()
            # Saved before the hand's end is printed: if printing fails, it is kept.
            self.autosave()
            self.term.blank()
            self.term.say(*gin_hand_summary(session.summarize_hand(self.names())))
            self.term.say(*gin_score_sheet(session.score_sheet(), self.names()))
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

    def show_score(self) -> None:
        """``score``: the score sheet of the game."""
        self.term.say(*gin_score_sheet(self.session.score_sheet(), self.names()))

    def computer_move(self) -> None:
        self.term.flush()
        played = self.session.bot_move()
        # Told as the other player saw it: a draw from the stock names no card.
        sentence = self.session.tell(1 - played.seat, played.index)
        self.term.say(Text("  " + printable(sentence), style="cyan"))

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
        self.offer(list(view.legal))
        name = self.names()[seat]
        while not self.handle(self.term.ask(f"{name}> "), seat, list(view.legal)):
            pass

    def offer(self, legal: list[GinMove]) -> None:
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

    def handle(self, line: str, seat: int, legal: list[GinMove]) -> bool:
        """Act on one line of input; True once a move was played."""
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
        if word in ("help", "?", "h"):
            reference = play_help(GIN_HELP_FILE)
            rows = [(label, _markup(text)) for label, text in reference.rows]
            self.term.say(_rows(_markup(reference.title), rows))
        elif word in ("moves", "m"):
            for i, move in enumerate(legal, start=1):
                self.term.say(f"  [bold]{i:>2}[/bold]  {self.move_text(move)}", style=None)
        elif word == "hint":
            hint = self.session.hint(seat)
            self.term.say(
                Text(
                    f"Hint: {self.move_text(hint.move)}  (the {hint.level} level would play"
                    f" this): {hint.why}."
                )
            )
        elif word == "rules":
            rules = rules_summary(GIN_HELP_FILE)
            rows = [(label or "•", _markup(text)) for label, text in rules.rows]
            self.term.say(_rows(escape(rules.title), rows))
        elif word == "score":
            self.show_score()
        elif word == "save":
            self.save_and_play_on()
        elif word in QUIT_WORDS:
            raise QuitRequested
        elif word == "undo":
            reply = self.session.undo(seat)
            self.say_reply(reply)
            return isinstance(reply, GinAccepted)
        elif word == "why":
            if not rest.strip():
                self.term.say("Write the move after 'why', e.g. [bold]why knock Kd[/bold].")
            else:
                self.say_reply(self.session.check(seat, rest))
        else:
            return self.submit(seat, line)
        return False

    def submit(self, seat: int, move: GinMove | str) -> bool:
        reply = self.session.submit(seat, move)
        if isinstance(reply, Refused):
            self.say_reply(reply)
            return False
        self.term.say(Text("  " + printable(reply.sentence), style="green"))
        return True

    def say_reply(self, reply: GinAccepted | Refused) -> None:
        style = "yellow" if isinstance(reply, Refused) else ""
        self.term.say(Text(printable(reply.sentence), style=style))

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

    def tell_recap(self, reader: int) -> None:
        """The other player's moves since ``reader``'s last move in this hand, as he
        was allowed to see them."""
        recap = self.session.recap(reader)
        if recap.lines:
            title = "Since your last turn" if recap.since_own_move else "So far in this hand"
            if self.session.hotseat:
                title += f" ({self.names()[reader]})"
            self.term.say(Text.assemble((title, "bold"), ":"))
            for line in recap.lines:
                self.term.say(Text("  " + printable(line), style="cyan"))

    def pause(self, prompt: str) -> None:
        """Wait for Enter; ``quit`` stops, ``score`` and ``help`` answer and wait again."""
        while True:
            reply = self.term.ask(f"{prompt} (or type quit)> ").lower()
            if reply in QUIT_WORDS:
                raise QuitRequested
            if reply == "save":
                self.save_and_play_on()
            elif reply == "score":
                self.show_score()
            elif reply in ("help", "?", "h"):
                self.term.say(
                    "Press Enter to go on; [bold]score[/bold] shows the score sheet,"
                    " [bold]save[/bold] saves the game, [bold]quit[/bold] saves it and stops."
                )
            else:
                return


def new_gin_session(
    seed: int,
    humans: Collection[int],
    bot: str | None,
    variant: str | None,
    *,
    guard: Guard,
) -> GinPlaySession:
    """A new game of Gin Rummy dealt from ``seed``: ``humans`` the seats at the keyboard,
    ``bot`` the computer's level (the default when ``None``), ``variant`` a preset
    (standard when ``None``). A ``ValueError`` names a level or variant that does not
    exist."""
    return GinPlaySession.new(
        seed=seed,
        humans=humans,
        bot=bot or DEFAULT_GIN_BOT,
        rules=rules_named(variant or "standard"),
        guard=guard,
    )
