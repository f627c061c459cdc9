"""Grading the quiz's answers against the engine.

Every right answer is what the engine says about a position: the cards a table card
accepts, whether a move is legal (and the engine's refusal when it is not), what a table
scores, or how a compulsory meld phase can end (:func:`umtali.games.umtali.melds.meld_plans`). Each
grader reads the learner's answer (:mod:`umtali.learn.answers`,
:mod:`umtali.games.umtali.learn.surface`), compares it with the engine's, and says what was wrong.

>>> grade_number("38", 40, ["the table scores 40"]).mistakes
('38 is too low',)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from umtali.games.umtali.describe import explain_illegal
from umtali.games.umtali.learn.surface import (
    Surface,
    card_list,
    column_key,
    column_names,
    parse_surface,
    plays_text,
    surface_text,
)
from umtali.games.umtali.melds import MeldPlan
from umtali.games.umtali.moves import (
    MAX_MELD_CARDS,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveKind,
)
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import CardSet, bit, card_name, cards_of, display_key, mask_of
from umtali.kernel.english import YOU
from umtali.learn.answers import (
    in_typed_order,
    parse_card_list,
    parse_number,
    parse_yes_no,
)
from umtali.learn.verdict import Verdict

__all__ = [
    "engine_refusal",
    "grade_card_set",
    "grade_number",
    "grade_surface",
    "grade_yes_no",
    "play_items",
    "surface_answer",
    "surface_solution",
]


def _yes_no(truth: bool) -> str:
    return "yes" if truth else "no"


def grade_yes_no(text: str, truth: bool, why: Sequence[str]) -> Verdict:
    """Grade a yes/no answer against the engine's verdict ``truth`` (``why``: its reasons).

    >>> grade_yes_no("no", False, ["illegal"]).correct
    True
    """
    given = parse_yes_no(text)
    if given == truth:
        return Verdict(True, _yes_no(truth), tuple(why))
    mistake = f"The answer is {_yes_no(truth)}, not {_yes_no(given)}"
    return Verdict(False, _yes_no(truth), tuple(why), (mistake,))


def grade_number(text: str, value: int, why: Sequence[str]) -> Verdict:
    """Grade a number against the engine's ``value``."""
    given = parse_number(text)
    if given == value:
        return Verdict(True, str(value), tuple(why))
    mistake = f"{given} is {'too high' if given > value else 'too low'}"
    return Verdict(False, str(value), tuple(why), (mistake,))


def grade_card_set(
    text: str,
    expected: CardSet,
    target: int,
    on_table: CardSet,
    check: Callable[[int], str | None],
    why: Sequence[str] = (),
) -> Verdict:
    """Grade a list of cards against the engine's acceptance set ``expected`` of the table
    card ``target``.

    ``check(card)`` asks the engine whether ``card`` may be played off ``target`` (``None``:
    it may; else the refusal message); it explains each card answered wrongly. The
    learner's cards are named back in the order he typed them.

    >>> from umtali.kernel.cards import parse_card
    >>> five = parse_card("5c")
    >>> grade_card_set("7c 6c 8c", CardSet.parse("6c 4c"), five, CardSet([five]),
    ...                lambda card: None if card_name(card) in ("6♣", "4♣") else "no").mistakes
    ('no', 'no', 'You missed 4♣: you could play 4♣ off 5♣')
    """
    typed = parse_card_list(text)
    given = CardSet(typed)
    answer = card_list(expected.mask) or "none"
    if given == expected:
        return Verdict(True, answer, tuple(why))
    mistakes: list[str] = []
    off = card_name(target)
    for c in in_typed_order((given - expected).mask, typed):
        if c in on_table:
            mistakes.append(f"{card_name(c)} is already on the table")
            continue
        refusal = check(c)
        mistakes.append(
            refusal if refusal is not None else f"{card_name(c)} cannot be played off {off}"
        )
    for c in sorted(expected - given, key=display_key):
        mistakes.append(
            f"You missed {card_name(c)}: you could play {card_name(c)} off {off}"
            if check(c) is None
            else f"You missed {card_name(c)}"
        )
    return Verdict(False, answer, tuple(why), tuple(mistakes))


def _solo_moves(state: HandState, card: int) -> list[Move]:
    return [m for m in state.legal_moves if m.kind is MoveKind.SOLO and m.cards[0] == card]


def play_items(
    state: HandState, melds: Sequence[int], solos: int
) -> tuple[HandState, list[Move], int]:
    """Play the given overlapped columns and solo cards on a copy of ``state``, in whatever
    order the engine allows them (a solo off the first table card it may go off).

    Returns the copy, the moves played, and the cards that could not be played. Solos that
    become playable together go down in the book's order: spades first, high to low.
    """
    board = state.clone()
    me = board.player
    todo = list(melds)
    left = solos
    moves: list[Move] = []
    progress = True
    while (todo or left) and progress and board.player == me and not board.is_over():
        progress = False
        for meld in list(todo):
            move = Move.meld(cards_of(meld))
            if board.player == me and move in board.legal_moves:
                board.push(move)
                moves.append(move)
                todo.remove(meld)
                progress = True
        ready = sorted((c for c in cards_of(left) if _solo_moves(board, c)), key=display_key)
        for c in ready:
            options = _solo_moves(board, c) if board.player == me else []
            if options:
                board.push(options[0])
                moves.append(options[0])
                left &= ~bit(c)
                progress = True
    for meld in todo:
        left |= meld
    return board, moves, left


