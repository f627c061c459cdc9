"""A game of Umtali as every front end plays it: seats, the match, the computer's moves,
hints, undo and the record (layer 5).

A :class:`PlaySession` holds a :class:`~umtali.games.umtali.match.Match` and who sits in each seat: a
person (at a terminal, a web page) or a computer level. A front end asks whose turn it
is, shows that seat its :meth:`~PlaySession.view`, and sends back what was typed with
:meth:`~PlaySession.submit`; the computer's turns are played by
:meth:`~PlaySession.bot_move`. The arena is a session with two computer seats, played by
:meth:`~PlaySession.play_out`. The session holds no I/O: where a change must not be
interrupted halfway, the front end passes a ``guard`` (the terminal holds Ctrl-C back).
A :class:`SeatsSeen` beside it remembers what each seat has been shown, so that a front
end draws the whole board once a turn and marks the cards that are new to a player; a
game kept in a file is a :class:`umtali.session.kept.KeptGame`.

**One seed scheme.** Everything random in a session comes from its seed: hand ``i`` is
dealt from ``seeded_deck(f"{seed}/{i}")``, the first dealer from
``f"{seed}/first dealer"``, and the computer's decision at move ``m`` of hand ``i`` from
its own ``random.Random(f"{seed}/{i}/{m}")`` (:func:`decision_rng`). So a saved game,
resumed, plays on exactly as it would have, whatever the machine's speed, and the arena's
games do not depend on the order in which its processes play them.

**Undo.** A person may take back his last move, and then the one before, as long as it
told him nothing he did not know when he made it, and nobody has moved since:

* not a draw from the stock (he has seen the card; drawing again would be drawing
  knowing it), nor the dealer's ``keep`` or ``give`` (the cards are then dealt);
* not after the other player has moved: the computer's moves show what it chose from a
  hand he cannot see, and a person's were made on what he was shown;
* not a move that ended the hand (the hand is scored).

Within his own turn he needs nobody's leave. A move that passed the turn (a discard, a
pair) can be taken back only before the other player has moved: the computer moves at
once, so against it such a move stands (unless a front end lets it wait); in hot-seat,
the other player is asked at the hand-over, and the move is taken back only if he
agrees (``consent``). An undone move is gone from the record.

>>> session = PlaySession.new(seed=3, humans={0}, bot="greedy")
>>> hand = session.deal()
>>> while session.to_move() == 1:
...     _ = session.bot_move()
>>> session.to_move()
0
>>> isinstance(session.submit(0, "discard Zz"), Refused)  # the reason says why
True
>>> session.hint(0).move in session.view(0).legal
True
>>> session.submit(0, session.view(0).legal[0]).sentence
'You draw K♣ from the stock'
>>> session.undo(0)
Refused(reason='you have seen the card you drew from the stock: a draw from the stock cannot be taken back', rules=())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from umtali.games.umtali.bots import BOTS, DEFAULT_BOT, Bot, make_bot
from umtali.games.umtali.bots.evaluate import discard_danger, situation
from umtali.games.umtali.describe import (
    describe_move,
    describe_seen,
    explain_illegal,
    how_hand_ended,
    who_won,
)
from umtali.games.umtali.match import Match, MatchKind
from umtali.games.umtali.melds import (
    SOLO_ACCEPTS,
    ColumnKind,
    column_kind,
    column_points,
    meld_plans,
)
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.reasons import refusal
from umtali.games.umtali.rules import PRESETS, STANDARD, RuleSet
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import JACKS, CardSet, card_name, card_points, cards_of, rank_of
from umtali.kernel.english import object_name, subject
from umtali.kernel.seeds import Seed, decision_rng, deck_for, first_dealer_for
from umtali.session import shared
from umtali.session.shared import (
    BotError,
    Guard,
    Recap,
    Refused,
    Seats,
    SeatsError,
    TwoSeatMaker,
    TwoSeatSession,
    bots_named,
    check_deals,
)

__all__ = [
    "Accepted",
    "BotError",
    "BotMove",
    "ColumnScore",
    "Guard",
    "HandSummary",
    "Hint",
    "Look",
    "PlaySession",
    "Recap",
    "Refused",
    "ScoreSheet",
    "Seats",
    "SeatsError",
    "SeatsSeen",
    "SideSummary",
    "check_deals",
    "decision_rng",
    "deck_for",
    "first_dealer_for",
    "rules_label",
    "summarize_hand",
    "table_mask",
    "why",
]

# -- what the session answers -------------------------------------------------------------------

# The answers are session_shared's, of Umtali's moves. At run time the names are the generic
# classes themselves, so that ``isinstance(reply, Accepted)`` works; a type checker sees
# them of ``Move``.
if TYPE_CHECKING:
    Accepted: TypeAlias = shared.Accepted[Move]
    BotMove: TypeAlias = shared.BotMove[Move]
    Hint: TypeAlias = shared.Hint[Move]
else:
    Accepted, BotMove, Hint = shared.Accepted, shared.BotMove, shared.Hint


# -- the end of a hand and the score sheet ----------------------------------------------------


@dataclass(frozen=True)
class ColumnScore:
    """One column on the table at the end of a hand: its cards top down, what it is (a
    marriage with its multiplier) and its points."""

    cards: tuple[int, ...]
    kind: str
    points: int


@dataclass(frozen=True)
class SideSummary:
    """One player's side at the end of a hand.

    Attributes:
        name: the player, as the screen names him.
        score: his points in the hand.
        columns: his columns with their points.
        forfeit_won: the other player's cards forfeited to him (empty: none).
        left: the cards left in his hand, and ``left_label`` what became of them.
        left_scored: whether they went to the other player (else they score for nobody).
    """

    name: str
    score: int
    columns: tuple[ColumnScore, ...]
    forfeit_won: CardSet
    left: CardSet
    left_label: str
    left_scored: bool


@dataclass(frozen=True)
class HandSummary:
    """A finished hand, as the screen shows it: how it ended, each side with its points,
    and who won it (``result``, a sentence)."""

    ended: str
    sides: tuple[SideSummary, SideSummary]
    winner: int | None
    result: str


def summarize_hand(hand: HandState, names: tuple[str, str]) -> HandSummary:
    """How the finished ``hand`` ended and what each side scored, every card shown (the
    hand is over). ``names``: the players as the screen names them."""
    outcome = hand.outcome()
    if outcome is None:
        raise ValueError("the hand is not over")
    multiplier = hand.rules.marriage_multiplier
    sides = []
    for p in (0, 1):
        columns = tuple(
            ColumnScore(
                tuple(column.top_down()),
                column.kind.label
                + (f" ×{multiplier}" if column.kind == ColumnKind.MARRIAGE else ""),
                column_points(column.kind, column.cards.mask, multiplier),
            )
            for column in hand.table(p)
        )
        went_out_first = bool(outcome.went_out) and p == outcome.went_out[0]
        lost = bool(outcome.went_out) and p not in outcome.went_out
        sides.append(
            SideSummary(
                name=names[p],
                score=outcome.scores[p],
                columns=columns,
                forfeit_won=outcome.forfeited if went_out_first else CardSet(),
                left=hand.hand(p),
                left_label=(
                    f"forfeited to {object_name(names[1 - p])}"
                    if lost
                    else "left in hand, scoring for nobody"
                ),
                left_scored=lost,
            )
        )
    return HandSummary(
        how_hand_ended(outcome, names),
        (sides[0], sides[1]),
        outcome.winner,
        who_won(outcome.winner, names, "hand"),
    )


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of a match: each game begun (its number from 1, each finished
    hand's scores, its totals), the games won in a session, and the points on the table
    in the hand under way when asked for."""

    games: tuple[tuple[int, tuple[tuple[int, int], ...], tuple[int, int]], ...]
    games_won: tuple[int, int] | None
    this_hand: tuple[int, int] | None


