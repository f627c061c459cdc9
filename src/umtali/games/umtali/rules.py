"""Rule options: every choice the standard rules fix, made explicit.

A variant is a :class:`RuleSet` with other values, played by the same engine.

>>> STANDARD.turn_cap, STANDARD.marriage_multiplier
(100, 2)
>>> PRACTICAL.eleventh_card, PRACTICAL.deep_take, PRACTICAL.compulsory_play
('upcard', True, False)
>>> RuleSet.from_dict({"preset": "standard", "take_two": False}).take_two
False
>>> RuleSet(turn_cap=0)
Traceback (most recent call last):
...
umtali.kernel.rules.InvalidRulesError: turn_cap must be an int from 2 to 10000, not 0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from umtali.kernel.rules import InvalidRulesError

__all__ = [
    "ELEVENTH_CARD_CHOICES",
    "PRACTICAL",
    "PRESETS",
    "STANDARD",
    "InvalidRulesError",
    "RuleSet",
]

ELEVENTH_CARD_CHOICES: Final = ("dealer_choice", "dealer", "non_dealer", "upcard")


_FLAGS: Final = (
    "opening_draw",
    "compulsory_play",
    "take_two",
    "deep_take",
    "face_down_final_discard",
    "final_discard_face_down_only",
    "pair_to_go_out",
    "last_turn_short_melds",
    "last_turn_discard",
    "discard_taken_to_go_out",
)
"""The options that are true or false."""

_SEED_003_OPTIONS: Final = (
    "opening_draw",
    "deep_take",
    "final_discard_face_down_only",
    "last_turn_short_melds",
    "last_turn_discard",
)
"""The options added for seed 003's preset, which older records of house rules lack."""

_LATER_OPTIONS: Final = ("discard_taken_to_go_out",)
"""Options added since, which older records lack: such a record was played under the
value of the preset it names (the standard value for house rules)."""


@dataclass(frozen=True)
class RuleSet:
    """The options of one set of rules. The defaults are the standard rules (R1-R11).

    Attributes:
        name: the preset this came from, for records and messages.
        eleventh_card: who receives the 11th card: ``"dealer_choice"`` (R1: the dealer
            decides, as a move), or always the ``"dealer"`` or the ``"non_dealer"``; or
            ``"upcard"``: nobody, both get 10 and the 21st card dealt is turned up to
            start the discard pile, and the non-dealer starts (seed 003).
        opening_draw: the opening turn begins with a draw like any other (seed 003);
            off, the player who starts does not draw (R2).
        compulsory_play: R4: after the draw every playable card must be played. When
            off, a player may stop melding and end the turn whenever he likes.
        take_two: R3: the top two discards may be taken when both will be played.
        deep_take: any face-up discard may be taken with every card above it; the
            deepest one must be played this turn, the others need not (seed 003).
        face_down_final_discard: R5: a discard that goes out may be laid face down.
        final_discard_face_down_only: a discard that goes out must be laid face down
            (seed 003); needs ``face_down_final_discard``.
        pair_to_go_out: R6: a pair may be laid to go out.
        last_turn_short_melds: a pair or a two-card run is a meld on the last turns
            (seed 003): the player going out may close with one, as with R6's pair, and
            on the R7 last turn they are melds like any other.
        last_turn_discard: R7: the last-turn player may go out by a discard (his last
            card, or the odd card beside a closing pair); off, he never discards and
            what he cannot meld is forfeited (seed 003).
        discard_taken_to_go_out: R3: a card taken from the pile may be discarded in the
            same turn when that discard goes out (the last card, or the odd card beside
            a closing pair); off, the card that lay on top of the pile is never
            discarded in its taker's turn, not even to go out (seed 003, ruling V).
        marriage_multiplier: R9: the factor on the two cards of a marriage column.
        hands_per_game: R10: hands in a game.
        games_to_win_session: R10: games a player must win to take the session.
        turn_cap: R8: the hand is dead after this many turns (an R7 last turn is still played).
    """

    name: str = "standard"
    eleventh_card: str = "dealer_choice"
    opening_draw: bool = False
    compulsory_play: bool = True
    take_two: bool = True
    deep_take: bool = False
    face_down_final_discard: bool = True
    final_discard_face_down_only: bool = False
    pair_to_go_out: bool = True
    last_turn_short_melds: bool = False
    last_turn_discard: bool = True
    discard_taken_to_go_out: bool = True
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
        for flag in _FLAGS:
            value = getattr(self, flag)
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{flag} must be true or false, not {value!r}")
        if self.final_discard_face_down_only and not self.face_down_final_discard:
            raise InvalidRulesError(
                "final_discard_face_down_only needs face_down_final_discard: a discard that"
                " must lie face down has to be allowed to"
            )
        if not self.discard_taken_to_go_out and self.compulsory_play:
            raise InvalidRulesError(
                "discard_taken_to_go_out=false needs compulsory_play=false: a player made to"
                " play every card he can could be left holding only the card he may not discard"
            )
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
        """Every option by name, for records. (Every value is a plain ``str``, ``bool``
        or ``int``, so this reads the fields rather than deep-copy them as
        :func:`dataclasses.asdict` would: views write it for every seat after each move.)"""
        return {name: getattr(self, name) for name in _OPTION_NAMES}

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
        # A custom set of rules (a record of a house variant) names every option itself,
        # but those added with seed 003's preset: a record made before them played as the
        # standard rules still do without them.
        for key in (*_SEED_003_OPTIONS, *_LATER_OPTIONS):
            options.setdefault(key, getattr(STANDARD, key))
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


_OPTION_NAMES: Final = tuple(f.name for f in dataclasses.fields(RuleSet))

STANDARD: Final = RuleSet()
"""The standard rules of the book, with the rulings R1-R11."""

PRACTICAL: Final = RuleSet(
    name="practical",
    eleventh_card="upcard",
    opening_draw=True,
    compulsory_play=False,
    take_two=False,
    deep_take=True,
    final_discard_face_down_only=True,
    pair_to_go_out=False,
    last_turn_short_melds=True,
    last_turn_discard=False,
    discard_taken_to_go_out=False,
)
"""The looser Umtali of seed 003 (ruling V; docs/RULES.md Part 3b): 10 cards each and an
upcard, the non-dealer starts and draws, melding optional, deep takes from the pile, a
face-down discard to go out (never the card taken from the top of the pile that turn),
two-card melds on the last turns, no discard on the last turn. Scoring, four hands a game and the session are the standard ones."""

PRESETS: Final[dict[str, RuleSet]] = {"standard": STANDARD, "practical": PRACTICAL}
