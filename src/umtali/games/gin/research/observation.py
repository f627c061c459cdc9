"""Observations of Gin Rummy: what one player may see of a hand, as numpy arrays ready
for a network (every value 0 or 1, or a count scaled into [0, 1]).

An observation is the player's :class:`~umtali.games.gin.view.GinView` encoded
(:meth:`Observer.encode`), with two public facts the view of one hand does not hold: the
first upcard (laid face up for both at the deal; it is replayed to tell which card each
take took) and the game's totals before the hand. What the view hides, the observation
cannot show. :meth:`Observer.observe` makes the same arrays without building the view:
it follows each hand's public moves as they are played, and hides the other's
face-down knock discard as the view does (a test compares the two in every position of
many hands). "Mine" is the viewer's, "other" the other player's. The arrays, in a Gymnasium
``Dict`` space (:attr:`Observer.space`):

``cards``, ``uint8`` 0/1, shape ``(11, 52)``: one row a set of cards (:data:`CARD_PLANES`),
one column a card by its id (``suit * 13 + rank - 1``: ♣ ♦ ♥ ♠, each A 2 .. 10 J Q K):

====  =====================  ==============================================================
row   name                   the cards
====  =====================  ==============================================================
0     ``hand``               in the viewer's hand now
1     ``pile``               in the discard pile now, face up (his own knock's face-down
                             discard too: he knows it)
2     ``top_discard``        the top of the pile: what ``take`` takes
3     ``upcard``             the first upcard, whatever became of it (in Oklahoma it sets
                             the knock limit and, a spade, doubles the hand)
4     ``discarded_by_me``    the viewer discarded during the hand
5     ``discarded_by_other`` the other discarded face up during the hand
6     ``taken_by_me``        the viewer took from the pile
7     ``taken_by_other``     the other took from the pile
8     ``taken_this_turn``    the player to move took it this turn (he may not discard it)
9     ``other_holds``        known to be in the other's hand: taken from the pile and
                             kept; his whole hand once the hand is over
10    ``unseen``             the viewer cannot place: the other's unknown cards, the stock,
                             the other's face-down knock discard
====  =====================  ==============================================================

Rows ``hand``, ``pile``, ``other_holds`` and ``unseen`` split the deck: each card is in
exactly one of them.

``counts``, ``float32`` in [0, 1], shape ``(11,)``: :data:`COUNTS`, each scaled by its
bound (:func:`count_scales`): the stock (of 31), the cards each holds (of 11), the pile
(of 32), the turns played (of the rules' turn cap), the knock limit (of 10), the least
deadwood the viewer's cards leave (of 110), the game's totals before this hand (of the
target; 1 at or past it), and once the hand is over each one's score in it (of
:func:`max_score`).

``flags``, ``uint8`` 0/1, shape ``(16,)``: :data:`FLAGS`: the phase (``upcard``, ``draw``,
``discard``, ``over``: one of four), whether the viewer is to move, deals; the Oklahoma
rules; a spade upcard doubling the hand; who knocked; how the hand ended (``gin``,
``knock``, ``undercut``, ``dead``); who won it.

``action_mask``, ``int8`` 0/1, shape ``(107,)``: the viewer's legal moves in
:mod:`~umtali.games.gin.research.actions` numbering, all 0 when he is not to move.

With ``perfect_recall``, ``history``, ``uint8`` 0/1, shape ``(max_moves(rules), 59)``:
every move of the hand so far as the viewer saw it, one row a move, one-hot in three
parts: who made it (columns 0-1: ``mine``, ``other``), its kind (2-6: ``draw``,
``take``, ``pass``, ``discard``, ``knock``), and its card (7-58, by id): the card
discarded, or taken from the pile; none for a draw, a pass, or the other's face-down
knock. Rows past the last move are all 0.

>>> from umtali.games.gin.game import GinGame
>>> from umtali.kernel.deck import seeded_deck
>>> game = GinGame(first_dealer=0)
>>> hand = game.new_hand(seeded_deck(7))
>>> obs = Observer().observe(game, 1)
>>> int(obs["cards"][CARD_PLANES.index("hand")].sum()), int(obs["cards"][CARD_PLANES.index("unseen")].sum())
(10, 41)
>>> [FLAGS[i] for i in obs["flags"].nonzero()[0]]
['upcard', 'to_move']
>>> float(obs["counts"][COUNTS.index("stock")]), Observer().space.contains(obs)
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from umtali.games.gin.game import GinGame
from umtali.games.gin.melds import min_deadwood
from umtali.games.gin.research.actions import NUM_ACTIONS
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import (
    DRAW,
    FIRST_STOCK_INDEX,
    KNOCK,
    PASS,
    TAKE,
    UPCARD_INDEX,
    GinHand,
    GinMove,
    GinOutcome,
)
from umtali.games.gin.view import GinView
from umtali.kernel.cards import ALL_CARDS
from umtali.rl.shared import (
    DEFAULT_ENCODING,
    EncodingVersion,
    checked_encoding,
    checked_rules,
    flat_layout,
    masked,
)

__all__ = [
    "CARD_PLANES",
    "COUNTS",
    "FLAGS",
    "HISTORY_COLUMNS",
    "MOVE_KINDS",
    "PHASES",
    "Observer",
    "count_scales",
    "max_moves",
    "max_score",
    "phase_of",
    "seen_cards",
    "unpack_cards",
]

CARD_PLANES: Final = (
    "hand",
    "pile",
    "top_discard",
    "upcard",
    "discarded_by_me",
    "discarded_by_other",
    "taken_by_me",
    "taken_by_other",
    "taken_this_turn",
    "other_holds",
    "unseen",
)
"""The rows of ``cards``, in order."""

STOCK: Final = 52 - FIRST_STOCK_INDEX
"""The stock at the deal: 31 cards."""

COUNTS: Final = (
    "stock",
    "hand_size",
    "other_hand_size",
    "pile_size",
    "turns",
    "knock_limit",
    "deadwood",
    "total",
    "other_total",
    "score",
    "other_score",
)
"""The entries of ``counts``, in order (``score`` and ``other_score`` are each player's
points in the hand, once it is over)."""

PHASES: Final = ("upcard", "draw", "discard", "over")
"""The hand's phases, in the order of their flags: the first upcard offered, a turn's
draw (from the stock or the pile), its discard, the end."""

HOW: Final = ("gin", "knock", "undercut", "dead")
"""How a hand ends, as :class:`~umtali.games.gin.state.GinOutcome` says."""

FLAGS: Final = (
    *PHASES,
    "to_move",
    "dealer",
    "oklahoma",
    "doubled",
    "knocked",
    "other_knocked",
    *HOW,
    "won",
    "other_won",
)
"""The entries of ``flags``, in order."""

MOVE_KINDS: Final = ("draw", "take", "pass", "discard", "knock")
"""The kinds of move, in the order of their ``history`` columns."""

HISTORY_COLUMNS: Final = 2 + len(MOVE_KINDS) + 52
"""The columns of a ``history`` row: who, the kind, the card."""

_KIND_COLUMN: Final = {kind: 2 + i for i, kind in enumerate(MOVE_KINDS)}
_CARD_COLUMN: Final = 2 + len(MOVE_KINDS)


def max_moves(rules: GinRules = GIN) -> int:
    """The most moves a hand can last, the length of the ``history`` rows: two passes
    of the first upcard, then a draw and a discard for each of the turn cap's turns.

    >>> max_moves()
    202
    """
    return 2 + 2 * rules.turn_cap


def max_score(rules: GinRules = GIN) -> int:
    """The most one hand can score a player: the defender's 10 cards at 10 points each,
    doubled by a spade upcard in Oklahoma, and the larger bonus.

    >>> from umtali.games.gin.rules import OKLAHOMA
    >>> max_score(), max_score(OKLAHOMA)
    (125, 225)
    """
    return 100 * (2 if rules.oklahoma else 1) + max(rules.gin_bonus, rules.undercut_bonus)


def count_scales(rules: GinRules = GIN) -> tuple[int, ...]:
    """What each entry of ``counts`` is divided by, in order: its bound under ``rules``
    (a total past the target reads 1).

    >>> dict(zip(COUNTS, count_scales()))  # doctest: +NORMALIZE_WHITESPACE
    {'stock': 31, 'hand_size': 11, 'other_hand_size': 11, 'pile_size': 32, 'turns': 100,
     'knock_limit': 10, 'deadwood': 110, 'total': 100, 'other_total': 100, 'score': 125,
     'other_score': 125}
    """
    most = max_score(rules)
    target = rules.game_target
    return (STOCK, 11, 11, 52 - 20, rules.turn_cap, 10, 110, target, target, most, most)


def unpack_cards(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Card masks as rows of 0/1 over the 52 card ids.

    >>> from umtali.kernel.cards import parse_card
    >>> unpack_cards([1 << parse_card("2c") | 1 << parse_card("Ks")])[0].nonzero()[0].tolist()
    [1, 51]
    """
    raw = np.array(masks, dtype="<u8").view(np.uint8).reshape(len(masks), 8)
    return np.unpackbits(raw, axis=1, count=52, bitorder="little")


