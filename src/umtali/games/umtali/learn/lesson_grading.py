"""Grading the lesson questions against the engine.

A lesson's questions (:class:`~umtali.games.umtali.learn.notes.LessonQuestion`) are asked on the hand
replayed to their moment (:func:`lesson_state`), as :func:`ask` makes them ready for a
front end. Answers are graded against the engine wherever the rules decide them: the
cards a player must put down come from :func:`~umtali.games.umtali.melds.meld_plans`, whether a draw or a discard is allowed from
the legal moves (and the engine's reason when it is not), scores from the hand's
outcome. Judgement questions (which card to throw, whether to take a discard) are graded
against the book's answer, with the engine checking what it can (that the card may be
thrown, what the opponent could pick up after it).

Nothing here decides a rule: this module asks the engine and words the answers.

>>> from umtali.learn.answers import parse_card_answer
>>> from umtali.games.umtali.lessons import LESSONS
>>> state = lesson_state(LESSONS[1], turn=1, moment="after_draw")
>>> verdict = check_plays(state, parse_card_answer("qd, KD"))
>>> verdict.correct, verdict.answer
(True, 'K♦ Q♦')
>>> check_plays(state, parse_card_answer("Kd Qd 10d")).reasons[0]
'10♦ cannot be played: nothing on the table accepts it, and only a Jack is played off nothing.'

A half-right answer is told what it missed, and what it named wrongly, the learner's
cards named in the order he typed them:

>>> from umtali.learn.answers import parse_card_list
>>> check_plays(state, parse_card_list("Qd 10d")).mistakes
('You named Q♦ 10♦; missing: K♦; wrong: 10♦.',)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache, partial
from typing import get_args

from umtali.games.umtali.describe import describe_move, explain_illegal
from umtali.games.umtali.learn.breakdown import aligned, score_line
from umtali.games.umtali.learn.help import CONTENT
from umtali.games.umtali.learn.notes import LessonQuestion, Moment, QuestionKind
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.learn.surface import column_names
from umtali.games.umtali.lessons import LESSONS, Lesson
from umtali.games.umtali.melds import MeldPlan, column_kind, meld_plans
from umtali.games.umtali.moves import IllegalMoveError, Move, MoveKind, column_order
from umtali.games.umtali.state import HandState, Phase, player_name
from umtali.kernel.cards import Card, CardSet, card_name, display_key
from umtali.kernel.english import sentence
from umtali.learn.answers import (
    AnswerError,
    counted,
    in_typed_order,
    parse_card_list,
    parse_choice,
    parse_numbers,
    parse_yes_no,
)
from umtali.learn.content import load
from umtali.learn.verdict import Verdict

__all__ = [
    "Named",
    "ask",
    "check_choice",
    "check_discard",
    "check_game_score",
    "check_hand_score",
    "check_may_discard",
    "check_may_take",
    "check_may_take_two",
    "check_meld_choice",
    "check_overlapped",
    "check_plays",
    "check_safe_discard",
    "check_should",
    "check_table_points",
    "game_totals",
    "grade",
    "hints",
    "lesson_state",
    "moves_done",
    "play_plan",
    "reveal",
]


@cache
def hints() -> Mapping[QuestionKind, str]:
    """What an answer to each kind of question looks like, in a few words (from
    ``content/lessons.toml``)."""
    table = load(f"{CONTENT}/lessons.toml").table("hints")
    kinds = get_args(QuestionKind)
    table.only(kinds)
    return {kind: table.text(kind) for kind in kinds}


Named = CardSet | Sequence[Card]
"""The cards of a learner's answer: a set, or the cards in the order he typed them
(:func:`~umtali.learn.answers.parse_card_list`), the order the feedback names them in."""


# -- engine helpers ------------------------------------------------------------------


def _names(mask: int) -> str:
    return " ".join(CardSet(mask).sorted_for_display()) or "none"


def _typed(named: Named) -> tuple[Card, ...]:
    """The learner's cards in the order he typed them; a set was typed in no order, so
    its cards come in the order of a hand."""
    if isinstance(named, CardSet):
        return tuple(sorted(named, key=display_key))
    return tuple(dict.fromkeys(named))


def _listed(cards: Iterable[Card]) -> str:
    return " ".join(card_name(c) for c in cards)


def _named_line(typed: Sequence[Card], missing: Sequence[Card], wrong: int) -> str:
    """What a half-right answer named (in the order typed), the right cards it left out
    (in the order given) and which of its cards are wrong (the mask ``wrong``)."""
    line = f"You named {_listed(typed) or 'no card'}"
    if missing:
        line += f"; missing: {_listed(missing)}"
    if wrong:
        line += f"; wrong: {_listed(in_typed_order(wrong, typed))}"
    return line + "."


def _plans(state: HandState) -> list[MeldPlan]:
    return meld_plans(
        state.hands[state.player], state.table_accepts(), state.rules.marriage_multiplier
    )


def _played(plan: MeldPlan) -> int:
    mask = plan.solos
    for meld in plan.melds:
        mask |= meld
    return mask


def _melded(plan: MeldPlan) -> int:
    mask = 0
    for meld in plan.melds:
        mask |= meld
    return mask


def play_plan(state: HandState, plan: MeldPlan) -> tuple[HandState, list[tuple[Move, str]]]:
    """A copy of ``state`` after the player to move has played ``plan``, with each play
    (chosen among the engine's legal moves) and its description."""
    copy = state.clone()
    player = copy.player
    melds = set(plan.melds)
    done: list[tuple[Move, str]] = []
    while copy.player == player and not copy.is_over():
        legal = list(copy.legal_moves)
        chosen = next(
            (m for m in legal if m.kind is MoveKind.MELD and CardSet(m.cards).mask in melds),
            None,
        ) or next(
            (m for m in legal if m.kind is MoveKind.SOLO and plan.solos >> m.cards[0] & 1),
            None,
        )
        if chosen is None:
            break
        done.append((chosen, describe_move(copy, chosen)))
        melds.discard(CardSet(chosen.cards).mask)
        copy.push(chosen)
    return copy, done


def _plan_text(state: HandState, plan: MeldPlan) -> str:
    """The cards of ``plan`` in the order the engine plays them, a meld's cards together."""
    _, plays = play_plan(state, plan)
    return ", ".join(" ".join(card_name(c) for c in move.cards) for move, _ in plays) or "none"


def _going_out(state: HandState, player: int) -> Move | bool | None:
    """How ``player`` can go out now: a move, ``True`` if his plays already emptied his
    hand, or ``None`` if he cannot."""
    if state.player != player or state.is_over():
        return not state.hands[player]
    for move in state.legal_moves:
        if move.kind is MoveKind.PAIR or (
            move.kind is MoveKind.DISCARD and state.hands[player].bit_count() == 1
        ):
            return move
    return None


def _take_two_after(state: HandState, card: int) -> tuple[str, str] | None:
    """If the player to move discards ``card``, whether the opponent could then take the top
    two discards: the description of that take, and of his going out straight after (or "")."""
    copy = state.clone()
    copy.push(Move.discard_card(card))
    if copy.phase != Phase.DRAW:
        return None
    take = next((m for m in copy.legal_moves if m.kind is MoveKind.TAKE_TWO), None)
    if take is None:
        return None
    taking = describe_move(copy, take)
    copy.push(take)
    taker = copy.player
    copy, _ = play_plan(copy, _plans(copy)[0])
    out = _going_out(copy, taker)
    if isinstance(out, Move):
        return taking, describe_move(copy, out)
    return taking, "he plays every card and is out" if out else ""


def _card_of(text: str) -> int:
    return next(iter(CardSet.parse(text)))


def _require_in_hand(state: HandState, typed: Sequence[Card]) -> None:
    hand = state.hand(state.player)
    outside = CardSet(typed) - hand
    if outside:
        verb = "is" if len(outside) == 1 else "are"
        raise AnswerError(
            f"{_listed(in_typed_order(outside.mask, typed))} {verb} not in"
            f" {player_name(state.player)}'s hand; he holds {_names(hand.mask)}"
        )


def _closest(plans: Sequence[MeldPlan], named: int, overlapped: bool = False) -> MeldPlan:
    """The plan whose cards (all played, or only the overlapped ones) are nearest the named
    cards; ties go to the better-scoring plan."""

    def distance(plan: MeldPlan) -> int:
        cards = _melded(plan) if overlapped else _played(plan)
        return (cards ^ named).bit_count()

    return min(plans, key=distance)


def _why_not_played(state: HandState, card: int, plans: Sequence[MeldPlan]) -> str:
    name = card_name(card)
    if any(_played(p) >> card & 1 for p in plans):
        return f"{name} goes down only with a different choice of melds."
    if not state.table(0) and not state.table(1):
        # The engine's own reason: an empty table takes nothing but a Jack.
        return explain_illegal(state, Move.solo(card))
    return (
        f"{name} makes no meld with the cards in hand, and nothing on the table takes it,"
        " even after the other plays."
    )


# -- graders -------------------------------------------------------------------------


def check_plays(state: HandState, named: Named | None, best: bool = False) -> Verdict:
    """Grade "which cards does the player to move put down this turn?".

    Right is the set of cards of any end state of the compulsory meld phase the engine
    finds (:func:`umtali.games.umtali.melds.meld_plans`); with ``best``, only the best-scoring ones.
    ``None`` reveals the answer. A wrong answer's mistake names the cards missing and the
    cards named wrongly, against the right answer nearest it.
    """
    plans = _plans(state)
    top = plans[0].points
    good = [p for p in plans if not best or p.points == top]
    if named is None:
        plan = good[0]
        _, plays = play_plan(state, plan)
        return Verdict(False, _plan_text(state, plan), tuple(text for _, text in plays))
    typed = _typed(named)
    _require_in_hand(state, typed)
    named = CardSet(typed)
    match = next((p for p in plans if _played(p) == named.mask), None)
    if match is not None and match in good:
        others = [p for p in plans if p is not match]
        also = tuple(
            f"The rules would also allow {_plan_text(state, p)} ({counted(p.points, 'point')}"
            f" against {match.points})."
            for p in others
        )
        return Verdict(True, _plan_text(state, match), also)
    if match is not None:
        best_plan = good[0]
        return Verdict(
            False,
            _plan_text(state, best_plan),
            (
                f"{_plan_text(state, match)} may all go down, but they score {match.points};"
                f" {_plan_text(state, best_plan)} score {best_plan.points}.",
            ),
        )
    target = _closest(good, named.mask)
    _, plays = play_plan(state, target)
    missed = _played(target) & ~named.mask
    extra = named.mask & ~_played(target)
    reasons: list[str] = []
    for card in CardSet(extra):
        reasons.append(_why_not_played(state, card, plans))
    for move, text in plays:
        if CardSet(move.cards).mask & missed and text not in reasons:
            reasons.append(text)
    # Missing cards in the order the engine plays them, a meld's cards together.
    missing = [c for move, _ in plays for c in move.cards if missed >> c & 1]
    mistake = _named_line(typed, missing, extra)
    return Verdict(False, _plan_text(state, target), tuple(reasons), (mistake,))


def check_overlapped(state: HandState, named: Named | None) -> Verdict:
    """Grade "which of the cards put down go into overlapped columns?" (``None`` reveals)."""
    plans = _plans(state)
    if named is None:
        plan = plans[0]
        return Verdict(False, _names(_melded(plan)), _overlap_reasons(state, plan, 0))
    typed = _typed(named)
    _require_in_hand(state, typed)
    mask = CardSet(typed).mask
    if any(_melded(p) == mask for p in plans):
        return Verdict(True, _names(mask))
    target = _closest(plans, mask, overlapped=True)
    missing = [c for meld in target.melds for c in column_order(meld) if not mask >> c & 1]
    mistake = _named_line(typed, missing, mask & ~_melded(target))
    return Verdict(
        False,
        _names(_melded(target)),
        _overlap_reasons(state, target, mask),
        (mistake,),
    )


def _overlap_reasons(state: HandState, plan: MeldPlan, named: int) -> tuple[str, ...]:
    reasons: list[str] = []
    for meld in plan.melds:
        if meld & ~named:
            kind = column_kind(meld).label
            cards = " ".join(card_name(c) for c in column_order(meld))
            reasons.append(f"{cards} make a {kind}, so they go down together, overlapped.")
    extra = named & ~_melded(plan)
    jacks = [c for c in CardSet(extra) if card_name(c).startswith("J")]
    if len(jacks) == 1:  # one card is no meld at all, so there is no move to refuse
        reasons.append("Jacks are never overlapped: each Jack is played solo")
    elif jacks:
        move = Move.meld(jacks)
        if move not in state.legal_moves:
            reasons.append(explain_illegal(state, move))
    _, plays = play_plan(state, plan)
    solo_lines = {move.cards[0]: text for move, text in plays if move.kind is MoveKind.SOLO}
    for card in CardSet(extra):
        if card in jacks:
            continue
        if card in solo_lines:
            reasons.append(f"{solo_lines[card]}: a single card, never overlapped.")
        else:
            reasons.append(f"{card_name(card)} does not go down this turn at all.")
    if not plan.melds and not reasons:
        reasons.append("No meld goes down this turn.")
    return tuple(reasons)


def check_discard(state: HandState, named: Named | None, book: str) -> Verdict:
    """Grade "which card should be discarded?" against the book's card ``book``. The engine
    checks the named card may be discarded now (else :class:`AnswerError` with its reason)
    and whether it would let the opponent take the top two discards."""
    right = _card_of(book)
    reasons: list[str] = []
    if named is None:
        return Verdict(False, card_name(right))
    if len(named) != 1:
        raise AnswerError(f"name one card to discard, not {len(named)}")
    card = next(iter(named))
    try:
        state.resolve(Move.discard_card(card))
    except IllegalMoveError:
        raise AnswerError(explain_illegal(state, Move.discard_card(card))) from None
    risk = _take_two_after(state, card)
    if risk is not None:
        taking, out = risk
        then = f", and then: {out}" if out else ""
        reasons.append(f"After discarding {card_name(card)}: {taking}{then}.")
    return Verdict(card == right, card_name(right), tuple(reasons))


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def check_may_take_two(state: HandState, yes: bool | None) -> Verdict:
    """Grade "may the player to move take the top two discards?" by the engine's legal
    moves."""
    take = next((m for m in state.legal_moves if m.kind is MoveKind.TAKE_TWO), None)
    if take is not None:
        reason = f"The engine allows it: '{take}', since both cards can be played this turn."
    else:
        pile = [c for c, down in state.discard_pile()[-2:] if not down]
        if len(pile) == 2:
            reason = explain_illegal(state, Move.take_two(pile[1], pile[0]))
        else:
            reason = "There are not two face-up cards on the discard pile."
    return Verdict(yes == (take is not None), _yes(take is not None), (reason,))


def check_may_take(state: HandState, yes: bool | None) -> Verdict:
    """Grade "may the player to move take the top discard?" by the engine's legal moves."""
    take = next((m for m in state.legal_moves if m.kind is MoveKind.TAKE), None)
    if take is not None:
        reason = f"The engine allows '{take}'."
    else:
        pile = state.discard_pile()
        if pile:
            reason = explain_illegal(state, Move.take(pile[-1][0]))
        else:
            try:
                state.parse_move("take")
                reason = ""  # pragma: no cover - a take would have been legal
            except IllegalMoveError as e:
                why = e.refusal
                reason = sentence(why.reason(cite=False)) if why is not None else str(e)
    return Verdict(yes == (take is not None), _yes(take is not None), (reason,))


def check_may_discard(state: HandState, yes: bool | None) -> Verdict:
    """Grade "may the player to move discard now?" by the engine's legal moves."""
    allowed = any(m.kind is MoveKind.DISCARD for m in state.legal_moves)
    hand = list(state.hand(state.player))
    reasons: tuple[str, ...] = ()
    if not allowed and hand:
        reasons = (explain_illegal(state, Move.discard_card(hand[0])),)
    return Verdict(yes == allowed, _yes(allowed), reasons)


def check_safe_discard(state: HandState, card: str, yes: bool | None) -> Verdict:
    """Grade "is discarding ``card`` safe?": unsafe if the engine would then let the
    opponent take the top two discards."""
    risk = _take_two_after(state, _card_of(card))
    if risk is None:
        reason = (
            f"The opponent could not take the top two discards after {card_name(_card_of(card))}."
        )
        return Verdict(yes is True, "yes", (reason,))
    taking, out = risk
    then = f", and then: {out}" if out else ""
    return Verdict(yes is False, "no", (f"The engine shows it: {taking}{then}.",))


def check_should(book: str, yes: bool | None) -> Verdict:
    """Grade a yes-or-no judgement against the book's answer (``"yes"`` or ``"no"``)."""
    right = book == "yes"
    return Verdict(yes == right, _yes(right))


def check_choice(question: LessonQuestion, key: str | None) -> Verdict:
    """Grade a multiple choice against the book's key."""
    text = dict(question.options)[question.book]
    return Verdict(key == question.book, f"{question.book}) {text}")


def _forfeit_reasons(state: HandState, rest: Sequence[str]) -> tuple[str, ...]:
    """Play the rest of the hand on a copy and say what the engine did with the cards left."""
    copy = state.clone()
    for text in rest:
        copy.push_text(text)
    outcome = copy.outcome()
    if outcome is None or not outcome.forfeited:
        return ()
    out = outcome.went_out[0]
    return (
        f"In this hand: {player_name(1 - out)} is left holding {_names(outcome.forfeited.mask)},"
        f" and the engine adds their {counted(outcome.forfeited.points(), 'point')} to"
        f" {player_name(out)}'s score.",
    )


def check_meld_choice(state: HandState, question: LessonQuestion, key: str | None) -> Verdict:
    """Grade "which of these melds should the player lay?": the engine plays each choice
    out and the right one is the one after which the player can go out this turn."""
    plans = _plans(state)
    player = state.player
    right: list[str] = []
    reasons: list[str] = []
    for option, cards in question.options:
        meld = CardSet.parse(cards).mask
        choices = [p for p in plans if meld in p.melds]
        if not choices:
            raise ValueError(f"no meld plan lays {cards}")  # pragma: no cover - data error
        plan = choices[0]
        copy, _ = play_plan(state, plan)
        out = _going_out(copy, player)
        kind = column_kind(meld).label
        laid = " ".join(card_name(c) for c in column_order(meld))
        if out:
            right.append(option)
            how = describe_move(copy, out) if isinstance(out, Move) else "he is out"
            reasons.append(f"With the {kind} {laid}, he keeps {_names(plan.left)}: {how}.")
        else:
            reasons.append(
                f"With the {kind} {laid}, he keeps {_names(plan.left)} and cannot go out."
            )
    answer = " or ".join(right) if right else "either"
    return Verdict(key in right if right else True, answer, tuple(reasons))


def check_table_points(state: HandState, number: int | None) -> Verdict:
    """Grade "how many points does the player to move have on the table?"."""
    p = state.player
    points = state.points[p]
    multiplier = state.rules.marriage_multiplier
    lines = aligned([score_line(column, multiplier) for column in state.table(p)])
    return Verdict(number == points, str(points), lines)


def check_hand_score(state: HandState, numbers: tuple[int, ...] | None) -> Verdict:
    """Grade "score the hand" against the engine's outcome (Player 1 first)."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the hand is not over")
    reasons = []
    for p in (0, 1):
        extra = ""
        if outcome.forfeited and outcome.went_out and outcome.went_out[0] == p:
            extra = f" + {outcome.forfeited.points()} handed over"
        reasons.append(
            f"{player_name(p)}: {outcome.played[p]} on the table{extra} = {outcome.scores[p]}."
        )
    answer = f"{outcome.scores[0]} to {outcome.scores[1]}"
    return Verdict(numbers == outcome.scores, answer, tuple(reasons))


def game_totals(number: int) -> tuple[int, int]:
    """The game totals after lesson hand ``number``, each hand replayed on the engine.

    >>> game_totals(3)
    (104, 102)
    """
    totals = [0, 0]
    for lesson in LESSONS[:number]:
        outcome = lesson.state_at().outcome()
        if outcome is None:  # pragma: no cover - the lesson data ends every hand
            raise ValueError(f"lesson hand {lesson.number} does not end")
        totals[0] += outcome.scores[0]
        totals[1] += outcome.scores[1]
    return totals[0], totals[1]


def check_game_score(number: int, numbers: tuple[int, ...] | None) -> Verdict:
    """Grade the game totals after lesson hand ``number`` (Player 1 first)."""
    totals = game_totals(number)
    hands = []
    for lesson in LESSONS[:number]:
        hands.append(f"{lesson.scores[0]}–{lesson.scores[1]}")
    return Verdict(
        numbers == totals,
        f"{totals[0]} to {totals[1]}",
        (f"Hand by hand: {', '.join(hands)}.",),
    )


def grade(
    question: LessonQuestion,
    state: HandState,
    text: str | None,
    *,
    lesson: int,
    rest: Sequence[str] = (),
) -> Verdict:
    """Grade the learner's ``text`` for ``question`` asked in ``state`` (``None``: reveal the
    answer). ``lesson`` is the lesson's number, ``rest`` the moves left in the hand.

    Raises :class:`AnswerError` for an answer that cannot be read or cannot apply.
    """
    kind = question.kind
    if kind in ("plays", "best_plays", "overlapped", "discard"):
        cards = None if text is None else parse_card_list(text)
        if kind == "overlapped":
            return check_overlapped(state, cards)
        if kind == "discard":
            return check_discard(state, cards, question.book)
        return check_plays(state, cards, best=kind == "best_plays")
    if kind in ("may_take", "may_take_two", "may_discard", "safe_discard", "should"):
        yes = None if text is None else parse_yes_no(text)
        if kind == "may_take":
            return check_may_take(state, yes)
        if kind == "may_take_two":
            return check_may_take_two(state, yes)
        if kind == "may_discard":
            return check_may_discard(state, yes)
        if kind == "safe_discard":
            return check_safe_discard(state, question.card, yes)
        return check_should(question.book, yes)
    keys = [k for k, _ in question.options]
    if kind in ("choice", "forfeit"):
        verdict = check_choice(question, None if text is None else parse_choice(text, keys))
        if kind == "forfeit":
            verdict = Verdict(
                verdict.correct, verdict.answer, verdict.reasons + _forfeit_reasons(state, rest)
            )
        return verdict
    if kind == "meld_choice":
        return check_meld_choice(
            state, question, None if text is None else parse_choice(text, keys)
        )
    if kind == "table_points":
        return check_table_points(state, None if text is None else parse_numbers(text, 1)[0])
    if kind == "hand_score":
        return check_hand_score(state, None if text is None else parse_numbers(text, 2))
    return check_game_score(lesson, None if text is None else parse_numbers(text, 2))


def reveal(
    question: LessonQuestion, state: HandState, *, lesson: int, rest: Sequence[str] = ()
) -> Verdict:
    """The answer to ``question`` without a learner's answer (for ``skip`` and for running
    out of tries)."""
    return grade(question, state, None, lesson=lesson, rest=rest)


# -- asking at a moment of the hand ------------------------------------------------------


def moves_done(lesson: Lesson, turn: int, moment: Moment) -> int:
    """How many moves of turn ``turn`` are played when a question of ``moment`` is asked.

    >>> from umtali.games.umtali.lessons import LESSONS
    >>> [moves_done(LESSONS[0], 2, m) for m in ("start", "after_draw", "before_end", "after_turn")]
    [0, 1, 5, 6]
    """
    moves = len(lesson.turns[turn - 1].moves)
    done = {"start": 0, "after_draw": 1, "before_end": moves - 1}.get(moment, moves)
    return max(done, 1) if turn == 1 else done  # the deal ("keep") comes first


def lesson_state(lesson: Lesson, turn: int, moment: Moment) -> HandState:
    """The lesson hand replayed up to the moment a question of ``turn`` is asked (the end of
    the hand for ``turn`` 0)."""
    if turn == 0:
        return lesson.state_at()
    return lesson.state_at(turn, moves_done(lesson, turn, moment))


def ask(
    question: LessonQuestion, state: HandState, *, lesson: int, rest: Sequence[str] = ()
) -> Question:
    """``question`` put on ``state`` (copied, so the hand may go on), ready for a front end
    to ask and grade; ``lesson`` is the lesson's number, ``rest`` the moves left in the hand.

    >>> from umtali.games.umtali.learn.notes import lesson_notes
    >>> from umtali.games.umtali.lessons import LESSONS
    >>> spec = lesson_notes()[2].questions[2]
    >>> put = ask(spec, lesson_state(LESSONS[2], spec.turn, spec.moment), lesson=3)
    >>> put.choices, put.answer_prompt
    ((('sequence', '5♣ 4♣ 3♣'), ('group', '3♠ 3♦ 3♣')), 'Your choice (or skip): ')
    >>> put.grade("seq").correct, put.reveal().answer
    (True, 'sequence')
    """
    position = state.clone()
    hint = hints()[question.kind]
    choices = question.options
    if question.kind == "meld_choice":
        # A meld is shown as the column it would make, top card first.
        choices = tuple((key, column_names(CardSet.parse(cards).mask)) for key, cards in choices)
    return Question(
        prompt=question.prompt,
        kind=question.kind,
        answer_prompt=f"{hint} (or skip): ",
        expects=f"Expected: {hint}.",
        grade=partial(grade, question, position, lesson=lesson, rest=tuple(rest)),
        reveal=partial(reveal, question, position, lesson=lesson, rest=tuple(rest)),
        choices=choices,
        why=question.why,
    )
