"""Why a move is illegal: a :class:`~umtali.games.umtali.moves.Refusal` naming the rule it breaks.

The engine decides legality; this module only explains a refusal, as data (a code, the
rulings, the cards) with a sentence that speaks of the player to move in the third
person. :meth:`umtali.games.umtali.state.HandState.push` raises it in an
:class:`~umtali.games.umtali.moves.IllegalMoveError`; :func:`umtali.games.umtali.describe.explain_illegal` words it
for a reader who is spoken to as "you".

It reads a hand through :class:`umtali.games.umtali.state.HandState`'s public API alone (the part it
needs is typed here as :class:`PublicHand`), so it need not import the state module,
which imports it.

>>> from umtali.games.umtali.state import HandState
>>> from umtali.games.umtali.lessons import LESSONS
>>> hand = HandState(LESSONS[0].deck(), dealer=1)
>>> _ = hand.push_text("keep")
>>> why = refusal(hand, Move.draw())
>>> why.code, why.rules, why.text()
('no_opening_draw', ('R2',), "'draw' is not allowed now: there is no draw on the opening turn; the player with 11 cards melds, then discards (R2)")
>>> from umtali.kernel.cards import parse_card
>>> why = refusal(hand, Move.discard_card(parse_card("Qh")))
>>> why.code, [card_name(c) for c in why.cards], why.text(names=("Ann", "Bob"))
('not_in_hand', ['Q♥'], "'discard Q♥' is not allowed now: Q♥ is not in Bob's hand")
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol

from umtali.games.umtali.melds import (
    ColumnKind,
    column_kind,
    hand_melds,
    is_closing_meld,
    short_melds,
)
from umtali.games.umtali.moves import (
    KIND_MASK,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveKind,
    Refusal,
    column_order,
)
from umtali.games.umtali.rules import RuleSet
from umtali.games.umtali.terms import Phase
from umtali.kernel.cards import (
    JACK,
    RANK_MASKS,
    CardSet,
    card_name,
    cards_of,
    mask_of,
    quoted,
    rank_of,
    suit_of,
)

__all__ = ["PublicHand", "no_face_up_discard", "refusal"]

_Side = tuple[tuple[int, int, int], ...]
"""One side of the table as the state keeps it: (kind, mask, played-off card or -1)."""


class PublicHand(Protocol):
    """What a refusal reads of a hand: part of :class:`umtali.games.umtali.state.HandState`'s public
    API, and nothing private."""

    @property
    def phase(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def took_two(self) -> bool: ...
    @property
    def last_turn(self) -> bool: ...
    @property
    def must_meld(self) -> int: ...
    @property
    def taken_top(self) -> int: ...
    @property
    def tables(self) -> tuple[_Side, _Side]: ...

    def hand(self, player: int) -> CardSet: ...
    def taken_this_turn(self) -> CardSet: ...
    def discard_pile(self) -> list[tuple[int, bool]]: ...
    def legal_actions(self) -> list[int]: ...
    def complete(self, move: Move) -> Move: ...
    def solo_targets(self, card: int) -> list[int]: ...


def refusal(state: PublicHand, move: Move) -> Refusal:
    """Why ``move`` is refused in ``state`` (a :class:`umtali.games.umtali.state.HandState` that does not
    allow it). ``move`` may be as typed (``take`` with no card, a solo off any card of a
    group): it is explained as the state completes it. Any :class:`Move` can be explained,
    whatever its cards; anything else raises :class:`InvalidMoveError`.
    """
    if not isinstance(move, Move):
        raise InvalidMoveError(f"{quoted(move)} is not a Move: refusal explains a Move")
    with suppress(IllegalMoveError):  # 'take' with no face-up discard: explained below
        move = state.complete(move)
    why = _reason(state, move)
    return Refusal(move, state.player, why.code, why.rules, why.cards, why.template, why.head)


def no_face_up_discard(player: int) -> Refusal:
    """The refusal of ``take`` as typed, with no face-up discard to complete it with.

    >>> no_face_up_discard(0).text()
    "'take' is not allowed now: there is no face-up card on the discard pile"
    """
    return Refusal(
        Move.take(),
        player,
        "no_face_up_discard",
        template="there is no face-up card on the discard pile",
    )


@dataclass(frozen=True)
class _Why:
    """A refusal less the move and the player: what each check below finds."""

    code: str
    template: str
    rules: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    head: str | None = None


def _names(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def _reason(state: PublicHand, move: Move) -> _Why:
    kind = move.kind
    phase = state.phase
    if phase == Phase.OVER:
        return _Why("hand_over", "the hand is over")
    if phase == Phase.CHOOSE:
        return _Why(
            "choose_first",
            "{mover deals} and must first choose who receives the 11th card:"
            " keep it or give it {rules}",
            ("R1",),
        )
    if kind in (MoveKind.KEEP, MoveKind.GIVE):
        return _Why("already_dealt", "the cards are already dealt")
    if phase == Phase.DRAW:
        if kind not in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return _Why(
                "draw_first",
                "{mover is} to move, and must first draw: from the stock, or the top discard",
            )
        return _draw_reason(state, move)
    # Phase.PLAY
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        if state.turn == 1 and not state.rules.opening_draw:
            return _Why(
                "no_opening_draw",
                "there is no draw on the opening turn; the player with 11 cards melds, then discards {rules}",
                ("R2",),
            )
        return _Why("already_drawn", "{mover has} already drawn this turn")
    hand = state.hand(state.player).mask
    named = set(move.cards) | ({move.discard} if move.discard is not None else set())
    missing = [c for c in sorted(named) if not hand >> c & 1]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        return _Why(
            "not_in_hand", f"{_names(missing)} {verb} not in {{mover's}} hand", cards=tuple(missing)
        )
    if kind is MoveKind.MELD:
        return _meld_reason(state, move, hand)
    if kind is MoveKind.SOLO:
        return _solo_reason(state, move, hand)
    plays = _plays_now(state)
    if (
        plays
        and state.rules.compulsory_play
        and kind in (MoveKind.DISCARD, MoveKind.PAIR, MoveKind.FORFEIT)
    ):
        example = Move.from_action(plays[0])
        return _Why(
            "must_play_first",
            "every playable card must be played before the turn ends {rules};"
            f" {{mover can}} still {example}",
            ("R4",),
            example.cards,
        )
    must_place = state.must_meld & hand
    if kind is MoveKind.FORFEIT:
        if not state.last_turn:
            return _Why(
                "forfeit_not_last_turn",
                "only the last turn, after the opponent went out, ends without a discard {rules}",
                ("R7",),
            )
        return _TAKEN_TWO_UNPLAYED if state.took_two else _unplayed_deep(must_place)
    if must_place:
        left = cards_of(must_place)
        if not state.took_two:
            return _unplayed_deep(must_place)
        taken = "were taken two at a time" if len(left) > 1 else "was taken with another discard"
        return _Why(
            "taken_two_unplayed",
            f"{_names(left)} {taken} and must be played this turn, in the meld phase or as"
            " the closing pair {rules}",
            ("R3",),
            tuple(left),
        )
    if kind is MoveKind.DISCARD:
        return _discard_reason(state, move, hand)
    return _pair_reason(state, move, hand)


_TAKEN_TWO_UNPLAYED = _Why(
    "taken_two_unplayed", "the cards taken two at a time must be played this turn {rules}", ("R3",)
)
_FACE_DOWN_OFF = _Why("face_down_off", "these rules do not allow a face-down discard")
_NOT_LEGAL = _Why("not_legal", "it is not among the legal moves now")


def _unplayed_deep(must_place: int) -> _Why:
    """The refusal of ending a turn before the deepest card of a deep take is played."""
    left = tuple(cards_of(must_place))
    return _Why(
        "taken_deep_unplayed",
        f"{_names(left)} was taken from under other discards and must be played this turn,"
        " in a meld or off a card on the table {rules}",
        ("V",),
        left,
    )


def _plays_now(state: PublicHand) -> list[int]:
    return [a for a in state.legal_actions() if a & KIND_MASK in (MoveKind.MELD, MoveKind.SOLO)]


def _draw_reason(state: PublicHand, move: Move) -> _Why:
    pile = state.discard_pile()
    if move.kind is MoveKind.DRAW:
        return _Why("stock_empty", "the stock is empty: only the top discard can be drawn")
    if not pile:
        return _Why("pile_empty", "the discard pile is empty: draw from the stock")
    if pile[-1][1]:
        return _Why(
            "top_face_down",
            "the top discard lies face down and cannot be drawn: draw from the stock {rules}",
            ("R3", "R7"),
        )
    top = pile[-1][0]
    if move.kind is MoveKind.TAKE:
        card = move.cards[0]
        if state.rules.deep_take:
            return _deep_take_reason(pile, card)
        return _Why(
            "not_top_discard",
            f"the top discard is {card_name(top)}, not {card_name(card)}",
            cards=(top, card),
        )
    if not state.rules.take_two:
        if state.rules.deep_take:
            second = move.cards[1]
            return _Why(
                "take_two_off",
                "these rules take from the pile by naming the deepest card, which comes with"
                f" every card above it: take {card_name(second)} instead {{rules}}",
                ("V",),
                (second,),
            )
        return _Why("take_two_off", "these rules do not allow taking two discards")
    if len(pile) < 2:
        return _Why("one_discard", "the discard pile holds only one card")
    second = pile[-2][0]
    if move.cards != (top, second):
        return _Why(
            "not_top_two",
            f"the top two discards are {card_name(top)} and {card_name(second)}",
            cards=(top, second),
        )
    return _Why(
        "take_two_unplayable",
        f"{card_name(top)} and {card_name(second)} may be taken together only if both can be"
        " played this turn, in the meld phase or as a closing pair {rules}",
        ("R3",),
        (top, second),
    )


def _deep_take_reason(pile: list[tuple[int, bool]], card: int) -> _Why:
    """Why ``take CARD`` is refused when a take may reach under the top (seed 003)."""
    if (card, False) not in pile:
        return _Why(
            "not_in_pile",
            f"{card_name(card)} is not face up in the discard pile",
            cards=(card,),
        )
    return _Why(
        "take_deep_unplayable",
        f"{card_name(card)} may be taken from under other discards only if it can be played"
        " this turn, in a meld or off a card on the table {rules}",
        ("V",),
        (card,),
    )


def _meld_reason(state: PublicHand, move: Move, hand: int) -> _Why:
    cards = list(move.cards)
    mask = mask_of(cards)
    jacks = tuple(c for c in cards if rank_of(c) == JACK)
    if jacks:
        return _Why(
            "jack_in_meld",
            "Jacks are never overlapped: each Jack is played solo {rules}",
            ("R4",),
            jacks,
        )
    kind = column_kind(mask)
    ranks = sorted({rank_of(c) for c in cards})
    suits = {suit_of(c) for c in cards}
    rules = state.rules
    # Seed 003: on the last turn a pair or two cards in a row of a suit are melds.
    short_now = rules.last_turn_short_melds and state.last_turn
    closing = is_closing_meld(mask, rules.last_turn_short_melds)
    melds = hand_melds(hand) + short_melds(hand) if short_now else hand_melds(hand)
    if closing and rules.last_turn_short_melds:
        # Two cards that a third in hand would lengthen: the meld is not whole, whatever
        # the turn.
        whole = _not_whole(melds, mask)
        if whole is not None:
            return whole
    if len(cards) == 2 and not (short_now and closing):
        if kind is ColumnKind.PAIR or closing:
            if rules.last_turn_short_melds:
                return _Why(
                    "short_meld_not_now",
                    "a pair or two cards in a row make a meld only on the last turn, or as"
                    " the two cards a player goes out with {rules}",
                    ("V",),
                )
            if kind is ColumnKind.PAIR:
                return _Why(
                    "pair_is_no_meld",
                    "a pair can be laid only to go out {rules}",
                    ("R4", "R6"),
                )
        if not (ranks == [12, 13] and len(suits) == 1):
            return _Why(
                "not_a_marriage",
                "two cards make a meld only as a marriage, the K and Q of one suit {rules}",
                ("R4",),
            )
    if kind is ColumnKind.GROUP and len(cards) > 4:  # pragma: no cover - 4 suits
        return _Why("not_a_group", "a group has at most four cards")
    if kind is ColumnKind.SEQUENCE and (
        len(suits) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks)))
    ):
        return _Why(
            "not_a_sequence",
            "a sequence is three or more consecutive cards of one suit {rules}",
            ("R4",),
        )
    whole = _not_whole(melds, mask)
    if whole is not None:
        return whole
    if mask in melds:
        return _taken_reason(state, hand)
    return _Why("not_a_meld", "it is not a meld of cards in hand")  # pragma: no cover


def _not_whole(melds: list[int], mask: int) -> _Why | None:
    """The refusal of laying ``mask`` when a meld of the hand holds it and more (R4)."""
    for legal in melds:
        if legal & mask == mask and legal != mask:
            extra = cards_of(legal & ~mask)
            verb = "extends" if len(extra) == 1 else "extend"
            return _Why(
                "meld_not_whole",
                f"a meld must be laid whole: {_names(extra)} in hand {verb} it {{rules}}",
                ("R4",),
                tuple(extra),
            )
    return None


def _solo_reason(state: PublicHand, move: Move, hand: int) -> _Why:
    card = move.cards[0]
    name = card_name(card)
    head = f"{name} cannot be played"
    if rank_of(card) == JACK:
        if move.target is not None:
            return _Why(
                "jack_plays_alone",
                "a Jack is always playable, and is played on its own, off no card",
                head=head,
            )
        return _taken_reason(state, hand)
    for meld in hand_melds(hand):
        if meld >> card & 1:
            column = column_order(meld)
            return _Why(
                "must_overlap",
                f"The Rule says it must be overlapped in the meld {_names(column)} it makes"
                " with cards in hand {rules}",
                ("R4",),
                tuple(column),
                head,
            )
    if move.target is None:
        targets = state.solo_targets(card)
        if not targets:
            return _Why(
                "nothing_accepts",
                "nothing on the table accepts it, and only a Jack is played off nothing",
                head=head,
            )
        return _Why(
            "needs_target",
            "a card other than a Jack is played off a card on the table;"
            f" here {name} can be played off {card_name(targets[0])}",
            cards=(targets[0],),
            head=head,
        )
    target = move.target
    column_kind_of_target = _column_kind_of(state, target)
    if column_kind_of_target is None:
        return _Why(
            "target_not_on_table", f"{card_name(target)} is not on the table", (), (target,), head
        )
    if column_kind_of_target == ColumnKind.MARRIAGE:
        return _Why(
            "marriage_closed", "a marriage accepts no additions {rules}", ("R4",), head=head
        )
    if column_kind_of_target == ColumnKind.SEQUENCE:
        return _Why(
            "sequence_ends_only",
            "a sequence takes only the next card of its suit at either end {rules}",
            ("R4",),
            head=head,
        )
    if column_kind_of_target in (ColumnKind.GROUP, ColumnKind.PAIR):
        label = "group" if column_kind_of_target == ColumnKind.GROUP else "pair"
        return _Why(
            "rank_only", f"a {label} takes only cards of its own rank {{rules}}", ("R4",), head=head
        )
    if not (RANK_MASKS[rank_of(target)] >> card & 1) and not (
        suit_of(card) == suit_of(target) and abs(rank_of(card) - rank_of(target)) == 1
    ):
        return _Why(
            "not_proper_addition",
            "a solo card takes only a card of its rank or the next card of its suit {rules}",
            ("R4",),
            (target,),
            f"{head} off {card_name(target)}",
        )
    return _taken_reason(state, hand)


def _column_kind_of(state: PublicHand, card: int) -> int | None:
    """The kind of the table column that holds ``card``, if any does."""
    for side in state.tables:
        for kind, mask, _ in side:
            if mask >> card & 1:
                return kind
    return None


def _taken_reason(state: PublicHand, hand: int) -> _Why:
    if state.took_two:
        return _Why(
            "taken_two_stranded",
            "after it the cards taken two at a time could no longer both be played this turn"
            " {rules}",
            ("R3",),
        )
    if state.taken_this_turn().mask & state.must_meld & hand:
        deepest = tuple(cards_of(state.must_meld))
        return _Why(
            "taken_deep_stranded",
            f"after it {_names(deepest)}, taken from under other discards, could no longer be"
            " played this turn {rules}",
            ("V",),
            deepest,
        )
    kept = _kept_top(state) & hand
    if kept:
        return _Why(
            "taken_top_stranded",
            f"after it only {card_name(kept.bit_length() - 1)} would be left in hand, and it"
            " was taken from the top of the pile this turn: it may not be discarded, not even"
            " to go out {rules}",
            ("V",),
            (kept.bit_length() - 1,),
        )
    return _NOT_LEGAL  # pragma: no cover


def _kept_top(state: PublicHand) -> int:
    """The card taken from the top of the pile this turn when these rules forbid
    discarding it even to go out (seed 003), before the R7 last turn; else 0."""
    if state.rules.discard_taken_to_go_out or state.last_turn:
        return 0
    return state.taken_this_turn().mask & state.taken_top


def _kept_top_discard(card: int) -> _Why:
    return _Why(
        "taken_top_kept",
        f"{card_name(card)} was taken from the top of the pile this turn and may not be"
        " discarded, not even to go out {rules}",
        ("V",),
        (card,),
    )


def _discard_reason(state: PublicHand, move: Move, hand: int) -> _Why:
    card = move.cards[0]
    going_out = hand.bit_count() == 1
    if state.last_turn and not going_out:
        return _Why(
            "last_turn_discard",
            "on the last turn a player may discard only to go out; what cannot be played"
            " is forfeited {rules}",
            ("R7",),
        )
    if state.last_turn and not state.rules.last_turn_discard:
        return _LAST_TURN_NO_DISCARD
    if move.face_down and not state.rules.face_down_final_discard:
        return _FACE_DOWN_OFF
    if move.face_down and not going_out:
        return _Why(
            "face_down_not_out",
            "only a discard that goes out may be laid face down {rules}",
            ("R5",),
        )
    if going_out and not move.face_down and state.rules.final_discard_face_down_only:
        return _face_up_out(card)
    if going_out and _kept_top(state) >> card & 1:
        return _kept_top_discard(card)
    if (state.taken_this_turn().mask & state.taken_top) >> card & 1:
        return _Why(
            "taken_discard",
            f"{card_name(card)} was taken from the discard pile this turn and may be"
            " discarded only to go out {rules}",
            ("R3",),
            (card,),
        )
    return _NOT_LEGAL  # pragma: no cover


_LAST_TURN_NO_DISCARD = _Why(
    "last_turn_no_discard",
    "on the last turn these rules allow no discard: what cannot be melded is forfeited {rules}",
    ("V",),
)


def _face_up_out(card: int) -> _Why:
    return _Why(
        "face_up_out",
        f"a discard that goes out must be laid face down: discard {card_name(card)} face down"
        " {rules}",
        ("V",),
        (card,),
    )


def _pair_reason(state: PublicHand, move: Move, hand: int) -> _Why:
    rules = state.rules
    if not (rules.pair_to_go_out or rules.last_turn_short_melds):
        return _Why("pair_off", "these rules do not allow going out with a pair")
    pair = mask_of(move.cards)
    if not is_closing_meld(pair, rules.last_turn_short_melds):
        if rules.last_turn_short_melds:
            return _Why(
                "not_a_pair",
                "a player goes out with two cards of one rank (not Jacks) or two cards in a"
                " row of one suit, A to 10 {rules}",
                ("V",),
            )
        return _Why("not_a_pair", "a pair is two cards of one rank, not Jacks {rules}", ("R6",))
    if state.last_turn and rules.last_turn_short_melds:
        return _Why(
            "short_meld_is_meld",
            f"on the last turn two cards are laid as a meld: lay {_names(move.cards)} {{rules}}",
            ("V",),
        )
    if move.discard is not None and state.last_turn and not rules.last_turn_discard:
        return _LAST_TURN_NO_DISCARD
    rest = hand & ~pair
    if move.discard is not None:
        rest &= ~(1 << move.discard)
    if rest:
        left = cards_of(rest)
        return _Why(
            "pair_leaves_cards",
            f"a pair goes out only when nothing else is left in hand; {_names(left)}"
            " would remain {rules}",
            ("R6",),
            tuple(left),
        )
    if move.face_down and not rules.face_down_final_discard:
        return _FACE_DOWN_OFF
    if move.discard is not None and not move.face_down and rules.final_discard_face_down_only:
        return _face_up_out(move.discard)
    if move.discard is not None and (hand & state.must_meld) >> move.discard & 1:
        return _TAKEN_TWO_UNPLAYED if state.took_two else _unplayed_deep(state.must_meld)
    if move.discard is not None and _kept_top(state) >> move.discard & 1:
        return _kept_top_discard(move.discard)
    return _NOT_LEGAL  # pragma: no cover
