"""One hand of Klaberjass (ruling K): the deal, two rounds of bidding, the exchange of the
7 of trump, the sequences, nine tricks and the score, with legal moves as small ints and
push/pop undo.

The hand is its deck and its moves: the deck order is the chance. Packets of three go
non-dealer, dealer, non-dealer, dealer (deck positions 0-11); position 12 is turned up;
after the bidding each gets three more, non-dealer first (13-18); the stock is 19-31 and
its last card (31) is shown once the exchange is settled.

>>> from umtali.kernel.deck import seeded_deck
>>> hand = KlaberjassHand(seeded_deck(3, DECK), dealer=1)
>>> hand.phase, hand.to_move(), len(hand.legal_actions())
('bid1', 0, 2)
>>> import random
>>> rng = random.Random(1)
>>> while not hand.is_over():
...     hand.push(rng.choice(hand.legal_actions()))
>>> hand.outcome() is not None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from umtali.games.klaberjass.moves import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    KIND_MASK,
    NAME,
    PASS,
    PLAY,
    REFUSE,
    SCHMEISS,
    TAKE,
    KlaberjassMove,
    KlaberjassMoveError,
)
from umtali.games.klaberjass.rules import BOOK, KlaberjassRules
from umtali.games.klaberjass.terms import (
    DECK,
    NATURAL,
    card_points,
    sequences,
    strength,
    suit_mask,
)
from umtali.kernel.cards import KING, QUEEN, SUIT_SYMBOLS, card_name, cards_of, make_card, suit_of
from umtali.kernel.deck import check_deck

__all__ = ["DECK", "HandScore", "KlaberjassHand", "maker_rule"]

BID1: Final = "bid1"
SCHMEISS_ANSWER: Final = "schmeiss"
BID2: Final = "bid2"
EXCHANGE_PHASE: Final = "exchange"
PLAY_PHASE: Final = "play"
OVER: Final = "over"

_TURNED: Final = 12
_BOTTOM: Final = 31
LAST_TRICK: Final = 10


@dataclass(frozen=True)
class HandScore:
    """A finished hand: each player's ``totals`` (card points, last trick, sequences,
    bella), who was ``maker``, how it went (``made``, ``failed``, ``tied`` or
    ``thrown_in``), what each ``scores`` before any pot, and what it puts in the pot."""

    totals: tuple[int, int]
    maker: int | None
    result: str
    scores: tuple[int, int]
    to_pot: int


def maker_rule(totals: tuple[int, int], maker: int) -> tuple[str, tuple[int, int], int]:
    """How a hand's ``totals`` score (ruling K): the maker **makes** with the higher
    total (both score their own); with the lower he **fails** (the other scores both
    totals, he nothing); equal, the other scores his own and the maker's goes to the pot.
    Returns how it went, the scores, and what goes to the pot.

    >>> maker_rule((55, 70), maker=0)   # the book's example
    ('failed', (0, 125), 0)
    >>> maker_rule((80, 62), maker=0), maker_rule((71, 71), maker=1)
    (('made', (80, 62), 0), ('tied', (71, 0), 71))
    """
    other = 1 - maker
    if totals[maker] > totals[other]:
        return "made", totals, 0
    scores = [0, 0]
    if totals[maker] < totals[other]:
        scores[other] = totals[0] + totals[1]
        return "failed", (scores[0], scores[1]), 0
    scores[other] = totals[other]
    return "tied", (scores[0], scores[1]), totals[maker]


class KlaberjassHand:
    """One hand: the deck, the dealer, the moves played (push and pop)."""

    def __init__(self, deck: Sequence[int], dealer: int, rules: KlaberjassRules = BOOK) -> None:
        self.deck = check_deck(deck, DECK)
        if dealer not in (0, 1):
            raise ValueError(f"the dealer is player 0 or 1, not {dealer!r}")
        self.dealer = dealer
        self.rules = rules
        elder = 1 - dealer
        hands = [0, 0]
        for packet in range(4):
            who = elder if packet % 2 == 0 else dealer
            for card in self.deck[3 * packet : 3 * packet + 3]:
                hands[who] |= 1 << card
        self.hands = hands
        self.turned = self.deck[_TURNED]
        self.phase = BID1
        self.player = elder
        self.trump = -1
        self.maker = -1
        self.schmeiss_by = -1
        self.exchanged = False
        self.trick: list[int] = []  # the cards of the trick under way, the leader's first
        self.leader = elder
        self.points = [0, 0]  # card points won in tricks, the last trick's 10 included
        self.tricks_won = [0, 0]
        self.history: list[tuple[int, int]] = []  # (who moved, the action)
        self._undo: list[tuple[object, ...]] = []
        self._strength: tuple[int, ...] = ()
        self.start_hands = (0, 0)  # the hands when the play began
        self._sequences_of: tuple[tuple[tuple[int, int], int], tuple[int, int]] = (
            ((0, 0), -1),
            (0, 0),
        )

    # -- what the hand is ------------------------------------------------------------------
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.player

    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def elder(self) -> int:
        """The non-dealer: he bids first and leads to the first trick."""
        return 1 - self.dealer

    @property
    def bottom(self) -> int:
        """The last card of the stock, shown to both once the exchange is settled."""
        return self.deck[_BOTTOM]

    def bottom_shown(self) -> bool:
        return self.phase in (PLAY_PHASE, OVER) and self.trump >= 0

    def thrown_in(self) -> bool:
        return self.phase == OVER and self.maker < 0

    # -- legal moves -----------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY_PHASE:
            return [PLAY | card << 4 for card in cards_of(self._playable())]
        if phase == BID1:
            acts = [TAKE, PASS]
            if self.rules.schmeiss:
                acts.append(SCHMEISS)
            return acts
        if phase == BID2:
            turned = suit_of(self.turned)
            return [NAME | s << 4 for s in range(4) if s != turned] + [PASS]
        if phase == SCHMEISS_ANSWER:
            return [ACCEPT, REFUSE]
        if phase == EXCHANGE_PHASE:
            return [EXCHANGE, KEEP]
        return []

    def legal_moves(self) -> list[KlaberjassMove]:
        return [KlaberjassMove.of_action(action) for action in self.legal_actions()]

    def playable(self) -> int:
        """The cards the player to move may play now, as a mask (0 outside the play)."""
        return self._playable() if self.phase == PLAY_PHASE else 0

    @property
    def power(self) -> tuple[int, ...]:
        """Each card's strength in a trick, by card id, once trump is made (see
        :func:`~umtali.games.klaberjass.terms.strength`); empty before."""
        return self._strength

    def _playable(self) -> int:
        """The cards the player to move may play to the trick (ruling K): follow suit;
        unable, trump; on a trump lead, head it with a higher trump if he can."""
        hand = self.hands[self.player]
        if not self.trick:
            return hand
        led = self.trick[0]
        suit = suit_of(led)
        trumps = hand & suit_mask(self.trump)
        if suit == self.trump:
            if not trumps:
                return hand
            power = self._strength
            higher = 0
            for card in cards_of(trumps):
                if power[card] > power[led]:
                    higher |= 1 << card
            return higher or trumps
        following = hand & suit_mask(suit)
        return following or trumps or hand

    # -- playing ---------------------------------------------------------------------------
    def push(self, move: KlaberjassMove | int) -> None:
        """Play ``move`` (a move, or its action int); :class:`KlaberjassMoveError` saying
        why if the rules forbid it now, and nothing changes."""
        action = move.action if isinstance(move, KlaberjassMove) else move
        if isinstance(action, bool) or not isinstance(action, int):
            raise KlaberjassMoveError(f"{move!r} is not a move")
        if action not in self.legal_actions():
            raise KlaberjassMoveError(self.why_not(KlaberjassMove.of_action(action)))
        self._undo.append(
            (
                self.hands[0],
                self.hands[1],
                self.phase,
                self.player,
                self.trump,
                self.maker,
                self.schmeiss_by,
                self.exchanged,
                tuple(self.trick),
                self.leader,
                self.points[0],
                self.points[1],
                self.tricks_won[0],
                self.tricks_won[1],
                self._strength,
                self.start_hands,
            )
        )
        self.history.append((self.player, action))
        self._apply(action)

    def push_text(self, text: str) -> KlaberjassMove:
        move = KlaberjassMove.parse(text)
        self.push(move)
        return move

    def pop(self) -> KlaberjassMove:
        """Take back the last move."""
        _, action = self.history.pop()
        (
            h0,
            h1,
            self.phase,
            self.player,
            self.trump,
            self.maker,
            self.schmeiss_by,
            self.exchanged,
            trick,
            self.leader,
            p0,
            p1,
            t0,
            t1,
            self._strength,
            self.start_hands,
        ) = self._undo.pop()  # type: ignore[assignment]
        self.hands = [h0, h1]  # type: ignore[list-item]
        self.trick = list(trick)  # type: ignore[call-overload]
        self.points = [p0, p1]  # type: ignore[list-item]
        self.tricks_won = [t0, t1]  # type: ignore[list-item]
        return KlaberjassMove.of_action(action)

    def _apply(self, action: int) -> None:
        kind = action & KIND_MASK
        p = self.player
        if kind == PLAY:
            self._play(action >> 4)
        elif kind == TAKE:
            self._make(p, suit_of(self.turned))
        elif kind == PASS:
            if p == self.elder:
                self.player = self.dealer
            elif self.phase == BID1:
                self.phase, self.player = BID2, self.elder
            else:
                self.phase = OVER  # both passed twice: thrown in
        elif kind == NAME:
            self._make(p, action >> 4)
        elif kind == SCHMEISS:
            self.schmeiss_by = p
            self.phase, self.player = SCHMEISS_ANSWER, 1 - p
        elif kind == ACCEPT:
            self.phase = OVER
        elif kind == REFUSE:
            self._make(self.schmeiss_by, suit_of(self.turned))
        elif kind == EXCHANGE:
            seven = make_card(7, self.trump)
            self.hands[p] = self.hands[p] & ~(1 << seven) | 1 << self.turned
            self.exchanged = True
            self._start_play()
        elif kind == KEEP:
            self._start_play()

    def _make(self, maker: int, trump: int) -> None:
        """``maker`` makes ``trump``: three more cards each, then the exchange or play."""
        self.maker, self.trump = maker, trump
        self._strength = strength(self.rules.ranking, trump)
        elder = self.elder
        for i, card in enumerate(self.deck[13:19]):
            self.hands[elder if i < 3 else self.dealer] |= 1 << card
        if suit_of(self.turned) == trump:
            seven = make_card(7, trump)
            for who in (elder, self.dealer):
                if self.hands[who] >> seven & 1:
                    self.phase, self.player = EXCHANGE_PHASE, who
                    return
        self._start_play()

    def _start_play(self) -> None:
        self.phase, self.player, self.leader = PLAY_PHASE, self.elder, self.elder
        self.start_hands = (self.hands[0], self.hands[1])

    def _play(self, card: int) -> None:
        p = self.player
        self.hands[p] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 1:
            self.player = 1 - p
            return
        led, answer = self.trick
        power = self._strength
        trump = self.trump
        beats = (suit_of(answer) == suit_of(led) or suit_of(answer) == trump) and power[
            answer
        ] > power[led]
        winner = p if beats else 1 - p
        won = card_points(led, trump=trump) + card_points(answer, trump=trump)
        if not self.hands[p]:
            won += LAST_TRICK
            self.phase = OVER
        self.points[winner] += won
        self.tricks_won[winner] += 1
        self.trick = []
        self.player = self.leader = winner

    # -- declarations and the score --------------------------------------------------------
    def held(self, player: int) -> int:
        """The nine cards ``player`` held when the play began (after any exchange)."""
        return self.start_hands[player]

    def sequence_points(self) -> tuple[int, int]:
        """What sequences score (ruling K): only the player with the best sequence, all
        of his; best is the higher value, then the higher top card, then trump over
        plain; still equal, neither scores. (0, 0) before play begins."""
        if self.trump < 0 or self.phase not in (PLAY_PHASE, OVER):
            return (0, 0)
        key = (self.start_hands, self.trump)
        if self._sequences_of[0] == key:  # the held cards do not change in the play
            return self._sequences_of[1]
        scores = self._sequence_scores()
        self._sequences_of = (key, scores)
        return scores

    def _sequence_scores(self) -> tuple[int, int]:
        found = [sequences(self.held(p)) for p in (0, 1)]
        best = [self._sequence_key(runs[0]) if runs else None for runs in found]
        if best[0] is None and best[1] is None:
            return (0, 0)
        if best[0] == best[1]:
            return (0, 0)
        winner = 0 if best[1] is None or (best[0] is not None and best[0] > best[1]) else 1
        return (
            (sum(v for v, _, _ in found[0]), 0)
            if winner == 0
            else (0, sum(v for v, _, _ in found[1]))
        )

    def _sequence_key(self, run: tuple[int, int, int]) -> tuple[int, int, int]:
        value, top, suit = run
        return (value, NATURAL.index(top), 1 if suit == self.trump else 0)

    def bella(self) -> tuple[int, int]:
        """20 to the player who held the king and queen of trump (ruling K)."""
        if self.trump < 0 or self.phase not in (PLAY_PHASE, OVER):
            return (0, 0)
        pair = 1 << make_card(KING, self.trump) | 1 << make_card(QUEEN, self.trump)
        return tuple(20 if self.held(p) & pair == pair else 0 for p in (0, 1))  # type: ignore[return-value]

    def outcome(self) -> HandScore | None:
        """The hand's score once it is over (the maker's rule; the pot is the match's)."""
        if not self.is_over():
            return None
        if self.maker < 0:
            return HandScore((0, 0), None, "thrown_in", (0, 0), 0)
        sequence = self.sequence_points()
        bella = self.bella()
        totals = (
            self.points[0] + sequence[0] + bella[0],
            self.points[1] + sequence[1] + bella[1],
        )
        result, scores, to_pot = maker_rule(totals, self.maker)
        return HandScore(totals, self.maker, result, scores, to_pot)

    # -- refusals --------------------------------------------------------------------------
    def why_not(self, move: KlaberjassMove) -> str:
        """Why ``move`` is not legal now, in words for the player, naming the ruling."""
        phase = self.phase
        if phase == OVER:
            return "the hand is over"
        kind = move.kind
        if phase == PLAY_PHASE:
            if kind != PLAY:
                return "the tricks are being played: play a card"
            card = move.card
            hand = self.hands[self.player]
            if not hand >> card & 1:
                return f"you do not hold {card_name(card)}"
            return self._play_refusal(card, hand)
        if kind == PLAY:
            return "no card is played before the bidding and the exchange are over (K)"
        if phase == BID1:
            if kind == SCHMEISS and not self.rules.schmeiss:
                return "these rules do not allow schmeiss (K)"
            if kind == NAME:
                return (
                    "in the first round a player takes the turned-up suit or passes;"
                    " another suit is named in the second round (K)"
                )
            return "in the first round: take or pass (K)"
        if phase == BID2:
            if kind == NAME and move.card == suit_of(self.turned):
                return (
                    f"{SUIT_SYMBOLS[move.card]} was turned down in the first round: name"
                    " another suit or pass (K)"
                )
            return "in the second round: name a suit other than the turned-up one, or pass (K)"
        if phase == SCHMEISS_ANSWER:
            return "schmeiss was offered: accept (thrown in) or refuse (K)"
        return "the holder of the 7 of trump may exchange it for the turned-up card, or keep it (K)"

    def _play_refusal(self, card: int, hand: int) -> str:
        led = self.trick[0]
        suit = suit_of(led)
        same = hand & suit_mask(suit)
        if suit != self.trump and same and suit_of(card) != suit:
            example = card_name(cards_of(same)[-1])
            return f"you must follow suit: you hold the {example} (K)"
        trumps = hand & suit_mask(self.trump)
        if suit != self.trump and trumps and suit_of(card) != self.trump:
            return (
                f"with no {SUIT_SYMBOLS[suit]} you must trump: you hold the"
                f" {card_name(cards_of(trumps)[-1])} (K)"
            )
        if suit == self.trump:
            if suit_of(card) != self.trump:
                return (
                    "you must follow suit with a trump: you hold the"
                    f" {card_name(cards_of(trumps)[-1])} (K)"
                )
            higher = [c for c in cards_of(trumps) if self._strength[c] > self._strength[led]]
            return (
                f"on a trump lead you must play a higher trump than {card_name(led)}:"
                f" you hold the {card_name(higher[-1])} (K)"
            )
        return "it is not a legal card now (K)"  # pragma: no cover
