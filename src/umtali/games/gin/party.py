"""Gin Rummy for three and four players (ruling G): who plays whom, the running totals
and the end of the game.

Every hand is an ordinary two-player :class:`~umtali.games.gin.state.GinHand`. The classes
here play no move: they name the next hand's seats (:class:`Table`: which of the
party's players sit at the hand's seats 0 and 1, and who deals), take each finished
hand back with ``record``, and keep the score. The game target is the rules' own, so
Oklahoma's 150 holds at every size of table.

**Three-hand** (:class:`ThreeHandGame`). Before the first deal each player draws a
card: the highest plays alone (the lone player), the second is on deck and sits out,
and the third plays the lone player for the team of the two others. A hand won by the
lone player counts for him; a hand won by the team counts for both its members, the
one on deck too. A lone winner stays and the same two play on; when the lone player
loses, the player on deck plays alone, his partner goes on deck, and the former lone
player plays for the team.

>>> from umtali.kernel.cards import parse_cards
>>> game = ThreeHandGame(drawn=tuple(parse_cards("4h Kc 9s")))
>>> print(game.next_seats())
hand 1: player 1 alone against player 0, who deals; player 2 on deck
>>> seats = game.next_seats()
>>> game.record(seats, GinOutcome("knock", 1, 30))  # the team wins 30
>>> game.totals(), str(game.next_seats())
((30, 0, 30), 'hand 2: player 2 alone against player 1, player 2 deals; player 0 on deck')

**Four-hand** (:class:`FourHandGame`). Players 0 and 2 are one team, 1 and 3 the
other. Each deal is two hands played at once, each from its own deck; partners swap
opponents every deal. A deal's result is the difference of the two teams' points in
its two hands, scored by the team ahead.

>>> game = FourHandGame()
>>> print(game.next_seats())
deal 1: player 0 against player 1 (player 0 deals); player 2 against player 3 (player 2 deals)
>>> game.record(game.next_seats(), (GinOutcome("knock", 0, 17), GinOutcome("knock", 1, 12)))
>>> game.totals()
(5, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from umtali.games.gin.game import GinGameResult, game_bonuses
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand, GinOutcome
from umtali.kernel.cards import card_name, is_card, quoted, rank_of, suit_of
from umtali.kernel.deck import shuffled_deck

__all__ = [
    "TEAMS",
    "FourHandDeal",
    "FourHandGame",
    "FourHandSeats",
    "GinPartyError",
    "Table",
    "ThreeHandGame",
    "ThreeHandResult",
    "ThreeHandSeats",
    "draw_order",
]

TEAMS: Final = ((0, 2), (1, 3))
"""Four-hand's teams: a player's team is his number modulo 2, so partners sit apart
as they would round a table."""


class GinPartyError(ValueError):
    """A hand recorded at seats other than the game named, a hand not finished, or a
    hand after the game ended."""


@dataclass(frozen=True)
class Table:
    """One two-player hand of a party game: ``players`` are the party's players at the
    hand's seats 0 and 1, and ``dealer`` is the one of them who deals.

    >>> table = Table((2, 0), dealer=0)
    >>> table.dealer_seat, table.player_at(0)
    (1, 2)
    """

    players: tuple[int, int]
    dealer: int

    @property
    def dealer_seat(self) -> int:
        """The dealer's seat in the hand (0 or 1), as :class:`GinHand` takes it."""
        return self.players.index(self.dealer)

    def player_at(self, seat: int) -> int:
        """The party's player at the hand's ``seat``."""
        return self.players[seat]

    def deal(self, deck: Sequence[int], rules: GinRules = GIN) -> GinHand:
        """The hand to play at this table, dealt from ``deck``."""
        return GinHand(deck, self.dealer_seat, rules)

    def __str__(self) -> str:
        first, second = self.players
        return f"player {first} against player {second} (player {self.dealer} deals)"


def _finished(table: Table, result: GinHand | GinOutcome, rules: GinRules) -> GinOutcome:
    """The outcome of a hand played at ``table``; a hand still in play, dealt by the
    other seat or played to other rules is refused."""
    if isinstance(result, GinOutcome):
        return result
    if not isinstance(result, GinHand):
        raise GinPartyError(
            f"a hand's result is a finished GinHand or its GinOutcome, not {quoted(result)}"
        )
    if result.outcome is None:
        to_move = result.to_move()
        mover = "nobody" if to_move is None else f"player {table.player_at(to_move)}"
        raise GinPartyError(
            f"the hand of {table} is not finished ({mover} to move); record it once it has ended"
        )
    if result.dealer != table.dealer_seat:
        raise GinPartyError(
            f"the hand was dealt by seat {result.dealer}, but at this table ({table}) the"
            f" dealer sits at seat {table.dealer_seat}: deal it with Table.deal"
        )
    if result.rules != rules:
        raise GinPartyError(
            f"the hand was played to the {result.rules.name!r} rules; this game plays"
            f" {rules.name!r}"
        )
    return result.outcome


