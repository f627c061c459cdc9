"""The book's four lesson hands as data: deals, every move, and the state after each turn.

One game of four hands between Player 1 (player 0) and Player 2 (player 1); Player 2
deals the first hand. The facts (cards, moves, scores) are the book's; the wording here
is ours. Tests replay them move by move and compare every turn with these figures.

>>> [lesson.scores for lesson in LESSONS]
[(31, 28), (40, 22), (33, 52), (55, 8)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.state import HandState

__all__ = ["LESSONS", "Lesson", "LessonTurn"]


@dataclass(frozen=True)
class LessonTurn:
    """One turn of a lesson hand.

    Attributes:
        player: who moves (0 = Player 1, 1 = Player 2).
        moves: the moves of the turn, in notation.
        hands: both hands after the turn, as card lists (``""`` for an empty hand).
        new_columns: the columns the player added to his side, as ``str(Column)`` gives.
        top: the top of the discard pile after the turn: a card, ``"down"`` or ``None``.
    """

    player: int
    moves: tuple[str, ...]
    hands: tuple[str, str]
    new_columns: tuple[str, ...]
    top: str | None


@dataclass(frozen=True)
class Lesson:
    """One lesson hand: the deal (dealer keeps the 11th card), its turns, its result."""

    number: int
    dealer: int
    dealer_hand: str
    other_hand: str
    stock: str
    turns: tuple[LessonTurn, ...]
    scores: tuple[int, int]
    next_dealer: int

    def deck(self) -> tuple[int, ...]:
        """The stacked deck that deals this hand (see :func:`umtali.games.umtali.deal.stacked_deck`)."""
        return stacked_deck(self.dealer_hand, self.other_hand, self.stock)

    def moves(self) -> Iterator[tuple[int, str]]:
        """Every move of the hand in notation, with the number of its turn (1 = the
        opening turn, whose first move is the dealer's ``keep``)."""
        for number, turn in enumerate(self.turns, start=1):
            for text in turn.moves:
                yield number, text

    def replay(
        self, hand: HandState | None = None, *, turn: int | None = None, done: int = 0
    ) -> HandState:
        """Play the hand on the engine up to turn ``turn`` (1 = the opening turn) with its
        first ``done`` moves played (``turn`` ``None``: the whole hand), and return the
        state. The moves are pushed onto ``hand``, a fresh deal of this lesson's deck
        (from a :class:`~umtali.games.umtali.match.Match`, or under other rules); by default a new one
        under the standard rules. ``ValueError`` for a ``hand`` that is not one, or a
        moment the hand does not have.

        >>> lesson = LESSONS[0]
        >>> lesson.replay(turn=2, done=1).hand(0) - lesson.replay(turn=2).hand(0)  # a draw
        CardSet('4♣')
        >>> from umtali.games.umtali.rules import RuleSet
        >>> no_take_two = HandState(lesson.deck(), lesson.dealer, RuleSet(take_two=False))
        >>> "take 6♥ 5♥" in [str(m) for m in lesson.replay(no_take_two, turn=3).legal_moves]
        False
        """
        if hand is None:
            hand = HandState(self.deck(), dealer=self.dealer)
        elif not (
            isinstance(hand, HandState)
            and hand.deck == self.deck()
            and hand.dealer == self.dealer
            and not hand.history
        ):
            raise ValueError(f"hand {self.number} is replayed on a fresh deal of its own deck")
        for text in self.rest(1, 0)[: self._index(turn, done)]:
            hand.push_text(text)
        return hand

    def state_at(self, turn: int | None = None, done: int = 0) -> HandState:
        """A fresh hand replayed on the engine up to turn ``turn`` (1 = the opening turn)
        with its first ``done`` moves played; ``turn`` ``None``: the whole hand (the same
        as :meth:`replay` with no hand given).

        >>> LESSONS[0].state_at().outcome().scores
        (31, 28)
        """
        return self.replay(turn=turn, done=done)

    def rest(self, turn: int, done: int) -> tuple[str, ...]:
        """The moves of the hand after the first ``done`` moves of turn ``turn``.

        >>> LESSONS[0].rest(4, 5)
        ('play 10♣ off 10♦',)
        """
        return tuple(text for _, text in self.moves())[self._index(turn, done) :]

    def _index(self, turn: int | None, done: int) -> int:
        """How many moves of the hand come before move ``done`` of turn ``turn``."""
        if turn is None:
            return sum(len(t.moves) for t in self.turns)
        if not 1 <= turn <= len(self.turns) or not 0 <= done <= len(self.turns[turn - 1].moves):
            raise ValueError(f"hand {self.number} has no move {done} in turn {turn}")
        return sum(len(t.moves) for t in self.turns[: turn - 1]) + done


T = LessonTurn

LESSONS: Final = (
    Lesson(
        number=1,
        dealer=1,
        dealer_hand="Ks 9s Kh 7h 5h 3h 2h Ah Kc 9c 10d",
        other_hand="Js 7s 6s 5s 10h 6h 10c 5c Qd Jd",
        stock="4c 4h",
        turns=(
            T(
                1,
                ("keep", "meld K♠ K♥ K♣", "meld 3♥ 2♥ A♥", "discard 5♥"),
                ("J♠ 7♠ 6♠ 5♠ 10♥ 6♥ Q♦ J♦ 10♣ 5♣", "9♠ 7♥ 10♦ 9♣"),
                ("group K♠ K♥ K♣", "sequence 3♥ 2♥ A♥"),
                "5♥",
            ),
            T(
                0,
                ("draw", "play J♠", "play J♦", "play Q♦ off J♦", "meld 7♠ 6♠ 5♠", "discard 6♥"),
                ("10♥ 10♣ 5♣ 4♣", "9♠ 7♥ 10♦ 9♣"),
                ("solo J♠", "solo J♦", "solo Q♦ (off J♦)", "sequence 7♠ 6♠ 5♠"),
                "6♥",
            ),
            T(
                1,
                ("take 6♥ 5♥", "meld 7♥ 6♥ 5♥", "play 10♦ off J♦", "pair 9♠ 9♣"),
                ("10♥ 10♣ 5♣ 4♣", ""),
                ("sequence 7♥ 6♥ 5♥", "solo 10♦ (off J♦)", "pair 9♠ 9♣"),
                None,
            ),
            T(
                0,
                (
                    "draw",
                    "play 4♥ off 5♥",
                    "play 4♣ off 4♥",
                    "play 5♣ off 4♣",
                    "play 10♥ off 10♦",
                    "play 10♣ off 10♦",
                ),
                ("", ""),
                (
                    "solo 4♥ (off 5♥)",
                    "solo 4♣ (off 4♥)",
                    "solo 5♣ (off 4♣)",
                    "solo 10♥ (off 10♦)",
                    "solo 10♣ (off 10♦)",
                ),
                None,
            ),
        ),
        scores=(31, 28),
        next_dealer=0,
    ),
    Lesson(
        number=2,
        dealer=0,
        dealer_hand="Qs 9s 8s 4s 3s 10c 5c 3c Kd Qd 10d",
        other_hand="As 4h 3h 2h Qc Jc 8c 2c 9d 8d",
        stock="4d 4c Ks 7h",
        turns=(
            T(
                0,
                ("keep", "meld K♦ Q♦", "discard 3♠"),
                ("Q♠ 9♠ 8♠ 4♠ 10♦ 10♣ 5♣ 3♣", "A♠ 4♥ 3♥ 2♥ 9♦ 8♦ Q♣ J♣ 8♣ 2♣"),
                ("marriage K♦ Q♦",),
                "3♠",
            ),
            T(
                1,
                ("draw", "play J♣", "play Q♣ off J♣", "meld 4♥ 3♥ 2♥", "discard 4♦"),
                ("Q♠ 9♠ 8♠ 4♠ 10♦ 10♣ 5♣ 3♣", "A♠ 9♦ 8♦ 8♣ 2♣"),
                ("solo J♣", "solo Q♣ (off J♣)", "sequence 4♥ 3♥ 2♥"),
                "4♦",
            ),
            T(
                0,
                (
                    "draw",
                    "meld 5♣ 4♣ 3♣",
                    "play 10♣ off J♣",
                    "play 10♦ off 10♣",
                    "play Q♠ off Q♣",
                    "discard 4♠",
                ),
                ("9♠ 8♠", "A♠ 9♦ 8♦ 8♣ 2♣"),
                (
                    "sequence 5♣ 4♣ 3♣",
                    "solo 10♣ (off J♣)",
                    "solo 10♦ (off 10♣)",
                    "solo Q♠ (off Q♣)",
                ),
                "4♠",
            ),
            T(
                1,
                (
                    "draw",
                    "play K♠ off Q♠",
                    "play 9♦ off 10♦",
                    "play 8♦ off 9♦",
                    "play 8♣ off 8♦",
                    "play 2♣ off 3♣",
                    "discard A♠ down",
                ),
                ("9♠ 8♠", ""),
                (
                    "solo K♠ (off Q♠)",
                    "solo 9♦ (off 10♦)",
                    "solo 8♦ (off 9♦)",
                    "solo 8♣ (off 8♦)",
                    "solo 2♣ (off 3♣)",
                ),
                "down",
            ),
            T(
                0,
                ("draw", "play 9♠ off 9♦", "play 8♠ off 9♠", "discard 7♥"),
                ("", ""),
                ("solo 9♠ (off 9♦)", "solo 8♠ (off 9♠)"),
                "7♥",
            ),
        ),
        scores=(40, 22),
        next_dealer=0,
    ),
    Lesson(
        number=3,
        dealer=0,
        dealer_hand="Js 9s 7s 4s Qh Jh Qc 10c 9c 2c Jd",
        other_hand="Ks Qs 3s 5c 4c 3c Kd 10d 3d 2d",
        stock="Qd 4h",
        turns=(
            T(
                0,
                (
                    "keep",
                    "play J♠",
                    "play J♥",
                    "play J♦",
                    "play Q♥ off J♥",
                    "play Q♣ off Q♥",
                    "discard 4♠",
                ),
                ("9♠ 7♠ 10♣ 9♣ 2♣", "K♠ Q♠ 3♠ K♦ 10♦ 3♦ 2♦ 5♣ 4♣ 3♣"),
                ("solo J♠", "solo J♥", "solo J♦", "solo Q♥ (off J♥)", "solo Q♣ (off Q♥)"),
                "4♠",
            ),
            T(
                1,
                (
                    "draw",
                    "meld K♠ Q♠",
                    "meld K♦ Q♦",
                    "play 10♦ off J♦",
                    "meld 5♣ 4♣ 3♣",
                    "pair 3♠ 3♦ discard 2♦ down",
                ),
                ("9♠ 7♠ 10♣ 9♣ 2♣", ""),
                (
                    "marriage K♠ Q♠",
                    "marriage K♦ Q♦",
                    "solo 10♦ (off J♦)",
                    "sequence 5♣ 4♣ 3♣",
                    "pair 3♠ 3♦",
                ),
                "down",
            ),
            T(
                0,
                (
                    "draw",
                    "play 10♣ off 10♦",
                    "play 9♣ off 10♣",
                    "play 9♠ off 9♣",
                    "play 2♣ off 3♣",
                    "forfeit",
                ),
                ("7♠ 4♥", ""),
                ("solo 10♣ (off 10♦)", "solo 9♣ (off 10♣)", "solo 9♠ (off 9♣)", "solo 2♣ (off 3♣)"),
                "down",
            ),
        ),
        scores=(33, 52),
        next_dealer=1,
    ),
    Lesson(
        number=4,
        dealer=1,
        dealer_hand="3s 2s Kh 9h Ah 6c 5c 3c 9d 6d 4d",
        other_hand="Qs 10s As Kc Qc 4c 2c Qd 3d Ad",
        stock="Js Jh 3h 7d",
        turns=(
            T(
                1,
                ("keep", "discard A♥"),
                ("Q♠ 10♠ A♠ Q♦ 3♦ A♦ K♣ Q♣ 4♣ 2♣", "3♠ 2♠ K♥ 9♥ 9♦ 6♦ 4♦ 6♣ 5♣ 3♣"),
                (),
                "A♥",
            ),
            T(
                0,
                ("take A♥", "meld K♣ Q♣", "meld A♠ A♥ A♦", "discard 3♦"),
                ("Q♠ 10♠ Q♦ 4♣ 2♣", "3♠ 2♠ K♥ 9♥ 9♦ 6♦ 4♦ 6♣ 5♣ 3♣"),
                ("marriage K♣ Q♣", "group A♠ A♥ A♦"),
                "3♦",
            ),
            T(
                1,
                ("take 3♦", "meld 3♠ 3♦ 3♣", "discard 4♦"),
                ("Q♠ 10♠ Q♦ 4♣ 2♣", "2♠ K♥ 9♥ 9♦ 6♦ 6♣ 5♣"),
                ("group 3♠ 3♦ 3♣",),
                "4♦",
            ),
            T(
                0,
                (
                    "draw",
                    "play J♠",
                    "play 10♠ off J♠",
                    "play Q♠ off J♠",
                    "play Q♦ off Q♠",
                    "discard 2♣",
                ),
                ("4♣", "2♠ K♥ 9♥ 9♦ 6♦ 6♣ 5♣"),
                ("solo J♠", "solo 10♠ (off J♠)", "solo Q♠ (off J♠)", "solo Q♦ (off Q♠)"),
                "2♣",
            ),
            T(
                1,
                ("draw", "play J♥", "discard 6♦"),
                ("4♣", "2♠ K♥ 9♥ 9♦ 6♣ 5♣"),
                ("solo J♥",),
                "6♦",
            ),
            T(
                0,
                ("draw", "play 3♥ off 3♠", "discard 4♣ down"),
                ("", "2♠ K♥ 9♥ 9♦ 6♣ 5♣"),
                ("solo 3♥ (off 3♠)",),
                "down",
            ),
            T(
                1,
                ("draw", "forfeit"),
                ("", "2♠ K♥ 9♥ 9♦ 7♦ 6♣ 5♣"),
                (),
                "down",
            ),
        ),
        scores=(55, 8),
        next_dealer=0,
    ),
)
