"""The twelve self-test questions: their positions, and the engine's answers to them.

Each position is a real :class:`umtali.state.HandState`: dealt from a stacked deck and
played up to the moment of the question through the engine's own moves, or, where the book
draws a bare table (question 4), laid out with :meth:`HandState.from_parts`. The book's facts
(the hands, the tables, the answers) are kept; the wording is ours. Nothing here decides a
rule: every right answer is a question put to the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from rich.console import RenderableType
from rich.text import Text

from umtali.cards import CardSet, card_name, cards_of, rank_of, suit_of
from umtali.cli.quiz import (
    Answer,
    AnswerKind,
    Question,
    card_list,
    column_names,
    grade_card_set,
    grade_number,
    grade_surface,
    grade_yes_no,
    play_items,
    surface_solution,
)
from umtali.cli.render import card_text, hand_text, table_side
from umtali.deck import stacked_deck
from umtali.melds import SOLO_ACCEPTS, ColumnKind, column_points, meld_accepts, meld_plans
from umtali.moves import IllegalMoveError, Move, MoveKind
from umtali.reasons import explain_illegal
from umtali.rules import STANDARD
from umtali.state import Column, HandState, Phase

__all__ = [
    "accepted_off",
    "build_questions",
    "try_moves",
    "try_solo_off",
    "what_if",
]

YOU = 0
"""In every position the learner is Player 1 (player 0) and the opponent Player 2."""
THEM = 1


# -- positions -------------------------------------------------------------------------------


def _deal(dealer_hand: str, other_hand: str, stock: str = "", *, dealer: int) -> HandState:
    """A hand dealt from a stacked deck; the dealer keeps the 11th card and starts."""
    state = HandState(stacked_deck(dealer_hand, other_hand, stock), dealer=dealer)
    state.push_text("keep")
    return state


def _play(state: HandState, *moves: str) -> HandState:
    for text in moves:
        state.push_text(text)
    return state


def what_if(tables: Sequence[Sequence[Column]], mover: int, hand: CardSet) -> HandState:
    """A position in the meld phase of ``mover``, who holds ``hand``, with ``tables`` on the
    table (index = player) and every other card in the stock."""
    on_table = 0
    for side in tables:
        for column in side:
            on_table |= column.cards.mask
    rest = CardSet(((1 << 52) - 1) & ~on_table & ~hand.mask)
    hands = (hand.mask, 0) if mover == 0 else (0, hand.mask)
    return HandState.from_parts(
        rules=STANDARD,
        dealer=1 - mover,
        eleventh=1 - mover,
        phase=Phase.PLAY,
        player=mover,
        hands=hands,
        stock=list(rest),
        pile=[],
        tables=tables,
        turn=2,
    )


def try_solo_off(
    tables: Sequence[Sequence[Column]], mover: int, card: int, target: int
) -> str | None:
    """Ask the engine whether ``mover``, holding ``card``, may play it off the table card
    ``target``: ``None`` if he may, else the engine's refusal."""
    state = what_if(tables, mover, CardSet([card]))
    try:
        state.resolve(Move.solo(card, target))
    except IllegalMoveError as e:
        return str(e)
    return None


def accepted_off(column: Column, on_table: CardSet) -> CardSet:
    """The cards not yet on the table that ``column`` accepts as solo cards, from the
    engine's tables (:data:`SOLO_ACCEPTS` for a solo card, :func:`meld_accepts` for an
    overlapped column)."""
    if column.kind is ColumnKind.SOLO:
        accepts = SOLO_ACCEPTS[column.cards.mask.bit_length() - 1]
    else:
        accepts = meld_accepts(column.cards.mask)
    return CardSet(accepts) - on_table


def try_moves(state: HandState, moves: Sequence[str]) -> tuple[bool, str]:
    """Play ``moves`` in turn on a copy of ``state``: ``(True, "")`` if the engine allows
    them all, else ``(False, its refusal of the first it forbids)``."""
    board = state.clone()
    for text in moves:
        try:
            board.push_text(text)
        except IllegalMoveError as e:
            return False, str(e)
    return True, ""


def _on_table(state: HandState) -> CardSet:
    cards = CardSet()
    for p in (0, 1):
        for column in state.table(p):
            cards |= column.cards
    return cards


def _your_hand(cards: CardSet, label: str = "Your hand") -> Text:
    text = Text(f"{label}: ", style="bold")
    text.append_text(hand_text(cards))
    return text


def _sides(state: HandState) -> tuple[RenderableType, ...]:
    return (
        table_side(state.table(THEM), "Opponent's side"),
        table_side(state.table(YOU), "Your side"),
    )


def _blank_table() -> Text:
    return Text("The table is empty: you play first, with no draw.", style="dim")


# -- the questions --------------------------------------------------------------------------------