def draw_order(drawn: Sequence[int]) -> tuple[int, ...]:
    """The players in the order of the cards they drew, highest first. Aces are low,
    as everywhere in Gin Rummy; between cards of one rank the suit decides, clubs
    lowest, then diamonds, hearts and spades (the cards are all different, so the
    draw is never tied and never drawn again).

    >>> from umtali.kernel.cards import parse_cards
    >>> draw_order(parse_cards("Ah 7c 7s"))
    (2, 1, 0)
    """
    return tuple(
        sorted(
            range(len(drawn)),
            key=lambda who: (rank_of(drawn[who]), suit_of(drawn[who])),
            reverse=True,
        )
    )


# -- three-hand ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ThreeHandSeats:
    """Who plays the next hand of three-hand: ``table.players`` are the lone player (the
    hand's seat 0) and the team's player (seat 1); ``on_deck`` sits out. ``hand`` counts
    the hands from 1, so the seats of one hand are not taken for the next."""

    hand: int
    table: Table
    on_deck: int

    @property
    def lone(self) -> int:
        return self.table.players[0]

    @property
    def partner(self) -> int:
        """The team's player at the table."""
        return self.table.players[1]

    def __str__(self) -> str:
        lone, partner = self.table.players
        dealer = "who deals" if self.table.dealer == partner else f"player {lone} deals"
        return (
            f"hand {self.hand}: player {lone} alone against player {partner}, {dealer};"
            f" player {self.on_deck} on deck"
        )


@dataclass(frozen=True)
class ThreeHandResult:
    """A finished three-hand game: ``winners`` (more than one only when team members
    reach the target together with equal totals), each player's ``points`` from the
    hands and ``line`` bonuses, the ``game_bonus`` each winner takes, whether it was a
    ``shutout``, and the ``final`` scores."""

    winners: tuple[int, ...]
    points: tuple[int, int, int]
    line: tuple[int, int, int]
    game_bonus: int
    shutout: bool
    final: tuple[int, int, int]