def table_mask(view: PlayerView) -> int:
    """Every card on the table, both sides, as a mask (to mark the ones played since a
    player last looked)."""
    mask = 0
    for side in view.tables:
        for column in side:
            mask |= column.cards.mask
    return mask


# -- the session ------------------------------------------------------------------------------------


class PlaySession(TwoSeatSession[Match, HandState, PlayerView, Move]):
    """A match of Umtali with its seats: each seat a person (``None``) or a computer
    level of :data:`~umtali.games.umtali.bots.BOTS`. What it shares with Gin Rummy's session (the
    seats, turns, the computer's moves, hints, taking a move back) is
    :class:`~umtali.session.shared.TwoSeatSession`'s; its arguments are that class's.
    """

    game = "umtali"
    known_levels = BOTS
    default_level = DEFAULT_BOT

    # -- making one ----------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        *,
        seed: int,
        humans: Iterable[int],
        bot: str = DEFAULT_BOT,
        kind: MatchKind = "game",
        rules: RuleSet = STANDARD,
        guard: Guard = nullcontext,
    ) -> PlaySession:
        """A new match to ``rules`` against level ``bot`` (or between two people,
        ``humans`` both seats), its seats kept in the record's ``meta``. The players are
        called "You" and "Computer (Casual)" (the level's title), or "Player 1" and
        "Player 2" in hot-seat."""
        seats = Seats(seed, frozenset(humans), bot)
        match = Match(
            rules,
            kind=kind,
            first_dealer=first_dealer_for(seed),
            players=seats.players(),
            meta=seats.meta(),
        )
        return cls.of_match(match, guard=guard)

    @classmethod
    def between_bots(
        cls,
        levels: tuple[str, str],
        seed: Seed,
        *,
        kind: MatchKind = "game",
        players: tuple[str, str] | None = None,
        rules: RuleSet = STANDARD,
    ) -> PlaySession:
        """Two computer levels, in seat 0 and seat 1 (the arena's games).

        >>> session = PlaySession.between_bots(("greedy", "random"), "7/0")
        >>> moves = session.play_out()
        >>> len(session.match.hands), session.is_over()
        (4, True)
        """
        match = Match(
            rules,
            kind=kind,
            first_dealer=first_dealer_for(seed),
            players=players or bots_named(levels),
        )
        return cls(match, seed, (levels[0], levels[1]))

    def rematch(self, seed: int, *, guard: Guard | None = None) -> PlaySession:
        """A new match with the same seats, level, kind and rules, dealt from ``seed``
        (play again)."""
        return PlaySession.new(
            seed=seed,
            humans=self.humans,
            bot=self.level(),
            kind=self.match.kind,
            rules=self.match.rules,
            guard=self.guard if guard is None else guard,
        )

    # -- what is Umtali's own ------------------------------------------------------------------
    def _make_bot(self, level: str) -> Bot:
        # Reproducible: the computer's choices depend on the deal and the seed alone (not
        # on the machine's speed), so a seeded or resumed game plays the same.
        return make_bot(level, reproducible=True)

    def _mover(self, hand: HandState) -> int:
        return hand.player

    def _move_text(self, hand: HandState, index: int) -> str:
        return Move.from_action(hand.history[index][1]).text()

    def _scores(self, hand: HandState) -> tuple[int, int] | None:
        outcome = hand.outcome()
        return None if outcome is None else outcome.scores

    def _parse(self, text: str) -> Move | Refused:
        try:
            return parse_move(text)
        except InvalidMoveError as e:
            return Refused(str(e))

    def _allowed(self, hand: HandState, seat: int, move: Move) -> Move | Refused:
        """``move`` as the engine completes it (the cards a take takes), or the engine's
        reason not, addressed to ``seat``."""
        try:
            return hand.resolve(move)
        except IllegalMoveError:
            # The sentence leaves the rulings out; they come with it as data, to link to.
            rules = refusal(hand, move).rules
            return Refused(explain_illegal(hand, move, names=self.names_for(seat)), rules)

    def _play(self, hand: HandState, seat: int, move: Move) -> str:
        # Told before it is played: the sentence names what the move takes from the board.
        sentence = describe_move(hand, move, names=self.names_for(seat))
        with self.guard():
            hand.push(move)
        return sentence

    def _why(self, view: PlayerView, move: Move) -> str:
        return why(view, move)

    # -- where the match stands -------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of the hand under way (R11), with the game's totals."""
        return self.match.view(seat)

    def game_so_far(self) -> tuple[int, int] | None:
        """The totals of the game's finished hands while a hand is played; ``None`` in
        a game's first hand and when the match is a single hand."""
        per = self.match.rules.hands_per_game
        in_game = len(self.match.finished_outcomes()) % per
        if self.match.kind == "hand" or in_game == 0:
            return None
        return self.match.game_totals()

    def hand_title(self, names: tuple[str, str], dealer: bool = True) -> str:
        """The hand being played, "Game 1, hand 2 of 4", the rules when they are not the
        standard ones (:func:`rules_label`), and who deals (``dealer``).

        >>> session = PlaySession.new(seed=3, humans={0}, bot="greedy")
        >>> _ = session.deal()
        >>> session.hand_title(session.names_for(0))
        'Game 1, hand 1 of 4 · Computer (Casual) deals'
        >>> from umtali.games.umtali.rules import PRACTICAL
        >>> practical = PlaySession.new(seed=3, humans={0}, bot="greedy", rules=PRACTICAL)
        >>> _ = practical.deal()
        >>> practical.hand_title(practical.names_for(0), dealer=False)
        'Game 1, hand 1 of 4 · practical rules'
        """
        per = self.match.rules.hands_per_game
        game, number = divmod(self.hand_index, per)
        if self.match.kind == "hand":
            title = "A single hand"
        else:
            title = f"Game {game + 1}, hand {number + 1} of {per}"
        label = rules_label(self.match.rules)
        if label is not None:
            title += f" · {label}"
        if dealer:
            title += f" · {subject(names[self.match.hands[-1].dealer], 'deals')}"
        return title

    def score_sheet(self, running: bool = False) -> ScoreSheet:
        """The score sheet; ``running``: with the points of the hand under way."""
        match = self.match
        games = tuple(
            (number, tuple(outcome.scores for outcome in hands), match.game_totals(number - 1))
            for number, hands in enumerate(match.games(), start=1)
            if hands
        )
        hand = self.hand
        return ScoreSheet(
            games,
            match.games_won() if match.kind == "session" else None,
            hand.played_points() if running and hand is not None else None,
        )

    def result(self, names: Sequence[str]) -> str:
        """The sentence that ends the match: who won it, or that it is drawn."""
        return who_won(self.match.winner(), (names[0], names[1]), self.match.kind)

    # -- what a player is told ---------------------------------------------------------------
    def tell(self, reader: int, index: int) -> str:
        """The other player's move ``index`` of the last hand dealt, as ``reader`` saw
        it (R11: a stock draw without its card, a face-down discard as "a card")."""
        view = PlayerView.of(self.match.hands[-1], reader)
        return describe_seen(view, index, self.names_for(reader))

    def recap(self, reader: int, hand_index: int = -1, view: PlayerView | None = None) -> Recap:
        """The other player's moves since ``reader``'s last move in hand ``hand_index``
        (by default the last one dealt, under way or over), told from ``reader``'s view
        (R11): what a hot-seat player, or a resumed game, is told, and how a hand that
        has just ended finished, for a seat that did not see its last moves. ``view``:
        ``reader``'s view of that hand now, when the caller has built it already."""
        hands = self.match.hands
        if not -len(hands) <= hand_index < len(hands):
            raise ValueError(f"no hand {hand_index}: {len(hands)} dealt so far, counted from 0")
        if view is None:
            view = PlayerView.of(hands[hand_index], reader)
        elif view.player != reader:
            raise ValueError(f"a recap for seat {reader} is told from his own view")
        seen, names = view, self.names_for(reader)
        return Recap.told(reader, seen.history, lambda i: describe_seen(seen, i, names))

    # -- undo ------------------------------------------------------------------------------------
    def undo_needs_consent(self, seat: int) -> bool:
        """Whether taking back ``seat``'s last move needs the other player's leave: it
        passed the turn to a person who has not moved yet (hot-seat, at the hand-over)."""
        hand = self.match.current
        if hand is None or not hand.history:
            return False
        actor, _ = hand.history[-1]
        return actor == seat and hand.player != seat and self.levels[hand.player] is None

    def undo_refusal(self, seat: int, *, consent: bool = False) -> str | None:
        """Why ``seat`` may not take back his last move now (see the module's rule), or
        ``None`` when he may."""
        if seat not in self.humans:
            return "only a player at the keyboard takes back his moves"
        hand = self.match.current
        nothing = "there is no move of yours to take back in this hand"
        if hand is None or not any(actor == seat for actor, _ in hand.history):
            return nothing
        actor, action = hand.history[-1]
        other = self.match.players[1 - seat]
        if actor != seat:
            return f"{other} has moved since your last move, and you have seen it: it stands"
        kind = Move.from_action(action).kind
        if kind is MoveKind.DRAW:
            return (
                "you have seen the card you drew from the stock: a draw from the stock"
                " cannot be taken back"
            )
        if kind in (MoveKind.KEEP, MoveKind.GIVE):
            return "the cards are dealt: the choice of the 11th card cannot be taken back"
        if self.undo_needs_consent(seat) and not consent:
            return f"your turn has passed to {other}, who must agree to it"
        return None


