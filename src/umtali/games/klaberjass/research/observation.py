"""Observations of Klaberjass: what one player may see of a hand, as numpy arrays.

Every observation is made from the player's :class:`~umtali.games.klaberjass.view.KlaberjassView`
and from nothing else (bar the six cards he was dealt first, which an earlier view of his
showed him): what the view hides, the observation cannot show. "Mine" is the viewer's,
"other" the other player's. The arrays, in a Gymnasium ``Dict`` space
(:attr:`Observer.space`):

``cards``, ``uint8`` 0/1, shape ``(12, 32)``: one row a set of cards (:data:`CARD_PLANES`),
one column a card of the deck by its place (:data:`~umtali.games.klaberjass.research.actions.CARDS`:
by suit ♣ ♦ ♥ ♠, each A 7 8 9 10 J Q K):

====  ===================  ================================================================
row   name                 the cards
====  ===================  ================================================================
0     ``hand``             in the viewer's hand now
1     ``dealt``            the six the viewer was dealt first, before the bidding
2     ``played_by_me``     the viewer played to a trick (the trick under way included)
3     ``played_by_other``  the other player played to a trick
4     ``led``              led to the trick under way, not answered yet
5     ``turned``           the turned-up card while it lies on the table
6     ``turned_up``        the card turned up at the deal, whatever became of it
7     ``bottom``           the stock's last card, once it is shown
8     ``given_seven``      the 7 of trump given for the turned-up card, after an exchange
9     ``sequence_cards``   the scorer's sequence cards, as far as they are shown
10    ``other_holds``      known to be in the other's hand: the turned-up card he took in
                           an exchange, his scoring sequence cards once shown, not played
11    ``unseen``           the viewer cannot place: the other's unknown cards and the stock
====  ===================  ================================================================

``counts``, ``int32``, shape ``(15,)``: :data:`COUNTS`, each the viewer's then the other's
where there are two: card points won in tricks (the last trick's 10 included), tricks
won, what sequences score, bella as far as it is known, the game's totals before this
hand, the pot, the cards each holds, the moves made so far in the hand, and the hand's
scores once it is over.

``flags``, ``uint8`` 0/1, shape ``(23,)``: :data:`FLAGS`: the phase (one of six), whether
the viewer is to move, deals, leads the trick under way, made trump, or the other did;
the trump suit (one of four, none before it is made); who exchanged the 7; who offered
schmeiss; the classic ranking; whether the rules offer schmeiss; whether the bottom card
and the scorer's sequence cards are shown.

``action_mask``, ``int8`` 0/1, shape ``(43,)``: the viewer's legal moves in
:mod:`~umtali.games.klaberjass.research.actions` numbering, all 0 when he is not to move.

With ``perfect_recall``, ``history``, ``int16``, shape ``(23, 2)``: every move of the hand
so far (in Klaberjass every move is public), one row a move: who made it (1 the viewer, 2
the other, 0 past the last move) and its action index.

That is version ``v0`` of the arrays (``encoding="v0"``). The default, ``v1``, every
entry 0 or 1 or in [0, 1], has ``cards`` and ``flags`` as they are; ``counts``,
``float32``, each mapped from its bounds onto [0, 1] (:func:`count_bounds`); and
``history``, ``uint8`` 0/1, shape ``(23, 45)``: who moved, then the action index one-hot
(:data:`HISTORY_COLUMNS`).

>>> from umtali.games.klaberjass.match import KlaberjassMatch
>>> from umtali.games.klaberjass.terms import DECK
>>> from umtali.kernel.deck import seeded_deck
>>> match = KlaberjassMatch(first_dealer=1)
>>> hand = match.new_hand(seeded_deck(3, DECK))
>>> observer = Observer()
>>> obs = observer.observe(match, 0)
>>> int(obs["cards"][CARD_PLANES.index("hand")].sum()), int(obs["cards"][CARD_PLANES.index("unseen")].sum())
(6, 25)
>>> [FLAGS[i] for i in obs["flags"].nonzero()[0]]
['bid1', 'to_move']
>>> observer.space.contains(obs)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import PLAY, SCHMEISS
from umtali.games.klaberjass.research.actions import (
    CARDS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
)
from umtali.games.klaberjass.rules import BOOK, KlaberjassRules
from umtali.games.klaberjass.state import LAST_TRICK
from umtali.games.klaberjass.terms import DECK, card_points
from umtali.games.klaberjass.view import KlaberjassView
from umtali.rl.shared import (
    DEFAULT_ENCODING,
    EncodingVersion,
    Scale,
    checked_encoding,
    checked_rules,
    flat_layout,
    history_planes,
    masked,
)

__all__ = [
    "BIDDING",
    "CARD_PLANES",
    "COUNTS",
    "FLAGS",
    "HISTORY_COLUMNS",
    "MAX_MOVES",
    "MAX_SCORE",
    "PHASES",
    "Observer",
    "count_bounds",
    "unpack_places",
]

PHASES: Final = ("bid1", "schmeiss", "bid2", "exchange", "play", "over")
"""The hand's phases, as the engine names them, in the order of their flags."""