def phase_of(view: GinView) -> str:
    """The hand's phase (one of :data:`PHASES`), read from ``view``'s moves.

    >>> from umtali.games.gin.state import GinHand
    >>> hand = GinHand.from_seed(7)
    >>> hand.push_text("pass"); phase_of(GinView.of(hand, 0))
    'upcard'
    >>> hand.push_text("pass"); phase_of(GinView.of(hand, 0))
    'draw'
    >>> hand.push_text("draw"); phase_of(GinView.of(hand, 0))
    'discard'
    """
    if view.outcome is not None:
        return "over"
    history = view.history
    if not history or (len(history) == 1 and history[0][1].kind == "pass"):
        return "upcard"
    return "discard" if history[-1][1].kind in ("draw", "take") else "draw"


class _Replay:
    """What ``view.history`` tells once the pile is rebuilt from the upcard (a take
    names no card): by move, the card it put on or took from the pile (``None`` for a
    draw, a pass, or the other's face-down knock); by seat, the cards discarded and
    taken; and the turns ended by a discard."""

    __slots__ = ("cards", "discarded", "taken", "turns")

    def __init__(self, view: GinView, upcard: int) -> None:
        pile = [upcard]
        self.cards: list[int | None] = []
        self.discarded = [0, 0]
        self.taken = [0, 0]
        self.turns = 0
        for mover, move in view.history:
            card = move.card
            if move.kind == "take":
                card = pile.pop()
                self.taken[mover] |= 1 << card
            elif card is not None:
                pile.append(card)
                self.discarded[mover] |= 1 << card
                self.turns += 1
            elif move.kind == "knock":
                self.turns += 1
            self.cards.append(card)


