"""A game of Gin Rummy as every front end plays it (layer 5): seats, the game, the
computer's moves, hints, the end of each hand and the score sheet, and the record.

:class:`GinPlaySession` answers as :class:`umtali.games.umtali.session.PlaySession` does, for the
other game: a front end asks whose turn it is (:meth:`~GinPlaySession.to_move`), shows
that seat its :meth:`~GinPlaySession.view` (a :class:`~umtali.games.gin.view.GinView`: it
holds no hidden card), sends back what was typed with :meth:`~GinPlaySession.submit`,
and lets the computer move with :meth:`~GinPlaySession.bot_move`. The seed scheme, the
seats kept in the record and the refusals are those of Umtali's session
(:mod:`umtali.session.shared`), so a game of Gin Rummy is dealt, replayed and resumed the
same way, and the arena plays it through the same loop.

>>> session = GinPlaySession.new(seed=3, humans={0}, bot="greedy")
>>> hand = session.deal()
>>> while session.to_move() == 1:
...     _ = session.bot_move()
>>> session.submit(0, "discard Zz").sentence
"'Zz' is not a card: the suit must be one of c d h s or ♣ ♦ ♥ ♠."
>>> session.submit(0, "draw").sentence
'The first upcard is offered first: take it or pass; you draw from the stock once both players have passed it.'
>>> session.submit(0, "pass").sentence
'You pass on the upcard'
>>> session.tell(0, session.bot_move().index)
'Computer (Casual) takes 2♥ from the pile'
>>> session.tell(0, session.bot_move().index)
'Computer (Casual) discards J♣'
>>> session.hint(0).move in session.view(0).legal
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from umtali.games.gin.bots import GIN_BOTS, GinBot, make_gin_bot
from umtali.games.gin.game import GinGameResult
from umtali.games.gin.match import GinMatch
from umtali.games.gin.melds import best_arrangement, min_deadwood
from umtali.games.gin.rules import GIN, GIN_PRESETS, GinRules
from umtali.games.gin.state import UPCARD_INDEX, GinHand, GinMove, GinMoveError
from umtali.games.gin.view import GinView
from umtali.kernel.cards import card_name, cards_of
from umtali.kernel.english import object_name, plural, possessive, subject
from umtali.kernel.seeds import Seed, first_dealer_for
from umtali.session import shared
from umtali.session.shared import Guard, Recap, Refused, Seats, TwoSeatSession, bots_named

__all__ = [
    "DEFAULT_GIN_BOT",
    "GinAccepted",
    "GinBotMove",
    "GinHandSummary",
    "GinHint",
    "GinPlaySession",
    "GinScoreSheet",
    "GinSide",
    "explain_gin_refusal",
    "gin_result_sentence",
    "gin_variant",
    "rules_named",
    "summarize_gin_hand",
    "tell_gin_move",
    "why_gin",
]

DEFAULT_GIN_BOT = "expert"
"""The level a game of Gin Rummy is played against unless told: the strongest."""


# -- what the session answers -------------------------------------------------------------

# The answers are session_shared's, of Gin Rummy's moves; at run time the generic classes
# themselves, so that ``isinstance(reply, GinAccepted)`` works (see umtali.games.umtali.session).
if TYPE_CHECKING:
    GinAccepted: TypeAlias = shared.Accepted[GinMove]
    GinBotMove: TypeAlias = shared.BotMove[GinMove]
    GinHint: TypeAlias = shared.Hint[GinMove]
else:
    GinAccepted, GinBotMove, GinHint = shared.Accepted, shared.BotMove, shared.Hint


# -- the end of a hand and the score sheet --------------------------------------------------


@dataclass(frozen=True)
class GinSide:
    """One player's cards at the end of a hand, as they were laid.

    Attributes:
        name: the player, as the screen names him.
        melds: his melds (card masks), as laid (the knocker's with the cards laid off
            on them by the other player, ``laid_off``).
        deadwood: the cards in no meld, as a mask (after his layoffs), and
            ``deadwood_points`` their count.
        laid_off: the cards he laid off on the knocker's melds (a mask; 0 for the
            knocker).
        knocked: whether he knocked.
        score: his points in the hand.
    """

    name: str
    melds: tuple[int, ...]
    deadwood: int
    deadwood_points: int
    laid_off: int
    knocked: bool
    score: int


@dataclass(frozen=True)
class GinHandSummary:
    """A finished hand: ``how`` it ended (gin, knock, undercut, dead), both sides, the
    ``winner`` (``None`` for a dead hand) and ``result``, a sentence that tells it."""

    how: str
    sides: tuple[GinSide, GinSide]
    winner: int | None
    multiplier: int
    result: str


def gin_variant(rules: GinRules) -> str:
    """What is played, by name: "Gin Rummy", or "Oklahoma Gin".

    >>> from umtali.games.gin.rules import OKLAHOMA
    >>> gin_variant(GIN), gin_variant(OKLAHOMA)
    ('Gin Rummy', 'Oklahoma Gin')
    """
    return "Oklahoma Gin" if rules.oklahoma else "Gin Rummy"


def summarize_gin_hand(hand: GinHand, names: tuple[str, str]) -> GinHandSummary:
    """How the finished ``hand`` ended, each side's melds, layoffs and deadwood, and who
    scored what (every card is shown: the hand is over).

    >>> import random
    >>> hand = GinHand.from_seed(7)
    >>> _ = hand.play_out(random.Random(1))
    >>> summary = summarize_gin_hand(hand, ("You", "Bob"))
    >>> summary.how in ("gin", "knock", "undercut", "dead"), len(summary.sides)
    (True, 2)
    """
    outcome = hand.outcome
    if outcome is None:
        raise ValueError("the hand is not over")
    sides: list[GinSide] = []
    if outcome.how == "dead" or outcome.knocker is None:
        for seat in (0, 1):
            laid = best_arrangement(hand.hand(seat))
            sides.append(GinSide(names[seat], laid.melds, laid.deadwood, laid.points, 0, False, 0))
        how = (
            f"the hand is dead: {plural(hand.stock_size(), 'card')} left in the stock and"
            " nobody knocked. It scores nothing, and the same dealer deals again"
        )
        if hand.turns() >= hand.rules.turn_cap:
            how = (
                f"the hand is dead after {hand.turns()} turns with nobody knocked. It scores"
                " nothing, and the same dealer deals again"
            )
        return GinHandSummary("dead", (sides[0], sides[1]), None, hand.multiplier, how + ".")
    knocker = outcome.knocker
    defender = 1 - knocker
    assert outcome.knocker_melds is not None
    assert outcome.defender_melds is not None
    assert outcome.layoff is not None
    knocked = outcome.knocker_melds
    own = outcome.defender_melds
    laid_off = outcome.layoff.laid
    knocker_melds = outcome.layoff.melds if knocked.points else knocked.melds
    for seat in (0, 1):
        if seat == knocker:
            side = GinSide(
                names[seat],
                knocker_melds,
                knocked.deadwood,
                knocked.points,
                0,
                True,
                outcome.scores[seat],
            )
        else:
            side = GinSide(
                names[seat],
                own.melds,
                own.deadwood & ~laid_off,
                outcome.deadwood[defender],
                laid_off,
                False,
                outcome.scores[seat],
            )
        sides.append(side)
    k, d = names[knocker], names[defender]
    doubled = ", doubled as the first upcard was a spade" if hand.multiplier > 1 else ""
    points = plural(outcome.points, "point")
    k_dead, d_dead = outcome.deadwood[knocker], outcome.deadwood[defender]
    if outcome.how == "gin":
        result = (
            f"{subject(k, 'goes')} gin, and {subject(d, 'has', capital=False)}"
            f" {plural(d_dead, 'point')} of deadwood:"
            f" {subject(k, 'scores', capital=False)} {d_dead}{doubled}, and"
            f" {hand.rules.gin_bonus} for gin: {points}"
        )
    elif outcome.how == "undercut":
        result = (
            f"{subject(k, 'knocks')} with {k_dead} deadwood, but"
            f" {subject(d, 'has', capital=False)} only {d_dead}: an undercut."
            f" {subject(d, 'scores')} the difference{doubled}, and"
            f" {hand.rules.undercut_bonus} for the undercut: {points}"
        )
    else:
        result = (
            f"{subject(k, 'knocks')} with {k_dead} deadwood against {possessive(d)} {d_dead}:"
            f" {subject(k, 'scores', capital=False)} the difference{doubled}: {points}"
        )
    return GinHandSummary(
        outcome.how, (sides[0], sides[1]), outcome.winner, hand.multiplier, result + "."
    )


@dataclass(frozen=True)
class GinScoreSheet:
    """The score sheet of a game: each finished hand's points and how it ended, the
    totals, the target, and the game's end with its bonuses once it is over."""

    hands: tuple[tuple[tuple[int, int], str], ...]
    totals: tuple[int, int]
    target: int
    result: GinGameResult | None

    @classmethod
    def of(cls, match: GinMatch) -> GinScoreSheet:
        """The score sheet of ``match`` as it stands."""
        hands = tuple(
            (hand.outcome.scores, hand.outcome.how)
            for hand in match.hands
            if hand.outcome is not None
        )
        return cls(hands, match.game.totals(), match.rules.game_target, match.result())