BIDDING: Final = ("bid1", "schmeiss", "bid2")
"""The phases before trump is made: the viewer holds the six cards he was dealt first."""

CARD_PLANES: Final = (
    "hand",
    "dealt",
    "played_by_me",
    "played_by_other",
    "led",
    "turned",
    "turned_up",
    "bottom",
    "given_seven",
    "sequence_cards",
    "other_holds",
    "unseen",
)
"""The rows of ``cards``, in order."""

COUNTS: Final = (
    "points",
    "other_points",
    "tricks",
    "other_tricks",
    "sequence_points",
    "other_sequence_points",
    "bella",
    "other_bella",
    "total",
    "other_total",
    "pot",
    "hand_size",
    "other_hand_size",
    "moves",
    "hand_score",
)
"""The entries of ``counts``, in order (``hand_score`` is the viewer's score less the
other's, once the hand is over)."""

FLAGS: Final = (
    *PHASES,
    "to_move",
    "dealer",
    "leader",
    "maker",
    "other_maker",
    "trump_clubs",
    "trump_diamonds",
    "trump_hearts",
    "trump_spades",
    "exchanged",
    "other_exchanged",
    "offered_schmeiss",
    "other_offered_schmeiss",
    "classic_ranking",
    "schmeiss_rules",
    "bottom_shown",
    "sequences_shown",
)
"""The entries of ``flags``, in order."""

MAX_MOVES: Final = 23
"""The most moves a hand can last, the length of the ``history`` rows: four bids (pass,
pass, pass, name: a schmeiss and its answer are fewer), an exchange, then 18 cards."""

CARD_POINTS: Final = sum(card_points(card, trump=0) for card in CARDS) + LAST_TRICK
"""All the points the tricks hold: 162 (the cards' 152 with trump made, the last 10)."""
assert CARD_POINTS == 162

MAX_SEQUENCES: Final = 100
"""The most sequences score: nine cards hold at most two runs of four or more (50 each)."""

MAX_SCORE: Final = CARD_POINTS + MAX_SEQUENCES + 20
"""The most one hand can score a player, bella's 20 included, 282: a maker who fails
gives the other both totals, and only one player scores sequences or bella, so one
hand's totals together never pass it either."""

HISTORY_COLUMNS: Final = ("mine", "other", *(f"action_{i}" for i in range(NUM_ACTIONS)))
"""The columns of a ``v1`` ``history`` row (45): who moved (``mine``, ``other``), then
the move's action index, one-hot (43)."""

_ACTION_PLANES: Final = np.eye(NUM_ACTIONS, dtype=np.uint8)
_INT32_MAX: Final = int(np.iinfo(np.int32).max)