def seen_cards(view: GinView, upcard: int) -> int:
    """The cards ``view``'s seat sees now or saw laid face up, as a mask: his hand, the
    upcard, every card discarded face up or taken from the pile, the other hand once
    shown. (The cards he held and let go are among the discards.)

    >>> from umtali.games.gin.state import GinHand
    >>> hand = GinHand.from_seed(7)
    >>> seen_cards(GinView.of(hand, 0), hand.deck[UPCARD_INDEX]).bit_count()
    11
    """
    replay = _Replay(view, upcard)
    seen = view.hand | 1 << upcard | (view.revealed or 0)
    return seen | replay.discarded[0] | replay.discarded[1] | replay.taken[0] | replay.taken[1]


_HANDS_KEPT: Final = 4096
"""How many hands an observer keeps the public moves of (a batch's rows among them);
past that it forgets them all and replays each hand once more."""


class _Facts(NamedTuple):
    """What a seat knows of a hand, as an observation encodes it (see the module)."""

    seat: int
    hand: int
    pile: Sequence[int]
    upcard: int
    discarded: tuple[int, int]  # the seat's, then the other's (face up)
    taken: tuple[int, int]
    this_turn: int
    holds: int
    stock_size: int
    other_cards: int
    turns: int
    knock_limit: int
    phase: str
    to_move: bool
    dealer: bool
    doubled: bool
    outcome: GinOutcome | None
    kinds: Sequence[int]  # by move, its kind's history column
    movers: Sequence[int]
    cards: Sequence[int | None]  # by move, its card as the seat saw it
    legal: Sequence[int] | None


