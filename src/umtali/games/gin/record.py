"""Gin Rummy's part of a record (layer 3): its rules (``preset`` and every option), the
players, the first dealer, ``meta``, and every hand in notation; a game of three or four
has a ``"party"`` instead of a first dealer (the cards drawn for places, or the team that
deals first), and each of its hands the ``"seats"`` of the two players at it. The
envelope, the digest and the checks every record shares are :mod:`umtali.kernel.record`'s.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.kernel.record import dumps, loads_any
>>> game = GinMatch(players=("Ann", "Bob"))
>>> hand = game.new_hand(seeded_deck(7))
>>> for move in ("pass", "take", "discard 9c"):
...     hand.push_text(move)
>>> again = loads_any(dumps(game))
>>> type(again).__name__, again.hands[0].history == hand.history
('GinMatch', True)
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from umtali.games.gin.match import GinMatch, GinPartyMatch, SeatedHand
from umtali.games.gin.party import (
    FourHandGame,
    GinPartyError,
    Table,
    ThreeHandGame,
    ThreeHandSeats,
)
from umtali.games.gin.rules import GIN_PRESETS, GinRules
from umtali.games.gin.state import GinHand, GinMove, GinMoveError
from umtali.kernel.cards import ALL_CARDS, InvalidCardError, card_ascii, parse_card, quoted
from umtali.kernel.record import (
    HAND_KEYS,
    MAX_CARD_TEXT,
    RecordError,
    TwoPlayers,
    clip,
    hand_entry,
    named,
    read_field,
    read_meta,
    read_seating,
    refuse_unknown_keys,
    replay_hand,
    replay_hands,
    rule_options,
)
from umtali.kernel.rules import InvalidRulesError

__all__ = ["BODY", "GinBody"]

_GIN_RULE_KEYS: Final = frozenset(f.name for f in dataclasses.fields(GinRules)) | {"preset"}
_PARTY_HAND_KEYS: Final = HAND_KEYS | {"seats"}


def _hand_record(hand: GinHand) -> dict[str, Any]:
    moves = [GinMove.of_action(action).text() for _, action in hand.history]
    return hand_entry(hand.dealer, hand.deck, moves, hand.outcome)


def _rules_record(rules: GinRules) -> dict[str, Any]:
    return {"preset": rules.name, **dataclasses.asdict(rules)}


class GinBody:
    """Gin Rummy's :class:`~umtali.games.api.RecordBody`, for two, three or four players."""

    def owns(self, match: object) -> bool:
        return isinstance(match, GinMatch | GinPartyMatch)

    def write(self, match: GinMatch | GinPartyMatch) -> dict[str, Any]:
        if isinstance(match, GinPartyMatch):
            return _party_record_of(match)
        return {
            "rules": _rules_record(match.rules),
            "players": list(match.players),
            "first_dealer": match.first_dealer,
            "meta": match.meta,
            "hands": [_hand_record(hand) for hand in match.hands],
        }

    def read(self, data: dict[str, Any]) -> GinMatch | GinPartyMatch:
        if "party" in data:
            if "first_dealer" in data:
                raise RecordError(
                    "the record has both a 'party' and a 'first_dealer': a game of three or"
                    " four has its party, a game of two its first dealer"
                )
            return _replay_party(data)
        if "first_dealer" not in data:
            raise RecordError("the record has no 'first_dealer' (a game of two) nor 'party'")
        return _replay_gin(data)


BODY: Final = GinBody()


def _party_record_of(match: GinPartyMatch) -> dict[str, Any]:
    game = match.game
    party: dict[str, Any] = {"size": match.size}
    if isinstance(game, ThreeHandGame):
        party["drawn"] = [card_ascii(card) for card in game.drawn]
    else:
        party["first_dealing_team"] = game.first_dealers
    hands = []
    for seated in match.hands:
        # The dealer is the party's player who dealt, as the seats are.
        entry = {"seats": list(seated.table.players), **_hand_record(seated.hand)}
        entry["dealer"] = seated.table.dealer
        hands.append(entry)
    return {
        "rules": _rules_record(match.rules),
        "players": list(match.players),
        "party": party,
        "meta": match.meta,
        "hands": hands,
    }


def _replay_gin(data: dict[str, Any]) -> GinMatch:
    rules = _gin_rules(rule_options(read_field(data, "rules", dict), _GIN_RULE_KEYS))
    players, first_dealer, meta = read_seating(data)
    match = named(lambda: GinMatch(rules, first_dealer=first_dealer, players=players, meta=meta))
    replay_hands(_GinHands(match), read_field(data, "hands", list))
    return match


def _replay_party(data: dict[str, Any]) -> GinPartyMatch:
    """A record of three- or four-hand Gin Rummy, replayed through :mod:`umtali.games.gin.party`:
    every hand must sit at the seats the game gives it, dealt by the player it names."""
    rules = _gin_rules(rule_options(read_field(data, "rules", dict), _GIN_RULE_KEYS))
    players = read_field(data, "players", list)
    game = _party_game(read_field(data, "party", dict), rules, len(players))
    meta = read_meta(data)
    match = named(lambda: GinPartyMatch(game, players=players, meta=meta))
    hands = read_field(data, "hands", list)
    per_deal = 2 if isinstance(game, FourHandGame) else 1
    if len(hands) % per_deal:
        raise RecordError(
            f"the record ends after hand {len(hands)}, the first of deal"
            f" {len(hands) // 2 + 1}: a deal of four-hand is two hands, one at each table,"
            " recorded together"
        )
    replayer = _PartyHands(match)
    last_deal = (len(hands) - 1) // per_deal
    for number, entry in enumerate(hands, start=1):
        # Both hands of a four-hand deal are played at once: either may be unfinished.
        last = (number - 1) // per_deal == last_deal
        replay_hand(replayer, number, entry, last=last)
    replayer.ready()
    return match