def count_bounds(
    rules: KlaberjassRules, encoding: EncodingVersion
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The least and the most each entry of ``counts`` can be under ``rules``: in
    ``v0`` the bounds of its space; in ``v1`` what it is scaled from onto [0, 1], where
    the game's totals and the pot, which have no bound (a game ends at the target unless
    the totals are equal), are scaled by the target and read 1 beyond it.

    >>> low, high = count_bounds(BOOK, "v1")
    >>> high.tolist(), int(low[-1])
    ([162, 162, 9, 9, 100, 100, 20, 20, 500, 500, 500, 9, 9, 23, 282], -282)
    """
    unbounded = rules.game_target if encoding == "v1" else _INT32_MAX
    high = np.array(
        [
            *(CARD_POINTS,) * 2,
            *(9,) * 2,
            *(MAX_SEQUENCES,) * 2,
            *(20,) * 2,
            *(unbounded,) * 3,
            *(9,) * 2,
            MAX_MOVES,
            MAX_SCORE,
        ],
        np.int32,
    )
    low = np.zeros_like(high)
    low[-1] = -MAX_SCORE
    assert len(high) == len(COUNTS)
    return low, high


_PLACES: Final = np.array(CARDS, np.intp)


def unpack_places(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Card masks (by card id) as rows of 0/1 over the 32 places of the deck.

    >>> from umtali.kernel.cards import parse_card
    >>> unpack_places([1 << parse_card("7c") | 1 << parse_card("Ks")])[0].nonzero()[0].tolist()
    [1, 31]
    """
    raw = np.array(masks, dtype="<u8").view(np.uint8).reshape(len(masks), 8)
    bits = np.unpackbits(raw, axis=1, count=52, bitorder="little")
    return np.ascontiguousarray(bits[:, _PLACES])


