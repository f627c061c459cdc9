"""What a game at the terminal does with the file it is kept in, whichever the game:
save after each hand, ``save`` and play on, save on the way out, and say where.

The file, its lock and where a game goes when its file cannot be written are a
:class:`umtali.session.kept.KeptGame`; this module only says it to the player. Every
game's screen (``umtali.games.<game>.terminal``) is a :class:`KeptPlay`, so a game of any
is saved the same way however it stops.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TypeVar

from rich.text import Text

from umtali.cli.terminal import Terminal, interrupts_deferred, printable
from umtali.kernel.files import os_reason
from umtali.session.kept import KeptGame

__all__ = ["KeptPlay", "session_of", "shown"]

SessionT = TypeVar("SessionT")


def shown(path: Path) -> str:
    """A path as it is shown to the player: control characters escaped."""
    return printable(str(path))


def session_of(kept: KeptGame, kind: type[SessionT]) -> SessionT:
    """The session ``kept`` holds, which a screen made for sessions of ``kind`` plays
    (a ``TypeError`` names any other: the screen was chosen for another game)."""
    session = kept.session
    if not isinstance(session, kind):
        raise TypeError(f"a {kind.__name__} is played on this screen, not {session!r}")
    return session


class KeptPlay:
    """A game at a terminal, kept in a file (:class:`KeptGame`)."""

    def __init__(self, term: Terminal, kept: KeptGame) -> None:
        self.term = term
        self.kept = kept

    def autosave(self) -> None:
        """Save after a hand; a failure is told, and the game plays on in memory."""
        try:
            self.kept.autosave()
        except OSError as e:
            self.term.say(
                Text(
                    f"The game could not be saved to {printable(str(self.kept.path))}:"
                    f" {os_reason(e)}. Playing on; it will be tried again after the next"
                    " hand, and 'quit' saves it elsewhere if need be.",
                    style="yellow",
                ),
                whole=True,
            )

    def save_and_play_on(self) -> None:
        """``save``: keep the game now; later saves go to the same file."""
        path = self.kept.save_anywhere(
            lambda text: self.term.say(Text(printable(text)), whole=True)
        )
        if path is None:
            self.term.say("The game could not be saved anywhere; playing on.")
            return
        self.term.say(
            Text(
                f"Game saved to {shown(path)}; it is saved there again after every hand."
                " Playing on."
            ),
            whole=True,
        )

    def say_where_kept(self) -> None:
        """At the end of the game: the file its record is in, and how to replay it."""
        if self.kept.path is not None:
            quoted = shlex.quote(str(self.kept.path))
            self.term.say(
                Text(
                    f"The record is in {shown(self.kept.path)} (replay it with: umtali"
                    f" replay {printable(quoted)})"
                ),
                whole=True,
            )

    def stop(self, why: str | None = None, status: int = 0) -> int:
        """Save the game on ``quit``, the end of input, Ctrl-C, a signal to stop or a
        lost output (``why`` names the last three), and say how to go on; a new game in
        which nobody has moved is not kept. The terminal may be gone (SIGHUP, a closed
        pipe): the game is saved all the same, what cannot be written is left unsaid,
        and where a lost output leaves it the last word goes to standard error. The exit
        status: ``status``, or 1 when the game could not be saved or nothing could be
        shown."""
        with interrupts_deferred(reraise=False):  # a second Ctrl-C does not stop the save
            if why is not None:
                self.term.say_if_possible("")
                self.term.say_if_possible(f"{why}: saving the game.")
            if not self.kept.worth_saving:
                self.term.say_if_possible("Nothing was played yet, so nothing was saved.")
                return 1 if self.term.output_lost else status
            path = self.kept.save_anywhere(
                lambda text: self.term.say_if_possible(Text(printable(text)), whole=True)
            )
            if path is None:
                self.term.say_if_possible("The game could not be saved anywhere.")
                if self.term.output_lost:
                    self.term.warn(f"{why}, and the game could not be saved anywhere.")
                return 1
            resume = f"umtali play --resume {shlex.quote(str(path))}"
            self.term.say_if_possible(
                Text(f"Game saved to {shown(path)}. Continue it with: {printable(resume)}"),
                whole=True,
            )
            if self.term.output_lost:
                self.term.warn(f"{why}: the game was saved to {path}; continue it with: {resume}")
                return 1
            return status
