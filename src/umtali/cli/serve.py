"""``umtali serve``: the browser server's API, with uvicorn, until Ctrl-C (needs the
``web`` extra)."""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any, TextIO

from umtali.cli.usage import UsageError

__all__ = ["cmd_serve"]


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the browser server's API with uvicorn until Ctrl-C (needs the ``web`` extra)."""
    try:
        import uvicorn

        from umtali.web.app import HideSecrets, create_app
        from umtali.web.capacity import Capacity
        from umtali.web.http_guard import guarded_http
        from umtali.web.store import StoreError
        from umtali.web.transport import ServerLimits
        from umtali.web.workers import SETTINGS_VARIABLE, ServeSettings, is_shared_database
    except ImportError as e:
        raise UsageError(
            f"'umtali serve' needs the web extra ({e.name} is missing): pip install -e '.[web]'"
        ) from None
    try:
        limits = ServerLimits(
            header_bytes=args.max_header_bytes,
            header_seconds=args.header_timeout,
            body_seconds=args.body_timeout,
            keep_alive_seconds=args.keep_alive,
            max_connections=args.max_connections,
            ping_seconds=args.ping_interval,
            ping_timeout_seconds=args.ping_timeout,
            sockets_per_seat=args.sockets_per_seat,
        )
        capacity = Capacity(
            games_per_minute=args.games_per_minute,
            games_in_play=args.games_in_play,
            idle_seconds=args.idle_minutes * 60,
            bot_seconds=args.bot_seconds,
            open_per_address=args.open_per_address,
            open_tables=args.open_tables,
            open_wait_seconds=args.open_wait_minutes * 60,
        )
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        app = create_app(
            args.db, grace=args.grace, api_docs=args.api_docs, limits=limits, capacity=capacity
        )
    except StoreError as e:
        raise UsageError(str(e)) from None
    store = app.state.server.store
    if args.workers > 1 and not is_shared_database(store.url):
        raise UsageError(
            f"--workers {args.workers} needs a PostgreSQL database (--db postgresql://...):"
            f" only its notices keep the workers' games in step, and {store.url} has none"
        )
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"umtali: serving http://{host}:{args.port}/ (database {store.url}); Ctrl-C stops", file=out
    )
    # No access log: the paths of a seat's requests carry its secret.
    # uvicorn logs each WebSocket's path, which carries the seat's secret: cut it out.
    logging.getLogger("uvicorn.error").addFilter(HideSecrets())
    served: Any = app
    http: Any = guarded_http(limits)
    if args.workers > 1:
        # Each worker imports its application and protocol by name, made from the
        # settings left in its environment (umtali.web.workers).
        database = store.engine.url.render_as_string(hide_password=False)
        store.engine.dispose()
        settings = ServeSettings(database, args.grace, args.api_docs, limits, capacity)
        os.environ[SETTINGS_VARIABLE] = settings.to_json()
        served = "umtali.web.workers:app_from_environment"
        http = "umtali.web.http_guard:WorkerGuardedHttp"
    # The transport's limits (docs/WEB.md, "Limits"): uvicorn's HTTP protocol bounded in
    # the size and time of a request head, idle connections closed, a cap on connections,
    # WebSocket messages over 64 KiB closing the socket (the server reads 4 KiB at most).
    uvicorn.run(
        served,
        factory=args.workers > 1,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level="info",
        access_log=False,
        http=http,
        timeout_keep_alive=limits.keep_alive_seconds,  # type: ignore[arg-type]
        limit_concurrency=limits.max_connections,
        ws_max_size=limits.socket_message_bytes,
        ws_ping_interval=limits.ping_seconds,
        ws_ping_timeout=limits.ping_timeout_seconds,
        proxy_headers=True,
        forwarded_allow_ips=args.trusted_proxies,
    )
    return 0
