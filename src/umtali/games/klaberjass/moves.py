"""Klaberjass's moves as small ints, and their notation (which round-trips).

An action is ``kind | card << 4`` (or ``suit << 4`` for ``name``):

========  ===================================  =================
kind      move                                 text
========  ===================================  =================
TAKE      take the turned-up suit as trump     ``take``
PASS      pass (either round of bidding)       ``pass``
NAME      name another suit as trump           ``name ♥``
SCHMEISS  offer schmeiss (round 1, an option)  ``schmeiss``
ACCEPT    accept schmeiss: thrown in           ``accept``
REFUSE    refuse schmeiss: offerer is maker    ``refuse``
EXCHANGE  give the 7 of trump for the turn-up  ``exchange``
KEEP      keep the 7 of trump                  ``keep``
PLAY      play a card to the trick             ``play 9♥``
========  ===================================  =================

>>> [KlaberjassMove.parse(text).text() for text in ("take", "name h", "play 9h", "Jc")]
['take', 'name ♥', 'play 9♥', 'play J♣']
>>> KlaberjassMove.of_action(KlaberjassMove.parse("play 10s").action)
KlaberjassMove(kind=8, card=48)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from umtali.kernel.cards import SUIT_SYMBOLS, InvalidCardError, card_name, parse_card, quoted

__all__ = [
    "ACCEPT",
    "EXCHANGE",
    "KEEP",
    "NAME",
    "PASS",
    "PLAY",
    "REFUSE",
    "SCHMEISS",
    "TAKE",
    "KlaberjassMove",
    "KlaberjassMoveError",
]

TAKE: Final = 0
PASS: Final = 1
NAME: Final = 2
SCHMEISS: Final = 3
ACCEPT: Final = 4
REFUSE: Final = 5
EXCHANGE: Final = 6
KEEP: Final = 7
PLAY: Final = 8

KIND_MASK: Final = 0xF
_WORDS: Final = {
    "take": TAKE,
    "pass": PASS,
    "schmeiss": SCHMEISS,
    "accept": ACCEPT,
    "refuse": REFUSE,
    "exchange": EXCHANGE,
    "keep": KEEP,
}
_TEXTS: Final = {kind: word for word, kind in _WORDS.items()}
_SUITS: Final = {
    **{symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)},
    **{letter: suit for suit, letter in enumerate("cdhs")},
    **{name: suit for suit, name in enumerate(("clubs", "diamonds", "hearts", "spades"))},
}


class KlaberjassMoveError(ValueError):
    """A move that is not one, or that the rules forbid now; it says why."""


@dataclass(frozen=True)
class KlaberjassMove:
    """One move: its ``kind`` and the ``card`` it plays (or the suit it names)."""

    kind: int
    card: int = 0

    @property
    def action(self) -> int:
        return self.kind | self.card << 4

    @classmethod
    def of_action(cls, action: int) -> KlaberjassMove:
        if cls is KlaberjassMove and 0 <= action < len(_BY_ACTION):
            return _BY_ACTION[action]  # moves are immutable: a view shares them
        return cls(action & KIND_MASK, action >> 4)

    def text(self) -> str:
        if self.kind == PLAY:
            return f"play {card_name(self.card)}"
        if self.kind == NAME:
            return f"name {SUIT_SYMBOLS[self.card]}"
        return _TEXTS[self.kind]

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def parse(cls, text: str) -> KlaberjassMove:
        """Read a move: a word, ``name SUIT`` (♥, h or hearts), ``play CARD`` or a card
        alone. :class:`KlaberjassMoveError` says what would be right."""
        if not isinstance(text, str):
            raise KlaberjassMoveError(f"a move is text, not {quoted(text)}")
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _WORDS:
            return cls(_WORDS[words[0]])
        if len(words) == 2 and words[0] == "name":
            if words[1] not in _SUITS:
                raise KlaberjassMoveError(
                    f"{quoted(words[1])} is no suit: name ♣, ♦, ♥ or ♠ (or c, d, h, s)"
                )
            return cls(NAME, _SUITS[words[1]])
        card_text = words[1] if len(words) == 2 and words[0] == "play" else None
        if len(words) == 1:
            card_text = words[0]
        if card_text is not None:
            try:
                return cls(PLAY, parse_card(card_text))
            except InvalidCardError as e:
                raise KlaberjassMoveError(str(e)) from None
        raise KlaberjassMoveError(
            f"{quoted(text)} is not a move: it is one of take, pass, name SUIT, schmeiss,"
            " accept, refuse, exchange, keep, or play CARD"
        )


_BY_ACTION: Final = tuple(
    KlaberjassMove(action & KIND_MASK, action >> 4) for action in range(1 << 9)
)
"""By action int (a kind and a card or suit below 32), its move, made once."""
