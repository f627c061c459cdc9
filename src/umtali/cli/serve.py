"""``umtali serve``: the browser server's API, with uvicorn, until Ctrl-C (needs the
``web`` extra)."""

from __future__ import annotations

import argparse
import logging
from typing import TextIO

from umtali.cli.usage import UsageError

__all__ = ["cmd_serve"]


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the browser server's API with uvicorn until Ctrl-C (needs the ``web`` extra)."""
    try:
        import uvicorn

        from umtali.web.app import HideSecrets, create_app
        from umtali.web.capacity import Capacity
        from umtali.web.store import StoreError
    except ImportError as e:
        raise UsageError(
            f"'umtali serve' needs the web extra ({e.name} is missing): pip install -e '.[web]'"
        ) from None
    try:
        capacity = Capacity(
            games_per_minute=args.games_per_minute,
            games_in_play=args.games_in_play,
            idle_seconds=args.idle_minutes * 60,
        )
        app = create_app(args.db, grace=args.grace, capacity=capacity)
    except StoreError as e:
        raise UsageError(str(e)) from None
    store = app.state.server.store
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"umtali: serving http://{host}:{args.port}/ (database {store.url}); Ctrl-C stops", file=out
    )
    # No access log: the paths of a seat's requests carry its secret.
    # uvicorn logs each WebSocket's path, which carries the seat's secret: cut it out.
    logging.getLogger("uvicorn.error").addFilter(HideSecrets())
    # A WebSocket message over 64 KiB closes the socket (the server reads 4 KiB at most).
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="info",
        access_log=False,
        ws_max_size=64 * 1024,
    )
    return 0
