"""Move notation: short text for every move, read and written round-trip.

One move a line, a verb then cards (any card spelling :func:`umtali.kernel.cards.parse_card`
reads, the book's ``J-♦`` among them; output uses Unicode suits and no hyphen):

=========================================  =============================================
``keep`` / ``give``                        the dealer keeps / gives away the 11th card
``draw``                                   draw the top card of the stock
``take 5♥`` / ``take 6♥ 5♥``               take the top discard / the top two (top first)
``meld 7♠ 6♠ 5♠``                          lay an overlapped sequence, group or marriage
``play 10♦ off J♦`` / ``play J♠``          play a solo card off a table card / a Jack
``discard 5♥`` / ``discard 2♦ down``       discard face up / face down (going out only)
``pair 9♠ 9♣``                             go out with a pair
``pair 3♠ 3♦ discard 2♦ down``             discard, then go out with the pair
``run 6♥ 5♥ discard 9♣ down``              go out with a two-card run (seed 003's last turns)
``forfeit``                                end the last turn without going out (R7)
=========================================  =============================================

>>> move = parse_move("PLAY th off jd")
>>> move, format_move(move)
(Move.solo(10♥, off=J♦), 'play 10♥ off J♦')
>>> parse_move(format_move(move)) == move
True
>>> format_move(parse_move("play 10-♦ off J-♦"))
'play 10♦ off J♦'
>>> parse_move("meld 7s")
Traceback (most recent call last):
...
umtali.games.umtali.moves.InvalidMoveError: 'meld 7s' is not a move: a meld needs 2 cards (a marriage) or at least 3, like 'meld 7♠ 6♠ 5♠'
"""

from __future__ import annotations

from typing import Final

from umtali.games.umtali.moves import InvalidMoveError, Move, MoveKind
from umtali.kernel.cards import InvalidCardError, parse_card, quoted

__all__ = ["VERBS", "format_move", "parse_move"]

VERBS: Final = (
    "keep",
    "give",
    "draw",
    "take",
    "meld",
    "play",
    "discard",
    "pair",
    "run",
    "forfeit",
)

_EXAMPLES: Final = {
    "take": "'take 5♥' or 'take 6♥ 5♥'",
    "meld": "'meld 7♠ 6♠ 5♠'",
    "play": "'play 10♦ off J♦' or 'play J♠'",
    "discard": "'discard 5♥' or 'discard 2♦ down'",
    "pair": "'pair 9♠ 9♣' or 'pair 3♠ 3♦ discard 2♦ down'",
    "run": "'run 6♥ 5♥' or 'run 6♥ 5♥ discard 9♣ down'",
}


_MOST_WORDS: Final = 11
"""The most words a move has: 'meld' and ten cards. Text is split no further than one word
past it, so a line of megabytes costs no more than a short one to refuse."""


def format_move(move: Move, ascii: bool = False) -> str:
    """The notation of ``move``; :class:`InvalidMoveError` if it is no :class:`Move`."""
    if not isinstance(move, Move):
        raise InvalidMoveError(f"{quoted(move)} is not a Move: format_move writes a Move")
    return move.text(ascii=ascii)


def parse_move(text: str) -> Move:
    """Read a move from its notation (no game state needed).

    ``take`` alone is accepted and returns a take with no cards; the hand state fills in
    the top discard (see :meth:`umtali.games.umtali.state.HandState.parse_move`). Text that is no move
    raises :class:`InvalidMoveError`, whose message quotes at most the first 40 characters
    of it.

    >>> parse_move("meld " + "Ks " * 1_000_000)
    Traceback (most recent call last):
    ...
    umtali.games.umtali.moves.InvalidMoveError: 'meld Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks…' is not a move: a meld has at most 10 cards (a sequence A to 10)
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"{quoted(text)} is not a move: a move is a line of text")
    words = text.replace(",", " ").split(None, _MOST_WORDS)
    if not words:
        raise InvalidMoveError(f"an empty line is not a move; moves start with: {', '.join(VERBS)}")
    verb, args = words[0].lower(), words[1:]

    def bad(why: str) -> InvalidMoveError:
        return InvalidMoveError(f"{quoted(text)} is not a move: {why}")

    def cards(tokens: list[str]) -> list[int]:
        try:
            return [parse_card(t) for t in tokens]
        except InvalidCardError as e:
            raise bad(str(e)) from None

    if verb == "stock":
        verb = "draw"
    if verb in ("keep", "give", "draw", "forfeit"):
        if args:
            raise bad(f"'{verb}' takes nothing after it")
        return Move(MoveKind[verb.upper()])
    if verb == "take":
        if len(args) > 2:
            raise bad(f"'take' names at most two cards, like {_EXAMPLES['take']}")
        got = cards(args)
        if len(got) == 2:
            if got[0] == got[1]:
                raise bad("the two cards taken must differ")
            return Move.take_two(got[0], got[1])
        return Move(MoveKind.TAKE, tuple(got))
    if verb == "meld":
        if len(args) < 2:
            raise bad(f"a meld needs 2 cards (a marriage) or at least 3, like {_EXAMPLES['meld']}")
        if len(args) > 10:
            raise bad("a meld has at most 10 cards (a sequence A to 10)")
        got = cards(args)
        if len(set(got)) != len(got):
            raise bad("a card appears twice in the meld")
        return Move.meld(got)
    if verb == "play":
        if len(args) == 1:
            return Move.solo(cards(args)[0])
        if len(args) == 3 and args[1].lower() == "off":
            card, off = cards([args[0], args[2]])
            if card == off:
                raise bad("a card cannot be played off itself")
            return Move.solo(card, off)
        raise bad(f"write {_EXAMPLES['play']}")
    if verb == "discard":
        down = _face(args, 1, bad, "discard")
        return Move.discard_card(cards(args[:1])[0], face_down=down)
    if verb in ("pair", "run"):
        # One move kind, going out with two cards: 'run' is its name for a two-card run.
        if len(args) == 2:
            first, second = cards(args)
            if first == second:
                raise bad(f"a {verb} is two different cards")
            return Move.pair(first, second)
        if len(args) in (4, 5) and args[2].lower() == "discard":
            down = _face(args[3:], 1, bad, verb)
            first, second, discard = cards(args[:2] + args[3:4])
            if len({first, second, discard}) != 3:
                raise bad("the pair and the discard must be three different cards")
            return Move.pair(first, second, discard=discard, face_down=down)
        raise bad(f"write {_EXAMPLES[verb]}")
    raise bad(f"it must start with one of: {', '.join(VERBS)}")


def _face(args: list[str], n_cards: int, bad: object, verb: str) -> bool:
    """Read the optional 'up' / 'down' after ``n_cards`` cards."""
    assert callable(bad)
    if len(args) == n_cards:
        return False
    if len(args) == n_cards + 1 and args[-1].lower() in ("down", "up"):
        return args[-1].lower() == "down"
    raise bad(f"write {_EXAMPLES[verb]}")
