"""What the session of every game shares (layer 5): the seed scheme, the seats a record
keeps, and the answers that are the same whatever the game.

:class:`umtali.session.PlaySession` (Umtali) and
:class:`umtali.gin_session.GinPlaySession` (Gin Rummy) both deal hand ``i`` from
:func:`deck_for`, choose the first dealer with :func:`first_dealer_for` and give each
computer decision its own :func:`decision_rng`, so that the arena and a saved game
replay either game the same way. :mod:`umtali.session` imports these back, so their
old names stand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Final, Protocol

from umtali.bots import BOTS
from umtali.deck import seeded_deck
from umtali.describe import YOU

__all__ = [
    "BotError",
    "Guard",
    "Refused",
    "Seats",
    "SeatsError",
    "Seed",
    "check_deals",
    "decision_rng",
    "deck_for",
    "first_dealer_for",
]

Seed = int | str
"""A session's seed: ``umtali play`` keeps a whole number; the arena's games are
``"SEED/DEAL"``."""


# -- the seed scheme ----------------------------------------------------------------------------


def deck_for(seed: Seed, hand_index: int) -> tuple[int, ...]:
    """The deck of hand ``hand_index`` (from 0) of the session seeded ``seed``."""
    return seeded_deck(f"{seed}/{hand_index}")


def first_dealer_for(seed: Seed) -> int:
    """The seat that deals the first hand of the session seeded ``seed``."""
    return random.Random(f"{seed}/first dealer").randrange(2)


def decision_rng(seed: Seed, hand_index: int, move_index: int) -> random.Random:
    """The RNG of one decision: move ``move_index`` of hand ``hand_index``. Hints use
    negative move indices, so that asking for one changes nothing that follows.

    >>> decision_rng(7, 0, 3).random() == decision_rng(7, 0, 3).random()
    True
    """
    return random.Random(f"{seed}/{hand_index}/{move_index}")


# -- the seats a record keeps -------------------------------------------------------------------


class SeatsError(ValueError):
    """A record whose seats or deals are not as ``umtali play`` wrote them."""


_META: Final = "the saved game's seats ('meta') are not as 'umtali play' wrote them:"


@dataclass(frozen=True)
class Seats:
    """What a played game keeps in its record's ``meta`` to play it on: the seed the
    hands are dealt from, the seats of the people, and the computer's level."""

    seed: int
    humans: frozenset[int]
    bot: str

    @classmethod
    def of(cls, meta: dict[str, Any], levels: Collection[str] = BOTS) -> Seats:
        """The seats in ``meta``, checked as strictly as a record's moves: whole numbers
        (not ``1e400``, ``3.7`` or ``true``), a list of seats 0 and 1, a level among
        ``levels`` (Umtali's by default; a game of Gin Rummy passes its own).

        >>> Seats.of({"seed": 4, "humans": [0], "bot": "greedy"}).humans
        frozenset({0})
        """
        if not {"seed", "humans", "bot"} <= meta.keys():
            raise SeatsError(
                "the saved game lacks its seats or seed ('meta'): it was not saved by 'umtali play'"
            )
        seed, humans, bot = meta["seed"], meta["humans"], meta["bot"]
        if type(seed) is not int:
            raise SeatsError(f"{_META} its 'seed' must be a whole number, not {seed!r}")
        if (
            not isinstance(humans, list)
            or not humans
            or any(type(seat) is not int or seat not in (0, 1) for seat in humans)
            or len(set(humans)) != len(humans)
        ):
            raise SeatsError(
                f"{_META} its 'humans' must list the seats at the keyboard, [0], [1] or"
                f" [0, 1], not {humans!r}"
            )
        if not isinstance(bot, str) or bot not in levels:
            raise SeatsError(f"{_META} its 'bot' must be one of {', '.join(levels)}, not {bot!r}")
        return cls(seed, frozenset(humans), bot)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "humans": sorted(self.humans), "bot": self.bot}

    def players(self) -> tuple[str, str]:
        """The players' names: "You" and "Computer (LEVEL)", or "Player 1" and
        "Player 2" in hot-seat.

        >>> Seats(4, frozenset({1}), "greedy").players()
        ('Computer (greedy)', 'You')
        """
        if len(self.humans) == 2:
            return ("Player 1", "Player 2")
        named = [f"Computer ({self.bot})"] * 2
        named[next(iter(self.humans))] = YOU
        return (named[0], named[1])


class _Dealt(Protocol):
    """A hand as :func:`check_deals` reads it, of either game."""

    @property
    def deck(self) -> tuple[int, ...]: ...


class _Deals(Protocol):
    """A match as :func:`check_deals` reads it, of either game."""

    @property
    def first_dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[_Dealt]: ...


def check_deals(match: _Deals, seed: Seed) -> None:
    """Refuse (:class:`SeatsError`) a match whose deals are not the ones its seed makes:
    the first dealer and every hand's deck order (a record whose stock was reordered)."""
    edited = "the record was changed after it was saved"
    if match.first_dealer != first_dealer_for(seed):
        raise SeatsError(f"its first dealer is not the one its seed chose: {edited}")
    for index, hand in enumerate(match.hands):
        if tuple(hand.deck) != deck_for(seed, index):
            raise SeatsError(f"hand {index + 1} is not dealt as its seed deals it: {edited}")


# -- answers any session gives -------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """Nothing was done; ``reason`` says why, addressed to the player."""

    reason: str

    @property
    def sentence(self) -> str:
        """The reason as a sentence of its own.

        >>> Refused("it is not your turn").sentence
        'It is not your turn.'
        """
        return self.reason[:1].upper() + self.reason[1:] + "."


class BotError(Exception):
    """A computer player that failed (raised) or chose a move that is not legal;
    ``seat``, ``hand_index`` and ``move_index`` say where, ``what`` what went wrong."""

    def __init__(self, seat: int, hand_index: int, move_index: int, what: str) -> None:
        super().__init__(f"hand {hand_index + 1}, decision {move_index + 1}: {what}")
        self.seat = seat
        self.hand_index = hand_index
        self.move_index = move_index
        self.what = what


Guard = Callable[[], AbstractContextManager[object]]
"""What a front end gives to keep a change whole: a context manager to enter around it."""
