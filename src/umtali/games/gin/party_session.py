"""Three- and four-hand Gin Rummy at a table (layer 5): seats for people and computers,
the hands dealt from one seed, and what the players are told between the hands.

:class:`GinPartySession` drives a :class:`~umtali.games.gin.party.ThreeHandGame` or a
:class:`~umtali.games.gin.party.FourHandGame`. Each hand of it is an ordinary two-player hand,
played through its own :class:`~umtali.games.gin.session.GinPlaySession` (a
:class:`PartyHand`): so a front end plays it exactly as it plays a game of two, and
each seat is shown only its own :class:`~umtali.games.gin.view.GinView`. The computer fills
every seat no person takes.

The seed scheme is the two-player game's, one level down, as the arena's games are
seeded ``"SEED/DEAL"``: party hand ``k`` (from 0, counting both tables of a four-hand
deal) is hand 0 of the session seeded ``"SEED/k"``, so its deck is
:func:`~umtali.kernel.seeds.deck_for` ``("SEED/k", 0)`` and its computer decisions
:func:`~umtali.kernel.seeds.decision_rng` ``("SEED/k", 0, move)``. The draw for places
of three-hand comes from ``"SEED/places"``; the team that deals first in four-hand
from :func:`~umtali.kernel.seeds.first_dealer_for`.

The game is kept as a :class:`~umtali.games.gin.match.GinPartyMatch` (``match``), which
:mod:`umtali.kernel.record` writes and reads, the seats and the seed in its ``meta`` as for a
game of two; :meth:`GinPartySession.of_match` plays on a game read back, its deals and
its draw for places checked against its seed.

>>> party = GinPartySession.new(players=3, seed=4, humans={0}, bot="random")
>>> party.names
('You', 'Computer 2 (Beginner)', 'Computer 3 (Beginner)')
>>> party.draw_sentence()
'Computer 2 (Beginner) drew 10♦ and plays alone first; you drew A♦ and sit out; Computer 3 (Beginner) drew A♣ and plays for the team.'
>>> hands = party.deal()
>>> party.seating(hands)
'Hand 1: Computer 2 (Beginner) alone against Computer 3 (Beginner), Computer 3 (Beginner) to deal; you sit out.'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Final

from umtali.games.api import Accepted, BotMove, DealDue, Hint, Played, Recap, Refused
from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.match import GinPartyMatch, PartyGame, SeatedHand, tables_of
from umtali.games.gin.party import (
    TEAMS,
    FourHandGame,
    FourHandSeats,
    Table,
    ThreeHandGame,
    ThreeHandSeats,
    draw_order,
)
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.session import DEFAULT_GIN_BOT, GinPlaySession
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import card_name
from umtali.kernel.english import YOU, object_name, subject
from umtali.kernel.players import computer_name
from umtali.kernel.record import dumps
from umtali.kernel.seeds import Seed, deck_for, first_dealer_for
from umtali.session.shared import Guard, Seats, SeatsError

__all__ = [
    "PARTY_SIZES",
    "GinPartySession",
    "PartyError",
    "PartyHand",
    "deal_sentence",
    "draw_sentence",
    "result_sentence",
    "seating_sentence",
    "seats_of",
    "teams_sentence",
    "totals_sentence",
]

PARTY_SIZES: Final = (3, 4)
"""The sizes of a party game: three-hand and four-hand."""


class PartyError(ValueError):
    """A party game asked for that cannot be played; the message says what would do."""


@dataclass(frozen=True)
class PartyHand:
    """One hand of a party game: its ``table`` (which players sit at the hand's seats 0
    and 1, and who deals), its ``number`` in the party game (from 1; the two tables of
    a four-hand deal have numbers of their own), and the two-player ``session`` it is
    played through (its seats named after the party's players)."""

    table: Table
    number: int
    session: GinPlaySession

    def seat_of(self, player: int) -> int | None:
        """The hand's seat of the party's ``player``, ``None`` when he is not at it."""
        return self.table.players.index(player) if player in self.table.players else None


def _new_game(players: int, seed: Seed, rules: GinRules) -> PartyGame:
    """A new party game of ``players``, its places drawn from ``seed``."""
    if players == 3:
        return ThreeHandGame.drawn_from(random.Random(f"{seed}/places"), rules)
    return FourHandGame(rules, first_dealers=first_dealer_for(seed))


def _hand_seed(seed: Seed, number: int) -> str:
    """The seed of party hand ``number`` (from 1): hand 0 of the session ``"SEED/k"``."""
    return f"{seed}/{number - 1}"


def _line_winners(rules: GinRules, winners: str, plural: bool) -> str:
    """Whose hands won earn the line bonus, as the end of the game says it."""
    if rules.line_bonus_to_all:
        return "won"
    return "you won" if winners == YOU else f"{'they' if plural else 'he'} won"


def seats_of(meta: dict[str, Any], size: int) -> tuple[int, frozenset[int], str]:
    """The seed, the people's seats and the computer's level a party game keeps in its
    record's ``meta``, checked as the two-player game's are
    (:meth:`~umtali.session.shared.Seats.of`)."""
    seats = Seats.of(meta, GIN_BOTS, size)
    return seats.seed, seats.humans, seats.bot


def _check_deals(match: GinPartyMatch, seed: int) -> None:
    """Refuse (:class:`SeatsError`) a game whose draw for places, first dealing team or
    decks are not the ones its seed makes (a record whose stock was reordered)."""
    edited = "the record was changed after it was saved"
    fresh = _new_game(match.size, seed, match.rules)
    if isinstance(fresh, ThreeHandGame):
        assert isinstance(match.game, ThreeHandGame)
        if match.game.drawn != fresh.drawn:
            raise SeatsError(f"its draw for places is not the one its seed made: {edited}")
    else:
        assert isinstance(match.game, FourHandGame)
        if match.game.first_dealers != fresh.first_dealers:
            raise SeatsError(f"its first dealing team is not the one its seed chose: {edited}")
    for seated in match.hands:
        if seated.hand.deck != deck_for(_hand_seed(seed, seated.number), 0):
            raise SeatsError(f"hand {seated.number} is not dealt as its seed deals it: {edited}")


class GinPartySession:
    """A game of three- or four-hand Gin Rummy with its seats: each player a person
    (``None``) or a computer level of :data:`~umtali.games.gin.bots.GIN_BOTS`.

    Args:
        match: the game with its players' names, new or read from a record.
        seed: the seed of every hand's deck and of the computer's decisions.
        levels: the computer's level of each player, ``None`` for a person.
        guard: a context manager entered around every change of a hand.
        hint_level: the level whose choice a hint gives, at every hand.
    """

    def __init__(
        self,
        match: GinPartyMatch,
        seed: Seed,
        levels: tuple[str | None, ...],
        *,
        guard: Guard = nullcontext,
        hint_level: str = DEFAULT_GIN_BOT,
    ) -> None:
        if len(levels) != match.size:
            raise PartyError(f"a game of {match.size} players takes {match.size} seats")
        self.match = match
        self.seed = seed
        self.levels = levels
        self.guard = guard
        self.hint_level = hint_level
        self.humans = frozenset(who for who, level in enumerate(levels) if level is None)
        self.hands: list[PartyHand] = [self._at_table(seated) for seated in match.hands]
        """Every hand dealt, in order; the last one or two may be under way."""
        self._dealt: tuple[PartyHand, ...] = self._person_first(
            self.hands[len(self.hands) - len(match.under_way()) :]
        )
        self._last: PartyHand | None = None
        """The hand the last move through :meth:`submit` or :meth:`bot_move` was played at."""

    @classmethod
    def new(
        cls,
        *,
        players: int,
        seed: int,
        humans: Iterable[int],
        bot: str = DEFAULT_GIN_BOT,
        rules: GinRules = GIN,
        guard: Guard = nullcontext,
    ) -> GinPartySession:
        """A new game of ``players`` (3 or 4) against the computer's level ``bot``, the
        people at the seats ``humans``, its seats kept in the record's ``meta``. One
        person is "You" and each computer "Computer N (Casual)" (its level's title); with
        several people every player is "Player N".

        >>> GinPartySession.new(players=4, seed=1, humans={0, 1, 2, 3}).names
        ('Player 1', 'Player 2', 'Player 3', 'Player 4')
        """
        if players not in PARTY_SIZES:
            raise PartyError(
                f"a party game of Gin Rummy has 3 or 4 players, not {players}; two play"
                " the ordinary game"
            )
        if bot not in GIN_BOTS:
            raise PartyError(
                f"unknown Gin Rummy bot level {bot!r}; choose from {', '.join(GIN_BOTS)}"
            )
        people = frozenset(humans)
        if not people or not people <= set(range(players)):
            raise PartyError(
                f"the people sit at some of the seats 0 to {players - 1}, not {sorted(people)}"
            )
        levels = tuple(None if who in people else bot for who in range(players))
        names = tuple(
            (YOU if len(people) == 1 else f"Player {who + 1}")
            if who in people
            else computer_name(bot, who + 1)
            for who in range(players)
        )
        meta = {"seed": seed, "humans": sorted(people), "bot": bot}
        match = GinPartyMatch(_new_game(players, seed, rules), players=names, meta=meta)
        return cls(match, seed, levels, guard=guard)

    @classmethod
    def of_match(cls, match: GinPartyMatch, *, guard: Guard = nullcontext) -> GinPartySession:
        """The session of a game :meth:`new` made, read back from its record: its seats
        from ``meta``, its draw and its deals checked against its seed
        (:class:`~umtali.session.shared.SeatsError`)."""
        seed, humans, bot = seats_of(match.meta, match.size)
        _check_deals(match, seed)
        levels = tuple(None if who in humans else bot for who in range(match.size))
        return cls(match, seed, levels, guard=guard)

    @classmethod
    def of_stored(
        cls,
        match: GinPartyMatch,
        *,
        hint_level: str = DEFAULT_GIN_BOT,
        handed_over: frozenset[int] = frozenset(),
    ) -> GinPartySession:
        """The session of a game whose hands were dealt from a secure shuffle rather
        than from its seed (a server's): its seats from ``meta``, checked as
        :meth:`of_match` checks them, its decks taken as they are. The seed still
        seeds the computer's decisions. The people's seats in ``handed_over`` are
        played by the computer (their players are away).

        >>> party = GinPartySession.new(players=3, seed=5, humans={1}, bot="random")
        >>> _ = party.deal([list(range(52))])
        >>> again = GinPartySession.of_stored(party.match, hint_level="greedy")
        >>> again.levels, again.needs_deal(), again.under_way()[0].session.hint_level
        (('random', None, 'random'), False, 'greedy')
        """
        seed, humans, bot = seats_of(match.meta, match.size)
        people = humans - handed_over
        levels = tuple(None if who in people else bot for who in range(match.size))
        return cls(match, seed, levels, hint_level=hint_level)

    def rematch(self, seed: int, *, guard: Guard | None = None) -> GinPartySession:
        """A new game with the same seats, level and rules, dealt from ``seed`` (play
        again).

        >>> first = GinPartySession.new(players=3, seed=3, humans={0}, bot="random")
        >>> again = first.rematch(4)
        >>> again.levels, again.seed, again.names == first.names
        ((None, 'random', 'random'), 4, True)
        """
        level = next((level for level in self.levels if level), DEFAULT_GIN_BOT)
        return GinPartySession.new(
            players=self.size,
            seed=seed,
            humans=self.humans,
            bot=level,
            rules=self.rules,
            guard=self.guard if guard is None else guard,
        )

    @classmethod
    def between_bots(
        cls,
        levels: tuple[str, ...],
        seed: Seed,
        *,
        rules: GinRules = GIN,
        players: Sequence[str] | None = None,
    ) -> GinPartySession:
        """A game between computer ``levels``, one per player (3 or 4 of them), named
        "Computer N (Casual)"; the seats and seed scheme of :meth:`new`.

        >>> party = GinPartySession.between_bots(("greedy", "random", "expert"), 3)
        >>> party.names[1], party.humans
        ('Computer 2 (Beginner)', frozenset())
        """
        if len(levels) not in PARTY_SIZES:
            raise PartyError(
                f"a party game of Gin Rummy has 3 or 4 players: give 3 or 4 levels, not"
                f" {len(levels)}"
            )
        for level in levels:
            if level not in GIN_BOTS:
                raise PartyError(
                    f"unknown Gin Rummy bot level {level!r}; choose from {', '.join(GIN_BOTS)}"
                )
        names = (
            tuple(players)
            if players is not None
            else tuple(computer_name(level, who + 1) for who, level in enumerate(levels))
        )
        match = GinPartyMatch(_new_game(len(levels), seed, rules), players=names)
        return cls(match, seed, levels)

    # -- where the game stands -----------------------------------------------------------
    game: Final = "gin"
    """The game's registered name: a game of three or four is a game of Gin Rummy."""

    @property
    def party_game(self) -> PartyGame:
        """The three- or four-hand game: its places, its deals counted, its totals."""
        return self.match.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def size(self) -> int:
        return self.match.size

    @property
    def rules(self) -> GinRules:
        return self.party_game.rules

    @property
    def hotseat(self) -> bool:
        """Several people at one screen: it is hidden between them."""
        return len(self.humans) > 1

    @property
    def moved_by_person(self) -> bool:
        """Whether a person has played a move: until then a new game is not worth keeping."""
        return any(hand.session.moved_by_person for hand in self.hands)

    @property
    def version(self) -> int:
        """Hands dealt plus moves played, over every hand: it grows with every change, as
        a game of two's version does."""
        return sum(1 + len(hand.session.match.hands[0].history) for hand in self.hands)

    def is_over(self) -> bool:
        self._settle()
        return self.party_game.is_over()

    def needs_deal(self) -> bool:
        """Whether a hand is to be dealt: none is under way, or a four-hand deal has
        only its first table's hand (a server stopped between storing the two)."""
        self._settle()
        return not self.party_game.is_over() and not self.match.deal_complete()

    def deals_due(self) -> tuple[DealDue, ...]:
        """The hands :meth:`deal` deals next, each with its dealer and its players."""
        if not self.needs_deal():
            return ()
        return tuple(DealDue(table.dealer, table.players) for table in self.tables_to_deal())

    def _settle(self) -> None:
        """Count the deal once all its hands are over: the totals, the next seats and the
        end of the game follow from the hands played, so counting stores nothing."""
        if self._dealt and self.needs_count():
            self.count()

    def needs_count(self) -> bool:
        """Whether every hand of the deal is dealt and over, so it is to be counted."""
        return self.match.deal_complete() and all(
            hand.session.match.hands[0].is_over() for hand in self._dealt
        )

    def tables_to_deal(self) -> tuple[Table, ...]:
        """The tables of the deal under way (or the next) not dealt yet, in the order
        :meth:`deal` deals them.

        >>> party = GinPartySession.new(players=4, seed=4, humans={0}, bot="random")
        >>> party.tables_to_deal()
        (Table(players=(0, 1), dealer=0), Table(players=(2, 3), dealer=2))
        """
        if self.is_over():
            return ()
        return tables_of(self.match.seats())[len(self.match.under_way()) :]

    def under_way(self) -> tuple[PartyHand, ...]:
        """The hands dealt and not yet counted: one in three-hand, two in four-hand,
        those with a person at them first."""
        return self._dealt

    def positions(self) -> tuple[GinHand, ...]:
        """The hand under way at each table (:meth:`umtali.games.api.Session.positions`)."""
        hands = (party.session.match.current for party in self._dealt)
        return tuple(hand for hand in hands if hand is not None and not hand.is_over())

    # -- the seats' moves, as every game's session answers them ---------------------------
    def waiting(self) -> tuple[int, ...]:
        """The players whose move is awaited: one at each table with a hand under way."""
        self._settle()
        return tuple(
            hand.table.players[seat]
            for hand in self._dealt
            if (seat := hand.session.to_move()) is not None
        )

    def to_move(self) -> int | None:
        """The first player of :meth:`waiting`, or ``None``."""
        waiting = self.waiting()
        return waiting[0] if waiting else None

    def computer_to_move(self) -> int | None:
        """A player the computer plays whose move is awaited, if any."""
        return next((who for who in self.waiting() if self.levels[who] is not None), None)

    def seat_hand(self, player: int) -> PartyHand | None:
        """The hand ``player`` plays now, else the last one he played (he sits out), else
        ``None`` (he has sat out every hand so far)."""
        return next((hand for hand in reversed(self.hands) if player in hand.table.players), None)

    def _seated(self, player: int) -> tuple[PartyHand, int]:
        hand = self.seat_hand(player)
        if hand is None:
            raise ValueError(f"player {player + 1} has not played a hand yet")
        seat = hand.seat_of(player)
        assert seat is not None
        return hand, seat

    def view(self, seat: int) -> GinView:
        """What player ``seat`` may see of the hand he plays, or last played."""
        hand, at = self._seated(seat)
        return hand.session.view(at)

    def names_for(self, reader: int) -> tuple[str, ...]:
        """The party's names as ``reader`` is addressed: himself as "You"."""
        return tuple(YOU if who == reader else name for who, name in enumerate(self.names))

    def opponent_of(self, seat: int) -> int | None:
        """The player ``seat`` plays against at the hand he plays (or last played)."""
        hand = self.seat_hand(seat)
        if hand is None:
            return None
        return hand.table.players[1 - hand.table.players.index(seat)]

    def playing(self, player: int) -> tuple[PartyHand, int] | Refused:
        """The hand under way at which ``player`` sits, with his seat in it; refused
        when he sits this hand out, or his hand is over and the other table's is not
        (four-hand)."""
        for hand in self.under_way():
            if player in hand.table.players:
                if hand.session.match.hands[0].is_over():
                    return Refused(
                        "your hand is over: the next deal comes once the other table's hand"
                        " is over too"
                    )
                seat = hand.seat_of(player)
                assert seat is not None
                return hand, seat
        if self.is_over():
            return Refused("the game is over: there is nothing left to play")
        return Refused("you sit out this hand: you play again once it is over")

    def check(self, seat: int, move: GinMove | str) -> Accepted[GinMove] | Refused:
        """Whether ``move`` would be allowed for player ``seat`` now, at his hand."""
        playing = self.playing(seat)
        if isinstance(playing, Refused):
            return playing
        hand, at = playing
        return hand.session.check(at, move)

    def submit(self, seat: int, move: GinMove | str) -> Accepted[GinMove] | Refused:
        """Play ``move`` for player ``seat`` at the hand he plays."""
        playing = self.playing(seat)
        if isinstance(playing, Refused):
            return playing
        hand, at = playing
        reply = hand.session.submit(at, move)
        if not isinstance(reply, Refused):
            self._last = hand
        return reply

    def follow(self, hand_index: int, move: str) -> Accepted[GinMove] | Refused:
        """Play ``move`` for the player to move at the game's hand ``hand_index``, one of
        the hands under way (:meth:`umtali.games.api.Session.follow`)."""
        hand = next((hand for hand in self._dealt if hand.number - 1 == hand_index), None)
        if hand is None:
            return Refused(f"hand {hand_index + 1} is not under way")
        reply = hand.session.follow(0, move)
        if not isinstance(reply, Refused):
            self._last = hand
        return reply

    def bot_move(self, *, budget: float | None = None) -> BotMove[GinMove]:
        """Let the computer move for the player of :meth:`computer_to_move`, within
        ``budget`` seconds if given (:meth:`GinPlaySession.bot_move`)."""
        player = self.computer_to_move()
        if player is None:
            raise ValueError("no player the computer plays is to move")
        hand, _seat = self._seated(player)
        moved = hand.session.bot_move(budget=budget)
        self._last = hand
        return BotMove(player, moved.move, moved.index, moved.seconds)

    def last_played(self) -> Played:
        """The move played last (through :meth:`submit` or :meth:`bot_move`), as it is
        stored: party hand ``k`` is the game's hand ``k - 1``."""
        hand = self._last
        if hand is None:
            raise ValueError("no move has been played through this session")
        played = hand.session.last_played()
        return Played(hand.number - 1, played.move_index, played.text, played.scores)

    def hint(self, seat: int, *, budget: float | None = None) -> Hint[GinMove] | Refused:
        """The hint for player ``seat`` at the hand he plays (``budget`` as for
        :meth:`bot_move`)."""
        playing = self.playing(seat)
        if isinstance(playing, Refused):
            return playing
        hand, at = playing
        return hand.session.hint(at, budget=budget)

    def undo(self, seat: int, *, consent: bool = False) -> Accepted[GinMove] | Refused:
        """Take back player ``seat``'s last move at his hand, where Gin Rummy's rule of
        undo allows."""
        playing = self.playing(seat)
        if isinstance(playing, Refused):
            return playing
        hand, at = playing
        return hand.session.undo(at, consent=consent)

    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        """The other player's moves since ``reader``'s last one, at the hand he plays
        (or last played), or at the game's hand ``hand_index``."""
        if hand_index == -1:
            hand, at = self._seated(reader)
        else:
            hand = self.hands[hand_index]
            found = hand.seat_of(reader)
            if found is None:
                raise ValueError(f"player {reader + 1} did not play hand {hand_index + 1}")
            at = found
        return hand.session.recap(at)

    def result(self, names: Sequence[str]) -> str:
        """The end of the game (:func:`result_sentence`), the players called ``names``."""
        return result_sentence(self.party_game, names)

    def record(self) -> str:
        """The record of the game so far, as JSON text (:func:`umtali.kernel.record.dumps`)."""
        return dumps(self.match)

    # -- playing ----------------------------------------------------------------------
    def deal(self, decks: Sequence[Sequence[int]] | None = None) -> tuple[PartyHand, ...]:
        """Deal the next hand (three-hand) or the next deal's two hands (four-hand), each
        at its table, and give back every hand of the deal; the hands with a person at
        them come first, so that a person's hand is played before the computers' hand
        he will only hear the end of. A deal begun (its first table dealt) is finished.

        ``decks``: one for each of :meth:`tables_to_deal`, in order; by default each
        comes from the seed (a server deals from a secure shuffle instead, and keeps
        the decks itself).
        """
        tables = self.tables_to_deal()
        if not tables:
            raise PartyError("the hands dealt are not over yet: play them and count them first")
        if decks is not None and len(decks) != len(tables):
            raise PartyError(
                f"{len(tables)} hand(s) are to be dealt, so give {len(tables)} deck(s), not"
                f" {len(decks)}"
            )
        dealt = []
        with self.guard():
            for table in range(len(tables)):
                number = len(self.match.hands) + 1
                deck = deck_for(_hand_seed(self.seed, number), 0) if decks is None else decks[table]
                dealt.append(self._at_table(self.match.deal_next(deck)))
        self.hands.extend(dealt)
        self._dealt = self._person_first([*self._dealt, *dealt])
        return self._dealt

    def _at_table(self, seated: SeatedHand) -> PartyHand:
        """The hand ``seated`` with the session it is played through."""
        first, second = seated.table.players
        session = GinPlaySession(
            seated.match,
            _hand_seed(self.seed, seated.number),
            (self.levels[first], self.levels[second]),
            hint_level=self.hint_level,
            guard=self.guard,
        )
        return PartyHand(seated.table, seated.number, session)

    def _person_first(self, hands: Sequence[PartyHand]) -> tuple[PartyHand, ...]:
        return tuple(sorted(hands, key=lambda hand: not self._has_person(hand)))

    def _has_person(self, hand: PartyHand) -> bool:
        return any(player in self.humans for player in hand.table.players)

    def play_out(self, hand: PartyHand) -> None:
        """Let the computers play ``hand`` to its end (every seat at it a computer's)."""
        while hand.session.to_move() is not None:
            hand.session.bot_move()

    def count(self) -> None:
        """Count the hands dealt, once all are over, and seat the next (done by itself
        when the session is next asked where it stands: a deal counted already is not
        counted again)."""
        if not self._dealt:
            if self.match.hands:
                return  # counted already
            raise PartyError("no hand has been dealt to count")
        if any(not hand.session.match.hands[0].is_over() for hand in self._dealt):
            raise PartyError("a hand dealt is not over yet: play it to its end first")
        with self.guard():
            self.match.count()
        self._dealt = ()

    # -- what the players are told ----------------------------------------------------
    def draw_sentence(self) -> str | None:
        """Three-hand: the draw for places (:func:`draw_sentence`)."""
        return draw_sentence(self.party_game, self.names)

    def teams_sentence(self) -> str | None:
        """Four-hand: who plays with whom (:func:`teams_sentence`)."""
        return teams_sentence(self.party_game, self.names)

    def seating(self, hands: tuple[PartyHand, ...]) -> str:
        """Who plays whom in the hands just dealt, who deals, and who sits out.

        >>> party = GinPartySession.new(players=4, seed=4, humans={0}, bot="random")
        >>> print(party.seating(party.deal()))
        Deal 1: you against Computer 2 (Beginner), you to deal; Computer 3 (Beginner) against Computer 4 (Beginner), Computer 3 (Beginner) to deal.
        """
        return seating_sentence(self.match.seats(), self.names)

    def totals_sentence(self) -> str:
        """The running totals (:func:`totals_sentence`).

        >>> GinPartySession.new(players=3, seed=4, humans={0}).totals_sentence()
        'Totals: you 0, Computer 2 (Expert) 0, Computer 3 (Expert) 0 (to 100).'
        """
        return totals_sentence(self.party_game, self.names)

    def deal_sentence(self) -> str | None:
        """Four-hand: what the deal just counted scored (:func:`deal_sentence`)."""
        return deal_sentence(self.party_game, self.names)

    def result_sentence(self) -> str:
        """The end of the game (:func:`result_sentence`)."""
        return result_sentence(self.party_game, self.names)


# -- the words, for a game under way or replayed ---------------------------------------------


def draw_sentence(game: PartyGame, names: Sequence[str]) -> str | None:
    """Three-hand: the draw for places, who plays alone first and who sits out;
    ``None`` in four-hand, where the places are the teams'."""
    if not isinstance(game, ThreeHandGame):
        return None
    lone, on_deck, partner = draw_order(game.drawn)
    drawn = game.drawn
    return (
        f"{subject(names[lone], 'drew')} {card_name(drawn[lone])} and"
        f" {_verb(names[lone], 'plays')} alone first;"
        f" {subject(names[on_deck], 'drew', capital=False)}"
        f" {card_name(drawn[on_deck])} and {_verb(names[on_deck], 'sits')} out;"
        f" {subject(names[partner], 'drew', capital=False)}"
        f" {card_name(drawn[partner])} and {_verb(names[partner], 'plays')} for the team."
    )


def _verb(name: str, verb: str) -> str:
    """``verb`` as the player ``name`` takes it ("plays", or "play" for "You")."""
    return subject(YOU, verb).split(" ", 1)[1] if name == YOU else verb


def teams_sentence(game: PartyGame, names: Sequence[str]) -> str | None:
    """Four-hand: who plays with whom; ``None`` in three-hand."""
    if isinstance(game, ThreeHandGame):
        return None
    first, second = _team_name(names, 0), _team_name(names, 1, capital=False)
    return f"{first} play as a team against {second}; partners change opponents every deal."


def _team_name(names: Sequence[str], team: int, *, capital: bool = True) -> str:
    a, b = (names[player] for player in TEAMS[team])
    if b == YOU:
        a, b = b, a
    return f"{a if capital else object_name(a)} and {b}"


def seating_sentence(seats: ThreeHandSeats | FourHandSeats, names: Sequence[str]) -> str:
    """Who plays whom in the hand (three-hand) or deal (four-hand) at ``seats``, who
    deals, and who sits out."""
    if isinstance(seats, ThreeHandSeats):
        return (
            f"Hand {seats.hand}: {_pairing(seats.table, names, alone=True)};"
            f" {subject(names[seats.on_deck], 'sits', capital=False)} out."
        )
    tables = "; ".join(_pairing(table, names) for table in seats.tables)
    return f"Deal {seats.deal}: {tables}."


def _pairing(table: Table, names: Sequence[str], *, alone: bool = False) -> str:
    first, second = (object_name(names[player]) for player in table.players)
    dealer = object_name(names[table.dealer])
    return f"{first}{' alone' if alone else ''} against {second}, {dealer} to deal"


def totals_sentence(game: PartyGame, names: Sequence[str]) -> str:
    """The running totals: each player's in three-hand, each team's in four-hand,
    against the target."""
    target = game.rules.game_target
    if isinstance(game, ThreeHandGame):
        each = ", ".join(
            f"{object_name(name)} {points}"
            for name, points in zip(names, game.totals(), strict=True)
        )
        return f"Totals: {each} (to {target})."
    a, b = game.totals()
    return (
        f"Team totals: {_team_name(names, 0, capital=False)} {a},"
        f" {_team_name(names, 1, capital=False)} {b} (to {target})."
    )


def deal_sentence(game: PartyGame, names: Sequence[str]) -> str | None:
    """Four-hand: what the last deal counted scored (the difference of the teams'
    points, to the team ahead); ``None`` in three-hand or before a deal is counted."""
    if not isinstance(game, FourHandGame) or not game.deals:
        return None
    last = game.deals[-1]
    a, b = last.points
    first, second = _team_name(names, 0, capital=False), _team_name(names, 1, capital=False)
    made = f"In deal {last.seats.deal} {first} made {a} and {second} {b}"
    if last.winner is None:
        return f"{made}: level, so nobody scores."
    winner = _team_name(names, last.winner)
    return f"{made}. {winner} score the difference, {last.net[last.winner]}."


def result_sentence(game: PartyGame, names: Sequence[str]) -> str:
    """The end of the game: who won, and the final scores with the line bonuses, the
    game bonus and any shutout; a sentence while it is not over says so."""
    if not game.is_over():
        return "The game is not over."
    if isinstance(game, ThreeHandGame):
        three = game.result()
        winners = " and ".join(names[who] for who in three.winners)
        plural = len(three.winners) > 1 or winners == YOU
        finals = ", ".join(
            f"{object_name(name)} {final}" for name, final in zip(names, three.final, strict=True)
        )
        bonus, shutout = three.game_bonus, three.shutout
    else:
        four = game.result()
        winners, plural = _team_name(names, four.winner), True
        finals = (
            f"{_team_name(names, 0, capital=False)} {four.final[0]},"
            f" {_team_name(names, 1, capital=False)} {four.final[1]}"
        )
        bonus, shutout = four.game_bonus, four.shutout
    doubled = (
        " It is a shutout: the winners' scores, hand points and line bonuses, count twice."
        if shutout
        else ""
    )
    return (
        f"{winners} {'win' if plural else 'wins'} the game. With"
        f" {game.rules.line_bonus} for each hand {_line_winners(game.rules, winners, plural)}"
        f" and {bonus} for the game: {finals}."
        f"{doubled}"
    )
