"""What the rule options of every game share: the error of an option no engine supports."""

from __future__ import annotations

__all__ = ["InvalidRulesError"]


class InvalidRulesError(ValueError):
    """A rule option has a value the engine does not support."""