def rules_label(rules: RuleSet) -> str | None:
    """How a title names ``rules``: ``None`` for the standard rules, else the preset, or
    the preset changed (a record may change any option of it).

    >>> from umtali.games.umtali.rules import PRACTICAL
    >>> rules_label(STANDARD) is None, rules_label(PRACTICAL)
    (True, 'practical rules')
    >>> import dataclasses
    >>> rules_label(dataclasses.replace(STANDARD, marriage_multiplier=3))
    'standard rules, changed'
    """
    if rules == STANDARD:
        return None
    if rules == PRESETS.get(rules.name):
        return f"{rules.name} rules"
    return f"{rules.name} rules, changed"


# -- what each seat has seen ------------------------------------------------------------------


@dataclass(frozen=True)
class Look:
    """What to show a seat as its turn comes (see :class:`SeatsSeen`).

    Attributes:
        whole: the first look at this turn: the whole board is shown (at a later move
            in the same turn, only what changed: the move was just told).
        new: the cards on the table that came since the seat last looked, as a mask
            (none at its first look at a hand).
    """

    whole: bool
    new: int


class SeatsSeen:
    """What each seat of a session has been shown of the hand under way, so that a front
    end shows a player what is new to him: the whole board once a turn, the cards put on
    the table since he last looked, and, in hot-seat, when the keyboard changes hands.

    A front end keeps one for each screen; a new one (a resumed game) has seen nothing,
    and nothing is marked new at its first look. A new hand is noticed by itself.

    >>> session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    >>> _ = session.deal()
    >>> while session.to_move() == 1:
    ...     _ = session.bot_move()
    >>> seen = SeatsSeen(session)
    >>> seen.look(0)
    Look(whole=True, new=0)
    >>> seen.look(0).whole  # the same turn, looked at again
    False
    """

    def __init__(self, session: PlaySession) -> None:
        self.session = session
        self._hand_index = session.hand_index
        self._turn_shown: tuple[int, int, int] | None = None
        """(hand, turn, seat) whose whole board was shown last."""
        self._table_seen: dict[int, int] = {}
        """Per seat, the cards on the table when he last looked."""
        self._at_keyboard: int | None = None
        """The seat that looked last in this hand."""

    def _hand(self) -> HandState:
        """The hand under way; when it is a new one, nobody has seen anything of it."""
        hand = self.session.hand
        if hand is None:
            raise ValueError("no hand is being played")
        if self.session.hand_index != self._hand_index:
            self._hand_index = self.session.hand_index
            self._table_seen.clear()
            self._at_keyboard = None
        return hand

    def hand_over_due(self, seat: int) -> bool:
        """Whether, before ``seat``'s turn is shown, the screen must be handed over to
        him (hidden first): hot-seat, and he is not the one who looked last in this hand."""
        self._hand()
        return self.session.hotseat and self._at_keyboard != seat

    def look(self, seat: int) -> Look:
        """``seat`` looks at the hand as his turn comes, or goes on: what to show him.
        He is then the one at the keyboard, and has seen the table as it is."""
        hand = self._hand()
        here = (self.session.hand_index, hand.turn, seat)
        on_table = table_mask(self.session.view(seat))
        look = Look(self._turn_shown != here, on_table & ~self._table_seen.get(seat, -1))
        self._turn_shown = here
        self._table_seen[seat] = on_table
        self._at_keyboard = seat
        return look

    def forget_turn(self) -> None:
        """Show the next look whole, even in the turn shown last (the screen was
        cleared: a move was taken back at a hot-seat hand-over)."""
        self._turn_shown = None


