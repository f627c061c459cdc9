"""One hand of two-handed Gin Rummy (ruling G): the deal, the moves, and the score.

The deck order is the hand's only chance, as in Umtali: cards 0, 2, …, 18 go to the
non-dealer and 1, 3, …, 19 to the dealer, card 20 is the upcard that starts the discard
pile, and cards 21.. are the stock, card 21 on top.

A move is an action int (:data:`DRAW`, :data:`TAKE`, :data:`PASS`, ``DISCARD + card``,
``KNOCK + card``) or a :class:`GinMove`, which prints and parses as text: ``draw``,
``take``, ``pass``, ``discard Kc``, ``knock 4d``. Knocking names the card discarded face
down; the knocker's melds and the other player's answer (his melds and layoffs) are then
laid by :mod:`umtali.games.gin.melds` so as to leave each the least deadwood.

>>> hand = GinHand.from_seed(7)
>>> hand.to_move(), [move.text() for move in hand.legal_moves()]
(1, ['take', 'pass'])
>>> hand.push_text("pass"); hand.push_text("pass")
>>> [move.text() for move in hand.legal_moves()]
['draw']
>>> outcome = hand.play_out(random.Random(1))
>>> hand.is_over(), outcome.how in ("gin", "knock", "undercut", "dead")
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from umtali.games.gin.melds import (
    DEADWOOD_VALUES,
    Arrangement,
    Layoff,
    best_arrangement,
    deadwood_points,
    defend,
    min_deadwood,
)
from umtali.games.gin.rules import GIN, GinRules
from umtali.kernel.cards import card_ascii, cards_of, parse_card, quoted
from umtali.kernel.deck import check_deck, seeded_deck

__all__ = [
    "DISCARD",
    "DRAW",
    "KNOCK",
    "PASS",
    "TAKE",
    "GinHand",
    "GinMove",
    "GinMoveError",
    "GinOutcome",
]

DISCARD: Final = 0
"""``DISCARD + card``: discard ``card`` face up and end the turn."""
KNOCK: Final = 52
"""``KNOCK + card``: discard ``card`` face down and knock (gin when no deadwood is left)."""
DRAW: Final = 104
"""Draw the top card of the stock."""
TAKE: Final = 105
"""Take the top card of the discard pile (the upcard, at the start)."""
PASS: Final = 106
"""Refuse the first upcard."""

FIRST_STOCK_INDEX: Final = 21
"""The deck position of the top of the stock: ten cards each and the upcard come first."""

UPCARD_INDEX: Final = FIRST_STOCK_INDEX - 1
"""The upcard's place in the deck: where Umtali deals its 11th card; the stock follows."""

_UPCARD, _DRAW, _DISCARD, _OVER = range(4)


class GinMoveError(ValueError):
    """A move the rules do not allow now, or text that names no move."""


class GinMove(NamedTuple):
    """A move as text and back: ``kind`` is ``draw``, ``take``, ``pass``, ``discard`` or
    ``knock``; ``card`` the card discarded (``None`` for the others)."""

    kind: str
    card: int | None = None

    @property
    def action(self) -> int:
        """The move's action int."""
        if self.kind == "discard" and self.card is not None:
            return DISCARD + self.card
        if self.kind == "knock" and self.card is not None:
            return KNOCK + self.card
        return {"draw": DRAW, "take": TAKE, "pass": PASS}[self.kind]

    @classmethod
    def of_action(cls, action: int) -> GinMove:
        if DISCARD <= action < KNOCK:
            return cls("discard", action - DISCARD)
        if KNOCK <= action < DRAW:
            return cls("knock", action - KNOCK)
        return cls({DRAW: "draw", TAKE: "take", PASS: "pass"}[action])

    def text(self) -> str:
        """The move in notation: ``discard 10h``."""
        return self.kind if self.card is None else f"{self.kind} {card_ascii(self.card)}"

    @classmethod
    def parse(cls, text: str) -> GinMove:
        """Read a move in notation.

        >>> GinMove.parse("Knock 4D").text(), GinMove.parse(" take ").text()
        ('knock 4d', 'take')
        >>> GinMove.parse("meld 4d")
        Traceback (most recent call last):
        ...
        umtali.games.gin.state.GinMoveError: 'meld 4d' is not a Gin Rummy move: say draw, take, pass, discard CARD or knock CARD
        """
        words = text.split() if isinstance(text, str) else []
        if len(words) == 1 and words[0].lower() in ("draw", "take", "pass"):
            return cls(words[0].lower())
        if len(words) == 2 and words[0].lower() in ("discard", "knock"):
            try:
                return cls(words[0].lower(), parse_card(words[1]))
            except ValueError as e:
                raise GinMoveError(str(e)) from None
        raise GinMoveError(
            f"{quoted(text)} is not a Gin Rummy move: say draw, take, pass, discard CARD"
            " or knock CARD"
        )


