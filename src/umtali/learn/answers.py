"""Reading a learner's typed answers: cards, yes or no, one number, several numbers, a
choice, and the tries a question allows.

The lessons and the quiz read their answers here, whatever the front end, so both accept
the same spellings and words and give the same tries (:class:`Attempts`). Each reader
returns the value or raises :class:`AnswerError`, whose message says what was wrong and
what was expected.

>>> parse_card_answer("K-♠ & 10h"), parse_yes_no("Yes he may."), parse_number("40 points")
(CardSet('10♥ K♠'), True, 40)
>>> parse_numbers("31 to 28", 2)
(31, 28)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, Generic, TypeVar

from umtali.kernel.cards import Card, CardSet, InvalidCardError, display_key, parse_card

__all__ = [
    "MAX_TRIES",
    "SKIP_WORDS",
    "AnswerError",
    "Attempts",
    "Reply",
    "Unanswered",
    "counted",
    "in_typed_order",
    "normalize",
    "parse_card_answer",
    "parse_card_list",
    "parse_choice",
    "parse_number",
    "parse_numbers",
    "parse_yes_no",
    "read_cards",
    "whole_number",
]

MAX_TRIES: Final = 3
"""Unreadable answers allowed to a question before its answer is shown."""

SKIP_WORDS: Final = frozenset({"skip", "s", "pass"})
"""Words that pass over a question of ``umtali lesson`` or ``umtali quiz``."""

_NONE: Final = frozenset({"none", "nothing", "no cards", "no card", "-"})
_YES: Final = frozenset({"y", "yes", "yes he may", "yes he can"})
_NO: Final = frozenset({"n", "no", "no he may not", "no he cannot"})
_FILLER: Final = frozenset({"and", "&", "+"})
_SEPARATORS: Final = re.compile(r"(?i)\band\b|[&+;/]")
_NUMBER: Final = re.compile(r"([+-]?)(\w+?)\s*(?:points?|pts?\.?)?", re.IGNORECASE)
_NUMBERS_SPLIT: Final = re.compile(r"[\s,;:/\-–]+")
_NUMBERS_FILLER: Final = frozenset({"to", "and", "vs"})
_CARDS_EXPECTED: Final = "write cards like Ks 10h Q♦, or 'none'"


class AnswerError(ValueError):
    """An answer that cannot be read as the kind asked for (not cards, not yes or no, not a
    number...): the message says what was expected, and the learner may try again."""


def normalize(text: str) -> str:
    """``text`` lower-cased, its spaces collapsed and trailing ``.``, ``!`` or ``?`` dropped:
    the form in which fixed words (yes, none, skip, a choice's key...) are compared.

    >>> normalize("  Yes   he MAY!. ")
    'yes he may'
    """
    return " ".join(re.sub(r"[.!?]+$", "", text.strip().lower()).split())


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in decimal digits, else ``None``: every number
    typed at a prompt is read this way (not with ``isdigit``, which lets through ``²``,
    a digit ``int`` cannot read).

    >>> whole_number("12"), whole_number("٣"), whole_number("²"), whole_number("1_000")
    (12, 3, None, None)
    """
    return int(text) if text.isdecimal() else None


def _require(text: str, expected: str) -> None:
    if not text.strip():
        raise AnswerError(f"nothing was typed: {expected}")


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, the noun made plural unless the number is one: every count
    the lessons and the quiz print is written this way, never as "card(s)".

    >>> counted(1, "card"), counted(0, "question"), counted(5, "point")
    ('1 card', '0 questions', '5 points')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def read_cards(text: str) -> list[Card]:
    """The cards named in ``text``, in the order written and with any repeats: words
    separated by spaces or commas, each a card (``Ks``, ``K♠``, ``10h``, ``Th``, the book's
    ``K-♠``, any case), the words "and", "&" and "+" skipped.

    >>> from umtali.kernel.cards import card_name
    >>> [card_name(c) for c in read_cards("Ks, th and k♠")]
    ['K♠', '10♥', 'K♠']
    >>> read_cards("Ks Kx")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 'Kx' is not a card: the suit must be one of c d h s or ♣ ♦ ♥ ♠
    """
    words = [w for w in text.replace(",", " ").split() if w.lower() not in _FILLER]
    try:
        return [parse_card(w) for w in words]
    except InvalidCardError as e:
        raise AnswerError(str(e)) from None


def parse_card_list(text: str) -> tuple[Card, ...]:
    """Read the cards of an answer as :func:`parse_card_answer` does, in the order they
    were typed (a card typed twice is kept where it first came): the order in which the
    feedback names the learner's own cards back to him.

    >>> from umtali.kernel.cards import card_name
    >>> [card_name(c) for c in parse_card_list("7-♠ 6s and 7♠, K♦")]
    ['7♠', '6♠', 'K♦']
    >>> parse_card_list("none")
    ()
    """
    _require(text, _CARDS_EXPECTED)
    if normalize(text) in _NONE:
        return ()
    cards = read_cards(_SEPARATORS.sub(" ", text))
    if not cards:
        raise AnswerError(f"no card named: {_CARDS_EXPECTED}")
    return tuple(dict.fromkeys(cards))


def in_typed_order(mask: int, typed: Sequence[Card]) -> list[Card]:
    """The cards of ``mask`` in the order ``typed`` names them; any it does not name come
    after, in the order of a hand (:func:`umtali.kernel.cards.display_key`).

    >>> from umtali.kernel.cards import card_name, parse_cards
    >>> typed = parse_cards("7s 2c 6s")
    >>> [card_name(c) for c in in_typed_order(CardSet.parse("6s 7s Kh").mask, typed)]
    ['7♠', '6♠', 'K♥']
    """
    first = [c for c in dict.fromkeys(typed) if mask >> c & 1]
    rest = CardSet(mask & ~CardSet(first).mask)
    return first + sorted(rest, key=display_key)


def parse_card_answer(text: str) -> CardSet:
    """Read the cards of an answer: any order, any case, ``Ks``, ``K♠``, ``10h``, ``Th``,
    the book's ``K-♠``, separated by spaces, commas, ``;``, ``/``, "and", "&" or "+";
    ``none``, ``nothing``, ``no cards`` or ``-`` for no card.

    >>> parse_card_answer("K♠, 10h and td")
    CardSet('10♦ 10♥ K♠')
    >>> parse_card_answer("kh, KD"), parse_card_answer("kh + KD"), parse_card_answer("q-♦;k-♠")
    (CardSet('K♦ K♥'), CardSet('K♦ K♥'), CardSet('Q♦ K♠'))
    >>> parse_card_answer("None."), parse_card_answer("no cards")
    (CardSet(''), CardSet(''))
    >>> parse_card_answer("kings")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 'kings' is not a card: the rank must be A, 2-10 (or T), J, Q or K
    >>> parse_card_answer("and")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: no card named: write cards like Ks 10h Q♦, or 'none'
    """
    return CardSet(parse_card_list(text))


def parse_yes_no(text: str) -> bool:
    """``True`` for yes, ``False`` for no: ``y``, ``No``, ``yes.``, ``NO!``, and the phrases
    ``yes he may``, ``yes he can``, ``no he may not``, ``no he cannot``.

    >>> parse_yes_no("Y"), parse_yes_no(" no. "), parse_yes_no("NO!")
    (True, False, False)
    >>> parse_yes_no("Yes he can!"), parse_yes_no("no he cannot")
    (True, False)
    >>> parse_yes_no("perhaps")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 'perhaps' is neither yes nor no: answer yes or no
    """
    _require(text, "answer yes or no")
    words = normalize(text)
    if words in _YES:
        return True
    if words in _NO:
        return False
    raise AnswerError(f"{text.strip()!r} is neither yes nor no: answer yes or no")


def parse_number(text: str) -> int:
    """Read one whole number, optionally followed by ``points`` or ``pts``.

    >>> parse_number(" 27 "), parse_number("40 points"), parse_number("7 pts")
    (27, 40, 7)
    >>> parse_number("forty")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 'forty' is not a whole number
    """
    _require(text, "give a whole number, like 12")
    match = _NUMBER.fullmatch(text.strip())
    value = None if match is None else whole_number(match.group(2))
    if match is None or value is None:
        raise AnswerError(f"{text.strip()!r} is not a whole number")
    return -value if match.group(1) == "-" else value


def parse_numbers(text: str, count: int) -> tuple[int, ...]:
    """Read exactly ``count`` whole numbers, separated by spaces, commas, dashes, "to",
    "and" or "vs".

    >>> parse_numbers("31-28", 2), parse_numbers("31 to 28", 2), parse_numbers(" 20 ", 1)
    ((31, 28), (31, 28), (20,))
    >>> parse_numbers("31", 2)
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: give exactly 2 numbers, like 30 25; you gave 1
    """
    noun = "a number" if count == 1 else f"{count} numbers"
    example = "12" if count == 1 else "30 25"
    _require(text, f"give {noun}, like {example}")
    tokens = [
        t for t in _NUMBERS_SPLIT.split(text.strip().lower()) if t and t not in _NUMBERS_FILLER
    ]
    numbers = [whole_number(t) for t in tokens]
    if not numbers or None in numbers:
        raise AnswerError(f"{text.strip()!r} is not an answer here: give {noun}, like {example}")
    if len(numbers) != count:
        wanted = "one number" if count == 1 else noun
        raise AnswerError(f"give exactly {wanted}, like {example}; you gave {len(numbers)}")
    return tuple(n for n in numbers if n is not None)


def parse_choice(text: str, keys: Sequence[str]) -> str:
    """The option key an answer names: the key itself, or its first letters.

    >>> parse_choice("B", ["a", "b", "c"]), parse_choice("seq", ["sequence", "group"])
    ('b', 'sequence')
    >>> parse_choice("d", ["a", "b", "c"])
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 'd' is not one of the choices: answer a or b or c
    """
    words = normalize(text).removeprefix("the ").strip("()")
    if words:
        matches = [k for k in keys if k == words] or [k for k in keys if k.startswith(words)]
        if len(matches) == 1:
            return matches[0]
    raise AnswerError(f"{text!r} is not one of the choices: answer {' or '.join(keys)}")


# -- the tries of one question ---------------------------------------------------------


class Unanswered(Enum):
    """Why a question got no answer to grade."""

    SKIPPED = "skipped"
    NO_VALID_ANSWER = "no valid answer"


T = TypeVar("T")


@dataclass(frozen=True)
class Reply(Generic[T]):
    """What became of one typed answer.

    Attributes:
        result: what the reader made of it, or an :class:`Unanswered`; ``None`` while the
            question is to be asked again.
        message: what to tell the learner first (``""``: nothing).
    """

    result: T | Unanswered | None
    message: str = ""


class Attempts(Generic[T]):
    """The answers typed to one question, until ``read`` takes one (it raises
    :class:`AnswerError` for one it cannot read).

    An empty answer uses up no try; a word of :data:`SKIP_WORDS` skips the question; after
    :data:`MAX_TRIES` unreadable answers the question is given up. ``expects`` (a
    sentence) says what an answer looks like, when the reader's message does not. Stopping
    altogether is the front end's business: it looks at the answer first.

    >>> attempts = Attempts(parse_yes_no, "Answer yes or no.")
    >>> attempts.offer("")
    Reply(result=None, message="No answer given. Answer yes or no. ('skip' passes over the question, 'quit' stops.)")
    >>> Attempts(parse_yes_no, "Answer yes or no.", can_quit=False).offer("").message
    "No answer given. Answer yes or no. ('skip' passes over the question.)"
    >>> attempts.offer("maybe").message
    "I can't read that: 'maybe' is neither yes nor no: answer yes or no. Try again (2 tries left, or 'skip')."
    >>> attempts.offer("Yes!")
    Reply(result=True, message='')
    >>> Attempts(parse_number, "Answer with a whole number, like 17.").offer("skip").result
    <Unanswered.SKIPPED: 'skipped'>
    """

    def __init__(self, read: Callable[[str], T], expects: str, *, can_quit: bool = True) -> None:
        self.read = read
        self.expects = expects
        self.can_quit = can_quit  # whether the front end stops at 'quit', to say so
        self.tries = 0

    def offer(self, text: str) -> Reply[T]:
        """Take one typed answer: read it, or say why it cannot be read."""
        if normalize(text) in SKIP_WORDS:
            return Reply(Unanswered.SKIPPED)
        if not text:
            stops = ", 'quit' stops" if self.can_quit else ""
            return Reply(
                None, f"No answer given. {self.expects} ('skip' passes over the question{stops}.)"
            )
        try:
            return Reply(self.read(text))
        except AnswerError as e:
            self.tries += 1
            left = MAX_TRIES - self.tries
            if not left:
                return Reply(Unanswered.NO_VALID_ANSWER, f"I can't read that: {e}.")
            said = _gist(self.expects) in str(e).lower()
            return Reply(
                None,
                f"I can't read that: {e}.{'' if said else ' ' + self.expects} Try again"
                f" ({left} {'try' if left == 1 else 'tries'} left, or 'skip').",
            )


def _gist(expects: str) -> str:
    """What ``expects`` asks for, in a few words: "answer yes or no" of "Answer yes or no
    (y or n)."; "yes or no" of "Expected: yes or no."."""
    return expects.split(": ")[-1].split(" (")[0].rstrip(".").lower()