# -- why a hint ---------------------------------------------------------------------------------


def _points_now(hand: int, open_mask: int, multiplier: int) -> int:
    """The most points the meld phase can lay from ``hand`` now."""
    return max((plan.points for plan in meld_plans(hand, open_mask, multiplier)), default=0)


def _points(n: float) -> str:
    """A number of points, in words.

    >>> _points(1), _points(2), _points(0.5)
    ('1 point', '2 points', '0.5 points')
    """
    shown = f"{n:.1f}".removesuffix(".0")
    return f"{shown} point{'' if shown == '1' else 's'}"


def why(view: PlayerView, move: Move) -> str:
    """Why ``move`` is a good choice for ``view.player`` now, in words: the points it
    brings, or what it keeps from the opponent. Worked out from the view alone, with the
    measures the expert level uses (:mod:`umtali.games.umtali.bots.evaluate`)."""
    legal = view.legal
    if len(legal) == 1:
        return "it is the only move allowed now"
    kind = move.kind
    hand = view.hand.mask
    open_mask = view.open_mask()
    multiplier = view.rules.marriage_multiplier
    if kind is MoveKind.KEEP:
        return "with the 11th card you open the hand, and you are sure of at least two turns"
    if kind is MoveKind.GIVE:
        return "the other player then holds the 11th card and opens the hand"
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        return _why_draw(view, move, hand, open_mask, multiplier)
    if kind in (MoveKind.MELD, MoveKind.SOLO):
        mask = sum(1 << c for c in move.cards)
        if kind is MoveKind.MELD:
            gain = column_points(column_kind(mask), mask, multiplier)
        else:
            gain = card_points(move.cards[0])
        if sum(1 for m in legal if m.kind in (MoveKind.MELD, MoveKind.SOLO)) == 1:
            if view.rules.compulsory_play:
                return f"it scores {_points(gain)}, and every card you can play must be played"
            return f"it scores {_points(gain)}, the only card you can play now"
        best = _points_now(hand, open_mask, multiplier)
        return (
            f"it scores {_points(gain)} now, on the way to the most this turn can lay"
            f" ({_points(best)} in all)"
        )
    if kind is MoveKind.PAIR:
        laid = "pair" if rank_of(move.cards[0]) == rank_of(move.cards[1]) else "two-card run"
        if view.last_turn:
            return f"the {laid} scores its cards, where held they would go to the other player"
        return f"it takes you out with the {laid}, and the other player gets one last turn"
    if kind is MoveKind.FORFEIT:
        return "you cannot go out, so the cards left in your hand are forfeited"
    card = move.cards[0]  # a discard
    if hand.bit_count() == 1:
        if move.face_down:
            return "it takes you out, and face down the other player cannot take it"
        return "it takes you out"
    danger = discard_danger(card, view.top_discard(), situation(view))
    if open_mask >> card & 1:
        gives = "though the table takes it, so the other player could take it and play it"
    elif danger > 0:
        gives = "though it goes with the top discard, so the other player could take both"
    else:
        gives = "and nothing on the table takes it"
    return f"{card_name(card)} is the card your hand needs least, {gives}"


