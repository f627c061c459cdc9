"""Klaberjass's part of a record (layer 3): its rules (``preset`` and every option), the
players, the first dealer, ``meta``, and every hand in notation with its scores once
over. The envelope, the digest and the checks every record shares are
:mod:`umtali.kernel.record`'s; reading replays every move through the engine, so a
record that loads is a legal game.

>>> from umtali.kernel.deck import seeded_deck
>>> game = KlaberjassMatch(players=("Ann", "Bob"))
>>> hand = game.new_hand(seeded_deck(3, DECK))
>>> for text in ("pass", "pass", "pass", "pass"):
...     _ = hand.push_text(text)
>>> data = BODY.write(game)
>>> data["hands"][0]["moves"], data["hands"][0]["scores"]
(['pass', 'pass', 'pass', 'pass'], [0, 0])
>>> again = BODY.read(data)
>>> again.hands[0].history == hand.history, again.next_dealer()
(True, 1)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import KlaberjassMove
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.kernel.record import (
    TwoPlayers,
    hand_entry,
    named,
    preset_rules,
    read_field,
    read_seating,
    replay_hands,
    rule_options,
)

__all__ = ["BODY", "KlaberjassBody"]

_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(KlaberjassRules)) | {"preset"}


def _moves(hand: KlaberjassHand) -> list[str]:
    """The hand's moves in notation, as the record keeps them."""
    return [KlaberjassMove.of_action(action).text() for _, action in hand.history]


class _KlaberjassHands(TwoPlayers[KlaberjassHand]):
    """Replays a record's hands on a :class:`KlaberjassMatch`, one after the other."""

    kind = "game"
    deck_cards = DECK

    def dealer_rule(self, expected: int) -> str:
        return f"the deal alternates every hand, a thrown-in hand too, so player {expected} deals"

    def push_text(self, text: str) -> None:
        # A refused move raises KlaberjassMoveError, a ValueError saying why.
        self.played().push_text(text)

    def scores(self) -> tuple[int, int] | None:
        outcome = self.played().outcome()
        return None if outcome is None else outcome.scores


class KlaberjassBody:
    """Klaberjass's :class:`~umtali.games.api.RecordBody`."""

    def owns(self, match: object) -> bool:
        return isinstance(match, KlaberjassMatch)

    def write(self, match: KlaberjassMatch) -> dict[str, Any]:
        return {
            "rules": {"preset": match.rules.name, **dataclasses.asdict(match.rules)},
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "meta": match.meta,
            "hands": [
                # a finished hand's outcome gives its scores (a thrown-in hand: 0 and 0)
                hand_entry(hand.dealer, hand.deck, _moves(hand), hand.outcome())
                for hand in match.hands
            ],
        }

    def read(self, data: dict[str, Any]) -> KlaberjassMatch:
        options = rule_options(read_field(data, "rules", dict), _RULE_KEYS)
        rules = preset_rules(options, KLABERJASS_PRESETS, "book")
        players, first_dealer, meta = read_seating(data)
        match = named(
            lambda: KlaberjassMatch(rules, first_dealer=first_dealer, players=players, meta=meta)
        )
        replay_hands(_KlaberjassHands(match), read_field(data, "hands", list))
        return match


BODY: Final = KlaberjassBody()
"""How a game of Klaberjass is written to a record and read back."""
