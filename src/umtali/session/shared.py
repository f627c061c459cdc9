"""What the sessions of every game share (layer 5): the seats a record keeps, and the
session of a game for two, as far as such games play alike.

A game of two (such as Umtali's :class:`~umtali.games.umtali.session.PlaySession`) is a
:class:`TwoSeatSession`: it
deals hand ``i`` from :func:`~umtali.kernel.seeds.deck_for`, chooses the first dealer
with :func:`~umtali.kernel.seeds.first_dealer_for` and gives each computer decision its
own :func:`~umtali.kernel.seeds.decision_rng`, so that the arena and a saved game replay
every game the same way. The seats, the turns, the computer's moves, hints, taking a
move back and what :class:`~umtali.games.api.Session` asks besides are written once,
here; each game says only what is its own (how a move is read, allowed, played, told
and written, why a hint, which moves may be taken back). The answers are
:mod:`umtali.games.api`'s.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from umtali.games.api import (
    Accepted,
    BotError,
    BotMove,
    Deadline,
    DealDue,
    Guard,
    Hint,
    MoveT,
    Played,
    Recap,
    Refused,
)
from umtali.kernel.cards import ALL_CARDS
from umtali.kernel.english import YOU
from umtali.kernel.players import computer_name
from umtali.kernel.record import dumps
from umtali.kernel.seeds import Seed, decision_rng, deck_for, first_dealer_for

__all__ = [
    "Accepted",
    "BotError",
    "BotMove",
    "Guard",
    "Hint",
    "MoveT",
    "Recap",
    "Refused",
    "Seats",
    "SeatsError",
    "TwoSeatMaker",
    "TwoSeatSession",
    "bots_named",
    "check_deals",
]


# -- the seed scheme ----------------------------------------------------------------------------


# -- the seats a record keeps -------------------------------------------------------------------


class SeatsError(ValueError):
    """A record whose seats or deals are not as ``umtali play`` wrote them."""


_META: Final = "the saved game's seats ('meta') are not as 'umtali play' wrote them:"


@dataclass(frozen=True)
class Seats:
    """What a played game keeps in its record's ``meta`` to play it on: the seed the
    hands are dealt from, the seats of the people, and the computer's level."""

    seed: int
    humans: frozenset[int]
    bot: str

    @classmethod
    def of(cls, meta: dict[str, Any], levels: Collection[str], size: int = 2) -> Seats:
        """The seats in ``meta``, checked as strictly as a record's moves: whole numbers
        (not ``1e400``, ``3.7`` or ``true``), a list of seats from 0 to ``size - 1``, a
        level among the game's ``levels``.

        >>> Seats.of({"seed": 4, "humans": [0], "bot": "greedy"}, ("random", "greedy")).humans
        frozenset({0})
        """
        if not {"seed", "humans", "bot"} <= meta.keys():
            raise SeatsError(
                "the saved game lacks its seats or seed ('meta'): it was not saved by 'umtali play'"
            )
        seed, humans, bot = meta["seed"], meta["humans"], meta["bot"]
        if type(seed) is not int:
            raise SeatsError(f"{_META} its 'seed' must be a whole number, not {seed!r}")
        if (
            not isinstance(humans, list)
            or not humans
            or any(type(seat) is not int or not 0 <= seat < size for seat in humans)
            or len(set(humans)) != len(humans)
        ):
            which = "[0], [1] or [0, 1]" if size == 2 else f"some of 0 to {size - 1}"
            raise SeatsError(
                f"{_META} its 'humans' must list the seats at the keyboard, {which}, not {humans!r}"
            )
        if not isinstance(bot, str) or bot not in levels:
            raise SeatsError(f"{_META} its 'bot' must be one of {', '.join(levels)}, not {bot!r}")
        return cls(seed, frozenset(humans), bot)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "humans": sorted(self.humans), "bot": self.bot}

    def levels(self, handed_over: frozenset[int] = frozenset()) -> tuple[str | None, str | None]:
        """Who plays each seat at a server: ``None`` for a person, else the computer's
        level (a person's seat ``handed_over`` to the computer too).

        >>> Seats(4, frozenset({0, 1}), "greedy").levels(frozenset({1}))
        (None, 'greedy')
        """
        people = self.humans - handed_over
        return (None if 0 in people else self.bot, None if 1 in people else self.bot)

    def players(self) -> tuple[str, str]:
        """The players' names: "You" and "Computer (Casual)", or "Player 1" and
        "Player 2" in hot-seat.

        >>> Seats(4, frozenset({1}), "greedy").players()
        ('Computer (Casual)', 'You')
        """
        if len(self.humans) == 2:
            return ("Player 1", "Player 2")
        named = [computer_name(self.bot)] * 2
        named[next(iter(self.humans))] = YOU
        return (named[0], named[1])


