"""Input and output for the interactive commands: a rich console and a line reader.

Tests drive the commands through the real console script with piped stdin; then the
console writes plain text (no colour, no cursor tricks), as it does under ``NO_COLOR``.
"""

from __future__ import annotations

import codecs
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Final, TextIO

from rich.console import Console, RenderableType

__all__ = [
    "MAX_LINE",
    "QuitRequested",
    "Terminal",
    "interrupts_deferred",
    "shorten",
    "tolerate_narrow_output",
]

MAX_LINE: Final = 200
"""The longest line any prompt reads; a longer one is refused before it is looked at."""

_ASCII_FOR: Final = {
    "♠": "s", "♥": "h", "♦": "d", "♣": "c", "·": "-", "—": "-", "–": "-", "…": "...",
    "×": "x", "÷": "/", "µ": "u", "→": "->", "←": "<-", "≥": ">=", "≤": "<=", "█": "#",
    "▒": "=", "±": "+/-", "½": "1/2", "−": "-",
}  # fmt: skip


def _to_ascii(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the suits as letters (``K♠`` → ``Ks``, as in notation)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(_ASCII_FOR.get(ch, "?") for ch in text), error.end


codecs.register_error("umtali-ascii", _to_ascii)


def tolerate_narrow_output() -> None:
    """Let stdout and stderr write on a terminal or file whose encoding has no suit
    symbols (``PYTHONIOENCODING=ascii``, an old Windows console): the suits come out as
    letters, the notation's own spelling, instead of the program dying on the first card."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):
            continue
        try:
            "♠♥♦♣".encode(stream.encoding)
        except (UnicodeEncodeError, LookupError):
            stream.reconfigure(errors="umtali-ascii")


class QuitRequested(Exception):  # noqa: N818 - a request, not an error
    """The player asked to stop: end of input or Ctrl-C while reading (raised by
    :meth:`Terminal.ask`), or a command's own ``quit`` (raised by the command)."""


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for quoting input back.

    >>> shorten("x" * 6000, 10)
    'xxxxxxxxx…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


@contextmanager
def interrupts_deferred(*, reraise: bool = True) -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) while a change must be made whole (a move pushed, a
    file written): an interrupt that arrives meanwhile is raised as soon as it is done
    (or dropped, without ``reraise``: while saving on the way out). Outside the main
    thread, or where SIGINT cannot be handled, this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    try:
        previous = signal.signal(signal.SIGINT, hold)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and reraise:
        raise KeyboardInterrupt


def _enable_line_editing() -> None:
    """Arrow keys and history at the prompts of an interactive terminal, where Python's
    readline module exists (not on every platform: then input works without it)."""
    with suppress(ImportError):
        import readline  # noqa: F401 - importing it is what turns line editing on


class Terminal:
    """Where an interactive command writes and reads.

    ``read`` is a function taking a prompt and returning a line (``input`` by default);
    end of input or Ctrl-C while reading raise :class:`QuitRequested`. On a real terminal
    prose wraps at word boundaries and the prompts have line editing and history; written
    to a file or a pipe, lines are not wrapped.
    """

    def __init__(
        self,
        out: TextIO | None = None,
        read: Callable[[str], str] | None = None,
        *,
        color: bool | None = None,
        width: int | None = None,
    ) -> None:
        stream = out if out is not None else sys.stdout
        self.interactive = stream.isatty() and sys.stdin.isatty()
        no_color = bool(os.environ.get("NO_COLOR")) if color is None else not color
        self.console = Console(
            file=stream,
            no_color=no_color,
            highlight=False,
            emoji=False,
            width=width,
            color_system=None if no_color else "auto",
            # A terminal wraps prose at word boundaries; a file or pipe keeps lines whole.
            soft_wrap=not self.interactive,
        )
        if read is None and self.interactive:
            _enable_line_editing()
        self._read = read if read is not None else input
        # With line editing, the prompt goes to input() so that readline can redraw it.
        self._prompt_to_reader = read is None and self.interactive

    def say(self, *items: RenderableType, style: str | None = None, whole: bool = False) -> None:
        """Print text (rich markup allowed) or renderables; ``whole`` keeps each line
        unbroken (for file paths and commands to copy), letting the terminal wrap it."""
        self.console.print(*items, style=style, soft_wrap=True if whole else None)

    def blank(self) -> None:
        self.console.print()

    def flush(self) -> None:
        """Write out what is buffered (before a long computation, so the screen is current)."""
        self.console.file.flush()

    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt``, stripped. A line longer than :data:`MAX_LINE`
        is refused with a message and the question is asked again."""
        while True:
            line = self._read_line(prompt)
            if len(line) <= MAX_LINE:
                return line.strip()
            self.console.print(
                f"That line is {len(line)} characters long: no answer here needs more than"
                f" {MAX_LINE}. Nothing was done; please type it again.",
                style="yellow",
                markup=False,
            )

    def _read_line(self, prompt: str) -> str:
        if not self._prompt_to_reader:
            self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            line = self._read(prompt if self._prompt_to_reader else "")
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitRequested from None
        if not self.interactive:
            # Echo piped input so a transcript reads like a session at the keyboard.
            self.console.print(shorten(line, MAX_LINE), markup=False, highlight=False)
        return line

    def clear(self) -> None:
        """Clear the screen and its scrollback on a real terminal (the hot-seat
        hand-over), so the previous hand cannot be scrolled back to; a rule otherwise."""
        if self.interactive:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # and the scrollback (xterm's ED 3)
            self.console.file.flush()
        else:
            self.console.print("\n" + "-" * 40 + "\n")
