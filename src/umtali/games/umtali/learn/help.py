"""Where Umtali's words live (layer 5): the lessons, the quiz and the help, as package
data in ``content/``, and which help file each preset of the rules is told by.

>>> help_file("practical"), help_file("standard")
('umtali.games.umtali.learn:content/practical_help.toml', 'umtali.games.umtali.learn:content/help.toml')
"""

from __future__ import annotations

from typing import Final

__all__ = ["CONTENT", "HELP_FILE", "help_file"]

CONTENT: Final = "umtali.games.umtali.learn:content"
"""The folder of Umtali's teaching content, as :func:`umtali.learn.content.load` names it."""

HELP_FILE: Final = f"{CONTENT}/help.toml"
"""Umtali's rules in brief and play help; another game's help is laid out as this one."""

_PRESET_HELP: Final = {"practical": f"{CONTENT}/practical_help.toml"}
"""The help of the presets that play otherwise than the standard rules tell."""


def help_file(preset: str) -> str:
    """The help file of the rules ``preset``: its own where it has one, else the standard
    rules' (a preset whose help says nothing new needs none)."""
    return _PRESET_HELP.get(preset, HELP_FILE)