class _Dealt(Protocol):
    """A hand as :func:`check_deals` reads it, of either game."""

    @property
    def deck(self) -> tuple[int, ...]: ...


class _Deals(Protocol):
    """A match as :func:`check_deals` reads it, of either game."""

    @property
    def first_dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[_Dealt]: ...


def check_deals(match: _Deals, seed: Seed, cards: int = ALL_CARDS) -> None:
    """Refuse (:class:`SeatsError`) a match whose deals are not the ones its seed makes:
    the first dealer and every hand's deck order (a record whose stock was reordered)."""
    edited = "the record was changed after it was saved"
    if match.first_dealer != first_dealer_for(seed):
        raise SeatsError(f"its first dealer is not the one its seed chose: {edited}")
    for index, hand in enumerate(match.hands):
        if tuple(hand.deck) != deck_for(seed, index, cards):
            raise SeatsError(f"hand {index + 1} is not dealt as its seed deals it: {edited}")


# -- answers any session gives (umtali.games.api's, named here too) -----------------------------


def bots_named(levels: tuple[str, str]) -> tuple[str, str]:
    """The players of a game between two computer levels, named after them.

    >>> bots_named(("greedy", "random"))
    ('Computer (Casual)', 'Computer (Beginner)')
    """
    return (computer_name(levels[0]), computer_name(levels[1]))


# -- the session of a game for two ------------------------------------------------------------

_V_contra = TypeVar("_V_contra", contravariant=True)
_M_co = TypeVar("_M_co", covariant=True)
_H_co = TypeVar("_H_co", covariant=True)


class _Chooser(Protocol[_V_contra, _M_co]):
    """A computer level of either game: it chooses a move from what its seat sees."""

    def choose(
        self, view: _V_contra, rng: random.Random, *, deadline: Deadline | None = None
    ) -> _M_co: ...


def _choose(
    bot: _Chooser[_V_contra, _M_co], view: _V_contra, rng: random.Random, budget: float | None
) -> _M_co:
    """``bot``'s choice, due ``budget`` seconds from now (``None``: no deadline, and the
    bot is called just as before budgets were, so its choice is the same)."""
    if budget is None:
        return bot.choose(view, rng)
    return bot.choose(view, rng, deadline=Deadline.after(budget))


class _Hand(Protocol):
    """A hand of either game as the session plays it: the moves so far (who moved, and
    the move's action), and push and pop of the game's own moves."""

    @property
    def history(self) -> Sequence[tuple[int, int]]: ...
    def push(self, move: Any) -> None: ...
    def pop(self) -> Any: ...


class _Match(Protocol[_H_co]):
    """A match (Umtali) or game (Gin Rummy) of two players, hand after hand."""

    @property
    def players(self) -> tuple[str, str]: ...
    @property
    def meta(self) -> dict[str, Any]: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def hands(self) -> Sequence[_H_co]: ...
    @property
    def current(self) -> _H_co | None: ...
    def is_over(self) -> bool: ...
    def next_dealer(self) -> int: ...
    def new_hand(self, deck: Sequence[int]) -> _H_co: ...


