"""What one player may know (R11), and determinization for search.

A :class:`PlayerView` holds the viewer's own hand, both sides of the table, the discard
pile as far as it was ever face up, who took what from it, the sizes of the stock and of
the opponent's hand, and the scores. It never holds the opponent's hidden cards, the
stock order or a face-down discard; it is built from a state, serialises to plain JSON
data, and :func:`determinize` deals the unseen cards at random into a full state.

>>> import random
>>> from umtali.games.umtali.lessons import LESSONS
>>> hand = LESSONS[0].replay(turn=2)  # after the opening turn: K♠ K♥ K♣, 3♥ 2♥ A♥, 5♥
>>> view = PlayerView.of(hand, 0)
>>> view.hand, view.opponent_hand_size, view.stock_size, view.top_discard()
(CardSet('5♣ 10♣ J♦ Q♦ 6♥ 10♥ 5♠ 6♠ 7♠ J♠'), 4, 31, 30)
>>> guess = determinize(view, random.Random(1))
>>> guess.hand(0) == hand.hand(0), len(guess.hand(1)), guess.stock_size()
(True, 4, 31)
>>> PlayerView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from umtali.games.umtali.melds import SOLO_ACCEPTS, ColumnKind, hand_melds, meld_accepts
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.rules import RuleSet
from umtali.games.umtali.state import Column, HandState, RawSide, TableIndex, column_of, raw_side
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD, Phase
from umtali.kernel.cards import ALL_CARDS, JACKS, CardSet, card_ascii, cards_of, parse_card, quoted
from umtali.kernel.deck import sample_to_front, shuffle, shuffled_deck

__all__ = ["PlayerView", "ViewError", "determinize"]


_PHASES: Final = tuple(Phase)
_TURN_PHASES: Final = (Phase.DRAW, Phase.PLAY)
_NO_CARDS: Final = CardSet(0)  # CardSet is immutable: one empty set serves every view


_LONGEST_WHY: Final = 200
"""How much of the reason :meth:`PlayerView.from_dict` refuses data for it repeats."""


class ViewError(ValueError):
    """A view that is inconsistent or malformed."""


@lru_cache(maxsize=1 << 14)
def _public_text(action: int, actor: int, viewer: int) -> str:
    """The move as the viewer saw it: an opponent's face-down discard stays hidden.
    Kept once worked out: every view writes out the hand's whole history again, and a
    server sends a view after every move."""
    move = Move.from_action(action)
    if actor != viewer and move.face_down:
        if move.kind is MoveKind.DISCARD:
            return "discard (face down)"
        # The move's own words up to its discard: 'pair 3♠ 3♦' or, seed 003, 'run 6♥ 5♥'.
        closing = move.text().split(" discard ")[0]
        return f"{closing} discard (face down)"
    return move.text()


@dataclass(frozen=True)
class PlayerView:
    """Everything ``player`` may know of a hand, and nothing more (R11).

    Attributes:
        player: the viewer, 0 or 1.
        rules: the rule options.
        dealer: the dealer of the hand.
        eleventh: who received 11 cards (``None`` before the dealer chose).
        phase: where the hand stands.
        to_move: who acts now.
        turn: the turn number (the opening turn is 1).
        last_turn: whether this is the last turn after a player went out (R7).
        went_out: who went out first, if anyone.
        hand: the viewer's cards.
        opponent_hand_size: how many cards the opponent holds.
        opponent_known: cards the opponent took from the discard pile and still holds.
        taken_from_pile: every card each player has taken from the discard pile.
        stock_size: cards left in the stock.
        discard_pile: bottom to top; ``None`` where a card lies face down and the viewer
            did not lay it.
        laid_face_down: the cards of ``discard_pile`` that lie face down, laid so by the
            viewer himself (he knows them; the other player sees only their backs).
        tables: both sides of the table.
        points: points each player has on the table.
        taken_this_turn: cards the player to move took from the pile this turn.
        took_two: whether they were taken two at a time.
        must_meld: the cards taken this turn that must be played before it ends: both of
            a take-two (R3), the deepest card of a deep take (seed 003).
        taken_top: the card that was on top of the pile when it was taken this turn,
            which may not be discarded this turn except to go out (R3).
        history: every move so far as (player, notation) as the viewer saw it.
        legal: the viewer's legal moves when he is to move, else empty.
        game_scores: both players' game totals before this hand (public; zero outside a game).
        hands_left: hands still to come in this game after this one.
        opponent_excluded: cards the opponent cannot hold. Under compulsory play (R4) he
            ended his last turn with nothing playable left in hand, and has not moved
            since: so no Jack, and no card the table accepted then (a set that may include
            cards in plain sight). Empty when that does not apply (the opponent is to
            move, or has not yet played a turn).
        opponent_meld_free: likewise, his hand holds no meld (no group, run or marriage).
    """

    player: int
    rules: RuleSet
    dealer: int
    eleventh: int | None
    phase: Phase
    to_move: int
    turn: int
    last_turn: bool
    went_out: int | None
    hand: CardSet
    opponent_hand_size: int
    opponent_known: CardSet
    taken_from_pile: tuple[CardSet, CardSet]
    stock_size: int
    discard_pile: tuple[int | None, ...]
    tables: tuple[tuple[Column, ...], tuple[Column, ...]]
    points: tuple[int, int]
    taken_this_turn: CardSet
    took_two: bool
    history: tuple[tuple[int, str], ...]
    legal: tuple[Move, ...]
    game_scores: tuple[int, int] = (0, 0)
    hands_left: int = 0
    opponent_excluded: CardSet = _NO_CARDS
    opponent_meld_free: bool = False
    must_meld: CardSet = _NO_CARDS
    taken_top: CardSet = _NO_CARDS
    laid_face_down: CardSet = _NO_CARDS
    # The table's indexes in the engine's encoding, when the view was built from a state
    # (all public information): open_mask() reads it, determinize rebuilds from it.
    _table_index: TableIndex | None = field(default=None, repr=False, compare=False)
    # What determinize works out from the view alone, kept after its first deal.
    _deal_plan: _DealPlan | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        state: HandState,
        player: int,
        game_scores: tuple[int, int] = (0, 0),
        hands_left: int = 0,
        *,
        with_history: bool = True,
    ) -> PlayerView:
        """The view ``player`` has of ``state``; a match adds the game's context (see
        :meth:`umtali.games.umtali.match.Match.view`). ``with_history=False`` leaves the move history
        out (bots in playouts do not read it, and writing it costs time).
        :class:`ViewError` if ``state`` is no :class:`HandState` or ``player`` is not 0
        or 1."""
        if not isinstance(state, HandState):
            raise ViewError(f"a view is of a HandState, not {quoted(state)}")
        if type(player) is not int or player not in (0, 1):
            raise ViewError(f"a view is for player 0 or 1, not {quoted(player)}")
        opponent = 1 - player
        discard_pile: tuple[int | None, ...] = state.pile
        laid_face_down = 0
        if state.pile and max(state.pile) & FACE_DOWN:
            own = state.laid_down[player]
            pile: list[int | None] = []
            for entry in state.pile:
                card = entry & PILE_CARD
                if entry & FACE_DOWN and own >> card & 1:
                    laid_face_down |= 1 << card
                pile.append(None if entry & FACE_DOWN and not own >> card & 1 else card)
            discard_pile = tuple(pile)
        to_move = state.player
        legal = (
            tuple(map(Move.from_action, state.legal_actions()))
            if to_move == player and state.phase != Phase.OVER
            else ()
        )
        tables = state.tables
        # The opponent's hand is as he left it at the end of his last turn, when the rules
        # made him play everything playable: he holds no Jack, no meld, and nothing the
        # table accepted then (what it accepted when this turn began).
        closed = (
            to_move == player
            and state.turn >= 2
            and state.rules.compulsory_play
            and state.phase in _TURN_PHASES
        )
        return cls(
            player=player,
            rules=state.rules,
            dealer=state.dealer,
            eleventh=None if state.eleventh < 0 else state.eleventh,
            phase=_PHASES[state.phase],
            to_move=to_move,
            turn=state.turn,
            last_turn=state.last_turn,
            went_out=None if state.out < 0 else state.out,
            hand=CardSet(state.hands[player]),
            opponent_hand_size=state.hands[opponent].bit_count(),
            opponent_known=CardSet(state.ever_taken[opponent] & state.hands[opponent]),
            taken_from_pile=(CardSet(state.ever_taken[0]), CardSet(state.ever_taken[1])),
            stock_size=state.stock_size(),
            discard_pile=discard_pile,
            tables=(tuple(map(column_of, tables[0])), tuple(map(column_of, tables[1]))),
            points=state.points,
            taken_this_turn=CardSet(state.taken),
            took_two=state.took_two,
            history=tuple((actor, _public_text(a, actor, player)) for actor, a in state.history)
            if with_history
            else (),
            legal=legal,
            game_scores=game_scores,
            hands_left=hands_left,
            opponent_excluded=CardSet(JACKS | state.turn_open) if closed else _NO_CARDS,
            opponent_meld_free=closed,
            # What the last take binds matters only in its own turn (see HandState).
            must_meld=CardSet(state.must_meld) if state.taken and state.must_meld else _NO_CARDS,
            taken_top=CardSet(state.taken_top) if state.taken else _NO_CARDS,
            laid_face_down=CardSet(laid_face_down) if laid_face_down else _NO_CARDS,
            _table_index=state.table_index(),
        )

    def top_discard(self) -> int | None:
        """The top discard if it lies face up."""
        if not self.discard_pile:
            return None
        return self.discard_pile[-1]

    def cards_taken_by(self, move: Move) -> CardSet:
        """The cards ``move`` would bring from the discard pile: none for a move that is
        no take, the top card for a plain take, the top two for R3's take-two, and the
        named card with every card above it for a deep take (seed 003).

        >>> from umtali.games.umtali.rules import PRACTICAL
        >>> from umtali.kernel.deck import seeded_deck
        >>> view = PlayerView.of(HandState(seeded_deck(4), 0, PRACTICAL), 1)
        >>> view.cards_taken_by(Move.take(view.top_discard())) == CardSet([view.top_discard()])
        True
        """
        if move.kind is MoveKind.TAKE_TWO:
            return CardSet(move.cards)
        if move.kind is not MoveKind.TAKE or not move.cards:
            return _NO_CARDS
        card = move.cards[0]
        pile = self.discard_pile
        if card not in pile:
            return _NO_CARDS
        return CardSet(c for c in pile[pile.index(card) :] if c is not None)

    def open_mask(self) -> int:
        """The cards the table accepts as solo cards now (Jacks aside)."""
        if self._table_index is not None:
            return self._table_index.open_mask
        mask = 0
        for side in self.tables:
            for column in side:
                if column.kind == ColumnKind.SOLO:
                    mask |= SOLO_ACCEPTS[column.cards.mask.bit_length() - 1]
                else:
                    mask |= meld_accepts(column.cards.mask)
        return mask

    def unseen(self) -> CardSet:
        """Cards the viewer cannot place: the opponent's unknown cards, the stock and any
        face-down discard he did not lay."""
        seen = self.hand.mask | self.opponent_known.mask
        for side in self.tables:
            for column in side:
                seen |= column.cards.mask
        for c in self.discard_pile:
            if c is not None:
                seen |= 1 << c
        return CardSet(ALL_CARDS & ~seen)

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (cards in ASCII notation)."""

        def names(cs: CardSet) -> list[str]:
            return [card_ascii(c) for c in cs]

        return {
            "player": self.player,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "eleventh": self.eleventh,
            "phase": self.phase.name.lower(),
            "to_move": self.to_move,
            "turn": self.turn,
            "last_turn": self.last_turn,
            "went_out": self.went_out,
            "hand": names(self.hand),
            "opponent_hand_size": self.opponent_hand_size,
            "opponent_known": names(self.opponent_known),
            "taken_from_pile": [names(s) for s in self.taken_from_pile],
            "stock_size": self.stock_size,
            "discard_pile": [None if c is None else card_ascii(c) for c in self.discard_pile],
            "tables": [
                [
                    {
                        "kind": c.kind.label,
                        "cards": names(c.cards),
                        "played_off": None if c.played_off is None else card_ascii(c.played_off),
                    }
                    for c in side
                ]
                for side in self.tables
            ],
            "points": list(self.points),
            "taken_this_turn": names(self.taken_this_turn),
            "took_two": self.took_two,
            "history": [[actor, text] for actor, text in self.history],
            "legal": [m.text(ascii=True) for m in self.legal],
            "game_scores": list(self.game_scores),
            "hands_left": self.hands_left,
            "opponent_excluded": names(self.opponent_excluded),
            "opponent_meld_free": self.opponent_meld_free,
            "must_meld": names(self.must_meld),
            "taken_top": names(self.taken_top),
            "laid_face_down": names(self.laid_face_down),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        """A view from :meth:`to_dict` data; malformed data raises :class:`ViewError`."""
        from umtali.games.umtali.notation import parse_move

        def seat(value: Any, none: bool = False) -> Any:
            if none and value is None:
                return None
            if type(value) is not int or value not in (0, 1):
                raise ViewError(f"a player is 0 or 1, not {quoted(value)}")
            return value

        def count(value: Any) -> int:
            if type(value) is not int or value < 0:
                raise ViewError(f"a count is a whole number >= 0, not {quoted(value)}")
            return value

        try:

            def cs(items: list[str]) -> CardSet:
                return CardSet(parse_card(t) for t in items)

            tables = tuple(
                tuple(
                    Column(
                        ColumnKind[c["kind"].upper()],
                        cs(c["cards"]),
                        None if c["played_off"] is None else parse_card(c["played_off"]),
                    )
                    for c in side
                )
                for side in data["tables"]
            )
            return cls(
                player=seat(data["player"]),
                rules=RuleSet.from_dict(data["rules"]),
                dealer=seat(data["dealer"]),
                eleventh=seat(data["eleventh"], none=True),
                phase=Phase[str(data["phase"]).upper()],
                to_move=seat(data["to_move"]),
                turn=count(data["turn"]),
                last_turn=bool(data["last_turn"]),
                went_out=seat(data["went_out"], none=True),
                hand=cs(data["hand"]),
                opponent_hand_size=count(data["opponent_hand_size"]),
                opponent_known=cs(data["opponent_known"]),
                taken_from_pile=(cs(data["taken_from_pile"][0]), cs(data["taken_from_pile"][1])),
                stock_size=count(data["stock_size"]),
                discard_pile=tuple(
                    None if c is None else parse_card(c) for c in data["discard_pile"]
                ),
                tables=(tables[0], tables[1]),
                points=(int(data["points"][0]), int(data["points"][1])),
                taken_this_turn=cs(data["taken_this_turn"]),
                took_two=bool(data["took_two"]),
                history=tuple((int(a), str(t)) for a, t in data["history"]),
                legal=tuple(parse_move(t) for t in data["legal"]),
                game_scores=(int(data["game_scores"][0]), int(data["game_scores"][1])),
                hands_left=count(data["hands_left"]),
                opponent_excluded=cs(data.get("opponent_excluded", [])),
                opponent_meld_free=bool(data.get("opponent_meld_free", False)),
                must_meld=cs(data.get("must_meld", [])),
                taken_top=cs(data.get("taken_top", [])),
                laid_face_down=cs(data.get("laid_face_down", [])),
            )
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            why = str(e)  # it may quote the data, which can be of any length
            if len(why) > _LONGEST_WHY:
                why = why[:_LONGEST_WHY] + "…"
            raise ViewError(f"malformed player view: {why}") from None


CLOSED_HAND_TRIES: Final = 64
"""Deals of the opponent's hand tried before one holding a meld is let through. In play a
meld-free hand comes within a few tries; the bound only guards a view from elsewhere."""


@dataclass(frozen=True)
class _DealPlan:
    """What :func:`determinize` works out from a view before it deals: the same for every
    deal of the view, so it is worked out once (a search deals one view many times)."""

    unseen: tuple[int, ...]
    """The cards to deal, in card order: the opponent's unknown cards, the stock, the
    face-down discards (less those known to lie face down)."""
    forced_down: tuple[int, ...]
    """Cards the opponent took from the pile and are nowhere in sight: his face-down
    discards (they left his hand, and not face up)."""
    hidden: int
    """How many of the opponent's cards the viewer does not know."""
    face_down: int
    """How many discards lie face down unseen by the viewer."""
    allowed: tuple[int, ...] | None
    """When the opponent's hand is closed (see :func:`_deal_closed_hand`), the unseen
    cards he may hold; else ``None``."""
    tables: tuple[RawSide, RawSide]
    """Both sides of the table in the engine's encoding (:func:`umtali.games.umtali.state.raw_side`)."""
    turn_open: int | None
    """What the table accepted when this turn began, as far as the view tells (only when
    the opponent's hand is closed; otherwise the world assumes what it accepts now),
    Jacks aside, which the opponent cannot hold either way."""


def _deal_plan(view: PlayerView) -> _DealPlan:
    """The view's :class:`_DealPlan`, checked: ``ViewError`` if the view's counts do not
    account for all 52 cards."""
    plan = view._deal_plan
    if plan is not None:
        return plan
    opponent_taken = view.taken_from_pile[1 - view.player].mask
    unseen_mask = view.unseen().mask
    unseen = cards_of(unseen_mask & ~opponent_taken)
    forced_down = cards_of(opponent_taken & unseen_mask)
    hidden = view.opponent_hand_size - len(view.opponent_known)
    face_down = sum(1 for c in view.discard_pile if c is None)
    if (
        hidden < 0
        or len(forced_down) > face_down
        or len(unseen) + len(forced_down) != hidden + view.stock_size + face_down
    ):
        raise ViewError("the view does not account for all 52 cards")
    allowed = None
    if view.opponent_excluded or view.opponent_meld_free:
        excluded = view.opponent_excluded.mask
        allowed = tuple(c for c in unseen if not excluded >> c & 1)
        if len(allowed) < hidden:
            raise ViewError("the view leaves the opponent fewer cards he may hold than he holds")
    index = view._table_index
    plan = _DealPlan(
        unseen=tuple(unseen),
        forced_down=tuple(forced_down),
        hidden=hidden,
        face_down=face_down,
        allowed=allowed,
        tables=index.tables
        if index is not None
        else (raw_side(view.tables[0]), raw_side(view.tables[1])),
        turn_open=view.opponent_excluded.mask & ~JACKS if view.opponent_meld_free else None,
    )
    object.__setattr__(view, "_deal_plan", plan)  # a cache: the view stays as it was
    return plan


Pick = Callable[[tuple[int, ...], int, random.Random], int]
"""How :func:`determinize` may deal the opponent's unknown cards: from the cards he may
hold (in card order) and how many he holds, a mask of that many of them."""


def _deal_closed_hand(
    view: PlayerView, plan: _DealPlan, rng: random.Random, pick: Pick | None = None
) -> tuple[int, list[int]]:
    """The opponent's hand and the rest of the unseen cards (shuffled), when his hand is
    as he ended his last turn: none of ``view.opponent_excluded``, and no meld if
    ``view.opponent_meld_free``. Every such hand is equally likely (a uniform pick from
    the cards he may hold, dealt again while it holds a meld)."""
    assert plan.allowed is not None
    allowed = list(plan.allowed)
    hidden = plan.hidden
    known = view.opponent_known.mask
    for _ in range(CLOSED_HAND_TRIES):
        if pick is not None:
            opponent = known | pick(plan.allowed, hidden, rng)
        else:
            sample_to_front(allowed, hidden, rng)
            opponent = known
            for c in allowed[:hidden]:
                opponent |= 1 << c
        if not view.opponent_meld_free or not hand_melds(opponent):
            break
    rest = [c for c in plan.unseen if not opponent >> c & 1]
    shuffle(rest, rng)
    return opponent, rest


def determinize(
    view: PlayerView, rng: random.Random, *, undo: bool = True, pick: Pick | None = None
) -> HandState:
    """A full state consistent with ``view``: the unseen cards dealt at random to the
    opponent's unknown cards, the stock and any hidden face-down discard. When the rules
    made the opponent end his last turn with nothing playable, he is dealt no Jack, no
    meld and no card the table then accepted (``view.opponent_excluded``,
    ``view.opponent_meld_free``), as in every real deal that matches the view.

    The result can be played on (it has no history before the view to pop); from the
    viewer's side it is indistinguishable from the real state. With ``undo=False`` it
    keeps no undo (:meth:`HandState.forget_undo`): cheaper pushes for playouts that
    never pop. The cards dealt depend only on ``view`` and ``rng``, not on ``undo``.
    ``pick`` deals the opponent's unknown cards instead of a uniform draw (a search that
    reads the opponent's play, :mod:`umtali.games.umtali.bots.belief`); the rest of the
    unseen cards go to the stock and the face-down discards at random as before.
    What depends on the view alone is worked out at its first determinization and kept
    with it, so dealing one view many times costs less than dealing many views.

    :class:`ViewError` if ``view`` is no :class:`PlayerView` or does not account for the
    52 cards, or ``rng`` is no :class:`random.Random`.
    """
    if not isinstance(view, PlayerView):
        raise ViewError(f"determinize deals from a PlayerView, not {quoted(view)}")
    if not isinstance(rng, random.Random):
        raise ViewError(f"determinize draws from a random.Random, not {quoted(rng)}")
    if view.phase == Phase.CHOOSE:
        return HandState(shuffled_deck(rng), view.dealer, view.rules)
    plan = _deal_plan(view)
    if plan.allowed is not None:
        opponent, rest = _deal_closed_hand(view, plan, rng, pick)
    elif pick is not None:
        opponent = pick(plan.unseen, plan.hidden, rng)
        rest = [c for c in plan.unseen if not opponent >> c & 1]
        shuffle(rest, rng)
        opponent |= view.opponent_known.mask
    else:
        unseen = list(plan.unseen)
        shuffle(unseen, rng)
        opponent = view.opponent_known.mask
        for c in unseen[: plan.hidden]:
            opponent |= 1 << c
        rest = unseen[plan.hidden :]
    pile: tuple[int, ...]
    if plan.face_down:
        forced_down = list(plan.forced_down)
        pile = tuple(
            (forced_down.pop() if forced_down else rest.pop()) | FACE_DOWN
            if entry is None
            else entry
            for entry in view.discard_pile
        )
    else:
        pile = view.discard_pile  # type: ignore[assignment]  # no None in it
    own_down = view.laid_face_down.mask
    if own_down:
        # The viewer's own face-down discards: he sees their faces, but they lie face
        # down all the same (the other player, and the rules, see them so).
        pile = tuple(e | FACE_DOWN if not e & FACE_DOWN and own_down >> e & 1 else e for e in pile)
    hands = (view.hand.mask, opponent) if view.player == 0 else (opponent, view.hand.mask)
    # Whose each face-down card is: the viewer's own he knows; every other was laid by
    # the other player (only a player going out lays one, R5/R6).
    down = 0
    if pile and max(pile) & FACE_DOWN:
        for entry in pile:
            if entry & FACE_DOWN:
                down |= 1 << (entry & PILE_CARD)
    laid = (own_down, down & ~own_down)
    index = view._table_index
    world = HandState.from_raw(
        rules=view.rules,
        dealer=view.dealer,
        # None past the deal: nobody got an 11th card (an upcard deal, seed 003).
        eleventh=-1 if view.eleventh is None else view.eleventh,
        phase=view.phase,
        player=view.to_move,
        hands=hands,
        stock=tuple(rest),
        pile=pile,
        tables=plan.tables,
        turn=view.turn,
        taken=view.taken_this_turn.mask,
        took_two=view.took_two,
        ever_taken=(view.taken_from_pile[0].mask, view.taken_from_pile[1].mask),
        out=-1 if view.went_out is None else view.went_out,
        last_turn=view.last_turn,
        turn_open=plan.turn_open,
        # A view of older data may lack these: the state then works them out from the take.
        must_meld=view.must_meld.mask if view.must_meld else None,
        taken_top=view.taken_top.mask if view.taken_top else None,
        laid_down=laid if view.player == 0 else (laid[1], laid[0]),
        # A view built from a state is consistent, and the cards dealt here are the
        # unseen ones, each once; a view from elsewhere (JSON) is checked.
        check=index is None,
        table_index=index,
    )
    return world if undo else world.forget_undo()
