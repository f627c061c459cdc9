"""The library's public calls under hostile input: each raises only the errors RULES.md
("Errors the library raises") lists for it, a refusal leaves the hand as it was, and no
message quotes more than a short piece of what it was given."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import fingerprint, play, random_hand, snapshot
from umtali.games.umtali.describe import explain_illegal
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind
from umtali.games.umtali.notation import VERBS, format_move, parse_move
from umtali.games.umtali.rules import STANDARD, InvalidRulesError
from umtali.games.umtali.state import HandState, Phase
from umtali.games.umtali.view import PlayerView, ViewError, determinize
from umtali.kernel.cards import (
    CardSet,
    InvalidCardError,
    card_ascii,
    make_card,
    parse_card,
    parse_cards,
    quoted,
)
from umtali.kernel.deck import InvalidDeckError, seeded_deck
from umtali.kernel.players import MatchError

MOVE_ERRORS = (InvalidMoveError, IllegalMoveError)
MATCH_ERRORS = (MatchError, InvalidRulesError)
LONGEST_MESSAGE = 400
"""No refusal is longer than this, however long the input: the quoted part is cut."""

# -- what the fuzz throws at the API ---------------------------------------------------------

ints = st.one_of(
    st.integers(-3, 70),  # around the card ids, and just past them
    st.integers(-(2**70), 2**70),  # past the packed fields
    st.sampled_from([52, 63, 64, 2**52, 2**62, -(2**63), 2**4000]),
)
tokens = st.sampled_from(
    [*VERBS, "stock", "off", "down", "up", ",", "x", "11s", "T♠", "10h", "Ks", "K♠", "Qs"]
    + [card_ascii(c) for c in range(0, 52, 5)]
)
move_text = st.lists(tokens, max_size=8).map(" ".join)
texts = st.one_of(move_text, st.text(max_size=20))
others = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.binary(max_size=4),
    st.lists(ints, max_size=12),
    st.tuples(ints, ints),
    st.dictionaries(st.text(max_size=3), ints, max_size=2),
    st.sampled_from([*MoveKind, STANDARD, Move.draw(), object()]),
)
anything: st.SearchStrategy[Any] = st.one_of(ints, texts, others)
cards_or_not: st.SearchStrategy[Any] = st.one_of(st.integers(0, 51), anything)


def hand_after(seed: int, moves: int) -> HandState:
    """A hand of ``seed`` after up to ``moves`` random legal moves."""
    state = random_hand(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
    return state


def check_move(move: Move) -> None:
    """What every Move that could be made must do: notation writes it and reads it back,
    and its action decodes to it."""
    assert parse_move(format_move(move)) == move
    assert parse_move(move.text(ascii=True)) == move
    assert Move.from_action(move.action) == move


def try_call(
    state: HandState,
    call: Callable[[], object],
    allowed: tuple[type[BaseException], ...],
    changes_state: bool,
) -> object:
    """``call()``, which may raise only ``allowed``; a refusal (and any call that does not
    play a move) leaves the state as it was. Returns the result, or the error."""
    before = (fingerprint(state), snapshot(state))
    refused: BaseException | None = None
    try:
        result = call()
    except allowed as error:
        refused = result = error
    if refused is not None:
        assert len(str(refused)) <= LONGEST_MESSAGE, str(refused)
        assert (fingerprint(state), snapshot(state)) == before, "a refusal changed the hand"
    elif not changes_state:
        assert (fingerprint(state), snapshot(state)) == before
    return result


def random_move_call(data: st.DataObject) -> Callable[[], Move]:
    """A call of one of Move's constructors with arguments of any kind."""
    which = data.draw(st.integers(0, 9), label="constructor")
    if which == 0:
        made: Callable[[], Move] = data.draw(
            st.sampled_from([Move.keep, Move.give, Move.draw, Move.forfeit])
        )
        return made

    def arg(strategy: st.SearchStrategy[Any], label: str) -> Any:
        return data.draw(strategy, label=label)

    card, maybe = cards_or_not, st.one_of(st.none(), cards_or_not)
    down = st.one_of(st.booleans(), anything)
    if which == 1:
        taken = arg(maybe, "take")
        return lambda: Move.take(taken)
    if which == 2:
        top, second = arg(card, "top"), arg(card, "second")
        return lambda: Move.take_two(top, second)
    if which == 3:
        cards = arg(st.one_of(st.lists(card, max_size=14), anything), "meld")
        return lambda: Move.meld(cards)
    if which == 4:
        solo, off = arg(card, "solo"), arg(maybe, "off")
        return lambda: Move.solo(solo, off)
    if which == 5:
        thrown, face = arg(card, "discard"), arg(down, "face_down")
        return lambda: Move.discard_card(thrown, face)
    if which == 6:
        first, other = arg(card, "first"), arg(card, "second")
        odd, pair_face = arg(maybe, "discard"), arg(down, "face_down")
        return lambda: Move.pair(first, other, odd, pair_face)
    if which == 7:
        action = arg(ints, "action")
        return lambda: Move.from_action(action)
    if which == 8:
        text = arg(texts, "text")
        return lambda: parse_move(text)
    # The dataclass's own constructor, with any fields at all.
    kind = arg(st.one_of(st.sampled_from(list(MoveKind)), anything), "kind")
    fields = arg(st.one_of(st.lists(card, max_size=3).map(tuple), anything), "cards")
    target, extra, flag = arg(maybe, "target"), arg(maybe, "discard"), arg(down, "face_down")
    return lambda: Move(kind, fields, target, extra, flag)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 70),
    data=st.data(),
)
def test_random_calls_raise_only_the_documented_errors(
    seed: int, moves: int, data: st.DataObject
) -> None:
    state = hand_after(seed, moves)
    for _ in range(data.draw(st.integers(1, 8), label="calls")):
        random_call(state, data, seed)