_KIND_OF_ACTION: Final = tuple(
    _KIND_COLUMN[GinMove.of_action(action).kind] for action in range(PASS + 1)
)


class _PublicMoves:
    """The public moves of one hand, replayed as they come (a take names no card, so
    the pile is rebuilt to tell which it took): by move, its mover, kind and card; by
    seat, the cards discarded and taken; the turns ended. The other's face-down knock
    discard is among them, and :meth:`facts` hides it from the seat who did not lay it,
    as his :class:`GinView` does."""

    __slots__ = (
        "cards",
        "discarded",
        "hand",
        "kinds",
        "last",
        "movers",
        "pile",
        "seen",
        "taken",
        "turns",
    )

    def __init__(self, hand: GinHand) -> None:
        self.hand = hand
        self.seen = 0  # moves replayed
        self.last: tuple[int, int] | None = None  # the last of them, to tell a rewound hand
        self.pile = [hand.deck[UPCARD_INDEX]]
        self.cards: list[int | None] = []
        self.kinds: list[int] = []
        self.movers: list[int] = []
        self.discarded = [0, 0]
        self.taken = [0, 0]
        self.turns = 0

    def catch_up(self) -> bool:
        """Replay the moves made since the last call; ``False`` if the hand was taken
        back past them (then these facts are stale)."""
        history = self.hand.history
        seen = self.seen
        if len(history) < seen or (seen and history[seen - 1] is not self.last):
            return False
        if len(history) == seen:
            return True
        pile, cards = self.pile, self.cards
        for mover, action in history[seen:]:
            card: int | None = None
            if action == TAKE:
                card = pile.pop()
                self.taken[mover] |= 1 << card
            elif action < DRAW:  # a discard, or a knock's
                card = action % KNOCK
                pile.append(card)
                self.discarded[mover] |= 1 << card
                self.turns += 1
            cards.append(card)
            self.kinds.append(_KIND_OF_ACTION[action])
            self.movers.append(mover)
        self.seen = len(history)
        self.last = history[-1]
        return True

    def facts(self, seat: int, legal: Sequence[int] | None) -> _Facts:
        """What ``seat`` knows of the hand now (``legal``: his legal actions, if known)."""
        hand = self.hand
        other = 1 - seat
        history = hand.history
        pile: Sequence[int] = hand.pile
        discarded_other = self.discarded[other]
        cards: Sequence[int | None] = self.cards
        last = history[-1][1] if history else None
        if last is not None and KNOCK <= last < DRAW and history[-1][0] == other:
            hidden = last - KNOCK  # the other's knock discard, laid face down
            pile = pile[:-1]
            discarded_other &= ~(1 << hidden)
            cards = [*self.cards[:-1], None]
        outcome = hand.outcome
        if outcome is not None:
            phase = "over"
        elif not history or (len(history) == 1 and last == PASS):
            phase = "upcard"
        else:
            phase = "discard" if last in (DRAW, TAKE) else "draw"
        to_move = hand.to_move() == seat
        if to_move and legal is None:
            legal = hand.legal_actions()
        others = hand.hands[other]
        card = self.cards[-1] if self.cards else None
        return _Facts(
            seat=seat,
            hand=hand.hands[seat],
            pile=pile,
            upcard=hand.deck[UPCARD_INDEX],
            discarded=(self.discarded[seat], discarded_other),
            taken=(self.taken[seat], self.taken[other]),
            this_turn=1 << card if last == TAKE and outcome is None and card is not None else 0,
            holds=others if hand.is_over() else self.taken[other] & others,
            stock_size=hand.stock_size(),
            other_cards=others.bit_count(),
            turns=self.turns,
            knock_limit=hand.knock_limit,
            phase=phase,
            to_move=to_move,
            dealer=hand.dealer == seat,
            doubled=hand.multiplier == 2,
            outcome=outcome,
            kinds=self.kinds,
            movers=self.movers,
            cards=cards,
            legal=legal,
        )


