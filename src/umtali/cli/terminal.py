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
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType, ModuleType
from typing import Any, Final, TextIO

from rich.console import Console, RenderableType

from umtali.kernel.cards import quoted
from umtali.kernel.players import UNPRINTABLE

__all__ = [
    "MAX_LINE",
    "QUIT_WORDS",
    "GuardedOutput",
    "OutputLost",
    "QuitRequested",
    "Stopped",
    "Terminal",
    "interrupts_deferred",
    "printable",
    "stop_signals_raised",
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


QUIT_WORDS: Final = frozenset({"quit", "q", "exit"})
"""Words that stop ``umtali play`` (saving the game first), ``lesson`` and ``quiz``, at
any of their prompts."""


class QuitRequested(Exception):  # noqa: N818 - a request, not an error
    """The player asked to stop: end of input or Ctrl-C while reading (raised by
    :meth:`Terminal.ask`), or a command's own ``quit`` (raised by the command).
    ``interrupted`` is true when it was Ctrl-C."""

    def __init__(self, *, interrupted: bool = False) -> None:
        super().__init__("interrupted (Ctrl-C)" if interrupted else "quit")
        self.interrupted = interrupted


class Stopped(Exception):  # noqa: N818 - a request, not an error
    """The process was told to stop (SIGTERM), or its terminal was closed (SIGHUP):
    raised by the handlers of :func:`stop_signals_raised`; the message says which, and
    ``signum`` is the signal's number (``None`` for a stop that no signal caused)."""

    def __init__(self, message: str, *, signum: int | None = None) -> None:
        super().__init__(message)
        self.signum = signum


class OutputLost(Stopped):
    """What the program writes can no longer be written: the pipe it writes to was
    closed (``umtali play | head``), the disk is full (``> /dev/full``), or the terminal
    is gone. Raised by :class:`GuardedOutput`; a game stops and is saved, as on SIGHUP.
    ``reason`` says what happened, in lower case; ``reader_gone`` is true when whoever
    read the output stopped reading (a closed pipe), which needs no complaint."""

    def __init__(self, reason: str, *, reader_gone: bool = False) -> None:
        super().__init__(reason[:1].upper() + reason[1:])
        self.reason = reason
        self.reader_gone = reader_gone

    def again(self) -> OutputLost:
        """The same news, to raise once more (each raise gets its own exception)."""
        return OutputLost(self.reason, reader_gone=self.reader_gone)


class GuardedOutput(io.TextIOBase):
    """The command's output stream, turning a failed write into :class:`OutputLost`.

    After the first failure the stream is gone for good: later writes are dropped, and
    the file descriptor (where there is one) is pointed at ``os.devnull``, so that
    neither the program's own last words nor Python's flush at exit end in a traceback.
    """

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self._stream = stream
        self.failure: OutputLost | None = (
            None if stream is not None else OutputLost("there is no output (it was closed)")
        )

    @property
    def lost(self) -> bool:
        return self.failure is not None

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        try:
            return not self.lost and self._stream is not None and self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("no output stream")
        return self._stream.fileno()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.lost or self._stream is None:
            return len(text)
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as e:  # ValueError: written after it was closed
            self._lose(e)
        return len(text)  # pragma: no cover - _lose raises

    def flush(self) -> None:
        if self.lost or self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as e:
            self._lose(e)

    def _lose(self, error: Exception) -> None:
        stream, self._stream = self._stream, None
        with suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            assert stream is not None
            target = stream.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, target)
            os.close(devnull)
        if isinstance(error, BrokenPipeError):
            self.failure = OutputLost("the output was closed", reader_gone=True)
        else:
            self.failure = OutputLost(f"the output cannot be written ({_reason(error)})")
        raise self.failure.again()


def _reason(error: Exception) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


_STOP_SIGNALS: Final = {
    getattr(signal, name): why
    for name, why in (
        ("SIGTERM", "Stopped (SIGTERM)"),
        ("SIGHUP", "The terminal was closed (SIGHUP)"),
    )
    if hasattr(signal, name)
}
"""The signals that end a program politely, where the platform has them."""


def _held_signals() -> list[int]:
    return [signal.SIGINT, *_STOP_SIGNALS]