def _why_draw(view: PlayerView, move: Move, hand: int, open_mask: int, multiplier: int) -> str:
    """Why this way of drawing: what the top discard would score at once, against what a
    card from the stock is expected to."""
    base = _points_now(hand, open_mask, multiplier)
    if move.kind is MoveKind.TAKE_TWO:
        both = _points_now(hand | sum(1 << c for c in move.cards), open_mask, multiplier)
        return f"both cards go onto the table this turn, for {_points(both - base)} more"
    # What an average card of the stock would add now: the cards the player cannot place,
    # less those the opponent is known to hold; a card nothing accepts adds nothing.
    stock = view.unseen().mask & ~view.opponent_known.mask
    playable = open_mask | JACKS
    for c in cards_of(hand):
        playable |= SOLO_ACCEPTS[c]
    expected = sum(
        _points_now(hand | 1 << c, open_mask, multiplier) - base for c in cards_of(stock & playable)
    ) / max(1, stock.bit_count())
    average = _points(round(expected, 1))
    if move.kind is MoveKind.TAKE:
        card = move.cards[0]
        taken = view.cards_taken_by(move)
        gain = _points_now(hand | taken.mask, open_mask, multiplier) - base
        if len(taken) == 1:
            return (
                f"{card_name(card)} is played at once for {_points(gain)} more this turn,"
                f" where a card from the stock would bring {average} on average"
            )
        return (
            f"{card_name(card)} and the {len(taken) - 1} card(s) above it bring"
            f" {_points(gain)} more this turn, where a card from the stock would bring"
            f" {average} on average"
        )
    top = view.top_discard()
    if top is None:
        return "there is no face-up discard to take"
    gain = _points_now(hand | 1 << top, open_mask, multiplier) - base
    if gain == 0:
        return (
            f"{card_name(top)} would not be played at once, and a card taken from the pile"
            " cannot be your discard this turn"
        )
    return (
        f"{card_name(top)} would bring {_points(gain)} this turn, a card from the stock"
        f" {average} on average, with the chance of more"
    )