class Observer:
    """Builds observations of hands played under ``rules``: the dict of arrays the
    module describes, with ``history`` when ``perfect_recall``; or, with ``flat``,
    PettingZoo's pair ``{"observation": vector, "action_mask": mask}``, the vector being
    the other arrays raveled and joined in order as ``float32`` (:attr:`parts` tells
    where each lies).

    >>> observer = Observer(flat=True, perfect_recall=True)
    >>> observer.space["observation"].shape, observer.parts["flags"]
    ((1457,), slice(399, 422, None))

    Attributes:
        rules: the rule options.
        perfect_recall: whether observations carry ``history``.
        flat: whether they are flattened.
        encoding: the version of the arrays, ``"v1"`` or ``"v0"`` (see the module).
        space: the ``Dict`` space every observation lies in.
        parts: for a flat observation, where each array lies in its vector.
    """

    def __init__(
        self,
        rules: KlaberjassRules = BOOK,
        *,
        perfect_recall: bool = False,
        flat: bool = False,
        encoding: EncodingVersion = DEFAULT_ENCODING,
    ) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.flat = flat
        self.encoding = checked_encoding(encoding)
        self._low, self._high = count_bounds(rules, self.encoding)
        self._scale = Scale(self._low, self._high)
        self.parts, self.space = flat_layout(self.array_spaces(), flat=flat)

    def array_spaces(self) -> dict[str, spaces.Box]:
        """The spaces of the arrays of an observation as a dict (the mask last), in
        this observer's version."""
        v0 = self.encoding == "v0"
        found: dict[str, spaces.Box] = {
            "cards": spaces.Box(0, 1, (len(CARD_PLANES), len(CARDS)), np.uint8),
            "counts": (
                spaces.Box(self._low, self._high, dtype=np.int32)
                if v0
                else spaces.Box(0.0, 1.0, (len(COUNTS),), np.float32)
            ),
            "flags": spaces.Box(0, 1, (len(FLAGS),), np.uint8),
        }
        if self.perfect_recall and v0:
            top = np.empty((MAX_MOVES, 2), np.int16)
            top[:, 0] = 2
            top[:, 1] = NUM_ACTIONS - 1
            found["history"] = spaces.Box(np.zeros_like(top), top, dtype=np.int16)
        elif self.perfect_recall:
            found["history"] = spaces.Box(0, 1, (MAX_MOVES, len(HISTORY_COLUMNS)), np.uint8)
        found["action_mask"] = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        return found

    def observe(
        self,
        match: KlaberjassMatch,
        seat: int,
        dealt: int | None = None,
        legal: Sequence[int] | None = None,
    ) -> dict[str, npt.NDArray[np.generic]]:
        """What ``seat`` may see of ``match``'s hand under way (or its last one): its
        :class:`KlaberjassView`, encoded by :meth:`encode`. ``dealt`` is the six cards
        the seat was dealt first, which the view no longer tells apart once trump is
        made (the episode keeps them); ``legal`` the legal action indices now, when the
        caller has them."""
        checked_rules(self.rules, match.rules)
        return self.encode(KlaberjassView.of(match, seat), dealt, legal)

    def encode(
        self,
        view: KlaberjassView,
        dealt: int | None = None,
        legal: Sequence[int] | None = None,
    ) -> dict[str, npt.NDArray[np.generic]]:
        """``view`` as arrays (see the module): the one place an observation is made.
        ``dealt`` may be left out while the bidding lasts (the hand is then the six
        cards dealt first); ``legal``, the legal action indices (else read from the
        view). Every array returned is new."""
        if dealt is None:
            if view.phase not in BIDDING:
                raise ValueError(
                    "once trump is made, the six cards dealt first are given (dealt=):"
                    " the view no longer tells them from the three dealt after"
                )
            dealt = view.hand
        seat = view.seat
        other = 1 - seat
        mine_played = other_played = 0
        offered = [False, False]
        for mover, move in view.history:
            if move.kind == PLAY:
                if mover == seat:
                    mine_played |= 1 << move.card
                else:
                    other_played |= 1 << move.card
            elif move.kind == SCHMEISS:
                offered[mover] = True
        played = mine_played | other_played
        led = 1 << view.trick[0] if len(view.trick) == 1 else 0
        turned = 0 if view.turned is None else 1 << view.turned
        turned_up = 1 << view.turned_up
        bottom = 0 if view.bottom is None else 1 << view.bottom
        seven = view.given_seven
        given = 0 if seven is None else 1 << seven
        scorer = -1
        if view.sequence_points[0]:
            scorer = 0
        elif view.sequence_points[1]:
            scorer = 1
        other_holds = 0
        if view.exchanger == other:
            other_holds |= turned_up
        if scorer == other:
            other_holds |= view.sequence_cards
        other_holds &= ~played
        unseen = DECK & ~(view.hand | played | turned_up | bottom | given | other_holds)
        cards = unpack_places(
            [
                view.hand,
                dealt,
                mine_played,
                other_played,
                led,
                turned,
                turned_up,
                bottom,
                given,
                view.sequence_cards,
                other_holds,
                unseen,
            ]
        )
        outcome = view.outcome
        margin = 0 if outcome is None else outcome.scores[seat] - outcome.scores[other]
        counts = np.array(
            [
                view.points[seat],
                view.points[other],
                view.tricks_won[seat],
                view.tricks_won[other],
                view.sequence_points[seat],
                view.sequence_points[other],
                view.bella[seat],
                view.bella[other],
                view.totals[seat],
                view.totals[other],
                view.pot,
                view.hand.bit_count(),
                view.other_cards,
                len(view.history),
                margin,
            ],
            np.int32,
        )
        phase = view.phase
        trump = view.trump
        flags = np.array(
            [
                *(phase == name for name in PHASES),
                view.to_move == seat,
                view.dealer == seat,
                phase == "play" and view.leader == seat,
                view.maker == seat,
                view.maker == other,
                *(trump == suit for suit in range(4)),
                view.exchanger == seat,
                view.exchanger == other,
                offered[seat],
                offered[other],
                view.ranking == "classic",
                self.rules.schmeiss,
                view.bottom is not None,
                view.sequence_cards != 0,
            ],
            np.uint8,
        )
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if view.to_move == seat:
            if legal is None:
                legal = [INDEX_OF_ACTION[move.action] for move in view.legal]
            mask[list(legal)] = 1
        v0 = self.encoding == "v0"
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "cards": cards,
            "counts": counts if v0 else self._scale(counts),
            "flags": flags,
        }
        if self.perfect_recall:
            rows = self.history(view)
            arrays["history"] = rows if v0 else history_planes(rows, _ACTION_PLANES)
        return masked(arrays, mask, flat=self.flat)

    @staticmethod
    def history(view: KlaberjassView) -> npt.NDArray[np.int16]:
        """The ``history`` rows of ``view``'s seat: every move so far, his marked 1, the
        other's 2."""
        rows = np.zeros((MAX_MOVES, 2), np.int16)
        index = INDEX_OF_ACTION
        for i, (mover, move) in enumerate(view.history):
            rows[i] = (1 if mover == view.seat else 2, index[move.action])
        return rows
