"""English for any game's sentences: a player spoken to as "You", in the second person,
and counts of things.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "YOU",
    "object_name",
    "plural",
    "possessive",
    "sentence",
    "subject",
    "verb_for",
]


YOU: Final = "You"
"""The name of the player the screen speaks to, in the second person."""


def verb_for(name: str, verb: str) -> str:
    """``verb``, written for "he", as ``name`` takes it."""
    return _SECOND_PERSON.get(verb, verb) if name == YOU else verb


def subject(name: str, verb: str, *, capital: bool = True) -> str:
    """``name`` with ``verb`` (written for "he"), in the second person for "You";
    ``capital`` false: inside a sentence.

    >>> subject("You", "wins"), subject("Computer (Expert)", "wins"), subject("You", "has")
    ('You win', 'Computer (Expert) wins', 'You have')
    >>> subject("You", "knocks"), subject("Bob", "knocks")
    ('You knock', 'Bob knocks')
    >>> "the hand is over, and " + subject("You", "went", capital=False) + " out"
    'the hand is over, and you went out'
    """
    if name != YOU:
        return f"{name} {verb}"
    return f"{'You' if capital else 'you'} {verb_for(name, verb)}"


def object_name(name: str) -> str:
    """``name`` as the object of a sentence: "you" for "You".

    >>> object_name("You"), object_name("Player 2")
    ('you', 'Player 2')
    """
    return "you" if name == YOU else name


def possessive(name: str, *, own: bool = False) -> str:
    """``name``'s, or "your" for "You"; with ``own``, of a thing of his own.

    >>> possessive("You"), possessive("Computer (Casual)"), possessive("Player 2", own=True)
    ('your', "Computer (Casual)'s", 'his own')
    """
    if own:
        return f"{'your' if name == YOU else 'his'} own"
    return "your" if name == YOU else f"{name}'s"


def sentence(text: str) -> str:
    """``text`` as a sentence of its own: a capital first letter, a full stop at the end
    (unless it ends a sentence already).

    >>> sentence("you missed 4♣"), sentence("Play J♠."), sentence("")
    ('You missed 4♣.', 'Play J♠.', '')
    """
    text = text.strip()
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text[-1] in ".!?" else ".")


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, in the plural unless it is one.

    >>> plural(1, "card"), plural(0, "card"), plural(3, "point")
    ('1 card', '0 cards', '3 points')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


_SECOND_PERSON: Final = {
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
    # Gin Rummy's moves, and a player of three-hand sitting out
    "passes": "pass",
    "knocks": "knock",
    "scores": "score",
    "sits": "sit",
}
