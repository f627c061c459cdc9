"""``umtali serve --workers N``: several server processes on one port, sharing one
PostgreSQL database (docs/WEB.md, "Several processes").

uvicorn starts each worker as a fresh process, which cannot be handed the application or
its HTTP protocol as objects: it imports them by name. So ``umtali serve`` writes what
it was told (the database, the grace, the limits) into the environment variable
:data:`SETTINGS_VARIABLE` as JSON, and each worker builds its application from it with
:func:`app_from_environment`, which also hands the transport's limits to
:class:`WorkerGuardedHttp` and hides the seats' secrets from the worker's log as
``umtali serve`` does in one process.

>>> settings = ServeSettings("postgresql://u@db/umtali", grace=30.0)
>>> ServeSettings.from_json(settings.to_json()) == settings
True
>>> ServeSettings.from_json('{"db": 3}')
Traceback (most recent call last):
...
umtali.web.workers.SettingsError: UMTALI_SERVE_SETTINGS is not what umtali serve writes: db is not a string
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import FastAPI

from umtali.web.capacity import Capacity
from umtali.web.http_guard import WorkerGuardedHttp
from umtali.web.transport import ServerLimits

__all__ = [
    "SETTINGS_VARIABLE",
    "ServeSettings",
    "SettingsError",
    "app_from_environment",
    "is_shared_database",
]

SETTINGS_VARIABLE: Final = "UMTALI_SERVE_SETTINGS"
"""Where ``umtali serve`` leaves its settings for its workers."""


class SettingsError(ValueError):
    """The workers' settings are missing or not what ``umtali serve`` writes."""


def is_shared_database(url: str) -> bool:
    """Whether processes can share the games of the database at ``url``: PostgreSQL,
    whose notices keep each process's copies in step (SQLite has no such notices).

    >>> is_shared_database("postgresql+psycopg://u@db/umtali"), is_shared_database("sqlite:///x.db")
    (True, False)
    """
    return url.startswith(("postgresql:", "postgresql+", "postgres:"))


@dataclass(frozen=True)
class ServeSettings:
    """What each worker's application is made with."""

    db: str
    grace: float
    api_docs: bool = False
    limits: ServerLimits = field(default_factory=ServerLimits)
    capacity: Capacity = field(default_factory=Capacity)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        """The settings :meth:`to_json` wrote; :class:`SettingsError` for anything else."""
        try:
            data: Any = json.loads(text)
            if not isinstance(data, dict):
                raise SettingsError("it is not a JSON object")
            if not isinstance(data.get("db"), str):
                raise SettingsError("db is not a string")
            return cls(
                db=data["db"],
                grace=float(data["grace"]),
                api_docs=bool(data.get("api_docs", False)),
                limits=ServerLimits(**data.get("limits", {})),
                capacity=Capacity(**data.get("capacity", {})),
            )
        except SettingsError as e:
            raise SettingsError(
                f"{SETTINGS_VARIABLE} is not what umtali serve writes: {e}"
            ) from None
        except (ValueError, TypeError, KeyError) as e:
            raise SettingsError(
                f"{SETTINGS_VARIABLE} is not what umtali serve writes: {e}"
            ) from None


def app_from_environment() -> FastAPI:
    """A worker's application, made from :data:`SETTINGS_VARIABLE` (uvicorn's factory)."""
    from umtali.web.app import HideSecrets, create_app

    text = os.environ.get(SETTINGS_VARIABLE)
    if text is None:
        raise SettingsError(f"{SETTINGS_VARIABLE} is not set: start the workers with umtali serve")
    settings = ServeSettings.from_json(text)
    WorkerGuardedHttp.limits = settings.limits
    logging.getLogger("uvicorn.error").addFilter(HideSecrets())
    return create_app(
        settings.db,
        grace=settings.grace,
        api_docs=settings.api_docs,
        limits=settings.limits,
        capacity=settings.capacity,
    )
