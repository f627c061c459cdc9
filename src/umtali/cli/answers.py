"""What ``umtali lesson`` and ``umtali quiz`` share in the terminal: asking until an
answer can be read, and bullet points. What counts as an answer, a skip or a wasted try
is decided by :class:`umtali.learn.answers.Attempts`; this module only prompts, prints and
stops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal
from umtali.learn.answers import Attempts, Unanswered, normalize

__all__ = ["ask_until_read", "bullet"]

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


def bullet(term: Terminal, marker: str, text: str | Text, indent: int = 2) -> RenderableType:
    """``text`` after ``marker`` (``"•"``, ``"-"``, ``"10."``), ``indent`` spaces in, as
    ``term`` shows it: where lines wrap at the terminal's width, the lines after the first
    start under the text, not under the marker; where they do not (a file or a pipe), it
    is one line.

    >>> import io
    >>> out = io.StringIO()
    >>> term = Terminal(out, color=False, width=30)
    >>> term.console.soft_wrap = False  # as on a terminal
    >>> term.say(bullet(term, "•", "a point long enough to need a second line"))
    >>> for line in out.getvalue().splitlines():
    ...     print(line.rstrip())
      • a point long enough to
        need a second line
    """
    head = " " * indent + marker + " "
    body = text if isinstance(text, Text) else Text(text)
    if term.console.soft_wrap:
        return Text.assemble(head, body)
    grid = Table.grid()
    grid.add_column(width=len(head), no_wrap=True)
    grid.add_column()
    grid.add_row(head, body)
    return grid
