"""A game of Gin Rummy as a record keeps it (layer 3): :class:`GinMatch`, the
:class:`~umtali.games.gin.game.GinGame` with its players' names and the facts an interface
keeps beside it (``meta``), as :class:`umtali.games.umtali.match.Match` is for Umtali; and
:class:`GinPartyMatch`, a game of three- or four-hand Gin Rummy
(:mod:`umtali.games.gin.party`) with its players' names, ``meta`` and every hand dealt at its
table.

:mod:`umtali.kernel.record` writes and reads both in the one record format, marked
``"game": "gin"``; a session of the first is :class:`umtali.games.gin.session.GinPlaySession`,
of the second :class:`umtali.games.gin.party_session.GinPartySession`.

>>> from umtali.kernel.deck import seeded_deck
>>> match = GinMatch(players=("Ann", "Bob"), first_dealer=1)
>>> hand = match.new_hand(seeded_deck(7))
>>> hand.dealer, match.current is hand, match.is_over()
(1, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from umtali.games.gin.game import GinGame, GinGameResult
from umtali.games.gin.party import FourHandGame, FourHandSeats, Table, ThreeHandGame, ThreeHandSeats
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand
from umtali.kernel.cards import quoted
from umtali.kernel.players import MatchError, check_name
from umtali.kernel.rules import InvalidRulesError

__all__ = ["GinMatch", "GinPartyMatch", "PartyGame", "SeatedHand", "tables_of"]

PartyGame = ThreeHandGame | FourHandGame
"""A game of three- or four-hand Gin Rummy (:mod:`umtali.games.gin.party`)."""


class GinMatch:
    """A game of Gin Rummy between player 0 and player 1, played to the rules' target.

    Args:
        rules: the options (:data:`~umtali.games.gin.rules.GIN` or
            :data:`~umtali.games.gin.rules.OKLAHOMA`, or any :class:`GinRules`).
        first_dealer: the seat that deals the first hand.
        players: the two names, checked as Umtali's are (:class:`MatchError`).
        meta: free-form facts an interface keeps with the record (seats, seed).
        hand_limit: end the game after so many hands, without bonuses (the arena's
            single hands); ``None``, the rules' target alone ends it.
    """

    def __init__(
        self,
        rules: GinRules = GIN,
        *,
        first_dealer: int = 0,
        players: Sequence[str] = ("Player 1", "Player 2"),
        meta: dict[str, Any] | None = None,
        hand_limit: int | None = None,
    ) -> None:
        if not isinstance(rules, GinRules):
            raise InvalidRulesError(f"rules are GinRules (such as GIN), not {quoted(rules)}")
        if type(first_dealer) is not int or first_dealer not in (0, 1):
            raise MatchError(f"the first dealer is player 0 or 1, not {quoted(first_dealer)}")
        if meta is not None and not isinstance(meta, dict):
            raise MatchError(f"meta is a dict of facts to keep, not {quoted(meta)}")
        if isinstance(players, str) or len(players) != 2:
            raise MatchError("a match has two players: give two names, like ('Ann', 'Bob')")
        for seat, name in enumerate(players):
            check_name(seat, name)
        self.game = GinGame(rules, first_dealer, hand_limit=hand_limit)
        self.players = (players[0], players[1])
        self.meta: dict[str, Any] = dict(meta or {})

    @property
    def rules(self) -> GinRules:
        return self.game.rules

    @property
    def first_dealer(self) -> int:
        return self.game.first_dealer

    @property
    def hands(self) -> list[GinHand]:
        """The hands dealt, in order; the last may still be in play."""
        return self.game.hands

    @property
    def current(self) -> GinHand | None:
        """The hand being played, if one is under way."""
        if self.hands and not self.hands[-1].is_over():
            return self.hands[-1]
        return None

    def next_dealer(self) -> int:
        """Who deals the next hand (:meth:`GinGame.next_dealer`)."""
        return self.game.next_dealer()

    def new_hand(self, deck: Sequence[int]) -> GinHand:
        """Deal the next hand from ``deck``; :class:`MatchError` out of order."""
        if self.is_over():
            raise MatchError("the game is over: no more hands are dealt")
        if self.current is not None:
            raise MatchError("the current hand has not ended")
        return self.game.new_hand(deck)

    def is_over(self) -> bool:
        """Whether a player has reached the target with no hand under way."""
        return self.game.is_over()

    def result(self) -> GinGameResult | None:
        """The game's end with its bonuses, once it is over (else ``None``)."""
        return self.game.result() if self.is_over() else None

    def winner(self) -> int | None:
        """The winner of a finished game (``None`` while it is played)."""
        result = self.result()
        return None if result is None else result.winner

    def __repr__(self) -> str:
        count = len(self.hands)
        return (
            f"<GinMatch {self.rules.name}: {count} hand{'' if count == 1 else 's'},"
            f" points {self.game.totals()}, {'over' if self.is_over() else 'in play'}>"
        )


# -- three- and four-hand ------------------------------------------------------------------


def tables_of(seats: ThreeHandSeats | FourHandSeats) -> tuple[Table, ...]:
    """The tables of one deal: one in three-hand, two (played at once) in four-hand."""
    return seats.tables if isinstance(seats, FourHandSeats) else (seats.table,)


