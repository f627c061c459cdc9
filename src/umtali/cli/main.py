"""The ``umtali`` command.

Subcommands: ``play`` (against the computer, or hot-seat), ``lesson N``, ``quiz``,
``demo``, ``replay FILE``, ``bench``, ``arena A B`` and ``serve``, each in a module of its
own, their options in :mod:`umtali.cli.parser`. Bad input never shows a traceback: the
message says what is wrong, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO, cast

from umtali.cli.parser import build_parser
from umtali.cli.terminal import GuardedOutput, OutputLost, printable, tolerate_narrow_output
from umtali.cli.usage import UsageError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; return the exit status."""
    if out is None:
        tolerate_narrow_output()
    # A closed pipe or a full disk under the output ends the command with a word on
    # standard error, never a traceback (``umtali play`` saves the game first).
    stream = cast(TextIO, GuardedOutput(out if out is not None else sys.stdout))
    parser = build_parser()
    try:
        # A setting given by the environment is checked as the options are read.
        args = parser.parse_args(argv)
        run: Callable[[argparse.Namespace, TextIO], int] | None = getattr(args, "run", None)
        if run is None:
            parser.print_help(stream)
            return 0
        return run(args, stream)
    except UsageError as e:
        # Messages quote file names and records: escaped, they cannot drive the terminal.
        print(f"umtali: {printable(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\numtali: interrupted", file=sys.stderr)
        return 130
    except OutputLost as e:
        if not e.reader_gone:  # a reader that stops reading (| head) needs no word
            print(f"umtali: {e.reason}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