@dataclass
class ThreeHandGame:
    """A game of three-hand Gin Rummy between players 0, 1 and 2.

    ``drawn`` are the cards each drew before the first deal (:func:`draw_order` ranks
    them); :meth:`drawn_from` draws them. The first hand is dealt by the team's player,
    so the lone player, who drew highest, is first offered the upcard. The deal then
    passes between the lone seat and the team's seat after each hand that is not dead.
    A dead hand changes nobody's place: the same two play again and the same player
    deals. The game ends after the hand that brings a player's total to the target;
    the highest total wins.
    """

    drawn: tuple[int, int, int]
    rules: GinRules = GIN
    outcomes: list[tuple[ThreeHandSeats, GinOutcome]] = field(
        default_factory=list, init=False, repr=False
    )
    _seats: ThreeHandSeats = field(init=False, repr=False)
    _points: list[int] = field(default_factory=lambda: [0, 0, 0], init=False, repr=False)
    _won: list[int] = field(default_factory=lambda: [0, 0, 0], init=False, repr=False)

    def __post_init__(self) -> None:
        drawn = self.drawn
        if (
            not isinstance(drawn, tuple)
            or len(drawn) != 3
            or not all(is_card(card) for card in drawn)
            or len(set(drawn)) != 3
        ):
            raise GinPartyError(
                "three-hand starts with three different cards drawn, one for each player,"
                f" not {quoted(drawn)}"
            )
        if not isinstance(self.rules, GinRules):
            raise GinPartyError(f"rules are GinRules (such as GIN), not {quoted(self.rules)}")
        lone, on_deck, partner = draw_order(drawn)
        self._seats = ThreeHandSeats(1, Table((lone, partner), dealer=partner), on_deck)

    @classmethod
    def drawn_from(cls, rng: random.Random, rules: GinRules = GIN) -> ThreeHandGame:
        """A game whose players draw their cards from a deck shuffled by ``rng``."""
        deck = shuffled_deck(rng)
        return cls((deck[0], deck[1], deck[2]), rules)

    def next_seats(self) -> ThreeHandSeats:
        """Who plays the next hand, and who deals it."""
        if self.is_over():
            raise GinPartyError("the game is over: no more hands are dealt")
        return self._seats

    def deal(self, deck: Sequence[int]) -> GinHand:
        """The next hand, dealt from ``deck`` at :meth:`next_seats`."""
        return self.next_seats().table.deal(deck, self.rules)

    def record(self, seats: ThreeHandSeats, result: GinHand | GinOutcome) -> None:
        """Count the finished hand played at ``seats`` (the seats :meth:`next_seats`
        named) and seat the next one."""
        expected = self.next_seats()
        if seats != expected:
            raise GinPartyError(
                f"those seats ({seats}) are not the next hand's; the next hand is {expected}"
            )
        outcome = _finished(seats.table, result, self.rules)
        self.outcomes.append((seats, outcome))
        lone, partner, on_deck = seats.lone, seats.partner, seats.on_deck
        if outcome.winner is None:  # a dead hand: nobody lost, so nobody moves
            self._seats = ThreeHandSeats(seats.hand + 1, seats.table, on_deck)
            return
        dealer_is_lone = seats.table.dealer == lone
        if outcome.winner == 0:  # the lone player won: he stays
            self._points[lone] += outcome.points
            self._won[lone] += 1
            table = Table((lone, partner), dealer=partner if dealer_is_lone else lone)
            self._seats = ThreeHandSeats(seats.hand + 1, table, on_deck)
            return
        for member in (partner, on_deck):  # the team's win counts for both its members
            self._points[member] += outcome.points
            self._won[member] += 1
        # The one on deck plays alone, against the player who lost the lone seat.
        table = Table((on_deck, lone), dealer=lone if dealer_is_lone else on_deck)
        self._seats = ThreeHandSeats(seats.hand + 1, table, partner)

    def totals(self) -> tuple[int, int, int]:
        """Each player's points from the hands so far, bonuses aside."""
        first, second, third = self._points
        return first, second, third

    def hands_won(self) -> tuple[int, int, int]:
        """The hands each player won, alone or as one of the team."""
        first, second, third = self._won
        return first, second, third

    def is_over(self) -> bool:
        return max(self._points) >= self.rules.game_target

    def result(self) -> ThreeHandResult:
        """The game's end, with its bonuses (:func:`~umtali.games.gin.game.game_bonuses`);
        only once :meth:`is_over`."""
        if not self.is_over():
            raise GinPartyError(
                f"the game is not over: nobody has {self.rules.game_target} points yet"
            )
        points = self.totals()
        best = max(points)
        winners = tuple(who for who in range(3) if points[who] == best)
        bonuses = game_bonuses(points, self.hands_won(), winners, self.rules)
        line, final = bonuses.line, bonuses.final
        return ThreeHandResult(
            winners,
            points,
            (line[0], line[1], line[2]),
            bonuses.game_bonus,
            bonuses.shutout,
            (final[0], final[1], final[2]),
        )

    def describe_draw(self) -> str:
        """The draw before the first deal, in words.

        >>> from umtali.kernel.cards import parse_cards
        >>> ThreeHandGame(drawn=tuple(parse_cards("4h Kc 9s"))).describe_draw()
        'player 1 drew K♣ and plays alone; player 2 drew 9♠ and is on deck; player 0 drew 4♥'
        """
        lone, on_deck, partner = draw_order(self.drawn)
        return (
            f"player {lone} drew {card_name(self.drawn[lone])} and plays alone;"
            f" player {on_deck} drew {card_name(self.drawn[on_deck])} and is on deck;"
            f" player {partner} drew {card_name(self.drawn[partner])}"
        )


# -- four-hand -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FourHandSeats:
    """The two hands of the next deal of four-hand (``deal`` counts from 1). At each
    table team 0's player has the hand's seat 0 and team 1's player seat 1."""

    deal: int
    tables: tuple[Table, Table]

    def __str__(self) -> str:
        first, second = self.tables
        return f"deal {self.deal}: {first}; {second}"