def random_call(state: HandState, data: st.DataObject, seed: int) -> None:
    """One public call on ``state`` or beside it, with arguments of any kind."""
    legal = list(state.legal_actions())
    call = data.draw(st.integers(0, 14), label="call")
    if call == 0:  # push anything at all: a legal action now and then
        value = data.draw(st.one_of(st.sampled_from(legal or [0]), anything), label="push")
        try_call(state, lambda: state.push(value), MOVE_ERRORS, changes_state=True)
    elif call == 1:  # push a Move made any way at all
        made = try_call(state, random_move_call(data), (InvalidMoveError,), False)
        if isinstance(made, Move):
            move: Move = made
            check_move(move)
            assert isinstance(explain_illegal(state, move), str)
            assert (move in state.legal_moves) == (move.action in legal)
            try_call(state, lambda: state.push(move), MOVE_ERRORS, changes_state=True)
    elif call == 2:
        text = data.draw(st.one_of(texts, anything), label="push_text")
        try_call(state, lambda: state.push_text(text), MOVE_ERRORS, changes_state=True)
    elif call == 3:
        text = data.draw(st.one_of(texts, anything), label="parse_move")
        found = try_call(state, lambda: state.parse_move(text), MOVE_ERRORS, False)
        if isinstance(found, Move):
            assert found.action in legal
    elif call == 4:
        made = try_call(state, random_move_call(data), (InvalidMoveError,), False)
        given: Any = made if isinstance(made, Move) else data.draw(anything, label="resolve")
        try_call(state, lambda: state.resolve(given), MOVE_ERRORS, False)
    elif call == 5:
        if state.history:
            state.pop()
        else:
            try_call(state, state.pop, (IndexError,), False)
    elif call == 6:
        value = data.draw(anything, label="in legal_moves")
        assert try_call(state, lambda: value in state.legal_moves, (), False) in (True, False)
        assert len(state.legal_moves) == len(legal)
    elif call == 7:
        odd: Any = data.draw(anything, label="explain")
        try_call(state, lambda: explain_illegal(state, odd), (InvalidMoveError,), False)
    elif call == 8:
        player = data.draw(st.one_of(st.sampled_from([0, 1]), anything), label="viewer")
        view = try_call(state, lambda: PlayerView.of(state, player), (ViewError,), False)
        if isinstance(view, PlayerView):
            rng = data.draw(st.one_of(st.just(random.Random(seed)), anything), label="rng")
            try_call(state, lambda: determinize(view, rng), (ViewError,), False)
            plain = view.to_dict()
            key = data.draw(st.sampled_from(sorted(plain)), label="spoil")
            plain[key] = data.draw(anything, label="with")
            spoilt = try_call(state, lambda: PlayerView.from_dict(plain), (ViewError,), False)
            if isinstance(spoilt, PlayerView):  # data a view may hold, if not this view's
                world = try_call(state, lambda: determinize(spoilt, rng), (ViewError,), False)
                if isinstance(world, HandState):
                    world.legal_actions()
    elif call == 9:
        player = data.draw(anything, label="player")
        try_call(state, lambda: state.hand(player), (ValueError,), False)
        try_call(state, lambda: state.table(player), (ValueError,), False)
    elif call == 10:
        named = data.draw(anything, label="cards")
        try_call(state, lambda: parse_card(named), (InvalidCardError,), False)
        try_call(state, lambda: parse_cards(named), (InvalidCardError,), False)
        try_call(state, lambda: CardSet(named), (InvalidCardError,), False)
        try_call(state, lambda: CardSet.parse(named), (InvalidCardError,), False)
        rank, suit = data.draw(anything, label="rank"), data.draw(anything, label="suit")
        try_call(state, lambda: make_card(rank, suit), (InvalidCardError,), False)
    elif call == 11:
        value = data.draw(anything, label="format")
        try_call(state, lambda: format_move(value), (InvalidMoveError,), False)
    elif call == 12:
        deck = data.draw(
            st.one_of(st.just(seeded_deck(seed)), st.lists(ints, max_size=53), anything),
            label="deck",
        )
        dealer = data.draw(st.one_of(st.sampled_from([0, 1]), anything), label="dealer")
        rules = data.draw(st.one_of(st.just(STANDARD), anything), label="rules")
        try_call(
            state,
            lambda: HandState(deck, dealer, rules),
            (InvalidDeckError, InvalidRulesError, ValueError),
            False,
        )
    elif call == 13:
        match_calls(state, data, seed)
    else:  # explain any Move that can be made, legal or not, in this state
        made = try_call(state, random_move_call(data), (InvalidMoveError,), False)
        if isinstance(made, Move):
            assert try_call(state, lambda: explain_illegal(state, made), (), False)


