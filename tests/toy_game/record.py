"""Toy's part of a record: its rules, players, first dealer, ``meta`` and hands."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from tests.toy_game.game import CARDS, PRESETS, ToyHand, ToyMatch, ToyMove, ToyMoveError, ToyRules
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

_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(ToyRules)) | {"preset"}


class _ToyHands(TwoPlayers[ToyHand]):
    kind = "game"
    deck_cards = CARDS

    def dealer_rule(self, expected: int) -> str:
        return f"the deal alternates, so player {expected} deals"

    def push_text(self, text: str) -> None:
        try:
            self.played().push_text(text)
        except ToyMoveError as e:
            raise ValueError(str(e)) from None

    def scores(self) -> tuple[int, int] | None:
        return self.played().outcome()


class ToyBody:
    def owns(self, match: object) -> bool:
        return isinstance(match, ToyMatch)

    def write(self, match: ToyMatch) -> dict[str, Any]:
        return {
            "rules": {"preset": match.rules.name, **dataclasses.asdict(match.rules)},
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "meta": match.meta,
            "hands": [
                hand_entry(
                    hand.dealer,
                    hand.deck,
                    [ToyMove(card).text() for _, card in hand.history],
                    None if hand.outcome() is None else hand,
                )
                for hand in match.hands
            ],
        }

    def read(self, data: dict[str, Any]) -> ToyMatch:
        options = rule_options(read_field(data, "rules", dict), _RULE_KEYS)
        rules = preset_rules(options, PRESETS, "standard")
        players, first_dealer, meta = read_seating(data)
        match = named(
            lambda: ToyMatch(rules, first_dealer=first_dealer, players=players, meta=meta)
        )
        replay_hands(_ToyHands(match), read_field(data, "hands", list))
        return match


BODY: Final = ToyBody()
