"""Rule options: every choice the standard rules fix, made explicit.

A variant is a :class:`RuleSet` with other values, played by the same engine.

>>> STANDARD.turn_cap, STANDARD.marriage_multiplier
(100, 2)
>>> RuleSet.from_dict({"preset": "standard", "take_two": False}).take_two
False
>>> RuleSet(turn_cap=0)
Traceback (most recent call last):
...
umtali.rules.InvalidRulesError: turn_cap must be an int from 2 to 10000, not 0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["ELEVENTH_CARD_CHOICES", "PRESETS", "STANDARD", "InvalidRulesError", "RuleSet"]

ELEVENTH_CARD_CHOICES: Final = ("dealer_choice", "dealer", "non_dealer")


class InvalidRulesError(ValueError):
    """A rule option has a value the engine does not support."""


@dataclass(frozen=True)
class RuleSet:
    """The options of one set of rules. The defaults are the standard rules (R1-R11).

    Attributes:
        name: the preset this came from, for records and messages.
        eleventh_card: who receives the 11th card: ``"dealer_choice"`` (R1: the dealer
            decides, as a move), or always the ``"dealer"`` or the ``"non_dealer"``.
        compulsory_play: R4: after the draw every playable card must be played. When
            off, a player may stop melding and end the turn whenever he likes.
        take_two: R3: the top two discards may be taken when both will be played.
        face_down_final_discard: R5: a discard that goes out may be laid face down.
        pair_to_go_out: R6: a pair may be laid to go out.
        marriage_multiplier: R9: the factor on the two cards of a marriage column.
        hands_per_game: R10: hands in a game.
        games_to_win_session: R10: games a player must win to take the session.
        turn_cap: R8: the hand is dead after this many turns (an R7 last turn is still played).
    """

    name: str = "standard"
    eleventh_card: str = "dealer_choice"
    compulsory_play: bool = True
    take_two: bool = True
    face_down_final_discard: bool = True
    pair_to_go_out: bool = True
    marriage_multiplier: int = 2
    hands_per_game: int = 4
    games_to_win_session: int = 2
    turn_cap: int = 100

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidRulesError(f"name must be a non-empty string, not {self.name!r}")
        if self.eleventh_card not in ELEVENTH_CARD_CHOICES:
            raise InvalidRulesError(
                f"eleventh_card must be one of {', '.join(ELEVENTH_CARD_CHOICES)},"
                f" not {self.eleventh_card!r}"
            )
        for flag in ("compulsory_play", "take_two", "face_down_final_discard", "pair_to_go_out"):
            value = getattr(self, flag)
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{flag} must be true or false, not {value!r}")
        for key, low, high in (
            ("marriage_multiplier", 1, 10),
            ("hands_per_game", 1, 100),
            ("games_to_win_session", 1, 100),
            ("turn_cap", 2, 10000),
        ):
            value = getattr(self, key)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidRulesError(f"{key} must be an int from {low} to {high}, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, for records."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Options from a record: ``preset`` names the base, other keys override it.

        Unknown keys are refused, so a misspelt option cannot pass silently.
        """
        if not isinstance(data, dict):
            raise InvalidRulesError(f"rules must be an object of options, not {data!r}")
        options = dict(data)
        preset = options.pop("preset", options.get("name", "standard"))
        if not isinstance(preset, str):
            raise InvalidRulesError(f"the rules preset must be a name, not {preset!r}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidRulesError(
                f"unknown rule option{'' if len(unknown) == 1 else 's'} {', '.join(unknown)};"
                f" known: {', '.join(sorted(known))}"
            )
        if preset in PRESETS:
            return dataclasses.replace(PRESETS[preset], **options)
        # A custom set of rules (a record of a house variant) names every option itself.
        missing = sorted(known - set(options) - {"name"})
        if missing:
            raise InvalidRulesError(
                f"unknown rules preset {preset!r} (known: {', '.join(sorted(PRESETS))});"
                f" rules of another name must give every option; missing: {', '.join(missing)}"
            )
        if options.setdefault("name", preset) != preset:
            raise InvalidRulesError(
                f"unknown rules preset {preset!r} for rules named {options['name']!r};"
                f" known presets: {', '.join(sorted(PRESETS))}"
            )
        return cls(**options)


STANDARD: Final = RuleSet()
"""The standard rules of the book, with the rulings R1-R11."""

PRESETS: Final[dict[str, RuleSet]] = {"standard": STANDARD}