class Observer:
    """Builds observations of hands played under ``rules``: the dict of arrays the
    module describes, with ``history`` when ``perfect_recall``; or, with ``flat``,
    PettingZoo's pair ``{"observation": vector, "action_mask": mask}``, the vector being
    the other arrays raveled and joined in order as ``float32`` (:attr:`parts` tells
    where each lies).

    >>> observer = Observer(flat=True, perfect_recall=True)
    >>> observer.space["observation"].shape, observer.parts["flags"]
    ((12517,), slice(583, 599, None))

    Attributes:
        rules: the rule options.
        perfect_recall: whether observations carry ``history``.
        flat: whether they are flattened.
        encoding: the arrays' version asked for (``"v0"`` and ``"v1"`` are the same
            for Gin Rummy, whose arrays lie in [0, 1] in both).
        space: the ``Dict`` space every observation lies in.
        parts: for a flat observation, where each array lies in its vector.
    """

    def __init__(
        self,
        rules: GinRules = GIN,
        *,
        perfect_recall: bool = False,
        flat: bool = False,
        encoding: EncodingVersion = DEFAULT_ENCODING,
    ) -> None:
        self.rules = rules
        # Gin Rummy's arrays were network-ready from the first: both versions are the same.
        self.encoding = checked_encoding(encoding)
        self.perfect_recall = perfect_recall
        self.flat = flat
        self.moves = max_moves(rules)
        self._scales = np.array(count_scales(rules), np.float32)
        self.parts, self.space = flat_layout(self.array_spaces(), flat=flat)
        self._public: dict[int, _PublicMoves] = {}

    def array_spaces(self) -> dict[str, spaces.Box]:
        """The spaces of the arrays of an observation as a dict (the mask last)."""
        found: dict[str, spaces.Box] = {
            "cards": spaces.Box(0, 1, (len(CARD_PLANES), 52), np.uint8),
            "counts": spaces.Box(0.0, 1.0, (len(COUNTS),), np.float32),
            "flags": spaces.Box(0, 1, (len(FLAGS),), np.uint8),
        }
        if self.perfect_recall:
            found["history"] = spaces.Box(0, 1, (self.moves, HISTORY_COLUMNS), np.uint8)
        found["action_mask"] = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        return found

    def observe(
        self, game: GinGame, seat: int, legal: Sequence[int] | None = None
    ) -> dict[str, npt.NDArray[np.generic]]:
        """What ``seat`` may see of ``game``'s hand under way (or its last one), with the
        hand's first upcard and the game's totals before the hand (both public); ``legal``
        the legal action indices now, when the caller has them. The arrays are those
        :meth:`encode` makes of the seat's :class:`GinView` (a test holds them the same
        over thousands of positions); they are worked out from the hand's moves since
        the last observation, where a view replays all of them."""
        checked_rules(self.rules, game.rules)
        hand = game.hands[-1]
        totals = (0, 0)
        for earlier in game.hands[:-1]:
            if earlier.outcome is not None:
                a, b = earlier.outcome.scores
                totals = (totals[0] + a, totals[1] + b)
        return self._arrays(self._public_of(hand).facts(seat, legal), totals, legal)

    def _public_of(self, hand: GinHand) -> _PublicMoves:
        """The hand's public moves, brought up to date (kept for the hands last seen)."""
        known = self._public.get(id(hand))
        if known is None or known.hand is not hand or not known.catch_up():
            if len(self._public) >= _HANDS_KEPT:
                self._public.clear()
            known = self._public[id(hand)] = _PublicMoves(hand)
            known.catch_up()
        return known

    def encode(
        self,
        view: GinView,
        upcard: int,
        totals: tuple[int, int] = (0, 0),
        legal: Sequence[int] | None = None,
    ) -> dict[str, npt.NDArray[np.generic]]:
        """``view`` as arrays (see the module). ``upcard`` is the hand's first upcard,
        ``totals`` each seat's game points before the hand, ``legal`` the legal action
        indices (else read from the view). Every array returned is new."""
        seat = view.seat
        other = 1 - seat
        replay = _Replay(view, upcard)
        this_turn = 0
        last: tuple[int, GinMove] | None = view.history[-1] if view.history else None
        if last is not None and last[1].kind == "take" and view.outcome is None:
            card = replay.cards[-1]
            assert card is not None
            this_turn = 1 << card
        if legal is None and view.to_move == seat:
            legal = [move.action for move in view.legal]
        facts = _Facts(
            seat=seat,
            hand=view.hand,
            pile=view.pile,
            upcard=upcard,
            discarded=(replay.discarded[seat], replay.discarded[other]),
            taken=(replay.taken[seat], replay.taken[other]),
            this_turn=this_turn,
            holds=view.opponent_known if view.revealed is None else view.revealed,
            stock_size=view.stock_size,
            other_cards=view.opponent_cards,
            turns=replay.turns,
            knock_limit=view.knock_limit,
            phase=phase_of(view),
            to_move=view.to_move == seat,
            dealer=view.dealer == seat,
            doubled=view.multiplier == 2,
            outcome=view.outcome,
            kinds=[_KIND_COLUMN[move.kind] for _, move in view.history],
            movers=[mover for mover, _ in view.history],
            cards=replay.cards,
            legal=legal,
        )
        return self._arrays(facts, totals, legal)

    def _arrays(
        self, facts: _Facts, totals: tuple[int, int], legal: Sequence[int] | None
    ) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays of an observation (see the module), from what the seat knows: the
        one place an observation is made. Every array returned is new."""
        seat = facts.seat
        other = 1 - seat
        pile = 0
        for card in facts.pile:
            pile |= 1 << card
        top = 1 << facts.pile[-1] if facts.pile else 0
        holds = facts.holds
        unseen = ALL_CARDS & ~(facts.hand | pile | holds)
        cards = unpack_cards(
            [
                facts.hand,
                pile,
                top,
                1 << facts.upcard,
                facts.discarded[0],
                facts.discarded[1],
                facts.taken[0],
                facts.taken[1],
                facts.this_turn,
                holds,
                unseen,
            ]
        )
        outcome = facts.outcome
        scores = (0, 0) if outcome is None else outcome.scores
        raw = np.array(
            [
                facts.stock_size,
                facts.hand.bit_count(),
                facts.other_cards,
                len(facts.pile),
                facts.turns,
                facts.knock_limit,
                min_deadwood(facts.hand),
                totals[seat],
                totals[other],
                scores[seat],
                scores[other],
            ],
            np.float32,
        )
        counts = np.minimum(raw / self._scales, np.float32(1.0))
        phase = facts.phase
        how = None if outcome is None else outcome.how
        knocker = None if outcome is None else outcome.knocker
        winner = None if outcome is None else outcome.winner
        flags = np.array(
            [
                *(phase == name for name in PHASES),
                facts.to_move,
                facts.dealer,
                self.rules.oklahoma,
                facts.doubled,
                knocker == seat,
                knocker == other,
                *(how == name for name in HOW),
                winner == seat,
                winner == other,
            ],
            np.uint8,
        )
        mask = np.zeros(NUM_ACTIONS, np.int8)
        legal = facts.legal if legal is None else legal
        if facts.to_move and legal is not None:
            mask[list(legal)] = 1
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "cards": cards,
            "counts": counts,
            "flags": flags,
        }
        if self.perfect_recall:
            arrays["history"] = self._history_rows(facts)
        return masked(arrays, mask, flat=self.flat)

    def _history_rows(self, facts: _Facts) -> npt.NDArray[np.uint8]:
        rows = np.zeros((self.moves, HISTORY_COLUMNS), np.uint8)
        seat = facts.seat
        for i, (mover, kind, card) in enumerate(
            zip(facts.movers, facts.kinds, facts.cards, strict=True)
        ):
            rows[i, 0 if mover == seat else 1] = 1
            rows[i, kind] = 1
            if card is not None:
                rows[i, _CARD_COLUMN + card] = 1
        return rows
