"""Umtali: the two-player rummy of colonial Rhodesia, as an exact, replayable, fast engine.

>>> from umtali import HandState, seeded_deck
>>> hand = HandState(seeded_deck(1), dealer=0)
>>> hand.push_text("keep")
Move.keep()
>>> len(hand.hand(0)), len(hand.hand(1)), hand.stock_size()
(11, 10, 31)
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.melds import ColumnKind, MeldPlan, meld_plans
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind
from umtali.games.umtali.notation import format_move, parse_move
from umtali.games.umtali.rules import PRESETS, STANDARD, InvalidRulesError, RuleSet
from umtali.games.umtali.state import Column, HandOutcome, HandState, Phase, Termination
from umtali.kernel.cards import CardSet, InvalidCardError, card_name, parse_card, parse_cards
from umtali.kernel.deck import InvalidDeckError, seeded_deck, shuffled_deck

try:  # written once, in pyproject.toml; the installed package's metadata carries it
    __version__ = _version("umtali")
except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
    __version__ = "0+unknown"

__all__ = [
    "PRESETS",
    "STANDARD",
    "CardSet",
    "Column",
    "ColumnKind",
    "HandOutcome",
    "HandState",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidMoveError",
    "InvalidRulesError",
    "MeldPlan",
    "Move",
    "MoveKind",
    "Phase",
    "RuleSet",
    "Termination",
    "card_name",
    "format_move",
    "meld_plans",
    "parse_card",
    "parse_cards",
    "parse_move",
    "seeded_deck",
    "shuffled_deck",
    "stacked_deck",
]