# -- why a move is refused -------------------------------------------------------------------


def explain_gin_refusal(view: GinView, move: GinMove) -> str:
    """Why ``move`` is not allowed to the player of ``view`` now, addressed to him.

    >>> hand = GinHand.from_seed(7)
    >>> explain_gin_refusal(GinView.of(hand, 1), GinMove("draw"))
    'the first upcard is offered first: take it or pass; you draw from the stock once both players have passed it'
    """
    kinds = {legal.kind for legal in view.legal}
    top = card_name(view.pile[-1]) if view.pile else None
    if kinds == {"take", "pass"}:
        return (
            "the first upcard is offered first: take it or pass; you draw from the stock"
            " once both players have passed it"
        )
    if "draw" in kinds:
        if move.kind == "pass":
            return "passing is only for the first upcard: now draw from the stock or take the top discard"
        if move.kind == "take":
            return "both players passed the upcard, so you draw from the stock"
        if "take" in kinds:
            return f"you must draw first: take the top discard ({top}) or draw from the stock"
        return "you must draw first: both players passed the upcard, so draw from the stock"
    if move.kind in ("draw", "take", "pass"):
        return "you have drawn this turn: now discard a card, or knock"
    card = move.card
    assert card is not None
    if not view.hand >> card & 1:
        return f"you do not hold {card_name(card)}"
    discardable = {legal.card for legal in view.legal if legal.kind == "discard"}
    if card not in discardable:
        return (
            f"you took {card_name(card)} from the pile this turn, and the card just taken"
            " may not be discarded in the same turn (ruling G)"
        )
    left = min_deadwood(view.hand & ~(1 << card))
    if view.knock_limit == 0:
        limit = "this hand's knock limit is 0 (the first upcard was an ace), so only gin may knock"
    else:
        limit = f"you may knock with at most {view.knock_limit}"
    return f"knocking with {card_name(card)} would leave {left} deadwood, and {limit}"