class _Seen(Protocol):
    """What one seat may see, as far as the session reads it: the moves it may make."""

    @property
    def legal(self) -> Sequence[object]: ...


# A bound cannot name another type variable, so a match's hands are ``Any`` to the bound;
# the session gives them back as ``HandT`` (its ``hand`` and ``deal``).
MatchT = TypeVar("MatchT", bound=_Match[Any])
HandT = TypeVar("HandT", bound=_Hand)
ViewT = TypeVar("ViewT", bound=_Seen)


class TwoSeatSession(ABC, Generic[MatchT, HandT, ViewT, MoveT]):
    """A game for two with its seats, each a person (``None``) or a computer level: what
    every game of two does alike, answering as :class:`~umtali.games.api.Session` asks. A
    game says what is its own through the methods marked abstract.

    Args:
        match: the match (or game), new or read from a record.
        seed: the seed of its deals and of the computer's decisions (see the module).
        levels: the computer's level in each seat, ``None`` for a person.
        hint_level: the level whose choice :meth:`hint` gives (the game's
            ``default_level`` when not given).
        guard: a context manager entered around every change of the match (a deal, a
            move played or taken back) and every save of it
            (:mod:`umtali.session.kept`), so that a front end can keep it whole.
    """

    game: ClassVar[str]
    """The game's registered name."""
    known_levels: ClassVar[Collection[str]]
    """The computer levels of the game, those a record's seats may name."""
    default_level: ClassVar[str]
    """The level played (and whose hints are given) unless another is asked for."""
    deck_cards: ClassVar[int] = ALL_CARDS
    """The cards a hand's deck holds, as a mask (all 52 unless the game plays fewer)."""

    def __init__(
        self,
        match: MatchT,
        seed: Seed,
        levels: tuple[str | None, str | None],
        *,
        hint_level: str | None = None,
        guard: Guard = nullcontext,
    ) -> None:
        self.match = match
        self.seed = seed
        self.levels = levels
        self.humans = frozenset(seat for seat in (0, 1) if levels[seat] is None)
        self.bots = (
            None if levels[0] is None else self._make_bot(levels[0]),
            None if levels[1] is None else self._make_bot(levels[1]),
        )
        self.hint_level = hint_level or self.default_level
        self._hint_bot: _Chooser[ViewT, MoveT] | None = None
        self.guard = guard
        self.moved_by_person = False
        """Whether a person has played a move in this session (one taken back counts):
        until then a new game is not worth keeping."""

    @classmethod
    def of_match(cls, match: MatchT, *, guard: Guard = nullcontext) -> Self:
        """The session of a match that ``umtali play`` (or ``new``) made: its seats read
        from ``meta``, its deals checked against its seed (:class:`SeatsError`)."""
        seats = Seats.of(match.meta, cls.known_levels)
        check_deals(match, seats.seed, cls.deck_cards)
        return cls(match, seats.seed, seats.levels(), guard=guard)

    # -- what the game says for itself ---------------------------------------------------------
    @abstractmethod
    def _make_bot(self, level: str) -> _Chooser[ViewT, MoveT]:
        """The computer player of ``level``, choosing the same way for the same seed."""

    @abstractmethod
    def _mover(self, hand: HandT) -> int | None:
        """The seat to move in ``hand``; ``None`` once it is over."""

    @abstractmethod
    def view(self, seat: int) -> ViewT:
        """What ``seat`` may see of the last hand dealt."""

    @abstractmethod
    def _move_text(self, hand: HandT, index: int) -> str:
        """Move ``index`` of ``hand`` in notation, as a record keeps it."""

    @abstractmethod
    def _scores(self, hand: HandT) -> tuple[int, ...] | None:
        """The scores of ``hand`` once it is over (``None`` while it is played)."""

    @abstractmethod
    def _parse(self, text: str) -> MoveT | Refused:
        """The move ``text`` writes in the game's notation, or why it is none."""

    @abstractmethod
    def _allowed(self, hand: HandT, seat: int, move: MoveT) -> MoveT | Refused:
        """``move`` as it would be played by ``seat`` now, or why it may not be."""

    @abstractmethod
    def _play(self, hand: HandT, seat: int, move: MoveT) -> str:
        """Play the allowed ``move`` of ``seat`` (inside :attr:`guard`) and tell it to him."""

    @abstractmethod
    def _why(self, view: ViewT, move: MoveT) -> str:
        """Why ``move`` is a good choice for the player of ``view``, in words for him."""

    @abstractmethod
    def hand_title(self, names: tuple[str, str], dealer: bool = True) -> str:
        """The hand being played, for a title, and who deals (``dealer``)."""

    @abstractmethod
    def tell(self, reader: int, index: int) -> str:
        """Move ``index`` of the last hand dealt, as ``reader`` saw it."""

    @abstractmethod
    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        """The other player's moves since ``reader``'s last one in hand ``hand_index``
        (the last dealt by default)."""

    @abstractmethod
    def result(self, names: Sequence[str]) -> str:
        """The sentence that ends the match: who won it."""

    @abstractmethod
    def undo_refusal(self, seat: int, *, consent: bool = False) -> str | None:
        """Why ``seat`` may not take back his last move now, or ``None`` when he may
        (``consent``: the other player agreed to it, in hot-seat)."""

    # -- where the match stands ----------------------------------------------------------------
    @property
    def size(self) -> int:
        """A game for two has two seats."""
        return 2

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, as the record keeps them."""
        return tuple(self.match.players)

    @property
    def hotseat(self) -> bool:
        """Two people, one screen."""
        return len(self.humans) == 2

    @property
    def version(self) -> int:
        """Hands dealt plus moves played: it grows with every change of the match."""
        hands = self.match.hands
        return len(hands) + sum(len(hand.history) for hand in hands)

    @property
    def hand(self) -> HandT | None:
        """The hand being played, if one is under way."""
        current: HandT | None = self.match.current
        return current

    def positions(self) -> tuple[HandT, ...]:
        """The hand under way, if any (:meth:`umtali.games.api.Session.positions`)."""
        hand = self.match.current
        return () if hand is None or hand.is_over() else (hand,)

    @property
    def hand_index(self) -> int:
        """The index of the last hand dealt, from 0 (-1 before the first deal)."""
        return len(self.match.hands) - 1

    def needs_deal(self) -> bool:
        """Whether the next step is dealing a hand."""
        return self.match.current is None and not self.match.is_over()

    def to_move(self) -> int | None:
        """The seat to move, or ``None`` between hands and once the match is over."""
        hand = self.hand
        return None if hand is None else self._mover(hand)

    def waiting(self) -> tuple[int, ...]:
        """The seat to move, alone, or none."""
        seat = self.to_move()
        return () if seat is None else (seat,)

    def computer_to_move(self) -> int | None:
        """The seat to move when the computer plays it."""
        seat = self.to_move()
        return seat if seat is not None and self.levels[seat] is not None else None

    def opponent_of(self, seat: int) -> int:
        """The other seat."""
        return 1 - seat

    def deals_due(self) -> tuple[DealDue, ...]:
        """The next hand, when one is to be dealt: the match says who deals it."""
        return (DealDue(self.match.next_dealer()),) if self.needs_deal() else ()

    def last_played(self) -> Played:
        """The move played last, as it is stored: its hand, its index in the hand, its
        text, and the hand's scores when it ended the hand."""
        hand_index = self.hand_index
        hand: HandT = self.match.hands[hand_index]
        move_index = len(hand.history) - 1
        if move_index < 0:
            raise ValueError("no move has been played in the hand dealt last")
        return Played(hand_index, move_index, self._move_text(hand, move_index), self._scores(hand))

    def is_over(self) -> bool:
        return self.match.is_over()

    def names_for(self, reader: int) -> tuple[str, str]:
        """The players' names as ``reader`` is addressed: himself as "You"."""
        names = list(self.match.players)
        names[reader] = YOU
        return (names[0], names[1])

    # -- playing -------------------------------------------------------------------------------
    def deal(self, decks: Sequence[Sequence[int]] | None = None) -> HandT:
        """Deal the next hand from the seed, or from ``decks[0]`` (a server deals from
        its own secure shuffle)."""
        if decks is not None and len(decks) != 1:
            raise ValueError(
                f"a game of two deals one hand at a time: give one deck, not {len(decks)}"
            )
        deck: Sequence[int]
        if decks is None:
            deck = deck_for(self.seed, len(self.match.hands), self.deck_cards)
        else:
            deck = decks[0]
        with self.guard():
            hand: HandT = self.match.new_hand(deck)
        return hand

    def check(self, seat: int, move: MoveT | str) -> Accepted[MoveT] | Refused:
        """Whether ``move`` (a move, or text in notation) is one ``seat`` may make now,
        without playing it (what ``why MOVE`` asks): the move as it would be played, or
        the reason not."""
        hand = self.hand
        if hand is None:
            return Refused("no hand is being played")
        if seat != self._mover(hand):
            return Refused("it is not your turn")
        if isinstance(move, str):
            parsed = self._parse(move)
            if isinstance(parsed, Refused):
                return parsed
            move = parsed
        played = self._allowed(hand, seat, move)
        if isinstance(played, Refused):
            return played
        return Accepted(played, f"{played.text()} is allowed now.")

    def submit(self, seat: int, move: MoveT | str) -> Accepted[MoveT] | Refused:
        """Play ``move`` (a move, or text in notation) for ``seat``; the reply says what
        was done, or why nothing was (the reason, addressed to him)."""
        reply = self.check(seat, move)
        if isinstance(reply, Refused):
            return reply
        hand = self.hand
        assert hand is not None
        sentence = self._play(hand, seat, reply.move)
        self.moved_by_person = True
        return Accepted(reply.move, sentence)

    def follow(self, hand_index: int, move: str) -> Accepted[MoveT] | Refused:
        """Play ``move`` for the seat to move in hand ``hand_index``, which must be the
        hand under way (:meth:`umtali.games.api.Session.follow`). Unlike :meth:`submit`
        it does not count as a person's move here: another process played it."""
        if hand_index != self.hand_index:
            return Refused(f"hand {hand_index + 1} is not the hand under way")
        seat = self.to_move()
        if seat is None:
            return Refused(f"hand {hand_index + 1} is over")
        reply = self.check(seat, move)
        if isinstance(reply, Refused):
            return reply
        hand = self.hand
        assert hand is not None
        return Accepted(reply.move, self._play(hand, seat, reply.move))

    def bot_move(self, *, budget: float | None = None) -> BotMove[MoveT]:
        """Let the computer in the seat to move choose and play one move, from its view
        and its decision's own RNG (:func:`decision_rng`). :class:`BotError` if it fails
        or breaks the rules.

        ``budget``: the seconds it may think (a :class:`Deadline` that many seconds
        from now; a bot that searches stops there with the best it has found). With
        ``None`` (the terminal, the arena, research) it thinks as long as its level
        takes, so the same seed gives the same move on any machine."""
        hand = self.hand
        if hand is None:
            raise ValueError("no hand is being played: deal one first")
        seat = self._mover(hand)
        assert seat is not None
        bot = self.bots[seat]
        if bot is None:
            raise ValueError(f"seat {seat} is a person's: the computer does not move for him")
        index = len(hand.history)
        view = self.view(seat)
        rng = decision_rng(self.seed, self.hand_index, index)
        start = time.perf_counter()
        try:
            move = _choose(bot, view, rng, budget)
        except Exception as e:
            what = f"the bot failed: {type(e).__name__}: {e}"
            raise BotError(seat, self.hand_index, index, what) from e
        seconds = time.perf_counter() - start
        if move not in view.legal:
            what = f"the bot chose {move!r}, which is not a legal move"
            raise BotError(seat, self.hand_index, index, what)
        with self.guard():
            hand.push(move)
        return BotMove(seat, move, index, seconds)

    def step(self) -> BotMove[MoveT] | None:
        """One step of a game between computers: a deal (``None``) or a computer's move."""
        if self.needs_deal():
            self.deal()
            return None
        return self.bot_move()

    def play_out(self) -> list[BotMove[MoveT]]:
        """Play the match to its end (every seat a computer's); the moves played."""
        moves = []
        while not self.match.is_over():
            step = self.step()
            if step is not None:
                moves.append(step)
        return moves

    def level(self) -> str:
        """The computer's level: what a rematch plays against. Between two people it is
        the level their record keeps (the one a server hands an away player's seat to),
        else the game's default."""
        playing = next((level for level in self.levels if level), None)
        if playing is not None:
            return playing
        kept = self.match.meta.get("bot")
        return kept if isinstance(kept, str) and kept in self.known_levels else self.default_level

    def hint(self, seat: int, *, budget: float | None = None) -> Hint[MoveT] | Refused:
        """The move the hint level (the default, whoever the opponent is) would make
        for ``seat`` now, and why; refused when it is not his move. Its RNG is its own (a
        negative move index), so asking changes nothing the computer does later.
        ``budget`` as for :meth:`bot_move`."""
        hand = self.hand
        if hand is None or self._mover(hand) != seat:
            return Refused("a hint is given to the player to move, and it is not your turn")
        if self._hint_bot is None:
            self._hint_bot = self._make_bot(self.hint_level)
        view = self.view(seat)
        rng = decision_rng(self.seed, self.hand_index, -1 - len(hand.history))
        move = _choose(self._hint_bot, view, rng, budget)
        return Hint(move, self.hint_level, self._why(view, move))

    def undo(self, seat: int, *, consent: bool = False) -> Accepted[MoveT] | Refused:
        """Take back ``seat``'s last move if :meth:`undo_refusal` allows (``consent``:
        the other player agreed, in hot-seat); the move is gone from the record."""
        refusal = self.undo_refusal(seat, consent=consent)
        if refusal is not None:
            return Refused(refusal)
        hand = self.hand
        assert hand is not None
        with self.guard():
            move: MoveT = hand.pop()
        return Accepted(move, f"Taken back: {move.text()}.")

    # -- the record -----------------------------------------------------------------------------
    def record(self) -> str:
        """The record of the match so far, as JSON text (:func:`umtali.kernel.record.dumps`)."""
        return dumps(self.match)


