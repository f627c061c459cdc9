"""The ``umtali`` command: the terminal front end (``pip install 'umtali[cli]'``).

:func:`main` is the console script. It checks that the terminal's one dependency,
``rich``, is installed before anything imports it, so that a library-only install says
what to install instead of failing with a traceback.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

__all__ = ["main"]

INSTALL_HINT = "pip install 'umtali[cli]'"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``umtali`` command; return its exit status."""
    if importlib.util.find_spec("rich") is None:
        print(
            "umtali: the terminal needs the 'rich' package, which is not installed;"
            f" install it with: {INSTALL_HINT} (or run ./dev play in a checkout)",
            file=sys.stderr,
        )
        return 1
    from umtali.cli.main import main as run

    return run(argv)