# -- the session -----------------------------------------------------------------------------


class GinPlaySession(TwoSeatSession[GinMatch, GinHand, GinView, GinMove]):
    """A game of Gin Rummy with its seats: each seat a person (``None``) or a computer
    level of :data:`~umtali.games.gin.bots.GIN_BOTS`. What it shares with Umtali's session
    (the seats, turns, the computer's moves, hints, taking a move back) is
    :class:`~umtali.session.shared.TwoSeatSession`'s; its arguments are that class's.
    """

    game = "gin"
    known_levels = GIN_BOTS
    default_level = DEFAULT_GIN_BOT

    # -- making one ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        *,
        seed: int,
        humans: Iterable[int],
        bot: str = DEFAULT_GIN_BOT,
        rules: GinRules = GIN,
        guard: Guard = nullcontext,
    ) -> GinPlaySession:
        """A new game against level ``bot`` (or between two people, ``humans`` both
        seats), its seats kept in the record's ``meta``, named as Umtali's are."""
        if bot not in GIN_BOTS:
            raise ValueError(
                f"unknown Gin Rummy bot level {bot!r}; choose from {', '.join(GIN_BOTS)}"
            )
        seats = Seats(seed, frozenset(humans), bot)
        match = GinMatch(
            rules, first_dealer=first_dealer_for(seed), players=seats.players(), meta=seats.meta()
        )
        return cls.of_match(match, guard=guard)

    def rematch(self, seed: int, *, guard: Guard | None = None) -> GinPlaySession:
        """A new game with the same seats, level and rules, dealt from ``seed`` (play
        again).

        >>> first = GinPlaySession.new(seed=3, humans={1}, bot="random")
        >>> again = first.rematch(4)
        >>> again.levels, again.seed, again.match.players
        (('random', None), 4, ('Computer (Beginner)', 'You'))
        """
        return GinPlaySession.new(
            seed=seed,
            humans=self.humans,
            bot=self.level(),
            rules=self.match.rules,
            guard=self.guard if guard is None else guard,
        )

    @classmethod
    def between_bots(
        cls,
        levels: tuple[str, str],
        seed: Seed,
        *,
        players: tuple[str, str] | None = None,
        rules: GinRules = GIN,
        hand_limit: int | None = None,
    ) -> GinPlaySession:
        """Two computer levels, in seat 0 and seat 1 (the arena's games; with
        ``hand_limit`` 1, its single hands).

        >>> session = GinPlaySession.between_bots(("greedy", "random"), "7/0")
        >>> _ = session.play_out()
        >>> session.is_over(), max(session.match.game.totals()) >= 100
        (True, True)
        """
        match = GinMatch(
            rules,
            first_dealer=first_dealer_for(seed),
            players=players or bots_named(levels),
            hand_limit=hand_limit,
        )
        return cls(match, seed, (levels[0], levels[1]))

    # -- what is Gin Rummy's own -------------------------------------------------------
    def _make_bot(self, level: str) -> GinBot:
        return make_gin_bot(level)

    def _mover(self, hand: GinHand) -> int | None:
        return hand.to_move()

    def _move_text(self, hand: GinHand, index: int) -> str:
        return GinMove.of_action(hand.history[index][1]).text()

    def _scores(self, hand: GinHand) -> tuple[int, int] | None:
        return None if hand.outcome is None else hand.outcome.scores

    def _parse(self, text: str) -> GinMove | Refused:
        try:
            return GinMove.parse(text)
        except GinMoveError as e:
            return Refused(str(e).removesuffix("."))

    def _allowed(self, hand: GinHand, seat: int, move: GinMove) -> GinMove | Refused:
        view = GinView.of(hand, seat)
        return move if move in view.legal else Refused(explain_gin_refusal(view, move))

    def _play(self, hand: GinHand, seat: int, move: GinMove) -> str:
        with self.guard():
            hand.push(move)
        return self._told(hand, len(hand.history) - 1, seat, seat)

    def _why(self, view: GinView, move: GinMove) -> str:
        return why_gin(view, move)

    # -- where the game stands -----------------------------------------------------------
    def view(self, seat: int) -> GinView:
        """What ``seat`` may see of the last hand dealt (under way, or just over)."""
        if not self.match.hands:
            raise ValueError("no hand has been dealt")
        return GinView.of(self.match.hands[-1], seat)

    def hand_title(self, names: tuple[str, str], dealer: bool = True) -> str:
        """The hand being played and who deals.

        >>> session = GinPlaySession.new(seed=3, humans={0}, bot="greedy")
        >>> _ = session.deal()
        >>> session.hand_title(session.names_for(0))
        'Gin Rummy, hand 1 (to 100) · Computer (Casual) deals'
        """
        rules = self.match.rules
        title = f"{gin_variant(rules)}, hand {self.hand_index + 1} (to {rules.game_target})"
        if dealer and self.match.hands:
            title += f" · {subject(names[self.match.hands[-1].dealer], 'deals')}"
        return title

    def score_sheet(self) -> GinScoreSheet:
        return GinScoreSheet.of(self.match)

    def summarize_hand(self, names: tuple[str, str], hand_index: int = -1) -> GinHandSummary:
        """The end of hand ``hand_index`` (the last dealt by default), as
        :func:`summarize_gin_hand` tells it."""
        return summarize_gin_hand(self.match.hands[hand_index], names)

    def result(self, names: Sequence[str]) -> str:
        """The sentence that ends the game: who won it, with the bonuses.

        >>> session = GinPlaySession.between_bots(("expert", "random"), "1/0")
        >>> _ = session.play_out()
        >>> session.result(("Ann", "Bob"))[:8]
        'Ann wins'
        """
        result = self.match.result()
        if result is None:
            return "The game is not over."
        return gin_result_sentence(result, (names[0], names[1]))

    # -- what a player is told -----------------------------------------------------------
    def tell(self, reader: int, index: int) -> str:
        """Move ``index`` of the last hand dealt, as ``reader`` saw it: a draw from the
        stock names its card to the player who drew it only."""
        return self._told(self.match.hands[-1], index, reader, reader)

    def _told(self, hand: GinHand, index: int, reader: int, addressed: int) -> str:
        return tell_gin_move(hand, index, self.names_for(addressed), reader)

    def recap(self, reader: int, hand_index: int = -1) -> Recap:
        """The other player's moves since ``reader``'s last move in hand ``hand_index``
        (the last dealt by default), as he saw them (what a hot-seat player is told at
        the hand-over)."""
        hand = self.match.hands[hand_index]
        names = self.names_for(reader)
        return Recap.told(reader, hand.history, lambda i: tell_gin_move(hand, i, names, reader))

    # -- undo --------------------------------------------------------------------------
    def undo_refusal(self, seat: int, *, consent: bool = False) -> str | None:
        """Why ``seat`` may not take back his last move now, or ``None`` when he may. As
        in Umtali, a move may be taken back only when it told him nothing: in Gin Rummy
        that is taking the top discard (a card everyone saw), within his own turn. A
        draw showed him a card, a discard or a pass gave the turn away, and a knock
        ended the hand. No move waits for the other player's leave (``consent`` changes
        nothing): one that gave the turn away stands."""
        if seat not in self.humans:
            return "only a player at the keyboard takes back his moves"
        hand = self.match.current
        if hand is None or not hand.history or hand.history[-1][0] != seat:
            return "there is no move of yours to take back in this turn"
        kind = GinMove.of_action(hand.history[-1][1]).kind
        if kind == "draw":
            return (
                "you have seen the card you drew from the stock: a draw from the stock"
                " cannot be taken back"
            )
        if kind != "take":
            return "your turn has passed to the other player: that move stands"
        return None