@dataclass(frozen=True)
class SeatedHand:
    """One hand of a party game: its ``table`` (the party's players at the hand's seats
    0 and 1, and who deals), its ``number`` among the game's hands (from 1; each table
    of a four-hand deal has its own), and the :class:`GinMatch` of that one hand, its
    players named after the party's, in which it is played."""

    table: Table
    number: int
    match: GinMatch

    @property
    def hand(self) -> GinHand:
        return self.match.hands[0]


class GinPartyMatch:
    """A game of three- or four-hand Gin Rummy with its players' names, ``meta``, and
    every hand dealt, each at its table.

    The party game (``game``) says who plays whom and who deals; each hand is an
    ordinary two-player hand, dealt here at the next table (:meth:`deal_next`) and
    played in its own :class:`GinMatch`; once every hand of a deal is over,
    :meth:`count` gives them to the game, which seats the next deal.

    >>> from umtali.kernel.cards import parse_cards
    >>> from umtali.kernel.deck import seeded_deck
    >>> game = ThreeHandGame(drawn=tuple(parse_cards("4h Kc 9s")))
    >>> party = GinPartyMatch(game, players=("Ann", "Bob", "Cy"))
    >>> seated = party.deal_next(seeded_deck(7))
    >>> seated.table, seated.match.players
    (Table(players=(1, 0), dealer=0), ('Bob', 'Ann'))
    >>> party.deal_next(seeded_deck(8))
    Traceback (most recent call last):
    ...
    umtali.kernel.players.MatchError: every hand of the deal is dealt: play them, then count them
    """

    def __init__(
        self,
        game: PartyGame,
        *,
        players: Sequence[str],
        meta: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(game, ThreeHandGame | FourHandGame):
            raise MatchError(
                f"a party game is a ThreeHandGame or a FourHandGame, not {quoted(game)}"
            )
        if game.outcomes if isinstance(game, ThreeHandGame) else game.deals:
            raise MatchError("a party game is kept from its start: give a game not yet played")
        size = 3 if isinstance(game, ThreeHandGame) else 4
        if isinstance(players, str) or len(players) != size:
            raise MatchError(f"a game of {size} players has {size} names, not {quoted(players)}")
        for seat, name in enumerate(players):
            check_name(seat, name)
        if meta is not None and not isinstance(meta, dict):
            raise MatchError(f"meta is a dict of facts to keep, not {quoted(meta)}")
        self.game = game
        self.players = tuple(players)
        self.meta: dict[str, Any] = dict(meta or {})
        self.hands: list[SeatedHand] = []
        """Every hand dealt, in order: a four-hand deal's two, table by table."""
        self._seats: ThreeHandSeats | FourHandSeats | None = None
        self._under_way: list[SeatedHand] = []

    @property
    def size(self) -> int:
        """The number of players: 3 or 4."""
        return len(self.players)

    @property
    def rules(self) -> GinRules:
        return self.game.rules

    def is_over(self) -> bool:
        """Whether the game has ended (its last deal counted)."""
        return self.game.is_over()

    def under_way(self) -> tuple[SeatedHand, ...]:
        """The hands of the deal dealt and not yet counted (finished or not)."""
        return tuple(self._under_way)

    def seats(self) -> ThreeHandSeats | FourHandSeats:
        """The seats of the deal under way, or of the next one."""
        return self._seats or self.game.next_seats()

    def next_table(self) -> Table:
        """The table of the next hand to deal: the next one of the deal under way, else
        the first of the next deal."""
        tables = tables_of(self.seats())
        if len(self._under_way) == len(tables):
            raise MatchError("every hand of the deal is dealt: play them, then count them")
        return tables[len(self._under_way)]

    def deal_next(self, deck: Sequence[int]) -> SeatedHand:
        """Deal the next hand from ``deck`` at :meth:`next_table`."""
        if self.is_over():
            raise MatchError("the game is over: no more hands are dealt")
        table = self.next_table()
        names = (self.players[table.players[0]], self.players[table.players[1]])
        match = GinMatch(self.rules, first_dealer=table.dealer_seat, players=names)
        match.new_hand(deck)
        seated = SeatedHand(table, len(self.hands) + 1, match)
        self._seats = self.seats()
        self.hands.append(seated)
        self._under_way.append(seated)
        return seated

    def deal_complete(self) -> bool:
        """Whether every hand of the deal under way has been dealt."""
        return bool(self._under_way) and len(self._under_way) == len(tables_of(self.seats()))

    def count(self) -> None:
        """Give the finished hands of the deal to the game, which seats the next deal."""
        if not self.deal_complete() or self._seats is None:
            raise MatchError("the deal is not dealt whole: deal every table's hand first")
        if any(not seated.hand.is_over() for seated in self._under_way):
            raise MatchError("a hand of the deal is not over yet: play it to its end first")
        seats = self._seats
        if isinstance(seats, FourHandSeats):
            assert isinstance(self.game, FourHandGame)
            self.game.record(seats, [seated.hand for seated in self._under_way])
        else:
            assert isinstance(self.game, ThreeHandGame)
            self.game.record(seats, self._under_way[0].hand)
        self._seats = None
        self._under_way = []

    def __repr__(self) -> str:
        size = "three" if self.size == 3 else "four"
        count = len(self.hands)
        return (
            f"<GinPartyMatch {size}-hand {self.rules.name}: {count}"
            f" hand{'' if count == 1 else 's'}, totals {self.game.totals()},"
            f" {'over' if self.is_over() else 'in play'}>"
        )
