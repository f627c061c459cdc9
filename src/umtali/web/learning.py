"""Learning in the browser: the lessons, the quiz and the replay of a record, served
from the same learning layer the terminal uses (:mod:`umtali.learn`,
:mod:`umtali.replaying`)."""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["router"]

router = APIRouter()