def gin_result_sentence(result: GinGameResult, names: tuple[str, str]) -> str:
    """The sentence that ends a game: who won it, the points from the hands, the line
    bonuses, the game bonus, and a shutout if it was one.

    >>> from umtali.games.gin.rules import GIN
    >>> # 104 and three hands at 25, doubled, and the game bonus doubled: 2 × 179 + 200
    >>> gin_result_sentence(GinGameResult.of(0, (104, 0), (3, 0), GIN), ("Ann", "You"))
    "Ann wins the game, 558 to 0: points from the hands 104 and 0, line bonuses 75 and 0, and 200 for the game to Ann. It is a shutout: the winner's score is doubled, and the game bonus too."
    """
    w = result.winner
    doubled = " It is a shutout: the winner's score is doubled, and the game bonus too."
    shutout = doubled if result.shutout else ""
    return (
        f"{subject(names[w], 'wins')} the game, {result.final[w]} to"
        f" {result.final[1 - w]}: points from the hands {result.points[0]} and"
        f" {result.points[1]}, line bonuses {result.line[0]} and {result.line[1]},"
        f" and {result.game_bonus} for the game to {object_name(names[w])}.{shutout}"
    )


def tell_gin_move(
    hand: GinHand, index: int, names: tuple[str, str], reader: int | None = None
) -> str:
    """Move ``index`` of ``hand`` as a sentence, the players called ``names``: as
    ``reader`` saw it (a draw from the stock and a knock's face-down discard name their
    card to their player only), or with every card shown when ``reader`` is ``None``
    (a replay).

    >>> hand = GinHand.from_seed(7)
    >>> for text in ("pass", "pass", "draw"):
    ...     hand.push_text(text)
    >>> tell_gin_move(hand, 0, ("Ann", "Bob")), tell_gin_move(hand, 2, ("Ann", "Bob"), 0)
    ('Bob passes on the upcard', 'Bob draws from the stock')
    >>> tell_gin_move(hand, 2, ("Ann", "You"))
    'You draw 5♠ from the stock'
    """
    player, action = hand.history[index]
    move = GinMove.of_action(action)
    name = names[player]
    if move.kind == "pass":
        return f"{subject(name, 'passes')} on the upcard"
    if move.kind == "take":
        card = _taken_cards(hand)[index]
        return f"{subject(name, 'takes')} {card_name(card)} from the pile"
    if move.kind == "draw":
        if reader is not None and player != reader:
            return f"{subject(name, 'draws')} from the stock"
        card = _drawn_cards(hand)[index]
        return f"{subject(name, 'draws')} {card_name(card)} from the stock"
    assert move.card is not None
    if move.kind == "knock":
        if reader is not None and player != reader:  # face down: the other player never sees it
            return f"{subject(name, 'knocks')}, discarding a card face down"
        return f"{subject(name, 'knocks')}, discarding {card_name(move.card)} face down"
    return f"{subject(name, 'discards')} {card_name(move.card)}"


