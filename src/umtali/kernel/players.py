"""The players of any game: how the book numbers them, what a name may hold, and the
error of a match set up or played out of order.

>>> player_name(1)
'Player 2'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final

from umtali.kernel.cards import quoted

__all__ = [
    "LEVEL_TITLES",
    "MARKUP",
    "MAX_NAME_LENGTH",
    "MAX_PERSON_NAME",
    "UNPRINTABLE",
    "MatchError",
    "PersonNameError",
    "check_name",
    "check_person_name",
    "computer_name",
    "level_title",
    "player_name",
    "seat_names",
]


def player_name(player: int) -> str:
    """'Player 1' or 'Player 2' for player 0 or 1, as the book numbers them."""
    return f"Player {player + 1}"


_YOU: Final = "You"
"""How the terminal names its player in a record (:data:`umtali.kernel.english.YOU`)."""


def seat_names(players: Sequence[str]) -> list[str]:
    """The players' names as a record keeps them now: a person an older record calls
    "You" (the terminal's word for its player) is "Player N", N his seat.

    >>> seat_names(["Computer (Casual)", "You"])
    ['Computer (Casual)', 'Player 2']
    """
    return [player_name(seat) if name == _YOU else name for seat, name in enumerate(players)]


LEVEL_TITLES: Final = {
    "random": "Beginner",
    "greedy": "Casual",
    "expert": "Expert",
    "search": "Strongest",
}
"""How players call each computer level, the same in every game: the home page's form
(served by ``GET /api/games-offered``), the table, the score sheet and the record all
name a computer by it. The level's own name (``greedy``) stays what options, requests
and a record's ``meta`` hold."""


def level_title(level: str) -> str:
    """How players call computer ``level`` (its own name, capitalised, when it has no title).

    >>> level_title("greedy"), level_title("newbot")
    ('Casual', 'Newbot')
    """
    return LEVEL_TITLES.get(level, level[:1].upper() + level[1:])


def computer_name(level: str, number: int | None = None) -> str:
    """The name of the computer playing at ``level``; with ``number``, the Nth player of
    a game of more than two.

    >>> computer_name("search"), computer_name("greedy", 3)
    ('Computer (Strongest)', 'Computer 3 (Casual)')
    """
    who = "Computer" if number is None else f"Computer {number}"
    return f"{who} ({level_title(level)})"


UNPRINTABLE: Final = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Unicode categories of the characters that are not shown as themselves: control
characters (Cc: escape, line feed), format characters (Cf: bidi overrides, zero-width
joiners), lone surrogates (Cs: no encoding can write them) and the line and paragraph
separators (Zl, Zp). A player's name holds none of them (:class:`umtali.games.umtali.match.Match`
refuses it), and the terminal writes any it must print as escapes."""


class MatchError(ValueError):
    """A match used out of order: a new hand before the last one ended, or after the end."""


MAX_NAME_LENGTH: Final = 40
"""The longest player name, in characters: room for "Computer (expert)" and a real name,
short enough for a score line."""


def check_name(seat: int, name: object) -> None:
    """Refuse a player name that is not short, visible, one-line text.

    >>> check_name(0, "Ann")
    >>> check_name(1, "Bob\u202e")
    Traceback (most recent call last):
    ...
    umtali.kernel.players.MatchError: Player 2's name 'Bob\u202e' holds U+202E, a character that is not shown as itself; a name is visible text on one line
    """
    who = f"Player {seat + 1}'s name"
    if not isinstance(name, str):
        raise MatchError(f"{who} must be text, not a {type(name).__name__}")
    if not name.strip():
        raise MatchError(f"{who} is blank; a name needs at least one visible character")
    if len(name) > MAX_NAME_LENGTH:
        raise MatchError(
            f"{who} {quoted(name)} has {len(name):,} characters;"
            f" a name has at most {MAX_NAME_LENGTH}"
        )
    for char in name:
        if unicodedata.category(char) in UNPRINTABLE:
            raise MatchError(
                f"{who} {quoted(name)} holds U+{ord(char):04X}, a character that is not shown as"
                " itself; a name is visible text on one line"
            )


MAX_PERSON_NAME: Final = 24
"""The longest name a person gives himself at a server, in characters (after spaces
around it are dropped): it fits a seat's label on a phone."""

MARKUP: Final = "<>&"
"""Characters a person's name may not hold: they would be read as markup by a page
that forgot to escape it."""


class PersonNameError(ValueError):
    """A name a person gave himself that cannot be used: the message says what is wrong
    and what a name may be."""


def check_person_name(text: object) -> str:
    """The name a person gave himself, spaces around it dropped: refused
    (:class:`PersonNameError`) when it is not 1 to :data:`MAX_PERSON_NAME` visible
    characters on one line, without ``<``, ``>`` or ``&``.

    >>> check_person_name("  Ann  ")
    'Ann'
    >>> check_person_name("<b>Ann</b>")
    Traceback (most recent call last):
    ...
    umtali.kernel.players.PersonNameError: a name may not hold '<', '>' or '&'; '<' is one of them
    >>> check_person_name("A" * 25)
    Traceback (most recent call last):
    ...
    umtali.kernel.players.PersonNameError: a name has at most 24 characters, not 25
    >>> check_person_name("Bob\u202e")
    Traceback (most recent call last):
    ...
    umtali.kernel.players.PersonNameError: a name is visible text on one line: U+202E is a character that is not shown as itself
    """
    if not isinstance(text, str):
        raise PersonNameError(f"a name is text, not {type(text).__name__}")
    name = text.strip()
    if not name:
        raise PersonNameError("a name needs at least one visible character")
    for char in name:
        if unicodedata.category(char) in UNPRINTABLE:
            raise PersonNameError(
                f"a name is visible text on one line: U+{ord(char):04X} is a character that is"
                " not shown as itself"
            )
        if char in MARKUP:
            raise PersonNameError(f"a name may not hold '<', '>' or '&'; {char!r} is one of them")
    if len(name) > MAX_PERSON_NAME:
        raise PersonNameError(f"a name has at most {MAX_PERSON_NAME} characters, not {len(name):,}")
    return name