def match_calls(state: HandState, data: st.DataObject, seed: int) -> None:
    """A match made and used with arguments of any kind (player names aside: the record
    format's tests cover them)."""
    kind: Any = data.draw(st.one_of(st.sampled_from(["hand", "game", "session"]), anything))
    first = data.draw(st.one_of(st.sampled_from([0, 1]), anything), label="first_dealer")
    rules = data.draw(st.one_of(st.just(STANDARD), anything), label="rules")
    meta = data.draw(st.one_of(st.none(), st.just({"seed": seed}), anything), label="meta")
    made = try_call(
        state, lambda: Match(rules, kind=kind, first_dealer=first, meta=meta), MATCH_ERRORS, False
    )
    if not isinstance(made, Match):
        return
    match: Match = made
    deck = data.draw(st.one_of(st.just(seeded_deck(seed)), anything), label="deck")
    try_call(state, lambda: match.new_hand(deck), (MatchError, InvalidDeckError), False)
    game, player = data.draw(anything, label="game"), data.draw(anything, label="viewer")
    try_call(state, lambda: match.game_totals(game), (MatchError,), False)
    try_call(state, lambda: match.view(player), (MatchError, ViewError), False)
    if match.current is not None:
        assert match.view(match.current.player).hand == match.current.hand(match.current.player)


# -- the cases of the issue, one by one ---------------------------------------------------


@pytest.fixture
def opened() -> HandState:
    """A hand after the dealer's opening turn: the other player is to draw, with a face-up
    card on the pile."""
    state = HandState.from_seed(3, dealer=0)
    state.push_text("keep")
    while state.phase == Phase.PLAY and state.player == 0:
        state.push(state.legal_actions()[-1])
    assert state.phase == Phase.DRAW
    assert state.top_discard() is not None
    return state


def refuses(
    state: HandState, move: object, error: type[ValueError], match: str | None = None
) -> ValueError:
    before = (fingerprint(state), snapshot(state))
    with pytest.raises(error, match=match) as raised:
        state.push(move)  # type: ignore[arg-type]  # the point: anything at all
    assert (fingerprint(state), snapshot(state)) == before
    return raised.value


def test_an_int_that_would_take_no_card_is_invalid_not_an_index_error(opened: HandState) -> None:
    # 899 packs "take card 56": there is no card 56.
    error = refuses(opened, 899, InvalidMoveError, "899 is not a move action")
    assert "0..51" in str(error)


def test_take_as_typed_is_completed_by_push(opened: HandState) -> None:
    top, mover = opened.top_discard(), opened.player
    assert top is not None
    opened.push(parse_move("take"))
    assert opened.moves_played()[-1] == Move.take(top)
    assert top in opened.hand(mover)