def rules_named(variant: str) -> GinRules:
    """The preset ``variant`` ("standard" or "oklahoma"); ``ValueError`` names them."""
    try:
        return GIN_PRESETS[variant]
    except KeyError:
        raise ValueError(
            f"unknown Gin Rummy variant {variant!r}; choose from {', '.join(GIN_PRESETS)}"
        ) from None


def _taken_cards(hand: GinHand) -> dict[int, int]:
    """The card each ``take`` of the hand took, by move index: the pile is rebuilt move
    by move, since a take names no card (every card in the pile was seen)."""
    pile = [hand.deck[UPCARD_INDEX]]
    taken: dict[int, int] = {}
    for index, (_player, action) in enumerate(hand.history):
        move = GinMove.of_action(action)
        if move.kind == "take":
            taken[index] = pile.pop()
        elif move.card is not None:
            pile.append(move.card)
    return taken


def _drawn_cards(hand: GinHand) -> dict[int, int]:
    """The card each draw from the stock drew, by move index (the stock is the deck
    after the upcard, drawn in order)."""
    drawn: dict[int, int] = {}
    position = UPCARD_INDEX + 1
    for index, (_player, action) in enumerate(hand.history):
        if GinMove.of_action(action).kind == "draw":
            drawn[index] = hand.deck[position]
            position += 1
    return drawn


