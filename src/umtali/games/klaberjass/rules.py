"""Klaberjass's rule options (ruling K): the book's ranking and the classic one are two
values of one :class:`KlaberjassRules`, played by the same engine; schmeiss is an option.

>>> BOOK.ranking, CLASSIC.ranking, BOOK.schmeiss, BOOK.game_target
('book', 'classic', False, 500)
>>> KlaberjassRules(ranking="french")
Traceback (most recent call last):
...
umtali.kernel.rules.InvalidRulesError: ranking must be one of book, classic, not 'french'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from umtali.kernel.rules import InvalidRulesError

__all__ = [
    "BOOK",
    "BOOK_SCHMEISS",
    "CLASSIC",
    "CLASSIC_SCHMEISS",
    "KLABERJASS_PRESETS",
    "RANKINGS",
    "KlaberjassRules",
]

RANKINGS: Final = ("book", "classic")
"""The orders of the cards in play: ``book``, as seed 004 ranks them (trump J 9 A K Q 10
8 7, plain suits A K Q J 10 9 8 7), and ``classic``, as most players do (trump J 9 A 10 K
Q 8 7, plain A 10 K Q J 9 8 7)."""


@dataclass(frozen=True)
class KlaberjassRules:
    """The options of one Klaberjass game. The defaults are the book's (ruling K).

    Attributes:
        name: the preset this came from, for records and messages.
        ranking: which order the cards take tricks in (:data:`RANKINGS`). Sequences
            always use the natural order A K Q J 10 9 8 7, and card points are the same.
        schmeiss: in the first round of bidding a player may offer schmeiss instead of
            taking or passing: the other player accepts (the hand is thrown in) or
            refuses (the offerer makes trump of the turned-up suit).
        game_target: the total that ends a game, checked after each hand.
    """

    name: str = "book"
    ranking: str = "book"
    schmeiss: bool = False
    game_target: int = 500

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidRulesError(f"name must be a non-empty string, not {self.name!r}")
        if self.ranking not in RANKINGS:
            raise InvalidRulesError(
                f"ranking must be one of {', '.join(RANKINGS)}, not {self.ranking!r}"
            )
        if type(self.schmeiss) is not bool:
            raise InvalidRulesError(f"schmeiss is true or false, not {self.schmeiss!r}")
        if type(self.game_target) is not int or not 1 <= self.game_target <= 100_000:
            raise InvalidRulesError(
                f"game_target must be an int from 1 to 100000, not {self.game_target!r}"
            )


BOOK: Final = KlaberjassRules()
"""Seed 004's game: its ranking, no schmeiss, game to 500."""

CLASSIC: Final = KlaberjassRules(name="classic", ranking="classic")
"""The ranking most players know (the ten second only to the ace in plain suits)."""

BOOK_SCHMEISS: Final = KlaberjassRules(name="schmeiss", schmeiss=True)
"""The book's game with schmeiss offered in the first round of bidding."""

CLASSIC_SCHMEISS: Final = KlaberjassRules(name="classic-schmeiss", ranking="classic", schmeiss=True)
"""The classic ranking with schmeiss."""

KLABERJASS_PRESETS: Final = {
    rules.name: rules for rules in (BOOK, CLASSIC, BOOK_SCHMEISS, CLASSIC_SCHMEISS)
}
"""The presets by name, as records and ``--variant`` name them."""
