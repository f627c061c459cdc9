"""Why a move is illegal: one sentence naming the rule it breaks.

Used for the message of :class:`umtali.moves.IllegalMoveError` and by interfaces that
answer "why not?". The engine decides legality; this module only explains a refusal.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from umtali.cards import (
    JACK,
    RANK_MASKS,
    card_name,
    cards_of,
    mask_of,
    quoted,
    rank_of,
    suit_of,
)
from umtali.melds import ColumnKind, column_kind, hand_melds, is_pair
from umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind, column_order

if TYPE_CHECKING:
    from umtali.state import HandState

__all__ = ["explain_illegal"]


def _names(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def explain_illegal(
    state: HandState,
    move: Move,
    names: tuple[str, str] | None = None,
    move_name: str | None = None,
) -> str:
    """The message for refusing ``move`` in ``state`` (which must not allow it).

    ``move`` may be as typed (``take`` with no card, a solo off any card of a group): it
    is explained as the state completes it. ``names`` are what the two players are
    called (by default "Player 1" and "Player 2"); a player called "you" (in any case) is
    spoken to: "you are to move", "your hand". ``move_name`` is what the move is called
    (by default its notation in quotes), e.g. when the notation names a card the reader
    may not see.

    >>> from umtali.state import HandState
    >>> from umtali.lessons import LESSONS
    >>> hand = HandState(LESSONS[0].deck(), dealer=1)
    >>> _ = hand.push_text("keep")
    >>> explain_illegal(hand, Move.draw())
    "'draw' is not allowed now: the opening turn has no draw: the 11-card player melds and discards (R2)"
    >>> from umtali.cards import parse_card
    >>> explain_illegal(hand, Move.discard_card(parse_card("Qh")), names=("Computer", "You"))
    "'discard Q♥' is not allowed now: Q♥ is not in your hand"

    Any :class:`Move` can be explained, whatever its cards; arguments of the wrong kind
    raise :class:`InvalidMoveError` (``move``) or ``ValueError`` (``state``, ``names``).
    """
    from umtali.state import HandState

    if not isinstance(state, HandState):
        raise ValueError(f"explain_illegal explains a move in a HandState, not {quoted(state)}")
    if not isinstance(move, Move):
        raise InvalidMoveError(f"{quoted(move)} is not a Move: explain_illegal explains a Move")
    if names is not None and not (
        isinstance(names, (tuple, list))
        and len(names) == 2
        and all(isinstance(n, str) for n in names)
    ):
        raise ValueError(f"names are two strings, one for each player, not {quoted(names)}")
    with suppress(IllegalMoveError):  # 'take' with no face-up discard: explained below
        move = state._complete(move)
    reason = _reason(state, move, _Mover(names[state.player] if names else None, state))
    if move.kind is MoveKind.SOLO and reason.startswith((":", " off ")):
        return f"{card_name(move.cards[0])} cannot be played{reason}"
    named = move_name if move_name is not None else f"'{move}'"
    return f"{named} is not allowed now: {reason}"


class _Mover:
    """The player to move, as the message speaks of him."""

    def __init__(self, name: str | None, state: HandState) -> None:
        from umtali.state import player_name

        self.you = name is not None and name.lower() == "you"
        self.name = "you" if self.you else name or player_name(state.player)

    def does(self, third: str, second: str) -> str:
        """He with a verb: ``third`` for "he", ``second`` for "you"."""
        return f"{self.name} {second if self.you else third}"

    @property
    def whose(self) -> str:
        return "your" if self.you else f"{self.name}'s"


def _reason(state: HandState, move: Move, who: _Mover) -> str:
    from umtali.state import Phase

    kind = move.kind
    phase = state.phase
    if phase == Phase.OVER:
        return "the hand is over"
    if phase == Phase.CHOOSE:
        return (
            f"{who.does('deals', 'deal')} and must first choose who receives the 11th card:"
            " 'keep' it or 'give' it (R1)"
        )
    if kind in (MoveKind.KEEP, MoveKind.GIVE):
        return "the cards are already dealt"
    if phase == Phase.DRAW:
        if kind not in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
            return (
                f"{who.does('is', 'are')} to move, and must first draw: from the stock,"
                " or the top discard"
            )
        return _draw_reason(state, move)
    # Phase.PLAY
    if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO):
        if state.turn == 1:
            return "the opening turn has no draw: the 11-card player melds and discards (R2)"
        return f"{who.does('has', 'have')} already drawn this turn"
    hand = state.hands[state.player]
    named = set(move.cards) | ({move.discard} if move.discard is not None else set())
    missing = [c for c in sorted(named) if not hand >> c & 1]
    if missing:
        return f"{_names(missing)} {'is' if len(missing) == 1 else 'are'} not in {who.whose} hand"
    plays = list(_plays_now(state))
    if kind is MoveKind.MELD:
        return _meld_reason(state, move, hand)
    if kind is MoveKind.SOLO:
        return _solo_reason(state, move, hand)
    if (
        plays
        and state.rules.compulsory_play
        and kind
        in (
            MoveKind.DISCARD,
            MoveKind.PAIR,
            MoveKind.FORFEIT,
        )
    ):
        example = Move.from_action(plays[0])
        return (
            "every playable card must be played before the turn ends (R4);"
            f" {example} is still possible"
        )
    must_place = state.taken & hand if state.took_two else 0
    if kind is MoveKind.FORFEIT:
        if not state.last_turn:
            return "only the last turn, after the opponent went out, ends without a discard (R7)"
        return "the cards taken two at a time must be played this turn (R3)"
    if must_place:
        left = cards_of(must_place)
        taken = "were taken two at a time" if len(left) > 1 else "was taken with another discard"
        return (
            f"{_names(left)} {taken} and must be played this turn, in the meld phase or as"
            " the closing pair (R3)"
        )
    if kind is MoveKind.DISCARD:
        return _discard_reason(state, move, hand)
    return _pair_reason(state, move, hand)


def _plays_now(state: HandState) -> list[int]:
    return [a for a in state.legal_actions() if a & 0xF in (int(MoveKind.MELD), int(MoveKind.SOLO))]


def _draw_reason(state: HandState, move: Move) -> str:
    pile = state.discard_pile()
    if move.kind is MoveKind.DRAW:
        return "the stock is empty: only the top discard can be drawn"
    if not pile:
        return "the discard pile is empty: draw from the stock"
    if pile[-1][1]:
        return "the top discard lies face down and cannot be drawn: draw from the stock (R3, R7)"
    top = pile[-1][0]
    if move.kind is MoveKind.TAKE:
        return f"the top discard is {card_name(top)}, not {card_name(move.cards[0])}"
    if not state.rules.take_two:
        return "these rules do not allow taking two discards"
    if len(pile) < 2:
        return "the discard pile holds only one card"
    second = pile[-2][0]
    if move.cards != (top, second):
        return (
            f"the top two discards are {card_name(top)} and {card_name(second)}"
            f" ('take {card_name(top)} {card_name(second)}')"
        )
    return (
        f"{card_name(top)} and {card_name(second)} may be taken together only if both can be"
        " played this turn, in the meld phase or as a closing pair (R3)"
    )


def _meld_reason(state: HandState, move: Move, hand: int) -> str:
    cards = list(move.cards)
    mask = mask_of(cards)
    if any(rank_of(c) == JACK for c in cards):
        return "Jacks are never overlapped: each Jack is played solo (R4)"
    kind = column_kind(mask)
    ranks = sorted({rank_of(c) for c in cards})
    suits = {suit_of(c) for c in cards}
    if kind is ColumnKind.MARRIAGE and not (ranks == [12, 13] and len(suits) == 1):
        return "two cards make a meld only as a marriage, the K and Q of one suit (R4)"
    if kind is ColumnKind.PAIR:
        return "a pair can be laid only to go out (R4, R6): write 'pair …'"
    if kind is ColumnKind.GROUP and len(cards) > 4:  # pragma: no cover - 4 suits
        return "a group has at most four cards"
    if kind is ColumnKind.SEQUENCE and (
        len(suits) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks)))
    ):
        return "a sequence is three or more consecutive cards of one suit (R4)"
    for legal in hand_melds(hand):
        if legal & mask == mask and legal != mask:
            extra = cards_of(legal & ~mask)
            return (
                f"a meld must be laid whole: {_names(extra)} in hand "
                f"{'extends' if len(extra) == 1 else 'extend'} it (R4)"
            )
    if mask in hand_melds(hand):
        return _taken_reason(state)
    return "it is not a meld of cards in hand"  # pragma: no cover


def _solo_reason(state: HandState, move: Move, hand: int) -> str:
    card = move.cards[0]
    name = card_name(card)
    if rank_of(card) == JACK:
        if move.target is not None:
            return f": a Jack is always playable and is played alone: write 'play {name}'"
        return _taken_reason(state)
    for meld in hand_melds(hand):
        if meld >> card & 1:
            return (
                f": The Rule says it must be overlapped in the meld "
                f"{_names(column_order(meld))} it makes with cards in hand (R4)"
            )
    if move.target is None:
        targets = state._solo_targets(card)
        if not targets:
            return ": nothing on the table accepts it, and only a Jack is played off nothing"
        return (
            f": a card other than a Jack is played off a card on the table;"
            f" here 'play {name} off {card_name(targets[0])}'"
        )
    target = move.target
    column = _column_of(state, target)
    if column is None:
        return f": {card_name(target)} is not on the table"
    kind, _mask = column
    if kind == ColumnKind.MARRIAGE:
        return ": a marriage accepts no additions (R4)"
    if kind == ColumnKind.SEQUENCE:
        return ": a sequence takes only the next card of its suit at either end (R4)"
    if kind in (ColumnKind.GROUP, ColumnKind.PAIR):
        label = "group" if kind == ColumnKind.GROUP else "pair"
        return f": a {label} takes only cards of its own rank (R4)"
    if not (RANK_MASKS[rank_of(target)] >> card & 1) and not (
        suit_of(card) == suit_of(target) and abs(rank_of(card) - rank_of(target)) == 1
    ):
        return (
            f" off {card_name(target)}: a solo card takes only a card of its rank or the"
            " next card of its suit (R4)"
        )
    return _taken_reason(state)


def _column_of(state: HandState, card: int) -> tuple[int, int] | None:
    for side in state.tables:
        for kind, mask, _ in side:
            if mask >> card & 1:
                return kind, mask
    return None


def _taken_reason(state: HandState) -> str:
    if state.took_two:
        return (
            "after it the cards taken two at a time could no longer both be played this turn (R3)"
        )
    return "it is not among the legal moves now"  # pragma: no cover


def _discard_reason(state: HandState, move: Move, hand: int) -> str:
    card = move.cards[0]
    going_out = hand.bit_count() == 1
    if state.last_turn and not going_out:
        return (
            "on the last turn a player may discard only to go out; what cannot be played"
            " is forfeited (R7)"
        )
    if move.face_down and not state.rules.face_down_final_discard:
        return "these rules do not allow a face-down discard"
    if move.face_down and not going_out:
        return "only a discard that goes out may be laid face down (R5)"
    if state.taken >> card & 1:
        return (
            f"{card_name(card)} was taken from the discard pile this turn and may be"
            " discarded only to go out (R3)"
        )
    return "it is not among the legal moves now"  # pragma: no cover


def _pair_reason(state: HandState, move: Move, hand: int) -> str:
    if not state.rules.pair_to_go_out:
        return "these rules do not allow going out with a pair"
    pair = mask_of(move.cards)
    if not is_pair(pair):
        return "a pair is two cards of one rank, not Jacks (R6)"
    rest = hand & ~pair
    if move.discard is not None:
        rest &= ~(1 << move.discard)
    if rest:
        return (
            f"a pair goes out only when nothing else is left in hand; {_names(cards_of(rest))}"
            " would remain (R6)"
        )
    if move.face_down and not state.rules.face_down_final_discard:
        return "these rules do not allow a face-down discard"
    if move.discard is not None and state.taken >> move.discard & 1 and state.took_two:
        return "the cards taken two at a time must be played this turn (R3)"
    return "it is not among the legal moves now"  # pragma: no cover
