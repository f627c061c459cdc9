"""A record of Klaberjass told move by move (layer 5), in the events every game's replay
speaks (:mod:`umtali.games.events`): the heading, every hand (each move a turn of its
own, told as a sentence with its cards, a :class:`KlaberjassBoard` after it), each hand's
end with its account and the totals, the game's end, and the last word.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.terms import DECK
>>> match = KlaberjassMatch(first_dealer=1, players=("Ann", "Bob"))
>>> _ = match.new_hand(seeded_deck(3, DECK)).push_text("pass")
>>> events = list(match_events(match))
>>> events[0].text
'Klaberjass between Ann (Player 1) and Bob (Player 2), to 500'
>>> [e.sentence for e in events if isinstance(e, Moved)]
['Ann passes']
>>> events[-1].text
'The game is unfinished: hand 1 stops at move 2, with Bob (Player 2) to move.'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from umtali.games.events import (
    Event,
    GameEnds,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    MatchEnds,
    Moved,
    Totals,
    TurnBegins,
    TurnEnds,
    between_hands,
    seat_labels,
)
from umtali.games.klaberjass.describe import game_result, hand_result, tell_move
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import KlaberjassMove
from umtali.games.klaberjass.rules import KlaberjassRules
from umtali.games.klaberjass.state import HandScore, KlaberjassHand
from umtali.kernel.english import object_name

__all__ = ["KlaberjassBoard", "KlaberjassSummary", "match_events"]


@dataclass(frozen=True)
class KlaberjassBoard:
    """A hand of Klaberjass at one moment, every card shown (a replay hides nothing).

    Attributes:
        hands: both players' cards (masks).
        trick: the cards of the trick under way, the leader's first.
        turned: the turned-up card.
        trump: the trump suit, or ``None`` while the bidding goes on (or the hand was
            thrown in).
        maker: who made trump, or ``None``.
        bottom: the last card of the stock once it is shown, else ``None``.
        points: the card points each has taken in tricks (the last trick's 10 too).
        tricks: how many tricks each has taken.
        phase: the hand's phase (``bid1``, ``bid2``, ``schmeiss``, ``exchange``,
            ``play``, ``over``).
        to_move: who is to move, or ``None`` once the hand is over.
    """

    hands: tuple[int, int]
    trick: tuple[int, ...]
    turned: int
    trump: int | None
    maker: int | None
    bottom: int | None
    points: tuple[int, int]
    tricks: tuple[int, int]
    phase: str
    to_move: int | None

    @classmethod
    def of(cls, hand: KlaberjassHand) -> KlaberjassBoard:
        return cls(
            hands=(hand.hands[0], hand.hands[1]),
            trick=tuple(hand.trick),
            turned=hand.turned,
            trump=hand.trump if hand.trump >= 0 else None,
            maker=hand.maker if hand.maker >= 0 else None,
            bottom=hand.bottom if hand.bottom_shown() else None,
            points=(hand.points[0], hand.points[1]),
            tricks=(hand.tricks_won[0], hand.tricks_won[1]),
            phase=hand.phase,
            to_move=hand.to_move(),
        )


@dataclass(frozen=True)
class KlaberjassSummary:
    """A finished hand's account as numbers: its ``score`` (totals, maker, how it went,
    scores), and what each took in card points (the last trick's 10 included), in
    sequences and in bella."""

    score: HandScore
    card_points: tuple[int, int]
    sequences: tuple[int, int]
    bella: tuple[int, int]

    @classmethod
    def of(cls, hand: KlaberjassHand) -> KlaberjassSummary:
        score = hand.outcome()
        assert score is not None, "only a finished hand has a summary"
        return cls(score, (hand.points[0], hand.points[1]), hand.sequence_points(), hand.bella())


def _heading(rules: KlaberjassRules, seats: Sequence[str]) -> str:
    options = []
    if rules.ranking != "book":
        options.append(f"{rules.ranking} ranking")
    if rules.schmeiss:
        options.append("schmeiss")
    extra = f" ({', '.join(options)})" if options else ""
    return f"Klaberjass between {seats[0]} and {seats[1]}, to {rules.game_target}{extra}"


def _totals_text(
    number: int, standing_totals: tuple[int, int], pot: int, names: Sequence[str]
) -> str:
    a, b = standing_totals
    waiting = f"; {pot} wait in the pot" if pot else ""
    return f"After hand {number}: {names[0]} {a}, {names[1]} {b}{waiting}."


def match_events(match: KlaberjassMatch, names: Sequence[str] | None = None) -> Iterator[Event]:
    """A whole record of Klaberjass as events, its hands played again from their decks
    on a fresh game, so each total told is the one of its moment. ``names``: the
    players' names as the front end shows them."""
    shown = tuple(names) if names is not None else match.players
    seats = seat_labels(shown)
    yield Heading(_heading(match.rules, seats))
    again = KlaberjassMatch(match.rules, first_dealer=match.first_dealer)
    for number, recorded in enumerate(match.hands, start=1):
        hand = again.new_hand(recorded.deck)
        yield HandBegins(number, hand.dealer, f"Hand {number} · {seats[hand.dealer]} deals")
        for index, (_, action) in enumerate(recorded.history):
            player = hand.to_move()
            assert player is not None
            yield TurnBegins(index + 1, player, f"move {index + 1} · {seats[player]}")
            hand.push(action)
            yield Moved(player, KlaberjassMove.of_action(action), tell_move(hand, index, shown))
            if hand.is_over():
                more = number < len(match.hands)
                yield HandEnds(
                    KlaberjassBoard.of(hand),
                    hand_result(hand, shown),
                    KlaberjassSummary.of(hand),
                    more,
                )
                standing = again.standing()
                yield Totals(
                    standing.totals, _totals_text(number, standing.totals, standing.pot, shown)
                )
            else:
                yield TurnEnds(KlaberjassBoard.of(hand))
        if not hand.is_over():
            yield HandStops(KlaberjassBoard.of(hand))
    winner = match.winner()
    if winner is not None:
        yield GameEnds(match.standing(), game_result(match, shown))
        yield MatchEnds(True, f"The game is over: won by {object_name(shown[winner])}.")
    elif match.current is not None:
        current = match.current
        mover = current.to_move()
        assert mover is not None
        yield MatchEnds(
            False,
            f"The game is unfinished: hand {len(match.hands)} stops at move"
            f" {len(current.history) + 1}, with {seats[mover]} to move.",
        )
    else:
        yield MatchEnds(False, between_hands("The game is unfinished", match, seats))