def _surface_question(number: int, topic: str, text: str, dealt: str, other: str) -> Question:
    state = _deal(dealt, other, dealer=YOU)
    plans = meld_plans(state.hands[YOU], state.table_accepts(), STANDARD.marriage_multiplier)
    grade = partial(grade_surface, state=state, plans=plans)
    return Question(
        number,
        topic,
        text,
        (_blank_table(), _your_hand(state.hand(YOU))),
        AnswerKind.SURFACE,
        grade,
        surface_solution(state, plans),
    )


def _yes_no_question(
    number: int,
    topic: str,
    text: str,
    position: tuple[RenderableType, ...],
    truth: bool,
    why: Sequence[str],
) -> Question:
    return Question(
        number,
        topic,
        text,
        position,
        AnswerKind.YES_NO,
        partial(grade_yes_no, truth=truth, why=tuple(why)),
        Answer("yes" if truth else "no", tuple(why)),
    )


def _cards_question(
    number: int,
    topic: str,
    text: str,
    position: tuple[RenderableType, ...],
    tables: Sequence[Sequence[Column]],
    column: Column,
    target: int,
) -> Question:
    on_table = CardSet()
    for side in tables:
        for c in side:
            on_table |= c.cards
    expected = accepted_off(column, on_table)
    why = (
        f"the engine's list of cards that {column.kind.label} {column_names(column.cards.mask)}"
        f" accepts: {card_list(expected.mask) or 'none'}",
    )
    grade = partial(
        grade_card_set,
        expected=expected,
        target=target,
        on_table=on_table,
        check=partial(try_solo_off, tables, YOU, target=target),
        why=why,
    )
    return Question(
        number,
        topic,
        text,
        position,
        AnswerKind.CARDS,
        grade,
        Answer(card_list(expected.mask), why),
    )


def question_1() -> Question:
    """Your own deal: which cards go down, and which of them overlapped."""
    return _surface_question(
        1,
        "your opening plays",
        "You dealt and kept the 11th card, so you open. Put down every card that can be"
        " played, overlapping those that must be overlapped.",
        "10h Js 10s 6d 4d 3d 2d Kc Qc 9c 2c",
        "Ks 8s 4s Qh 8h 5h Ad 9d 8c 5c",
    )


def question_2() -> Question:
    """An off-suit card of the same rank beside a sequence."""
    state = _deal(
        "9h 8h 7h Ks 5s 2s Qd 4d Ac 6c 3c",
        "8d Qs 9s 4s Kh 3d 10c 7c 2c 5d",
        "As",
        dealer=THEM,
    )
    _play(state, "meld 9♥ 8♥ 7♥", "discard 2♠", "draw")
    legal, refusal = try_moves(state, ["play 8♦ off 8♥"])
    run = state.table(THEM)[0]
    why = [
        refusal or "the engine allows 'play 8♦ off 8♥'",
        f"the engine's list of cards that {column_names(run.cards.mask)} accepts:"
        f" {card_list(accepted_off(run, _on_table(state)).mask)}",
    ]
    return _yes_no_question(
        2,
        "8♦ beside a 9-8-7♥ sequence",
        "Your opponent has laid 9♥ 8♥ 7♥ as one overlapped sequence. May you play your 8♦"
        " off his 8♥?",
        (*_sides(state), _your_hand(state.hand(YOU))),
        legal,
        why,
    )


def question_3() -> Question:
    """A Jack, whatever lies on the table."""
    state = _deal(
        "10s 9s 8s Kd 6d 2d Qc 5c 4h Ah 7h",
        "Jh Ks 5s 3s 6h 9h 8d 3d 9c 2c",
        "4c",
        dealer=THEM,
    )
    _play(state, "meld 10♠ 9♠ 8♠", "discard K♦", "draw")
    legal, refusal = try_moves(state, ["play J♥"])
    why = [refusal or "the engine allows 'play J♥' here, off nothing: a Jack needs no card"]
    return _yes_no_question(
        3,
        "J♥ beside a 10-9-8♠ sequence",
        "Your opponent has laid 10♠ 9♠ 8♠ as one overlapped sequence. You hold the J♥."
        " May you play it?",
        (*_sides(state), _your_hand(state.hand(YOU))),
        legal,
        why,
    )


def question_4() -> Question:
    """A lone solo card: its rank and its neighbours in suit."""
    five = Column(ColumnKind.SOLO, CardSet.parse("5c"))
    tables: tuple[tuple[Column, ...], tuple[Column, ...]] = ((), (five,))
    return _cards_question(
        4,
        "cards playable off a solo 5♣",
        "On your opponent's side lies a 5♣ on its own (a solo card, not overlapped). Name"
        " every card in the pack that could be played off it.",
        (table_side(tables[THEM], "Opponent's side"),),
        tables,
        five,
        five.cards.mask.bit_length() - 1,
    )


