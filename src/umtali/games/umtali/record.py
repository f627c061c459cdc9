"""Umtali's part of a record (layer 3): how long the match is (``"match"``), the rules,
the players, the first dealer, ``meta``, and every hand in notation. The envelope, the
digest and the checks every record shares are :mod:`umtali.kernel.record`'s.

>>> from umtali.games.umtali.lessons import LESSONS
>>> game = Match(kind="hand", first_dealer=1)
>>> _ = LESSONS[0].replay(game.new_hand(LESSONS[0].deck()))
>>> again = loads(dumps(game))
>>> again.hands[0].outcome().scores
(31, 28)
>>> sorted(BODY.write(game))
['first_dealer', 'hands', 'match', 'meta', 'players', 'rules']
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Final

from umtali.games.umtali.match import MATCH_KINDS, Match
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError
from umtali.games.umtali.rules import RuleSet
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import quoted
from umtali.kernel.record import (
    RecordError,
    TwoPlayers,
    after_colon,
    clip,
    dumps,
    hand_entry,
    load_any_bytes,
    load_any_file,
    loads_any,
    named,
    read_field,
    read_seating,
    replay_any,
    replay_hands,
    rule_options,
)
from umtali.kernel.rules import InvalidRulesError

__all__ = ["BODY", "dumps", "load_bytes", "load_file", "loads", "replay"]

GAME: Final = "umtali"

_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(RuleSet)) | {"preset"}


class _UmtaliHands(TwoPlayers[HandState]):
    def __init__(self, match: Match) -> None:
        super().__init__(match)
        self.kind = match.kind

    def dealer_rule(self, expected: int) -> str:
        return f"the winner of the last hand (or the first dealer) is player {expected} (R1)"

    def push_text(self, text: str) -> None:
        try:
            self.played().push_text(text)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise ValueError(after_colon(str(e))) from None

    def scores(self) -> tuple[int, int] | None:
        outcome = self.played().outcome()
        return None if outcome is None else outcome.scores


class UmtaliBody:
    """Umtali's :class:`~umtali.games.api.RecordBody`."""

    def owns(self, match: object) -> bool:
        return isinstance(match, Match)

    def write(self, match: Match) -> dict[str, Any]:
        hands = [
            hand_entry(
                hand.dealer, hand.deck, [m.text() for m in hand.moves_played()], hand.outcome()
            )
            for hand in match.hands
        ]
        return {
            "match": match.kind,
            "rules": {"preset": match.rules.name, **match.rules.to_dict()},
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "meta": match.meta,
            "hands": hands,
        }

    def read(self, data: dict[str, Any]) -> Match:
        kind = read_field(data, "match", str)
        if kind not in MATCH_KINDS:
            raise RecordError(
                f"'match' must be one of {', '.join(MATCH_KINDS)}, not {quoted(kind)}"
            )
        try:
            rules = RuleSet.from_dict(rule_options(read_field(data, "rules", dict), _RULE_KEYS))
        except InvalidRulesError as e:
            raise RecordError(f"rules: {clip(str(e))}") from None
        players, first_dealer, meta = read_seating(data)
        match = named(
            lambda: Match(rules, kind=kind, first_dealer=first_dealer, players=players, meta=meta)
        )
        replay_hands(_UmtaliHands(match), read_field(data, "hands", list))
        return match


BODY: Final = UmtaliBody()


# -- readers of Umtali's records alone ---------------------------------------------------------


def _checked(match: object) -> Match:
    assert isinstance(match, Match)  # the reader refused any other game by name
    return match


def loads(text: str) -> Match:
    """Read and replay an Umtali record from JSON text; a record of another game is
    refused by name (:func:`umtali.kernel.record.loads_any` reads any)."""
    return _checked(loads_any(text, game=GAME))


def load_file(path: str | os.PathLike[str]) -> Match:
    """Read and replay the Umtali record in ``path`` (:func:`loads`)."""
    return _checked(load_any_file(path, game=GAME))


def load_bytes(raw: bytes) -> Match:
    """Read and replay an Umtali record given as the bytes of its file (:func:`loads`)."""
    return _checked(load_any_bytes(raw, game=GAME))


def replay(data: object) -> Match:
    """Replay Umtali record data (:func:`loads`)."""
    return _checked(replay_any(data, game=GAME))