def test_take_as_typed_is_refused_by_rule_when_it_cannot_be_completed() -> None:
    state = HandState.from_seed(3, dealer=0)
    error = refuses(state, parse_move("take"), IllegalMoveError, "no face-up card")
    assert isinstance(error, IllegalMoveError)
    assert error.refusal is not None
    assert error.refusal.code == "no_face_up_discard"
    state.push_text("keep")
    refuses(state, Move.take(), IllegalMoveError, "is not allowed now")


def test_a_card_id_past_51_makes_no_move() -> None:
    # It once packed as another card: 65 is card 1 with the face-down bit set.
    with pytest.raises(InvalidMoveError, match=r"a card id is an int 0\.\.51, not 65"):
        Move.discard_card(65)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Move.discard_card(-1),
        lambda: Move.meld([-1, 2, 3]),
        lambda: Move.pair(-1, 12),
        lambda: Move.solo(5, off=-1),
        lambda: Move.pair(0, 13, discard=-2),
        lambda: Move.take_two(-1, 4),
    ],
)
def test_a_negative_card_makes_no_move(make: Callable[[], Move]) -> None:
    with pytest.raises(InvalidMoveError, match=r"0\.\.51"):
        make()


def test_a_negative_card_is_no_card_in_a_card_set() -> None:
    with pytest.raises(InvalidCardError, match="-1 is not a card id"):
        CardSet([3, -1])
    with pytest.raises(InvalidCardError, match="card mask"):
        CardSet(-1)


def test_text_pushed_as_a_move_is_invalid_not_an_attribute_error(opened: HandState) -> None:
    refuses(opened, "draw", InvalidMoveError, r"push takes a Move or its action int")
    for value in (None, 2.0, True, [2], Move):
        refuses(opened, value, InvalidMoveError, "is not a move")


@pytest.mark.parametrize("cards", [1, 11, 14])
def test_an_action_of_a_meld_no_notation_writes_is_refused(cards: int) -> None:
    action = int(MoveKind.MELD) | ((1 << cards) - 1) << 4
    with pytest.raises(InvalidMoveError, match="is not a move action: a meld has 2 to 10"):
        Move.from_action(action)


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: Move.meld([parse_card("7s")]), "a meld has 2 to 10 different cards"),
        (lambda: Move.meld(range(14)), "not more than 10"),
        (lambda: Move.meld([5, 5, 6]), "a card appears twice"),
        (lambda: Move.meld("Ks Qs"), "read notation with parse_move"),  # type: ignore[arg-type]
        (lambda: Move.meld(None), "not None"),  # type: ignore[arg-type]
        (lambda: Move.take_two(3, 3), "two different cards"),
        (lambda: Move.pair(3, 3), "a pair is two different cards"),
        (lambda: Move.pair(3, 16, discard=3), "three different cards"),
        (lambda: Move.solo(3, off=3), "played off itself"),
        (lambda: Move.solo(True), "not True"),
        (lambda: Move.discard_card(3, face_down=1), "face_down is True or False"),  # type: ignore[arg-type]
        (lambda: Move(5), "a MoveKind, not 5"),  # type: ignore[arg-type]
        (lambda: Move(MoveKind.DRAW, (3,)), "'draw' names no cards"),
        (lambda: Move(MoveKind.TAKE, (3, 4)), "two are take_two"),
        (lambda: Move(MoveKind.DISCARD, (3,), target=4), "only a solo is played off"),
    ],
)
def test_a_move_no_notation_could_write_cannot_be_made(make: Callable[[], Move], why: str) -> None:
    with pytest.raises(InvalidMoveError, match=why):
        make()


def test_moves_are_made_in_one_shape_whatever_the_order_given() -> None:
    assert Move.meld([1, 2, 3]) == Move(MoveKind.MELD, (3, 2, 1)) == Move.meld({3, 1, 2})
    assert Move.pair(13, 0) == Move.pair(0, 13)
    # face_down speaks of the pair's discard; without one nothing lies face down.
    assert Move.pair(0, 13, face_down=True) == Move.pair(0, 13)
    # 'take' as typed is a move in its own right: its repr pastes back.
    assert repr(Move.take()) == "Move.take()"
    assert Move.take() == parse_move("take")
    assert Move.from_action(Move.take().action) == Move.take()


def test_a_bare_take_is_never_among_the_legal_moves(opened: HandState) -> None:
    assert Move.take() not in opened.legal_moves
    assert Move.take(opened.top_discard()) in opened.legal_moves
    assert True not in opened.legal_moves  # a bool is not the action 1


