"""Gin Rummy's rule options (ruling G): the standard game and Oklahoma Gin are two
values of one :class:`GinRules`, played by the same engine.

>>> GIN.knock_limit, OKLAHOMA.game_target
(10, 150)
>>> GinRules(knock_limit=11)
Traceback (most recent call last):
...
umtali.kernel.rules.InvalidRulesError: knock_limit must be an int from 0 to 10, not 11
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from umtali.kernel.cards import ACE, SPADES, rank_of, suit_of
from umtali.kernel.rules import InvalidRulesError

__all__ = ["GIN", "GIN_PRESETS", "OKLAHOMA", "GinRules"]


@dataclass(frozen=True)
class GinRules:
    """The options of one Gin Rummy game. The defaults are ruling G's standard game.

    Attributes:
        name: the preset this came from, for records and messages.
        knock_limit: the most deadwood a player may knock with (G: "10 or fewer").
        oklahoma: the first upcard sets the knock limit for the hand (a face card 10,
            an ace gin only, else its rank), and a spade upcard doubles the hand's points
            (the deadwood counted; not the gin or undercut bonus).
        gin_bonus: added to the opponent's deadwood for going gin.
        undercut_bonus: added to the difference when the defender undercuts the knocker.
        dead_hand_stock: the hand is dead (no score) once a discard leaves this many
            cards in the stock with nobody knocked.
        game_target: points that end a game.
        game_bonus: to the game's winner (doubled by a shutout, after his score is).
        line_bonus: to the game's winner for each hand he won (seed 004: "each hand he
            won").
        line_bonus_to_all: every player (or team) takes the line bonus for each hand he
            won, the loser too, as many clubs play; off by default (ruling G).
        turn_cap: the hand is dead after this many turns. Taking the top discard uses no
            stock, so two players could pass cards back and forth for ever; the seeds
            are silent, and this cap (as R8's for Umtali) ends such a hand.
    """

    name: str = "standard"
    knock_limit: int = 10
    oklahoma: bool = False
    gin_bonus: int = 25
    undercut_bonus: int = 25
    dead_hand_stock: int = 2
    game_target: int = 100
    game_bonus: int = 100
    line_bonus: int = 25
    line_bonus_to_all: bool = False
    turn_cap: int = 100

    def __post_init__(self) -> None:
        for name, low, high in (
            ("knock_limit", 0, 10),
            ("gin_bonus", 0, 1000),
            ("undercut_bonus", 0, 1000),
            ("dead_hand_stock", 0, 30),
            ("game_target", 1, 100_000),
            ("game_bonus", 0, 100_000),
            ("line_bonus", 0, 100_000),
            ("turn_cap", 2, 10_000),
        ):
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise InvalidRulesError(
                    f"{name} must be an int from {low} to {high}, not {value!r}"
                )
        for name in ("oklahoma", "line_bonus_to_all"):
            if type(getattr(self, name)) is not bool:
                raise InvalidRulesError(f"{name} is true or false, not {getattr(self, name)!r}")

    def limit_for(self, upcard: int) -> int:
        """The knock limit of a hand whose first upcard is ``upcard``.

        >>> from umtali.kernel.cards import parse_card
        >>> [OKLAHOMA.limit_for(parse_card(c)) for c in ("7h", "Qs", "Ac")]
        [7, 10, 0]
        >>> GIN.limit_for(parse_card("7h"))
        10
        """
        if not self.oklahoma:
            return self.knock_limit
        rank = rank_of(upcard)
        return 0 if rank == ACE else min(rank, 10)

    def multiplier_for(self, upcard: int) -> int:
        """What the hand's points are multiplied by: 2 for a spade upcard in Oklahoma."""
        return 2 if self.oklahoma and suit_of(upcard) == SPADES else 1


GIN: Final = GinRules()
OKLAHOMA: Final = GinRules(name="oklahoma", oklahoma=True, game_target=150)

GIN_PRESETS: Final = {rules.name: rules for rules in (GIN, OKLAHOMA)}
"""The presets by name, as records and ``--variant`` name them."""