def _party_game(
    party: dict[str, Any], rules: GinRules, players: int
) -> ThreeHandGame | FourHandGame:
    """The party game a record's ``"party"`` starts: three-hand with the cards ``"drawn"``
    for places, four-hand with the ``"first_dealing_team"``."""
    size = read_field(party, "size", int, "'party'")
    if size not in (3, 4):
        raise RecordError(
            f"'party': 'size' is 3 (three-hand) or 4 (four-hand), not {quoted(size)}; a game"
            " of two has no 'party'"
        )
    if players != size:
        raise RecordError(f"'players': a game of {size} players has {size} names, not {players:,}")
    if size == 3:
        refuse_unknown_keys(party, frozenset(("size", "drawn")), "'party'")
        names = read_field(party, "drawn", list, "'party'")
        if len(names) != 3 or not all(
            isinstance(name, str) and len(name) <= MAX_CARD_TEXT for name in names
        ):
            raise RecordError(
                f"'party': 'drawn' holds the three cards drawn for places, one per player,"
                f" like ['4h', 'Kc', '9s'], not {quoted(names)}"
            )
        try:
            drawn = tuple(parse_card(name) for name in names)
            return ThreeHandGame((drawn[0], drawn[1], drawn[2]), rules)
        except (InvalidCardError, GinPartyError) as e:
            raise RecordError(f"'party': 'drawn': {clip(str(e))}") from None
    refuse_unknown_keys(party, frozenset(("size", "first_dealing_team")), "'party'")
    team = read_field(party, "first_dealing_team", int, "'party'")
    try:
        return FourHandGame(rules, first_dealers=team)
    except GinPartyError as e:
        raise RecordError(f"'party': 'first_dealing_team': {clip(str(e))}") from None


def _gin_rules(options: dict[str, Any]) -> GinRules:
    """Gin Rummy's options from a record: ``preset`` names one of
    :data:`~umtali.games.gin.rules.GIN_PRESETS`, and the other keys override it."""
    options = dict(options)
    preset = options.pop("preset", options.get("name", "standard"))
    if preset not in GIN_PRESETS:
        raise RecordError(
            f"rules: {quoted(preset)} is no Gin Rummy preset; the presets are"
            f" {', '.join(sorted(GIN_PRESETS))}"
        )
    try:
        return dataclasses.replace(GIN_PRESETS[preset], **options)
    except InvalidRulesError as e:
        raise RecordError(f"rules: {clip(str(e))}") from None


class _GinHands(TwoPlayers[GinHand]):
    kind = "game"

    def dealer_rule(self, expected: int) -> str:
        return (
            f"the deal alternates (the same dealer deals again after a dead hand), so"
            f" player {expected} deals (ruling G)"
        )

    def push_text(self, text: str) -> None:
        _push_gin(self.played(), text)

    def scores(self) -> tuple[int, int] | None:
        outcome = self.played().outcome
        return None if outcome is None else outcome.scores


def _push_gin(hand: GinHand, text: str) -> None:
    """Play ``text`` on a hand of Gin Rummy; a refused move raises ``ValueError``."""
    try:
        hand.push_text(text)
    except GinMoveError as e:
        raise ValueError(str(e)) from None


class _PartyHands:
    """Hands of three- or four-hand Gin Rummy, each at the table the party game gives."""

    kind = "game"
    hand_keys = _PARTY_HAND_KEYS
    deck_cards = ALL_CARDS

    def __init__(self, match: GinPartyMatch) -> None:
        self.match = match
        self.seated: SeatedHand | None = None

    def ready(self) -> None:
        match = self.match
        if match.deal_complete() and all(s.hand.is_over() for s in match.under_way()):
            match.count()

    def read_seating(self) -> Table:
        return self.match.next_table()

    def check_seats(self, entry: dict[str, Any], where: str) -> None:
        seats = read_field(entry, "seats", list, where)
        if len(seats) != 2 or any(type(player) is not int for player in seats):
            raise RecordError(
                f"{where}: 'seats' are the numbers of the two players at the hand's seats 0"
                f" and 1, like [2, 0], not {quoted(seats)}"
            )
        table = self.read_seating()
        if seats == list(table.players):
            return
        lone, other = table.players
        current = self.match.seats()
        if isinstance(current, ThreeHandSeats):
            expected = (
                f"player {lone} plays alone against player {other}, player"
                f" {current.on_deck} on deck: a lone winner stays, and a lone loser gives"
                " his seat to the player on deck (ruling G)"
            )
        else:
            expected = (
                f"player {lone} plays player {other} at this table: partners change"
                " opponents every deal (ruling G)"
            )
        raise RecordError(
            f"{where}: the record seats players {quoted(seats)} at it, but {expected}"
        )

    def is_over(self) -> bool:
        return self.match.is_over()

    def next_dealer(self) -> int:
        return self.read_seating().dealer

    def dealer_rule(self, expected: int) -> str:
        if self.match.size == 3:
            rule = (
                "the deal crosses the table after every hand that is not dead (the team's"
                " player deals the first)"
            )
        else:
            rule = "one team deals at both tables, and the teams take turns"
        return f"{rule}, so player {expected} deals (ruling G)"

    def deal(self, deck: tuple[int, ...]) -> None:
        self.seated = self.match.deal_next(deck)

    def hand_is_over(self) -> bool:
        assert self.seated is not None
        return self.seated.hand.is_over()

    def push_text(self, text: str) -> None:
        assert self.seated is not None
        _push_gin(self.seated.hand, text)

    def scores(self) -> tuple[int, int] | None:
        assert self.seated is not None
        outcome = self.seated.hand.outcome
        return None if outcome is None else outcome.scores
