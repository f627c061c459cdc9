"""Toy's rules: twelve cards, three in hand, beat the card on the pile.

The deck is the ace to six of clubs and of hearts. Each player is dealt three cards,
alternately, the non-dealer first; the other six are the stock. The non-dealer plays
first; the players take turns. A move plays one card from the hand onto the pile: a
card higher than the card it covers scores a point (a heart two, in the ``hearts``
variant), and the player then draws the top card of the stock, if any is left. The hand
ends when both hands are empty. The game goes to 10 points, dealt alternately.

Nothing here does I/O or draws a random number: a hand is its deck and its moves.

>>> hand = ToyHand(tuple(sorted(CARDS_OF_TOY)), dealer=0, rules=STANDARD)
>>> [move.text() for move in hand.legal()]
['play Ac', 'play 3c', 'play 5c']
>>> hand.push(ToyMove(0)); hand.push(ToyMove(1)); hand.points  # 2♣ beats A♣
(1, 0)
>>> hand.pop(), hand.points, hand.to_move()
(ToyMove(card=1), (0, 0), 0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from umtali.kernel.cards import (
    HEARTS,
    InvalidCardError,
    card_ascii,
    card_name,
    cards_of,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)
from umtali.kernel.deck import check_deck
from umtali.kernel.players import MatchError, check_name
from umtali.kernel.rules import InvalidRulesError

CARDS: Final = mask_of(make_card(rank, suit) for rank in range(1, 7) for suit in (0, HEARTS))
"""The twelve cards of the deck, as a mask: ace to six of clubs and hearts."""
CARDS_OF_TOY: Final = tuple(cards_of(CARDS))
HAND_SIZE: Final = 3


@dataclass(frozen=True)
class ToyRules:
    """A variant: its name, whether a heart that beats scores two, and the target."""

    name: str = "standard"
    hearts_double: bool = False
    target: int = 10

    def __post_init__(self) -> None:
        if type(self.target) is not int or not 1 <= self.target <= 100:
            raise InvalidRulesError(
                f"target must be a whole number from 1 to 100, not {self.target!r}"
            )

    def points(self, card: int) -> int:
        return 2 if self.hearts_double and suit_of(card) == HEARTS else 1


STANDARD: Final = ToyRules()
PRESETS: Final = {"standard": STANDARD, "hearts": ToyRules("hearts", hearts_double=True)}


class ToyMoveError(ValueError):
    """A move that is no move, or not one the player may make now."""


@dataclass(frozen=True)
class ToyMove:
    """Play ``card`` onto the pile."""

    card: int

    def text(self) -> str:
        return f"play {card_ascii(self.card)}"

    @classmethod
    def parse(cls, text: str) -> ToyMove:
        verb, _, card = text.strip().partition(" ")
        if verb.lower() != "play" or not card.strip():
            raise ToyMoveError(
                f"{text.strip()[:20]!r} is no move: write 'play' and a card, like 'play 4h'"
            )
        try:
            return cls(parse_card(card))
        except InvalidCardError as e:
            raise ToyMoveError(str(e)) from None


class ToyHand:
    """One hand: the deck order, the dealer, and the moves played (push and pop)."""

    def __init__(self, deck: Sequence[int], dealer: int, rules: ToyRules = STANDARD) -> None:
        self.deck = check_deck(deck, CARDS)
        self.dealer = dealer
        self.rules = rules
        dealt = [0, 0]
        for i in range(2 * HAND_SIZE):
            dealt[(1 - dealer + i) % 2] |= 1 << self.deck[i]
        self.hands = dealt
        self.pile: list[int] = []
        self._points = [0, 0]
        self.drawn = 2 * HAND_SIZE
        self.history: list[tuple[int, int]] = []
        self._undo: list[tuple[int, bool]] = []  # (points scored, drew a card)

    @property
    def points(self) -> tuple[int, int]:
        return (self._points[0], self._points[1])

    @property
    def scores(self) -> tuple[int, int]:
        """The points, as a record writes a finished hand's scores."""
        return self.points

    def to_move(self) -> int | None:
        if self.is_over():
            return None
        return (1 - self.dealer + len(self.history)) % 2

    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal(self) -> list[ToyMove]:
        player = self.to_move()
        return [] if player is None else [ToyMove(c) for c in cards_of(self.hands[player])]

    def legal_actions(self) -> list[int]:
        """The legal moves as ints: the cards the player to move may play."""
        return [move.card for move in self.legal()]

    def push(self, move: ToyMove | int) -> None:
        if isinstance(move, int):
            move = ToyMove(move)
        player = self.to_move()
        if player is None or not self.hands[player] >> move.card & 1:
            raise ToyMoveError(f"{card_name(move.card)} is not in the hand of the player to move")
        scored = 0
        if self.pile and rank_of(move.card) > rank_of(self.pile[-1]):
            scored = self.rules.points(move.card)
        self._points[player] += scored
        self.hands[player] &= ~(1 << move.card)
        self.pile.append(move.card)
        drew = self.drawn < len(self.deck)
        if drew:
            self.hands[player] |= 1 << self.deck[self.drawn]
            self.drawn += 1
        self.history.append((player, move.card))
        self._undo.append((scored, drew))

    def push_text(self, text: str) -> ToyMove:
        move = ToyMove.parse(text)
        self.push(move)
        return move

    def pop(self) -> ToyMove:
        player, card = self.history.pop()
        scored, drew = self._undo.pop()
        if drew:
            self.drawn -= 1
            self.hands[player] &= ~(1 << self.deck[self.drawn])
        self.pile.pop()
        self.hands[player] |= 1 << card
        self._points[player] -= scored
        return ToyMove(card)

    def outcome(self) -> tuple[int, int] | None:
        """The hand's scores once it is over."""
        return self.points if self.is_over() else None


