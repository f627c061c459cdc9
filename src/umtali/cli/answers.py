"""Asking in the terminal until an answer can be read: the loop ``umtali lesson`` and
``umtali quiz`` share. What counts as an answer, a skip or a wasted try is decided by
:class:`umtali.learn.answers.Attempts`; this module only prompts, prints and stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.text import Text

from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal
from umtali.learn.answers import Attempts, Unanswered, normalize

__all__ = ["ask_until_read"]

T = TypeVar("T")


def ask_until_read(
    term: Terminal, prompt: str, read: Callable[[str], T], expects: str
) -> T | Unanswered:
    """Ask after ``prompt`` until ``read`` takes the answer (see
    :class:`~umtali.learn.answers.Attempts`), and return what it made of it; a word of
    :data:`~umtali.cli.terminal.QUIT_WORDS` raises :class:`QuitRequested`."""
    attempts = Attempts(read, expects)
    while True:
        text = term.ask(prompt)
        if normalize(text) in QUIT_WORDS:
            raise QuitRequested
        reply = attempts.offer(text)
        if reply.message:
            term.say(Text(reply.message, style="yellow"))
        if reply.result is not None:
            return reply.result
