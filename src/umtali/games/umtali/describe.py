"""Plain-text descriptions of moves and states: replays, demos, lessons and the play screen;
and the one wording of a player spoken to as "You", for moves and for refusals alike.

>>> from umtali.games.umtali.lessons import LESSONS
>>> hand = LESSONS[0].replay(turn=2, done=3)  # Player 1 has drawn and played J♠ and J♦
>>> describe_move(hand, hand.parse_move("play Q♦ off J♦"))
'Player 1 plays Q♦ off his own J♦'
>>> describe_move(hand, hand.parse_move("meld 7♠ 6♠ 5♠"))
'Player 1 lays the sequence 7♠ 6♠ 5♠'
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

from umtali.games.umtali.melds import column_kind
from umtali.games.umtali.moves import InvalidMoveError, Move, MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.reasons import refusal
from umtali.games.umtali.state import Column, HandOutcome, HandState, Termination
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import CardSet, card_name, mask_of, quoted
from umtali.kernel.english import (
    YOU,
    object_name,
    possessive,
    sentence,
    subject,
    verb_for,
)
from umtali.kernel.players import player_name

__all__ = [
    "describe_move",
    "describe_seen",
    "explain_illegal",
    "how_hand_ended",
    "render_state",
    "render_table",
    "who_won",
]


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _owner(state: HandState, card: int) -> int | None:
    for p in (0, 1):
        for _, mask, _ in state.tables[p]:
            if mask >> card & 1:
                return p
    return None


# -- "You" in the second person ---------------------------------------------------------------


# -- how a hand or a match ended -------------------------------------------------------------


def how_hand_ended(outcome: HandOutcome, names: tuple[str, str]) -> str:
    """How a hand ended, for the end-of-hand screen: who went out, and what became of
    the other player's cards.

    >>> from umtali.games.umtali.lessons import LESSONS
    >>> how_hand_ended(LESSONS[0].state_at().outcome(), ("You", "Computer (Expert)"))
    'Computer (Expert) went out first, and you went out too on the last turn'
    """
    if outcome.termination is Termination.DEAD_STOCK:
        return "the stock ran out: the hand died, and cards still in hand score for nobody"
    if outcome.termination is Termination.TURN_CAP:
        return "the turn limit was reached: the hand died, and cards in hand score for nobody"
    first = outcome.went_out[0]
    other = names[1 - first]
    text = f"{subject(names[first], 'went')} out first"
    if len(outcome.went_out) > 1:
        return text + f", and {subject(other, 'went', capital=False)} out too on the last turn"
    text += f"; {subject(other, 'could', capital=False)} not go out on the last turn"
    if outcome.forfeited:
        count = len(outcome.forfeited)
        left = "the card" if count == 1 else f"the {count} cards"
        verb = "scores" if count == 1 else "score"
        text += (
            f", so {left} left in {possessive(other)} hand {verb} for {object_name(names[first])}"
        )
    return text


def who_won(winner: int | None, names: tuple[str, str], what: str) -> str:
    """The sentence that ends a hand, a game or a session (``what``).

    >>> who_won(0, ("You", "Computer (Strongest)"), "game"), who_won(None, ("A", "B"), "hand")
    ('You win the game.', 'The hand is drawn.')
    """
    if winner is None:
        return f"The {what} is drawn."
    return f"{subject(names[winner], 'wins')} the {what}."


class _SpokenTo:
    """The voice of a refusal (see :class:`umtali.games.umtali.moves.Voice`) in this module's words: a
    player called "you", in any case, is spoken to."""

    def subject(self, name: str, verb: str) -> str:
        return subject(YOU if name.lower() == "you" else name, verb, capital=False)

    def possessive(self, name: str) -> str:
        return possessive(YOU if name.lower() == "you" else name)


_SPOKEN_TO: Final = _SpokenTo()


def explain_illegal(
    state: HandState,
    move: Move,
    names: tuple[str, str] | None = None,
    move_name: str | None = None,
) -> str:
    """Why ``move`` is refused in ``state`` (which must not allow it), as a sentence for
    a card player: the :class:`~umtali.games.umtali.moves.Refusal` of
    :func:`umtali.games.umtali.reasons.refusal`, in words, without the rulings it breaks
    (a front end shows them as a link: the refusal's ``rules``).

    ``move`` may be as typed (``take`` with no card, a solo off any card of a group): it
    is explained as the state completes it. ``names`` are what the two players are
    called (by default "Player 1" and "Player 2"); a player called "you" (in any case)
    is spoken to: "you are to move", "your hand". ``move_name`` is what the move is
    called (by default its words in ``learn/content/refusals.toml``), e.g. when the
    move names a card the reader may not see.

    >>> from umtali.games.umtali.lessons import LESSONS
    >>> hand = HandState(LESSONS[0].deck(), dealer=1)
    >>> _ = hand.push_text("keep")
    >>> explain_illegal(hand, Move.draw(), names=("Computer", "You"))
    'You cannot draw from the stock now: there is no draw on the opening turn; the player with 11 cards melds, then discards.'
    >>> from umtali.kernel.cards import parse_card
    >>> explain_illegal(hand, Move.discard_card(parse_card("Qh")), names=("Computer", "You"))
    'You cannot discard Q♥ now: Q♥ is not in your hand.'

    Any :class:`Move` can be explained, whatever its cards; arguments of the wrong kind
    raise :class:`InvalidMoveError` (``move``) or ``ValueError`` (``state``, ``names``).
    """
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
    named = None if names is None else (names[0], names[1])
    why = refusal(state, move)
    reason = why.reason(named, voice=_SPOKEN_TO, cite=False)
    if why.head is not None:
        head = why.head
    elif move_name is not None:
        head = f"{move_name} is not allowed now"
    else:
        mover = named[why.player] if named is not None else player_name(why.player)
        you = YOU if mover.lower() == "you" else mover
        head = f"{you} {_refused_words(why.move)}"
    return sentence(f"{head}: {reason}")


_WORDS: Final = "umtali.games.umtali.learn.content"
"""Where the words of a refused move are kept (``refusals.toml``): the game's teaching
content, beside its lessons and help."""


@cache
def _refusal_words() -> dict[str, Any]:
    words: dict[str, Any] = tomllib.loads(
        resources.files(_WORDS).joinpath("refusals.toml").read_text(encoding="utf-8")
    )
    return words


def _refused_words(move: Move) -> str:
    """ "cannot discard 9♣ now": the move refused, in the words of ``refusals.toml``."""
    words = _refusal_words()
    kind = move.kind
    key = MoveKind(kind).name.lower()
    if kind is MoveKind.TAKE and not move.cards:
        key = "take_top"
    elif kind is MoveKind.SOLO and move.target is not None:
        key = "solo_off"
    elif kind is MoveKind.DISCARD and move.face_down:
        key = "discard_down"
    elif kind is MoveKind.PAIR and move.discard is not None:
        key = "pair_discard_down" if move.face_down else "pair_discard"
    text = str(words["move"][key]).format(
        cards=" ".join(card_name(c) for c in move.cards),
        target="" if move.target is None else card_name(move.target),
        discard="" if move.discard is None else card_name(move.discard),
    )
    return str(words["refused"]).format(move=text)


# -- moves as sentences ------------------------------------------------------------------------


def describe_move(
    state: HandState,
    move: Move,
    names: tuple[str, str] | None = None,
) -> str:
    """A sentence for ``move`` about to be played in ``state`` (before it is pushed), told
    with all the state knows: the card drawn from the stock, a face-down discard. For the
    mover himself, replays and lessons; what the other player saw of a move is told by
    :func:`describe_seen`. ``names`` replaces "Player 1" and "Player 2" ("You": the
    second person).
    """
    mover = state.player
    hand = state.hands[mover]
    kind = move.kind
    if kind is MoveKind.DISCARD:
        discard: int | None = move.cards[0]
    else:
        discard = move.discard
    above: tuple[int, ...] = ()
    if kind is MoveKind.TAKE and move.cards and move.cards[0] in state.pile:
        # A deep take (seed 003) brings every card above the one named.
        above = state.pile[state.pile.index(move.cards[0]) + 1 :]
    return _sentence(
        kind,
        move.cards,
        _name(names, mover),
        _name(names, 1 - mover),
        above=above,
        target=move.target,
        off_own=move.target is not None and _owner(state, move.target) == mover,
        drawn=state.stock_cards()[0] if kind is MoveKind.DRAW and state.stock_size() else None,
        discard=None if discard is None else card_name(discard),
        face_down=move.face_down,
        goes_out=(kind in (MoveKind.MELD, MoveKind.SOLO) and not hand & ~mask_of(move.cards))
        or (kind is MoveKind.DISCARD and hand.bit_count() == 1),
        forfeited=" ".join(CardSet(hand).sorted_for_display()),
    )


_FACE_DOWN_SEEN: Final = " (face down)"
"""How a view's history ends a discard it saw laid face down (:mod:`umtali.games.umtali.view`)."""


def describe_seen(view: PlayerView, index: int, names: tuple[str, str] | None = None) -> str:
    """A sentence for the other player's move ``view.history[index]``, told from what
    ``view.player`` saw of it (R11, as the view decides): a stock draw without its card,
    a face-down discard as "a card", and the cards forfeited not named.
    """
    actor, seen = view.history[index]
    if actor == view.player:
        raise ValueError("describe_seen tells the other player's moves; describe_move, your own")
    who, other = _name(names, actor), _name(names, 1 - actor)
    # A move that empties a hand is its player's last: his hand is still empty now.
    last = all(a != actor for a, _ in view.history[index + 1 :])
    goes_out = last and view.opponent_hand_size == 0
    if seen.endswith(_FACE_DOWN_SEEN):
        pair = seen.removesuffix(_FACE_DOWN_SEEN).removesuffix("discard").strip()
        cards = parse_move(pair).cards if pair else ()
        kind = MoveKind.PAIR if pair else MoveKind.DISCARD
        return _sentence(
            kind, cards, who, other, discard="a card", face_down=True, goes_out=goes_out
        )
    move = parse_move(seen)
    if move.kind is MoveKind.TAKE and view.rules.deep_take:
        # The history names only the deepest card taken; the cards above it went too.
        taken = card_name(move.cards[0])
        return f"{subject(who, 'takes')} the discard pile from the top down to {taken}"
    target = move.target
    discard = move.cards[0] if move.kind is MoveKind.DISCARD else move.discard
    return _sentence(
        move.kind,
        move.cards,
        who,
        other,
        target=target,
        off_own=target is not None and any(target in c.cards for c in view.tables[actor]),
        discard=None if discard is None else card_name(discard),
        face_down=move.face_down,
        goes_out=goes_out,
        forfeited="the cards left in his hand",
    )


def _name(names: tuple[str, str] | None, player: int) -> str:
    return names[player] if names else player_name(player)


def _sentence(
    kind: MoveKind,
    cards: Sequence[int],
    who: str,
    other: str,
    *,
    above: Sequence[int] = (),
    target: int | None = None,
    off_own: bool = False,
    drawn: int | None = None,
    discard: str | None = None,
    face_down: bool = False,
    goes_out: bool = False,
    forfeited: str = "",
) -> str:
    """The one wording of each kind of move: by ``who`` against ``other``, with what the
    teller may say (``drawn``: the card drawn from the stock, if he may name it;
    ``discard``: the discarded card's name, or "a card"; ``above``: the cards a deep take
    brings with the one it names, bottom to top)."""
    out = f" and {verb_for(who, 'goes')} out" if goes_out else ""
    if kind is MoveKind.KEEP:
        return f"{subject(who, 'deals')} and {verb_for(who, 'keeps')} the 11th card"
    if kind is MoveKind.GIVE:
        return (
            f"{subject(who, 'deals')} and {verb_for(who, 'gives')} the 11th card"
            f" to {object_name(other)}"
        )
    if kind is MoveKind.DRAW:
        card = "" if drawn is None else f"{card_name(drawn)} "
        return f"{subject(who, 'draws')} {card}from the stock"
    if kind in (MoveKind.TAKE, MoveKind.TAKE_TWO):
        taken = " and ".join(card_name(c) for c in cards)
        if above:
            with_it = "the card" if len(above) == 1 else f"the {len(above)} cards"
            taken += f" with {with_it} above it ({_names(above)})"
        return f"{subject(who, 'takes')} {taken} from the discard pile"
    if kind is MoveKind.MELD:
        meld = column_kind(mask_of(cards)).label
        return f"{subject(who, 'lays')} the {meld} {_names(cards)}{',' if out else ''}{out}"
    if kind is MoveKind.SOLO:
        played = f"{subject(who, 'plays')} {card_name(cards[0])}"
        if target is not None:
            whose = possessive(who, own=True) if off_own else possessive(other)
            played += f" off {whose} {card_name(target)}"
        return f"{played}{',' if out else ''}{out}"
    down = " face down" if face_down else ""
    if kind is MoveKind.DISCARD:
        return f"{subject(who, 'discards')} {discard}{down}{out}"
    if kind is MoveKind.PAIR:
        label = column_kind(mask_of(cards)).label  # a pair, or seed 003's two-card run
        pair = f"out with the {'pair' if label == 'pair' else 'run'} {_names(cards)}"
        if discard is None:
            return f"{subject(who, 'goes')} {pair}"
        return f"{subject(who, 'discards')} {discard}{down} and {verb_for(who, 'goes')} {pair}"
    return (
        f"{subject(who, 'cannot')} go out and {verb_for(who, 'forfeits')} {forfeited}"
        f" to {object_name(other)}"
    )


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