def surface_answer(state: HandState, plan: MeldPlan) -> str:
    """A meld plan written the way the learner is asked to write it: solo cards in an
    order the engine plays them, then the overlapped columns, then what stays in hand."""
    _, moves, _ = play_items(state, plan.melds, plan.solos)
    solos = [m.cards[0] for m in moves if m.kind is MoveKind.SOLO]
    melds = [mask_of(m.cards) for m in moves if m.kind is MoveKind.MELD]
    text = plays_text(solos, sorted(melds, key=column_key))
    if plan.left:
        text += f" (left in hand: {card_list(plan.left)})"
    return text


def surface_solution(
    state: HandState, plans: Sequence[MeldPlan], best: MeldPlan | None = None
) -> Verdict:
    """The engine's answer for a surface question: ``best`` (the first plan unless given),
    with any other plan the engine allows named in the reasons (``correct`` is false: it
    grades no answer)."""
    first = plans[0] if best is None else best
    why = tuple(f"This is right too: {surface_answer(state, p)}" for p in plans if p is not first)
    if len(plans) == 1:
        why = ("There is no other way to end the meld phase with this hand",)
    return Verdict(False, surface_answer(state, first), why)


def engine_refusal(state: HandState, move: Move) -> str | None:
    """Why the engine refuses ``move`` now, said to the player to move (the learner), or
    ``None`` if it is legal."""
    try:
        state.resolve(move)
    except IllegalMoveError:
        return explain_illegal(state, move, names=spoken_to(state.player))
    except InvalidMoveError as e:
        return str(e)
    return None


def spoken_to(mover: int) -> tuple[str, str]:
    """The players' names when ``mover`` (the learner) is spoken to as "you"."""
    return (YOU, "your opponent") if mover == 0 else ("your opponent", YOU)


def _plan_distance(plan: MeldPlan, surface: Surface) -> int:
    columns = set(surface.columns)
    melds = set(plan.melds)
    return len(columns ^ melds) + (plan.solos ^ surface.solos).bit_count()


def grade_surface(text: str, state: HandState, plans: Sequence[MeldPlan]) -> Verdict:
    """Grade a playing surface against the engine's meld plans for the player to move in
    ``state``: right when its overlapped columns and its solo cards are those of a plan.

    Mistakes are explained by the engine: the refusal of a wrongly overlapped column or of
    a card played solo that The Rule keeps for a meld, and the compulsory-play refusal when
    playable cards were left out.
    """
    me = state.player
    hand = state.hands[me]
    given = parse_surface(text, hand)
    read_as = surface_text(given) if given.read_without_commas else None
    best = min(plans, key=lambda p: _plan_distance(p, given))
    answer = surface_solution(state, plans, best)
    if any(set(p.melds) == set(given.columns) and p.solos == given.solos for p in plans):
        return replace(answer, correct=True, read_as=read_as)

    end, _, _ = play_items(state, best.melds, best.solos)
    mistakes: list[str] = []

    def meld_of(card: int) -> int:
        return next((m for m in best.melds if m & bit(card)), 0)

    def stays(card: int) -> str:
        if end.player == me and _solo_moves(end, card):  # pragma: no cover - engine disagrees
            return f"{card_name(card)} stays in hand"
        return (
            f"{card_name(card)} cannot be played: once everything else is down, nothing on"
            " the table takes it"
        )

    # The learner's own cards are named in the order he wrote them; the engine's in the
    # order of a hand.
    foreign = given.cards & ~hand
    for c in in_typed_order(foreign, given.typed):
        mistakes.append(f"{card_name(c)} is not in your hand")
    for column in given.columns:
        if column in best.melds:
            continue
        if not column & foreign:
            refusal = (
                engine_refusal(state, Move.meld(cards_of(column)))
                if 2 <= column.bit_count() <= MAX_MELD_CARDS
                else f"a column holds 2 to {MAX_MELD_CARDS} cards"
            )
            mistakes.append(
                f"{column_names(column)} as one column: {refusal}"
                if refusal is not None
                else f"{column_names(column)} may be overlapped, but not with the rest of"
                " your plays"
            )
        for c in in_typed_order(column & hand, given.typed):
            if best.solos & bit(c):
                mistakes.append(f"{card_name(c)} must be played solo, not overlapped")
            elif meld_of(c):
                mistakes.append(
                    f"{card_name(c)} belongs in the overlapped column {column_names(meld_of(c))}"
                )
            else:
                mistakes.append(stays(c))
    for c in in_typed_order(given.solos & hand & ~best.solos, given.typed):
        meld = meld_of(c)
        if meld:
            refusal = engine_refusal(state, Move.solo(c))
            mistakes.append(
                f"{card_name(c)} must be overlapped in {column_names(meld)}"
                + (f": {refusal}" if refusal is not None else "")
            )
        else:
            mistakes.append(stays(c))
    missed_any = False
    for meld in best.melds:
        if not meld & given.cards:
            mistakes.append(f"You missed {column_names(meld)} (an overlapped column)")
            missed_any = True
        elif meld & ~given.cards:
            for c in sorted(cards_of(meld & ~given.cards), key=display_key):
                mistakes.append(f"You missed {card_name(c)} (in {column_names(meld)})")
                missed_any = True
    for c in sorted(cards_of(best.solos & ~given.cards), key=display_key):
        mistakes.append(f"You missed {card_name(c)} (a solo card)")
        missed_any = True
    if missed_any:
        learner_melds = [m for m in given.columns if not m & foreign]
        after, _, _ = play_items(state, learner_melds, given.solos & hand)
        rest = after.hands[me]
        if after.player == me and rest:
            refusal = engine_refusal(after, Move.discard_card(cards_of(rest)[0]))
            if refusal is not None:
                mistakes.append(refusal)
    return replace(answer, mistakes=tuple(mistakes), read_as=read_as)