@contextmanager
def stop_signals_raised() -> Iterator[None]:
    """While a game is played: SIGTERM and SIGHUP raise :class:`Stopped`, as Ctrl-C
    raises ``KeyboardInterrupt``, so that the game is saved before the program ends. The
    first of the three makes the program deaf to the others, so that the game is saved
    once and whole however many follow (a terminal closing sends SIGHUP more than once).
    Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        # Deaf, not SIG_IGN: a signal already on its way when the handler changes would
        # find no Python handler, and CPython prints "Signal N ignored due to race
        # condition" with a traceback.
        for held in _held_signals():
            signal.signal(held, _deaf)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(_STOP_SIGNALS[signum], signum=signum)

    previous = {signum: signal.signal(signum, stop) for signum in _held_signals()}
    try:
        yield
    finally:
        # Once told to stop, the program stays deaf until it exits: the rest of a burst
        # (TERM, INT, HUP at once) must neither interrupt the last words nor kill it.
        # Python puts the default handlers back as it exits, so the signals are blocked
        # too: any that come later wait, undelivered, until the process is gone.
        for signum, handler in previous.items():
            signal.signal(signum, _deaf if stopping else handler)
        if stopping and hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, previous)


def _deaf(signum: int, frame: FrameType | None) -> None:
    """A handler that does nothing: the signal is dropped (see :func:`stop_signals_raised`)."""


def printable(text: str) -> str:
    r"""``text`` with its control characters written as escapes, to be shown safely:
    an ESC or a NUL typed or piped in is never sent back to the terminal as it is.

    >>> printable("draw\x1b[2J\x00"), printable("\u202eK\udcff")
    ('draw\\x1b[2J\\x00', '\\u202eK\\udcff')
    """
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in UNPRINTABLE
        else ch
        for ch in text
    )


@contextmanager
def interrupts_deferred(*, reraise: bool = True) -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT), SIGTERM and SIGHUP while a change must be made whole
    (a move pushed, a file written): a signal that arrives meanwhile is delivered as soon
    as it is done, to the handler it would have met (or dropped, without ``reraise``:
    while saving on the way out). Outside the main thread, or where signals cannot be
    handled, this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous: dict[int, Any] = {}
    try:
        for signum in _held_signals():
            previous[signum] = signal.signal(signum, hold)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if caught and reraise:
        signal.raise_signal(caught[0])


def _is_tty(stream: object) -> bool:
    """Whether ``stream`` is a terminal; a closed or missing stream is not."""
    try:
        return bool(stream is not None and stream.isatty())  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        return False


def _enable_line_editing() -> ModuleType | None:
    """Arrow keys and history at the prompts of an interactive terminal, where Python's
    readline module exists (not on every platform: then input works without it)."""
    try:
        import readline  # importing it is what turns line editing on
    except ImportError:  # pragma: no cover - platforms without readline
        return None
    return readline


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
        self.interactive = _is_tty(stream) and _is_tty(sys.stdin)
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
        self._readline = _enable_line_editing() if read is None and self.interactive else None
        self._read = read if read is not None else input
        # With line editing, the prompt goes to input() so that readline can redraw it.
        self._prompt_to_reader = read is None and self.interactive

    def say(self, *items: RenderableType, style: str | None = None, whole: bool = False) -> None:
        """Print text (rich markup allowed) or renderables; ``whole`` keeps each line
        unbroken (for file paths and commands to copy), letting the terminal wrap it.
        Raises :class:`OutputLost` once the output is gone, every time."""
        self._check_output()
        self.console.print(*items, style=style, soft_wrap=True if whole else None)

    def say_if_possible(self, *items: RenderableType, whole: bool = False) -> None:
        """:meth:`say`, unless the terminal is gone (closed: SIGHUP): then nothing."""
        with suppress(OSError, OutputLost):
            self.say(*items, whole=whole)
            self.flush()

    @property
    def output_lost(self) -> bool:
        """Whether writing to the output has failed (see :class:`OutputLost`)."""
        return isinstance(self.console.file, GuardedOutput) and self.console.file.lost

    def _check_output(self) -> None:
        file = self.console.file
        if isinstance(file, GuardedOutput) and file.failure is not None:
            raise file.failure.again()

    def warn(self, text: str) -> None:
        """Write ``text`` on standard error (when the output is lost, the last words go
        there), unless that too is gone."""
        with suppress(OSError, ValueError, AttributeError):
            print(f"umtali: {printable(text)}", file=sys.stderr, flush=True)

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
        self._check_output()  # nobody could see the question
        if not self._prompt_to_reader:
            self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            if self._read is input and sys.stdin is None:
                raise EOFError  # standard input was closed before the program began
            line = self._read(prompt if self._prompt_to_reader else "")
        except KeyboardInterrupt:
            self.say_if_possible("")
            raise QuitRequested(interrupted=True) from None
        except (EOFError, OSError, ValueError):
            # OSError: the terminal is gone; ValueError: reading a closed stream.
            self.say_if_possible("")
            raise QuitRequested from None
        except RuntimeError:  # input(): "lost sys.stdin", closed while running
            if self._read is not input:
                raise
            self.say_if_possible("")
            raise QuitRequested from None
        if not self.interactive:
            # Echo piped input so a transcript reads like a session at the keyboard.
            self.console.print(
                printable(quoted(line, MAX_LINE, bare=True)), markup=False, highlight=False
            )
        return line

    def clear(self) -> None:
        """Clear the screen, its scrollback and the line history on a real terminal (the
        hot-seat hand-over), so that neither scrolling back nor the Up arrow shows what
        the other player saw or typed; a rule otherwise."""
        if self.interactive:
            self.console.clear()
            self.console.file.write("\x1b[3J")  # and the scrollback (xterm's ED 3)
            self.console.file.flush()
            if self._readline is not None:
                self._readline.clear_history()
        else:
            self.console.print("\n" + "-" * 40 + "\n")