class ToyMatch:
    """A game to the target: hands dealt alternately, their points added up."""

    def __init__(
        self,
        rules: ToyRules = STANDARD,
        *,
        first_dealer: int = 0,
        players: Sequence[str] = ("Player 1", "Player 2"),
        meta: dict[str, Any] | None = None,
    ) -> None:
        if first_dealer not in (0, 1) or isinstance(players, str) or len(players) != 2:
            raise MatchError("a game of Toy has two players, and player 0 or 1 deals first")
        for seat, name in enumerate(players):
            check_name(seat, name)
        self.rules = rules
        self.first_dealer = first_dealer
        self.players = (players[0], players[1])
        self.meta: dict[str, Any] = dict(meta or {})
        self.hands: list[ToyHand] = []

    @property
    def current(self) -> ToyHand | None:
        return self.hands[-1] if self.hands and not self.hands[-1].is_over() else None

    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.hands)) % 2

    def new_hand(self, deck: Sequence[int]) -> ToyHand:
        if self.is_over() or self.current is not None:
            raise MatchError("no hand is dealt now: one is under way, or the game is over")
        hand = ToyHand(deck, self.next_dealer(), self.rules)
        self.hands.append(hand)
        return hand

    def totals(self) -> tuple[int, int]:
        done = [hand.points for hand in self.hands if hand.is_over()]
        return (sum(p[0] for p in done), sum(p[1] for p in done))

    def is_over(self) -> bool:
        a, b = self.totals()
        return self.current is None and max(a, b) >= self.rules.target and a != b

    def winner(self) -> int | None:
        a, b = self.totals()
        return (0 if a > b else 1) if self.is_over() else None


@dataclass(frozen=True)
class ToyView:
    """What one seat may see: its own hand, the pile, how many cards the other holds and
    the stock, the points, and its moves when it is to move."""

    seat: int
    hand: int
    pile: tuple[int, ...]
    other_cards: int
    stock: int
    points: tuple[int, int]
    totals: tuple[int, int]
    legal: tuple[ToyMove, ...]

    @classmethod
    def of(cls, match: ToyMatch, seat: int) -> ToyView:
        hand = match.hands[-1]
        legal = tuple(hand.legal()) if hand.to_move() == seat else ()
        return cls(
            seat,
            hand.hands[seat],
            tuple(hand.pile),
            hand.hands[1 - seat].bit_count(),
            len(hand.deck) - hand.drawn,
            hand.points,
            match.totals(),
            legal,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **dataclasses.asdict(self),
            "hand": [card_ascii(c) for c in cards_of(self.hand)],
            "pile": [card_ascii(c) for c in self.pile],
            "legal": [move.text() for move in self.legal],
        }