@dataclass(frozen=True)
class FourHandDeal:
    """A deal played: its ``seats``, the two hands' outcomes (by table), each team's
    ``points`` in the two hands together, and the ``net`` it scores: the difference, to
    the team ahead (``(0, 0)`` when the teams are level)."""

    seats: FourHandSeats
    outcomes: tuple[GinOutcome, GinOutcome]
    points: tuple[int, int]
    net: tuple[int, int]

    @property
    def winner(self) -> int | None:
        """The team that won the deal, or ``None`` when the teams are level."""
        a, b = self.net
        return 0 if a > b else 1 if b > a else None


@dataclass
class FourHandGame:
    """A game of four-hand Gin Rummy: team 0 (players 0 and 2) against team 1 (players
    1 and 3).

    In odd-numbered deals player 0 plays player 1 and player 2 plays player 3; in
    even-numbered ones player 0 plays player 3 and player 2 plays player 1. The players
    of one team deal at both tables, team ``first_dealers`` in the first deal and the
    teams in turn after it, so each player deals every other hand he plays. A dead hand
    scores nothing and is not dealt again: the deal counts what the other table
    scored. The first team whose total reaches the target wins.
    """

    rules: GinRules = GIN
    first_dealers: int = 0
    deals: list[FourHandDeal] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.first_dealers) is not int or self.first_dealers not in (0, 1):
            raise GinPartyError(
                f"the team that deals first is team 0 or 1, not {quoted(self.first_dealers)}"
            )
        if not isinstance(self.rules, GinRules):
            raise GinPartyError(f"rules are GinRules (such as GIN), not {quoted(self.rules)}")

    def next_seats(self) -> FourHandSeats:
        """Who plays whom in the next deal, and who deals at each table."""
        if self.is_over():
            raise GinPartyError("the game is over: no more hands are dealt")
        number = len(self.deals)
        swapped = number % 2  # partners swap opponents each deal
        dealing = (self.first_dealers + number) % 2
        (first_a, second_a), (first_b, second_b) = TEAMS
        pairs = (
            ((first_a, second_b), (second_a, first_b))
            if swapped
            else ((first_a, first_b), (second_a, second_b))
        )
        first, second = (Table(pair, dealer=pair[dealing]) for pair in pairs)
        return FourHandSeats(number + 1, (first, second))

    def deal(self, decks: Sequence[Sequence[int]]) -> tuple[GinHand, GinHand]:
        """The next deal's two hands, one dealt from each of ``decks``."""
        if len(decks) != 2:
            raise GinPartyError(f"a deal of four-hand takes two decks, not {len(decks)}")
        first, second = self.next_seats().tables
        return first.deal(decks[0], self.rules), second.deal(decks[1], self.rules)

    def record(self, seats: FourHandSeats, results: Sequence[GinHand | GinOutcome]) -> None:
        """Count the deal played at ``seats`` (the seats :meth:`next_seats` named):
        ``results`` are its two finished hands (or their outcomes), table by table."""
        expected = self.next_seats()
        if seats != expected:
            raise GinPartyError(
                f"those seats ({seats}) are not the next deal's; the next is {expected}"
            )
        if isinstance(results, (GinHand, GinOutcome)) or len(results) != 2:
            raise GinPartyError(
                "a deal of four-hand is two hands, one per table: give both, in table order"
            )
        first, second = (
            _finished(table, result, self.rules)
            for table, result in zip(seats.tables, results, strict=True)
        )
        # At every table team 0 holds seat 0, so a hand's scores are already by team.
        a = first.scores[0] + second.scores[0]
        b = first.scores[1] + second.scores[1]
        net = (max(a - b, 0), max(b - a, 0))
        self.deals.append(FourHandDeal(seats, (first, second), (a, b), net))

    def totals(self) -> tuple[int, int]:
        """Each team's points from the deals so far, bonuses aside."""
        return (sum(d.net[0] for d in self.deals), sum(d.net[1] for d in self.deals))

    def deals_won(self) -> tuple[int, int]:
        won = [0, 0]
        for played in self.deals:
            if played.winner is not None:
                won[played.winner] += 1
        return won[0], won[1]

    def is_over(self) -> bool:
        return max(self.totals()) >= self.rules.game_target

    def result(self) -> GinGameResult:
        """The game's end, team by team: the game bonus and a line bonus for every deal
        it won to the winning team (doubled in a shutout, as its score is). Only once :meth:`is_over`."""
        if not self.is_over():
            raise GinPartyError(
                f"the game is not over: no team has {self.rules.game_target} points yet"
            )
        points = self.totals()
        winner = 0 if points[0] >= self.rules.game_target else 1
        return GinGameResult.of(winner, points, self.deals_won(), self.rules)
