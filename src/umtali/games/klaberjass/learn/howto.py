"""How to play Klaberjass (layer 5): a hand dealt in a fixed order and played with both
hands open, move by move, for any front end.

The words are package data (``howto.toml``, read by :mod:`umtali.learn.content`); the
moves are played on a real :class:`~umtali.games.klaberjass.state.KlaberjassHand`: each
move's sentence is the table's own (:func:`~umtali.games.klaberjass.describe.tell_move`),
a choice the rules forbid is refused with the engine's ``why_not``, and the score is the
engine's ``outcome()`` told by :func:`~umtali.games.klaberjass.describe.hand_result`.
The terminal walks it as a :class:`~umtali.learn.walkthrough.Walkthrough`
(:func:`walkthrough`); the browser is sent it as plain data (:func:`page`), every
choice it offers judged here beforehand, so both say the same.

>>> lesson = walkthrough(1)
>>> lesson.steps[0].ask, lesson.steps[0].answer
('Player 1 to move: take or pass?', 'pass')
>>> lesson.steps[0].judge("take").kind, lesson.steps[2].judge("play Jh").message
('other', 'Not allowed: no card is played before the bidding and the exchange are over (K).')
>>> lesson.ending[-4]
'Player 2 made trump with 105 against 67 and makes it: each scores his own, Player 1 67 and Player 2 105.'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from umtali.games.klaberjass.describe import hand_result, tell_move
from umtali.games.klaberjass.moves import NAME, PLAY, KlaberjassMove, KlaberjassMoveError
from umtali.games.klaberjass.state import LAST_TRICK, KlaberjassHand
from umtali.games.klaberjass.terms import NATURAL, SUIT_NAMES
from umtali.kernel.cards import (
    SUIT_LETTERS,
    InvalidCardError,
    card_ascii,
    card_name,
    cards_of,
    parse_cards,
    rank_of,
    suit_of,
)
from umtali.kernel.players import player_name
from umtali.learn.content import Table, load
from umtali.learn.walkthrough import Cards, Judgement, Line, Verdicts, WalkStep, Walkthrough

__all__ = [
    "NAMES",
    "PageBoard",
    "PageLesson",
    "PageOption",
    "PageStep",
    "Scripted",
    "ScriptedStep",
    "in_hand_order",
    "judge",
    "lesson_count",
    "page",
    "scripts",
    "titles",
    "walkthrough",
]

SOURCE: Final = "umtali.games.klaberjass.learn:howto.toml"

NAMES: Final = (player_name(0), player_name(1))
"""The players, as the lessons name them."""


# -- the script, as read --------------------------------------------------------------


@dataclass(frozen=True)
class ScriptedStep:
    """One move of a lesson: the move, what to think of first, and why it is played."""

    move: KlaberjassMove
    before: str
    why: tuple[str, ...]


@dataclass(frozen=True)
class Scripted:
    """A lesson as its content file gives it: the deal and the moves, with their words.

    Attributes:
        number: from 1.
        title, intro, ending, summary: its words (see ``howto.toml``).
        dealer: who deals (0 or 1).
        deck: the deck order.
        steps: its moves, in order; played on the deal, they end the hand.
    """

    number: int
    title: str
    intro: tuple[str, ...]
    dealer: int
    deck: tuple[int, ...]
    steps: tuple[ScriptedStep, ...]
    ending: tuple[str, ...]
    summary: tuple[str, ...]

    def hand(self) -> KlaberjassHand:
        """The hand as dealt."""
        return KlaberjassHand(self.deck, self.dealer)


def _step(table: Table) -> ScriptedStep:
    table.only({"move", "before", "why"})
    try:
        move = KlaberjassMove.parse(table.text("move"))
    except KlaberjassMoveError as e:
        raise table.error("move", str(e)) from None
    return ScriptedStep(move, table.text("before", ""), table.texts("why"))


def _lesson(table: Table, number: int) -> Scripted:
    table.only({"title", "intro", "dealer", "deck", "steps", "ending", "summary"})
    dealer = table.integer("dealer")
    if dealer not in (1, 2):
        raise table.error("dealer", f"the dealer is player 1 or 2, not {dealer}")
    try:
        deck = tuple(parse_cards(table.text("deck")))
    except InvalidCardError as e:
        raise table.error("deck", str(e)) from None
    steps = tuple(_step(step) for step in table.tables("steps"))
    scripted = Scripted(
        number,
        table.text("title"),
        table.texts("intro"),
        dealer - 1,
        deck,
        steps,
        table.texts("ending"),
        table.texts("summary"),
    )
    try:
        hand = scripted.hand()
    except ValueError as e:
        raise table.error("deck", str(e)) from None
    for index, step in enumerate(steps):
        try:
            hand.push(step.move)
        except KlaberjassMoveError as e:
            raise table.error(f"steps[{index}].move", f"{step.move.text()}: {e}") from None
    if not hand.is_over():
        raise table.error("steps", "the moves do not end the hand")
    return scripted


@functools.cache
def scripts() -> tuple[Scripted, ...]:
    """The lessons, read and checked: every move legal, and the hand played out
    (:class:`~umtali.learn.content.ContentError` naming the key otherwise)."""
    content = load(SOURCE)
    content.only({"lessons"})
    return tuple(
        _lesson(table, number) for number, table in enumerate(content.tables("lessons"), start=1)
    )


def _script(number: int) -> Scripted:
    found = scripts()
    if not 1 <= number <= len(found):
        raise ValueError(f"there are {len(found)} lessons, not {number}")
    return found[number - 1]


# -- judging a choice -------------------------------------------------------------------


def judge(hand: KlaberjassHand, answer: KlaberjassMove, text: str) -> Judgement:
    """A choice typed for the player to move in ``hand``, judged against the lesson's
    ``answer``: nothing typed shows it; a move the rules forbid is refused with the
    engine's reason; another legal move is allowed but told apart.

    >>> hand = _script(1).hand()
    >>> judge(hand, KlaberjassMove.parse("pass"), "").message
    'The lesson plays: pass.'
    >>> judge(hand, KlaberjassMove.parse("pass"), "name s").message
    'Not allowed: in the first round a player takes the turned-up suit or passes; another suit is named in the second round (K).'
    >>> judge(hand, KlaberjassMove.parse("pass"), "bid").kind
    'unreadable'
    """
    if not text.strip():
        return Judgement("shown", f"The lesson plays: {answer.text()}.")
    try:
        move = KlaberjassMove.parse(text)
    except KlaberjassMoveError as e:
        return Judgement("unreadable", f"{_capital(str(e))}. Press Enter to see the lesson's move.")
    if move == answer:
        return Judgement("same", f"Right: {answer.text()}, the lesson's move.")
    if move.kind == PLAY and not hand.hands[hand.player] >> move.card & 1:
        owner = next((p for p in (0, 1) if hand.hands[p] >> move.card & 1), None)
        mover = NAMES[hand.player]
        if owner is None:
            return Judgement(
                "illegal", f"Not allowed: {mover} does not hold the {card_name(move.card)}."
            )
        return Judgement(
            "illegal",
            f"Not allowed: the {card_name(move.card)} is {NAMES[owner]}'s, and {mover} is to move.",
        )
    if move.action in hand.legal_actions():
        return Judgement(
            "other", f"{_capital(move.text())} is allowed, but the lesson plays {answer.text()}."
        )
    return Judgement("illegal", f"Not allowed: {hand.why_not(move)}.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- what is shown ----------------------------------------------------------------------


def _order(card: int) -> tuple[int, int]:
    """Cards as a hand shows them: spades, hearts, diamonds, clubs, each from its ace
    down to its 7."""
    return (-suit_of(card), -NATURAL.index(rank_of(card)))


def in_hand_order(mask: int) -> tuple[int, ...]:
    """The cards of ``mask`` as a hand shows them: spades, hearts, diamonds, clubs, each
    from its ace down to its 7.

    >>> from umtali.kernel.cards import mask_of
    >>> [card_name(c) for c in in_hand_order(mask_of(parse_cards("7c Ah 10h Qs")))]
    ['Q♠', 'A♥', '10♥', '7♣']
    """
    return tuple(sorted(cards_of(mask), key=_order))


def _label(hand: KlaberjassHand, player: int) -> str:
    return NAMES[player] + (" (dealer)" if player == hand.dealer else "")


def _ask(hand: KlaberjassHand) -> str:
    """The question for the player to move, naming what he may do."""
    who = f"{NAMES[hand.player]} to move"
    phase = hand.phase
    if phase == "bid1":
        return f"{who}: take or pass?"
    if phase == "bid2":
        return f"{who}: name a suit (name ♠, name h...) or pass?"
    if phase == "exchange":
        return f"{who}: exchange or keep?"
    if hand.trick:
        return f"{who}: which card to the {card_name(hand.trick[0])}?"
    return f"{who}: which card to lead?"


def _table(hand: KlaberjassHand) -> tuple[Line, ...]:
    """Both hands open, what is turned up or trump, the bottom card once shown, the
    trick and the points, for the terminal."""
    lines: list[Line] = []
    if hand.trump < 0:
        lines.append(("Turned up: ", Cards((hand.turned,))))
    else:
        made = f"Trump: {SUIT_NAMES[hand.trump]} (made by {NAMES[hand.maker]})"
        lines.append((made,))
    if hand.bottom_shown():
        lines.append(("The last card of the stock: ", Cards((hand.bottom,))))
    for player in (0, 1) if not hand.is_over() else ():
        cards = in_hand_order(hand.hands[player])
        lines.append(
            (f"{_label(hand, player)}: ", Cards(cards))
            if cards
            else (_label(hand, player) + ": no cards",)
        )
    if hand.phase == "play":
        trick: Line = (
            ("On the table: ", Cards(tuple(hand.trick)))
            if hand.trick
            else ("On the table: nothing",)
        )
        lines.append(trick)
    if hand.phase in ("play", "over"):
        lines.append(
            (f"Points in tricks: {NAMES[0]} {hand.points[0]}, {NAMES[1]} {hand.points[1]}",)
        )
    return tuple(lines)


def _score_lines(hand: KlaberjassHand) -> list[str]:
    """Each player's total, part by part, from the engine."""
    sequences = hand.sequence_points()
    bella = hand.bella()
    score = hand.outcome()
    assert score is not None
    lines = []
    last = hand.leader  # the winner of the last trick leads no more: he won it
    for player in (0, 1):
        parts = [f"{hand.points[player]} in tricks"]
        if player == last:
            parts[0] += f" (the last trick's {LAST_TRICK} included)"
        if sequences[player]:
            parts.append(f"{sequences[player]} for sequences")
        if bella[player]:
            parts.append(f"{bella[player]} for bella")
        lines.append(f"{NAMES[player]}: {' + '.join(parts)} = {score.totals[player]}")
    return lines