# -- how the registry makes Umtali's sessions ---------------------------------------------------


def _two(count: int) -> None:
    if count != 2:
        raise ValueError(f"Umtali is a game for two: it has 2 seats, not {count}")


def _rules(variant: str | None) -> RuleSet:
    name = variant or "standard"
    if name not in PRESETS:
        raise ValueError(f"Umtali has no variant {name!r}; choose from {', '.join(PRESETS)}")
    return PRESETS[name]


def _kind(length: str | None) -> MatchKind:
    kind = length or "game"
    if kind == "hand":
        return "hand"
    if kind == "session":
        return "session"
    if kind != "game":
        raise ValueError(f"an Umtali match is a hand, a game or a session, not {kind!r}")
    return "game"


class UmtaliSessions(TwoSeatMaker[PlaySession]):
    """Umtali's :class:`~umtali.games.api.SessionMaker`."""

    session = PlaySession

    def new(
        self,
        *,
        seed: int,
        humans: Iterable[int],
        seats: int = 2,
        level: str | None = None,
        variant: str | None = None,
        length: str | None = None,
        guard: Guard | None = None,
    ) -> PlaySession:
        _two(seats)
        bot = level or DEFAULT_BOT
        if bot not in BOTS:
            raise ValueError(
                f"unknown Umtali computer level {bot!r}; choose from {', '.join(BOTS)}"
            )
        return PlaySession.new(
            seed=seed,
            humans=humans,
            bot=bot,
            kind=_kind(length),
            rules=_rules(variant),
            guard=guard or nullcontext,
        )

    def between_bots(
        self,
        levels: Sequence[str],
        seed: Seed,
        *,
        variant: str | None = None,
        length: str | None = None,
        players: Sequence[str] | None = None,
    ) -> PlaySession:
        _two(len(levels))
        named = None if players is None else (players[0], players[1])
        return PlaySession.between_bots(
            (levels[0], levels[1]), seed, kind=_kind(length), players=named, rules=_rules(variant)
        )


SESSIONS = UmtaliSessions()
"""How Umtali's sessions are made (the registry's ``sessions`` hook)."""