def test_an_illegal_int_is_explained_by_the_rule_it_breaks(opened: HandState) -> None:
    meld = Move.meld([parse_card(t) for t in ("Ks", "Kh", "Kd")])
    refuses(opened, meld.action, IllegalMoveError, "is not allowed now")


def test_a_solo_naming_a_card_of_a_group_off_that_group_is_explained() -> None:
    # The state reads a solo off any card of a group as off its top card; when the card
    # played is that top card, it is on the table, not in hand, and the refusal says so.
    state = HandState(LESSONS[0].deck(), dealer=1)
    play(state, "keep", "meld K♠ K♥ K♣")
    move = Move.solo(parse_card("Ks"), off=parse_card("Kh"))
    assert (
        explain_illegal(state, move)
        == "Player 2 cannot play K♠ off K♥ now: K♠ is not in Player 2's hand."
    )
    refuses(state, move, IllegalMoveError, "K♠ is not in Player 2's hand")


@pytest.mark.parametrize("size", [5_000_000])
def test_a_huge_move_string_gives_a_short_message(opened: HandState, size: int) -> None:
    words = "meld " + "Ks " * (size // 3)
    one_word = "x" * size
    for text in (words, one_word, "play " + one_word, "discard Ks " + one_word):
        with pytest.raises(InvalidMoveError) as raised:
            parse_move(text)
        assert len(str(raised.value)) < 200
        assert "…" in str(raised.value)
        with pytest.raises(InvalidMoveError) as raised:
            opened.push_text(text)
        assert len(str(raised.value)) < 200
    for read in (parse_card, parse_cards, CardSet.parse):
        with pytest.raises(InvalidCardError) as bad_card:
            read(one_word)
        assert len(str(bad_card.value)) < 200


def test_a_huge_int_is_described_not_printed(opened: HandState) -> None:
    huge = 10**5000  # more digits than Python will print
    error = refuses(opened, huge, InvalidMoveError)
    assert "a whole number of 16610 bits" in str(error)
    with pytest.raises(InvalidCardError, match="16610 bits"):
        CardSet(huge)
    with pytest.raises(ViewError, match="16610 bits"):
        PlayerView.of(opened, huge)
    assert quoted([huge]) == "a list"  # its repr fails: named by its type


def test_the_hand_and_its_readers_refuse_what_is_no_player() -> None:
    with pytest.raises(ValueError, match="the dealer is player 0 or 1, not True"):
        HandState(seeded_deck(1), dealer=True)
    with pytest.raises(InvalidRulesError, match="rules are a RuleSet"):
        HandState(seeded_deck(1), rules="standard")  # type: ignore[arg-type]
    with pytest.raises(InvalidDeckError, match="a deck is a sequence of 52 card ids"):
        HandState(None)  # type: ignore[arg-type]
    state = HandState.from_seed(1)
    for player in (-1, 2, True, 0.0):
        with pytest.raises(ValueError, match="player 0 or 1"):
            state.hand(player)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="player 0 or 1"):
            state.table(player)  # type: ignore[arg-type]


def test_views_refuse_what_is_no_state_player_or_rng() -> None:
    state = HandState.from_seed(1)
    with pytest.raises(ViewError, match="a view is of a HandState"):
        PlayerView.of("state", 0)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="player 0 or 1, not True"):
        PlayerView.of(state, True)
    view = PlayerView.of(state, 0)
    with pytest.raises(ViewError, match=r"random\.Random, not 7"):
        determinize(view, 7)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="from a PlayerView"):
        determinize(json.loads("{}"), random.Random(1))
    with pytest.raises(ViewError, match="malformed player view"):
        PlayerView.from_dict({**view.to_dict(), "legal": ["x" * 100_000]})


def test_format_move_and_explain_illegal_take_only_moves() -> None:
    state = HandState.from_seed(1)
    with pytest.raises(InvalidMoveError, match="format_move writes a Move"):
        format_move("draw")  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="explain_illegal explains a Move"):
        explain_illegal(state, "draw")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="names are two strings"):
        explain_illegal(state, Move.draw(), names=("you",))  # type: ignore[arg-type]


def test_card_sets_combine_only_with_card_sets() -> None:
    # Python's operator protocol: another operand is a TypeError, as for frozenset.
    with pytest.raises(TypeError):
        _ = CardSet("Ks") | 5  # type: ignore[operator]
    assert CardSet("Ks") | CardSet("Qs") == CardSet("Ks Qs")