def question_5() -> Question:
    """The pair a player went out with accepts cards like a group."""
    state = _deal(
        "Kc Ks 9d 8d 7d 5h 5s 5c 3c 2c Ac",
        "Qs Qh 10s 8h 6c 4d 3h 2s Ad 9c",
        "7h",
        dealer=THEM,
    )
    _play(state, "meld 9♦ 8♦ 7♦", "meld 5♠ 5♥ 5♣", "meld 3♣ 2♣ A♣")
    _play(state, "pair K♠ K♣")
    assert state.last_turn
    assert state.player == YOU
    tables = (state.table(YOU), state.table(THEM))
    pair = next(c for c in state.table(THEM) if c.kind is ColumnKind.PAIR)
    return _cards_question(
        5,
        "cards playable off a pair of Kings",
        "Your opponent went out by laying K♣ and K♠ together as a pair. You have one last"
        " turn. Which cards could be played off that pair?",
        _sides(state)[:1],
        tables,
        pair,
        pair.cards.mask.bit_length() - 1,
    )


def question_6() -> Question:
    """A player whose last card goes into a meld is out, with no discard."""
    state = _deal(
        "Kh Qh 9d 8d 7d 5c 5s 5h 3s 2s As",
        "Ks Qs 10c 8c 6h 4h 4d Ac 9s 7c",
        dealer=YOU,
    )
    plan = meld_plans(state.hands[YOU], state.table_accepts())[0]
    pile = len(state.discard_pile())
    after, moves, _ = play_items(state, plan.melds, plan.solos)
    out_without_discard = (
        not after.hands[YOU] and after.player != YOU and len(after.discard_pile()) == pile
    )
    why = [
        "in this example the engine ends your turn the moment your last card goes down ("
        + "; ".join(m.text() for m in moves)
        + "): you are out, your opponent takes his last turn, and nothing was discarded"
        if out_without_discard
        else "the engine still asks you for a discard after your last card went down"
    ]
    return _yes_no_question(
        6,
        "discarding when going out",
        "You dealt and kept the 11th card; below is your hand, and all of it can go down."
        " Once every card you hold is on the table, do you still have to discard to go out?",
        (_blank_table(), _your_hand(state.hand(YOU))),
        not out_without_discard,
        why,
    )


def question_7() -> Question:
    """Scoring a side of the table, with a marriage."""
    state = _deal(
        "Jh Js 10s 9s 4c 3c 2c Ac Kc Qc 6d",
        "5s 3s 2h 4h 7h 8d 9d 8c 5c 7c",
        dealer=YOU,
    )
    _play(
        state,
        "play J♥",
        "play J♠",
        "play 10♠ off J♠",
        "play 9♠ off 10♠",
        "meld 4♣ 3♣ 2♣ A♣",
        "meld K♣ Q♣",
    )
    columns = state.table(YOU)
    total = 0
    why: list[str] = []
    for column in columns:
        points = column_points(column.kind, column.cards.mask, STANDARD.marriage_multiplier)
        total += points
        line = f"{column.kind.label} {column_names(column.cards.mask)}: {points}"
        face = column.cards.points()
        if face != points:
            line += f" (face value {face}, times {points // face} for a marriage)"
        why.append(line)
    why.append(f"total {total}, as the engine's running score has it: {state.points[YOU]}")
    return Question(
        7,
        "scoring a table",
        "What does this side of the table score?",
        (table_side(columns, "The table to score"),),
        AnswerKind.NUMBER,
        partial(grade_number, value=total, why=tuple(why)),
        Answer(str(total), tuple(why)),
    )


def question_8() -> Question:
    """Going out with a pair: no discard is needed when nothing else is left."""
    state = _deal(
        "9s 8s 7s 6s 4h 4d 4c Qd Kd 2h 2c",
        "Ks Qs 10c 8c 6h 5h 5d Ac 9h 7c",
        dealer=YOU,
    )
    _play(state, "meld 9♠ 8♠ 7♠ 6♠", "meld 4♥ 4♦ 4♣", "meld K♦ Q♦")
    first, second = cards_of(state.hands[YOU])
    bare = Move.pair(first, second)
    needs_discard = bare not in state.legal_moves
    pairs = [m for m in state.legal_moves if m.kind is MoveKind.PAIR]
    why = [
        f"the engine offers '{bare}' with no discard: the pair goes down and you are out"
        if not needs_discard
        else "the engine offers the pair only with a discard: " + ", ".join(m.text() for m in pairs)
    ]
    return _yes_no_question(
        8,
        "a discard before the closing pair?",
        "You have laid everything you could, and a pair of 2s is all that is left in your"
        " hand. To go out with the pair, must you discard first?",
        (table_side(state.table(YOU), "Your side"), _your_hand(state.hand(YOU))),
        needs_discard,
        why,
    )


