"""What one Klaberjass player may see: :class:`KlaberjassView`, the only thing a bot or a
front end is given (ruling K).

Every move of Klaberjass is public: a bid, the exchange, a card laid on the table. So a
player sees his own cards, every card played, the turned-up card (it lies face up until
the exchange is settled; after an exchange the 7 of trump given for it is shown), the
last card of the stock once it is shown, who scores sequences and how much once the play
begins, and the scorer's sequence cards once the first trick is done. He never sees the
other hand, the stock, or a sequence that does not score.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.match import KlaberjassMatch
>>> from umtali.games.klaberjass.terms import DECK
>>> match = KlaberjassMatch(first_dealer=1)
>>> hand = match.new_hand(seeded_deck(3, DECK))
>>> view = KlaberjassView.of(match, 0)
>>> view.phase, view.hand.bit_count(), view.other_cards, view.trump, view.bottom
('bid1', 6, 6, -1, None)
>>> [move.text() for move in view.legal]
['take', 'pass']
>>> KlaberjassView.of(match, 1).legal
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import EXCHANGE, NAME, PLAY, KlaberjassMove
from umtali.games.klaberjass.state import HandScore, KlaberjassHand
from umtali.games.klaberjass.terms import NATURAL, SUIT_NAMES, sequences
from umtali.kernel.cards import KING, QUEEN, SUIT_LETTERS, card_ascii, cards_of, make_card

__all__ = ["KlaberjassView", "move_ascii", "sequence_cards"]


@dataclass(frozen=True)
class KlaberjassView:
    """One player's view of the hand under way (or the last one, just over).

    Cards are ids and sets of cards masks; a player is 0 or 1, and -1 means nobody yet.

    Attributes:
        seat: whose view this is.
        phase: the hand's phase (``bid1``, ``schmeiss``, ``bid2``, ``exchange``,
            ``play``, ``over``).
        dealer: who dealt; the other (the elder) bids first and leads to trick one.
        to_move: who is to move, ``None`` once the hand is over.
        ranking: the rules' card order (``book`` or ``classic``).
        hand: the cards this player holds.
        other_cards: how many cards the other player holds.
        turned: the turned-up card while it lies on the table (until the exchange is
            settled), else ``None``.
        turned_up: the card turned up at the deal, seen by both, whatever became of it
            (out of play, or taken by the exchanger).
        exchanged: whether the 7 of trump was given for the turned-up card; then that 7
            is public, and so is the turned-up card taken in its place.
        exchanger: who made the exchange, or -1.
        trump: the trump suit, -1 before it is made.
        maker: who made trump, -1 before.
        trick: the cards of the trick under way, the leader's first.
        leader: who led (or leads) the trick under way.
        points: card points each has won in tricks so far (the last trick's 10 included).
        tricks_won: how many tricks each has won.
        bottom: the stock's last card once it has been shown, else ``None``.
        sequence_points: what sequences score for each player, known to both once the
            play begins (a sequence that does not score counts nothing).
        sequence_cards: the scoring player's sequence cards, shown to his opponent once
            the first trick is done and to himself at once; 0 if nobody scores.
        bella: 20 for a player whose bella is known to this seat: his own as soon as he
            holds the king and queen of trump in play, the other's once he has played the
            second of them.
        totals: the game's totals after the finished hands.
        pot: the tied hands' points waiting to be paid.
        legal: this player's legal moves when he is to move, else empty.
        history: every move of the hand, with who made it (all moves are public).
        played: every card played to a trick so far, the trick under way included.
        outcome: the hand's score once it is over, else ``None``.
    """

    seat: int
    phase: str
    dealer: int
    to_move: int | None
    ranking: str
    hand: int
    other_cards: int
    turned: int | None
    turned_up: int
    exchanged: bool
    exchanger: int
    trump: int
    maker: int
    trick: tuple[int, ...]
    leader: int
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    bottom: int | None
    sequence_points: tuple[int, int]
    sequence_cards: int
    bella: tuple[int, int]
    totals: tuple[int, int]
    pot: int
    legal: tuple[KlaberjassMove, ...]
    history: tuple[tuple[int, KlaberjassMove], ...]
    played: int
    outcome: HandScore | None

    @classmethod
    def of(cls, match: KlaberjassMatch, seat: int) -> KlaberjassView:
        """What ``seat`` may see of ``match``'s last hand dealt."""
        if seat not in (0, 1):
            raise ValueError(f"a seat is 0 or 1, not {seat!r}")
        if not match.hands:
            raise ValueError("no hand has been dealt")
        hand = match.hands[-1]
        standing = match.standing()
        history = tuple((mover, KlaberjassMove.of_action(action)) for mover, action in hand.history)
        exchanger = next((mover for mover, move in history if move.kind == EXCHANGE), -1)
        played = 0
        for _, move in history:
            if move.kind == PLAY:
                played |= 1 << move.card
        return cls(
            seat=seat,
            phase=hand.phase,
            dealer=hand.dealer,
            to_move=hand.to_move(),
            ranking=hand.rules.ranking,
            hand=hand.hands[seat],
            other_cards=hand.hands[1 - seat].bit_count(),
            turned=None if hand.bottom_shown() else hand.turned,
            turned_up=hand.turned,
            exchanged=hand.exchanged,
            exchanger=exchanger,
            trump=hand.trump,
            maker=hand.maker,
            trick=tuple(hand.trick),
            leader=hand.leader,
            points=(hand.points[0], hand.points[1]),
            tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
            bottom=hand.bottom if hand.bottom_shown() else None,
            sequence_points=hand.sequence_points(),
            sequence_cards=_sequence_cards_seen(hand, seat),
            bella=_bella_known(hand, seat),
            totals=standing.totals,
            pot=standing.pot,
            legal=tuple(hand.legal_moves()) if hand.to_move() == seat else (),
            history=history,
            played=played,
            outcome=hand.outcome(),
        )

    @property
    def other(self) -> int:
        """The other player's seat."""
        return 1 - self.seat

    @property
    def given_seven(self) -> int | None:
        """The 7 of trump given for the turned-up card, once an exchange is made."""
        return make_card(7, self.trump) if self.exchanged else None

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data, cards in ASCII notation (``10h``, ``Js``)."""

        def names(mask: int) -> list[str]:
            return [card_ascii(card) for card in cards_of(mask)]

        def card(card: int | None) -> str | None:
            return None if card is None else card_ascii(card)

        outcome = None
        if self.outcome is not None:
            outcome = {
                "totals": list(self.outcome.totals),
                "maker": self.outcome.maker,
                "result": self.outcome.result,
                "scores": list(self.outcome.scores),
                "to_pot": self.outcome.to_pot,
            }
        return {
            "seat": self.seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "ranking": self.ranking,
            "hand": names(self.hand),
            "other_cards": self.other_cards,
            "turned": card(self.turned),
            "turned_up": card_ascii(self.turned_up),
            "exchanged": self.exchanged,
            "exchanger": self.exchanger,
            "given_seven": card(self.given_seven),
            "trump": SUIT_NAMES[self.trump] if self.trump >= 0 else None,
            "maker": self.maker,
            "trick": [card_ascii(c) for c in self.trick],
            "leader": self.leader,
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
            "bottom": card(self.bottom),
            "sequence_points": list(self.sequence_points),
            "sequence_cards": names(self.sequence_cards),
            "bella": list(self.bella),
            "totals": list(self.totals),
            "pot": self.pot,
            "legal": [move_ascii(move) for move in self.legal],
            "history": [[mover, move_ascii(move)] for mover, move in self.history],
            "played": names(self.played),
            "outcome": outcome,
        }


def move_ascii(move: KlaberjassMove) -> str:
    """A move as typed in plain ASCII (``play 10h``, ``name s``); it parses back.

    >>> move_ascii(KlaberjassMove.parse("play 10♥")), move_ascii(KlaberjassMove.parse("name ♠"))
    ('play 10h', 'name s')
    """
    if move.kind == PLAY:
        return f"play {card_ascii(move.card)}"
    if move.kind == NAME:
        return f"name {SUIT_LETTERS[move.card]}"
    return move.text()


def sequence_cards(held: int) -> int:
    """The cards of every sequence in ``held`` (runs of three or more in natural order).

    >>> from umtali.kernel.cards import mask_of, parse_cards
    >>> cards = sequence_cards(mask_of(parse_cards("7h 8h 9h Jh As Ks Qs 10c")))
    >>> [card_ascii(card) for card in cards_of(cards)]
    ['7h', '8h', '9h', 'As', 'Qs', 'Ks']
    """
    found = 0
    for _, top, suit in sequences(held):
        place = NATURAL.index(top)
        while place >= 0 and held >> make_card(NATURAL[place], suit) & 1:
            found |= 1 << make_card(NATURAL[place], suit)
            place -= 1
    return found


def _sequence_cards_seen(hand: KlaberjassHand, seat: int) -> int:
    """The scorer's sequence cards, if ``seat`` may see them: the scorer at once, his
    opponent once the first trick is done (or the hand is over)."""
    scores = hand.sequence_points()
    if scores == (0, 0):
        return 0
    scorer = 0 if scores[0] else 1
    first_trick_done = sum(hand.tricks_won) >= 1
    if scorer != seat and not first_trick_done:
        return 0
    return sequence_cards(hand.held(scorer))


def _bella_known(hand: KlaberjassHand, seat: int) -> tuple[int, int]:
    """Each player's bella as far as ``seat`` knows it: his own while he holds the pair in
    play, the other's once both cards are played (it is announced with the second)."""
    if hand.trump < 0:
        return (0, 0)
    scored = hand.bella()
    pair = 1 << make_card(KING, hand.trump) | 1 << make_card(QUEEN, hand.trump)
    known = [0, 0]
    for player in (0, 1):
        if scored[player] and (player == seat or not hand.hands[player] & pair):
            known[player] = scored[player]
    return (known[0], known[1])
