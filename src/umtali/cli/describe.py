"""Plain-text descriptions of moves and states, for replays and demos.

>>> from umtali.lessons import LESSONS
>>> from umtali.state import HandState
>>> hand = HandState(LESSONS[0].deck(), dealer=1)
>>> for text in ("keep", "meld K♠ K♥ K♣", "meld 3♥ 2♥ A♥", "discard 5♥", "draw", "play J♠",
...              "play J♦"):
...     _ = hand.push_text(text)
>>> describe_move(hand, hand.parse_move("play Q♦ off J♦"))
'Player 1 plays Q♦ off his own J♦'
>>> describe_move(hand, hand.parse_move("meld 7♠ 6♠ 5♠"))
'Player 1 lays the sequence 7♠ 6♠ 5♠'
"""

from __future__ import annotations

from collections.abc import Callable

from umtali.cards import CardSet, card_name
from umtali.melds import column_kind
from umtali.moves import Move, MoveKind
from umtali.state import Column, HandState, Phase, player_name

__all__ = ["describe_move", "for_mover", "render_state", "render_table", "subject"]


def _names(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _owner(state: HandState, card: int) -> int | None:
    for p in (0, 1):
        for _, mask, _ in state.tables[p]:
            if mask >> card & 1:
                return p
    return None


def describe_move(
    state: HandState,
    move: Move,
    reveal: bool = True,
    names: tuple[str, str] | None = None,
) -> str:
    """A sentence for ``move`` about to be played in ``state`` (before it is pushed).

    With ``reveal`` false, the card drawn from the stock and face-down discards stay hidden.
    ``names`` replaces "Player 1" and "Player 2".
    """

    def name(p: int) -> str:
        return names[p] if names else player_name(p)

    sentence = _describe(state, move, reveal, name)
    if name(state.player) == "You":
        words = sentence.split(" ")
        sentence = " ".join(_SECOND_PERSON.get(w, w) for w in words).replace("his own", "your own")
    return sentence.replace(" to You", " to you")


def subject(name: str, verb: str) -> str:
    """``name`` with ``verb`` (written for "he"), in the second person for "You".

    >>> subject("You", "wins"), subject("Computer (expert)", "wins"), subject("You", "has")
    ('You win', 'Computer (expert) wins', 'You have')
    """
    if name != "You":
        return f"{name} {verb}"
    return f"You {_SECOND_PERSON.get(verb, verb)}"


def for_mover(message: str, player: int, names: tuple[str, str]) -> str:
    """An engine message (which calls the players "Player 1" and "Player 2") addressed to
    ``player``, the one who made the move: "your hand", "you are to move", and the other
    player by the name on the screen.

    >>> for_mover("4♣ is not in Player 1's hand", 0, ("You", "Computer"))
    '4♣ is not in your hand'
    >>> for_mover("'discard 2♦' is not allowed now: Player 2 is to move, and must first draw",
    ...           1, ("Player 1", "Player 2"))
    "'discard 2♦' is not allowed now: you are to move, and must first draw"
    """
    me = player_name(player)
    for third, second in _MOVER_PHRASES:
        message = message.replace(third.format(me), second)
    other = names[1 - player]
    return message.replace(player_name(1 - player), "you" if other == "You" else other)


_MOVER_PHRASES = (
    ("{}'s hand", "your hand"),
    ("{} is to move", "you are to move"),
    ("{} has already drawn", "you have already drawn"),
    ("{} deals and must", "you deal and must"),
    ("{}", "you"),
)


_SECOND_PERSON = {
    "deals": "deal",
    "keeps": "keep",
    "gives": "give",
    "draws": "draw",
    "takes": "take",
    "lays": "lay",
    "plays": "play",
    "discards": "discard",
    "goes": "go",
    "forfeits": "forfeit",
    "wins": "win",
    "has": "have",
    "is": "are",
    "holds": "hold",
}


def _describe(state: HandState, move: Move, reveal: bool, name: Callable[[int], str]) -> str:
    who = name(state.player)
    k = move.kind
    if k is MoveKind.KEEP:
        return f"{who} deals and keeps the 11th card"
    if k is MoveKind.GIVE:
        return f"{who} deals and gives the 11th card to {name(1 - state.player)}"
    if k is MoveKind.DRAW:
        if reveal and state.stock_size():
            return f"{who} draws {card_name(state.stock_cards()[0])} from the stock"
        return f"{who} draws from the stock"
    if k is MoveKind.TAKE:
        return f"{who} takes {_names(move.cards)} from the discard pile"
    if k is MoveKind.TAKE_TWO:
        return f"{who} takes {card_name(move.cards[0])} and {card_name(move.cards[1])} from the discard pile"
    out = ""
    hand_after = state.hands[state.player] & ~sum(1 << c for c in move.cards)
    if k in (MoveKind.MELD, MoveKind.SOLO) and not hand_after:
        out = ", and goes out"
    if k is MoveKind.MELD:
        kind = column_kind(sum(1 << c for c in move.cards)).label
        return f"{who} lays the {kind} {_names(move.cards)}{out}"
    if k is MoveKind.SOLO:
        card = card_name(move.cards[0])
        if move.target is None:
            return f"{who} plays {card}{out}"
        owner = _owner(state, move.target)
        other = name(1 - state.player)
        whose = "his own" if owner == state.player else "your" if other == "You" else f"{other}'s"
        return f"{who} plays {card} off {whose} {card_name(move.target)}{out}"
    if k is MoveKind.DISCARD:
        card = card_name(move.cards[0]) if reveal or not move.face_down else "a card"
        if move.face_down:
            return f"{who} discards {card} face down and goes out"
        if state.hands[state.player].bit_count() == 1:
            return f"{who} discards {card} and goes out"
        return f"{who} discards {card}"
    if k is MoveKind.PAIR:
        text = f"{who} goes out with the pair {_names(move.cards)}"
        if move.discard is not None:
            card = card_name(move.discard) if reveal or not move.face_down else "a card"
            down = " face down" if move.face_down else ""
            text = f"{who} discards {card}{down} and goes out with the pair {_names(move.cards)}"
        return text
    left = " ".join(CardSet(state.hands[state.player]).sorted_for_display())
    return f"{who} cannot go out and forfeits {left} to {name(1 - state.player)}"


def render_table(columns: list[Column]) -> str:
    """One side of the table on one line: overlapped columns in brackets, solos apart."""
    if not columns:
        return "(nothing yet)"
    parts = []
    for c in columns:
        cards = _names(c.top_down())
        parts.append(f"[{cards}]" if c.kind.label != "solo" else cards)
    return "  ".join(parts)


def render_state(state: HandState, reveal: bool = True) -> str:
    """Both sides as plain text: hands (shown when ``reveal``), tables, points, the piles."""
    lines = []
    pile = state.discard_pile()
    if not pile:
        top = "(none)"
    elif pile[-1][1]:
        top = "(face down)"
    else:
        top = card_name(pile[-1][0])
    lines.append(f"  stock {state.stock_size():>2}   top discard {top}")
    for p in (0, 1):
        hand = state.hand(p)
        shown = " ".join(hand.sorted_for_display()) if reveal else f"{len(hand)} cards"
        lines.append(f"  {player_name(p)}  hand: {shown or '(empty)'}   points {state.points[p]}")
        lines.append(f"            table: {render_table(state.table(p))}")
    if state.phase == Phase.OVER:
        outcome = state.outcome()
        assert outcome is not None
        lines.append(
            f"  hand over ({outcome.termination.value}): {outcome.scores[0]}–{outcome.scores[1]}"
        )
    return "\n".join(lines)