@dataclass(frozen=True)
class GinOutcome:
    """How a hand ended and what it scored.

    ``how`` is ``"gin"``, ``"knock"``, ``"undercut"`` or ``"dead"`` (no score);
    ``winner`` the player scoring (``None`` for a dead hand) and ``points`` what he
    scores, the Oklahoma spade doubling included (it doubles the deadwood counted, not
    the gin or undercut bonus). ``knocker`` and the arrangements are
    ``None`` for a dead hand."""

    how: str
    winner: int | None
    points: int
    knocker: int | None = None
    knocker_melds: Arrangement | None = None
    defender_melds: Arrangement | None = None
    layoff: Layoff | None = None
    deadwood: tuple[int, int] = (0, 0)

    @property
    def scores(self) -> tuple[int, int]:
        """The points each player scores in the hand."""
        if self.winner is None:
            return (0, 0)
        return (self.points, 0) if self.winner == 0 else (0, self.points)


_Snapshot = tuple[
    tuple[int, int], tuple[int, ...], int, int, int, int, int, int, "GinOutcome | None"
]


class GinHand:
    """A hand of Gin Rummy between players 0 and 1, ``dealer`` dealing.

    Push moves with :meth:`push` (an action int or a :class:`GinMove`) and take them back
    with :meth:`pop`; :meth:`legal_moves` lists what the player to move may do.
    """

    __slots__ = (
        "_legal",
        "_passes",
        "_undo",
        "dealer",
        "deck",
        "discards",
        "hands",
        "history",
        "knock_limit",
        "multiplier",
        "outcome",
        "phase",
        "pile",
        "player",
        "rules",
        "stock_pos",
        "taken",
    )

    def __init__(self, deck: Sequence[int], dealer: int = 0, rules: GinRules = GIN) -> None:
        if dealer not in (0, 1) or type(dealer) is not int:
            raise ValueError(f"the dealer is player 0 or 1, not {quoted(dealer)}")
        if not isinstance(rules, GinRules):
            raise ValueError(f"rules are GinRules (such as GIN), not {quoted(rules)}")
        self.deck = check_deck(deck)
        self.rules = rules
        self.dealer = dealer
        non_dealer = 1 - dealer
        dealt = [0, 0]
        for i in range(UPCARD_INDEX):
            dealt[non_dealer if i % 2 == 0 else dealer] |= 1 << self.deck[i]
        self.hands = (dealt[0], dealt[1])
        upcard = self.deck[UPCARD_INDEX]
        self.pile: tuple[int, ...] = (upcard,)
        self.knock_limit = rules.limit_for(upcard)
        self.multiplier = rules.multiplier_for(upcard)
        self.stock_pos = FIRST_STOCK_INDEX
        self.phase = _UPCARD
        self.player = non_dealer
        self._passes = 0
        self.taken = -1
        self.discards = 0
        self.outcome: GinOutcome | None = None
        self.history: list[tuple[int, int]] = []
        self._legal: list[int] | None = None
        self._undo: list[_Snapshot] = []

    @classmethod
    def from_seed(cls, seed: int | str, dealer: int = 0, rules: GinRules = GIN) -> GinHand:
        """A hand dealt from the deck order of ``seed`` (:func:`umtali.kernel.deck.seeded_deck`)."""
        return cls(seeded_deck(seed), dealer, rules)

    @classmethod
    def replayed(
        cls, deck: Sequence[int], dealer: int, rules: GinRules, actions: Sequence[int]
    ) -> GinHand:
        """The hand dealt from ``deck`` with ``actions`` played, trusted to be legal: no
        move is checked and none can be taken back (a search rebuilds thousands of
        positions this way; :meth:`push` checks each move, at a cost)."""
        hand = cls(deck, dealer, rules)
        for action in actions:
            hand.play_trusted(action)
        return hand

    def play_trusted(self, action: int) -> None:
        """Play ``action`` unchecked, and without a way back but :meth:`restore`: a
        playout's moves, chosen from :meth:`may_take` and the cards."""
        self.history.append((self.player, action))
        self._legal = None
        self._apply(action)

    def may_take(self) -> bool:
        """Whether the player to move may take the pile's top card now."""
        return self.phase == _UPCARD or (self.phase == _DRAW and self._passes < 2)

    def must_discard(self) -> bool:
        """Whether the player to move has drawn and must now discard (or knock)."""
        return self.phase == _DISCARD

    def snapshot(self) -> tuple[int, _Snapshot]:
        """Everything :meth:`restore` needs to bring the hand back to this moment."""
        return len(self.history), self._state()

    def _state(self) -> _Snapshot:
        return (
            self.hands,
            self.pile,
            self.stock_pos,
            self.phase,
            self.player,
            self._passes,
            self.taken,
            self.discards,
            self.outcome,
        )

    def _set_state(self, state: _Snapshot) -> None:
        (
            self.hands,
            self.pile,
            self.stock_pos,
            self.phase,
            self.player,
            self._passes,
            self.taken,
            self.discards,
            self.outcome,
        ) = state

    def restore(self, snapshot: tuple[int, _Snapshot]) -> None:
        """Back to the moment of :meth:`snapshot`, the moves since forgotten (those
        played with :meth:`push` too: take none back with :meth:`pop` afterwards)."""
        moves, state = snapshot
        self._set_state(state)
        del self.history[moves:]
        self._legal = None

    # -- what is seen ------------------------------------------------------------------------

    def hand(self, player: int) -> int:
        """The mask of ``player``'s cards."""
        return self.hands[player]

    def stock_size(self) -> int:
        return len(self.deck) - self.stock_pos

    def top_discard(self) -> int | None:
        return self.pile[-1] if self.pile else None

    def to_move(self) -> int | None:
        """The player to move, or ``None`` once the hand is over."""
        return None if self.phase == _OVER else self.player

    def is_over(self) -> bool:
        return self.phase == _OVER

    def turns(self) -> int:
        """How many turns have ended with a discard."""
        return self.discards

    def deadwood(self, player: int) -> int:
        """The least deadwood ``player``'s cards leave now."""
        return min_deadwood(self.hands[player])

    # -- moves -------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The action ints the player to move may play, in increasing order (a fresh
        list; it is worked out once per position)."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        if self.phase == _UPCARD:
            return [TAKE, PASS]
        if self.phase == _DRAW:
            # Once both players refused the upcard, the non-dealer must draw.
            return [DRAW] if self._passes == 2 else [DRAW, TAKE]
        if self.phase == _DISCARD:
            hand = self.hands[self.player]
            cards = [c for c in cards_of(hand) if c != self.taken]
            return [DISCARD + c for c in cards] + [KNOCK + c for c in self._knock_cards(cards)]
        return []

    def _knock_cards(self, cards: list[int]) -> list[int]:
        """The cards among ``cards`` whose discard leaves a hand that may knock."""
        hand = self.hands[self.player]
        # Dropping a card lowers the least deadwood by at most the card's value, so a
        # card worth less than the excess over the limit can never make a knock: most
        # hands are settled by this one count, without one per card.
        excess = min_deadwood(hand) - self.knock_limit
        return [
            c
            for c in cards
            if DEADWOOD_VALUES[c] >= excess and min_deadwood(hand & ~(1 << c)) <= self.knock_limit
        ]

    def legal_moves(self) -> list[GinMove]:
        return [GinMove.of_action(action) for action in self.legal_actions()]

    def push_text(self, text: str) -> None:
        """Play a move given in notation."""
        self.push(GinMove.parse(text))

    def push(self, move: GinMove | int) -> None:
        """Play ``move``; a move the rules forbid raises :class:`GinMoveError` and
        changes nothing."""
        action = move.action if isinstance(move, GinMove) else move
        if self._legal is None:
            self._legal = self._generate()
        if type(action) is not int or action not in self._legal:
            shown = move.text() if isinstance(move, GinMove) else quoted(move)
            allowed = ", ".join(m.text() for m in self.legal_moves()) or "nothing: it is over"
            raise GinMoveError(f"{shown} is not allowed now; the moves allowed: {allowed}")
        self._undo.append(self._state())
        self.history.append((self.player, action))
        self._legal = None
        self._apply(action)

    def pop(self) -> GinMove:
        """Take back the last move; it is returned."""
        if not self._undo:
            raise GinMoveError("no move has been played in this hand")
        self._set_state(self._undo.pop())
        self._legal = None
        return GinMove.of_action(self.history.pop()[1])

    def _set_hand(self, player: int, mask: int) -> None:
        self.hands = (mask, self.hands[1]) if player == 0 else (self.hands[0], mask)

    def _apply(self, action: int) -> None:
        p = self.player
        if action == PASS:
            self._passes += 1
            self.player = 1 - p
            if self._passes == 2:  # both refused: the non-dealer draws from the stock
                self.phase = _DRAW
        elif action == TAKE:
            card = self.pile[-1]
            self.pile = self.pile[:-1]
            self._set_hand(p, self.hands[p] | 1 << card)
            self.taken = card
            self.phase = _DISCARD
        elif action == DRAW:
            card = self.deck[self.stock_pos]
            self.stock_pos += 1
            self._set_hand(p, self.hands[p] | 1 << card)
            self.taken = -1
            self.phase = _DISCARD
        else:
            card = action - DISCARD if action < KNOCK else action - KNOCK
            self._set_hand(p, self.hands[p] & ~(1 << card))
            self.pile = (*self.pile, card)
            self.taken = -1
            self.discards += 1
            if action >= KNOCK:
                self._knock(p)
            elif (
                self.stock_size() <= self.rules.dead_hand_stock
                or self.turns() >= self.rules.turn_cap
            ):
                self.outcome = GinOutcome("dead", None, 0)
                self.phase = _OVER
            else:
                self.player = 1 - p
                self.phase = _DRAW
                self._passes = 0

    def _knock(self, knocker: int) -> None:
        rules = self.rules
        defender = 1 - knocker
        laid = best_arrangement(self.hands[knocker])
        own, layoff = defend(self.hands[defender], () if laid.points == 0 else laid.melds)
        knocked = laid.points
        defended = own.points - deadwood_points(layoff.laid)
        # Oklahoma's spade doubling applies to the deadwood counted, not to the bonus.
        if knocked == 0:
            how, winner, base, bonus = "gin", knocker, defended, rules.gin_bonus
        elif defended <= knocked:
            how, winner, base, bonus = (
                "undercut",
                defender,
                knocked - defended,
                rules.undercut_bonus,
            )
        else:
            how, winner, base, bonus = "knock", knocker, defended - knocked, 0
        deadwood = (knocked, defended) if knocker == 0 else (defended, knocked)
        points = base * self.multiplier + bonus
        self.outcome = GinOutcome(how, winner, points, knocker, laid, own, layoff, deadwood)
        self.phase = _OVER

    def play_out(self, rng: random.Random) -> GinOutcome:
        """Play random legal moves to the end of the hand (for tests and benchmarks)."""
        while self.phase != _OVER:
            if self._legal is None:
                self._legal = self._generate()
            self.push(rng.choice(self._legal))
        assert self.outcome is not None
        return self.outcome

    def __repr__(self) -> str:
        return (
            f"<GinHand dealer={self.dealer} to_move={self.to_move()} stock={self.stock_size()}"
            f" moves={len(self.history)}>"
        )