SessionT = TypeVar("SessionT", bound=TwoSeatSession[Any, Any, Any, Any])


class TwoSeatMaker(Generic[SessionT]):
    """What the session makers of the games of two share (the ``of_record``, ``stored``
    and ``persons`` of :class:`umtali.games.api.SessionMaker`): a game's maker subclasses
    it, names its session class in ``session``, and writes ``new`` and ``between_bots``,
    which read its own variants and lengths."""

    session: type[SessionT]

    def of_record(self, match: Any, *, guard: Guard | None = None) -> SessionT:
        return self.session.of_match(match, guard=guard or nullcontext)

    def stored(
        self,
        match: Any,
        *,
        handed_over: frozenset[int] = frozenset(),
        hint_level: str | None = None,
    ) -> SessionT:
        """A game a server keeps. Its decks came from the server's shuffle, not from the
        seed, so it is built as it stands (``of_record`` would check them against the
        seed); the seed still seeds the computer's decisions."""
        levels = self.session.known_levels
        seats = Seats.of(match.meta, levels)
        hints = hint_level if hint_level in levels else None
        return self.session(match, seats.seed, seats.levels(handed_over), hint_level=hints)

    def persons(self, match: Any) -> frozenset[int]:
        return Seats.of(match.meta, self.session.known_levels).humans