def _played(scripted: Scripted) -> list[tuple[KlaberjassHand, ScriptedStep, str]]:
    """Each step with the hand before it (a copy) and the move's sentence."""
    hand = scripted.hand()
    found = []
    for index, step in enumerate(scripted.steps):
        before = KlaberjassHand(hand.deck, hand.dealer, hand.rules)
        for _, action in hand.history:
            before.push(action)
        hand.push(step.move)
        found.append((before, step, tell_move(hand, index, NAMES) + "."))
    return found


def _end(scripted: Scripted) -> KlaberjassHand:
    hand = scripted.hand()
    for step in scripted.steps:
        hand.push(step.move)
    return hand


def _ending(hand: KlaberjassHand, scripted: Scripted) -> tuple[str, ...]:
    return (*_score_lines(hand), *hand_result(hand, NAMES).split(". ")[-1:], *scripted.ending)


def walkthrough(number: int) -> Walkthrough:
    """Lesson ``number`` for the terminal: its steps judge what is typed."""
    scripted = _script(number)
    steps = []
    for index, (before, step, told) in enumerate(_played(scripted), start=1):
        steps.append(
            WalkStep(
                number=index,
                table=_table(before),
                ask=_ask(before),
                before=step.before,
                answer=step.move.text(),
                told=told,
                why=step.why,
                judge=functools.partial(judge, before, step.move),
            )
        )
    end = _end(scripted)
    return Walkthrough(
        number=number,
        title=scripted.title,
        intro=scripted.intro,
        steps=tuple(steps),
        end_table=_table(end),
        ending=_ending(end, scripted),
        summary=scripted.summary,
    )