def why_gin(view: GinView, move: GinMove) -> str:
    """Why ``move`` is a good choice now, in words, from the deadwood it leaves (what
    the greedy and expert levels weigh first).

    >>> hand = GinHand.from_seed(7)
    >>> why_gin(GinView.of(hand, 1), GinMove("pass"))[:20]
    'the upcard (9♦) woul'
    """
    if len(view.legal) == 1:
        return "it is the only move allowed now"
    now = min_deadwood(view.hand)
    if move.kind in ("take", "pass", "draw"):
        top = view.pile[-1]
        with_top = min(
            min_deadwood((view.hand | 1 << top) & ~(1 << c)) for c in cards_of(view.hand)
        )
        what = (
            "the upcard"
            if move.kind == "pass" or "pass" in {m.kind for m in view.legal}
            else "the top discard"
        )
        if move.kind == "take":
            return (
                f"{what} ({card_name(top)}) brings your deadwood from {now} down to"
                f" {with_top} once you discard"
            )
        return (
            f"{what} ({card_name(top)}) would not lower your deadwood ({now}), and the card"
            " from the pile shows the other player what you keep"
        )
    assert move.card is not None
    left = min_deadwood(view.hand & ~(1 << move.card))
    if move.kind == "knock":
        if left == 0:
            return f"discarding {card_name(move.card)} leaves no deadwood: gin, worth 25 and the other player's deadwood"
        return (
            f"discarding {card_name(move.card)} leaves {left} deadwood, within the knock"
            f" limit of {view.knock_limit}: knock before the other player improves"
        )
    return f"discarding {card_name(move.card)} leaves {left} deadwood, the least this hand can keep"
