"""A record of Toy told turn by turn, in the events every game's replay speaks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tests.toy_game.game import ToyHand, ToyMatch, ToyMove
from umtali.games.events import (
    Event,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    MatchEnds,
    Moved,
    TurnBegins,
    TurnEnds,
    between_hands,
    seat_labels,
)
from umtali.kernel.cards import card_name
from umtali.kernel.english import subject


@dataclass(frozen=True)
class ToyBoard:
    """A hand at one moment, every card shown: both hands (masks), the pile, the points."""

    hands: tuple[int, int]
    pile: tuple[int, ...]
    points: tuple[int, int]

    @classmethod
    def of(cls, hand: ToyHand) -> ToyBoard:
        return cls((hand.hands[0], hand.hands[1]), tuple(hand.pile), hand.points)


def told(hand: ToyHand, index: int, names: Sequence[str]) -> str:
    """Move ``index`` of ``hand`` as a sentence (the pile is seen by both players)."""
    player, card = hand.history[index]
    covered = hand.pile[index - 1] if index else None
    beats = "" if covered is None else f", on {card_name(covered)}"
    return f"{subject(names[player], 'plays')} {card_name(card)}{beats}"


def match_events(match: ToyMatch, names: Sequence[str] | None = None) -> Iterator[Event]:
    shown = tuple(names) if names is not None else match.players
    seats = seat_labels(shown)
    yield Heading(f"Toy between {seats[0]} and {seats[1]}, to {match.rules.target}")
    for number, recorded in enumerate(match.hands, start=1):
        hand = ToyHand(recorded.deck, recorded.dealer, recorded.rules)
        yield HandBegins(number, hand.dealer, f"Hand {number} · {shown[hand.dealer]} deals")
        for index, (player, card) in enumerate(recorded.history):
            yield TurnBegins(index + 1, player, f"turn {index + 1} · {shown[player]}")
            hand.push(ToyMove(card))
            yield Moved(player, ToyMove(card), told(hand, index, shown))
            if hand.is_over():
                a, b = hand.points
                result = f"The hand ends {a} to {b}."
                yield HandEnds(ToyBoard.of(hand), result, None, number < len(match.hands))
            else:
                yield TurnEnds(ToyBoard.of(hand))
        if not hand.is_over():
            yield HandStops(ToyBoard.of(hand))
    winner = match.winner()
    if winner is not None:
        yield MatchEnds(True, f"The game is over: won by {shown[winner]}.")
    elif match.current is not None:
        mover = match.current.to_move()
        assert mover is not None
        yield MatchEnds(False, f"The game is unfinished, with {seats[mover]} to move.")
    else:
        yield MatchEnds(False, between_hands("The game is unfinished", match, seats))