def lesson_count() -> int:
    """How many lessons there are."""
    return len(scripts())


# -- for the browser ----------------------------------------------------------------------


@dataclass(frozen=True)
class PageBoard:
    """The table at one moment, every card face up, cards written in ASCII (``9h``).

    Attributes:
        hands: each player's cards, as a hand shows them.
        trick: the trick under way, the leader's card first.
        turned: the turned-up card (once trump is made, still shown beside it).
        trump: the trump suit's letter, ``None`` during the bidding.
        trump_name: its name (``"hearts"``).
        maker: who made trump.
        bottom: the last card of the stock, once shown.
        points: the card points each has taken in tricks.
        tricks: the tricks each has taken.
        to_move: who is to move (``None`` once the hand is over).
        phase: ``bid1``, ``bid2``, ``exchange``, ``play`` or ``over``.
    """

    hands: tuple[tuple[str, ...], tuple[str, ...]]
    trick: tuple[str, ...]
    turned: str
    trump: str | None
    trump_name: str | None
    maker: int | None
    bottom: str | None
    points: tuple[int, int]
    tricks: tuple[int, int]
    to_move: int | None
    phase: str


@dataclass(frozen=True)
class PageOption:
    """A choice the page offers (a card of the player to move, or a bid's word), and
    how it is judged: ``move`` as typed, ``card`` in ASCII for a card."""

    move: str
    card: str | None
    kind: Verdicts
    message: str


