"""Input and output for the interactive commands: a rich console and a line reader.

Tests drive the commands through the real console script with piped stdin; then the
console writes plain text (no colour, no cursor tricks), as it does under ``NO_COLOR``.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections.abc import Callable
from typing import Final, TextIO

from rich.console import Console, RenderableType

__all__ = ["QuitRequested", "Terminal", "tolerate_narrow_output"]

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


class Terminal:
    """Where an interactive command writes and reads.

    ``read`` is a function taking a prompt and returning a line (``input`` by default);
    end of input or Ctrl-C while reading raise :class:`QuitRequested`.
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
        no_color = bool(os.environ.get("NO_COLOR")) if color is None else not color
        self.console = Console(
            file=stream,
            no_color=no_color,
            highlight=False,
            emoji=False,
            width=width,
            color_system=None if no_color else "auto",
            soft_wrap=True,  # long lines (file paths, messages) wrap in the terminal, not mid-path
        )
        self._read = read if read is not None else input
        self.interactive = stream.isatty() and sys.stdin.isatty()

    def say(self, *items: RenderableType, style: str | None = None) -> None:
        """Print text (rich markup allowed) or renderables."""
        self.console.print(*items, style=style)

    def blank(self) -> None:
        self.console.print()

    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt``, stripped."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            line = self._read("")
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitRequested from None
        if not self.interactive:
            # Echo piped input so a transcript reads like a session at the keyboard.
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def clear(self) -> None:
        """Clear the screen on a real terminal (hot-seat hand-over); a no-op otherwise."""
        if self.interactive:
            self.console.clear()
        else:
            self.console.print("\n" + "-" * 40 + "\n")