def question_9() -> Question:
    """A face-down discard cannot be drawn."""
    state = _deal(
        "10c 9c 8c 7c 6c 5c 4c 2s 2h Kd 6h",
        "Qs 9s 6s Ah 5h 8h Qd 7d Ad Kc",
        "9h 3c",
        dealer=THEM,
    )
    _play(
        state,
        "meld 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣",
        "discard K♦",
        "draw",
        "discard K♣",
        "draw",
        "play 3♣ off 4♣",
        "pair 2♠ 2♥ discard 6♥ down",
    )
    assert state.last_turn
    assert state.player == YOU
    hidden, face_down = state.discard_pile()[-1]
    assert face_down
    take = Move.take(hidden)
    legal = take in state.legal_moves
    # The learner never saw the face-down card: the engine names the move without it.
    refusal = "" if legal else explain_illegal(state, take, move_name="taking the face-down card")
    pile = Text("Discard pile, bottom to top: ")
    for i, (card, down) in enumerate(state.discard_pile()):
        if i:
            pile.append(" ")
        if down:
            pile.append("[face down]", style="dim")
        else:
            pile.append_text(card_text(card))
    return _yes_no_question(
        9,
        "drawing a face-down discard",
        "Your opponent went out: he discarded face down, then laid a pair. On your last turn,"
        " may you draw the face-down discard?",
        (_sides(state)[0], pile),
        legal,
        [refusal or "the engine allows taking it"],
    )


def question_10() -> Question:
    """A group accepts only its own rank."""
    state = _deal(
        "3s 3h 3c Kd 9d 7d 5s Qh 10h 8c Ad",
        "3d 4s 2c 4h 2h 6s 8s 10d Kh 6c",
        "9h",
        dealer=THEM,
    )
    _play(state, "meld 3♠ 3♥ 3♣", "discard K♦", "draw")
    group = state.table(THEM)[0]
    only = CardSet.parse("3d")
    accepted = accepted_off(group, _on_table(state))
    top = group.cards.mask.bit_length() - 1
    refusals = []
    # Illustrate with the cards nearest the group's rank: the likeliest to be tried.
    for card in sorted(
        state.hand(YOU), key=lambda c: (abs(rank_of(c) - rank_of(top)), -suit_of(c), -rank_of(c))
    ):
        if card not in accepted:
            legal, refusal = try_moves(state, [f"play {card_name(card)} off {card_name(top)}"])
            if not legal:
                refusals.append(refusal)
    why = [
        f"the engine's list of cards that {column_names(group.cards.mask)} accepts:"
        f" {card_list(accepted.mask) or 'none'}",
        *refusals[:2],
    ]
    return _yes_no_question(
        10,
        "cards playable off a group of 3s",
        "Your opponent has an overlapped group 3♠ 3♥ 3♣. Is the 3♦ the one and only card"
        " that can be played off it?",
        (*_sides(state), _your_hand(state.hand(YOU))),
        accepted == only,
        why,
    )


def question_11() -> Question:
    """The Rule: three of a rank in hand are a group, even beside a Jack."""
    state = _deal(
        "Js Kc 9d 7d 5s Qh 2h 8c Ad 4c 6h",
        "10s 10d 10h 3s 5d 2c 6c 9h Kh 4s",
        "7s",
        dealer=THEM,
    )
    _play(state, "play J♠", "discard K♣", "draw")
    one_by_one = ["play 10♠ off J♠", "play 10♦ off 10♠", "play 10♥ off 10♦"]
    legal, refusal = try_moves(state, one_by_one)
    return _yes_no_question(
        11,
        "three 10s played one by one",
        "The dealer opened with the J♠. You hold three 10s, the 10♠ among them. Could you"
        " lay them one at a time: the 10♠ off his Jack, then your 10♦ off your 10♠, then"
        " your 10♥ off your 10♦?",
        (*_sides(state), _your_hand(state.hand(YOU))),
        legal,
        [refusal or "the engine allows all three plays"],
    )


def question_12() -> Question:
    """A hand with a Jack-topped run and a group."""
    return _surface_question(
        12,
        "your plays from this hand",
        "This is your hand and you are to play. Put down every card that can be played,"
        " overlapping those that must be overlapped.",
        "Kh 8h 7h Js 10s 9s 10d 7d Ad 7c 6c",
        "Qs 6s 3s Ah 4h Qd 3d 2d Kc 9c",
    )


def build_questions() -> list[Question]:
    """The twelve questions of the book's self-test, in its order, each on a fresh position."""
    return [
        question_1(),
        question_2(),
        question_3(),
        question_4(),
        question_5(),
        question_6(),
        question_7(),
        question_8(),
        question_9(),
        question_10(),
        question_11(),
        question_12(),
    ]