@dataclass(frozen=True)
class PageStep:
    """One move of a lesson for the page: the table before it, the question, the
    choices offered, judged, and the lesson's move with its sentence and reasons."""

    number: int
    player: int
    board: PageBoard
    ask: str
    before: str
    answer: str
    answer_card: str | None
    told: str
    why: tuple[str, ...]
    words: tuple[str, ...]
    options: tuple[PageOption, ...]
    shown: str


@dataclass(frozen=True)
class PageLesson:
    """A lesson for the page: its words, its steps, and the hand's end."""

    number: int
    count: int
    title: str
    intro: tuple[str, ...]
    names: tuple[str, str]
    dealer: int
    steps: tuple[PageStep, ...]
    end_board: PageBoard
    ending: tuple[str, ...]
    summary: tuple[str, ...]


def _board(hand: KlaberjassHand) -> PageBoard:
    trump = hand.trump if hand.trump >= 0 else None
    return PageBoard(
        hands=tuple(tuple(card_ascii(c) for c in in_hand_order(hand.hands[p])) for p in (0, 1)),  # type: ignore[arg-type]
        trick=tuple(card_ascii(c) for c in hand.trick),
        turned=card_ascii(hand.turned),
        trump=None if trump is None else SUIT_LETTERS[trump],
        trump_name=None if trump is None else SUIT_NAMES[trump],
        maker=hand.maker if hand.maker >= 0 else None,
        bottom=card_ascii(hand.bottom) if hand.bottom_shown() else None,
        points=(hand.points[0], hand.points[1]),
        tricks=(hand.tricks_won[0], hand.tricks_won[1]),
        to_move=hand.to_move(),
        phase=hand.phase,
    )


def _words(hand: KlaberjassHand) -> tuple[str, ...]:
    """The moves other than cards offered as buttons in this phase: all the phase's
    words, the forbidden ones too (the turned-up suit in round two), to be refused."""
    phase = hand.phase
    if phase == "bid1":
        return ("take", "pass")
    if phase == "bid2":
        names = tuple(KlaberjassMove(NAME, suit).text() for suit in (3, 2, 1, 0))
        return (*names, "pass")
    if phase == "exchange":
        return ("exchange", "keep")
    return ()


def _options(hand: KlaberjassHand, answer: KlaberjassMove) -> tuple[PageOption, ...]:
    options = []
    for word in _words(hand):
        verdict = judge(hand, answer, word)
        options.append(PageOption(word, None, verdict.kind, verdict.message))
    for card in in_hand_order(hand.hands[hand.player]):
        move = KlaberjassMove(PLAY, card)
        verdict = judge(hand, answer, move.text())
        options.append(PageOption(move.text(), card_ascii(card), verdict.kind, verdict.message))
    return tuple(options)


def page(number: int) -> PageLesson:
    """Lesson ``number`` for the browser, every choice it offers judged."""
    scripted = _script(number)
    steps = []
    for index, (before, step, told) in enumerate(_played(scripted), start=1):
        move = step.move
        steps.append(
            PageStep(
                number=index,
                player=before.player,
                board=_board(before),
                ask=_ask(before),
                before=step.before,
                answer=move.text(),
                answer_card=card_ascii(move.card) if move.kind == PLAY else None,
                told=told,
                why=step.why,
                words=_words(before),
                options=_options(before, move),
                shown=judge(before, move, "").message,
            )
        )
    end = _end(scripted)
    return PageLesson(
        number=number,
        count=lesson_count(),
        title=scripted.title,
        intro=scripted.intro,
        names=NAMES,
        dealer=scripted.dealer,
        steps=tuple(steps),
        end_board=_board(end),
        ending=_ending(end, scripted),
        summary=scripted.summary,
    )


def titles() -> Sequence[tuple[int, str]]:
    """Each lesson's number and title."""
    return [(scripted.number, scripted.title) for scripted in scripts()]
